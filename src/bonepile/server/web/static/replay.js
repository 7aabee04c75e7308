// Replays: the list of finished hands, and one hand step by step with every hand shown,
// the move and its effects, and each legal move's chance to win with its 95% interval.
import { h, copyText } from "./dom.js";
import { api, games } from "./api.js";
import { setQuery } from "./router.js";
import { toast } from "./toast.js";
import { page, loading, errorBox } from "./chrome.js";
import { icon } from "./icons.js";
import { Viewport } from "./panzoom.js";
import { drawScene, sceneBox, endKey, tileIcon, seatColor } from "./draw.js";
import { drawBoard, boardBox } from "./board.js";
import { describeEvent, describeResult, describeAction, namer, distinctNames } from "./describe.js";

function when(t) {
  try {
    return new Date(t * 1000).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  } catch (_) {
    return "";
  }
}

/** One finished hand in a list, opening its replay (``titles``: game name to title). */
export function replayRow(r, titles) {
  const names = distinctNames(r.names);
  const name = namer(names, null);
  const result = r.summary && r.summary.result ? describeResult(r.summary.result, name) : "";
  const hand = r.hand || Number(String(r.id).split("-").pop()) || 1;
  return h("a", { class: "replay-row", href: `/replay/${r.id}` },
    h("span", { class: "replay-game" }, titles[r.game] || r.game, h("span", { class: "muted small" }, ` · hand ${hand}`)),
    h("span", { class: "replay-players" }, names.map((n, k) => h("span", { class: "lobby-seat" }, h("span", { class: "seat-dot", style: { background: seatColor(k) } }), n))),
    h("span", { class: "replay-result small" }, result),
    h("span", { class: "replay-date small muted" }, when(r.finished)));
}

export function mountReplays(root) {
  const list = h("div", { class: "replay-list" }, loading());
  const more = h("button", { type: "button", class: "btn btn-secondary", hidden: true }, "Older games");
  page(root, "replays-page", h("h1", {}, "Replays"), h("p", { class: "muted" }, "Every finished hand, newest first."), list, more);
  document.title = "Replays · bonepile";
  const titles = {};
  let last = null;
  const load = async (first) => {
    more.disabled = true;
    try {
      const all = await games().catch(() => []);
      for (const g of all) titles[g.name] = g.title;
      const rows = await api.get(`/api/replays${last ? `?before=${last}` : ""}`);
      if (first) list.replaceChildren();
      if (first && !rows.length) list.append(h("p", { class: "muted" }, "No finished games yet. ", h("a", { href: "/" }, "Play one!")));
      for (const r of rows) list.append(replayRow(r, titles));
      if (rows.length) last = rows[rows.length - 1].finished;
      more.hidden = rows.length < 50;
    } catch (e) {
      list.append(errorBox(e.message));
    } finally {
      more.disabled = false;
    }
  };
  more.addEventListener("click", () => load(false));
  load(true);
}

export function mountReplay(root, id, query) {
  const column = page(root, "replay-page wide", loading("Loading the replay…"));
  let destroyed = false;
  let view = null;
  const start = async () => {
    // the replay's felt: the column's width (at most 900 px) by min(64vh, 620px), 52vh on a phone
    const width = Math.max(12, Math.min(120, Math.floor(Math.min(column.clientWidth || window.innerWidth, 900) / 28)));
    const phone = window.matchMedia("(max-width: 600px)").matches;
    const tall = phone ? window.innerHeight * 0.52 : Math.min(window.innerHeight * 0.64, 620);
    const height = Math.max(8, Math.min(120, Math.floor(tall / 28)));
    let data;
    try {
      data = await api.get(`/api/replays/${encodeURIComponent(id)}?width=${width}&height=${height}`);
    } catch (e) {
      column.replaceChildren(h("h1", {}, "Replay"), errorBox(e.message), h("p", {}, h("a", { href: "/replays" }, "All replays")));
      return;
    }
    if (destroyed) return;
    const all = await games().catch(() => []);
    const meta = all.find((g) => g.name === data.game);
    view = new ReplayView(column, id, data, meta, Number(query.get("ply")) || 0);
  };
  start();
  return () => { destroyed = true; if (view) view.destroy(); };
}

class ReplayView {
  constructor(column, id, data, meta, ply) {
    this.id = id;
    this.data = data;
    this.meta = meta;
    this.frames = data.frames;
    this.ply = Math.max(0, Math.min(this.frames.length - 1, ply));
    this.names = distinctNames(data.names || []);
    this.name = namer(this.names, null);
    const title = meta ? meta.title : data.game;
    document.title = `${title} replay · bonepile`;
    this.felt = h("div", { class: "felt replay-felt" });
    this.vp = new Viewport(this.felt, { floor: 18, cap: 56 });
    this.slider = h("input", { type: "range", min: 0, max: this.frames.length - 1, step: 1, value: this.ply, "aria-label": "Position in the hand", class: "replay-slider" });
    this.slider.addEventListener("input", () => this.go(Number(this.slider.value)));
    this.counter = h("span", { class: "replay-counter" });
    const btn = (label, aria, f, act) => h("button", { type: "button", class: "btn btn-secondary btn-small", "aria-label": aria, title: aria, "data-action": act, onclick: f }, label);
    this.turnBox = h("div", { class: "replay-turn", "aria-live": "polite" });
    this.handsBox = h("div", { class: "replay-hands" });
    this.level = h("select", { "aria-label": "Bot level" }, ["easy", "medium", "hard"].map((l) => h("option", { value: l, selected: l === "medium" }, l)));
    this.askButton = h("button", { type: "button", class: "btn btn-primary btn-small", "data-action": "analyse", onclick: () => this.analyse() }, "What would the bot play here?");
    this.analysisBox = h("div", { class: "analysis" });
    column.replaceChildren(
      h("div", { class: "replay-head" },
        h("div", {}, h("h1", {}, `${title} · hand ${data.hand || 1}`), h("p", { class: "muted small" }, this.names.join(", "))),
        h("div", { class: "card-actions" },
          h("a", { class: "btn btn-secondary btn-small", href: `/api/replays/${encodeURIComponent(this.id)}/record`, download: `bonepile-${this.id}.json` }, "Download record"),
          h("button", { type: "button", class: "btn btn-ghost btn-small", onclick: () => this.copyLink() }, "Copy link"),
          data.table ? h("a", { class: "btn btn-ghost btn-small", href: `/t/${data.table}` }, "Table") : null)),
      h("div", { class: "replay-grid" },
        h("div", { class: "replay-main" },
          this.felt,
          h("div", { class: "replay-controls" },
            btn(icon("first"), "First position", () => this.go(0), "first"), btn(icon("back"), "Back one move", () => this.go(this.ply - 1), "back"),
            this.slider,
            btn(icon("forward"), "Forward one move", () => this.go(this.ply + 1), "forward"), btn(icon("last"), "Last position", () => this.go(this.frames.length - 1), "last"),
            this.counter),
          this.turnBox),
        h("div", { class: "replay-side" },
          h("section", { class: "panel" }, h("h2", {}, "Hands"), this.handsBox),
          h("section", { class: "panel" }, h("h2", {}, "Analysis"), h("div", { class: "analysis-ask" }, this.askButton, this.level), this.analysisBox))));
    this.onKey = (e) => {
      const t = e.target;
      if (t && (t.tagName === "INPUT" && t.type !== "range" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
      if (e.key === "ArrowRight") { this.go(this.ply + 1); e.preventDefault(); }
      else if (e.key === "ArrowLeft") { this.go(this.ply - 1); e.preventDefault(); }
      else if (e.key === "Home") { this.go(0); e.preventDefault(); }
      else if (e.key === "End") { this.go(this.frames.length - 1); e.preventDefault(); }
    };
    document.addEventListener("keydown", this.onKey);
    this.render(undefined);
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
    this.vp.destroy();
  }

  go(ply) {
    const next = Math.max(0, Math.min(this.frames.length - 1, ply));
    if (next === this.ply) return;
    const forward = next === this.ply + 1;
    const before = this.frames[this.ply];
    this.ply = next;
    this.slider.value = String(next);
    setQuery(`ply=${next}`);
    this.analysisBox.replaceChildren();
    this.render(forward ? (before.scene.tiles || []).length : undefined);
  }

  async copyLink() {
    const ok = await copyText(`${location.origin}/replay/${this.id}?ply=${this.ply}`);
    toast(ok ? "Link copied" : `${location.origin}/replay/${this.id}?ply=${this.ply}`, ok ? "good" : "info");
  }

  render(newFrom) {
    const f = this.frames[this.ply];
    const names = this.names;
    // the zoom buttons lie along the felt's bottom: the table is fitted above them
    if (this.felt.clientHeight) this.vp.setInsets({ bottom: this.felt.clientHeight - this.vp.controls.offsetTop + 4 });
    if (f.scene.family === "board" && this.data.board) {
      drawBoard(this.vp.content, this.data.board, {
        tiles: f.scene.tiles, positions: f.positions || f.public.positions, players: this.data.players, names, newFrom,
        lastIndex: f.turn && f.turn.events.some((e) => e.type === "placed_on_board") ? f.scene.tiles.length - 1 : undefined,
        chain: f.public.chain,
      });
      this.vp.setBox(boardBox(this.data.board));
    } else {
      const spellEnds = new Set();
      const spell = f.public && f.public.spell;
      if (spell) {
        for (const e of f.scene.ends) {
          const anchor = f.scene.tiles[e.anchor];
          if (spell.kind === "starter" ? e.anchor === 0 : anchor && anchor.tile === spell.at) spellEnds.add(endKey(e.anchor, e.slot));
        }
      }
      const unlocked = f.public && f.public.unlocked;
      drawScene(this.vp.content, f.scene, {
        newFrom, spellEnds, names,
        locked: Array.isArray(unlocked) ? new Set([...Array(16).keys()].filter((v) => !unlocked.includes(v))) : null,
        lastIndex: f.turn && f.turn.events.some((e) => e.type === "placed" || e.type === "led") ? f.scene.tiles.length - 1 : undefined,
      });
      this.vp.setBox(sceneBox(f.scene));
    }
    this.counter.textContent = `${this.ply} / ${this.frames.length - 1}`;
    const turnLines = [];
    if (f.turn) {
      const lines = f.turn.events.map((e) => describeEvent(e, this.name)).filter(Boolean);
      turnLines.push(h("div", { class: "turn-main" }, h("span", { class: "seat-dot", style: { background: seatColor(f.turn.seat) } }), h("strong", {}, `${names[f.turn.seat]}: `), moveText(f.turn.action)));
      for (const l of lines) turnLines.push(h("div", { class: ["log-effect", l.effect && "is-effect"] }, l.text));
    } else {
      turnLines.push(h("div", { class: "turn-main muted" }, "The deal. Step forward with ▶ or the → key."));
    }
    if (f.result) turnLines.push(h("div", { class: "turn-result" }, describeResult(f.result, this.name, f.hands)));
    this.turnBox.replaceChildren(...turnLines);
    const board = f.scene.family === "board";
    this.handsBox.replaceChildren(...f.hands.map((tiles, k) => h("div", { class: ["replay-hand", f.actor === k && "actor"], "data-seat": k },
      h("div", { class: "replay-hand-head" },
        h("span", { class: "seat-dot", style: { background: seatColor(k) } }),
        h("span", { class: "name-text" }, names[k]),
        f.actor === k ? h("span", { class: "tag tag-turn" }, "to play") : null,
        h("span", { class: "muted small" }, board ? `score ${(f.positions || [])[k] ?? f.scores[k]}` : `${tiles.length} tile${tiles.length === 1 ? "" : "s"}${f.scores && f.scores[k] ? ` · ${f.scores[k]} pts` : ""}`)),
      h("div", { class: "mini-tiles" }, tiles.length ? tiles.map((t) => tileIcon(t, { label: t })) : h("span", { class: "muted small" }, "no tiles")))));
    this.askButton.disabled = f.actor === null || f.actor === undefined;
  }

  async analyse() {
    const ply = this.ply;
    this.askButton.disabled = true;
    this.analysisBox.replaceChildren(loading("The bot is thinking…"));
    try {
      const got = await api.get(`/api/replays/${encodeURIComponent(this.id)}/analysis?ply=${ply}&level=${this.level.value}`);
      if (ply !== this.ply) return;
      const next = this.frames[ply + 1];
      this.analysisBox.replaceChildren(...analysisView(got, next && next.turn ? next.turn.action : null, this.name));
    } catch (e) {
      if (ply === this.ply) this.analysisBox.replaceChildren(errorBox(e.message));
    } finally {
      this.askButton.disabled = this.frames[this.ply].actor === null || this.frames[this.ply].actor === undefined;
    }
  }
}

/** A move in words, its tile named as everywhere else ("4-1", the high half first): a board
 * placement's action lists the pips in the order of its cells ("1-4@3A3B"), so its tile is
 * named here from them, as the log does ("4-1: 1 on 3A, 4 on 3B"). */
function moveText(action) {
  const m = /^(\d+)-(\d+)@(\d+[A-Z])(\d+[A-Z])$/.exec(action || "");
  if (!m) return describeAction(action);
  const p = Number(m[1]), q = Number(m[2]);
  return `${Math.max(p, q)}-${Math.min(p, q)}: ${p} on ${m[3]}, ${q} on ${m[4]}`;
}

const pct = (x) => `${Math.round(x * 100)}%`;

/** The analysis: the verdict, then each move's chance to win with its 95% interval (a bar
 * from 0 to 100%: the interval shaded, the estimate marked). */
function analysisView(got, played, name) {
  const moves = got.moves || [];
  const sims = got.simulations ?? 0;
  const best = new Set(got.best || []);
  const who = name(got.seat);
  const out = [];
  // a move's name never breaks across lines
  const named = (a) => h("span", { style: { whiteSpace: "nowrap" } }, moveText(a));
  const list = (actions) => {
    const comma = actions.some((a) => moveText(a).includes(",")) ? "; " : ", ";
    return actions.flatMap((a, i) => [i === 0 ? "" : i === actions.length - 1 ? " and " : comma, named(a)]);
  };
  const verdict = {
    forced: () => [`${who} has only one legal move here.`],
    unknown: () => ["No deal of the hidden tiles fits what this seat saw: no estimate."],
    clear: () => ["Best: ", named(got.best[0]), ", clearly ahead of the other moves."],
    close: () => (got.best.length > 3
      ? [`Too close to call: the 95% intervals of the top ${got.best.length} moves overlap.`]
      : ["Too close to call between ", ...list(got.best), ": their 95% intervals overlap."]),
  }[got.verdict];
  if (verdict) out.push(h("p", { class: "analysis-verdict", "data-verdict": got.verdict }, h("strong", {}, verdict())));
  if (sims) {
    out.push(h("p", { class: "small muted" },
      `${who}'s view, ${got.level}: ${sims} simulated hand${sims === 1 ? "" : "s"} a move, each with the unseen tiles dealt anew. `
      + "%: the chance to win after the move (no winner: half); range and bar: its 95% interval."));
  }
  out.push(h("ol", { class: "analysis-list" }, moves.map((m) => {
    const shown = m.simulations ?? m.visits ?? 0;
    const low = m.low ?? m.win, high = m.high ?? m.win;
    return h("li", { class: ["analysis-move", m.action === played && "played"], "data-move": m.action },
      h("div", { class: "analysis-label" },
        h("span", {}, moveText(m.action)),
        m.action === played ? h("span", { class: "tag tag-turn" }, "played") : null,
        best.has(m.action) && got.verdict !== "forced" ? h("span", { class: "tag tag-open" }, got.verdict === "close" ? "close" : "best") : null,
        h("span", { class: "muted small analysis-number", title: `${shown} simulated hands` },
          shown ? [h("strong", {}, pct(m.win)), ` (${Math.round(low * 100)}–${pct(high)})`] : "no estimate")),
      shown ? h("div", { class: "bar", style: { position: "relative" }, role: "img", "aria-label": `${pct(m.win)} to win, 95% interval ${pct(low)} to ${pct(high)}` },
        h("span", { class: "bar-fill", style: { marginLeft: `${low * 100}%`, width: `${Math.max(1, (high - low) * 100)}%`, opacity: "0.55" } }),
        h("span", { style: { position: "absolute", top: "0", bottom: "0", left: `calc(${m.win * 100}% - 1px)`, width: "3px", background: "var(--text)", borderRadius: "1px" } })) : null);
  })));
  const others = got.unexplored || [];
  if (others.length) {
    out.push(h("p", { class: "small muted" }, `${others.length} other legal move${others.length === 1 ? "" : "s"} not simulated: the bot's quick score rules ${others.length === 1 ? "it" : "them"} out.`));
  }
  return out;
}
