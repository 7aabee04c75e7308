// Telling players it is their turn while they look elsewhere, as Lichess does: the tab's title
// ("● Your turn — …") and icon (a close-up of the tile) change and change back, short sounds (a move, your
// turn, your time running low) made with the Web Audio API (no sound files), with an on/off
// switch kept in this browser (on unless turned off), and a browser notification on your turn
// when the tab is hidden, once the player asked for them with the bell button.
import { h, s, local } from "./dom.js";
import { toast } from "./toast.js";

const SOUND_KEY = "bonepile:sound";
const NOTIFY_KEY = "bonepile:notify";
export const TURN_MARK = "● Your turn — ";
const LOW_TIME = 20; // seconds left: the clock turns red, and a warning sounds once

/** The icon on your turn: the same tile on amber with a red dot, told apart from the usual
 * dark-green icon at a glance in a row of tabs. */
const TURN_ICON = "/static/favicon-turn.svg";

// ------------------------------------------------------------------ sounds
/** Whether sounds are on (they are unless the player turned them off). */
export function soundOn() {
  return local.get(SOUND_KEY) !== "off";
}

export function setSound(on) {
  local.set(SOUND_KEY, on ? "on" : "off");
}

// each sound: notes of {f: Hz, to: Hz it slides to, type, at: s, len: s, gain}
const SOUNDS = {
  // a tile set down: a short wooden knock
  move: [{ f: 420, to: 170, type: "triangle", at: 0, len: 0.09, gain: 0.32 }],
  // your turn: two rising notes
  turn: [{ f: 659, type: "sine", at: 0, len: 0.16, gain: 0.22 }, { f: 880, type: "sine", at: 0.13, len: 0.3, gain: 0.22 }],
  // time is running low: three quick beeps
  low: [0, 0.16, 0.32].map((at) => ({ f: 1046, type: "square", at, len: 0.07, gain: 0.07 })),
};

let audio = null;
let lastSound = { name: "", at: 0 };

function audioContext() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  // browsers let a page make sound only after the person touched it: before, stay quiet
  // (and make no context, which would only be refused with a warning)
  if (!audio && navigator.userActivation && !navigator.userActivation.hasBeenActive) return null;
  if (!audio) {
    try { audio = new Ctx(); } catch (_) { return null; }
  }
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

/** Play a sound by name ("move", "turn", "low") if sounds are on; false if none played. */
export function playSound(name) {
  const notes = SOUNDS[name];
  if (!notes || !soundOn()) return false;
  const now = performance.now();
  if (now - lastSound.at < 90 || (lastSound.name === "turn" && name === "move" && now - lastSound.at < 400)) return false;
  const ctx = audioContext();
  if (!ctx) return false;
  lastSound = { name, at: now };
  try {
    const t0 = ctx.currentTime + 0.01;
    for (const note of notes) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      const start = t0 + note.at, end = start + note.len;
      osc.type = note.type;
      osc.frequency.setValueAtTime(note.f, start);
      if (note.to) osc.frequency.exponentialRampToValueAtTime(note.to, end);
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(note.gain, start + 0.006);
      gain.gain.exponentialRampToValueAtTime(0.0001, end);
      osc.connect(gain);
      gain.connect(ctx.destination);
      osc.start(start);
      osc.stop(end + 0.02);
    }
  } catch (_) {
    return false;
  }
  return true;
}

// ------------------------------------------------------------------ icons
function svgIcon(...children) {
  return s("svg", { class: "icon", viewBox: "0 0 24 24", "aria-hidden": "true", fill: "none", stroke: "currentColor", "stroke-width": 2, "stroke-linecap": "round", "stroke-linejoin": "round" }, ...children);
}

function speakerIcon(on) {
  return svgIcon(
    s("path", { d: "M4 9h4l5-4v14l-5-4H4z", fill: "currentColor" }),
    on ? s("path", { d: "M16.5 8.5a5 5 0 0 1 0 7M19 6a8.5 8.5 0 0 1 0 12" }) : s("path", { d: "M16.5 9.5l5 5M21.5 9.5l-5 5" }));
}

function bellIcon(on) {
  return svgIcon(
    s("path", { d: "M6 16V11a6 6 0 0 1 12 0v5l1.5 2h-15z" }),
    s("path", { d: "M10 20.5a2 2 0 0 0 4 0" }),
    on ? null : s("path", { d: "M3.5 3.5l17 17" }));
}

// ------------------------------------------------------------------ the alerts of a table
function notificationsKnown() {
  return typeof window.Notification === "function";
}

export class TurnAlerts {
  constructor() {
    this.base = document.title;
    this.mine = false;
    this.lowWarned = false;
    this.note = null;
    this.icon = document.querySelector("link[rel~='icon']");
    // the page's own icon (without a view of it another table page may have left)
    this.iconHref = this.icon ? (this.icon.getAttribute("href") || "").split("#")[0] || null : null;
    this.soundButton = h("button", { type: "button", class: "icon-btn alert-btn sound-btn", "data-action": "sound", onclick: () => this.toggleSound() });
    this.notifyButton = h("button", { type: "button", class: "icon-btn alert-btn notify-btn", "data-action": "notify", onclick: () => this.toggleNotify() });
    this.notifyButton.hidden = !notificationsKnown();
    this.onVisible = () => {
      if (!document.hidden && this.note) this.closeNote();
    };
    document.addEventListener("visibilitychange", this.onVisible);
    this.paintButtons();
  }

  destroy() {
    document.removeEventListener("visibilitychange", this.onVisible);
    this.closeNote();
    this.mine = false;
    this.paint();
  }

  /** The buttons for the top bar: sounds on or off, notifications. */
  buttons() {
    return [this.soundButton, this.notifyButton];
  }

  /** The page's own title; a mark goes before it on your turn. */
  setBase(title) {
    this.base = title;
    this.paint();
  }

  paint() {
    document.title = this.mine ? `${TURN_MARK}${this.base}` : this.base;
    if (this.icon && this.iconHref) {
      const want = this.mine ? TURN_ICON : this.iconHref;
      if (this.icon.getAttribute("href") !== want) this.icon.setAttribute("href", want);
    }
  }

  /**
   * A new state arrived. what: {myTurn, moved (a turn was played since the last state),
   * first (the page's first state: no sound), title (of a notification), body}.
   */
  update({ myTurn, moved, first, title, body }) {
    const became = myTurn && !this.mine;
    this.mine = myTurn;
    this.paint();
    if (!myTurn) this.closeNote();
    if (first) return;
    if (became) {
      playSound("turn");
      this.notify(title || "Your turn", body);
    } else if (moved) {
      playSound("move");
    }
  }

  /** Your clock while it is your turn: a warning, once, as it falls under LOW_TIME. */
  clock(left) {
    if (!this.mine) return;
    if (left >= LOW_TIME) this.lowWarned = false;
    else if (!this.lowWarned) {
      this.lowWarned = true;
      playSound("low");
    }
  }

  // -------------------------------------------------------------- sound switch
  toggleSound() {
    setSound(!soundOn());
    this.paintButtons();
    if (soundOn()) playSound("turn");
    toast(soundOn() ? "Sounds on" : "Sounds off", "info", 1800);
  }

  // -------------------------------------------------------------- notifications
  wantsNotes() {
    return notificationsKnown() && Notification.permission === "granted" && local.get(NOTIFY_KEY) === "on";
  }

  async toggleNotify() {
    if (!notificationsKnown()) return;
    if (this.wantsNotes()) {
      local.set(NOTIFY_KEY, "off");
      this.paintButtons();
      toast("No more notifications", "info", 2000);
      return;
    }
    let permission = Notification.permission;
    if (permission === "denied") {
      toast("This browser blocks notifications from this site: allow them in its site settings.", "error", 6000);
      return;
    }
    if (permission !== "granted") {
      try {
        permission = await Notification.requestPermission();
      } catch (_) {
        permission = "denied";
      }
    }
    if (permission === "granted") {
      local.set(NOTIFY_KEY, "on");
      toast("You will get a notification when it is your turn and this tab is hidden.", "good", 4000);
    } else {
      toast("Notifications were not allowed.", "info", 3000);
    }
    this.paintButtons();
  }

  notify(title, body) {
    if (!this.wantsNotes() || document.visibilityState !== "hidden") return;
    this.closeNote();
    try {
      const note = new Notification(title, { body: body || "", tag: "bonepile-turn", icon: "/static/favicon.svg" });
      note.onclick = () => {
        window.focus();
        note.close();
      };
      this.note = note;
    } catch (_) {
      // some phones show notifications only through a service worker: the title and the
      // sound still tell
      this.note = null;
    }
  }

  closeNote() {
    if (!this.note) return;
    try { this.note.close(); } catch (_) { /* gone already */ }
    this.note = null;
  }

  paintButtons() {
    const sound = soundOn();
    this.soundButton.replaceChildren(speakerIcon(sound));
    this.soundButton.setAttribute("aria-pressed", String(sound));
    this.soundButton.setAttribute("aria-label", "Sounds");
    this.soundButton.title = sound ? "Sounds are on (click to turn them off)" : "Sounds are off (click to turn them on)";
    const notes = this.wantsNotes();
    this.notifyButton.replaceChildren(bellIcon(notes));
    this.notifyButton.setAttribute("aria-pressed", String(notes));
    this.notifyButton.setAttribute("aria-label", "Notify me on my turn");
    this.notifyButton.title = notes
      ? "You get a notification on your turn while this tab is hidden (click to stop)"
      : "Get a notification on your turn while this tab is hidden";
  }
}
