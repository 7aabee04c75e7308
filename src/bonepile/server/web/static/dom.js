// Tiny DOM helpers: elements are built from data, never from HTML strings, so user text
// (names, chat) can only ever become text nodes.

const SVG_NS = "http://www.w3.org/2000/svg";

function apply(el, attrs, isSvg) {
  if (!attrs) return;
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") el.textContent = String(value);
    else if (key === "class") el.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style" && typeof value === "object") Object.assign(el.style, value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (!isSvg && (key === "value" || key === "checked" || key === "disabled" || key === "selected")) el[key] = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** An HTML element: h("button", {class: "btn", onclick: f}, "Play"). */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  apply(el, attrs, false);
  append(el, children);
  return el;
}

/** An SVG element, same calling convention as h(). */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  apply(el, attrs, true);
  append(el, children);
  return el;
}

/** Remove every child of el (and put children in instead, if given). */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** A number rounded for SVG attributes. */
export function n(x) {
  return Math.round(x * 1000) / 1000;
}

/** A short unique id (works outside secure contexts too). */
export function uid() {
  return Date.now().toString(36) + Math.random().toString(36).slice(2, 10);
}

/** Copy text to the clipboard; resolves true when it worked. Never rejects. */
export async function copyText(text) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch (_) { /* fall through to the old way */ }
  const area = h("textarea", { value: text, style: { position: "fixed", opacity: "0" } });
  document.body.append(area);
  area.select();
  let ok = false;
  try { ok = document.execCommand("copy"); } catch (_) { ok = false; }
  area.remove();
  return ok;
}

/** Debounce: call fn once, ms after the last call. */
export function debounce(fn, ms) {
  let timer = 0;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}

const store = (() => {
  try { return window.localStorage; } catch (_) { return null; }
})();

/** localStorage that never throws (private modes, disabled storage). */
export const local = {
  get(key) { try { return store ? store.getItem(key) : null; } catch (_) { return null; } },
  set(key, value) { try { if (store) store.setItem(key, value); } catch (_) { /* ignore */ } },
  remove(key) { try { if (store) store.removeItem(key); } catch (_) { /* ignore */ } },
};
