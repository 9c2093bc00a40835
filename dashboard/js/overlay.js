// Stream overlay /overlay/<table>: a transparent, compact score bar for OBS (`lang`, `position`, `scale`).
import { t, pick, pageTitle, langToggle } from "./i18n.js";
import { h, fill, ball, tableFromPath, tn } from "./dom.js";
import { fitAll, fitOnResize } from "./fit.js";
import { live } from "./ws.js";
import { raceOf, handicapTag, renderMatchTime } from "./race.js";
import { renderShotClock } from "./shotclock.js";

const params = new URLSearchParams(location.search);
const table = tableFromPath();
document.body.classList.add(params.get("position") === "bottom" ? "bottom" : "top");
const scale = Number(params.get("scale"));
if (scale > 0 && scale <= 4) document.documentElement.style.setProperty("--scale", String(scale));

let flashKey = null;
let flashTimer = null;
let env = null; // the last state envelope
let receivedAt = Date.now();

function render(env) {
  const m = env.match || env.last_match;
  const bar = document.getElementById("bar");
  bar.hidden = !m;
  if (!m) return;
  const over = m.over || !env.match;
  const star = m.star;
  const race = raceOf(m);
  const seat = (i) => h(`div.seat.s${i}${!over && m.to_play === i ? ".turn" : ""}${over && m.winner === i ? ".won" : ""}`, {},
    h("span.name", { translate: "no", "data-fit": "0.6,2" }, m.players[i]),
    race ? handicapTag(race, i) : null,
    star && star.next ? ball(-1, { colour: star.next[i], label: "" }) : null,
    race ? h("span.fscore", { title: t("frames_won") }, String(race.score[i])) : null,
    h("span.score", {}, String(m.scores[i])));
  const run = m.series && m.series.run;
  fill(bar, seat(0),
    h("div.mid", {}, h("span.var", {}, pick(m.title)), m.target ? h("span.tgt", {}, t("target", { n: m.target })) : null,
      race ? h("span.race", {}, `${t("race_to", { n: race.race_to })} · ${t("frame_n", { n: race.frame })}`) : null,
      race ? h("span.match-time", { id: "match-time", hidden: true }) : null,
      !over && run ? h("span.run", {}, `${t("run")} ${run}`) : null,
      null),
    h("div.shotclock", { id: "shotclock", hidden: true }),
    seat(1), h("div.flash", { id: "flash", hidden: true }));
  const hist = m.history || [];
  const last = hist[hist.length - 1];
  const key = `${m.match_id}:${hist.length}:${last ? last.number : ""}:${over}`;
  const fouled = last && last.fouls && last.fouls.length;
  if (flashKey !== null && key !== flashKey && (fouled || over)) {
    const el = document.getElementById("flash");
    fill(el, over ? winText(m, race) : t("foul"));
    el.className = `flash ${over ? "win" : "foul"}`;
    el.hidden = false;
    clearTimeout(flashTimer);
    flashTimer = setTimeout(() => { el.hidden = true; }, 4000);
  }
  flashKey = key;
}

pageTitle("title_overlay");
fitOnResize(() => fitAll());
document.querySelector("main").append(langToggle()); // shown only under the pointer or the keyboard: a stream never sees it
// The shot clock (js/shotclock.js) between the names: red in the last 10 s; it stops at the hub's last word offline.
function tickShot() {
  const el = document.getElementById("shotclock");
  if (!el || !env) return;
  const m = env.match;
  const at = link.online ? Date.now() : Math.max(receivedAt, link.lastMessageAt ?? receivedAt);
  renderShotClock(el, m && !m.over ? m.shot_clock : null, env.hub_ms, receivedAt, at);
  renderMatchTime(document.getElementById("match-time"), m ? m.race : null, env.hub_ms, receivedAt, at);
}

const link = live(`/ws/tables/${encodeURIComponent(table)}`, {
  onMessage(msg) {
    if (msg.type !== "state") return;
    env = msg;
    receivedAt = Date.now();
    render(msg);
    tickShot();
    fitAll();
    document.body.dataset.rev = String(msg.rev);
  },
  onStatus: () => tickShot(),
});
setInterval(tickShot, 250);

/** The flash at the end of a frame: its winner (the bar is small: the frame score beside the names says the rest);
 * once a race is won, the match's winner. */
function winText(m, race) {
  if (race && race.winner != null) return tn("match_wins", { who: m.players[race.winner] });
  return m.winner != null ? tn("wins", { who: m.players[m.winner] }) : t("draw");
}
