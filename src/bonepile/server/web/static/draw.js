// Pure SVG drawing: tiles with pips, the table scene (lines, arms, trees) and its open
// ends. Functions take data and return SVG elements; units are tile halves (squares).
import { s, n } from "./dom.js";

/** A distinct colour for every pip value 0-15 (pips 1-9, numeral badges 10-15, half tints). */
export const PIP_COLORS = [
  "#8a8f98", // 0 (blank: only the half's tint shows)
  "#1f6fd1", // 1 blue
  "#23904f", // 2 green
  "#c8372d", // 3 red
  "#7444b5", // 4 purple
  "#b87512", // 5 amber
  "#0e7c86", // 6 teal
  "#c2226f", // 7 magenta
  "#24418f", // 8 navy
  "#5c7d12", // 9 olive
  "#d1541a", // 10 orange
  "#7a3b1d", // 11 brown
  "#0b7fbf", // 12 sky
  "#8b2ecf", // 13 violet
  "#3c4a5c", // 14 slate
  "#a87b00", // 15 gold
];

export function pipColor(v) {
  return PIP_COLORS[((v % 16) + 16) % 16];
}

// Pip spots on a 3x3 grid, as (column, row) for a standing (vertical) tile's half.
const SPOTS = {
  0: [],
  1: [[1, 1]],
  2: [[2, 0], [0, 2]],
  3: [[2, 0], [1, 1], [0, 2]],
  4: [[0, 0], [2, 0], [0, 2], [2, 2]],
  5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  6: [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [2, 2]],
  7: [[0, 0], [0, 1], [0, 2], [1, 1], [2, 0], [2, 1], [2, 2]],
  8: [[0, 0], [0, 1], [0, 2], [1, 0], [1, 2], [2, 0], [2, 1], [2, 2]],
  9: [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2], [2, 0], [2, 1], [2, 2]],
};

/** The marks of one half: pips (0-9) or a numeral on a coloured badge (10-15). */
export function halfMarks(v, cx, cy, size, horizontal) {
  const colour = pipColor(v);
  if (v >= 10) {
    const b = size * 0.74;
    return [
      s("rect", { x: n(cx - b / 2), y: n(cy - b / 2), width: n(b), height: n(b), rx: n(b * 0.26), fill: colour }),
      s("text", {
        x: n(cx), y: n(cy + size * 0.005), "font-size": n(size * 0.5), "text-anchor": "middle",
        "dominant-baseline": "central", class: "numeral", fill: "#fff",
      }, String(v)),
    ];
  }
  const spots = SPOTS[v] || [];
  const step = size * 0.27;
  const r = size * (v >= 7 ? 0.082 : 0.094);
  return spots.map(([c, row]) => {
    const [dx, dy] = horizontal ? [row, 2 - c] : [c, row];
    return s("circle", { cx: n(cx + (dx - 1) * step), cy: n(cy + (dy - 1) * step), r: n(r), fill: colour });
  });
}

/**
 * One tile as an SVG group: box {x, y, w, h} in units, pips [top/left, bottom/right].
 * opts: {cls, label, starter (the fat spinner), wild, spinner, tint (default true)}.
 */
export function tileShape(box, pips, opts = {}) {
  const { x, y, w, h } = box;
  const horizontal = w >= h;
  const g = s("g", {
    class: ["tile", opts.cls],
    role: "img",
    "aria-label": opts.label || `${pips[0]}-${pips[1]}`,
  });
  const inset = 0.04;
  const bx = x + inset, by = y + inset, bw = w - 2 * inset, bh = h - 2 * inset;
  const r = Math.min(bw, bh) * 0.16;
  g.append(s("rect", { class: "tile-shadow", x: n(bx + 0.04), y: n(by + 0.07), width: n(bw), height: n(bh), rx: n(r) }));
  g.append(s("rect", { class: "tile-body", x: n(bx), y: n(by), width: n(bw), height: n(bh), rx: n(r) }));
  const halves = horizontal
    ? [[bx, by, bw / 2, bh], [bx + bw / 2, by, bw / 2, bh]]
    : [[bx, by, bw, bh / 2], [bx, by + bh / 2, bw, bh / 2]];
  halves.forEach(([hx, hy, hw, hh], i) => {
    const v = pips[i];
    if (opts.tint !== false) {
      g.append(s("rect", {
        class: "half-tint", x: n(hx + 0.05), y: n(hy + 0.05), width: n(hw - 0.1), height: n(hh - 0.1),
        rx: n(r * 0.7), fill: pipColor(v),
      }));
    }
    const size = Math.min(hw, hh);
    g.append(...halfMarks(v, hx + hw / 2, hy + hh / 2, size, horizontal));
  });
  if (horizontal) {
    const mx = bx + bw / 2;
    g.append(s("line", { class: "tile-divider", x1: n(mx), y1: n(by + 0.13), x2: n(mx), y2: n(by + bh - 0.13) }));
    g.append(s("circle", { class: "tile-pin", cx: n(mx), cy: n(by + bh / 2), r: 0.045 }));
  } else {
    const my = by + bh / 2;
    g.append(s("line", { class: "tile-divider", x1: n(bx + 0.13), y1: n(my), x2: n(bx + bw - 0.13), y2: n(my) }));
    g.append(s("circle", { class: "tile-pin", cx: n(bx + bw / 2), cy: n(my), r: 0.045 }));
  }
  if (opts.starter || opts.spinner) {
    g.append(s("rect", {
      class: opts.starter ? "starter-ring" : "spinner-ring",
      x: n(bx - 0.05), y: n(by - 0.05), width: n(bw + 0.1), height: n(bh + 0.1), rx: n(r + 0.05),
    }));
  }
  if (opts.wild) {
    const cx = bx + bw - 0.02, cy = by + 0.02;
    g.append(s("g", { class: "wild-badge" },
      s("title", {}, "A double played wild on an open 13"),
      s("circle", { cx: n(cx), cy: n(cy), r: 0.26 }),
      s("text", { x: n(cx), y: n(cy), "font-size": 0.24, "text-anchor": "middle", "dominant-baseline": "central" }, "13")));
  }
  return g;
}

/** Parse "5-3" into [5, 3]. */
export function tilePips(tile) {
  const [a, b] = String(tile).split("-").map(Number);
  return [a, b];
}

/** A standalone tile picture (hand, logs, results): a small <svg>. */
export function tileIcon(tile, { vertical = true, cls = "", label } = {}) {
  const pips = Array.isArray(tile) ? tile : tilePips(tile);
  const box = vertical ? { x: 0, y: 0, w: 1, h: 2 } : { x: 0, y: 0, w: 2, h: 1 };
  const vb = vertical ? "-0.04 -0.04 1.12 2.16" : "-0.04 -0.04 2.12 1.16";
  return s("svg", { class: ["tile-icon", cls], viewBox: vb, "aria-hidden": label ? null : "true", role: label ? "img" : null, "aria-label": label || null },
    tileShape(box, pips, { label: label || `${pips[0]}-${pips[1]}` }));
}

/** The back of a tile (an opponent's hidden tile). */
export function tileBack() {
  return s("svg", { class: "tile-back", viewBox: "0 0 10 18", "aria-hidden": "true" },
    s("rect", { x: 0.5, y: 0.5, width: 9, height: 17, rx: 1.8 }),
    s("line", { x1: 2.5, y1: 9, x2: 7.5, y2: 9 }));
}

/** A colour for each seat (pieces on the score track, seat badges). */
export const SEAT_COLORS = ["#e4572e", "#2e86de", "#f0b429", "#8e44ad", "#16a085", "#d63384", "#6c7a89", "#7cb342"];

export function seatColor(k) {
  return SEAT_COLORS[k % SEAT_COLORS.length];
}

/** Where the lead goes on an empty table (the scene's units). */
export const LEAD_BOX = { x: -1.5, y: -1, w: 3, h: 2 };

/** The key of an end: "anchor:slot". */
export function endKey(anchor, slot) {
  return `${anchor}:${slot}`;
}

/** Pips of a tile shown in an end box: the half matching the end toward the anchor. */
export function ghostPips(tile, end) {
  const [a, b] = tilePips(tile);
  let inner, outer;
  if (a === end.value) { inner = a; outer = b; }
  else if (b === end.value) { inner = b; outer = a; }
  else { inner = a; outer = b; } // a double played wild on a 13
  return end.dir === "e" || end.dir === "s" ? [inner, outer] : [outer, inner];
}

/**
 * The table scene (line, fat_spinner, spinner_tree) into an SVG group.
 * opts: {newFrom, lastIndex, spellEnds:Set, targets: Map(endKey -> move), activeKey,
 *        ghostTile, spinners: bool, leadTarget: {x,y,w,h}|null, names: [seat names]}
 * Returns {tiles: Map(index -> el), ends: Map(key -> el)}.
 */
export function drawScene(group, scene, opts = {}) {
  const linksLayer = s("g", { class: "layer-links" });
  const tilesLayer = s("g", { class: "layer-tiles" });
  const endsLayer = s("g", { class: "layer-ends" });
  group.replaceChildren(linksLayer, tilesLayer, endsLayer);
  // a tile or an open end that found no room next to its tile lies apart: a line joins them
  const centre = (b) => [b.x + b.w / 2, b.y + b.h / 2];
  const link = (from, to) => {
    if (!from || !to) return;
    const [x1, y1] = centre(from), [x2, y2] = centre(to);
    linksLayer.append(s("line", { class: "link", x1: n(x1), y1: n(y1), x2: n(x2), y2: n(y2) }));
  };
  for (const t of scene.tiles || []) if (t.detached) link(t, scene.tiles[t.parent]);
  for (const e of scene.ends || []) if (e.detached) link(e, scene.tiles[e.anchor]);
  const out = { tiles: new Map(), ends: new Map() };
  const starterFat = scene.family === "fat_spinner";
  for (const t of scene.tiles || []) {
    const cls = [];
    if (opts.newFrom !== undefined && t.index >= opts.newFrom) cls.push("is-new");
    if (t.index === opts.lastIndex) cls.push("is-last");
    const starter = starterFat && t.index === 0;
    const spinner = !starter && t.double && (scene.family === "spinner_tree" || (opts.spinnerRoot && t.index === 0));
    const who = opts.names && opts.names[t.seat] ? `, played by ${opts.names[t.seat]}` : "";
    const el = tileShape(t, t.pips, {
      cls: cls.join(" "), starter, spinner, wild: t.wild,
      label: `${t.tile}${starter ? " (the starter)" : ""}${t.wild ? " (wild on a 13)" : ""}${who}`,
    });
    el.dataset.index = t.index;
    tilesLayer.append(el);
    out.tiles.set(t.index, el);
  }
  const targets = opts.targets || new Map();
  for (const e of scene.ends || []) {
    const key = endKey(e.anchor, e.slot);
    const target = targets.get(key);
    const spelled = opts.spellEnds && opts.spellEnds.has(key);
    const at = scene.tiles[e.anchor] ? scene.tiles[e.anchor].tile : "";
    const g = s("g", {
      class: ["end", target && "target", spelled && "spelled", key === opts.activeKey && "active"],
      "data-end": key,
      role: target ? "button" : "img",
      "aria-label": `${target ? "Play on " : ""}open end ${e.value}${at ? ` of ${at}` : ""}${spelled ? " (under a spell)" : ""}`,
    });
    g.append(s("rect", { class: "end-box", x: n(e.x + 0.08), y: n(e.y + 0.08), width: n(e.w - 0.16), height: n(e.h - 0.16), rx: 0.14 }));
    if (target && key === opts.activeKey && opts.ghostTile) {
      const ghost = tileShape(e, ghostPips(opts.ghostTile, e), { cls: "ghost" });
      g.append(ghost);
    } else {
      const [cx, cy] = innerHalfCentre(e);
      g.append(s("text", { class: "end-value", x: n(cx), y: n(cy), "font-size": 0.42, "text-anchor": "middle", "dominant-baseline": "central" }, String(e.value)));
    }
    if (opts.locked && opts.locked.has(e.value)) {
      g.classList.add("locked");
      g.setAttribute("aria-label", `${g.getAttribute("aria-label")} (locked until the ${e.value}-${e.value} is down)`);
      // the padlock sits in the half away from the tile, clear of the number (a square end: its corner)
      const [ix, iy] = innerHalfCentre(e);
      const square = Math.abs(e.w - e.h) < 0.01;
      const lx = square ? e.x + e.w - 0.22 : 2 * (e.x + e.w / 2) - ix;
      const ly = square ? e.y + 0.26 : 2 * (e.y + e.h / 2) - iy;
      g.append(s("g", { class: "lock-mark", transform: square ? "" : `translate(${n(lx)} ${n(ly)}) scale(1.6) translate(${n(-lx)} ${n(-ly)})` },
        s("path", { d: `M${n(lx - 0.08)} ${n(ly - 0.02)}v-0.06a0.08 0.08 0 0 1 0.16 0v0.06`, fill: "none" }),
        s("rect", { x: n(lx - 0.12), y: n(ly - 0.02), width: 0.24, height: 0.18, rx: 0.03 })));
    }
    if (spelled) {
      g.append(s("g", { class: "spell-mark" },
        s("circle", { cx: n(e.x + e.w - 0.12), cy: n(e.y + 0.12), r: 0.3 }),
        s("text", { x: n(e.x + e.w - 0.12), y: n(e.y + 0.14), "font-size": 0.4, "text-anchor": "middle", "dominant-baseline": "central" }, "✦")));
    }
    endsLayer.append(g);
    out.ends.set(key, g);
  }
  if (opts.leadTarget) {
    const b = opts.leadTarget;
    const live = opts.leadLive !== false;
    const g = s("g", { class: ["end", live && "target", "lead-target", opts.activeKey === "lead" && "active"], "data-end": "lead", role: live ? "button" : "img", "aria-label": live ? "Lead here" : "The lead goes here" });
    g.append(s("rect", { class: "end-box", x: n(b.x), y: n(b.y), width: n(b.w), height: n(b.h), rx: 0.2 }));
    if (opts.activeKey === "lead" && opts.ghostTile) {
      g.append(tileShape({ x: b.x + b.w / 2 - 1, y: b.y + b.h / 2 - 0.5, w: 2, h: 1 }, tilePips(opts.ghostTile), { cls: "ghost" }));
    } else {
      g.append(s("text", { class: "end-value", x: n(b.x + b.w / 2), y: n(b.y + b.h / 2), "font-size": 0.4, "text-anchor": "middle", "dominant-baseline": "central" }, "lead here"));
    }
    endsLayer.append(g);
    out.ends.set("lead", g);
  }
  return out;
}

/** The centre of the half of an end box that touches its anchor. */
function innerHalfCentre(e) {
  const cx = e.x + e.w / 2, cy = e.y + e.h / 2;
  if (e.w > e.h) return [e.dir === "w" ? e.x + e.w - 0.5 : e.x + 0.5, cy];
  if (e.h > e.w) return [cx, e.dir === "n" ? e.y + e.h - 0.5 : e.y + 0.5];
  return [cx, cy];
}

/** The bounding box to show for a scene: [x0, y0, x1, y1] (an empty table: a lead area). */
export function sceneBox(scene) {
  const b = scene && scene.box;
  if (!b || (b[2] - b[0] <= 0 && b[3] - b[1] <= 0) || !(scene.tiles || []).length) {
    return [-2.5, -2, 2.5, 2];
  }
  return b;
}
