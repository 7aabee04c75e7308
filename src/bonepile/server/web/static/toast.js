// Small messages that come and go: errors from the server, copied links, effects.
import { h } from "./dom.js";

let box = null;

function container() {
  if (!box || !box.isConnected) {
    box = h("div", { class: "toasts", role: "status", "aria-live": "polite" });
    document.body.append(box);
  }
  return box;
}

/** Show a message for ms milliseconds. kind: "info" | "error" | "good". */
export function toast(message, kind = "info", ms = 3500) {
  const el = h("div", { class: ["toast", `toast-${kind}`] }, message);
  container().append(el);
  const remove = () => {
    el.classList.add("leaving");
    setTimeout(() => el.remove(), 250);
  };
  setTimeout(remove, ms);
  el.addEventListener("click", remove);
  while (container().children.length > 4) container().firstElementChild.remove();
  return el;
}

/** Show an error (an ApiError, an Error or a string). */
export function toastError(err) {
  const message = typeof err === "string" ? err : (err && err.message) || "Something went wrong.";
  toast(message, "error", 5000);
}
