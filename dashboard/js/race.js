// A match of several frames on every screen: the match view's `race` (RaceView, hub/view/race.py; docs/web-api.md):
// race to N, the frame in play, the frame score, each frame's result, the handicap. Every match has it (a single
// frame is a race to 1); a single frame with no handicap shows nothing new.
import { t } from "./i18n.js";
import { h, fill } from "./dom.js";

/** The race of a scoreboard, or null when it is a single frame with no handicap (the screens look as before). */
export function raceOf(b) {
  if (!b) return null;
  const r = b.race;
  return r.race_to > 1 || r.handicap || r.frames.length > 1 || r.time_limit_min ? r : null;
}

/** "race to 3 · frame 2" for a header. */
export function raceLabel(r) {
  return r ? `${t("race_to", { n: r.race_to })} · ${t("frame_n", { n: r.frame })}` : "";
}

/** The frames won by one seat as dots: ● won, ○ still to win (up to the race's length). */
export function frameDots(r, seat) {
  const won = r.score[seat];
  const dots = [];
  for (let k = 0; k < Math.max(r.race_to, won); k++) dots.push(h(`span.dot${k < won ? ".won" : ""}`, {}, k < won ? "●" : "○"));
  return h("span.frames", { title: `${t("frames_won")}: ${won}`, "aria-label": `${t("frames_won")}: ${won}` }, dots);
}

/** The handicap in words ("Petr: 2 ball(s) on the shelf every frame"), or "" with none. */
export function handicapText(r, players) {
  const hc = r && r.handicap;
  return hc ? t(`handicap_${hc.kind}`, { who: players[hc.seat], n: hc.amount }) : "";
}

/** A short handicap tag for the seat given it ("hcp 2 ball(s)"), or null for the other seat. */
export function handicapTag(r, seat) {
  const hc = r && r.handicap;
  return hc && hc.seat === seat ? h("span.hcp", {}, t(`handicap_short_${hc.kind}`, { n: hc.amount })) : null;
}

/** What the end of a frame means for the race: who won the frame or the match, who breaks next, or why it was
 * abandoned; "" for a single frame. */
export function raceVerdict(r, players) {
  if (!r) return "";
  if (r.abandoned != null) return t("abandoned", { reason: r.abandoned });
  if (r.winner != null) return `${t("match_wins", { who: players[r.winner] })} (${r.score[0]}:${r.score[1]})`;
  const f = r.frames[r.frame - 1];
  const won = f && f.winner != null ? t("frame_wins", { who: players[f.winner], n: r.frame }) : "";
  const next = r.next_breaker != null ? t("next_breaks", { who: players[r.next_breaker] }) : r.frame_over ? t("next_lag") : "";
  return [won, next].filter(Boolean).join(" · ");
}

/** "h:mm:ss" of a time left in ms (rounded up to the second, never below 0). */
export function hms(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const p = (n) => String(n).padStart(2, "0");
  return `${Math.floor(s / 3600)}:${p(Math.floor(s / 60) % 60)}:${p(s % 60)}`;
}

/**
 * The match time (general A-G6) now: `phase` off (no limit, or the match is over) | running | called (the hub
 * stored time_up, or the count reached 0 and it is on its way); `left` ms. Counted on the hub's time like the shot
 * clock (js/shotclock.js): now = hub_ms + the local time since the envelope came.
 */
export function matchTimeNow(r, hubMs, receivedAt, at = Date.now()) {
  if (!r || r.deadline_ms == null || r.over) return { phase: "off", left: null };
  if (r.time_called) return { phase: "called", left: 0 };
  if (hubMs == null) return { phase: "off", left: null }; // no word from the hub yet
  const left = r.deadline_ms - (hubMs + (at - receivedAt));
  return left <= 0 ? { phase: "called", left: 0 } : { phase: "running", left };
}

/** Draw the match time into `el` (hidden without a limit): "⏱ 0:42:17" counting down, "Время! / Time!" once up.
 * The DOM is touched only when what is shown changes (the callers tick four times a second). */
export function renderMatchTime(el, r, hubMs, receivedAt, at = Date.now()) {
  if (!el) return null;
  const c = matchTimeNow(r, hubMs, receivedAt, at);
  const text = c.phase === "off" ? "" : c.phase === "called" ? t("match_time_up") : hms(c.left);
  if (el.dataset.key === `${c.phase}:${text}`) return c;
  el.dataset.key = `${c.phase}:${text}`;
  el.dataset.phase = c.phase;
  el.hidden = c.phase === "off";
  el.title = c.phase === "off" ? "" : t("match_time_title", { n: r.time_limit_min });
  fill(el, c.phase === "off" ? null : h("span.mt-label", {}, t("match_time")),
    c.phase === "off" ? null : h("span.mt-left", { role: c.phase === "called" ? "timer" : null }, text));
  return c;
}
