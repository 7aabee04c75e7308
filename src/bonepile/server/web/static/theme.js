// Light and dark: the system's choice unless the player picked one.
import { h, local } from "./dom.js";

const KEY = "bonepile:theme";

/** The saved choice, else the system's (followed as it changes until the player picks one);
 * style.css keys its dark palette on data-theme alone. */
export function initTheme() {
  const saved = local.get(KEY);
  if (saved === "light" || saved === "dark") {
    document.documentElement.dataset.theme = saved;
    return;
  }
  const query = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  const follow = () => {
    if (local.get(KEY)) return;
    document.documentElement.dataset.theme = query && query.matches ? "dark" : "light";
  };
  follow();
  if (query) query.addEventListener("change", follow);
}

function effective() {
  return document.documentElement.dataset.theme === "dark" ? "dark" : "light";
}

/** A button that flips between light and dark. */
export function themeButton() {
  const btn = h("button", { class: "icon-btn", type: "button", title: "Light or dark", "aria-label": "Switch light or dark theme" });
  const label = () => { btn.textContent = effective() === "dark" ? "☀" : "☾"; };
  btn.addEventListener("click", () => {
    const next = effective() === "dark" ? "light" : "dark";
    document.documentElement.dataset.theme = next;
    local.set(KEY, next);
    label();
  });
  label();
  return btn;
}
