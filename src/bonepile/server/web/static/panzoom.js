// A pannable, zoomable SVG viewport for the table: fits the whole layout to the area (the
// server folds it to the area's shape, so it shows at a readable size) but never below the
// scale at which its targets can be tapped (then it pans to what matters: the newest tile,
// the places a picked tile may go), and lets you zoom and drag, pinch, wheel or use the
// buttons; "Fit" shows it all, however small.
import { h, s, n } from "./dom.js";

export class Viewport {
  /** container: an element that gets the <svg>; opts: {floor, cap, least, margin} in px per
   * unit (floor: the least scale zooming out goes to, when the whole box already shows larger;
   * least: the least scale of the default zoom, at which every target is big enough to tap). */
  constructor(container, opts = {}) {
    this.container = container;
    this.floor = opts.floor || 22;
    this.cap = opts.cap || 58;
    this.least = opts.least || 0;
    // "auto": the default zoom (the whole box, or panned at the least scale); "whole": the
    // whole box however small ("Fit"); "user": where the player dragged or zoomed
    this.mode = "auto";
    this.panned = false; // the default zoom pans (the box is larger than the area)
    this.focus = null; // {x, y, w, h}: what the default zoom keeps in view when it pans
    this.margin = opts.margin === undefined ? 0.8 : opts.margin;
    this.box = [-2, -2, 2, 2];
    // px along each edge kept clear for what lies over the felt (facts, effects, buttons)
    this.insets = { top: 0, right: 0, bottom: 0, left: 0 };
    this.k = 30;
    this.tx = 0;
    this.ty = 0;
    this.width = 1;
    this.height = 1;
    this.svg = s("svg", { class: "table-svg", role: "group", "aria-label": "The table" });
    this.content = s("g", { class: "content" });
    this.svg.append(this.content);
    this.controls = h("div", { class: "zoom-controls" },
      h("button", { type: "button", class: "icon-btn", "aria-label": "Zoom in", title: "Zoom in", onclick: () => this.zoomBy(1.25) }, "+"),
      h("button", { type: "button", class: "icon-btn", "aria-label": "Zoom out", title: "Zoom out", onclick: () => this.zoomBy(0.8) }, "−"),
      h("button", { type: "button", class: "icon-btn", "aria-label": "Fit the table", title: "Fit the table", onclick: () => this.overview() }, "⤢"));
    container.append(this.svg, this.controls);
    this.pointers = new Map();
    this.moved = false;
    this._bind();
    this.resizeObserver = new ResizeObserver(() => this._measure());
    this.resizeObserver.observe(container);
    this._measure();
  }

  _measure() {
    const r = this.container.getBoundingClientRect();
    const w = Math.max(1, Math.round(r.width)), hh = Math.max(1, Math.round(r.height));
    if (w === this.width && hh === this.height) return;
    this.width = w;
    this.height = hh;
    this.svg.setAttribute("viewBox", `0 0 ${w} ${hh}`);
    this.svg.setAttribute("width", w);
    this.svg.setAttribute("height", hh);
    this._refit();
    if (this.onResize) this.onResize(w, hh);
  }

  /** The part of the area clear of the overlays: {x, y, w, h} in px. */
  clear() {
    const i = this.insets;
    const w = Math.max(40, this.width - i.left - i.right), hh = Math.max(40, this.height - i.top - i.bottom);
    return { x: i.left, y: i.top, w, h: hh };
  }

  /** The scale that shows the whole box in the clear part of the area. */
  fitScale() {
    const [x0, y0, x1, y1] = this.box;
    const bw = x1 - x0 + 2 * this.margin, bh = y1 - y0 + 2 * this.margin;
    const c = this.clear();
    return Math.min(c.w / bw, c.h / bh);
  }

  /** Keep {top, right, bottom, left} px clear of the table (what lies over those edges). */
  setInsets(insets) {
    const next = { top: 0, right: 0, bottom: 0, left: 0, ...insets };
    const i = this.insets;
    if (["top", "right", "bottom", "left"].every((k) => Math.abs(i[k] - next[k]) < 1)) return;
    this.insets = next;
    this._refit();
  }

  /** Set the content's box, and what the default zoom keeps in view when it must pan (the
   * newest tile, say); refits unless the player moved the view. */
  setBox(box, focus = null) {
    this.box = box;
    this.focus = focus;
    this._refit();
  }

  get userMoved() {
    return this.mode !== "auto";
  }

  _refit() {
    if (this.mode === "auto") this.fit();
    else if (this.mode === "whole") this.overview();
    else this._apply();
  }

  /** The default zoom: the whole box as large as it fits (never larger than the cap), unless
   * that is smaller than the least scale: then the least scale, panned to keep the focus in
   * view (where the player had it, if it was already panned). */
  fit() {
    this.mode = "auto";
    const [x0, y0, x1, y1] = this.box;
    const whole = this.fitScale();
    const k = Math.max(2, Math.min(this.cap, Math.max(whole, this.least)));
    if (k <= whole + 0.01) {
      this.panned = false;
      this._centre(k, [x0, y0, x1, y1]);
      return;
    }
    if (!(this.panned && Math.abs(this.k - k) < 0.01)) {
      const f = this.focus;
      this._centre(k, f ? [f.x, f.y, f.x + f.w, f.y + f.h] : [x0, y0, x1, y1]);
    }
    this.panned = true;
    this.k = k;
    if (this.focus) this.ensureVisible(this.focus);
    else this._apply();
  }

  /** "Fit": the whole box, however small (the default zoom again once it shows at least the
   * least scale). It stays fitted as the table grows, until the player drags or zooms. */
  overview() {
    const whole = this.fitScale();
    const k = Math.max(2, Math.min(this.cap, whole));
    if (k >= this.least - 0.01) {
      this.fit();
      return;
    }
    this.mode = "whole";
    this.panned = false;
    this._centre(k, this.box);
  }

  /** Zoom to at least the least scale around the box {x, y, w, h} (a picked tile's places,
   * when the player had zoomed out below it): back to the default zoom. */
  tappable(b) {
    if (this.k >= this.least - 0.01) return false;
    this.mode = "auto";
    this.panned = true;
    this._centre(Math.max(this.least, Math.min(this.cap, this.fitScale())), [b.x, b.y, b.x + b.w, b.y + b.h]);
    return true;
  }

  _centre(k, [x0, y0, x1, y1]) {
    const c = this.clear();
    this.k = k;
    this.tx = c.x + c.w / 2 - ((x0 + x1) / 2) * k;
    this.ty = c.y + c.h / 2 - ((y0 + y1) / 2) * k;
    this._apply();
  }

  /** Pan (without zooming) so that the box {x, y, w, h} is in view. */
  ensureVisible(b) {
    const pad = 0.6 * this.k;
    const c = this.clear();
    const left = b.x * this.k + this.tx, right = (b.x + b.w) * this.k + this.tx;
    const top = b.y * this.k + this.ty, bottom = (b.y + b.h) * this.k + this.ty;
    if (left < c.x + pad) this.tx += c.x + pad - left;
    else if (right > c.x + c.w - pad) this.tx -= right - (c.x + c.w - pad);
    if (top < c.y + pad) this.ty += c.y + pad - top;
    else if (bottom > c.y + c.h - pad) this.ty -= bottom - (c.y + c.h - pad);
    this._apply();
  }

  zoomBy(f, cx = this.width / 2, cy = this.height / 2) {
    const lo = Math.min(this.floor, this.fitScale()) * 0.9, hi = Math.max(this.cap, this.floor * 3);
    const k = Math.max(lo, Math.min(hi, this.k * f));
    const ux = (cx - this.tx) / this.k, uy = (cy - this.ty) / this.k;
    this.k = k;
    this.tx = cx - ux * k;
    this.ty = cy - uy * k;
    this.mode = "user";
    this._apply();
  }

  _clamp() {
    const [x0, y0, x1, y1] = this.box;
    const keep = 60;
    const minTx = keep - x1 * this.k, maxTx = this.width - keep - x0 * this.k;
    const minTy = keep - y1 * this.k, maxTy = this.height - keep - y0 * this.k;
    this.tx = Math.max(Math.min(minTx, maxTx), Math.min(Math.max(minTx, maxTx), this.tx));
    this.ty = Math.max(Math.min(minTy, maxTy), Math.min(Math.max(minTy, maxTy), this.ty));
  }

  _apply() {
    this._clamp();
    this.content.setAttribute("transform", `translate(${n(this.tx)} ${n(this.ty)}) scale(${n(this.k)})`);
    const pannable = this.fitScale() < this.k - 0.01;
    this.container.classList.toggle("pannable", pannable);
  }

  _bind() {
    const svg = this.svg;
    let last = null; // {x, y, dist}
    let start = null;
    svg.addEventListener("pointerdown", (e) => {
      if (e.pointerType === "mouse" && e.button !== 0) return;
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (this.pointers.size === 1) {
        this.moved = false;
        start = { x: e.clientX, y: e.clientY };
      }
      last = this._gesture();
    });
    svg.addEventListener("pointermove", (e) => {
      if (!this.pointers.has(e.pointerId)) return;
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      const now = this._gesture();
      if (!this.moved && start && Math.hypot(e.clientX - start.x, e.clientY - start.y) > 6) {
        this.moved = true;
        try { svg.setPointerCapture(e.pointerId); } catch (_) { /* gone */ }
      }
      if (this.moved && last && now) {
        this.tx += now.x - last.x;
        this.ty += now.y - last.y;
        if (now.dist && last.dist) {
          const rect = svg.getBoundingClientRect();
          this.zoomBy(now.dist / last.dist, now.x - rect.left, now.y - rect.top);
        }
        this.mode = "user";
        this._apply();
      }
      last = now;
    });
    const end = (e) => {
      this.pointers.delete(e.pointerId);
      last = this._gesture();
    };
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointercancel", end);
    // a drag is not a click on what lies under it
    svg.addEventListener("click", (e) => {
      if (this.moved) {
        e.stopPropagation();
        e.preventDefault();
        this.moved = false;
      }
    }, true);
    svg.addEventListener("wheel", (e) => {
      e.preventDefault();
      const rect = svg.getBoundingClientRect();
      this.zoomBy(Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0018)), e.clientX - rect.left, e.clientY - rect.top);
    }, { passive: false });
  }

  _gesture() {
    const pts = [...this.pointers.values()];
    if (!pts.length) return null;
    if (pts.length === 1) return { x: pts[0].x, y: pts[0].y, dist: 0 };
    const [a, b] = pts;
    return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, dist: Math.hypot(a.x - b.x, a.y - b.y) };
  }

  destroy() {
    this.resizeObserver.disconnect();
  }
}
