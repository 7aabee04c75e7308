// The front page: play the bots at once, set up a table, the live lobby, the games.
import { h, local } from "./dom.js";
import { api, games, gameInfo } from "./api.js";
import { navigate } from "./router.js";
import { toastError, toast } from "./toast.js";
import { page, loading, errorBox } from "./chrome.js";
import { tileIcon, seatColor } from "./draw.js";
import { PING_EVERY, SILENCE_LIMIT, OPEN_LIMIT, WATCH_EVERY } from "./socket.js";
import { pairingPanel } from "./pairing.js";

/** Create a table and go there. */
export async function createTable(body) {
  const got = await api.post("/api/tables", body);
  if (got.token) local.set(`bonepile:token:${got.id}`, got.token);
  navigate(`/t/${got.id}`);
  return got;
}

export function mountFront(root) {
  const playNote = h("p", { class: "small muted" }, "“Play the bots now” starts Super Dominoes against three bots.");
  const playNow = h("button", { type: "button", class: "btn btn-primary btn-big", "data-action": "play-bots" }, "Play the bots now");
  playNow.addEventListener("click", async () => {
    playNow.disabled = true;
    try {
      // the game's usual bot, from its ladder (the catalogue says which)
      const info = await gameInfo("super_dominoes");
      const bot = (info && info.default_bot) || "greedy";
      await createTable({
        game: "super_dominoes",
        seats: ["me", bot, bot, bot],
        options: {},
        match: false,
        name: local.get("bonepile:name") || "",
      });
    } catch (e) {
      toastError(e);
      playNow.disabled = false;
    }
  });
  const hero = h("section", { class: "hero" },
    h("div", { class: "hero-text" },
      h("h1", {}, "Dominoes, played well."),
      h("p", { class: "lead" }, "Super Dominoes with its six-armed spinner, Block, Draw, Doubles and Double Double Dominoes. Play strong bots right away, or set a table and invite a friend with a link."),
      h("div", { class: "hero-actions" }, playNow, h("a", { class: "btn btn-secondary btn-big", href: "/new" }, "New table")),
      playNote),
    h("div", { class: "hero-art", "aria-hidden": "true" },
      tileIcon([15, 13], { cls: "art a1" }), tileIcon([6, 6], { cls: "art a2" }), tileIcon([9, 4], { cls: "art a3" })));
  const lobbyList = h("div", { class: "lobby-list" }, loading("Looking for tables…"));
  const lobby = h("section", { class: "panel lobby" }, h("h2", {}, "Open tables"), lobbyList);
  const gamesBox = h("div", { class: "game-cards" }, loading());
  const gamesSection = h("section", { class: "panel" }, h("h2", {}, "The games"), gamesBox);
  const pairing = pairingPanel();
  page(root, "front", hero, pairing.el, h("div", { class: "front-grid" }, lobby, gamesSection));
  document.title = "bonepile · dominoes";

  games().then((all) => {
    const sd = all.find((g) => g.name === "super_dominoes");
    const bot = sd && sd.bots.find((b) => b.spec === sd.default_bot);
    if (bot) playNote.textContent = `“Play the bots now” starts Super Dominoes against three bots: ${(bot.rating && bot.rating.players === 4 ? bot.rated_label : bot.label).replace(/^./, (c) => c.toLowerCase())}.`;
    gamesBox.replaceChildren(...all.map((g) => h("article", { class: "game-card" },
      h("h3", {}, g.title),
      h("p", { class: "muted" }, g.summary),
      h("p", { class: "small" }, `${g.players[0]}–${g.players[1]} players`),
      h("div", { class: "card-actions" },
        h("a", { class: "btn btn-secondary btn-small", href: `/new?game=${g.name}` }, "Set up a table"),
        h("a", { class: "btn btn-ghost btn-small", href: `/rules/${g.name}` }, "Rules")))));
  }).catch((e) => gamesBox.replaceChildren(errorBox(e.message)));

  const lobbySocket = reconnecting("/ws/lobby", (msg) => {
    if (msg.type === "lobby") renderLobby(lobbyList, msg.tables || []);
  });
  return () => { lobbySocket.stop(); pairing.stop(); };
}

function renderLobby(list, tables) {
  if (!tables.length) {
    list.replaceChildren(h("p", { class: "muted" }, "No open tables right now. Start one and invite a friend."));
    return;
  }
  list.replaceChildren(...tables.slice(0, 30).map((t) => {
    const seats = t.seats.map((s, k) => h("span", { class: ["lobby-seat", s.kind] },
      h("span", { class: "seat-dot", style: { background: seatColor(k) } }),
      s.kind === "open" ? "open" : s.name || "player"));
    const join = t.free > 0
      ? h("button", { type: "button", class: "btn btn-primary btn-small", "data-action": "join", onclick: () => joinTable(t.id) }, "Join")
      : null;
    return h("div", { class: "lobby-row", "data-table": t.id },
      h("div", { class: "lobby-main" },
        h("div", { class: "lobby-title" }, t.title || t.game, lobbyTag(t),
          t.match ? h("span", { class: "tag" }, "match") : null, t.rated ? h("span", { class: "tag tag-open" }, "rated") : null, t.clock ? h("span", { class: "tag" }, `${Math.round(t.clock[0] / 60)}+${t.clock[1]}`) : null),
        h("div", { class: "lobby-seats" }, seats)),
      h("div", { class: "lobby-actions" }, join, h("a", { class: "btn btn-ghost btn-small", href: `/t/${t.id}?watch=1`, "data-action": "watch" }, "Watch")));
  }));
}

/** A table's state in the lobby: seats open, playing, or idle (nobody there right now: it
 * leaves the list if nobody comes back). */
function lobbyTag(t) {
  if (t.idle) return h("span", { class: "tag tag-idle", title: "Nobody is at this table right now" }, t.status === "open" ? `${t.free} open · idle` : "idle");
  return h("span", { class: ["tag", t.status === "open" ? "tag-open" : ""] }, t.status === "open" ? `${t.free} open` : "playing");
}

async function joinTable(id) {
  try {
    const got = await api.post(`/api/tables/${encodeURIComponent(id)}/join`, { name: local.get("bonepile:name") || "" });
    local.set(`bonepile:token:${id}`, got.token);
    navigate(`/t/${id}`);
  } catch (e) {
    if (e.status === 409) {
      toast(e.message, "info");
      navigate(`/t/${id}`);
    } else toastError(e);
  }
}

/**
 * A socket that reconnects with backoff until stopped; onMessage gets parsed JSON. It pings the
 * server as the table's socket does (socket.js): one silent for SILENCE_LIMIT, or not open
 * within OPEN_LIMIT, has a dead or frozen server behind it and is dropped for a new one.
 */
export function reconnecting(path, onMessage) {
  let ws = null, stopped = false, attempt = 0, timer = 0, watch = 0, heard = 0, pinged = 0;
  const drop = () => {
    clearInterval(watch);
    const old = ws;
    ws = null;
    if (old) {
      old.onopen = old.onmessage = old.onclose = null;
      try { old.close(); } catch (_) { /* closed */ }
    }
  };
  const open = () => {
    if (stopped) return;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    try {
      ws = new WebSocket(`${scheme}//${location.host}${path}`);
    } catch (_) {
      retry();
      return;
    }
    const opened = Date.now();
    heard = pinged = 0;
    clearInterval(watch);
    watch = setInterval(() => {
      const now = Date.now();
      if (!heard) {
        if (now - opened > OPEN_LIMIT) { drop(); retry(); }
      } else if (now - heard > SILENCE_LIMIT) {
        drop();
        attempt = 0;
        retry();
      } else if (now - pinged >= PING_EVERY && ws && ws.readyState === WebSocket.OPEN) {
        pinged = now;
        ws.send(JSON.stringify({ type: "ping" }));
      }
    }, WATCH_EVERY);
    ws.onopen = () => { heard = pinged = Date.now(); };
    ws.onmessage = (e) => {
      attempt = 0;
      heard = Date.now();
      let msg = null;
      try { msg = JSON.parse(e.data); } catch (_) { return; }
      onMessage(msg);
    };
    ws.onclose = () => { clearInterval(watch); ws = null; retry(); };
    ws.onerror = () => {};
  };
  const retry = () => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(open, Math.min(15000, 1000 * 2 ** attempt++));
  };
  open();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      drop();
    },
  };
}

export function mountNotFound(root) {
  page(root, "narrow", h("h1", {}, "Nothing here"), h("p", {}, "This page does not exist."), h("a", { class: "btn btn-primary", href: "/" }, "Home"));
}
