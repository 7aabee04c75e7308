// Replays: the list of finished hands, and one hand step by step with every hand shown,
// the move and its effects, and the search bot's opinion of any position.
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
      for (const r of rows) {
        const names = distinctNames(r.names);
        const name = namer(names, null);
        const result = r.summary && r.summary.result ? describeResult(r.summary.result, name) : "";
        list.append(h("a", { class: "replay-row", href: `/replay/${r.id}` },
          h("span", { class: "replay-game" }, titles[r.game] || r.game, h("span", { class: "muted small" }, ` · hand ${r.hand}`)),
          h("span", { class: "replay-players" }, names.map((n, k) => h("span", { class: "lobby-seat" }, h("span", { class: "seat-dot", style: { background: seatColor(k) } }), n))),
          h("span", { class: "replay-result small" }, result),
          h("span", { class: "replay-date small muted" }, when(r.finished))));
      }
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
      turnLines.push(h("div", { class: "turn-main" }, h("span", { class: "seat-dot", style: { background: seatColor(f.turn.seat) } }), h("strong", {}, `${names[f.turn.seat]}: `), describeAction(f.turn.action)));
      for (const l of lines) turnLines.push(h("div", { class: ["log-effect", l.effect && "is-effect"] }, l.text));
    } else {
      turnLines.push(h("div", { class: "turn-main muted" }, "The deal. Step forward with ▶ or the → key."));
    }
    if (f.result) turnLines.push(h("div", { class: "turn-result" }, describeResult(f.result, this.name)));
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
      const played = next && next.turn ? next.turn.action : null;
      const moves = [...got.moves].sort((a, b) => b.visits - a.visits || b.win - a.win);
      const most = Math.max(1, ...moves.map((m) => m.visits));
      if (got.forced) {
        this.analysisBox.replaceChildren(
          h("p", { class: "small muted" }, `${this.name(got.seat)} has only one legal move here:`),
          h("ol", { class: "analysis-list" }, moves.map((m) => h("li", { class: ["analysis-move", "played"] },
            h("div", { class: "analysis-label" }, h("span", {}, describeAction(m.action)), h("span", { class: "tag tag-turn" }, "forced"))))));
        return;
      }
      this.analysisBox.replaceChildren(
        h("p", { class: "small muted" }, `For ${this.name(got.seat)}, ${got.level} search. The bar: how often the search tried the move; the %: its estimated chance to win after it.`),
        h("ol", { class: "analysis-list" }, moves.map((m) => h("li", { class: ["analysis-move", m.action === played && "played"] },
          h("div", { class: "analysis-label" }, h("span", {}, describeAction(m.action)), m.action === played ? h("span", { class: "tag tag-turn" }, "played") : null,
            h("span", { class: "muted small" }, `${m.visits} visits · ${Math.round(m.win * 100)}%`)),
          h("div", { class: "bar" }, h("span", { class: "bar-fill", style: { width: `${Math.round((m.visits / most) * 100)}%` } }))))));
    } catch (e) {
      if (ply === this.ply) this.analysisBox.replaceChildren(errorBox(e.message));
    } finally {
      this.askButton.disabled = this.frames[this.ply].actor === null || this.frames[this.ply].actor === undefined;
    }
  }
}
