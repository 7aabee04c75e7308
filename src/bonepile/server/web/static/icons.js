// Small line icons drawn in SVG (no icon font, no emoji: they render the same everywhere).
import { s } from "./dom.js";

const PATHS = {
  first: "M5 5v14M19 5l-10 7 10 7z",
  back: "M16 5l-10 7 10 7z",
  forward: "M8 5l10 7-10 7z",
  last: "M19 5v14M5 5l10 7-10 7z",
};

/** An icon by name, sized by CSS (1em). */
export function icon(name) {
  return s("svg", { class: "icon", viewBox: "0 0 24 24", "aria-hidden": "true" },
    s("path", { d: PATHS[name] || "", fill: "currentColor", stroke: "currentColor", "stroke-width": 2, "stroke-linejoin": "round", "stroke-linecap": "round" }));
}
