// The live connection every screen shares: connect, resync by revision, reconnect with backoff, reload the page
// when the hub's boot id changes (a restarted hub may serve new code), and the offline indicator.
import { t } from "./i18n.js";

const MIN_BACKOFF_MS = 300;
const MAX_BACKOFF_MS = 8000;
const SILENCE_MS = 12000; // the hub sends a heartbeat every 5 s: this much silence means a dead link

/** Show or hide the page's offline badge and mark <body> so controls can disable themselves. */
export function setOffline(off, text = null) {
  let badge = document.getElementById("offline");
  if (!badge) {
    badge = document.createElement("div");
    badge.id = "offline";
    badge.className = "offline-badge";
    badge.setAttribute("role", "status");
    document.body.append(badge);
  }
  badge.textContent = text || t("offline");
  badge.hidden = !off;
  document.body.classList.toggle("is-offline", off);
  document.body.dataset.online = off ? "0" : "1";
}

/**
 * Open a live socket on `path` (e.g. `/ws/tables/t1`). `onMessage(msg)` gets every "state"/"club" message;
 * `onStatus(online)` every change of link state. Keeps the last `rev` and resumes with `?rev=`. `token()` (the
 * referee panel) gives the table's token, if any, sent as `?token=`: the hub keeps slots for panels and the
 * kiosk that a crowd of other clients cannot take (hub/web/slots.py).
 */
export function live(path, { onMessage, onStatus = () => {}, token = () => null }) {
  let rev = null;
  let boot = null;
  let backoff = MIN_BACKOFF_MS;
  let sock = null;
  let watchdog = null;
  let online = false;

  const status = (on) => {
    if (on === online) return;
    online = on;
    setOffline(!on);
    onStatus(on);
  };

  const arm = () => {
    clearTimeout(watchdog);
    watchdog = setTimeout(() => sock && sock.close(), SILENCE_MS);
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
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const params = new URLSearchParams();
    if (rev !== null) params.set("rev", rev);
    if (token()) params.set("token", token());
    const qs = params.toString();
    const query = qs ? `${path.includes("?") ? "&" : "?"}${qs}` : "";
    sock = new WebSocket(`${proto}//${location.host}${path}${query}`);
    sock.onopen = () => { arm(); };
    sock.onmessage = (ev) => {
      arm();
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
    sock.onclose = (ev) => {
      clearTimeout(watchdog);
      sock = null;
      status(false);
      if (ev.code === 4404) { // the hub knows no such table: say so, and keep asking (it may be configured later)
        setOffline(true, t("unknown_table", { table: decodeURIComponent(path.split("/").pop()) }));
        backoff = MAX_BACKOFF_MS;
      }
      const wait = backoff * (0.8 + Math.random() * 0.4);
      backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
      setTimeout(open, wait);
    };
    sock.onerror = () => { /* onclose follows */ };
  };

  document.body.dataset.online = "0"; // controls stay disabled until the first message proves the link
  document.body.classList.add("is-offline");
  setTimeout(() => { if (!online) setOffline(true); }, 1500);
  open();
  return { get rev() { return rev; }, get boot() { return boot; }, get online() { return online; } };
}
