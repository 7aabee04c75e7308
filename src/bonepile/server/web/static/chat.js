// The side panel of a table: the move log (every turn and its effects in words), the table
// chat (user text: always text nodes) and the claim code.
import { h, local } from "./dom.js";
import { seatColor } from "./draw.js";
import { describeEvent, describeResult } from "./describe.js";
import { accountMark } from "./seats.js";

export class SidePanel {
  /** hooks: {chat(text), claim(code), unread(count): the others' messages not seen yet} */
  constructor(container, hooks) {
    this.hooks = hooks;
    this.tab = "moves";
    this.seenV = -1; // the version of the last message seen (kept per table in this browser)
    this.unreadCount = 0;
    this.logList = h("ol", { class: "log-list", "aria-live": "off" });
    this.chatList = h("ol", { class: "chat-list", "aria-live": "polite" });
    this.chatInput = h("input", { type: "text", maxlength: 280, placeholder: "Say something…", "aria-label": "Chat message", autocomplete: "off" });
    this.chatForm = h("form", { class: "chat-form", onsubmit: (e) => this._send(e) }, this.chatInput, h("button", { type: "submit", class: "btn btn-secondary" }, "Send"));
    this.tabMoves = h("button", { type: "button", role: "tab", class: "tab", onclick: () => this.show("moves") }, "Moves");
    this.unread = h("span", { class: "badge", hidden: true });
    this.tabChat = h("button", { type: "button", role: "tab", class: "tab", onclick: () => this.show("chat") }, "Chat", this.unread);
    // the log scrolls: it takes the keyboard's focus, so that keys can scroll it
    this.movesPane = h("div", { class: "pane pane-moves", role: "tabpanel", tabindex: 0, "aria-label": "Moves" }, this.logList);
    this.chatPane = h("div", { class: "pane pane-chat", role: "tabpanel" }, this.chatList, this.chatForm);
    this.claimBox = h("div", { class: "claim" });
    this.el = h("div", { class: "side-inner" },
      h("div", { class: "tabs", role: "tablist" }, this.tabMoves, this.tabChat),
      this.movesPane, this.chatPane, this.claimBox);
    container.append(this.el);
    this.show("moves");
    this.claimKey = "";
  }

  show(tab) {
    this.tab = tab;
    this.tabMoves.setAttribute("aria-selected", String(tab === "moves"));
    this.tabChat.setAttribute("aria-selected", String(tab === "chat"));
    this.movesPane.hidden = tab !== "moves";
    this.chatPane.hidden = tab !== "chat";
    if (tab === "chat") {
      if (this.last) this._seen(this.last[0]);
      this._bottom(this.chatList, true);
    } else {
      this._bottom(this.logList, true);
    }
  }

  _send(e) {
    e.preventDefault();
    const text = this.chatInput.value.trim();
    if (!text) return;
    if (this.hooks.chat(text)) this.chatInput.value = "";
  }

  /** Every message of the state is seen (the chat shows): none unread any more. */
  _seen(state) {
    const chat = state.chat || [];
    const v = chat.length ? chat[chat.length - 1].v : -1;
    if (v > this.seenV) {
      this.seenV = v;
      local.set(seenKey(state.table), String(v));
    }
    this._count(state);
  }

  /** The others' messages after the last one seen: on the Chat tab and to the hook. */
  _count(state) {
    const n = (state.chat || []).filter((m) => m.v > this.seenV && !(m.seat === state.you && m.seat !== null)).length;
    this.unreadCount = n;
    this.unread.hidden = n <= 0;
    this.unread.replaceChildren(String(n), h("span", { class: "sr-only" }, " unread"));
    if (this.hooks.unread) this.hooks.unread(n);
  }

  _bottom(list, force) {
    const pane = list.parentElement;
    if (!pane) return;
    if (force || pane.scrollHeight - pane.scrollTop - pane.clientHeight < 80) pane.scrollTop = pane.scrollHeight;
  }

  /** Redraw the log, chat and claim from a state; name(seat) names seats. */
  update(state, name, visible) {
    if (!this.last || this.last[0].table !== state.table) this.seenV = Number(local.get(seenKey(state.table)) || -1);
    this.last = [state, name, visible];
    const pane = this.movesPane;
    const stick = pane.scrollHeight - pane.scrollTop - pane.clientHeight < 80;
    const items = [];
    state.hands.forEach((hand, i) => {
      if (i + 1 < state.hand_number || state.view.result === null) {
        items.push(h("li", { class: "log-hand" }, `Hand ${i + 1}: ${describeResult(hand.result, name)}`));
      }
    });
    if (state.match || state.hand_number > 1) items.push(h("li", { class: "log-head" }, `Hand ${state.hand_number}`));
    // the moves a bot made for a person (their time ran out, or they were away), by ply
    const madeFor = new Map((state.made_for || []).map(([ply, seat, why]) => [ply, { seat, why }]));
    const timedOut = new Set();
    // a player who left is named as they were for the moves they made before (not "(left)")
    const then = (ply) => (seat) => {
      const s = seat === null || seat === undefined ? null : state.seats[seat];
      return s && s.left && Number.isInteger(s.left_ply) && ply < s.left_ply ? s.left : name(seat);
    };
    (state.view.history || []).forEach((turn, ply) => {
      const lines = (turn.events || []).map((e) => describeEvent(e, then(ply))).filter(Boolean);
      const m = madeFor.get(ply);
      if (m && lines.length) {
        const who = name(m.seat);
        const whom = who === "You" ? "you" : who;
        if (m.why === "time" && !timedOut.has(m.seat)) {
          timedOut.add(m.seat);
          items.push(h("li", { class: "log-note" }, `${who === "You" ? "Your" : `${who}'s`} time ran out: a bot plays for ${who === "You" ? "you" : "them"}`));
        }
        lines.push({ text: `played by the bot for ${whom}${m.why === "time" ? "" : " while away"}`, effect: false, bot: true });
      }
      if (!lines.length) return;
      const [first, ...rest] = lines;
      items.push(h("li", { class: "log-turn" },
        h("span", { class: "seat-dot", style: { background: seatColor(turn.seat) } }),
        h("div", {}, h("div", {}, first.text), rest.map((l) => h("div", { class: ["log-effect", l.effect && "is-effect", l.bot && "log-bot"] }, l.text)))));
    });
    if (!items.length) items.push(h("li", { class: "muted" }, "No moves yet."));
    this.logList.replaceChildren(...items);
    if (stick || this.tab === "moves") this._bottom(this.logList, stick);

    const chat = state.chat || [];
    const muted = mutedNames();
    const chatItems = chat.map((m) => {
      const mine = m.seat === state.you && m.seat !== null;
      const who = mine ? "You" : m.name || "guest";
      const silenced = !mine && muted.has(who);
      const style = { color: m.seat === null || m.seat === undefined ? "" : seatColor(m.seat) };
      // a click on another's name mutes (or unmutes) them, in this browser only
      const nameEl = mine
        ? h("span", { class: "chat-name", style }, who)
        : h("button", { type: "button", class: "chat-name chat-name-btn", style, title: silenced ? `Show ${who}'s messages again` : `Mute ${who} (in this browser)`, "aria-label": silenced ? `Unmute ${who}` : `Mute ${who}`, onclick: () => { toggleMute(who); this.update(...this.last); } }, who);
      return h("li", { class: ["chat-msg", silenced && "chat-muted"] },
        nameEl,
        m.account && !mine ? accountMark(m.name) : null,
        m.seat === null || m.seat === undefined ? h("span", { class: "chat-watching", title: "Not a player: watching the table" }, "watching") : null,
        silenced ? h("span", { class: "chat-text muted" }, "muted") : h("span", { class: "chat-text" }, m.text));
    });
    if (!chatItems.length) chatItems.push(h("li", { class: "muted" }, "No messages yet. Be nice."));
    const chatStick = this.chatPane.scrollHeight - this.chatPane.scrollTop - this.chatPane.clientHeight < 80;
    this.chatList.replaceChildren(...chatItems);
    this._bottom(this.chatList, chatStick);
    if (this.tab === "chat" && visible) this._seen(state);
    else this._count(state);

    const key = `${state.you}:${state.claim}`;
    if (key !== this.claimKey) {
      this.claimKey = key;
      if (state.you !== null && state.claim) {
        this.claimBox.replaceChildren(h("p", { class: "small muted" }, "Lost this browser? Claim code: ", h("code", { class: "claim-code" }, state.claim)));
      } else {
        const input = h("input", { type: "text", maxlength: 16, placeholder: "Claim code", "aria-label": "Claim code", autocomplete: "off" });
        this.claimBox.replaceChildren(h("details", {},
          h("summary", { class: "small" }, "Have a claim code?"),
          h("form", { class: "claim-form", onsubmit: (e) => { e.preventDefault(); if (input.value.trim()) this.hooks.claim(input.value.trim()); } },
            input, h("button", { type: "submit", class: "btn btn-secondary" }, "Take my seat back"))));
      }
    }
  }
}

const MUTED = "bonepile:muted";

function seenKey(table) {
  return `bonepile:chat-seen:${table}`;
}

/** The names whose chat this browser hides. */
export function mutedNames() {
  try {
    const list = JSON.parse(local.get(MUTED) || "[]");
    return new Set(Array.isArray(list) ? list.filter((n) => typeof n === "string") : []);
  } catch (_) {
    return new Set();
  }
}

/** Mute the chat of ``name`` in this browser, or show it again. */
export function toggleMute(name) {
  const names = mutedNames();
  if (names.has(name)) names.delete(name);
  else names.add(name);
  local.set(MUTED, JSON.stringify([...names].slice(-200)));
}

/** The name a spectator chats under. */
export function chatName() {
  return local.get("bonepile:name") || "";
}
