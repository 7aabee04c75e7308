// What a seated player may do with their seat and the table, beside playing: take the seat
// back from the bot after their time ran out, take back their last move and end the table
// (alone with bots), and leave the table. The server decides (docs/server.md); this only
// offers what it would accept.
import { h } from "./dom.js";

/** Whether anybody but seat `you` at the table is a person. */
function othersArePeople(st, you) {
  return st.seats.some((s, k) => k !== you && s.kind === "human");
}

/** Whether seat `you` made a move of this hand itself (not a bot for it). */
function madeAMove(st, you) {
  const forMe = new Set((st.made_for || []).map(([ply]) => ply));
  return (st.view.history || []).some((turn, ply) => turn.seat === you && !forMe.has(ply));
}

/**
 * The line to show instead of the usual status while a bot plays for you because your time ran
 * out, or null.
 */
export function seatStatus(st) {
  const you = st.you;
  if (you === null || you === undefined) return null;
  const seat = st.seats[you];
  if (seat && seat.away_bot && seat.away_why === "time") return "Your time ran out: a bot is playing for you";
  const asked = st.takeback_asked;
  if (asked && st.status === "playing") {
    if (asked.seat === you) return "You asked to take back your last move: waiting for the others";
    if (!asked.yes.includes(you)) return `${(st.seats[asked.seat] && st.seats[asked.seat].name) || "A player"} asks to take back their last move`;
  }
  return null;
}

/** Buttons for the status row: "Play myself" (time ran out), "Take back" (at once against
 * bots, asked of the others at a table with people), and "Allow"/"Refuse" when asked. */
export function seatButtons(st, send) {
  const you = st.you;
  if (you === null || you === undefined || st.status !== "playing") return [];
  const out = [];
  if (seatStatus(st)) {
    out.push(h("button", { type: "button", class: "btn btn-small btn-primary", "data-action": "take-seat", onclick: () => send({ type: "take_seat" }) }, "Play myself"));
  }
  const asked = st.takeback_asked;
  if (asked && asked.seat !== you && !asked.yes.includes(you)) {
    out.push(h("button", { type: "button", class: "btn btn-small btn-primary", "data-action": "takeback-yes", onclick: () => send({ type: "takeback_answer", yes: true }) }, "Allow"));
    out.push(h("button", { type: "button", class: "btn btn-small btn-secondary", "data-action": "takeback-no", onclick: () => send({ type: "takeback_answer", yes: false }) }, "Refuse"));
  } else if (mayTakeBack(st)) {
    const people = othersArePeople(st, you);
    out.push(h("button", { type: "button", class: "btn btn-small btn-secondary", "data-action": "takeback",
      title: people ? "Ask the others to let you take back your last move" : "Take back your last move (and the bots' moves after it)",
      onclick: () => send({ type: "takeback" }) }, people ? "Ask to take back" : "Take back"));
  }
  return out;
}

/** Whether the seated player may take back (or ask to take back) their last move now. */
function mayTakeBack(st) {
  const you = st.you;
  if (you === null || you === undefined || st.status !== "playing") return false;
  return !st.takeback_asked && !st.view.result && madeAMove(st, you);
}

/**
 * A menu for the top bar: "Leave the table" and, alone with bots, "End the table"; on a phone
 * also `extras` ([{action, label(), run()}]: the top bar's buttons it has no room for). Call
 * update(state) with every state; it hides itself when there is nothing to offer. An extra
 * with ``narrowest`` is for the narrowest phones only (whose top bar has no room for the link home).
 */
export class TableMenu {
  constructor(send, extras = []) {
    this.send = send;
    this.leave = h("button", { type: "button", class: "menu-item", role: "menuitem", "data-action": "leave", onclick: () => this.act("leave") }, "Leave the table");
    this.end = h("button", { type: "button", class: "menu-item", role: "menuitem", "data-action": "end-table", onclick: () => this.act("end_table") }, "End the table");
    // a phone's status line has no room for the button: the menu has it
    this.takeback = h("button", { type: "button", class: "menu-item menu-narrow", role: "menuitem", "data-action": "menu-takeback", hidden: true, onclick: () => { this.el.open = false; this.send({ type: "takeback" }); } }, "Take back my last move");
    this.extras = extras.map((x) => {
      const b = h("button", { type: "button", class: ["menu-item", x.narrowest ? "menu-narrowest" : "menu-narrow"], role: "menuitem", "data-action": `menu-${x.action}`, onclick: () => { this.el.open = false; x.run(); } });
      return { b, label: x.label };
    });
    this.el = h("details", { class: "table-menu", hidden: true },
      h("summary", { class: "btn btn-ghost", "aria-label": "Table menu", title: "Table menu" }, "⋯"),
      h("div", { class: "menu-list", role: "menu" }, this.takeback, this.extras.map((x) => x.b), this.leave, this.end));
    this.el.addEventListener("toggle", () => this.label());
    this.label();
  }

  label() {
    for (const x of this.extras) x.b.textContent = x.label();
  }

  act(type) {
    const st = this.state;
    const alone = st && !othersArePeople(st, st.you);
    const question = type === "leave"
      ? (st && st.status === "open" ? "Leave this table? Your seat opens for someone else." : "Leave this table? A bot plays your seat to the end, and you watch.")
      : "End this table for good? It closes and keeps its replays.";
    this.el.open = false;
    if (type === "end_table" && !alone) return;
    if (window.confirm(question)) this.send({ type });
  }

  update(st) {
    this.state = st;
    const seated = st.you !== null && st.you !== undefined && st.seats[st.you] && st.seats[st.you].kind === "human";
    const going = st.status === "open" || st.status === "playing";
    this.leave.hidden = !(seated && going && !st.match_over);
    this.end.hidden = !(seated && going && !othersArePeople(st, st.you));
    this.takeback.hidden = !mayTakeBack(st);
    this.takeback.textContent = othersArePeople(st, st.you) ? "Ask to take back my last move" : "Take back my last move";
    // with neither, a wide screen (whose top bar shows the extras) has no menu at all
    this.el.hidden = this.leave.hidden && this.end.hidden && !this.extras.length;
    this.el.classList.toggle("only-narrow", this.leave.hidden && this.end.hidden);
    this.label();
  }
}
