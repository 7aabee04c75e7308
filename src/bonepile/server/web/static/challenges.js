// Challenges while signed in: the challenges made to you show at the bottom of every page
// (accept: to the table; decline), and when someone accepts yours you are taken to the table
// (a toast says so at a table already in play). Asks the server every few seconds while the
// page is in view.
import { h } from "./dom.js";
import { api, account } from "./api.js";
import { navigate } from "./router.js";
import { toast, toastError } from "./toast.js";

const ASK_EVERY = 6000;
const seen = new Set(); // answers to our challenges already acted on (this page's life)
let box = null;
let timer = 0;
let titles = {};

function describe(c) {
  const game = titles[c.game] || c.game;
  return `${game}, ${c.players} players${c.rated ? ", rated" : ""}`;
}

function render(incoming) {
  if (!box || !box.isConnected) {
    box = h("div", { class: "challenge-box", role: "region", "aria-label": "Challenges" });
    document.body.append(box);
  }
  box.replaceChildren(...incoming.map((c) => {
    const accept = h("button", { type: "button", class: "btn btn-primary btn-small", "data-action": "accept-challenge" }, "Accept");
    const decline = h("button", { type: "button", class: "btn btn-ghost btn-small", "data-action": "decline-challenge" }, "Decline");
    accept.addEventListener("click", async () => {
      accept.disabled = decline.disabled = true;
      try {
        const got = await api.post(`/api/challenges/${c.id}/accept`);
        render([]);
        navigate(`/t/${got.table}`);
      } catch (e) {
        toastError(e);
        ask();
      }
    });
    decline.addEventListener("click", async () => {
      accept.disabled = decline.disabled = true;
      await api.post(`/api/challenges/${c.id}/decline`).catch(() => {});
      ask();
    });
    return h("div", { class: "challenge-card" },
      h("div", {}, h("strong", {}, c.from), " challenges you: ", describe(c)),
      h("div", { class: "card-actions" }, accept, decline));
  }));
  box.hidden = incoming.length === 0;
}

async function ask() {
  clearTimeout(timer);
  let got;
  try {
    got = await api.get("/api/challenges");
  } catch (e) {
    if (e.status === 401) { render([]); return; } // signed out: stop asking
    got = null;
  }
  if (got && !got.signed_in) { render([]); return; } // signed out (on another device): stop asking
  if (got) {
    render(got.incoming);
    for (const c of got.outgoing) {
      if (seen.has(c.id) || c.status === "open") continue;
      seen.add(c.id);
      if (c.status === "accepted" && c.table) {
        if (location.pathname.startsWith("/t/")) toast(`${c.to} accepted your challenge: the table is /t/${c.table}`, "good", 8000);
        else {
          toast(`${c.to} accepted your challenge`, "good");
          navigate(`/t/${c.table}`);
        }
      } else if (c.status === "declined") toast(`${c.to} declined your challenge`, "info", 6000);
    }
  }
  timer = setTimeout(ask, document.hidden ? ASK_EVERY * 5 : ASK_EVERY);
}

/** Start watching for challenges when (and while) this browser is signed in. */
export function watchChallenges(gameTitles) {
  gameTitles.then((all) => { titles = Object.fromEntries(all.map((g) => [g.name, g.title])); }).catch(() => {});
  const start = (me) => {
    clearTimeout(timer);
    if (me && me.signed_in) {
      // answers that came before this page opened are not news
      api.get("/api/challenges").then((got) => {
        for (const c of got.outgoing) if (c.status !== "open") seen.add(c.id);
      }).catch(() => {}).finally(ask);
    } else render([]);
  };
  account().then(start, () => {});
  window.addEventListener("bonepile:account", (e) => start(e.detail));
  document.addEventListener("visibilitychange", () => { if (!document.hidden && timer) ask(); });
}

/** Challenge ``name`` to ``game`` (from their page). */
export async function challenge(name, game, rated) {
  const got = await api.post("/api/challenges", { name, game, rated });
  toast(`Challenge sent to ${got.to}: you go to the table when they accept`, "good", 6000);
  return got;
}
