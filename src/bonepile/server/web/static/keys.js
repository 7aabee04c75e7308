// The table's keyboard: which hand tile a key picks beyond 1 to 9 (which play.js reads), and
// the list of keys shown with "?".
import { h } from "./dom.js";

/** The hand tile a key picks beyond 1 to 9 (which play.js reads): 0 is the 10th, Shift with
 * 1 to 9 the 11th to 19th and Shift+0 the 20th (where Shift with a digit key does not type
 * a digit, as it does on AZERTY); null for other keys. The arrow keys reach every tile. */
export function tileKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  if (e.key === "0") return 9;
  const digit = /^Digit([0-9])$/.exec(e.code || "");
  if (e.shiftKey && digit && !/^[0-9]$/.test(e.key)) {
    const d = Number(digit[1]);
    return d === 0 ? 19 : 9 + d;
  }
  return null;
}

/** The keyboard's keys, shown with "?" (or the top bar's "?" button). */
export function keysHelp(close) {
  const k = (...keys) => keys.map((key, i) => [i ? " " : "", h("kbd", {}, key)]);
  const row = (keys, text) => [h("dt", {}, keys), h("dd", {}, text)];
  return h("div", { class: "keys-help card", role: "dialog", "aria-label": "Keyboard shortcuts", hidden: true },
    h("div", { class: "keys-head" }, h("h2", {}, "Keyboard"), h("button", { type: "button", class: "btn btn-ghost btn-small", onclick: close }, "Close")),
    h("dl", { class: "keys-list" },
      row([k("1"), "–", k("9"), " ", k("0")], "pick the 1st to 9th tile, 0 the 10th"),
      row([k("Shift"), "+", k("1"), "–", k("9")], "pick the 11th to 19th tile"),
      row(k("←", "→"), "pick the previous or next tile (reaches every tile)"),
      row([k("Tab"), " or ", k("]")], "the next place for the picked tile"),
      row([k("Shift"), "+", k("Tab"), " or ", k("[")], "the previous place"),
      row(k("Enter"), "play the tile there"),
      row(k("Esc"), "put the tile back"),
      row(k("D", "P", "S", "X"), "draw, pass, stop the chain, discard"),
      row(k("?"), "show or hide these keys")));
}
