// A match of several frames on every screen: the match view's `race` (RaceView, hub/view/race.py; docs/web-api.md):
// race to N, the frame in play, the frame score, each frame's result, the handicap. Every match has it (a single
// frame is a race to 1); a single frame with no handicap shows nothing new.
import { t } from "./i18n.js";
import { h } from "./dom.js";

/** The race of a scoreboard, or null when it is a single frame with no handicap (the screens look as before). */
export function raceOf(b) {
  if (!b) return null;
  const r = b.race;
  return r.race_to > 1 || r.handicap || r.frames.length > 1 ? r : null;
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
