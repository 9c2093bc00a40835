// The live connection every screen shares: connect, resync by revision, reconnect with backoff, reload the page
// when the hub's boot id changes (a restarted hub may serve new code), and the offline state.
//
// Liveness: the hub sends something at least every 1.5 s (a state, or a heartbeat when it is quiet;
// hub/web/settings.py heartbeat_s). A page that hears nothing for SILENCE_MS treats the link as dead at once —
// a half-open link (a dead access point, no close frame) would otherwise keep the last score looking live for
// a minute — shows it (the badge, or the board's full-screen state) and opens a new socket; the old one is
// dropped without waiting for its closing handshake. A socket that does not open within SILENCE_MS is dropped
// the same way, so the page is live again as soon as the link is back.
import { t } from "./i18n.js";

const MIN_BACKOFF_MS = 300;
const MAX_BACKOFF_MS = 1500; // a refused reconnect (the hub restarting) is retried at least this often
const UNKNOWN_TABLE_BACKOFF_MS = 8000;
const SILENCE_MS = 4000; // over twice the hub's heartbeat: one late heartbeat is not an outage

const hhmmss = (ms) => new Date(ms).toTimeString().slice(0, 8);
let offlineHint = null; // a page's second line while offline (the panel: why its buttons are off)

/**
 * Show or hide the page's offline state and mark <body> so controls can disable themselves (`is-offline`,
 * `data-online`). `text` replaces the words; `lastMs` (the time of the hub's last message, if any) adds
 * "last update HH:MM:SS".
 */
export function setOffline(off, text = null, lastMs = null) {
  let badge = document.getElementById("offline");
  if (!badge) {
    badge = document.createElement("div");
    badge.id = "offline";
    badge.className = "offline-badge";
    badge.setAttribute("role", "alert");
    for (const cls of ["offline-msg", "offline-hint"]) {
      const line = document.createElement("div");
      line.className = cls;
      badge.append(line);
    }
    document.body.append(badge);
  }
  const [msg, hint] = badge.children;
  msg.textContent = text || (lastMs != null ? t("offline_since", { time: hhmmss(lastMs) }) : t("offline"));
  hint.textContent = text ? "" : (offlineHint || "");
  hint.hidden = !hint.textContent;
  badge.hidden = !off;
  document.body.classList.toggle("is-offline", off);
  document.body.dataset.online = off ? "0" : "1";
}

/** The socket's URL: this page's host, `path`, and the last `rev` and the panel's `token` when there are. */
function socketUrl(path, rev, token) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const params = new URLSearchParams();
  if (rev !== null) params.set("rev", rev);
  if (token) params.set("token", token);
  const qs = params.toString();
  const query = qs ? `${path.includes("?") ? "&" : "?"}${qs}` : "";
  return `${proto}//${location.host}${path}${query}`;
}

/**
 * Open a live socket on `path` (e.g. `/ws/tables/t1`). `onMessage(msg)` gets every "state"/"club" message;
 * `onStatus(online)` every change of link state. Keeps the last `rev` and resumes with `?rev=`. `token()` (the
 * referee panel) gives the table's token, if any, sent as `?token=`: the hub keeps slots for panels and the
 * kiosk that a crowd of other clients cannot take (hub/web/slots.py). The returned object tells `online` and
 * `lastMessageAt` (Date.now() of the hub's last message: the board stops its clock there while offline).
 * `hint` is a second line shown while offline (the panel says its buttons are off and why).
 */
export function live(path, { onMessage, onStatus = () => {}, token = () => null, hint = null }) {
  offlineHint = hint;
  let rev = null;
  let boot = null;
  let backoff = MIN_BACKOFF_MS;
  let sock = null;
  let watchdog = null;
  let retry = null;
  let online = false;
  let lastMessageAt = null;

  const status = (on) => {
    if (on === online) return;
    online = on;
    setOffline(!on, null, lastMessageAt);
    onStatus(on);
  };

  // Nothing heard for SILENCE_MS (or no open within it): offline now, and a new socket now.
  const arm = () => {
    clearTimeout(watchdog);
    watchdog = setTimeout(() => {
      status(false);
      drop();
      open();
    }, SILENCE_MS);
  };

  /** Forget the current socket: its late events change nothing, its close needs no answer from the hub. */
  const drop = () => {
    if (!sock) return;
    const old = sock;
    sock = null;
    old.onopen = old.onmessage = old.onclose = old.onerror = null;
    try { old.close(); } catch { /* closing a socket that never opened */ }
  };

  const seenBoot = (b) => {
    if (b == null) return false;
    if (boot !== null && b !== boot) {
      location.reload(); // the hub restarted: it may serve new pages and a new state shape
      return true;
    }
    boot = b;
    return false;
  };

  const open = () => {
    clearTimeout(retry);
    const ws = sock = new WebSocket(socketUrl(path, rev, token()));
    arm(); // an open that hangs (a silent link) counts as silence too
    ws.onmessage = (ev) => {
      arm();
      lastMessageAt = Date.now();
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === "error") return; // a refusal {code, en, ru, field}; the close that follows says what to do
      if (seenBoot(msg.boot ?? msg.health?.boot)) return;
      backoff = MIN_BACKOFF_MS;
      status(true);
      if (msg.type === "hello" || msg.type === "heartbeat") return;
      if (msg.rev != null) {
        if (rev !== null && msg.rev < rev && msg.type === "state") return; // a stale copy
        rev = msg.rev;
      }
      onMessage(msg);
    };
    ws.onclose = (ev) => {
      clearTimeout(watchdog);
      sock = null;
      status(false);
      if (ev.code === 4404) { // the hub knows no such table: say so, and keep asking (it may be configured later)
        setOffline(true, t("unknown_table", { table: decodeURIComponent(path.split("/").pop()) }));
        backoff = UNKNOWN_TABLE_BACKOFF_MS;
      }
      const wait = backoff * (0.8 + Math.random() * 0.4);
      backoff = Math.min(Math.max(MAX_BACKOFF_MS, backoff), backoff * 2);
      retry = setTimeout(open, wait);
    };
    ws.onerror = () => { /* onclose follows */ };
  };

  document.body.dataset.online = "0"; // controls stay disabled until the first message proves the link
  document.body.classList.add("is-offline");
  setTimeout(() => { if (!online) setOffline(true, null, lastMessageAt); }, 1500);
  open();
  return {
    get rev() { return rev; }, get boot() { return boot; }, get online() { return online; },
    get lastMessageAt() { return lastMessageAt; },
  };
}
