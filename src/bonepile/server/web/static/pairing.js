// "Play someone now": choose a game, wait in its pool, and go to the table once seated; after a
// wait the empty seats may be filled with bots. Rated pools are offered to signed-in people.
import { h, fill, local } from "./dom.js";
import { api, games, account } from "./api.js";
import { navigate } from "./router.js";
import { toastError } from "./toast.js";

const ASK_EVERY = 1500;

/** The panel on the front page; returns {el, stop}. */
export function pairingPanel() {
  const gameSelect = h("select", { id: "pair-game", "aria-label": "Game" });
  const countSelect = h("select", { id: "pair-players", "aria-label": "Players" });
  const rated = h("input", { type: "checkbox", id: "pair-rated" });
  const ratedLabel = h("label", { class: "inline", hidden: true }, rated, " Rated");
  const find = h("button", { type: "button", class: "btn btn-primary", "data-action": "find-player" }, "Find a player");
  const counts = h("p", { class: "small muted pair-counts" });
  const form = h("div", { class: "pair-form" }, gameSelect, countSelect, ratedLabel, find);
  const waiting = h("div", { class: "pair-waiting", hidden: true, role: "status", "aria-live": "polite" });
  const el = h("section", { class: "panel pairing" }, h("h2", {}, "Play someone now"),
    h("p", { class: "muted small" }, "Wait a moment in the game's pool and you are seated with whoever else is waiting (with a similar rating, in rated play)."),
    form, waiting, counts);
  let all = [], seek = null, timer = 0, stopped = false, pools = null;

  const fillCounts = (g) => {
    countSelect.replaceChildren(...Array.from({ length: g.players[1] - g.players[0] + 1 }, (_, k) => {
      const n = g.players[0] + k;
      return h("option", { value: n }, `${n} players`);
    }));
  };
  const showCounts = () => {
    if (!pools || !all.length) return;
    const parts = all.map((g) => {
      const wait = pools.pools.filter((p) => p.game === g.name).reduce((a, p) => a + p.waiting, 0);
      const play = pools.playing[g.name] || 0;
      return wait || play ? `${g.title}: ${wait} waiting, ${play} table${play === 1 ? "" : "s"} in play` : null;
    }).filter(Boolean);
    counts.textContent = parts.length ? parts.join(" · ") : "Nobody is waiting right now: be the first, others see you here.";
  };
  const refreshCounts = () => api.get("/api/pairing").then((got) => { pools = got; showCounts(); }).catch(() => {});

  games().then((got) => {
    all = got;
    gameSelect.replaceChildren(...all.map((g) => h("option", { value: g.name }, g.title)));
    const last = local.get("bonepile:pair-game");
    if (last && all.some((g) => g.name === last)) gameSelect.value = last;
    fillCounts(all.find((g) => g.name === gameSelect.value) || all[0]);
    showCounts();
  }).catch(() => {});
  gameSelect.addEventListener("change", () => fillCounts(all.find((g) => g.name === gameSelect.value)));
  account().then((me) => { if (me.signed_in) ratedLabel.hidden = false; }, () => {});
  refreshCounts();
  const countsTimer = setInterval(refreshCounts, 10000);

  const show = (st) => {
    const bots = st.can_fill ? h("button", { type: "button", class: "btn btn-secondary btn-small", "data-action": "fill-bots", onclick: fillBots }, "Play the bots instead") : null;
    const range = st.range === null ? (st.rated ? "any rating" : "") : `ratings within ${st.range}`;
    fill(waiting,
      h("span", { class: "pair-spinner", "aria-hidden": "true" }),
      h("span", {}, `Looking for ${st.players - 1 === 1 ? "a player" : `${st.players - 1} players`} · ${Math.floor(st.waited)} s${range ? ` · ${range}` : ""}`),
      h("button", { type: "button", class: "btn btn-ghost btn-small", "data-action": "cancel-pairing", onclick: cancel }, "Cancel"),
      bots);
  };
  const seated = (table) => {
    seek = null;
    stop();
    navigate(`/t/${table}`);
  };
  const ask = async () => {
    if (!seek || stopped) return;
    try {
      const st = await api.get(`/api/pairing/${seek}`);
      if (stopped) return;
      if (st.status === "seated") return seated(st.table);
      if (st.status === "waiting") show(st);
    } catch (e) {
      reset();
      toastError(e);
      return;
    }
    timer = setTimeout(ask, ASK_EVERY);
  };
  async function fillBots() {
    try {
      const st = await api.post(`/api/pairing/${seek}/bots`);
      seated(st.table);
    } catch (e) { toastError(e); }
  }
  async function cancel() {
    const id = seek;
    reset();
    if (id) await api.post(`/api/pairing/${id}/leave`).catch(() => {});
    refreshCounts();
  }
  function reset() {
    clearTimeout(timer);
    seek = null;
    waiting.hidden = true;
    form.hidden = false;
  }
  find.addEventListener("click", async () => {
    find.disabled = true;
    local.set("bonepile:pair-game", gameSelect.value);
    try {
      const st = await api.post("/api/pairing", { game: gameSelect.value, players: Number(countSelect.value), rated: rated.checked && !ratedLabel.hidden, name: local.get("bonepile:name") || "" });
      seek = st.id;
      if (st.status === "seated") return seated(st.table);
      form.hidden = true;
      waiting.hidden = false;
      show(st);
      refreshCounts();
      timer = setTimeout(ask, ASK_EVERY);
    } catch (e) {
      toastError(e);
    } finally {
      find.disabled = false;
    }
  });
  function stop() {
    stopped = true;
    clearTimeout(timer);
    clearInterval(countsTimer);
  }
  // leaving the page leaves the pool (a seek nobody asks about leaves it by itself anyway)
  return { el, stop: () => { const id = seek; stop(); if (id) api.post(`/api/pairing/${id}/leave`).catch(() => {}); } };
}
