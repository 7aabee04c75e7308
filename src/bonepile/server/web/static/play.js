// Playing at the table: what the selected tile can do, the targets on the table (open ends,
// the lead spot, board squares), the action buttons and the keyboard.
import { h } from "./dom.js";
import { drawScene, endKey, sceneBox, LEAD_BOX, tileIcon } from "./draw.js";
import { drawBoard, boardBox, cellsBox, placementPips, cellName } from "./board.js";
import { Hand } from "./hand.js";

const PLACING = new Set(["lead", "attach", "place"]);
const BUTTONS = [
  { kind: "draw", label: "Draw", key: "d" },
  { kind: "pass", label: "Pass", key: "p" },
  { kind: "stop", label: "Stop the chain", key: "s" },
  { kind: "discard", label: "Discard", key: "x" },
];

/** The least size (CSS px) of anything a player taps: WCAG 2.2's minimum target size, 24 px,
 * with a pixel to spare. */
export const TAP = 25;

/** The least scale (px per tile half) of the table's default zoom, at which every target of a
 * scene's family is big enough to tap: an open end's box is 0.84 of a half across, a board's
 * square 0.94 of one. A line, arm or tree game's table keeps it (its numbers read at it, and it
 * pans when larger than the screen); a board shows whole until a tile is picked, then its
 * squares come to it. */
export function leastScale(family) {
  return Math.ceil(TAP / (family === "board" ? 0.94 : 0.84));
}

/** The box of the newest tile of a scene (what the table keeps in view when it pans), or null. */
function newest(scene) {
  const tiles = (scene && scene.tiles) || [];
  if (!tiles.length) return null;
  const t = tiles.reduce((a, b) => (b.index > a.index ? b : a));
  return { x: t.x, y: t.y, w: t.w, h: t.h };
}

/** The box round boxes {x, y, w, h}. */
function union(boxes) {
  const x0 = Math.min(...boxes.map((b) => b.x)), y0 = Math.min(...boxes.map((b) => b.y));
  const x1 = Math.max(...boxes.map((b) => b.x + b.w)), y1 = Math.max(...boxes.map((b) => b.y + b.h));
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

function cellKey([r, c]) {
  return `${r},${c}`;
}

export class Play {
  /**
   * parts: {viewport, felt (element), handBox, actionsBox}
   * hooks: {move(action, tileIndex), names() -> [names], hint(text)}
   */
  constructor(parts, hooks) {
    this.vp = parts.viewport;
    this.felt = parts.felt;
    this.actionsBox = parts.actionsBox;
    this.hooks = hooks;
    this.state = null;
    this.selected = null;
    this.active = -1; // keyboard target index
    this.firstCell = null; // Double Double: the square picked first
    this.pending = null; // {tile index} while a move waits for its ack
    this.hovered = null;
    this.drawnScene = null;
    this.hand = new Hand(parts.handBox, {
      select: (i, double) => this.tapTile(i, double),
      dragStart: (i) => this.dragStart(i),
      dragMove: (x, y) => this.dragMove(x, y),
      drop: (i, x, y) => this.drop(i, x, y),
    });
    this.vp.svg.addEventListener("click", (e) => this.clickTable(e));
    this.chooser = h("div", { class: "chooser", hidden: true });
    this.felt.append(this.chooser);
  }

  // ------------------------------------------------------------------ derived data
  get moves() {
    return (this.state && this.state.moves) || [];
  }

  get myTurn() {
    const st = this.state;
    return !!st && st.you !== null && st.view.actor === st.you && this.moves.length > 0 && st.status === "playing";
  }

  get interactive() {
    return this.myTurn && !this.pending;
  }

  tileOf(i) {
    return this.state ? this.state.view.hand[i] : undefined;
  }

  /** The moves that put hand tile i somewhere. */
  placing(i) {
    const tile = this.tileOf(i);
    return this.moves.filter((m) => m.tile === tile && PLACING.has(m.kind));
  }

  discardOf(i) {
    const tile = this.tileOf(i);
    return this.moves.find((m) => m.kind === "discard" && m.tile === tile) || null;
  }

  legalTiles() {
    const out = new Set();
    if (!this.interactive) return out;
    (this.state.view.hand || []).forEach((t, i) => {
      if (this.moves.some((m) => m.tile === t && (PLACING.has(m.kind) || m.kind === "discard"))) out.add(i);
    });
    return out;
  }

  /** The keyboard targets of the selected tile: [{key, move}] (line games) or placements. */
  targets() {
    if (this.selected === null || !this.interactive) return [];
    return this.placing(this.selected).map((m) => ({
      key: m.kind === "place" ? m.action : m.kind === "lead" ? "lead" : endKey(m.end[0], m.end[1]),
      move: m,
    }));
  }

  // ------------------------------------------------------------------ updates
  update(state, { newFrom, lastIndex } = {}) {
    const before = this.state;
    this.state = state;
    const handChanged = !before || before.view.hand.join(",") !== state.view.hand.join(",");
    const movesKey = (state.moves || []).map((m) => m.action).join(" ");
    if (handChanged || !this.myTurn || movesKey !== this.movesKey) {
      if (this.selected !== null && (handChanged || !this.myTurn)) this.clearSelection(false);
      this.firstCell = null;
      this.active = -1;
      this.chooser.hidden = true;
    }
    this.movesKey = movesKey;
    // the tile being played has left the hand: nothing there to mark any more
    if (handChanged && this.pending) this.pending = { index: null };
    this.newFrom = newFrom;
    this.lastIndex = lastIndex;
    this.render();
  }

  setPending(pending) {
    this.pending = pending;
    this.render();
  }

  clearSelection(rerender = true) {
    this.selected = null;
    this.active = -1;
    this.firstCell = null;
    this.chooser.hidden = true;
    if (rerender) this.render();
  }

  // ------------------------------------------------------------------ drawing
  render() {
    const st = this.state;
    if (!st) return;
    this.renderFelt();
    const closed = st.status === "closed";
    this.hand.render({
      tiles: closed ? [] : st.view.hand || [],
      legal: this.legalTiles(),
      selected: this.selected,
      playing: this.pending ? this.pending.index : null,
      interactive: this.interactive,
      hidden: closed ? "The table is closed" : st.you === null ? "You are watching" : "No tiles in hand",
    });
    this.renderActions();
  }

  renderFelt() {
    const st = this.state;
    const scene = st.scene || { family: "line", tiles: [], ends: [], box: [0, 0, 0, 0] };
    const names = this.hooks.names();
    const targets = this.targets();
    const activeKey = this.active >= 0 && targets[this.active] ? targets[this.active].key : null;
    const selectedTile = this.selected !== null ? this.tileOf(this.selected) : null;
    if (scene.family === "board") {
      const layout = st.view.layout;
      const board = layout.board;
      const cellTargets = new Map();
      let ghost = null;
      if (targets.length) {
        if (this.firstCell) {
          cellTargets.set(this.firstCell, "chosen");
          for (const t of targets) {
            const [a, b] = t.move.cells.map(cellKey);
            if (a === this.firstCell) cellTargets.set(b, "partner");
            else if (b === this.firstCell) cellTargets.set(a, "partner");
          }
          const mine = targets.filter((t) => t.move.cells.map(cellKey).includes(this.firstCell));
          const pairs = new Set(mine.map((t) => t.move.cells.map(cellKey).sort().join("|")));
          if (mine.length && pairs.size === 1 && mine.length === 1) ghost = mine[0].move;
        } else {
          for (const t of targets) for (const c of t.move.cells) cellTargets.set(cellKey(c), "target");
        }
        if (activeKey) {
          ghost = targets[this.active].move;
          for (const c of ghost.cells) cellTargets.set(cellKey(c), "active");
        }
      }
      // the whole board while nothing is picked; a tile picked, its squares big enough to tap
      this.vp.least = targets.length ? leastScale("board") : 0;
      drawBoard(this.vp.content, board, {
        tiles: scene.tiles,
        positions: st.view.public.positions || layout.positions,
        players: st.players,
        names,
        cellTargets,
        ghost,
        newFrom: this.newFrom,
        lastIndex: this.lastIndex,
        chain: st.view.public.chain,
      });
      const cells = [...cellTargets.keys()].map((k) => { const [r, c] = k.split(",").map(Number); return { x: c, y: r, w: 1, h: 1 }; });
      this.vp.setBox(boardBox(board), this.focus(cells, scene));
      this.showTargets(cells);
      return;
    }
    const targetMap = new Map();
    let lead = null;
    for (const t of targets) {
      if (t.key === "lead") lead = LEAD_BOX;
      else targetMap.set(t.key, t.move);
    }
    const pub = st.view.public || {};
    const spellEnds = new Set();
    if (pub.spell) {
      for (const e of scene.ends || []) {
        const anchor = scene.tiles[e.anchor];
        if (pub.spell.kind === "starter" ? e.anchor === 0 : anchor && anchor.tile === pub.spell.at) spellEnds.add(endKey(e.anchor, e.slot));
      }
    }
    drawScene(this.vp.content, scene, {
      newFrom: this.newFrom,
      lastIndex: this.lastIndex,
      spellEnds,
      targets: targetMap,
      activeKey,
      ghostTile: selectedTile,
      leadTarget: lead || (this.interactive && !(scene.tiles || []).length && this.moves.some((m) => m.kind === "lead") ? LEAD_BOX : null),
      leadLive: !!lead,
      names,
      locked: Array.isArray(pub.unlocked) ? new Set([...Array(16).keys()].filter((v) => !pub.unlocked.includes(v))) : null,
      spinnerRoot: scene.family === "line" && st.view.options && st.view.options.spinner,
    });
    const box = sceneBox(scene);
    const places = targets.map((t) => (t.key === "lead" ? LEAD_BOX : (scene.ends || []).find((e) => endKey(e.anchor, e.slot) === t.key))).filter(Boolean);
    this.vp.least = leastScale(scene.family);
    this.vp.setBox(box, this.focus(places, scene));
    this.showTargets(places);
    if (this.newFrom !== undefined && this.drawnScene !== scene) {
      const fresh = (scene.tiles || []).filter((t) => t.index >= this.newFrom);
      if (fresh.length && this.vp.userMoved) this.vp.ensureVisible(fresh[fresh.length - 1]);
    }
    this.drawnScene = scene;
  }

  /** What the table keeps in view when it pans (as states come and the screen changes): the
   * places the picked tile may go (all of them if they fit, else the first), else the newest
   * tile. */
  focus(boxes, scene) {
    if (!boxes.length) return newest(scene);
    const all = union(boxes);
    const k = Math.max(this.vp.k, this.vp.least), c = this.vp.clear();
    return all.w * k < c.w - 40 && all.h * k < c.h - 40 ? all : boxes[0];
  }

  /** Pan so the targets of a newly selected tile are in view (when the table is bigger). */
  showTargets(boxes) {
    const key = `${this.selected}:${this.firstCell}:${this.state.v}`;
    if (!boxes.length || key === this.shownTargets) return;
    this.shownTargets = key;
    const all = union(boxes);
    // zoomed out below the size a finger can hit: back to it, round the places
    this.vp.tappable(all);
    const k = this.vp.k;
    if (all.w * k < this.vp.width - 40 && all.h * k < this.vp.height - 40) this.vp.ensureVisible(all);
    else this.vp.ensureVisible(boxes[0]);
  }

  renderActions() {
    const present = new Set(this.moves.map((m) => m.kind));
    const buttons = [];
    if (this.myTurn) {
      for (const b of BUTTONS) {
        if (!present.has(b.kind)) continue;
        let label = b.label, disabled = !!this.pending, action = null;
        if (b.kind === "discard") {
          const d = this.selected !== null ? this.discardOf(this.selected) : null;
          if (d) { label = `Discard ${d.tile}`; action = d.action; }
          else { label = "Discard (pick a tile)"; disabled = true; }
        } else {
          action = this.moves.find((m) => m.kind === b.kind).action;
        }
        buttons.push(h("button", {
          type: "button", class: ["btn", b.kind === "draw" || b.kind === "discard" ? "btn-primary" : "btn-secondary"],
          "data-action": b.kind, disabled, title: `${label} (key ${b.key})`,
          onclick: () => { if (action) this.play(action); },
        }, label));
      }
    }
    this.actionsBox.replaceChildren(...buttons);
    this.actionsBox.hidden = !buttons.length;
  }

  // ------------------------------------------------------------------ acting
  play(action) {
    if (!this.interactive) return;
    const move = this.moves.find((m) => m.action === action);
    if (!move) return;
    const index = move.tile ? (this.selected !== null && this.tileOf(this.selected) === move.tile ? this.selected : this.state.view.hand.indexOf(move.tile)) : null;
    this.selected = null;
    this.active = -1;
    this.firstCell = null;
    this.chooser.hidden = true;
    this.hooks.move(action, index);
  }

  tapTile(i, double) {
    if (!this.interactive) {
      this.hand.focus(i);
      return;
    }
    const placing = this.placing(i);
    if (this.selected === i) {
      if (placing.length === 1) this.play(placing[0].action);
      else if (!double) this.clearSelection();
      return;
    }
    this.selected = i;
    this.active = -1;
    this.firstCell = null;
    this.chooser.hidden = true;
    if (double && placing.length === 1) {
      this.play(placing[0].action);
      return;
    }
    if (!placing.length && !this.discardOf(i)) this.hooks.hint(`${this.tileOf(i)} cannot be played now`);
    else if (placing.length === 1) this.hooks.hint("Tap it again, or tap the highlighted place, to play it");
    this.render();
  }

  clickTable(e) {
    const end = e.target.closest && e.target.closest("[data-end]");
    if (end) {
      this.clickEnd(end.dataset.end);
      return;
    }
    const cell = e.target.closest && e.target.closest("[data-cell]");
    if (cell) this.clickCell(cell.dataset.cell);
  }

  clickEnd(key) {
    if (!this.interactive || this.selected === null) return;
    const t = this.targets().find((x) => x.key === key);
    if (t) this.play(t.move.action);
  }

  clickCell(key) {
    if (!this.interactive || this.selected === null) return;
    const targets = this.targets();
    if (this.firstCell && key === this.firstCell) {
      this.firstCell = null;
      this.render();
      return;
    }
    if (this.firstCell) {
      const both = targets.filter((t) => {
        const ks = t.move.cells.map(cellKey);
        return ks.includes(this.firstCell) && ks.includes(key);
      });
      if (both.length === 1) { this.play(both[0].move.action); return; }
      if (both.length > 1) { this.choose(both.map((t) => t.move)); return; }
    }
    if (targets.some((t) => t.move.cells.map(cellKey).includes(key))) {
      this.firstCell = key;
      this.active = -1;
      this.render();
    }
  }

  /** Several placements on the same squares: let the player pick the way round. */
  choose(moves) {
    const close = () => { this.chooser.hidden = true; };
    this.chooser.replaceChildren(
      h("div", { class: "chooser-title" }, "Which way round?"),
      h("div", { class: "chooser-options" }, moves.map((m) => {
        const box = cellsBox(m.cells);
        const pips = placementPips(m.cells, m.pips);
        const where = m.cells.map((c, k) => `${m.pips[k]} on ${cellName(...c)}`).join(", ");
        return h("button", { type: "button", class: "chooser-option", "data-choice": m.action, "aria-label": where, onclick: () => { close(); this.play(m.action); } },
          tileIcon(pips, { vertical: box.h > box.w }), h("span", {}, where));
      })),
      h("button", { type: "button", class: "btn btn-ghost", onclick: close }, "Cancel"));
    this.chooser.hidden = false;
    const first = this.chooser.querySelector("button");
    if (first) first.focus();
  }

  // ------------------------------------------------------------------ dragging
  dragStart(i) {
    if (!this.interactive || !this.placing(i).length) return false;
    this.selected = i;
    this.firstCell = null;
    this.active = -1;
    this.render();
    return true;
  }

  dragMove(x, y) {
    const el = document.elementFromPoint(x, y);
    const t = el && el.closest ? el.closest("[data-end].target, [data-cell]") : null;
    if (t !== this.hovered) {
      if (this.hovered) this.hovered.classList.remove("hover");
      if (t) t.classList.add("hover");
      this.hovered = t;
    }
  }

  drop(i, x, y) {
    if (this.hovered) this.hovered.classList.remove("hover");
    this.hovered = null;
    if (x < 0) return;
    const el = document.elementFromPoint(x, y);
    if (!el || !el.closest) return;
    const end = el.closest("[data-end]");
    if (end) { this.clickEnd(end.dataset.end); return; }
    const cell = el.closest("[data-cell]");
    if (cell) this.clickCell(cell.dataset.cell);
  }

  // ------------------------------------------------------------------ keyboard
  keydown(e) {
    if (!this.state) return false;
    const hand = this.state.view.hand || [];
    const key = e.key;
    if (key === "ArrowRight" || key === "ArrowLeft") {
      if (!hand.length) return false;
      const step = key === "ArrowRight" ? 1 : -1;
      const from = this.selected === null ? (step > 0 ? -1 : hand.length) : this.selected;
      const i = (from + step + hand.length) % hand.length;
      this.selectByKey(i);
      return true;
    }
    if (/^[1-9]$/.test(key) && !e.ctrlKey && !e.metaKey && !e.altKey) {
      const i = Number(key) - 1;
      if (i < hand.length) { this.selectByKey(i); return true; }
      return false;
    }
    const targets = this.targets();
    if ((key === "Tab" || key === "]" || key === "[") && targets.length) {
      const back = key === "[" || (key === "Tab" && e.shiftKey);
      this.active = (this.active + (back ? -1 : 1) + targets.length + (this.active < 0 && back ? 1 : 0)) % targets.length;
      this.firstCell = null;
      this.render();
      const t = targets[this.active];
      this.hooks.hint(`Enter to play ${t.move.tile} ${t.key === "lead" ? "as the lead" : "here"} (${this.active + 1} of ${targets.length})`);
      return true;
    }
    if (key === "Enter" && this.selected !== null && this.interactive) {
      if (this.active >= 0 && targets[this.active]) { this.play(targets[this.active].move.action); return true; }
      if (targets.length === 1) { this.play(targets[0].move.action); return true; }
      const d = this.discardOf(this.selected);
      if (d && !targets.length) { this.play(d.action); return true; }
      return false;
    }
    if (key === "Escape") {
      if (this.selected === null && this.chooser.hidden) return false;
      this.clearSelection();
      return true;
    }
    if (e.ctrlKey || e.metaKey || e.altKey) return false;
    const button = BUTTONS.find((b) => b.key === key.toLowerCase());
    if (button && this.interactive) {
      const b = this.actionsBox.querySelector(`[data-action="${button.kind}"]`);
      if (b && !b.disabled) { b.click(); return true; }
    }
    return false;
  }

  selectByKey(i) {
    this.hand.focus(i);
    if (!this.interactive) return;
    this.selected = i;
    this.active = this.placing(i).length ? 0 : -1;
    this.firstCell = null;
    this.chooser.hidden = true;
    this.render();
    this.hand.focus(i);
  }
}

