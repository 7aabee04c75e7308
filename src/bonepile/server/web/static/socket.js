// The table socket: says hello (with the seat token), reconnects with backoff, keeps moves
// pending until acknowledged and resends them (same id) after a reconnect. After the first state
// of a connection the server sends patches, which are applied here: handlers see whole states.
import { uid } from "./dom.js";
import { applyPatch } from "./patch.js";

// A live server answers every ping at once: a socket silent for SILENCE_LIMIT has a dead or
// frozen server behind it, and is dropped for a new one (which a site's proxy may send to
// another of its processes); the player sees "offline" meanwhile. A socket that does not open
// within OPEN_LIMIT is given up the same way (a frozen process still accepts connections).
// The lobby's socket (front.js) keeps the same watch.
export const PING_EVERY = 2500;
export const SILENCE_LIMIT = 6000;
export const OPEN_LIMIT = 6000;
export const WATCH_EVERY = 500;
const STORAGE_RETRY = 3000; // while the server cannot save moves, a waiting move is sent again this often

export class TableSocket {
  /**
   * handlers: {state(msg), ack(msg), error(msg), rematch(msg), status(name, detail)}
   * status names: "connecting", "online", "offline", "closed".
   */
  constructor(tableId, { token = null, width = 40, height = null, handlers = {} } = {}) {
    this.tableId = tableId;
    this.token = token;
    this.width = width;
    this.height = height;
    this.handlers = handlers;
    this.ws = null;
    this.v = -1;
    this.doc = null; // the last whole state, which the next patch applies to
    this.seq = 0;
    this.pending = new Map(); // id -> {id, v, action}
    this.retryTimer = 0; // sends the waiting moves again while the server cannot save them
    this.attempt = 0;
    this.stopped = false;
    this.timer = 0;
    this.pingTimer = 0; // the watchdog: pings, and drops a silent socket
    this.openTimer = 0;
    this.lastHeard = 0;
    this.lastPing = 0;
    this.onOnline = () => this.reconnectNow();
    window.addEventListener("online", this.onOnline);
  }

  start() {
    this.stopped = false;
    this._open();
  }

  _status(name, detail) {
    if (this.handlers.status) this.handlers.status(name, detail);
  }

  _open() {
    clearTimeout(this.timer);
    if (this.stopped) return;
    if (navigator.onLine === false) {
      this._retry();
      return;
    }
    this._status("connecting");
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    let ws;
    try {
      ws = new WebSocket(`${scheme}//${location.host}/ws/table/${encodeURIComponent(this.tableId)}`);
    } catch (_) {
      this._retry();
      return;
    }
    this.ws = ws;
    clearTimeout(this.openTimer);
    this.openTimer = setTimeout(() => {
      if (ws === this.ws && ws.readyState !== WebSocket.OPEN) this._lost();
    }, OPEN_LIMIT);
    ws.onopen = () => {
      if (ws !== this.ws) return;
      clearTimeout(this.openTimer);
      this.lastHeard = Date.now();
      this.lastPing = this.lastHeard;
      this.doc = null;
      this._send({ type: "hello", token: this.token, since: this.v, width: this.width, height: this.height, patches: true });
      for (const move of this.pending.values()) this._send({ type: "move", ...move });
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this._watch(), WATCH_EVERY);
    };
    ws.onmessage = (event) => {
      if (ws !== this.ws) return;
      this.lastHeard = Date.now();
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch (_) {
        return;
      }
      this._receive(msg);
    };
    ws.onclose = (event) => {
      if (ws !== this.ws) return;
      clearInterval(this.pingTimer);
      clearTimeout(this.openTimer);
      this.ws = null;
      if (this.stopped) return;
      if (event.code === 4000 && this.fatal) {
        this._status("closed", this.fatal);
        return;
      }
      this._retry();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  _retry() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    if (navigator.onLine === false) {
      // no network: wait for the "online" event instead of failing again and again
      this._status("offline", 0);
      return;
    }
    const delay = Math.min(10000, 500 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
    this.attempt += 1;
    this._status("offline", Math.round(delay / 1000));
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this._open(), delay);
  }

  _receive(msg) {
    if (msg.type === "patch") {
      let doc = null;
      try {
        if (!this.doc || msg.base !== this.seq) throw new Error(`patch ${msg.seq} after ${this.seq}`);
        doc = applyPatch(this.doc, msg.ops);
      } catch (err) {
        // never expected: say so (the browser tests fail on it) and start again from a whole state
        console.error("bonepile: a state patch did not fit, resynchronising:", err.message);
        this.reconnectNow();
        return;
      }
      msg = { ...doc, type: "state", seq: msg.seq };
    }
    if (msg.type === "state") {
      this.doc = msg;
      this.seq = msg.seq;
    }
    if (typeof msg.v === "number" && msg.v > this.v && msg.type === "state") this.v = msg.v;
    switch (msg.type) {
      case "state":
        this.attempt = 0;
        this.fatal = null;
        this._status("online");
        // the server can save moves again: what waited is sent at once
        if (!msg.notice && this.retryTimer) this._resendPending();
        if (this.handlers.state) this.handlers.state(msg);
        break;
      case "ack":
        this.pending.delete(msg.id);
        if (this.handlers.ack) this.handlers.ack(msg);
        break;
      case "error":
        if (msg.code === "storage" && msg.id && this.pending.has(msg.id)) {
          // not refused, only not saved yet: the move waits and is sent again
          clearTimeout(this.retryTimer);
          this.retryTimer = setTimeout(() => this._resendPending(), STORAGE_RETRY);
        } else if (msg.id) this.pending.delete(msg.id);
        if (msg.code === "token" || msg.code === "unknown" || msg.code === "hello") this.fatal = msg;
        if (this.handlers.error) this.handlers.error(msg);
        break;
      case "rematch":
        if (this.handlers.rematch) this.handlers.rematch(msg);
        break;
      default:
        break;
    }
  }

  _resendPending() {
    clearTimeout(this.retryTimer);
    this.retryTimer = 0;
    for (const move of this.pending.values()) this._send({ type: "move", ...move });
  }

  _send(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    try {
      this.ws.send(JSON.stringify(obj));
      return true;
    } catch (_) {
      return false;
    }
  }

  _watch() {
    const now = Date.now();
    if (now - this.lastHeard > SILENCE_LIMIT) {
      this._lost();
      return;
    }
    if (now - this.lastPing >= PING_EVERY) {
      this.lastPing = now;
      this._send({ type: "ping" });
    }
  }

  /** The server stopped answering: drop its socket, say so, and connect again soon. */
  _lost() {
    this._drop();
    this.attempt = 0;
    this._retry();
  }

  /** Let the socket go without hearing from it again. */
  _drop() {
    clearInterval(this.pingTimer);
    clearTimeout(this.openTimer);
    const old = this.ws;
    this.ws = null;
    if (old) {
      old.onopen = null;
      old.onclose = null;
      old.onmessage = null;
      try { old.close(); } catch (_) { /* closed */ }
    }
  }

  /** True while the socket is open. */
  get online() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  /** Play an action from version v; kept until acknowledged. Returns its id. */
  move(action, v) {
    const move = { id: uid(), v, action };
    this.pending.set(move.id, move);
    this._send({ type: "move", ...move });
    return move.id;
  }

  /** Send a message that needs no acknowledgement (chat, next_hand, rematch...). */
  send(obj) {
    return this._send(obj);
  }

  /** The felt now fits width by height tile halves: the server folds the table to it. */
  setSize(width, height) {
    if (width === this.width && height === this.height) return;
    this.width = width;
    this.height = height;
    this._send({ type: "resize", width, height });
  }

  /** Reconnect at once (a new token, the network is back). */
  reconnectNow(token) {
    if (token !== undefined) this.token = token;
    this.attempt = 0;
    this.fatal = null;
    this._drop();
    this._open();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    clearTimeout(this.openTimer);
    window.removeEventListener("online", this.onOnline);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.onclose = null;
      try { ws.close(); } catch (_) { /* closed */ }
    }
  }
}
