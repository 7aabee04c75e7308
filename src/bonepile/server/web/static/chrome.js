// The frame of the ordinary pages: header with navigation, and a footer.
import { h } from "./dom.js";
import { themeButton } from "./theme.js";
import { account } from "./api.js";

/** The header's link to the account page: "Sign in", or the name signed in as. */
function accountLink() {
  const link = h("a", { class: ["account-link", location.pathname === "/account" && "active"], href: "/account" }, "Sign in");
  const show = (me) => {
    link.textContent = me && me.signed_in ? me.name : "Sign in";
    link.title = me && me.signed_in ? `Signed in as ${me.name}: your account` : "Sign in or make an account";
  };
  account().then(show, () => {});
  const heard = (e) => {
    if (link.isConnected) show(e.detail);
    else window.removeEventListener("bonepile:account", heard);
  };
  window.addEventListener("bonepile:account", heard);
  return link;
}

export function siteHeader(wide = false) {
  const here = location.pathname;
  const link = (href, text) => h("a", { href, class: here === href || (href !== "/" && here.startsWith(href)) ? "active" : "" }, text);
  return h("header", { class: ["site-header", wide && "wide"] },
    h("a", { class: "brand", href: "/", "aria-label": "bonepile home" }, h("img", { src: "/static/favicon.svg", alt: "", width: 28, height: 28 }), h("span", {}, "bonepile")),
    h("nav", { class: "site-nav", "aria-label": "Main" }, link("/", "Play"), link("/new", "New table"), link("/replays", "Replays"), link("/leaderboard", "Players"), link("/rules/super_dominoes", "Rules")),
    accountLink(),
    themeButton());
}

/** A page: header, a main column with children, footer. Returns the column. */
export function page(root, cls, ...children) {
  const column = h("div", { class: ["page", cls] }, ...children);
  root.append(siteHeader(String(cls).includes("wide")), column, h("footer", { class: "site-footer" },
    h("span", {}, "bonepile · dominoes engine and bots"),
    h("a", { href: "/replays" }, "Replays"),
    h("a", { href: "/rules/super_dominoes" }, "Rules")));
  return column;
}

/** A loading line. */
export function loading(text = "Loading…") {
  return h("p", { class: "muted loading" }, text);
}

/** An error box with the server's message. */
export function errorBox(message) {
  return h("div", { class: "error-box", role: "alert" }, message);
}
