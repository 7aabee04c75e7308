// Client-side routing: one page (index.html) for every path; links inside the app
// change the page without a reload.

const routes = [];
let current = null; // {cleanup}
let root = null;

/** Register a page: pattern is a RegExp on the path, mount(root, params, query) -> cleanup. */
export function route(pattern, mount) {
  routes.push({ pattern, mount });
}

/** Go to path (pushState unless replace). */
export function navigate(path, { replace = false } = {}) {
  if (path === location.pathname + location.search && !replace) return;
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  render();
}

/** Rewrite the query string without re-rendering (e.g. the ply of a replay). */
export function setQuery(query) {
  const search = query ? `?${query}` : "";
  history.replaceState(null, "", location.pathname + search);
}

function render() {
  if (current && current.cleanup) {
    try { current.cleanup(); } catch (e) { console.warn("cleanup failed", e); }
  }
  current = null;
  root.replaceChildren();
  window.scrollTo(0, 0);
  const path = location.pathname;
  const query = new URLSearchParams(location.search);
  for (const r of routes) {
    const m = path.match(r.pattern);
    if (m) {
      const cleanup = r.mount(root, m.slice(1).map(decodeURIComponent), query);
      current = { cleanup };
      return;
    }
  }
  routes[routes.length - 1].mount(root, [], query);
}

/** Start the router on element el. */
export function start(el) {
  root = el;
  window.addEventListener("popstate", render);
  document.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const a = event.target.closest && event.target.closest("a[href]");
    if (!a || a.target || a.hasAttribute("download")) return;
    const url = new URL(a.href, location.href);
    if (url.origin !== location.origin || url.pathname.startsWith("/api/") || url.pathname.startsWith("/static/")) return;
    event.preventDefault();
    navigate(url.pathname + url.search);
  });
  render();
}
