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

/** The theme shown: "light" or "dark". */
export function themeName() {
  return document.documentElement.dataset.theme === "dark" ? "dark" : "light";
}

/** Flip between light and dark, and keep the choice; every theme button follows. */
export function toggleTheme() {
  const next = themeName() === "dark" ? "light" : "dark";
  document.documentElement.dataset.theme = next;
  local.set(KEY, next);
  window.dispatchEvent(new CustomEvent("bonepile:theme", { detail: next }));
}

/** A button that flips between light and dark. */
export function themeButton() {
  const btn = h("button", { class: "icon-btn", type: "button", title: "Light or dark", "aria-label": "Switch light or dark theme" });
  const label = () => {
    if (!btn.isConnected && btn.dataset.shown) {
      window.removeEventListener("bonepile:theme", label);
      return;
    }
    btn.dataset.shown = "1";
    btn.textContent = themeName() === "dark" ? "☀" : "☾";
  };
  btn.addEventListener("click", () => toggleTheme());
  window.addEventListener("bonepile:theme", label);
  label();
  return btn;
}
