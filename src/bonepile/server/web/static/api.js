// The JSON API: every refusal becomes an ApiError carrying the server's one-line message.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function call(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch (_) {
    throw new ApiError(0, "network", "Cannot reach the server. Check your connection.");
  }
  let data = null;
  try {
    data = await response.json();
  } catch (_) {
    data = null;
  }
  if (!response.ok) {
    let message = `The server refused (${response.status}).`;
    if (data && typeof data.message === "string") message = data.message;
    else if (data && typeof data.detail === "string") message = data.detail;
    else if (data && Array.isArray(data.detail) && data.detail[0] && data.detail[0].msg) {
      const d = data.detail[0];
      message = `${(d.loc || []).slice(1).join(".") || "request"}: ${d.msg}`;
    }
    throw new ApiError(response.status, (data && data.error) || "http", message);
  }
  return data;
}

export const api = {
  get: (path) => call("GET", path),
  post: (path, body) => call("POST", path, body || {}),
};

let gamesPromise = null;

/** The game catalogue, fetched once. */
export function games() {
  if (!gamesPromise) {
    gamesPromise = api.get("/api/games").catch((e) => {
      gamesPromise = null;
      throw e;
    });
  }
  return gamesPromise;
}

/** The catalogue entry of a game (or null). */
export async function gameInfo(name) {
  const all = await games();
  return all.find((g) => g.name === name) || null;
}

let accountPromise = null;

/** Who this browser is signed in as: {signed_in, name}, fetched once (until refreshed). */
export function account({ refresh = false } = {}) {
  if (!accountPromise || refresh) {
    accountPromise = api.get("/api/account").catch((e) => {
      accountPromise = null;
      throw e;
    });
  }
  return accountPromise;
}

/** Remember a new answer about who this browser is (after signing in or out). */
export function setAccount(me) {
  accountPromise = Promise.resolve(me);
  window.dispatchEvent(new CustomEvent("bonepile:account", { detail: me }));
}
