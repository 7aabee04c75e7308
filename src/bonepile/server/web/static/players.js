// Players: the leaderboard of each game, and a player's page (ratings, the rating's history
// drawn as a chart, finished hands opening their replays, and, on your own page, whether
// others may see those hands).
import { h, s, fill } from "./dom.js";
import { api, games, account } from "./api.js";
import { navigate } from "./router.js";
import { toast } from "./toast.js";
import { page, loading, errorBox } from "./chrome.js";
import { replayRow } from "./replay.js";
import { challenge } from "./challenges.js";

/** A rating as shown: "1,632", or "1,500?" while provisional. */
export function ratingText(r) {
  return `${Math.round(r.rating).toLocaleString("en-US")}${r.provisional ? "?" : ""}`;
}

function counts(game) {
  const [low, high] = game.players;
  return Array.from({ length: high - low + 1 }, (_, k) => low + k);
}

export function mountLeaderboard(root, params, query) {
  const column = page(root, "leaderboard-page", h("h1", {}, "Leaderboard"), loading());
  document.title = "Leaderboard · bonepile";
  let destroyed = false;
  games().then((all) => {
    if (destroyed) return;
    const game = all.find((g) => g.name === params[0]) || all[0];
    const players = Number(query.get("players")) || game.players[0];
    const tabs = h("nav", { class: "rules-nav", "aria-label": "Games" }, all.map((g) =>
      h("a", { href: `/leaderboard/${g.name}`, class: g === game ? "active" : "", "aria-current": g === game ? "page" : null }, g.title)));
    const sizes = counts(game).length > 1 ? h("div", { class: "radios player-counts" }, counts(game).map((n) =>
      h("a", { class: ["btn", "btn-small", n === players ? "btn-primary" : "btn-secondary"], href: `/leaderboard/${game.name}?players=${n}` }, `${n} players`))) : null;
    const table = h("div", { class: "board-rows" }, loading());
    column.replaceChildren(h("h1", {}, "Leaderboard"),
      h("p", { class: "muted" }, "Ratings from rated tables (every seat a signed-in person). A rating is provisional (shown with “?”) for its first 10 rated tables of the game at that number of players."),
      tabs, sizes, table);
    document.title = `${game.title} leaderboard · bonepile`;
    api.get(`/api/leaderboard/${game.name}?players=${players}`).then((got) => {
      const bots = botsOnScale(game, got);
      if (!got.rows.length) {
        fill(table, h("p", { class: "muted" }, `Nobody has played a rated table of ${game.title} at ${players} players yet. Play one: “Play someone now” on the front page, or New table, then “Rated”.`), bots);
        return;
      }
      const established = got.rows.filter((r) => !r.provisional);
      const provisional = got.rows.filter((r) => r.provisional);
      const rows = (list, from) => h("tbody", {}, list.map((r, k) => h("tr", {},
        h("td", {}, String(from + k + 1)),
        h("td", {}, h("a", { href: `/p/${encodeURIComponent(r.name)}` }, r.name)),
        h("td", { class: "num" }, ratingText(r), h("span", { class: "muted small" }, ` ±${r.deviation * 2}`)),
        h("td", { class: "num" }, String(r.games)),
        h("td", { class: "num" }, `${Math.round((100 * r.wins) / Math.max(1, r.games))}%`))));
      const head = h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, "Player"), h("th", { scope: "col", class: "num" }, "Rating"), h("th", { scope: "col", class: "num" }, "Games"), h("th", { scope: "col", class: "num" }, "Won")));
      fill(table,
        established.length ? h("table", { class: "leaderboard" }, head, rows(established, 0)) : h("p", { class: "muted" }, "No established ratings yet."),
        provisional.length ? h("h2", { class: "provisional-title" }, "Provisional", h("span", { class: "muted small" }, " · fewer than 10 rated tables")) : null,
        provisional.length ? h("table", { class: "leaderboard provisional" }, head.cloneNode(true), rows(provisional, established.length)) : null,
        bots);
    }).catch((e) => table.replaceChildren(errorBox(e.message)));
  }).catch((e) => column.replaceChildren(h("h1", {}, "Leaderboard"), errorBox(e.message)));
  return () => { destroyed = true; };
}

/** The game's bots on the players' scale, for comparison: measured against each other in the
 * arena (docs/ratings.md), at the player count they were measured at. */
function botsOnScale(game, got) {
  if (!got.bots_players) return null;
  const title = h("h2", { class: "bots-title" }, "The bots on this scale");
  if (!got.bots.length) {
    return h("section", { class: "bots-scale" }, title, h("p", { class: "muted small" }, "The bots are rated at ",
      h("a", { href: `/leaderboard/${game.name}?players=${got.bots_players}` }, `${got.bots_players} players`), "."));
  }
  return h("section", { class: "bots-scale" }, title,
    h("p", { class: "muted small" }, "Measured against each other: each level against the one below, on 400 duplicate deals or more. The greedy bot is set at 1500, where every player starts; the others are placed by how often they beat it."),
    h("table", { class: "leaderboard bots" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Bot"), h("th", { scope: "col", class: "num" }, "Rating"))),
      h("tbody", {}, got.bots.map((b) => h("tr", {},
        h("td", {}, b.label),
        h("td", { class: "num" }, b.bound ? b.text
          : b.low === b.high ? [b.rating.toLocaleString("en"), h("span", { class: "muted small" }, " (set here)")]
          : [b.text.replace(/^about /, "≈"), h("span", { class: "muted small" }, ` (${b.low.toLocaleString("en")}–${b.high.toLocaleString("en")})`)]))))));
}

/** The rating after each rated table, as an SVG line chart with its ±1 deviation band. */
export function ratingChart(points) {
  const W = 640, H = 230, L = 62, R = 12, T = 14, B = 30;
  const values = points.map((p) => p.rating);
  const lo = Math.min(...values), hi = Math.max(...values);
  const span = Math.max(100, hi - lo + 100);
  const step = [25, 50, 100, 200, 250, 500, 1000].find((k) => span / k <= 5) || 1000;
  const min = Math.floor((lo - 50) / step) * step;
  const max = Math.ceil((hi + 50) / step) * step;
  const n = points.length;
  const x = (k) => L + (n === 1 ? (W - L - R) / 2 : (k * (W - L - R)) / (n - 1));
  const y = (v) => T + ((max - Math.max(min, Math.min(max, v))) * (H - T - B)) / (max - min);
  const band = points.map((p, k) => `${x(k)},${y(p.rating + p.deviation)}`).concat(points.map((p, k) => `${x(k)},${y(p.rating - p.deviation)}`).reverse()).join(" ");
  const line = points.map((p, k) => `${x(k)},${y(p.rating)}`).join(" ");
  const ticks = [];
  for (let v = min; v <= max; v += step) ticks.push(v);
  const last = points[n - 1];
  return s("svg", { class: "rating-chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `Rating over ${n} rated table${n === 1 ? "" : "s"}, now ${last.rating}` },
    ticks.map((v) => s("g", {}, s("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }), s("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", class: "tick" }, v.toLocaleString("en-US")))),
    s("polygon", { points: band, class: "band" }),
    s("polyline", { points: line, class: "line" }),
    points.map((p, k) => s("circle", { cx: x(k), cy: y(p.rating), r: n > 60 ? 1.5 : 3.5, class: p.rank === 1 ? "won" : "lost" },
      s("title", {}, `${p.rating} after rated table ${k + 1}${p.rank === 1 ? " (won)" : ""}`))),
    s("text", { x: L, y: H - 6, class: "tick" }, "first rated table"),
    s("text", { x: W - R, y: H - 6, "text-anchor": "end", class: "tick" }, n === 1 ? "" : `table ${n}`));
}

/** What a signed-in visitor may do on another player's page: challenge, block, report. */
function playerActions(p, all, who) {
  const gameSelect = h("select", { "aria-label": "Game" }, all.map((g) => h("option", { value: g.name }, g.title)));
  const rated = h("input", { type: "checkbox" });
  const send = h("button", { type: "button", class: "btn btn-primary btn-small", "data-action": "challenge" }, `Challenge ${p.name}`);
  send.addEventListener("click", async () => {
    send.disabled = true;
    try { await challenge(p.name, gameSelect.value, rated.checked); } catch (e) { toast(e.message, "error"); } finally { send.disabled = false; }
  });
  const blockButton = h("button", { type: "button", class: "btn btn-ghost btn-small", "data-action": "block" }, "Block");
  let blocked = false;
  const showBlock = () => {
    blockButton.textContent = blocked ? "Unblock" : "Block";
    blockButton.title = blocked ? `Let ${p.name} challenge you and be paired with you again` : `${p.name} can no longer challenge you or be paired with you`;
  };
  api.get("/api/account/blocks").then((got) => { blocked = got.blocked.includes(p.name); showBlock(); }).catch(() => {});
  blockButton.addEventListener("click", async () => {
    try {
      await api.post(`/api/players/${encodeURIComponent(p.name)}/${blocked ? "unblock" : "block"}`);
      blocked = !blocked;
      showBlock();
      toast(blocked ? `${p.name} is blocked` : `${p.name} is no longer blocked`, "good");
    } catch (e) { toast(e.message, "error"); }
  });
  showBlock();
  const text = h("textarea", { rows: 3, maxlength: 2000, "aria-label": "What happened", placeholder: "What happened?" });
  const hand = h("select", { "aria-label": "The hand" }, h("option", { value: "" }, "No hand attached"));
  const titles = Object.fromEntries(all.map((g) => [g.name, g.title]));
  // the hands the two of you played, from your own page (always yours to see)
  api.get(`/api/players/${encodeURIComponent(who.name)}?opponent=${encodeURIComponent(p.name)}`).then((mine) => {
    for (const r of mine.hands || []) hand.append(h("option", { value: r.id }, `${titles[r.game] || r.game} · ${new Date(r.finished * 1000).toLocaleString()}`));
  }).catch(() => {});
  const sendReport = h("button", { type: "submit", class: "btn btn-secondary btn-small" }, "Send the report");
  const report = h("details", { class: "report" }, h("summary", {}, "Report"),
    h("form", { class: "report-form", onsubmit: async (e) => {
      e.preventDefault();
      sendReport.disabled = true;
      try {
        await api.post(`/api/players/${encodeURIComponent(p.name)}/report`, { text: text.value, hand: hand.value || null });
        text.value = "";
        report.open = false;
        toast("Thank you: the site's operator will read it", "good");
      } catch (err) { toast(err.message, "error"); } finally { sendReport.disabled = false; }
    } }, h("p", { class: "small muted" }, "For the site's operator: what went wrong, and the hand it happened in."), text, hand, sendReport));
  return [h("div", { class: "challenge-row" }, gameSelect, h("label", { class: "inline" }, rated, " Rated"), send, blockButton), report];
}

export function mountPlayer(root, [name], query) {
  const column = page(root, "narrow player-page", loading());
  document.title = `${name} · bonepile`;
  let destroyed = false;
  const wanted = query.get("game");
  const filters = new URLSearchParams();
  for (const key of ["game", "opponent", "result"]) if (query.get(key)) filters.set(key, query.get(key));
  Promise.all([api.get(`/api/players/${encodeURIComponent(name)}${filters.toString() ? `?${filters}` : ""}`), games().catch(() => []), account().catch(() => null)]).then(([p, all]) => {
    if (destroyed) return;
    const titles = Object.fromEntries(all.map((g) => [g.name, g.title]));
    document.title = `${p.name} · bonepile`;
    const chartBox = h("div", { class: "chart-box" });
    const showHistory = (r) => {
      chartBox.replaceChildren(loading());
      api.get(`/api/players/${encodeURIComponent(p.name)}/ratings/${r.game}?players=${r.players}`).then((got) => {
        chartBox.replaceChildren(h("h3", {}, `${titles[r.game] || r.game}, ${r.players} players`), got.points.length ? ratingChart(got.points) : h("p", { class: "muted" }, "No rated tables yet."));
      }).catch((e) => chartBox.replaceChildren(errorBox(e.message)));
    };
    const cards = p.ratings.map((r) => {
      const card = h("button", { type: "button", class: "rating-card", "aria-label": `${titles[r.game] || r.game}, ${r.players} players: rating ${ratingText(r)}` },
        h("span", { class: "rating-game" }, titles[r.game] || r.game, h("span", { class: "muted small" }, ` · ${r.players} players`)),
        h("span", { class: "rating-value" }, ratingText(r)),
        h("span", { class: "muted small" }, `${r.games} rated · ${r.wins} won${r.provisional ? " · provisional" : ""}`));
      card.addEventListener("click", () => showHistory(r));
      return card;
    });
    const ratings = p.ratings.length
      ? h("div", {}, h("div", { class: "rating-cards" }, cards), chartBox)
      : h("p", { class: "muted" }, "No rated tables yet.");
    if (p.ratings.length) showHistory(p.ratings[0]);

    const list = h("div", { class: "replay-list" });
    let hands;
    if (p.hands === null) {
      hands = h("p", { class: "muted" }, `${p.name} keeps their finished hands to themselves.`);
    } else {
      const filter = h("select", { "aria-label": "Game" }, h("option", { value: "" }, "Every game"), all.map((g) => h("option", { value: g.name, selected: g.name === wanted }, g.title)));
      const result = h("select", { "aria-label": "Result" }, h("option", { value: "" }, "Won or lost"),
        h("option", { value: "won", selected: query.get("result") === "won" }, "Won"), h("option", { value: "lost", selected: query.get("result") === "lost" }, "Lost"));
      const opponent = h("input", { type: "text", placeholder: "Against (a name)", "aria-label": "Against", value: query.get("opponent") || "", maxlength: 20, size: 14 });
      const apply = () => {
        const q = new URLSearchParams();
        if (filter.value) q.set("game", filter.value);
        if (opponent.value.trim()) q.set("opponent", opponent.value.trim());
        if (result.value) q.set("result", result.value);
        navigate(`/p/${encodeURIComponent(p.name)}${q.toString() ? `?${q}` : ""}`, { replace: true });
      };
      filter.addEventListener("change", apply);
      result.addEventListener("change", apply);
      opponent.addEventListener("change", apply);
      for (const r of p.hands) list.append(replayRow(r, titles));
      if (!p.hands.length) list.append(h("p", { class: "muted" }, filters.toString() ? "No finished hands like that." : "No finished hands yet."));
      const download = h("a", { class: "btn btn-ghost btn-small", href: `/api/players/${encodeURIComponent(p.name)}/records`, download: `bonepile-${p.name}.zip` }, "Download all records");
      hands = h("div", {}, h("div", { class: "list-tools" }, filter, opponent, result, download), list);
    }
    let privacy = null;
    if (p.you) {
      const box = h("input", { type: "checkbox", checked: p.hide_history });
      box.addEventListener("change", async () => {
        box.disabled = true;
        try {
          await api.post("/api/account/privacy", { hide_history: box.checked });
          toast(box.checked ? "Your finished hands are shown to you only" : "Your finished hands are shown to everyone", "good");
        } catch (e) {
          box.checked = !box.checked;
          toast(e.message, "error");
        } finally {
          box.disabled = false;
        }
      });
      privacy = h("label", { class: "inline privacy" }, box, "Hide my finished hands from others");
    }
    const actions = h("div", { class: "player-actions" });
    account().then((who) => {
      if (!who || !who.signed_in || p.you) return;
      actions.replaceChildren(...playerActions(p, all, who));
    }, () => {});
    column.replaceChildren(
      h("h1", {}, p.name),
      h("p", { class: "muted" }, `Playing since ${new Date(p.created * 1000).toLocaleDateString(undefined, { dateStyle: "medium" })}.`, p.you ? h("span", {}, " ", h("a", { href: "/account" }, "Your account")) : null),
      actions,
      h("section", { class: "panel account-section" }, h("h2", {}, "Ratings"), ratings),
      h("section", { class: "panel account-section" }, h("h2", {}, "Finished hands"), privacy, hands));
  }).catch((e) => column.replaceChildren(h("h1", {}, name), errorBox(e.message)));
  return () => { destroyed = true; };
}
