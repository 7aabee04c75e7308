// The players round the table: name, tiles left (as backs), bot and presence marks, the
// clock, whose turn it is, scores, and the direction of play between them.
import { h } from "./dom.js";
import { tileBack, seatColor } from "./draw.js";
import { toast } from "./toast.js";

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

function luminance(hex) {
  const v = hex.replace("#", "");
  const ch = [0, 2, 4].map((i) => parseInt(v.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2];
}

/** Dark or white ink, whichever reads better on the colour. */
function inkOn(hex) {
  const l = luminance(hex);
  return (l + 0.05) / 0.05 > 1.05 / (l + 0.05) ? "#15171a" : "#ffffff";
}

/** A seat's number on the seat's colour: the same disc as its piece on a board's score track,
 * so that seats stay apart however short their names get. */
export function seatBadge(seat) {
  const bg = seatColor(seat);
  return h("span", { class: "seat-badge", style: { background: bg, color: inkOn(bg) }, "aria-hidden": "true" }, String(seat + 1));
}

/** A name in parts that shorten well: "Search bot 2" is the base "Search", the word " bot"
 * (dropped on narrow screens, where the card's BOT tag says it) and the tail "2" (never cut). */
export function nameParts(name, bot) {
  const m = /^(.+?)\s+(\d+|\((?:easy|medium|hard)\))$/i.exec(name);
  let base = m ? m[1] : name;
  const tail = m ? m[2] : "";
  let word = "";
  const w = bot ? /^(.+?)(\s+bot)$/i.exec(base) : null;
  if (w) { base = w[1]; word = w[2]; }
  return { base, word, tail };
}

function nameText(name, bot) {
  const { base, word, tail } = nameParts(name, bot);
  return h("span", { class: "name-text", title: name },
    h("span", { class: "name-base" }, base, word ? h("span", { class: "name-bot" }, word) : null),
    tail ? h("span", { class: "name-tail" }, tail) : null);
}

/** The mark of a name that is a signed-in person's account name (a guest's name may be any). */
export function accountMark(name) {
  return h("a", { class: "account-mark", href: `/p/${encodeURIComponent(name)}`, title: `${name} is signed in: their page`, "aria-label": `${name}'s page (signed in)` }, "✓");
}

/**
 * One seat's card. info: {seat, name, kind, bot, away_bot, present, tiles, score, bank,
 * turn, you, track, trackHelp}
 */
export function seatCard(info) {
  const marks = [];
  if (info.kind === "bot") marks.push(h("span", { class: "tag tag-bot", title: `Bot: ${info.bot || ""}` }, "bot"));
  if (info.kind === "open") marks.push(h("span", { class: "tag tag-open" }, "open seat"));
  if (info.away_bot) marks.push(h("span", { class: "tag tag-away", title: "A bot plays while this player is away" }, "bot playing"));
  const presence = info.kind === "human"
    ? h("span", { class: ["presence", info.present ? "here" : "gone"], role: "img", title: info.present ? "Connected" : "Not connected", "aria-label": info.present ? "connected" : "away" })
    : null;
  const count = info.tiles;
  const track = info.track
    ? h("button", {
      type: "button", class: "track-note", title: info.trackHelp || null, "aria-label": info.trackHelp || info.track,
      onclick: () => { if (info.trackHelp) toast(info.trackHelp, "info", 6000); },
    }, info.track)
    : null;
  const card = h("div", {
    class: ["seat-card", info.turn && "turn", info.you && "mine", info.kind === "bot" && "is-bot"],
    "data-seat": info.seat,
    role: "group",
    "aria-label": `Seat ${info.seat + 1}: ${info.name}${info.turn ? ", to play" : ""}, ${count} tile${count === 1 ? "" : "s"}`,
  },
  seatBadge(info.seat),
  h("div", { class: "seat-main" },
    h("div", { class: "seat-name" }, presence, nameText(info.name, info.kind === "bot"), info.account ? accountMark(info.name) : null),
    h("div", { class: "seat-sub" },
      count !== null && count !== undefined ? h("span", { class: "count-box", title: "Tiles in hand" }, backs(count), h("span", { class: "count" }, `${count}`)) : null,
      ...marks,
      info.score !== null && info.score !== undefined ? h("span", { class: "score", title: "Score" }, `${info.score}${info.scoreSuffix || ""}`) : null,
      track)),
  info.bank !== null && info.bank !== undefined ? h("span", { class: ["clock", info.turn && "running", info.bank < 20 && "low"], "data-clock": info.seat }, clockText(info.bank)) : null);
  return card;
}

/** The strip of other seats, with arrows showing which way play goes; it wraps onto more
 * rows rather than hide a seat off the screen. */
export function seatStrip(cards, direction) {
  const strip = h("div", { class: "seat-strip", "data-count": cards.length });
  cards.forEach((card, i) => {
    if (i > 0) strip.append(h("span", { class: "dir-arrow", "aria-hidden": "true", title: direction < 0 ? "Play goes right to left" : "Play goes left to right" }, direction < 0 ? "‹" : "›"));
    strip.append(card);
  });
  return strip;
}
