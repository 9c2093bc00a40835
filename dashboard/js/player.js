// One player /player?id=N (GET /api/players/{id}): the photo and names, the rating, every figure recomputed from
// the stored matches, fouls by the rule they broke, the pockets used, head to head with the handicap the ratings
// suggest, the recent matches (each opens its match page); with the club's sign-in, merging a duplicate in.
import { withLang, lang, t, langToggle, citeText } from "./i18n.js";
import { h, fill, nameNode } from "./dom.js";
import { getJson, club, ApiError } from "./api.js";
import { ht, when } from "./history-texts.js";
import { st, playerName, seconds } from "./stats-texts.js";

const id = new URLSearchParams(location.search).get("id") || "";

function fail(e) {
  const err = document.getElementById("error");
  err.hidden = false;
  fill(err, lang === "en" ? e.en : e.ru);
}

function card(key, value, sub = null, name = key) {
  return h("div.card-f", { dataset: { figure: name } }, h("span.k", {}, st(key)), h("div.v", {}, value),
    sub ? h("div.s", {}, sub) : null);
}

function who(p) {
  const f = p.figures;
  fill("who",
    p.photo_url ? h("img", { src: p.photo_url, alt: st("photo", { name: playerName(p) }) }) : null,
    h("div.names", {}, h("b", {}, nameNode(p.name)), h("span.en", {}, nameNode(p.name_en)),
      p.nickname ? h("span", {}, `${st("nickname")}: `, nameNode(p.nickname)) : null,
      p.club ? h("span", {}, `${st("club_name")}: `, nameNode(p.club)) : null),
    f ? h("div.rating", { id: "rating" }, h("span.k", {}, st("rating")), h("b", {}, f.rating.toFixed(1)),
      h("span.s", {}, st("rated", { n: f.rated }))) : null);
}

function cards(f) {
  const m = f.matches;
  const run = f.best_run;
  const pct = f.pot_rate == null ? null : Math.round(f.pot_rate * 100);
  fill("cards",
    card("matches", String(m.played), [st("won", { n: m.won }), st("lost", { n: m.lost }), m.drawn ? st("drawn", { n: m.drawn }) : null,
      m.unfinished ? st("unfinished", { n: m.unfinished }) : null].filter(Boolean).join(", ")),
    card("frames", String(f.frames.played), st("frames_line", { w: f.frames.won, l: f.frames.lost })),
    card("points", st("points_line", { f: f.points.for, a: f.points.against })),
    card("best_run", run ? st("run_line", { b: run.balls, p: run.points }) : st("no_data"),
      run ? st("run_when", { date: when(run.at_ms), m: run.match }) : null),
    card("pot_rate", pct == null ? st("no_data") : `${pct}%`,
      pct == null ? null : st("pot_line", { pct, n: f.potting_shots, of: f.shots })),
    card("balls_per_visit", f.balls_per_visit == null ? st("no_data") : f.balls_per_visit.toFixed(2),
      f.balls_per_visit == null ? null : st("visit_line", { v: f.balls_per_visit.toFixed(2), balls: f.balls, visits: f.visits })),
    card("shot_time", f.shot_time.count ? t("seconds", { n: seconds(f.shot_time.average_ms) }) : st("no_data"),
      f.shot_time.count ? [st("time_line", { avg: seconds(f.shot_time.average_ms), max: seconds(f.shot_time.longest_ms) }),
        st("time_count", { n: f.shot_time.count })].join("; ") : null),
    card("breaks", String(f.breaks.count), st("breaks_line", { n: f.breaks.count, pot: f.breaks.pot, foul: f.breaks.foul,
      none: f.breaks.none, balls: f.breaks.balls })));
}

function fouls(f) {
  const list = Object.entries(f.fouls);
  fill("fouls", list.length ? h("ul.fouls-list", {}, list.map(([cite, n]) =>
    h("li", { dataset: { cite } }, h("cite", {}, citeText(cite)), ` — ${n}`))) : h("p.note", {}, st("no_fouls")));
  // the pockets as the table lies, head end first: 1 2 / 3 4 / 5 6
  fill("pockets", ["1", "2", "3", "4", "5", "6"].map((k) =>
    h("div", { dataset: { pocket: k } }, st("pocket_n", { n: k, count: f.pockets[k] ?? 0 }))));
}

function handicapText(hc) {
  if (!hc || !hc.to) return st("even");
  return st(hc.to === "me" ? "give_me" : "give_them", { p: hc.points, t: hc.target });
}

function h2h(list) {
  const head = h("tr", {}, [st("opponent"), st("record"), st("points"), st("handicap")].map((x) => h("th", {}, x)));
  fill("h2h", h("thead", {}, head), h("tbody", {}, list.map((x) => h("tr", { dataset: { opponent: x.opponent.id } },
    h("td", {}, h("a", { href: withLang(`/player?id=${x.opponent.id}`) }, nameNode(playerName(x.opponent)))),
    h("td", {}, `${x.won} — ${x.lost}${x.drawn ? ` — ${x.drawn}` : ""}`),
    h("td", {}, `${x.points_for} : ${x.points_against}`),
    h("td", {}, handicapText(x.handicap))))));
}

function recent(list) {
  const head = h("tr", {}, ["#", st("date"), st("opponent"), st("score"), st("result")].map((x) => h("th", {}, x)));
  fill("recent", h("thead", {}, head), h("tbody", {}, list.map((r) => h("tr", { dataset: { match: r.match } },
    h("td", {}, h("a", { href: withLang(`/match?id=${r.match}`) }, `#${r.match}`)), h("td", {}, when(r.started_ms)),
    h("td", {}, r.opponent.id ? h("a", { href: withLang(`/player?id=${r.opponent.id}`) }, nameNode(r.opponent.name))
      : nameNode(r.opponent.name)),
    h("td.num", {}, `${r.scores[0]}:${r.scores[1]}`), h("td", {}, st(`r_${r.result}`))))));
}

async function mergeIn(ev) {
  ev.preventDefault();
  const msg = document.getElementById("merge-msg");
  const dup = Number(document.getElementById("dup").value);
  try {
    const res = await fetch("/api/players/merge", { method: "POST", headers: { "Content-Type": "application/json",
      Authorization: `Bearer ${club.token}` }, body: JSON.stringify({ duplicate: dup, into: Number(id) }) });
    const body = await res.json().catch(() => null);
    if (!res.ok) throw new ApiError(res.status, body);
    fill(msg, st("merged_ok", { n: body.moved_matches })).className = "ok-msg";
    await load();
  } catch (e) {
    fill(msg, lang === "en" ? e.en : e.ru).className = "err";
  }
}

async function load() {
  const p = await getJson(`/api/players/${encodeURIComponent(id)}`);
  document.title = `${t("brand")} — ${playerName(p)}`;
  fill("title", playerName(p));
  who(p);
  const merged = document.getElementById("merged");
  merged.hidden = p.merged_into == null;
  if (p.merged_into != null) {
    fill(merged, st("merged", { n: p.merged_into }), " ", h("a", { href: withLang(`/player?id=${p.merged_into}`) }, st("open_merged")));
    return;
  }
  cards(p.figures);
  fouls(p.figures);
  h2h(p.head_to_head);
  recent(p.figures.recent);
  document.body.dataset.loaded = id; // a test waits on it
}

async function start() {
  fill("back", st("back")).setAttribute("href", withLang("/players"));
  fill("history-link", ht("matches")).setAttribute("href", withLang("/matches"));
  fill("title", st("player_n", { n: id }));
  if (!document.querySelector(".histhead .lang-toggle")) document.querySelector(".histhead").append(langToggle());
  for (const [el, key] of [["fouls-title", "fouls"], ["pockets-title", "pockets"], ["h2h-title", "h2h"],
    ["recent-title", "recent"], ["merge-title", "merge"], ["l-dup", "merge_id"], ["merge-btn", "merge_btn"], ["formula", "formula"]]) {
    fill(el, st(key));
  }
  document.getElementById("merge-box").hidden = !club.token; // the club's, like the heavy exports
  document.getElementById("merge").addEventListener("submit", mergeIn);
  try {
    await load();
  } catch (e) {
    fail(e);
  }
}

start();
