// Wall board /board/<table>: the match for a 1920x1080 screen read from five metres.
import { lang, t, pick, colourName, foulLabel, pageTitle, langToggle } from "./i18n.js";
import { h, fill, ball, ballInfo, tableSvg, flashPockets, pocketHealth, clockText, tableFromPath, nameNode, tn } from "./dom.js";
import { live } from "./ws.js";
import { fitAll, fitOnResize } from "./fit.js";
import { loadVariants, foulOf } from "./variants.js";
import { raceOf, raceLabel, frameDots, handicapTag, raceVerdict, renderMatchTime } from "./race.js";
import { renderShotClock } from "./shotclock.js";

const table = tableFromPath();
let env = null; // the last state envelope
let receivedAt = Date.now();
let seenDrops = null; // pocketed items already shown (null until the first state: no flash on load)
let seenFoulStep = null;
let foulTimer = null;
let svg = null;
let svgHealth = "";

function render() {
  const m = env.match;
  const last = !m && env.last_match;
  document.getElementById("idle").hidden = Boolean(m || last);
  document.getElementById("win").hidden = !(last || (m && m.over && m.status !== "held"));
  document.body.classList.toggle("provisional", Boolean(m && m.provisional));
  document.body.classList.toggle("held", Boolean(m && isHeld(m)));
  fill("club", env.club ? nameNode(env.club) : null);
  fill("table-name", nameNode(env.name || `${t("table")} ${env.table}`));
  const b = m || last;
  if (!b) { renderIdle(); fill("variant"); fill("target"); fill("race"); fill("banner"); fitAll(); return; }
  fill("variant", pick(b.title));
  fill("target", b.target ? t("target", { n: b.target }) : "");
  fill("race", raceLabel(raceOf(b))); // a race: "race to 3 · frame 2" (js/race.js)
  renderPlayer(b, 0);
  renderPlayer(b, 1);
  renderTable(b);
  renderBanner(b);
  renderLastShot(b);
  renderFoul(b);
  if (last || b.over) renderWin(b, Boolean(last));
  fitAll(); // names, the header, the last shot: smaller, then on two lines, never cut (js/fit.js)
}

function renderPlayer(b, i) {
  const turn = !b.over && b.to_play === i && !(b.needs || []).some((n) => n.kind === "lag");
  const el = document.getElementById(`p${i}`);
  el.classList.toggle("turn", turn);
  const series = b.series || {};
  const toWin = Array.isArray(b.to_win) ? b.to_win[i] : null;
  const shelf = (b.shelves && b.shelves[i]) || [];
  const debt = b.debts && b.debts[i];
  const star = b.star;
  const pending = b.provisional && b.committed_scores && b.committed_scores[i] !== b.scores[i];
  const race = raceOf(b);
  fill(el,
    h("div.name", { translate: "no", "data-fit": "0.4,2" }, b.players[i]),
    race ? h("div.race", {}, frameDots(race, i), handicapTag(race, i)) : null,
    h("div.turn-tag", {}, turn ? `▶ ${t("turn")}` : ""),
    h(`div.score${pending ? ".pending" : ""}`, { dataset: { seat: String(i) } }, String(b.scores[i])),
    h("div.facts", {},
      toWin != null && !b.over ? h("span.towin", {}, t("needs_to_win", { n: toWin })) : null,
      turn ? h("span", {}, `${t("run")} ${series.run ?? 0}`) : null,
      turn ? h("span", {}, `${t("visits")} ${series.visit ?? 0}`) : null,
      debt ? h("span.debt", {}, `${t("debt")} ${debt}`) : null),
    star ? h("div.star", { "data-fit": "0.45,1" }, h("span.lbl", {}, t("next_colour")), ball(-1, { colour: star.next[i], label: "" }),
      h("span.seq", {}, (star.sequences?.[i] || []).map((c, k) => ball(-1, { colour: c, label: "" },
        k < (star.done?.[i] ?? 0) ? "gone" : "")))) : null,
    h("div.shelf", {}, shelf.map((n) => ball(n, ballInfo(b, n)))),
  );
}

function renderTable(b) {
  const health = pocketHealth(env.devices.filter((d) => d.role === "pocket"));
  const key = JSON.stringify(health);
  if (!svg || key !== svgHealth) {
    svg = tableSvg({ health });
    svgHealth = key;
    fill("table", svg);
  }
  const drops = ((b.shot && b.shot.pocketed) || []).map((p) => [p.item, p.pocket]);
  if (seenDrops !== null) {
    const fresh = drops.filter(([item]) => !seenDrops.has(item)).map(([, p]) => p);
    if (fresh.length) flashPockets(svg, fresh);
  }
  seenDrops = new Set(drops.map(([item]) => item));
  const left = b.points_left;
  fill("left", b.on_table ? h("div.onTable", {}, b.on_table.map((n) => ball(n, ballInfo(b, n)))) : null,
    left ? h("div.pts", {}, t("points_left", { n: left })) : null);
}

function chip(text, cls = "") { return h(`span.chip${cls ? "." + cls : ""}`, { "data-fit": "0.6,1" }, text); }

/** The chips in the order the referee must act on them: the lag, balls to put back by hand, the cue ball in
 * hand, the decider; then what the players need to know (Star's next colour, #10, the break, the bonus). */
function bannerChips(b) {
  const chips = [];
  if ((b.needs || []).some((n) => n.kind === "lag")) return [chip(t("lag"), "gold"), ...placedChips(b)];
  if (b.over) return []; // the win screen says it
  chips.push(...placedChips(b));
  if (b.in_hand === "house") chips.push(chip(t("in_hand_house"), "gold"));
  if (b.in_hand === "anywhere") chips.push(chip(t("in_hand_anywhere"), "gold"));
  if (b.classic && b.classic.decider) {
    chips.push(chip([t("decider"), b.classic.decider_ball != null
      ? ball(b.classic.decider_ball, ballInfo(b, b.classic.decider_ball)) : null], "red"));
  }
  if (b.star && b.star.next) {
    const c = b.star.next[b.to_play];
    chips.push(chip([`${t("next_colour")}: ${colourName(c)}`, ball(-1, { colour: c, label: "" })], "gold"));
  }
  if (b.hundred && b.hundred.ten) {
    chips.push(chip([ball(10, ballInfo(b, 10)), b.hundred.ten === "table" ? t("ten_on") : t("ten_off")]));
    if (b.hundred.control_ball != null) chips.push(chip(tn("control_ball", { who: b.players[b.hundred.control_ball] })));
  }
  if (b.is_break) chips.push(chip(t("is_break")));
  if (b.classic && b.classic.decider === false && b.classic.bonus_given === false && b.on_table?.length <= 2) {
    chips.push(chip(t("last_ball_bonus")));
  }
  return chips;
}

/** The strip shows the chips that fit, first first; the rest collapse into one "+N" chip that names them for a
 * screen reader. A lone chip too long for the strip is made smaller (js/fit.js). */
function renderBanner(b) {
  const chips = bannerChips(b);
  const strip = fill("banner", chips);
  const hidden = [];
  let more = null;
  while (chips.length - hidden.length > 1 && strip.scrollWidth > strip.clientWidth + 1) {
    const last = chips[chips.length - 1 - hidden.length];
    hidden.unshift(last);
    last.remove();
    more?.remove();
    more = h("span.chip.more", { title: hidden.map((c) => c.textContent).join("; ") },
      t("chips_more", { n: hidden.length }));
    strip.append(more);
  }
  fitAll(strip);
}

/** Balls the referee puts on a spot by hand, worded from the spot's code in the screen's language. A new rack
 * (the apex on the foot spot, the rest "rack") is one chip: the apex ball and how many balls to rack. */
function placedChips(b) {
  const placed = b.placed || [];
  const rack = placed.some((p) => p.spot === "rack");
  const apex = rack ? placed.find((p) => p.spot === "foot_spot") : null;
  const inRack = (p) => p.spot === "rack" || p === apex;
  const out = placed.filter((p) => !inRack(p)).map((p) => chip([ball(p.ball, ballInfo(b, p.ball)),
    TEXT_SPOTS.has(p.spot) ? t(`spot_${p.spot}`) : pick(p)], "red"));
  if (rack) {
    out.unshift(chip([apex ? ball(apex.ball, ballInfo(b, apex.ball)) : null,
      t("placed_rack", { n: placed.filter(inRack).length })], "red"));
  }
  return out;
}
const TEXT_SPOTS = new Set(["foot_spot", "centre_spot", "head_spot", "spotting_line", "toward_centre", "foot_rail",
  "house", "anywhere"]);

// What the referee must settle before the score stands: a ball to name, a sensor finding to confirm, a decision.
const CHECKS = new Set(["identify", "confirm", "decide"]);
const checkQuestion = (b) => (b.questions || []).find((q) => CHECKS.has(q.action));
const isHeld = (b) => b.status === "held" || Boolean(checkQuestion(b));

function heldText(b) {
  const q = checkQuestion(b) || (b.questions || [])[0];
  const a = (b.alerts || []).find((x) => x.severity === "error");
  const what = q ? pick(q) : a ? pick(a) : "";
  return what ? t("held", { what }) : t("held_plain");
}

function renderLastShot(b) {
  const hist = b.history || [];
  const step = hist[hist.length - 1];
  const parts = [];
  if (isHeld(b)) parts.push(h("span.heldmark", { role: "status", "data-fit": "0.55,2" }, heldText(b)));
  else if (b.provisional) parts.push(h("span.provmark", {}, t("provisional")));
  // an open shot is shown as it stands now (provisional); otherwise the last committed step
  const open = b.provisional && b.shot ? b.shot : null;
  const reasons = (open || !step ? b.last_reasons : step.reasons) || [];
  const number = open ? open.number : step && step.number;
  const head = number != null ? t("last_shot", { n: number }) : "";
  const deltas = open && b.committed_scores ? b.scores.map((x, i) => x - b.committed_scores[i])
    : (step && step.deltas) || b.deltas || [0, 0];
  const gain = deltas.map((d, i) => (d ? [nameNode(b.players[i]), ` ${d > 0 ? "+" : ""}${d}`] : null)).filter(Boolean);
  const line = reasons.map(pick).filter(Boolean);
  if (!head && !line.length && !parts.length) parts.push(h("span.muted", {}, t("no_shots")));
  fill("lastshot", parts,
    head ? h("span.num", {}, head) : null,
    gain.length ? h("span.gain", { "data-fit": "0.45,2" }, gain.map((g, k) => [k ? " · " : "", ...g])) : null,
    line.length ? h("span.reason", { "data-fit": "0.6,2" }, line.join(" · ")) : null);
}

function renderFoul(b) {
  const hist = b.history || [];
  const step = hist[hist.length - 1];
  const key = step ? `${b.match_id}:${hist.length}:${step.number}:${step.kind}` : null;
  const fouled = step && step.fouls && step.fouls.length;
  if (key && fouled && seenFoulStep !== null && key !== seenFoulStep) {
    // the foul as the panel names it (the engine's words and rule, GET /api/variants), else the step's reason
    const named = step.fouls.map((f) => foulOf(b.variant, f)).filter(Boolean);
    const why = named.length ? named.map((f) => foulLabel(f)).join(" · ")
      : (step.reasons || []).map(pick).find((r) => /\d/.test(r)) || "";
    const el = fill("foul", h("div.big", {}, t("foul")), h("div.why", {}, why));
    el.hidden = false;
    clearTimeout(foulTimer);
    foulTimer = setTimeout(() => { el.hidden = true; }, 5000);
  }
  seenFoulStep = key ?? "";
}

function renderWin(b, ended) {
  const race = raceOf(b);
  if (race) { renderRaceWin(b, race, ended); return; }
  const w = b.winner;
  fill("win",
    h("div.label", {}, b.draw ? t("draw") : t("final")),
    w != null ? h("div.winner", { "data-fit": "0.35,2" }, tn("wins", { who: b.players[w] })) : null,
    h("div.final", {}, h("span.fname", { translate: "no", "data-fit": "0.4,3" }, b.players[0]),
      h("b", {}, `${b.scores[0]} : ${b.scores[1]}`), h("span.fname", { translate: "no", "data-fit": "0.4,3" }, b.players[1])),
    h("div.sub", {}, pick(b.title)), ended ? qrNext() : null);
}

/** The end of a frame of a race: the frame score big, the frame's own score under it, and what comes next (the
 * next frame's breaker), or the match's winner. */
function renderRaceWin(b, race, ended) {
  const done = race.over || ended;
  const w = done ? race.winner : b.winner;
  const who = w != null ? (done ? tn("match_wins", { who: b.players[w] }) : tn("frame_wins", { who: b.players[w], n: race.frame })) : null;
  fill("win",
    h("div.label", {}, done ? t("final_match") : t("final_frame", { n: race.frame })),
    who ? h("div.winner", { "data-fit": "0.35,2" }, who) : null,
    h("div.final", {}, h("span.fname", { translate: "no", "data-fit": "0.4,3" }, b.players[0]),
      h("b", {}, `${race.score[0]} : ${race.score[1]}`), h("span.fname", { translate: "no", "data-fit": "0.4,3" }, b.players[1])),
    h("div.sub", {}, `${t("frame_n", { n: race.frame })}: ${b.scores[0]} : ${b.scores[1]} · ${raceLabel(race).split(" · ")[0]}`),
    h("div.sub.verdict", { "data-fit": "0.5,2" }, raceVerdict(race, b.players)),
    ended ? qrNext() : null);
}

function qrNext() {
  return h("div.next", {}, h("img.qr", { src: `/api/tables/${encodeURIComponent(table)}/qr.svg?lang=${lang}`,
    alt: t("qr_alt") }), h("span", {}, t("idle_hint")));
}

function renderIdle() {
  fill("idle",
    h("div.title", {}, t("idle")),
    h("div.tname", { translate: "no", "data-fit": "0.4,2" }, env.name || `${t("table")} ${env.table}`),
    h("img.qr", { src: `/api/tables/${encodeURIComponent(table)}/qr.svg?lang=${lang}`, alt: t("qr_alt") }),
    h("div.hint", {}, t("idle_hint")));
}

// The match clock runs on the hub's time; while the link is down it stops at the hub's last word (js/ws.js).
function tick() {
  const b = env && (env.match || env.last_match);
  const c = b && b.clock;
  const end = c && c.ended_ms;
  const at = link.online ? Date.now() : Math.max(receivedAt, link.lastMessageAt ?? receivedAt);
  fill("clock", c ? clockText(c.started_ms, end ?? env.hub_ms, end ? at : receivedAt, at) : "");
  tickShot();
}

// The shot clock (js/shotclock.js): big in the centre, red and larger in the last 10 s, "Time!" at 0; only while a
// match is in play (the final screen covers it).
function tickShot() {
  const el = document.getElementById("shotclock");
  const m = env && env.match;
  const at = link.online ? Date.now() : Math.max(receivedAt, link.lastMessageAt ?? receivedAt);
  const c = renderShotClock(el, m && !m.over ? m.shot_clock : null, env && env.hub_ms, receivedAt, at);
  document.body.dataset.shotClock = c.phase;
  // the match time (general A-G6) beside the race: h:mm:ss counting down, "Time!" once up (js/race.js)
  renderMatchTime(document.getElementById("match-time"), m ? m.race : null, env && env.hub_ms, receivedAt, at);
}

pageTitle("title_board");
document.querySelector(".topbar .right").append(langToggle());
loadVariants(); // the fouls' names (the board's flash says what the panel's button says)
const link = live(`/ws/tables/${encodeURIComponent(table)}`, {
  onMessage(msg) {
    if (msg.type !== "state") return;
    env = msg;
    receivedAt = Date.now();
    render();
    tick();
    document.body.dataset.rev = String(msg.rev);
  },
  onStatus: () => { if (env) tick(); }, // offline: the clock stops now, at the hub's last word
});
setInterval(tick, 1000);
setInterval(() => { if (env) tickShot(); }, 250); // the shot clock's seconds turn on time
fitOnResize(() => { if (env) render(); }); // a new size: the chip strip and every fitted text again
