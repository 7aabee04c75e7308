// The players round the table: name, tiles left (as backs), bot and presence marks, the
// clock, whose turn it is, scores, and the direction of play between them.
import { h } from "./dom.js";
import { tileBack, seatColor } from "./draw.js";

/** "4:05" from seconds. */
export function clockText(seconds) {
  const t = Math.max(0, Math.ceil(seconds));
  const m = Math.floor(t / 60), sec = t % 60;
  return `${m}:${String(sec).padStart(2, "0")}`;
}

/** Seats in play order starting after `you` (or from seat 0 for a spectator). */
export function seatOrder(count, you) {
  const first = you === null || you === undefined ? 0 : (you + 1) % count;
  const out = [];
  for (let i = 0; i < count; i++) {
    const k = (first + i) % count;
    if (k !== you) out.push(k);
  }
  return out;
}

function backs(count) {
  const shown = Math.min(count, 8);
  const row = h("span", { class: "backs", "aria-hidden": "true" });
  for (let i = 0; i < shown; i++) row.append(tileBack());
  return row;
}

/**
 * One seat's card. info: {seat, name, kind, bot, away_bot, present, tiles, score, bank,
 * turn, you, track}
 */
export function seatCard(info) {
  const marks = [];
  if (info.kind === "bot") marks.push(h("span", { class: "tag tag-bot", title: `Bot: ${info.bot || ""}` }, "bot"));
  if (info.kind === "open") marks.push(h("span", { class: "tag tag-open" }, "open seat"));
  if (info.away_bot) marks.push(h("span", { class: "tag tag-away", title: "A bot plays while this player is away" }, "bot playing"));
  const presence = info.kind === "human"
    ? h("span", { class: ["presence", info.present ? "here" : "gone"], title: info.present ? "Connected" : "Not connected", "aria-label": info.present ? "connected" : "away" })
    : null;
  const count = info.tiles;
  const card = h("div", {
    class: ["seat-card", info.turn && "turn", info.you && "mine"],
    "data-seat": info.seat,
    "aria-label": `${info.name}${info.turn ? ", to play" : ""}, ${count} tile${count === 1 ? "" : "s"}`,
  },
  h("span", { class: "seat-dot", style: { background: seatColor(info.seat) } }),
  h("div", { class: "seat-main" },
    h("div", { class: "seat-name" }, presence, h("span", { class: "name-text", title: info.name }, info.name)),
    h("div", { class: "seat-sub" },
      count !== null && count !== undefined ? [backs(count), h("span", { class: "count", title: "Tiles in hand" }, `${count}`)] : null,
      ...marks,
      info.score !== null && info.score !== undefined ? h("span", { class: "score", title: "Score" }, `${info.score}${info.scoreSuffix || ""}`) : null,
      info.track ? h("span", { class: "track-note", title: "The pips of this player's track space" }, info.track) : null)),
  info.bank !== null && info.bank !== undefined ? h("span", { class: ["clock", info.turn && "running", info.bank < 20 && "low"], "data-clock": info.seat }, clockText(info.bank)) : null);
  return card;
}

/** The strip of other seats, with arrows showing which way play goes. */
export function seatStrip(cards, direction) {
  const strip = h("div", { class: "seat-strip" });
  cards.forEach((card, i) => {
    if (i > 0) strip.append(h("span", { class: "dir-arrow", "aria-hidden": "true", title: direction < 0 ? "Play goes right to left" : "Play goes left to right" }, direction < 0 ? "‹" : "›"));
    strip.append(card);
  });
  return strip;
}
