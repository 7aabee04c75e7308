// The player's own tiles: focusable buttons in one row that scrolls sideways, legal ones lit
// and others dimmed, tap to select, tap again (or double tap) to play a tile with one place to
// go, drag onto the table.
import { h } from "./dom.js";
import { tileIcon } from "./draw.js";

export class Hand {
  /** handlers: {select(index), activate(index), dragStart(index), drop(index, x, y), dragMove(x, y)} */
  constructor(container, handlers) {
    this.el = h("div", { class: "hand", role: "toolbar", "aria-label": "Your tiles" });
    container.append(this.el);
    this.handlers = handlers;
    this.tiles = [];
    this.buttons = [];
    this.drag = null;
    this.key = null;
    this.lastWidth = 0;
    this.resizeObserver = new ResizeObserver((entries) => {
      const width = Math.round(entries[0].contentRect.width);
      if (width === this.lastWidth) return; // only the width decides the tile size
      this.lastWidth = width;
      requestAnimationFrame(() => this._size());
    });
    this.resizeObserver.observe(container);
  }

  destroy() {
    this.resizeObserver.disconnect();
  }

  /**
   * tiles: ["5-3", ...]; legal: Set of indices with a move; selected: index|null;
   * playing: index of a tile being played (pending) or null; interactive: bool.
   */
  render({ tiles, legal, selected, playing, interactive, hidden }) {
    const key = tiles.join(",");
    if (key !== this.key) {
      this.key = key;
      this.tiles = tiles;
      this.buttons = tiles.map((tile, i) => this._button(tile, i));
      this.el.replaceChildren(...this.buttons);
      if (!tiles.length) this.el.append(h("div", { class: "hand-empty" }, hidden || "No tiles in hand"));
    }
    this.buttons.forEach((b, i) => {
      b.classList.toggle("legal", interactive && legal.has(i));
      b.classList.toggle("dim", interactive && !legal.has(i));
      b.classList.toggle("selected", selected === i);
      b.classList.toggle("playing", playing === i);
      b.setAttribute("aria-pressed", selected === i ? "true" : "false");
      if (interactive && legal.has(i)) b.setAttribute("aria-description", "playable");
      else b.removeAttribute("aria-description");
    });
    this.el.classList.toggle("waiting", !interactive);
    this._size();
  }

  _size() {
    // one row of tiles 30 to 46 px wide (36 on a short screen, whose height the table needs),
    // as large as lets them all show; when even 30 px do not, the row scrolls sideways
    const count = Math.max(1, this.tiles.length);
    const avail = (this.el.parentElement && this.el.parentElement.clientWidth) || this.el.clientWidth || 320;
    const gap = 6;
    const fit = Math.floor((avail - 12 - gap * (count - 1)) / count);
    const most = window.innerHeight < 700 ? 36 : 46;
    const w = Math.max(30, Math.min(most, fit));
    this.el.style.setProperty("--tile-w", `${w}px`);
    this.el.classList.toggle("scrolls", fit < 30);
  }

  focus(i) {
    const b = this.buttons[i];
    if (b) {
      b.focus({ preventScroll: false });
      b.scrollIntoView({ block: "nearest", inline: "nearest" });
    }
  }

  _button(tile, i) {
    // the button is named by its picture ("15-11"), whose numerals are part of that name
    const b = h("button", { type: "button", class: "hand-tile", "data-tile": tile, "data-index": i, "aria-keyshortcuts": shortcut(i) });
    b.append(tileIcon(tile, { label: tile }));
    let lastTap = 0;
    b.addEventListener("click", (e) => {
      if (this.suppressClick) {
        this.suppressClick = false;
        return;
      }
      const now = Date.now();
      const double = now - lastTap < 350;
      lastTap = now;
      e.preventDefault();
      this.handlers.select(i, double);
    });
    b.addEventListener("pointerdown", (e) => this._pointerDown(e, i));
    return b;
  }

  _pointerDown(e, i) {
    if (e.pointerType === "mouse" && e.button !== 0) return;
    const b = this.buttons[i];
    const start = { x: e.clientX, y: e.clientY };
    let ghost = null;
    try { b.setPointerCapture(e.pointerId); } catch (_) { /* fine */ }
    const move = (ev) => {
      const dx = ev.clientX - start.x, dy = ev.clientY - start.y;
      if (!ghost) {
        // a drag starts upwards (sideways swipes scroll the hand)
        if (Math.hypot(dx, dy) < 8 || Math.abs(dy) < Math.abs(dx) * 0.8) return;
        if (!this.handlers.dragStart(i)) { cleanup(); return; }
        ghost = b.cloneNode(true);
        ghost.classList.add("drag-ghost");
        ghost.removeAttribute("data-tile");
        ghost.setAttribute("aria-hidden", "true");
        ghost.style.width = `${b.offsetWidth}px`;
        ghost.style.height = `${b.offsetHeight}px`;
        document.body.append(ghost);
      }
      ghost.style.left = `${ev.clientX}px`;
      ghost.style.top = `${ev.clientY}px`;
      this.handlers.dragMove(ev.clientX, ev.clientY);
    };
    const up = (ev) => {
      cleanup();
      if (ghost) {
        ghost.remove();
        this.suppressClick = true;
        setTimeout(() => { this.suppressClick = false; }, 400);
        this.handlers.drop(i, ev.clientX, ev.clientY);
      }
    };
    const cancel = () => {
      cleanup();
      if (ghost) {
        ghost.remove();
        this.handlers.drop(i, -1, -1);
      }
    };
    const cleanup = () => {
      b.removeEventListener("pointermove", move);
      b.removeEventListener("pointerup", up);
      b.removeEventListener("pointercancel", cancel);
    };
    b.addEventListener("pointermove", move);
    b.addEventListener("pointerup", up);
    b.addEventListener("pointercancel", cancel);
  }
}

/** The key that picks the tile at index i (table.js and play.js read them): 1 to 9, 0 for
 * the 10th, Shift with 1 to 9 for the 11th to 19th; the arrow keys reach every tile. */
function shortcut(i) {
  if (i < 9) return String(i + 1);
  if (i === 9) return "0";
  if (i < 19) return `Shift+${i - 9}`;
  return null;
}
