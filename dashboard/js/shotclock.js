// The shot clock (hub/reconcile/shotclock.py) on the screens: counted down on the hub's time from the state's
// `shot_clock` (`started_at`, `expires_at`, `warn_ms`) and the envelope's `hub_ms`, never from a clock of our own:
// now = hub_ms + the local time since the envelope came. Offline, the caller passes the time of the hub's last
// word, so the count stops there (like the match clock).
import { t } from "./i18n.js";
import { h, fill } from "./dom.js";

/**
 * The clock now: `phase` off (no clock in this match) | idle (no shot being timed) | settling (the previous shot
 * may still be rolling: the full time, not counting yet) | running | warn (the last `warn_ms`) | expired; `left`
 * whole seconds left (rounded up: "1" until the very end).
 */
export function shotClockNow(sc, hubMs, receivedAt, at = Date.now()) {
  if (!sc || !sc.on) return { phase: "off", left: null };
  if (!sc.running || sc.expires_at == null || sc.started_at == null || hubMs == null) return { phase: "idle", left: null };
  const now = hubMs + (at - receivedAt);
  if (now < sc.started_at) return { phase: "settling", left: Math.ceil((sc.expires_at - sc.started_at) / 1000) };
  const leftMs = sc.expires_at - now;
  if (leftMs <= 0) return { phase: "expired", left: 0 };
  return { phase: leftMs <= (sc.warn_ms ?? 10000) ? "warn" : "running", left: Math.ceil(leftMs / 1000) };
}

/**
 * Draw the clock into `el` (hidden while there is none): the seconds left, big, and a word that says what they
 * are; at the last 10 s `data-phase="warn"` (the screen's CSS makes it red and larger), at 0 "Time!". The DOM is
 * touched only when what is shown changes (the callers tick four times a second).
 */
export function renderShotClock(el, sc, hubMs, receivedAt, at = Date.now()) {
  const c = shotClockNow(sc, hubMs, receivedAt, at);
  const hidden = c.phase === "off" || c.phase === "idle";
  const key = `${c.phase}:${c.left}:${sc && sc.extended}`;
  if (el.dataset.key === key) return c;
  el.dataset.key = key;
  el.dataset.phase = c.phase;
  el.dataset.left = c.left == null ? "" : String(c.left);
  el.hidden = hidden;
  if (hidden) { fill(el); return c; }
  const expired = c.phase === "expired";
  fill(el,
    h("span.sc-label", {}, expired ? t("shot_clock_expired") : t("shot_clock")),
    h("span.sc-left", { role: c.phase === "warn" || expired ? "timer" : null }, expired ? "0" : String(c.left)),
    sc.extended ? h("span.sc-ext", {}, t("shot_clock_extended", { n: sc.extended })) : null);
  return c;
}
