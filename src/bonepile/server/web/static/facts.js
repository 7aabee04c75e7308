// What lies over and beside the table's felt: the facts of the hand (chips along the felt's
// top, folded into one row on a phone, a toggle showing how many more there are) and the
// banners of what a move did (over the top of the hand, a moment each).
import { h } from "./dom.js";
import { pipColor } from "./draw.js";
import { describeEvent } from "./describe.js";

const NARROW = "(max-width: 600px)";

export class Facts {
  /** changed(): the facts were folded or unfolded (the table keeps clear of them). */
  constructor(changed) {
    this.box = h("div", { class: "felt-info" });
    this.open = false;
    this.toggle = h("button", {
      type: "button", class: "facts-toggle", "data-action": "facts", "aria-expanded": "false", hidden: true,
      onclick: () => { this.open = !this.open; changed(); },
    });
  }

  /** Show the facts of state ``st`` (``name(seat)`` names seats). */
  render(st, name) {
    const pub = st.view.public || {};
    const chips = [];
    const chip = (text, cls, title) => h("span", { class: ["chip", cls], title: title || null }, text);
    if (typeof st.view.boneyard === "number") {
      chips.push(st.game === "block"
        ? chip(`Set aside ${st.view.boneyard}`, "", "Tiles out of play: in Block nobody draws")
        : chip(`Boneyard ${st.view.boneyard}`, "", "Tiles left to draw"));
    }
    if (typeof pub.direction === "number") chips.push(chip(pub.direction < 0 ? "↺ counter-clockwise" : "↻ clockwise", "chip-dir", "Direction of play"));
    if (pub.spell) {
      const by = name(pub.spell.caster);
      chips.push(chip(pub.spell.kind === "starter" ? `✦ Spell on the empty arms (${by})` : `✦ Spell on ${pub.spell.at} (${by})`, "chip-spell", "Until someone plays on it, players must play a 13 or a double there"));
    }
    if (pub.pending_skips) chips.push(chip(`⏭ ${pub.pending_skips} skip${pub.pending_skips > 1 ? "s" : ""} pending`, "chip-skip", "The next player loses a turn"));
    if (pub.extra_turn) chips.push(chip("Extra turn", "chip-extra"));
    if (Array.isArray(pub.unlocked)) {
      const nums = pub.unlocked.length
        ? pub.unlocked.map((v) => h("span", { class: "num-chip", style: { background: pipColor(v) } }, String(v)))
        : [h("span", { class: "muted" }, "none")];
      chips.push(h("span", { class: "chip chip-unlocked", title: "Numbers whose double is down: only these may be played" }, "Unlocked ", nums));
    }
    if (st.scene && st.scene.family === "board") {
      if (typeof pub.pit === "number") chips.push(chip(`Pit ${pub.pit}`, "", "Tiles discarded face down"));
      if (pub.victory_total) chips.push(chip(`Victory at ${pub.victory_total}`));
      if (pub.chain) chips.push(chip("Chain: place next to the double, or stop", "chip-extra"));
    }
    const maxPip = st.view.options && (st.view.options.max_pip || (st.game === "super_dominoes" ? 15 : 0));
    if (maxPip > 9) chips.push(chip("10–15 are numerals", "chip-legend", "Pips 0–9 are dots; 10 to 15 are shown as numerals on a coloured square. Every number has its own colour."));
    this.box.replaceChildren(...chips, this.toggle);
    this.fold(chips);
  }

  /** On a phone the facts take one row: those that do not fit hide behind the toggle, which
   * says how many they are and shows them all (and folds them again). */
  fold(chips) {
    const narrow = window.matchMedia(NARROW).matches;
    const folded = narrow && !this.open;
    const toggle = this.toggle;
    this.box.classList.toggle("folded", folded);
    toggle.hidden = !narrow || !chips.length;
    if (toggle.hidden) return;
    let hidden = 0;
    if (folded) {
      const limit = this.box.clientWidth - toggle.offsetWidth - 6;
      for (const chip of chips) {
        if (hidden || chip.offsetLeft + chip.offsetWidth > limit) {
          chip.hidden = true;
          hidden += 1;
        }
      }
    }
    toggle.hidden = folded && !hidden;
    toggle.textContent = folded ? `+${hidden}` : "−";
    toggle.setAttribute("aria-expanded", String(!folded));
    toggle.setAttribute("aria-label", folded ? `Show ${hidden} more fact${hidden === 1 ? "" : "s"} about the table` : "Show fewer facts");
    toggle.title = toggle.getAttribute("aria-label");
  }
}

/** Banners in ``box`` for the effects of the turns just played (a skip, a draw, points): the
 * newest first, the same one again counted on its banner ("×2"), each gone after a moment;
 * a phone shows the newest two, a wider screen three (the log keeps them all). */
export function showEffects(box, turns, name) {
  const shown = new Map([...box.children].filter((el) => !el.classList.contains("leaving")).map((el) => [el.dataset.text, el]));
  for (const turn of turns) {
    for (const e of turn.events || []) {
      const d = describeEvent(e, name);
      if (!d || !d.effect) continue;
      const text = d.short || d.text;
      let el = shown.get(text);
      if (el) {
        el.dataset.count = String(Number(el.dataset.count || 1) + 1);
        el.textContent = `${text} ×${el.dataset.count}`;
      } else {
        el = h("div", { class: ["effect", `effect-${e.type}`], "data-text": text }, text);
        shown.set(text, el);
      }
      box.prepend(el);
      clearTimeout(Number(el.dataset.timer || 0));
      el.classList.remove("leaving");
      el.dataset.timer = String(setTimeout(() => {
        el.classList.add("leaving");
        setTimeout(() => el.remove(), 400);
      }, 2400));
    }
  }
  const most = window.matchMedia(NARROW).matches ? 2 : 3;
  while (box.children.length > most) box.lastElementChild.remove();
}
