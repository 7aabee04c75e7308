// Readable English for events, moves and results. Names come from the table's seats; the
// viewer's own seat is "You".
import { cellName } from "./board.js";

/** Seat names made distinct: several "Greedy bot" become "Greedy bot 2", "Greedy bot 3". */
export function distinctNames(raw) {
  const names = raw.map((r, k) => r || `Seat ${k + 1}`);
  const count = {};
  for (const r of names) count[r] = (count[r] || 0) + 1;
  return names.map((r, k) => (count[r] > 1 ? `${r.replace(/ \((easy|medium|hard)\)$/, "")} ${k + 1}` : r));
}

/** A namer: seat -> display name, with "You" for the viewer. */
export function namer(names, you) {
  return (seat) => {
    if (seat === null || seat === undefined) return "Someone";
    if (seat === you) return "You";
    return names[seat] || `Seat ${seat + 1}`;
  };
}

function verb(who, third, second) {
  return who === "You" ? second : third;
}

const DRAW_CAUSE = {
  fifteen: " (a 15 was played)",
  starter: " (the 15-15 starter)",
  opening: " looking for a double",
  refill: " to refill",
};

const REASONS = {
  domino: "domino",
  blocked: "blocked",
  victory_total: "reached the victory total",
  last_draw: "the boneyard ran out",
  board_full: "the board is full",
};

/**
 * One event as a sentence, or null for events not worth a line.
 * kind of result: {text, effect} where effect is true for table effects worth a toast.
 */
export function describeEvent(e, name) {
  const who = name(e.seat);
  switch (e.type) {
    case "led":
      return { text: `${who} ${verb(who, "leads", "lead")} ${e.tile}` };
    case "placed":
      return { text: `${who} ${verb(who, "plays", "play")} ${e.tile} on ${e.at}` };
    case "drew": {
      const tiles = e.tiles && e.tiles.length ? ` (${e.tiles.join(", ")})` : "";
      const count = e.count === 1 ? "a tile" : `${e.count} tiles`;
      const text = `${who} ${verb(who, "draws", "draw")} ${count}${tiles}${DRAW_CAUSE[e.cause] || ""}`;
      return { text, effect: e.cause !== "turn" && e.cause !== "refill", short: `${who} ${verb(who, "draws", "draw")} ${e.count}` };
    }
    case "passed":
      return { text: `${who} ${verb(who, "passes", "pass")}`, effect: true };
    case "skipped":
      return { text: `${who} ${verb(who, "is", "are")} skipped`, effect: true };
    case "reversed":
      return { text: `Direction reversed`, effect: true };
    case "spell_cast":
      return e.starter
        ? { text: `Spell cast on every empty arm by ${who === "You" ? "you" : who}`, effect: true, short: "Spell on the empty arms" }
        : { text: `Spell cast on ${e.at} by ${who === "You" ? "you" : who}`, effect: true, short: `Spell cast on ${e.at}` };
    case "spell_ended": {
      const how = {
        broken: `${who} ${verb(who, "breaks", "break")} the spell`,
        arms_started: `${who} ${verb(who, "ends", "end")} the starter spell`,
        caster_turn: "The spell lapses",
        replaced: "A new spell replaces the old one",
      }[e.how] || "The spell ends";
      return { text: how, effect: true };
    }
    case "extra_turn":
      return { text: `Extra turn for ${who === "You" ? "you" : who}`, effect: true, short: "Extra turn" };
    case "placed_on_board": {
      const chain = e.chain ? " (chain)" : "";
      return { text: `${who} ${verb(who, "places", "place")} ${e.tile}${chain}: ${e.p} on ${cellName(...e.cell1)}, ${e.q} on ${cellName(...e.cell2)}` };
    }
    case "scored":
      return {
        text: `${who} ${verb(who, "scores", "score")} ${e.points} (${e.kind === "diamond" ? "diamond" : "track bonus"}), now at ${e.position}`,
        effect: true,
        short: `+${e.points} ${e.kind === "diamond" ? "diamond" : "bonus"} · ${who}`,
      };
    case "discarded":
      return { text: `${who} ${verb(who, "discards", "discard")} ${e.tile || "a tile"} into the pit`, effect: true };
    case "chain_stopped":
      return { text: `${who} ${verb(who, "stops", "stop")} the chain`, effect: true };
    case "hand_ended":
      return { text: describeResult(e.result, name), effect: false };
    default:
      return { text: e.type.replace(/_/g, " ") };
  }
}

/** The pips left in each hand shown at the end of a hand (["5-3", ...] per seat). */
export function pipsLeft(revealed) {
  return revealed.map((tiles) => (tiles || []).reduce((sum, t) => sum + String(t).split("-").reduce((a, b) => a + Number(b), 0), 0));
}

/** "Ana wins 23 (domino)"; a blocked hand nobody won says the pips left that tied it
 * (``revealed``: every hand, once shown). */
export function describeResult(result, name, revealed = null) {
  if (!result) return "";
  const reason = REASONS[result.reason] || result.reason;
  if (!result.winners.length && result.reason === "blocked" && Array.isArray(revealed) && revealed.length) {
    const pips = pipsLeft(revealed);
    const parts = pips.map((p, k) => `${name(k)} ${p}`);
    return `Blocked, no winner: pips left ${parts.join(", ")}`;
  }
  if (!result.winners.length) return `Hand over (${reason}): no winner`;
  const who = result.winners.map(name).join(" and ");
  const plural = result.winners.length > 1 || who === "You";
  const pts = Math.max(0, ...result.winners.map((w) => result.points[w] || 0));
  const points = pts ? ` ${pts} point${pts === 1 ? "" : "s"}` : "";
  return `${who} ${plural ? "win" : "wins"}${points} (${reason})`;
}

/** A move in notation, readable: "5-3 on 6-5", "3-4 on 7I-7J", "Draw". */
export function describeAction(action) {
  if (action === "draw") return "Draw";
  if (action === "pass") return "Pass";
  if (action === "stop") return "Stop the chain";
  if (action.startsWith("discard ")) return `Discard ${action.slice(8)}`;
  const at = action.indexOf("@");
  if (at < 0) return `Lead ${action}`;
  const tile = action.slice(0, at), where = action.slice(at + 1);
  const cells = where.match(/^(\d+[A-Z])(\d+[A-Z])$/);
  if (cells) {
    const [p, q] = tile.split("-");
    return `${tile}: ${p} on ${cells[1]}, ${q} on ${cells[2]}`;
  }
  return `${tile} on ${where}`;
}
