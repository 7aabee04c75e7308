// Double Double Dominoes: the board (grid, diamonds, star), its tiles, the legal cells and
// the score track drawn as a loop round the board with every player's piece.
import { s, n } from "./dom.js";
import { tileShape, pipColor, seatColor } from "./draw.js";

const DIAMOND_FILL = { blue: "#2f6fd6", yellow: "#e8b91c", brown: "#8b5a2b", black: "#23252b", green: "#2e9e5b", red: "#c8372d", purple: "#7444b5" };
const GAP = 0.76; // between the board and the track: the squares' coordinates stand there
const LABEL = 0.5; // their size
const BAND = 0.78; // the track's width
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** "8H" for the zero-based cell (7, 7). */
export function cellName(r, c) {
  return `${r + 1}${LETTERS[c] || "?"}`;
}

/** The box to show for a board: the board and its track. */
export function boardBox(board) {
  const m = GAP + BAND + 0.15;
  return [-m, -m, board.cols + m, board.rows + m];
}

/** Pips of a placement, top/left first. */
export function placementPips(cells, pips) {
  const [[r1, c1], [r2, c2]] = cells;
  return r1 < r2 || c1 < c2 ? [pips[0], pips[1]] : [pips[1], pips[0]];
}

/** The box of two cells. */
export function cellsBox(cells) {
  const [[r1, c1], [r2, c2]] = cells;
  return { x: Math.min(c1, c2), y: Math.min(r1, r2), w: Math.abs(c1 - c2) + 1, h: Math.abs(r1 - r2) + 1 };
}

/** Every space of the track as {x, y, w, h, index} (index 0: the start spot). */
export function trackSpaces(board) {
  const count = board.score_track.spaces.length;
  const W = board.cols, H = board.rows;
  const x0 = -GAP - BAND, y0 = -GAP - BAND, x1 = W + GAP, y1 = H + GAP; // outer corners' origins
  const sideW = W + 2 * GAP, sideH = H + 2 * GAP;
  const per = Math.ceil(count / 4);
  const out = [{ index: 0, x: x0, y: y1, w: BAND, h: BAND, start: true }];
  let k = 1;
  const sides = [
    // left side, bottom to top
    (i, m) => ({ x: x0, y: -GAP + sideH - (i + 1) * (sideH / m), w: BAND, h: sideH / m }),
    // top side, left to right
    (i, m) => ({ x: -GAP + i * (sideW / m), y: y0, w: sideW / m, h: BAND }),
    // right side, top to bottom
    (i, m) => ({ x: x1, y: -GAP + i * (sideH / m), w: BAND, h: sideH / m }),
    // bottom side, right to left
    (i, m) => ({ x: -GAP + sideW - (i + 1) * (sideW / m), y: y1, w: sideW / m, h: BAND }),
  ];
  for (let side = 0; side < 4 && k <= count; side++) {
    const m = Math.min(per, count - k + 1);
    for (let i = 0; i < m; i++) out.push({ index: k++, ...sides[side](i, per) });
  }
  return out;
}

function smallPips(v, cx, cy, size) {
  const spots = { 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
    5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [-1, 0], [-1, 1], [1, -1], [1, 0], [1, 1]] }[v] || [];
  const step = size * 0.27, r = size * 0.1;
  return spots.map(([dx, dy]) => s("circle", { cx: n(cx + dx * step), cy: n(cy + dy * step), r: n(r), fill: pipColor(v) }));
}

/**
 * Draw the board into group. opts: {tiles (scene tiles), positions, players, names,
 * cellTargets: Map("r,c" -> cls), ghost: {cells, pips}|null, newFrom, lastIndex, chain}.
 */
export function drawBoard(group, board, opts = {}) {
  const W = board.cols, H = board.rows;
  const base = s("g", { class: "board-base" });
  base.append(s("rect", { class: "board-bg", x: -0.08, y: -0.08, width: W + 0.16, height: H + 0.16, rx: 0.25 }));
  let d = "";
  for (let c = 0; c <= W; c++) d += `M${c} 0V${H}`;
  for (let r = 0; r <= H; r++) d += `M0 ${r}H${W}`;
  base.append(s("path", { class: "board-grid", d }));
  const colours = board.diamond_colors || {};
  for (const [r, c, v] of board.diamonds || []) {
    const name = colours[String(v)] || "";
    const fill = DIAMOND_FILL[name] || "#6c7a89";
    const cx = c + 0.5, cy = r + 0.5, q = 0.36;
    base.append(s("g", { class: "diamond" },
      s("title", {}, `${cellName(r, c)}: diamond worth ${v}`),
      s("polygon", { points: `${cx},${cy - q} ${cx + q},${cy} ${cx},${cy + q} ${cx - q},${cy}`, fill }),
      s("text", { x: cx, y: n(cy + 0.01), "font-size": 0.4, "text-anchor": "middle", "dominant-baseline": "central", fill: name === "yellow" ? "#2b2100" : "#fff" }, String(v))));
  }
  if (board.star) {
    const [r, c] = board.star;
    const cx = c + 0.5, cy = r + 0.5, pts = [];
    for (let i = 0; i < 10; i++) {
      const rad = i % 2 ? 0.17 : 0.4, a = -Math.PI / 2 + (i * Math.PI) / 5;
      pts.push(`${n(cx + rad * Math.cos(a))},${n(cy + rad * Math.sin(a))}`);
    }
    base.append(s("polygon", { class: "star", points: pts.join(" ") }, s("title", {}, `${cellName(r, c)}: the star`)));
  }
  group.replaceChildren(base);
  group.append(drawCoordinates(board));
  group.append(drawTrack(board, opts));
  const tilesLayer = s("g", { class: "layer-tiles" });
  for (const t of opts.tiles || []) {
    const cls = [];
    if (opts.newFrom !== undefined && t.index >= opts.newFrom) cls.push("is-new");
    if (t.index === opts.lastIndex) cls.push("is-last");
    const who = opts.names && opts.names[t.seat] ? `, placed by ${opts.names[t.seat]}` : "";
    tilesLayer.append(tileShape(t, t.pips, { cls: cls.join(" "), label: `${t.tile}${who}` }));
  }
  group.append(tilesLayer);
  if (opts.chain) {
    const box = cellsBox(opts.chain);
    group.append(s("rect", { class: "chain-mark", x: box.x - 0.08, y: box.y - 0.08, width: box.w + 0.16, height: box.h + 0.16, rx: 0.2 }));
  }
  const targets = s("g", { class: "layer-ends" });
  if (opts.ghost) {
    const g = tileShape(cellsBox(opts.ghost.cells), placementPips(opts.ghost.cells, opts.ghost.pips), { cls: "ghost" });
    g.setAttribute("pointer-events", "none");
    targets.append(g);
  }
  for (const [key, cls] of opts.cellTargets || new Map()) {
    const [r, c] = key.split(",").map(Number);
    targets.append(s("rect", {
      class: ["cell-target", cls], x: c + 0.03, y: r + 0.03, width: 0.94, height: 0.94, rx: 0.14,
      "data-cell": key, role: "button", "aria-label": `square ${cellName(r, c)}`,
    }));
  }
  group.append(targets);
}

/** The squares' coordinates as the moves name them ("7J": row 7, column J): the columns'
 * letters above and below the board, the rows' numbers on its left and right. */
function drawCoordinates(board) {
  const W = board.cols, H = board.rows;
  const g = s("g", { class: "coords", "aria-hidden": "true" });
  const away = (GAP + 0.08) / 2; // the labels' centres: between the board's rim and the track
  const label = (x, y, text, cls) => s("text", {
    class: ["coord", cls], x: n(x), y: n(y), "font-size": LABEL, "text-anchor": "middle", "dominant-baseline": "central",
  }, text);
  for (let c = 0; c < W; c++) {
    const name = LETTERS[c] || "?";
    g.append(label(c + 0.5, -away, name, "coord-col"), label(c + 0.5, H + away, name, "coord-col"));
  }
  for (let r = 0; r < H; r++) {
    g.append(label(-away, r + 0.5, String(r + 1), "coord-row"), label(W + away, r + 0.5, String(r + 1), "coord-row"));
  }
  return g;
}

function drawTrack(board, opts) {
  const g = s("g", { class: "track" });
  const spaces = trackSpaces(board);
  const pips = board.score_track.spaces;
  const victory = board.victory_totals ? board.victory_totals[String(opts.players)] : null;
  for (const sp of spaces) {
    const cls = ["track-space", sp.start && "start", sp.index === victory && "victory", sp.index % 10 === 0 && sp.index > 0 && "tenth"];
    const cell = s("g", { class: cls });
    cell.append(s("title", {}, sp.start ? "start" : `space ${sp.index}: ${pips[sp.index - 1]} pips${sp.index === victory ? " (victory)" : ""}`));
    cell.append(s("rect", { x: n(sp.x + 0.02), y: n(sp.y + 0.02), width: n(sp.w - 0.04), height: n(sp.h - 0.04), rx: 0.08 }));
    const size = Math.min(sp.w, sp.h);
    if (sp.start) {
      cell.append(s("text", { x: n(sp.x + sp.w / 2), y: n(sp.y + sp.h / 2), "font-size": 0.22, "text-anchor": "middle", "dominant-baseline": "central", class: "track-label" }, "start"));
    } else {
      cell.append(...smallPips(pips[sp.index - 1], sp.x + sp.w / 2, sp.y + sp.h / 2, size * 0.95));
    }
    g.append(cell);
  }
  const positions = opts.positions || [];
  const count = pips.length;
  const bySpace = new Map();
  positions.forEach((pos, seat) => {
    const at = Math.max(0, Math.min(pos, count));
    if (!bySpace.has(at)) bySpace.set(at, []);
    bySpace.get(at).push(seat);
  });
  for (const [at, seats] of bySpace) {
    const sp = spaces[at];
    if (!sp) continue;
    seats.forEach((seat, i) => {
      const off = (i - (seats.length - 1) / 2) * 0.2;
      const cx = sp.x + sp.w / 2 + (sp.w >= sp.h ? off : 0), cy = sp.y + sp.h / 2 + (sp.w < sp.h ? off : 0);
      const name = (opts.names && opts.names[seat]) || `Seat ${seat + 1}`;
      g.append(s("g", { class: "piece" },
        s("title", {}, `${name}: ${positions[seat]}`),
        s("circle", { cx: n(cx), cy: n(cy), r: 0.27, fill: seatColor(seat) }),
        s("text", { x: n(cx), y: n(cy + 0.01), "font-size": 0.28, "text-anchor": "middle", "dominant-baseline": "central" }, String(seat + 1))));
    });
  }
  return g;
}
