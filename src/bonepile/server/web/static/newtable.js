// Setting up a table: the game, its options (each with its default and meaning), the seats,
// a single hand or a match, and an optional clock.
import { h, local } from "./dom.js";
import { games, account } from "./api.js";
import { toastError } from "./toast.js";
import { page, loading, errorBox } from "./chrome.js";
import { createTable } from "./front.js";
import { setQuery } from "./router.js";

// an option's name as words: "starter13_spell" reads "Starter 13 spell"
function humanize(name) {
  const text = name.replace(/_/g, " ").replace(/([a-z])(\d)/g, "$1 $2");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function show(value) {
  if (value === null || value === undefined) return "none";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => `${k}: ${v}`).join(", ");
  return String(value).replace(/_/g, " ");
}

export function mountNewTable(root, _params, query) {
  const column = page(root, "narrow new-table", h("h1", {}, "New table"), loading());
  document.title = "New table · bonepile";
  games().then((all) => build(column, all, query.get("game"))).catch((e) => {
    column.replaceChildren(h("h1", {}, "New table"), errorBox(e.message));
  });
}

function build(column, all, wanted) {
  const state = { game: all.find((g) => g.name === wanted) || all[0] };
  const gameSelect = h("select", { id: "game", name: "game" }, all.map((g) => h("option", { value: g.name, selected: g === state.game }, g.title)));
  const summary = h("p", { class: "muted game-summary" });
  const playersSelect = h("select", { id: "players", name: "players" });
  const seatsBox = h("div", { class: "seats-config" });
  const nameInput = h("input", { id: "name", type: "text", maxlength: 24, placeholder: "Your name (optional)", value: local.get("bonepile:name") || "" });
  const nameNote = h("p", { class: "small muted", hidden: true });
  const ratedBox = h("input", { type: "checkbox", id: "rated" });
  const ratedRow = h("div", { class: "field", hidden: true }, h("label", { class: "inline" }, ratedBox, " Rated"),
    h("p", { class: "small muted" }, "Every seat a signed-in person (you and open seats for others): the end moves everyone's rating. Whoever leaves a rated table before its end loses."));
  ratedBox.addEventListener("change", () => {
    if (!ratedBox.checked) return;
    // a rated table seats people only: every bot's seat becomes an open one
    for (const select of seatsBox.querySelectorAll("select")) {
      if (select.value !== "me" && select.value !== "open") select.value = "open";
    }
  });
  account().then((me) => {
    if (!me.signed_in) return;
    ratedRow.hidden = false;
    nameInput.value = me.name;
    nameInput.disabled = true;
    nameNote.textContent = "Signed in: you play under your account's name.";
    nameNote.hidden = false;
  }, () => {});
  const single = h("input", { type: "radio", name: "kind", value: "single", checked: true });
  const matchRadio = h("input", { type: "radio", name: "kind", value: "match" });
  const targetInput = h("input", { type: "number", min: 1, step: 1, id: "target", class: "short" });
  const targetRow = h("label", { class: "inline target-row", hidden: true }, "Target score ", targetInput);
  const matchNote = h("p", { class: "small muted" });
  const clockOn = h("input", { type: "checkbox", id: "clock" });
  const minutes = h("input", { type: "number", min: 0.5, max: 180, step: 0.5, value: 5, class: "short", "aria-label": "Minutes each" });
  const increment = h("input", { type: "number", min: 0, max: 600, step: 1, value: 3, class: "short", "aria-label": "Seconds added per move" });
  const clockRow = h("div", { class: "clock-row", hidden: true }, h("label", { class: "inline" }, minutes, " minutes each"), h("label", { class: "inline" }, "+ ", increment, " seconds a move"));
  const optionsBox = h("div", { class: "options" });
  const optionsSummary = h("summary", {}, "Rule options");
  const rulesLink = h("a", { href: "#" }, "rules");
  const errors = h("div", { "aria-live": "assertive" });
  const submit = h("button", { type: "submit", class: "btn btn-primary btn-big", "data-action": "create" }, "Create table");
  const inputs = new Map(); // option name -> () => value|undefined (undefined: default)

  function renderGame() {
    const g = state.game;
    setQuery(`game=${g.name}`);
    summary.textContent = g.summary;
    rulesLink.setAttribute("href", `/rules/${g.name}`);
    rulesLink.textContent = `How ${g.title} is played`;
    playersSelect.replaceChildren();
    for (let k = g.players[0]; k <= g.players[1]; k++) playersSelect.append(h("option", { value: k, selected: k === g.default_players }, `${k} players`));
    renderSeats();
    const hasTarget = g.options.some((o) => o.name === "target_score");
    matchRadio.disabled = !hasTarget;
    if (!hasTarget) { single.checked = true; }
    targetInput.value = g.target_score || 150;
    renderKind();
    renderOptions();
  }

  function renderSeats() {
    const g = state.game;
    const count = Number(playersSelect.value);
    const previous = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    seatsBox.replaceChildren();
    for (let k = 0; k < count; k++) {
      // a bot's rating is shown at the player count it was measured at
      const choices = [["me", "You"], ["open", "Open (a friend)"], ...g.bots.map((b) => [b.spec, b.rating && b.rating.players === count ? b.rated_label : b.label])];
      // a choice kept from the game before, if this game offers it too
      const def = choices.some(([v]) => v === previous[k]) ? previous[k] : (k === 0 ? "me" : g.default_bot);
      const sel = h("select", { "aria-label": `Seat ${k + 1}`, "data-seat": k }, choices.map(([v, label]) => h("option", { value: v, selected: v === def }, label)));
      sel.addEventListener("change", () => {
        if (sel.value === "me") for (const other of seatsBox.querySelectorAll("select")) if (other !== sel && other.value === "me") other.value = "open";
      });
      seatsBox.append(h("label", { class: "seat-config" }, h("span", { class: "seat-label" }, `Seat ${k + 1}`), sel));
    }
    if (g.bots.some((b) => b.rating && b.rating.players === count)) {
      seatsBox.append(h("p", { class: "small muted bot-ratings-note" }, "The number beside a bot is its rating on the players’ scale (",
        h("a", { href: `/leaderboard/${g.name}?players=${count}` }, "the leaderboard’s"), "), measured against the other bots."));
    }
  }

  /** The line under the choice speaks of what is chosen: one hand, or a match to the target
   * typed beside it. */
  function renderKind() {
    const g = state.game;
    const match = matchRadio.checked;
    targetRow.hidden = !match;
    const hasTarget = g.options.some((o) => o.name === "target_score");
    const target = Number(targetInput.value);
    if (!hasTarget) matchNote.textContent = `${g.title} is one game: there are no matches.`;
    else if (!match) matchNote.textContent = "One hand, then the result. Choose a match to play hand after hand up to a target score.";
    else if (Number.isFinite(target) && target >= 1) matchNote.textContent = `Hands are played until someone reaches ${target} points.`;
    else matchNote.textContent = "A match needs a target score.";
  }

  function renderOptions() {
    inputs.clear();
    const rows = [];
    for (const o of state.game.options) {
      if (o.name === "target_score") continue;
      let input, read;
      const id = `opt-${o.name}`;
      if (o.kind === "choice") {
        input = h("select", { id }, o.choices.map((c) => h("option", { value: c, selected: c === o.default }, `${show(c)}${c === o.default ? " (default)" : ""}`)));
        read = () => (input.value === o.default ? undefined : input.value);
      } else if (o.kind === "bool") {
        input = h("input", { id, type: "checkbox", checked: !!o.default });
        read = () => (input.checked === !!o.default ? undefined : input.checked);
      } else if ((o.kind === "int" || o.kind === "optional_int") && o.allowed && o.allowed.length) {
        input = h("select", { id }, o.allowed.map((c) => h("option", { value: c, selected: c === o.default }, `${c}${c === o.default ? " (default)" : ""}`)));
        read = () => (Number(input.value) === o.default ? undefined : Number(input.value));
      } else if (o.kind === "int" || o.kind === "optional_int") {
        input = h("input", { id, type: "number", step: 1, class: "short", min: o.minimum ?? null, max: o.maximum ?? null, value: o.default ?? "", placeholder: o.default === null ? "none" : "" });
        read = () => {
          if (input.value === "") return o.default === null ? undefined : null;
          const v = Number(input.value);
          return v === o.default ? undefined : v;
        };
      } else if (o.kind === "int_map" && o.default && typeof o.default === "object") {
        const fields = Object.entries(o.default).map(([k, v]) => [k, h("input", { type: "number", step: 1, min: o.minimum ?? 1, value: v, class: "short", "aria-label": `${humanize(o.name)} for ${k}` })]);
        input = h("span", { id, class: "int-map" }, fields.map(([k, el]) => h("label", { class: "inline" }, `${k} players `, el)));
        read = () => {
          const out = {};
          let changed = false;
          for (const [k, el] of fields) { out[k] = Number(el.value); if (out[k] !== o.default[k]) changed = true; }
          return changed ? out : undefined;
        };
      } else {
        continue;
      }
      inputs.set(o.name, read);
      rows.push(h("div", { class: "option-row" },
        h("label", { for: id, class: "option-name" }, humanize(o.name)),
        h("div", { class: "option-input" }, input, h("span", { class: "option-default small muted" }, `default: ${show(o.default)}`)),
        h("p", { class: "option-help small muted" }, o.help)));
    }
    optionsBox.replaceChildren(...rows);
    optionsSummary.textContent = `Rule options (${rows.length})`;
  }

  gameSelect.addEventListener("change", () => {
    state.game = all.find((g) => g.name === gameSelect.value);
    renderGame();
  });
  playersSelect.addEventListener("change", renderSeats);
  single.addEventListener("change", renderKind);
  matchRadio.addEventListener("change", renderKind);
  targetInput.addEventListener("input", renderKind);
  clockOn.addEventListener("change", () => { clockRow.hidden = !clockOn.checked; });

  const form = h("form", { class: "new-form panel" },
    h("div", { class: "field" }, h("label", { for: "game" }, "Game"), gameSelect, summary, h("p", { class: "small" }, rulesLink)),
    h("div", { class: "field" }, h("label", { for: "players" }, "Players"), playersSelect),
    h("div", { class: "field" }, h("span", { class: "label" }, "Seats"), seatsBox,
      h("p", { class: "small muted" }, "Open seats are for friends: send them the table's link.")),
    h("div", { class: "field" }, h("label", { for: "name" }, "Your name"), nameInput, nameNote),
    h("div", { class: "field" }, h("span", { class: "label" }, "Length"),
      h("div", { class: "radios" }, h("label", { class: "inline" }, single, " Single hand"), h("label", { class: "inline" }, matchRadio, " Match to a target score"), targetRow),
      matchNote),
    h("div", { class: "field" }, h("label", { class: "inline" }, clockOn, " Play with a clock"), clockRow,
      h("p", { class: "small muted" }, "When a player's time runs out, a bot makes that move.")),
    h("details", { class: "field options-details" }, optionsSummary, h("p", { class: "small muted" }, "Every disputed rule is an option; the defaults are the usual game. ", "See the rules page for details."), optionsBox),
    ratedRow,
    errors,
    h("div", { class: "form-actions" }, submit));

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    errors.replaceChildren();
    const seats = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    const options = {};
    for (const [name, read] of inputs) {
      const v = read();
      if (v !== undefined) options[name] = v;
    }
    if (ratedBox.checked && seats.some((spec) => spec !== "me" && spec !== "open")) {
      errors.replaceChildren(h("div", { class: "error-box", role: "alert" }, "A rated table seats people only: make every seat you or an open seat."));
      return;
    }
    const match = matchRadio.checked;
    if (match) {
      const target = Number(targetInput.value);
      if (!Number.isFinite(target) || target < 1) {
        errors.replaceChildren(h("div", { class: "error-box", role: "alert" }, "A match needs a target score of at least 1."));
        return;
      }
      if (target !== state.game.target_score) options.target_score = target;
    }
    const name = nameInput.value.trim();
    if (name && !nameInput.disabled) local.set("bonepile:name", name);
    const body = { game: state.game.name, seats, options, match, name };
    if (ratedBox.checked) body.rated = true;
    if (clockOn.checked) {
      body.clock_minutes = Number(minutes.value) || 5;
      body.clock_increment = Number(increment.value) || 0;
    }
    submit.disabled = true;
    try {
      await createTable(body);
    } catch (err) {
      submit.disabled = false;
      errors.replaceChildren(h("div", { class: "error-box", role: "alert" }, err.message));
      toastError(err);
    }
  });

  column.replaceChildren(h("h1", {}, "New table"), form);
  renderGame();
}
