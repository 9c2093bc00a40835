// The leaderboard /players: every registered player by rating, with the figures the hub recomputes from the stored
// matches (GET /api/stats); a search in either alphabet (GET /api/players?q=) narrows the table; a row opens the
// player's page; the whole table as CSV (GET /api/stats.csv).
import { withLang, lang, t, langToggle } from "./i18n.js";
import { h, fill, nameNode } from "./dom.js";
import { getJson } from "./api.js";
import { st, playerName, seconds } from "./stats-texts.js";

const params = new URLSearchParams(location.search);
let board = [];
let counted = 0;

function label() {
  document.title = `${t("brand")} — ${st("players")}`;
  if (!document.querySelector(".histhead .lang-toggle")) document.querySelector(".histhead").append(langToggle());
  fill("title", st("leaderboard"));
  fill("club-link", `← ${st("club")}`).setAttribute("href", withLang("/"));
  fill("history-link", st("history")).setAttribute("href", withLang("/matches"));
  fill("l-player", st("search"));
  fill("find", st("find"));
  fill("csv", st("csv"));
  fill("formula", st("formula"));
}

function row(p, rank) {
  const m = p.matches;
  const run = p.best_run;
  return h("tr", { dataset: { id: p.id } },
    h("td.num", {}, String(rank)),
    h("td", {}, h("a", { href: withLang(`/player?id=${p.id}`) }, nameNode(playerName(p))),
      p.nickname ? h("span.nick", {}, " «", nameNode(p.nickname), "»") : null),
    h("td.num", {}, p.rating.toFixed(1)),
    h("td.num", {}, String(m.played)),
    h("td", {}, `${m.won} — ${m.lost}`),
    h("td", {}, `${p.frames.won} — ${p.frames.lost}`),
    h("td", {}, `${p.points.for} : ${p.points.against}`),
    h("td", {}, run ? String(run.balls) : "—"),
    h("td", {}, p.pot_rate == null ? "—" : `${Math.round(p.pot_rate * 100)}%`),
    h("td", {}, p.balls_per_visit == null ? "—" : p.balls_per_visit.toFixed(2)),
    h("td", {}, seconds(p.shot_time.average_ms)));
}

function show(ids) {
  const head = h("tr", {}, [st("rank"), st("name"), st("rating"), st("matches"), st("won_lost"), st("frames"),
    st("points"), st("best_run"), st("pot_rate"), st("balls_per_visit"), st("shot_time")].map((x) => h("th", {}, x)));
  const rows = board.map((p, i) => [p, i + 1]).filter(([p]) => !ids || ids.has(p.id));
  fill("board", h("thead", {}, head), h("tbody", {}, rows.map(([p, r]) => row(p, r))));
  fill("found", board.length === 0 ? st("none") : rows.length ? st("counted", { n: counted }) : st("not_found"));
}

async function search() {
  const q = document.getElementById("player").value.trim();
  const url = new URL(location.href);
  if (q) url.searchParams.set("q", q); else url.searchParams.delete("q");
  history.replaceState(null, "", url);
  try {
    const ids = q ? new Set((await getJson(`/api/players?q=${encodeURIComponent(q)}&limit=100`)).players.map((p) => p.id)) : null;
    show(ids);
    document.body.dataset.shown = q; // the search these rows answer (a test waits on it)
  } catch (e) {
    fail(e);
  }
}

function fail(e) {
  const err = document.getElementById("error");
  err.hidden = false;
  fill(err, lang === "en" ? e.en : e.ru);
}

async function start() {
  label();
  document.getElementById("player").value = params.get("q") || "";
  document.getElementById("search").addEventListener("submit", (ev) => { ev.preventDefault(); search(); });
  try {
    const body = await getJson("/api/stats");
    board = body.players;
    counted = body.counted;
    const lo = document.getElementById("left-out");
    lo.hidden = !body.left_out.length;
    fill(lo, st("left_out", { list: body.left_out.map((x) => `#${x.match}`).join(", ") }));
    await search();
  } catch (e) {
    fail(e);
  }
}

start();
