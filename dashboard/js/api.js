// The REST client of the referee panel and the club view: the table token (from the PIN, kept in sessionStorage),
// a `uid` per action so a retry after a lost answer is harmless, and errors as bilingual {en, ru} pairs. A referee
// action is sent again with its uid until the hub answers, however long that takes (`actionUntilAnswered`).

/** An error the hub (or the network) gave: `status`, `code`, `en`, `ru`, `retryAfter` (seconds, on 429). */
export class ApiError extends Error {
  constructor(status, body, retryAfter = null) {
    const err = (body && body.error) || {};
    super(err.en || `HTTP ${status}`);
    this.status = status;
    this.code = err.code || (status === 0 ? "network" : "http");
    this.en = err.en || (status === 0 ? "No connection to the hub" : `The hub answered ${status}`);
    this.ru = err.ru || (status === 0 ? "Нет связи с хабом" : `Хаб ответил ${status}`);
    this.field = err.field ?? null;
    this.retryAfter = retryAfter;
  }
}

/** A fresh id for one action (works on plain http, where crypto.randomUUID is not available). */
export function newUid() {
  const b = new Uint8Array(12);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

const RETRIES = 3;
const BACKOFF_MS = [500, 1000, 2000, 4000, 5000]; // then every 5 s: a commit outage may last minutes

/** Does this failure leave the action's fate unknown (no answer, or the hub could not store it yet)? */
export function unanswered(e) {
  return e instanceof ApiError && (e.status === 0 || e.status >= 500 || e.status === 429);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function request(method, url, body, token) {
  const headers = { "Accept": "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  let lastErr = null;
  for (let attempt = 0; attempt < RETRIES; attempt++) {
    let res;
    try {
      res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch {
      lastErr = new ApiError(0, null); // the same body (and uid) again: the hub ignores a repeat
      await new Promise((r) => setTimeout(r, 300 * (attempt + 1)));
      continue;
    }
    let data = null;
    try { data = await res.json(); } catch { data = null; }
    if (res.ok) return data;
    if (res.status >= 500 && attempt < RETRIES - 1) {
      lastErr = new ApiError(res.status, data);
      await new Promise((r) => setTimeout(r, 300 * (attempt + 1)));
      continue;
    }
    const ra = res.headers.get("Retry-After");
    throw new ApiError(res.status, data, ra ? Number(ra) : null);
  }
  throw lastErr;
}

/** GET a JSON document of the hub (reading needs no token). */
export function getJson(url) {
  return request("GET", url);
}

/** The mutating calls of one table, with its token. */
export class TableApi {
  constructor(table) {
    this.table = table;
    this.key = `luza.token.${table}`;
    this.base = `/api/tables/${encodeURIComponent(table)}`;
  }

  get token() { return sessionStorage.getItem(this.key); }
  get signedIn() { return Boolean(this.token); }
  signOut() { sessionStorage.removeItem(this.key); }

  /** Exchange the PIN for a token; throws ApiError (401 wrong PIN, 429 locked out, 409 no PIN set). */
  async login(pin) {
    const data = await request("POST", `${this.base}/token`, { pin });
    sessionStorage.setItem(this.key, data.token);
    return data;
  }

  async _call(path, body) {
    try {
      return await request("POST", `${this.base}${path}`, body, this.token);
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) this.signOut();
      throw e;
    }
  }

  /**
   * One referee action with the given `uid`, sent again (the same uid: the hub applies it once) with back-off until
   * the hub answers — stored, or refused with its reason. `onWait(attempt, error)` is told of each try left
   * unanswered (a commit outage answers 503 after the hub's submit timeout; a dead link fails at once).
   */
  async actionUntilAnswered(kind, fields, uid, onWait = () => {}) {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this._once("/actions", { kind, uid, ...fields });
      } catch (e) {
        if (!unanswered(e)) throw e;
        onWait(attempt, e);
        const wait = e.retryAfter ? e.retryAfter * 1000 : BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)];
        await sleep(wait);
      }
    }
  }

  async _once(path, body) {
    const headers = { "Accept": "application/json", "Content-Type": "application/json" };
    if (this.token) headers["Authorization"] = `Bearer ${this.token}`;
    let res;
    try {
      res = await fetch(`${this.base}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
    } catch {
      throw new ApiError(0, null);
    }
    let data = null;
    try { data = await res.json(); } catch { data = null; }
    if (res.ok) return data;
    if (res.status === 401) this.signOut();
    const ra = res.headers.get("Retry-After");
    throw new ApiError(res.status, data, ra ? Number(ra) : null);
  }

  /** Start a match: {variant, players, options, cues}. */
  startMatch(body) {
    return this._call("/match", { uid: newUid(), ...body });
  }
}

/** A node command from the club view (identify = blink), with the club's token or one of the device's table. */
export function deviceCommand(device, name, token) {
  return request("POST", `/api/devices/${encodeURIComponent(device)}/commands`, { name }, token);
}

/** An over-the-air update of one node (the hub's own firmware, or `release`); answers {en, ru} of what was sent. */
export function deviceUpdate(device, token, release = null) {
  return request("POST", `/api/devices/${encodeURIComponent(device)}/ota`, release ? { release } : {}, token);
}

/** The club's sign-in (the club PIN, `luza pin set --club`): its token is kept for this tab. */
export const club = {
  key: "luza.club.token",
  get token() { return sessionStorage.getItem(this.key); },
  signOut() { sessionStorage.removeItem(this.key); },
  /** Exchange the club PIN for a token; throws ApiError (401 wrong PIN, 429 locked out, 409 no club PIN). */
  async login(pin) {
    const data = await request("POST", "/api/club/token", { pin, label: "club" });
    sessionStorage.setItem(this.key, data.token);
    return data;
  },
};
