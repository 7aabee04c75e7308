// The cards laid over the table: the result of a hand (every hand revealed), the match's
// end, and the wait for players with the invite link and "Take a seat".
import { h, local } from "./dom.js";
import { tileIcon } from "./draw.js";
import { describeResult, pipsLeft } from "./describe.js";
import { seatBadge } from "./seats.js";
import { api } from "./api.js";

const settled = new Map(); // table id -> its ratings line, once known (or being asked)

/** The line under a rated table's result: each player's new rating and its change, once the
 * server has settled them (asked up to five times, a second apart, once per table). */
function ratingsLine(state) {
  if (!state.rated || state.status !== "over") return null;
  const line = h("p", { class: "small rating-change", "aria-live": "polite" });
  let known = settled.get(state.table);
  if (!known) {
    known = askRatings(state);
    settled.set(state.table, known);
  }
  known.then((text) => { line.textContent = text; }, () => {});
  return line;
}

async function askRatings(state) {
  const names = state.seats.map((s) => s.left || s.name);
  for (let tries = 0; tries < 5; tries += 1) {
    const got = await Promise.all(names.map((n) =>
      api.get(`/api/players/${encodeURIComponent(n)}/ratings/${state.game}?players=${state.players}`).catch(() => null)));
    const parts = [];
    got.forEach((g, k) => {
      const at = g ? g.points.findIndex((p) => p.table === state.table) : -1;
      if (at < 0) return;
      const now = g.points[at].rating;
      const change = now - (at > 0 ? g.points[at - 1].rating : 1500);
      parts.push(`${names[k]} ${now.toLocaleString("en-US")} (${change >= 0 ? "+" : "−"}${Math.abs(change)})`);
    });
    if (parts.length === names.length) return `Ratings: ${parts.join(" · ")}`;
    await new Promise((done) => setTimeout(done, 1000));
  }
  return "";
}

export function resultCard(state, ctx) {
  const view = state.view;
  const result = view.result;
  const you = state.you;
  const winners = result.winners;
  let title;
  if (state.match_over && state.match) {
    const ws = state.winners.length ? state.winners : winners;
    title = ws.includes(you) ? "You win the match!" : ws.length ? `${ws.map(ctx.name).join(" and ")} ${ws.length > 1 ? "win" : "wins"} the match` : "Match over";
  } else if (winners.includes(you)) {
    title = winners.length > 1 ? "You share the win" : "You win!";
  } else if (winners.length) {
    title = `${winners.map(ctx.name).join(" and ")} ${winners.length > 1 ? "win" : "wins"}`;
  } else {
    title = "No winner";
  }
  const rows = [];
  // a blocked hand is decided by what is left in the hands: their pips say who won, or why nobody did
  const blocked = result.reason === "blocked" && Array.isArray(view.revealed);
  const pips = blocked ? pipsLeft(view.revealed) : [];
  for (let k = 0; k < state.players; k++) {
    const tiles = view.revealed ? view.revealed[k] || [] : [];
    rows.push(h("tr", { class: winners.includes(k) ? "winner" : "" },
      h("td", { class: "who" }, seatBadge(k), h("span", {}, ctx.name(k))),
      h("td", { class: "revealed" }, tiles.length ? h("span", { class: "mini-tiles" }, tiles.map((t) => tileIcon(t, { label: t }))) : h("span", { class: "muted" }, "—")),
      blocked ? h("td", { class: "num pips-left" }, String(pips[k])) : null,
      ctx.board ? null : h("td", { class: "num", "data-label": "Points this hand" }, result.points[k] ? `+${result.points[k]}` : "0"),
      h("td", { class: "num strong" }, String(state.totals[k]))));
  }
  const buttons = [];
  if (state.match && !state.match_over && ctx.seated) {
    buttons.push(h("button", { type: "button", class: "btn btn-primary", "data-action": "next-hand", onclick: ctx.onNext }, "Next hand"));
  } else if (state.match && !state.match_over) {
    buttons.push(h("span", { class: "muted" }, "Waiting for the next hand…"));
  }
  if (state.status === "over" && ctx.seated) {
    buttons.push(h("button", { type: "button", class: "btn btn-primary", "data-action": "rematch", onclick: ctx.onRematch }, "Play again"));
  }
  if (state.status === "over") buttons.push(h("a", { class: "btn btn-secondary", href: "/new" }, "New table"));
  const links = [
    h("a", { class: "btn btn-ghost btn-small", href: `/replay/${ctx.replayId}` }, "Replay this hand"),
    h("button", { type: "button", class: "btn btn-ghost btn-small", onclick: ctx.onHide }, "See the table"),
  ];
  return h("div", { class: "card result-card", role: "dialog", "aria-label": "Result" },
    h("h2", {}, title),
    h("p", { class: "muted result-line" }, describeResult(result, ctx.name, view.revealed)),
    state.match && state.target ? h("p", { class: "muted small" }, `Match to ${state.target}`) : null,
    ratingsLine(state),
    h("table", { class: "result-table" },
      h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", {}, "Tiles left"), blocked ? h("th", { class: "num", title: "The pips of the tiles left in each hand: a blocked hand is decided by them" }, "Pips left") : null, ctx.board ? null : h("th", { class: "num", title: "The points each player scored with this hand" }, "Points this hand"), h("th", { class: "num" }, ctx.board ? "Score" : "Total"))),
      h("tbody", {}, rows)),
    h("div", { class: "card-actions" }, buttons),
    h("div", { class: "card-actions card-links" }, links));
}

/**
 * Waiting for players (the table is open), and the "Take a seat" form for a visitor.
 * ctx: {name(seat), canSit, inviteUrl, onSit(name), onWatch, onCopy}
 */
export function waitingCard(state, ctx) {
  const open = state.seats.filter((s) => s.kind === "open").length;
  const list = h("ul", { class: "seat-list" }, state.seats.map((s, k) => h("li", {},
    seatBadge(k),
    s.kind === "open" ? h("span", { class: "muted" }, "open seat") : h("span", {}, ctx.name(k)),
    s.kind === "bot" ? h("span", { class: "tag tag-bot" }, "bot") : null)));
  const parts = [
    h("h2", {}, ctx.canSit ? "Take a seat" : "Waiting for players"),
    h("p", { class: "muted" }, `${open} seat${open === 1 ? "" : "s"} open. The game starts when every seat is taken.`),
    list,
  ];
  if (ctx.canSit) {
    const input = h("input", { type: "text", name: "name", maxlength: 24, placeholder: "Your name", value: local.get("bonepile:name") || "", "aria-label": "Your name", autocomplete: "nickname" });
    const form = h("form", { class: "sit-form", onsubmit: (e) => { e.preventDefault(); ctx.onSit(input.value.trim()); } },
      input,
      h("button", { type: "submit", class: "btn btn-primary", "data-action": "sit" }, "Sit down"),
      h("button", { type: "button", class: "btn btn-ghost", "data-action": "watch", onclick: ctx.onWatch }, "Watch"));
    parts.push(form);
  }
  parts.push(h("div", { class: "invite" },
    h("label", {}, "Invite a friend with this link:"),
    h("div", { class: "invite-row" },
      h("input", { type: "text", readonly: true, value: ctx.inviteUrl, "aria-label": "Invite link", onfocus: (e) => e.target.select() }),
      h("button", { type: "button", class: "btn btn-secondary", onclick: ctx.onCopy }, "Copy"))));
  return h("div", { class: "card waiting-card", role: "dialog", "aria-label": "Waiting for players" }, parts);
}

/** A visitor at a full table, or one who chose to watch: a small card. */
export function sitCard(ctx) {
  const input = h("input", { type: "text", maxlength: 24, placeholder: "Your name", value: local.get("bonepile:name") || "", "aria-label": "Your name" });
  return h("div", { class: "card sit-card" },
    h("h2", {}, "A seat is free"),
    h("form", { class: "sit-form", onsubmit: (e) => { e.preventDefault(); ctx.onSit(input.value.trim()); } },
      input,
      h("button", { type: "submit", class: "btn btn-primary", "data-action": "sit" }, "Take a seat"),
      h("button", { type: "button", class: "btn btn-ghost", "data-action": "watch", onclick: ctx.onWatch }, "Watch")));
}

/** Why a table closed before its end, as a sentence ("You ended it"), or "". */
function closedWhy(state) {
  const reason = (state.closed && state.closed.reason) || "";
  if (reason === "abandoned") return "Nobody played here for a while";
  const by = /^ended by (.+)$/.exec(reason);
  if (!by) return "";
  const you = state.you !== null && state.you !== undefined && state.seats[state.you] && state.seats[state.you].name === by[1];
  return you ? "You ended it" : `${by[1]} ended it`;
}

/** The status line of a table closed before its end. */
export function closedText(state) {
  const why = closedWhy(state);
  return why ? `Closed: ${why[0].toLowerCase()}${why.slice(1)}` : "This table is closed";
}

/** A table closed before its end: nothing more to play here, and the ways on. */
export function closedCard(state, onHide) {
  const why = closedWhy(state);
  return h("div", { class: "card closed-card", role: "dialog", "aria-label": "The table is closed" },
    h("h2", {}, "This table is closed"),
    h("p", { class: "muted" }, `${why ? `${why}. ` : ""}Nobody can move here any more; any hand finished before it closed is in the replays.`),
    h("div", { class: "card-actions" },
      h("a", { class: "btn btn-primary", href: "/new", "data-action": "new-table" }, "New table"),
      h("a", { class: "btn btn-secondary", href: "/", "data-action": "home" }, "Front page")),
    h("div", { class: "card-actions card-links" },
      h("button", { type: "button", class: "btn btn-ghost btn-small", onclick: onHide }, "See the table")));
}
