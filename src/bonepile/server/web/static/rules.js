// A game's rules: the brief, then the whole page (server-rendered from Markdown with any raw
// HTML escaped, so it is safe to insert as HTML).
import { h } from "./dom.js";
import { api, games } from "./api.js";
import { page, loading, errorBox } from "./chrome.js";

export function mountRules(root, game) {
  const nav = h("nav", { class: "rules-nav", "aria-label": "Games" });
  const body = h("div", { class: "rules-body" }, loading());
  page(root, "rules-page", nav, body);
  games().then((all) => {
    nav.replaceChildren(...all.map((g) => h("a", { href: `/rules/${g.name}`, class: g.name === game ? "active" : "" }, g.title)));
  }).catch(() => {});
  api.get(`/api/rules/${encodeURIComponent(game)}`).then((r) => {
    document.title = `${r.title} rules · bonepile`;
    const brief = h("div", { class: "rules-brief" });
    brief.innerHTML = r.brief; // server-rendered, raw HTML escaped
    const full = h("div", { class: "rules-full prose" });
    full.innerHTML = r.html; // server-rendered, raw HTML escaped
    for (const a of full.querySelectorAll("a[href]")) {
      const href = a.getAttribute("href");
      if (/^[a-z_]+\.md(#.*)?$/.test(href)) {
        const name = href.replace(/\.md.*$/, "");
        a.setAttribute("href", name === "README" ? "/rules/super_dominoes" : `/rules/${name}`);
      } else if (!href.startsWith("#") && !/^https?:/.test(href)) {
        a.removeAttribute("href");
      } else if (/^https?:/.test(href)) {
        a.setAttribute("target", "_blank");
        a.setAttribute("rel", "noopener noreferrer");
      }
    }
    body.replaceChildren(
      h("div", { class: "rules-head" }, h("h1", {}, r.title), h("a", { class: "btn btn-primary", href: `/new?game=${encodeURIComponent(game)}` }, `Play ${r.title}`)),
      h("section", { class: "panel" }, h("h2", {}, "How to play in brief"), brief),
      h("section", { class: "rules-section" }, full));
  }).catch((e) => {
    body.replaceChildren(errorBox(e.message), h("p", {}, h("a", { href: "/" }, "Home")));
  });
}
