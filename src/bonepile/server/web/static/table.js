// The table page: the socket, who sits where, and every part of the screen kept in step
// with the server's state messages.
import { h, s, local, copyText, debounce } from "./dom.js";
import { api, gameInfo } from "./api.js";
import { navigate } from "./router.js";
import { toast, toastError } from "./toast.js";
import { TableSocket } from "./socket.js";
import { Viewport } from "./panzoom.js";
import { Play, leastScale } from "./play.js";
import { seatCard, seatStrip, seatOrder, clockText } from "./seats.js";
import { SidePanel, chatName } from "./chat.js";
import { resultCard, waitingCard, sitCard, closedCard, closedText } from "./outcome.js";
import { namer, describeEvent, describeResult, distinctNames } from "./describe.js";
import { Facts, showEffects } from "./facts.js";
import { themeButton, themeName, toggleTheme } from "./theme.js";
import { TurnAlerts, soundOn } from "./notify.js";
import { seatStatus, seatButtons, TableMenu } from "./seatactions.js";
import { tileKey, keysHelp } from "./keys.js";

const TOKEN_KEY = (id) => `bonepile:token:${id}`;

export function mountTable(root, id, query) {
  const page = new TablePage(root, id);
  if (query && query.get("watch") === "1") page.watching = true;
  page.start().catch(toastError);
  return () => page.destroy();
}

class TablePage {
  constructor(root, id) {
    this.id = id;
    this.state = null;
    this.info = null;
    this.token = null;
    this.socket = null;
    this.pendingId = null;
    this.resultHidden = false;
    this.watching = false;
    this.received = performance.now();
    this.hintTimer = 0;
    this.destroyed = false;
    this.build(root);
  }

  // ------------------------------------------------------------------ the page
  build(root) {
    // the page's one heading: the game's name (the table's content has no other h1)
    this.title = h("h1", { class: "game-title" }, "Table");
    this.handInfo = h("span", { class: "hand-info" });
    this.conn = h("span", { class: "conn", "data-state": "connecting", role: "status", title: "Connecting" },
      h("span", { class: "conn-dot", "aria-hidden": "true" }), h("span", { class: "conn-text" }, "connecting"), h("span", { class: "conn-more" }));
    this.unread = h("span", { class: "badge unread-badge", hidden: true });
    this.panelButton = h("button", { type: "button", class: "btn btn-ghost panel-toggle", "aria-expanded": "false", onclick: () => this.togglePanel() },
      h("span", { class: "panel-toggle-text" }, "Moves", h("span", { class: "panel-toggle-more" }, " · Chat")), panelIcon(), this.unread);
    const invite = h("button", { type: "button", class: "btn btn-ghost", "data-action": "invite", onclick: () => this.copyInvite() }, "Copy invite link");
    this.alerts = new TurnAlerts();
    // on a phone the menu also holds what the top bar has no room for
    this.menu = new TableMenu((m) => {
      if (m.type === "leave") this.leaving = true;
      return this.socket && this.socket.send(m);
    }, [
      { action: "home", label: () => "Front page", run: () => navigate("/"), narrowest: true },
      { action: "invite", label: () => "Copy invite link", run: () => this.copyInvite() },
      { action: "sound", label: () => (soundOn() ? "Sounds: on" : "Sounds: off"), run: () => this.alerts.toggleSound() },
      ...(this.alerts.notifyButton.hidden ? [] : [{ action: "notify", label: () => (this.alerts.wantsNotes() ? "Notifications: on" : "Notifications: off"), run: () => this.alerts.toggleNotify() }]),
      { action: "theme", label: () => (themeName() === "dark" ? "Light theme" : "Dark theme"), run: () => toggleTheme() },
    ]);
    const keysButton = h("button", { type: "button", class: "icon-btn keys-btn", "data-action": "keys", title: "Keyboard shortcuts (?)", "aria-label": "Keyboard shortcuts", onclick: () => this.toggleKeys() }, "?");
    const top = h("header", { class: "topbar" },
      h("a", { class: "brand", href: "/", "aria-label": "bonepile home" }, h("img", { src: "/static/favicon.svg", alt: "", width: 24, height: 24 }), h("span", {}, "bonepile")),
      h("div", { class: "top-title" }, this.title, this.handInfo),
      h("div", { class: "top-actions" }, this.conn, invite, this.panelButton, this.menu.el, ...this.alerts.buttons(), keysButton, themeButton()));
    this.seatsRow = h("div", { class: "seats-row" });
    this.felt = h("div", { class: "felt" });
    this.viewport = new Viewport(this.felt, { floor: 22, cap: 60, least: leastScale("line") });
    this.viewport.onResize = () => this.resized();
    this.facts = new Facts(() => this.renderFacts());
    this.factsBox = this.facts.box;
    this.overlay = h("div", { class: "overlay", hidden: true });
    this.felt.append(this.factsBox, this.overlay);
    this.statusText = h("span", { class: "status-text" }, "Connecting…");
    this.statusActions = h("span", { class: "status-actions" });
    this.statusRow = h("div", { class: "status-row", role: "status" }, this.statusText, this.statusActions);
    this.actionsBox = h("div", { class: "actions" });
    this.meCard = h("div", { class: "me-card" });
    this.handBox = h("div", { class: "hand-box" });
    // what a move did (a skip, a draw, points) shows over the hand, never over the table
    this.effects = h("div", { class: "effects", "aria-live": "polite" });
    const meRow = h("div", { class: "me-row" }, this.meCard, this.handBox, this.effects);
    const playArea = h("section", { class: "play-area", "aria-label": "Table" }, this.seatsRow, this.felt, this.statusRow, this.actionsBox, meRow);
    this.side = h("aside", { class: "side", "aria-label": "Moves and chat" });
    this.panel = new SidePanel(this.side, {
      chat: (text) => this.sendChat(text),
      claim: (code) => this.claim(code),
      unread: (n) => this.showUnread(n),
    });
    this.keysHelp = keysHelp(() => this.toggleKeys(false));
    this.page = h("div", { class: "table-page" }, top, h("div", { class: "table-main" }, playArea, this.side), this.keysHelp);
    root.append(this.page);
    this.play = new Play(
      { viewport: this.viewport, felt: this.felt, handBox: this.handBox, actionsBox: this.actionsBox },
      { move: (action, index) => this.move(action, index), names: () => this.names(), hint: (t) => this.hint(t) },
    );
    this.onKey = (e) => this.keydown(e);
    document.addEventListener("keydown", this.onKey);
    this.clockTimer = setInterval(() => this.tickClocks(), 250);
    this.sendSize = debounce(() => { if (this.socket) this.socket.setSize(...this.sizeUnits()); }, 400);
    document.body.classList.add("no-scroll");
  }

  destroy() {
    this.destroyed = true;
    if (this.socket) this.socket.stop();
    this.viewport.destroy();
    this.play.hand.destroy();
    clearInterval(this.clockTimer);
    clearTimeout(this.hintTimer);
    document.removeEventListener("keydown", this.onKey);
    document.body.classList.remove("no-scroll");
    this.alerts.destroy();
  }

  async start() {
    let info;
    try {
      info = await api.get(`/api/tables/${encodeURIComponent(this.id)}`);
    } catch (e) {
      this.fatal(e.message || "This table cannot be opened.");
      return;
    }
    if (this.destroyed) return;
    this.info = info;
    gameInfo(info.game).then((g) => { if (g) { this.gameMeta = g; this.renderTop(); } }).catch(() => {});
    let token = info.token;
    if (token) local.set(TOKEN_KEY(this.id), token);
    else token = local.get(TOKEN_KEY(this.id));
    this.token = token || null;
    this.socket = new TableSocket(this.id, {
      token: this.token,
      width: this.sizeUnits()[0],
      height: this.sizeUnits()[1],
      handlers: {
        state: (m) => this.onState(m),
        ack: (m) => this.onAck(m),
        error: (m) => this.onError(m),
        rematch: (m) => navigate(`/t/${m.table}`),
        status: (name, detail) => this.connStatus(name, detail),
      },
    });
    this.socket.start();
  }

  fatal(message) {
    if (this.socket) this.socket.stop();
    this.conn.dataset.state = "closed";
    this.conn.querySelector(".conn-text").textContent = "closed";
    this.overlay.hidden = false;
    this.overlay.replaceChildren(h("div", { class: "card" },
      h("h2", {}, "This table is not here"),
      h("p", {}, message),
      h("div", { class: "card-actions" }, h("a", { class: "btn btn-primary", href: "/" }, "Home"), h("a", { class: "btn btn-secondary", href: "/new" }, "New table"))));
    this.statusText.textContent = message;
  }

  /** The felt's width and height in tile halves of the least scale a finger can play at:
   * the server folds the table to fit both, so that it shows whole at that size when it can. */
  sizeUnits() {
    const w = this.felt.clientWidth || window.innerWidth;
    const hh = this.felt.clientHeight || Math.round(window.innerHeight * 0.5);
    const unit = leastScale("line");
    return [Math.max(12, Math.min(120, Math.floor(w / unit))), Math.max(8, Math.min(120, Math.floor(hh / unit)))];
  }

  resized() {
    if (this.state) this.renderFacts();
    else this.keepClear();
    this.sendSize();
  }

  /** Every seat's display name, made distinct ("Greedy bot 2") when several share one. */
  seatNames() {
    if (!this.state) return [];
    return distinctNames(this.state.seats.map((s, k) => s.name || (s.kind === "open" ? "Open seat" : `Seat ${k + 1}`)));
  }

  names() {
    const names = this.seatNames();
    return names.map((n, k) => (k === this.state.you ? "You" : n));
  }

  get name() {
    return namer(this.seatNames(), this.state ? this.state.you : null);
  }

  // ------------------------------------------------------------------ messages
  onState(msg) {
    const prev = this.state;
    this.state = msg;
    if (prev && prev.v !== msg.v) {
      this.hintText = "";
      clearTimeout(this.hintTimer);
    }
    this.received = performance.now();
    const sameHand = prev && prev.hand_number === msg.hand_number && prev.table === msg.table;
    let newFrom;
    let lastIndex;
    const tiles = (msg.scene && msg.scene.tiles) || [];
    if (sameHand && prev.scene && tiles.length > (prev.scene.tiles || []).length) newFrom = prev.scene.tiles.length;
    const history = msg.view.history || [];
    const lastTurn = history[history.length - 1];
    if (lastTurn && lastTurn.events.some((e) => e.type === "placed" || e.type === "led" || e.type === "placed_on_board")) lastIndex = tiles.length - 1;
    if (sameHand) {
      const fresh = history.slice((prev.view.history || []).length);
      showEffects(this.effects, fresh, this.name);
    }
    if (!sameHand || (prev && prev.view.result === null && msg.view.result !== null)) this.resultHidden = false;
    if (prev && prev.you !== msg.you && msg.you !== null) toast(`You sit at seat ${msg.you + 1}`, "good");
    if (prev && !prev.rematch && msg.rematch) {
      if (msg.you !== null) {
        toast("A new game is starting…", "good");
        setTimeout(() => { if (!this.destroyed) navigate(`/t/${msg.rematch}`); }, 1200);
      }
    }
    if (this.pendingId && !this.socket.pending.has(this.pendingId)) this.pendingId = null;
    this.play.pending = this.pendingId ? this.play.pending : null;
    // a board brings its own frame (the score track, the coordinates): no margin round it
    this.viewport.margin = msg.scene && msg.scene.family === "board" ? 0.2 : 0.8;
    this.play.update(msg, { newFrom, lastIndex });
    this.render();
    this.signal(prev, msg, sameHand);
  }

  /** The title, the favicon, sounds and a notification for the new state. */
  signal(prev, msg, sameHand) {
    const history = msg.view.history || [];
    const fresh = sameHand ? history.slice((prev.view.history || []).length) : [];
    const myTurn = this.play.myTurn && !msg.view.result;
    let body = "";
    const name = this.name;
    const last = [...history].reverse().find((turn) => turn.seat !== msg.you);
    if (last) {
      const lines = (last.events || []).map((e) => describeEvent(e, name)).filter((d) => d && d.text).map((d) => d.text);
      body = lines.slice(0, 2).join(". ");
    }
    const game = (this.gameMeta && this.gameMeta.title) || msg.game;
    this.alerts.update({ myTurn, moved: fresh.length > 0, first: !prev, title: `Your turn · ${game}`, body });
  }

  onAck(msg) {
    if (msg.id === this.pendingId) {
      this.pendingId = null;
      this.play.setPending(null);
      this.renderStatus();
    }
  }

  onError(msg) {
    if (msg.code === "token") {
      // this player left the table (here, or on another device of theirs): said calmly
      if (this.leaving || /left the table/.test(msg.message || "")) this.left();
      else this.refreshToken(true, msg.message);
      return;
    }
    if (msg.code === "unknown") {
      this.fatal(msg.message);
      return;
    }
    if (msg.code === "storage") {
      // the move waits (the socket sends it again): the notice line says why
      this.renderStatus();
      return;
    }
    if (msg.id && msg.id === this.pendingId) {
      this.pendingId = null;
      this.play.setPending(null);
    }
    if (msg.code === "stale") toast("The game moved on; here is where it stands.", "info");
    else toastError(msg.message || "The server refused that.");
  }

  /** The player left the table: they watch from now on, and the table says so. */
  left() {
    this.leaving = false;
    if (local.get(TOKEN_KEY(this.id)) === this.token) local.remove(TOKEN_KEY(this.id));
    this.token = null;
    this.watching = true;
    const started = this.state && this.state.status !== "open";
    toast(started ? "You left the table. A bot plays your seat to the end; you are watching." : "You left the table: your seat is open again.", "info", 6000);
    this.socket.reconnectNow(null);
  }

  /** The token was refused (another tab of this browser took a fresh one, or a claim code
   * moved the seat): ask the server again through the cookie, else watch. */
  async refreshToken(again = true, why = "") {
    let info = null;
    try {
      info = await api.get(`/api/tables/${encodeURIComponent(this.id)}`);
    } catch (_) {
      info = null;
    }
    if (this.destroyed) return;
    if (again && !(info && info.token)) {
      // signing up or in, in another tab, moves this browser's seats to its account and
      // retires their tokens a moment before the browser holds the account's cookie: ask
      // once more before watching
      setTimeout(() => { if (!this.destroyed) this.refreshToken(false, why); }, 1500);
      return;
    }
    if (info && info.token) {
      this.token = info.token;
      local.set(TOKEN_KEY(this.id), info.token);
      this.socket.reconnectNow(info.token);
      return;
    }
    if (local.get(TOKEN_KEY(this.id)) === this.token) local.remove(TOKEN_KEY(this.id));
    this.token = null;
    toast(why ? `${sentence(why)}.` : "This browser no longer holds a seat here: you are watching.", "info", 6000);
    this.socket.reconnectNow(null);
  }

  connStatus(name, detail) {
    this.connShown = [name, detail];
    if (name === "online" && this.state && this.state.status === "closed") {
      // connected, but to a table nobody can play at any more
      this.conn.dataset.state = "over";
      this.conn.title = "This table is closed";
      this.conn.querySelector(".conn-text").textContent = "closed";
      this.conn.querySelector(".conn-more").textContent = "";
      this.fitTitle();
      return;
    }
    const text = { connecting: "connecting", online: "online", offline: "offline", closed: "closed" }[name] || name;
    // how long until the next try: beside the word on a wide screen, in the title on a phone
    const more = name === "offline" ? (detail ? ` · retry in ${detail}s` : " · waiting for the network") : "";
    this.conn.dataset.state = name;
    this.conn.title = name === "online" ? "Connected" : name === "offline" ? `Connection lost: reconnecting${more.replace(" · ", ", ")}` : text;
    this.conn.querySelector(".conn-text").textContent = text;
    this.conn.querySelector(".conn-more").textContent = more;
    if (this.state) this.fitTitle();
    if (name === "closed" && detail && detail.code !== "token") this.fatal(detail.message || "The connection was refused.");
  }

  // ------------------------------------------------------------------ acting
  move(action, index) {
    if (!this.socket || !this.state) return;
    this.pendingId = this.socket.move(action, this.state.v);
    this.play.setPending({ index });
    this.renderStatus();
  }

  sendChat(text) {
    if (!this.socket || !this.socket.online) {
      toastError("Not connected: the message was not sent.");
      return false;
    }
    this.socket.send({ type: "chat", text, name: chatName() });
    return true;
  }

  async sit(name) {
    if (name) local.set("bonepile:name", name);
    try {
      const got = await api.post(`/api/tables/${encodeURIComponent(this.id)}/join`, { name });
      this.takeSeat(got.token);
    } catch (e) {
      toastError(e);
    }
  }

  async claim(code) {
    try {
      const got = await api.post(`/api/tables/${encodeURIComponent(this.id)}/claim`, { code });
      toast("Welcome back: the seat is yours.", "good");
      this.takeSeat(got.token);
    } catch (e) {
      toastError(e);
    }
  }

  takeSeat(token) {
    this.token = token;
    local.set(TOKEN_KEY(this.id), token);
    this.watching = false;
    if (this.socket) this.socket.reconnectNow(token);
  }

  async copyInvite() {
    const ok = await copyText(`${location.origin}/t/${this.id}`);
    toast(ok ? "Invite link copied" : `Invite link: ${location.origin}/t/${this.id}`, ok ? "good" : "info", ok ? 2500 : 8000);
  }

  togglePanel(force) {
    const open = force === undefined ? !this.page.classList.contains("side-open") : force;
    this.page.classList.toggle("side-open", open);
    this.panelButton.setAttribute("aria-expanded", String(open));
    // opened for messages not read yet: the chat shows them
    if (open && this.panel.unreadCount > 0) this.panel.show("chat");
    if (this.state) this.panel.update(this.state, this.name, true);
  }

  /** How many of the others' messages are not read yet, on the button that opens the chat
   * (a phone hides the panel). */
  showUnread(n) {
    this.unread.hidden = n <= 0;
    this.unread.replaceChildren(String(n), h("span", { class: "sr-only" }, ` unread message${n === 1 ? "" : "s"}`));
    this.panelButton.title = n > 0 ? `Moves and chat: ${n} unread message${n === 1 ? "" : "s"}` : "Moves and chat";
  }

  keydown(e) {
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
    if (e.key === "Escape" && !this.keysHelp.hidden) {
      this.toggleKeys(false);
      return;
    }
    if (e.key === "Escape" && this.page.classList.contains("side-open")) {
      this.togglePanel(false);
      return;
    }
    if (e.key === "?" && !e.ctrlKey && !e.metaKey && !e.altKey) {
      this.toggleKeys();
      e.preventDefault();
      return;
    }
    const i = tileKey(e);
    if (i !== null) {
      const hand = (this.state && this.state.view.hand) || [];
      if (i < hand.length) {
        this.play.selectByKey(i);
        e.preventDefault();
      }
      return;
    }
    if (this.play.keydown(e)) e.preventDefault();
  }

  toggleKeys(force) {
    const open = force === undefined ? this.keysHelp.hidden : force;
    this.keysHelp.hidden = !open;
    if (open) this.keysHelp.querySelector("button").focus();
  }

  hint(text) {
    this.hintText = text;
    clearTimeout(this.hintTimer);
    this.hintTimer = setTimeout(() => { this.hintText = ""; this.renderStatus(); }, 3500);
    this.renderStatus();
  }

  // ------------------------------------------------------------------ drawing
  render() {
    this.renderTop();
    this.renderSeats();
    this.renderFacts();
    this.renderStatus();
    this.renderOverlay();
    const visible = !window.matchMedia("(max-width: 900px)").matches || this.page.classList.contains("side-open");
    this.panel.update(this.state, this.name, visible);
  }

  renderTop() {
    const st = this.state;
    if (st && this.connShown && (st.status === "closed") !== (this.conn.dataset.state === "over")) this.connStatus(...this.connShown);
    const title = (this.gameMeta && this.gameMeta.title) || (st && st.game) || (this.info && this.info.game) || "Table";
    this.title.textContent = title;
    this.alerts.setBase(`${title} · bonepile`);
    if (!st) return;
    const parts = [];
    if (st.match) parts.push(`Hand ${st.hand_number}`, st.target ? `to ${st.target}` : "match");
    else parts.push("Single hand");
    if (st.rated) parts.push("Rated");
    const watchers = Number.isInteger(st.watchers) ? st.watchers : 0;
    const watching = watchers > 0
      ? h("span", { class: "watchers", title: `${watchers} spectator${watchers === 1 ? "" : "s"} connected${st.you === null ? " (you among them)" : ""}` },
        " · ", eyeIcon(), `${watchers}`, h("span", { class: "watchers-word" }, " watching"))
      : null;
    this.handInfo.replaceChildren(parts.join(" · "), watching || "");
    this.fitTitle();
  }

  /** A game's name too long for a phone's top bar: the connection keeps its dot (and says
   * its state in its title), the name shows whole. */
  fitTitle() {
    const bar = this.page.querySelector(".topbar");
    bar.classList.remove("tight");
    if (this.title.scrollWidth > this.title.clientWidth + 1) bar.classList.add("tight");
  }

  seatInfo(k) {
    const st = this.state;
    const s = st.seats[k];
    const pub = st.view.public || {};
    const board = st.scene && st.scene.family === "board";
    const showScore = board || st.match || Boolean(st.view.result) || st.totals.some((x) => x);
    const turn = st.status === "playing" && !st.view.result && st.view.actor === k;
    let bank = s.bank;
    if (bank !== null && bank !== undefined && turn) bank = Math.max(0, bank - (performance.now() - this.received) / 1000);
    const trackPips = board && pub.track_pips ? pub.track_pips[k] : null;
    const bonus = st.view.options && Number.isInteger(st.view.options.track_bonus) ? st.view.options.track_bonus : 3;
    return {
      seat: k,
      name: k === st.you ? "You" : this.seatNames()[k],
      kind: s.kind, bot: s.bot, away_bot: s.away_bot, present: s.present, account: s.account,
      tiles: st.view.hand_sizes ? st.view.hand_sizes[k] : null,
      score: showScore ? (board && pub.positions ? pub.positions[k] : st.totals[k]) : null,
      scoreSuffix: " pts",
      track: trackPips !== null && trackPips !== undefined ? `+${bonus} on ${trackPips}s` : null,
      trackHelp: trackPips !== null && trackPips !== undefined ? trackHelp(k === st.you ? null : this.seatNames()[k], trackPips, bonus) : null,
      bank: st.clock ? bank : null,
      turn,
      you: k === st.you,
    };
  }

  renderSeats() {
    const st = this.state;
    const order = seatOrder(st.players, st.you);
    const direction = st.view.public && st.view.public.direction ? st.view.public.direction : 1;
    this.seatsRow.replaceChildren(seatStrip(order.map((k) => seatCard(this.seatInfo(k))), direction));
    const turn = this.seatsRow.querySelector(".seat-card.turn");
    if (turn && this.seatsRow.scrollWidth > this.seatsRow.clientWidth) {
      const left = turn.offsetLeft - this.seatsRow.offsetLeft;
      if (left < this.seatsRow.scrollLeft || left + turn.offsetWidth > this.seatsRow.scrollLeft + this.seatsRow.clientWidth) {
        this.seatsRow.scrollLeft = Math.max(0, left - 8);
      }
    }
    if (st.you !== null) {
      this.meCard.replaceChildren(seatCard(this.seatInfo(st.you)));
    } else {
      const free = st.seats.some((s) => s.kind === "open");
      this.meCard.replaceChildren(h("div", { class: "watching" },
        h("span", { class: "tag" }, "watching"),
        free ? h("button", { type: "button", class: "btn btn-primary btn-small", "data-action": "take-seat", onclick: () => { this.watching = false; this.renderOverlay(); } }, "Take a seat") : null));
    }
  }

  tickClocks() {
    const st = this.state;
    if (!st || !st.clock || st.status !== "playing" || st.view.result) return;
    const k = st.view.actor;
    if (k === null || k === undefined) return;
    const bank = st.seats[k].bank;
    if (bank === null || bank === undefined) return;
    const left = Math.max(0, bank - (performance.now() - this.received) / 1000);
    if (k === st.you) this.alerts.clock(left);
    for (const el of this.page.querySelectorAll(`[data-clock="${k}"]`)) {
      el.textContent = clockText(left);
      el.classList.toggle("low", left < 20);
    }
  }

  renderFacts() {
    this.facts.render(this.state, this.name);
    this.keepClear();
  }

  /** Keep the table clear of what lies over the felt: the facts along the top, the zoom
   * buttons along the bottom. */
  keepClear() {
    const facts = this.factsBox.childElementCount && this.factsBox.offsetHeight ? this.factsBox.offsetTop + this.factsBox.offsetHeight + 4 : 0;
    const strip = this.felt.clientHeight - this.viewport.controls.offsetTop + 4;
    this.viewport.setInsets({ top: facts, bottom: Math.max(0, strip) });
  }

  renderStatus() {
    const st = this.state;
    if (!st) return;
    const name = this.name;
    const view = st.view;
    const actions = [];
    let text;
    if (st.status === "closed") {
      text = closedText(st);
      if (this.closedHidden) actions.push(h("button", { type: "button", class: "btn btn-small btn-secondary", onclick: () => { this.closedHidden = false; this.renderOverlay(); this.renderStatus(); } }, "New table or home"));
    } else if (st.status === "open") {
      const open = st.seats.filter((s) => s.kind === "open").length;
      text = `Waiting for ${open} more player${open === 1 ? "" : "s"}…`;
    } else if (view.result) {
      text = describeResult(view.result, name, view.revealed);
      if (this.resultHidden) actions.push(h("button", { type: "button", class: "btn btn-small btn-secondary", onclick: () => { this.resultHidden = false; this.renderOverlay(); this.renderStatus(); } }, "Show result"));
    } else if (this.pendingId) {
      text = this.socket && this.socket.online ? "Playing…" : "Your move will be sent when the connection is back";
      if (st.notice) text = sentence(st.notice.message);
    } else if (this.play.myTurn) {
      const kinds = new Set(st.moves.map((m) => m.kind));
      const phase = view.public && view.public.phase;
      if (this.hintText) text = this.hintText;
      else if (phase === "opening_draw") text = "Nobody holds a double: draw until you find one";
      else if (kinds.has("lead") && phase === "opening") text = "Your turn: set the starter (tap a double, then the centre)";
      else if (kinds.has("place") && kinds.has("stop")) text = "Your turn: chain a tile next to your double, or stop";
      else if (kinds.has("place")) text = "Your turn: tap a tile, then two highlighted squares";
      else if (kinds.has("stop")) text = "Your turn: chain a tile next to your double, or stop";
      else if (!kinds.has("attach") && !kinds.has("lead") && !kinds.has("place") && kinds.has("discard")) text = "Your turn: no tile fits, pick one to discard";
      else if (!kinds.has("attach") && !kinds.has("lead") && !kinds.has("place")) text = kinds.has("draw") ? "Your turn: nothing fits, draw" : "Your turn: nothing fits, pass";
      else if (kinds.has("lead")) text = "Your turn: lead a tile (tap it, then the centre)";
      else text = "Your turn: tap a tile, then where it goes";
    } else if (view.actor !== null && view.actor !== undefined) {
      const who = name(view.actor);
      const s = st.seats[view.actor];
      text = s && s.kind === "human" && !s.present ? `${who} (away) to play` : `${who} ${s && (s.kind === "bot" || s.away_bot) ? "is thinking…" : "to play"}`;
      if (this.hintText) text = this.hintText;
    } else {
      text = "";
    }
    if (st.absent !== null && st.absent !== undefined && st.you !== null && st.absent !== st.you) {
      actions.push(h("button", { type: "button", class: "btn btn-small btn-secondary", "data-action": "let-bot", onclick: () => this.socket.send({ type: "let_bot_play", seat: st.absent }) }, `Let a bot play for ${name(st.absent)}`));
    }
    if (st.rematch && st.you === null) actions.push(h("a", { class: "btn btn-small btn-secondary", href: `/t/${st.rematch}` }, "Watch the new game"));
    if (st.notice && !this.pendingId) text = sentence(`${st.notice.message.replace(/; your move.*/, "")}: moves wait until it can`);
    this.statusText.textContent = text;
    this.statusText.classList.toggle("is-notice", !!st.notice);
    this.statusRow.classList.toggle("my-turn", this.play.myTurn && !view.result);
    // a bot plays for you (time ran out), a takeback against bots, leaving or ending the table
    const seatText = seatStatus(st);
    if (seatText && !view.result) text = seatText;
    actions.push(...seatButtons(st, (m) => this.socket && this.socket.send(m)));
    this.menu.update(st);
    this.statusText.textContent = text;
    this.statusActions.replaceChildren(...actions);
  }

  renderOverlay() {
    const st = this.state;
    let card = null;
    const canSit = st.you === null && st.seats.some((s) => s.kind === "open") && !this.watching && st.status !== "closed";
    if (st.status === "closed") {
      if (!this.closedHidden) card = closedCard(st, () => { this.closedHidden = true; this.renderOverlay(); this.renderStatus(); });
    } else if (st.view.result && !this.resultHidden) {
      card = resultCard(st, {
        name: this.name,
        seated: st.you !== null,
        board: st.scene && st.scene.family === "board",
        replayId: `${st.table}-${st.hand_number}`,
        onNext: () => this.socket.send({ type: "next_hand" }),
        onRematch: () => this.socket.send({ type: "rematch" }),
        onHide: () => { this.resultHidden = true; this.renderOverlay(); this.renderStatus(); },
      });
    } else if (st.status === "open" && (st.you !== null || !this.watching)) {
      card = waitingCard(st, {
        name: this.name,
        canSit,
        inviteUrl: `${location.origin}/t/${this.id}`,
        onSit: (n) => this.sit(n),
        onWatch: () => { this.watching = true; this.renderOverlay(); },
        onCopy: () => this.copyInvite(),
      });
    } else if (canSit) {
      card = sitCard({ onSit: (n) => this.sit(n), onWatch: () => { this.watching = true; this.renderOverlay(); } });
    }
    this.overlay.hidden = !card;
    if (card) {
      // keep a typed name when the card is redrawn
      const old = this.overlay.querySelector("input[type=text]");
      const fresh = card.querySelector("input[type=text]");
      if (old && fresh && fresh.getAttribute("readonly") === null && document.activeElement === old) {
        return;
      }
      this.overlay.replaceChildren(card);
    } else {
      this.overlay.replaceChildren();
    }
  }
}

/** A server's line as a sentence: its first letter upper case. */
function sentence(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** What the track note on a Double Double seat means, in words. */
function trackHelp(name, pips, bonus) {
  const whose = name ? `${name}'s piece stands` : "Your piece stands";
  const who = name || "you";
  return `Track bonus: ${whose} on a space with ${pips} pip${pips === 1 ? "" : "s"}, so any tile placed with a ${pips} (by anyone) gives ${who} +${bonus} points.`;
}

/** The moves and chat (the narrowest phones' button): a list in a speech bubble. */
function panelIcon() {
  return s("svg", { class: "icon panel-icon", viewBox: "0 0 24 24", role: "img", "aria-label": "Moves and chat", fill: "none", stroke: "currentColor", "stroke-width": 2, "stroke-linecap": "round", "stroke-linejoin": "round" },
    s("path", { d: "M4 5h16v11H9l-5 4z" }),
    s("path", { d: "M8 9h8M8 12h5" }));
}

/** An eye: someone watches. */
function eyeIcon() {
  return s("svg", { class: "icon eye", viewBox: "0 0 24 24", "aria-hidden": "true", fill: "none", stroke: "currentColor", "stroke-width": 2, "stroke-linecap": "round", "stroke-linejoin": "round" },
    s("path", { d: "M2 12s3.6-6.5 10-6.5S22 12 22 12s-3.6 6.5-10 6.5S2 12 2 12z" }),
    s("circle", { cx: 12, cy: 12, r: 3 }));
}
