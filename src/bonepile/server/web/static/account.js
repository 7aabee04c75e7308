// The account page: sign in or make an account; once signed in, the account itself (its
// devices, a new password, signing out here or everywhere, the data kept, deleting it).
// Accounts are optional: every game is played without one.
import { h } from "./dom.js";
import { api, account, setAccount } from "./api.js";
import { navigate } from "./router.js";
import { toast } from "./toast.js";
import { page, loading, errorBox } from "./chrome.js";

const NAME_RULE = "3 to 20 characters: letters, digits, and - or _ between them, starting with a letter.";

export function mountAccount(root, _params, query) {
  const column = page(root, "narrow account-page", loading());
  document.title = "Your account · bonepile";
  const next = safeNext(query.get("next"));
  account({ refresh: true })
    .then((me) => column.replaceChildren(...(me.signed_in ? signedIn(me, column) : signedOut(next))))
    .catch((e) => column.replaceChildren(errorBox(e.message)));
}

/** A path of this site to go to after signing in (never another site). */
function safeNext(path) {
  return path && /^\/[A-Za-z0-9/_?=&.-]*$/.test(path) && !path.startsWith("//") ? path : "/";
}

function field(label, input, help) {
  const id = input.id;
  return h("div", { class: "field" }, h("label", { for: id }, label), input, help ? h("p", { class: "small muted field-help", id: `${id}-help` }, help) : null);
}

/** A form whose submit calls send(); its errors show inside it, read out at once. */
function form(cls, children, button, send) {
  const errors = h("div", { class: "form-errors", "aria-live": "assertive" });
  const submit = h("button", { type: "submit", class: "btn btn-primary" }, button);
  const el = h("form", { class: ["account-form", cls], novalidate: true }, ...children, errors, h("div", { class: "form-actions" }, submit));
  el.addEventListener("submit", async (event) => {
    event.preventDefault();
    errors.replaceChildren();
    submit.disabled = true;
    try {
      await send();
    } catch (e) {
      const text = String(e.message || "Something went wrong.");
      errors.replaceChildren(h("div", { class: "error-box", role: "alert" }, text.charAt(0).toUpperCase() + text.slice(1)));
    } finally {
      submit.disabled = false;
    }
  });
  return el;
}

function signedOut(next) {
  const inName = h("input", { id: "signin-name", type: "text", name: "username", autocomplete: "username", required: true, maxlength: 20, autocapitalize: "none", spellcheck: "false" });
  const inPassword = h("input", { id: "signin-password", type: "password", name: "password", autocomplete: "current-password", required: true, maxlength: 256 });
  const signIn = form("signin", [h("h2", {}, "Sign in"), field("Name", inName), field("Password", inPassword)], "Sign in", async () => {
    const me = await api.post("/api/account/signin", { name: inName.value, password: inPassword.value });
    setAccount(me);
    toast(`Signed in as ${me.name}`, "good");
    navigate(next);
  });

  const upName = h("input", { id: "signup-name", type: "text", name: "username", autocomplete: "username", required: true, maxlength: 20, autocapitalize: "none", spellcheck: "false", "aria-describedby": "signup-name-help" });
  const upPassword = h("input", { id: "signup-password", type: "password", name: "new-password", autocomplete: "new-password", required: true, minlength: 8, maxlength: 256, "aria-describedby": "signup-password-help" });
  const signUp = form("signup", [
    h("h2", {}, "Make an account"),
    field("Name", upName, NAME_RULE),
    field("Password", upPassword, "At least 8 characters. A phrase of a few words is easy to remember and hard to guess."),
  ], "Make my account", async () => {
    const me = await api.post("/api/account/signup", { name: upName.value, password: upPassword.value });
    setAccount(me);
    toast(`Welcome, ${me.name}: your account is made`, "good");
    navigate(next);
  });

  return [
    h("h1", {}, "Your account"),
    h("p", { class: "lead" }, "Every game here plays without an account. With one, your tables and finished hands follow you to any device you sign in on. Making one keeps what you have played in this browser."),
    h("div", { class: "account-forms" }, h("section", { class: "panel" }, signIn), h("section", { class: "panel" }, signUp)),
  ];
}

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

function signedIn(me, column) {
  const sessions = h("ul", { class: "sessions" }, h("li", { class: "muted" }, "Loading…"));
  const hands = h("p", { class: "muted" });
  api.get("/api/account/data").then((data) => {
    sessions.replaceChildren(...data.sessions.map((s) => h("li", {},
      h("span", {}, `Signed in ${when(s.created)}`),
      s.this ? h("span", { class: "tag tag-open" }, "this device") : h("span", { class: "muted small" }, `last used ${when(s.seen)}`))));
    const count = data.hands.length;
    hands.textContent = count ? `${count} finished hand${count === 1 ? "" : "s"} kept under your name.` : "No finished hands yet.";
  }).catch((e) => sessions.replaceChildren(h("li", {}, errorBox(e.message))));

  const signOut = h("button", { type: "button", class: "btn btn-secondary" }, "Sign out");
  signOut.addEventListener("click", async () => {
    signOut.disabled = true;
    try {
      setAccount(await api.post("/api/account/signout"));
      toast("Signed out", "good");
      navigate("/");
    } catch (e) {
      toast(e.message, "error");
      signOut.disabled = false;
    }
  });
  const everywhere = h("button", { type: "button", class: "btn btn-secondary" }, "Sign out everywhere");
  everywhere.addEventListener("click", async () => {
    if (!window.confirm("Sign out on every device, this one too? Seat links you shared stop working; your seats stay yours.")) return;
    everywhere.disabled = true;
    try {
      const got = await api.post("/api/account/signout-everywhere");
      setAccount(got);
      toast(`Signed out on ${got.ended} device${got.ended === 1 ? "" : "s"}`, "good");
      navigate("/");
    } catch (e) {
      toast(e.message, "error");
      everywhere.disabled = false;
    }
  });

  const oldPassword = h("input", { id: "old-password", type: "password", autocomplete: "current-password", required: true, maxlength: 256 });
  const newPassword = h("input", { id: "new-password", type: "password", autocomplete: "new-password", required: true, minlength: 8, maxlength: 256 });
  const username = h("input", { type: "text", name: "username", autocomplete: "username", value: me.name, hidden: true, readonly: true });
  const change = form("password", [username, field("Current password", oldPassword), field("New password", newPassword, "At least 8 characters. Your other devices are signed out.")], "Change password", async () => {
    await api.post("/api/account/password", { old: oldPassword.value, new: newPassword.value });
    oldPassword.value = newPassword.value = "";
    toast("Password changed: your other devices are signed out", "good");
    column.replaceChildren(...signedIn(me, column));
  });

  const confirmPassword = h("input", { id: "delete-password", type: "password", autocomplete: "current-password", required: true, maxlength: 256 });
  const remove = form("delete", [
    h("p", {}, "Deleting your account removes its name, its password and its sessions, and unlinks your finished hands from you (they stay as the anonymous records of the tables they were played at, under the names shown there). Tables you are seated at stay yours in this browser. This cannot be undone."),
    field("Your password, to confirm", confirmPassword),
  ], "Delete my account", async () => {
    if (!window.confirm(`Delete the account ${me.name} for good?`)) return;
    setAccount(await api.post("/api/account/delete", { password: confirmPassword.value }));
    toast("Your account is deleted", "good");
    navigate("/");
  });
  remove.querySelector("button[type=submit]").classList.replace("btn-primary", "btn-danger");

  return [
    h("h1", {}, me.name),
    h("p", { class: "muted" }, `Account made ${when(me.created)}. `, h("a", { href: `/p/${encodeURIComponent(me.name)}` }, "Your page: ratings and finished hands")),
    h("section", { class: "panel account-section" },
      h("h2", {}, "Signed in"),
      sessions,
      h("div", { class: "form-actions" }, signOut, everywhere)),
    h("section", { class: "panel account-section" }, h("h2", {}, "Password"), change),
    h("section", { class: "panel account-section" },
      h("h2", {}, "Your data"),
      hands,
      h("p", {}, "Everything the server keeps about you, as a file: ", h("a", { href: "/api/account/data", download: "bonepile-account.json" }, "download my data"), ".")),
    h("details", { class: "panel account-section danger-zone" }, h("summary", {}, "Delete my account"), remove),
  ];
}
