// Entry point: theme, routes, and a last safety net for unexpected errors.
import { start, route } from "./router.js";
import { initTheme } from "./theme.js";
import { mountFront, mountNotFound } from "./front.js";
import { mountNewTable } from "./newtable.js";
import { mountTable } from "./table.js";
import { mountReplays, mountReplay } from "./replay.js";
import { mountRules } from "./rules.js";
import { mountAccount } from "./account.js";
import { mountLeaderboard, mountPlayer } from "./players.js";
import { watchChallenges } from "./challenges.js";
import { games } from "./api.js";
import { toastError } from "./toast.js";

initTheme();

window.addEventListener("unhandledrejection", (event) => {
  event.preventDefault();
  toastError(event.reason);
});

route(/^\/$/, mountFront);
route(/^\/new\/?$/, mountNewTable);
route(/^\/t\/([A-Za-z0-9_-]+)\/?$/, (root, [id], query) => mountTable(root, id, query));
route(/^\/replays\/?$/, mountReplays);
route(/^\/replay\/([A-Za-z0-9_-]+)\/?$/, (root, [id], query) => mountReplay(root, id, query));
route(/^\/rules\/([a-z_]+)\/?$/, (root, [game]) => mountRules(root, game));
route(/^\/account\/?$/, mountAccount);
route(/^\/leaderboard(?:\/([a-z_]+))?\/?$/, (root, params, query) => mountLeaderboard(root, params, query));
route(/^\/p\/([A-Za-z0-9_-]+)\/?$/, (root, params, query) => mountPlayer(root, params, query));
route(/.*/, mountNotFound);

start(document.getElementById("app"));
watchChallenges(games());
