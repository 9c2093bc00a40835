// Match history /matches: search by player (either alphabet: the hub's search is transliteration-aware), table,
// variant and dates; newest first, a page at a time; a row opens the match page.
import { pick, withLang, lang, t, langToggle } from "./i18n.js";
import { h, fill } from "./dom.js";
import { getJson } from "./api.js";
import { loadVariants } from "./variants.js";
import { ht, when } from "./history-texts.js";
import { st } from "./stats-texts.js";

const PAGE = 20;
const params = new URLSearchParams(location.search);
let offset = Number(params.get("offset")) || 0;
const FIELDS = ["player", "table", "variant", "since", "until"];

function label() {
  document.title = `${t("brand")} — ${ht("matches")}`;
  if (!document.querySelector(".histhead .lang-toggle")) document.querySelector(".histhead").append(langToggle());
  fill("title", ht("matches"));
  fill("club-link", `← ${ht("club")}`).setAttribute("href", withLang("/"));
  fill("players-link", st("players")).setAttribute("href", withLang("/players"));
  for (const f of FIELDS) fill(`l-${f === "player" ? "player" : f}`, ht(f === "player" ? "search" : f));
  fill("find", ht("find"));
  fill("prev", ht("prev"));
  fill("next", ht("next"));
}

async function variantChoices() {
  const sel = document.getElementById("variant");
  const list = await loadVariants();
  fill(sel, h("option", { value: "" }, ht("any")), list.map((v) => h("option", { value: v.id }, pick(v.title))));
  sel.value = params.get("variant") || "";
}

function query() {
  const q = new URLSearchParams({ limit: PAGE, offset });
  for (const f of FIELDS) {
    const v = document.getElementById(f).value.trim();
    if (v) q.set(f, v);
  }
  return q;
}

function row(m) {
  const href = withLang(`/match?id=${m.id}`);
  const score = m.scores ? `${m.scores[0]}:${m.scores[1]}` : "—";
  const names = m.players.map((p, i) => h(i === m.winner ? "b" : "span", {}, p));
  return h("tr", { dataset: { id: m.id } },
    h("td", {}, h("a", { href }, `#${m.id}`)), h("td", {}, when(m.started_ms)), h("td", {}, m.table),
    h("td", {}, pick(m.title)), h("td.names", {}, names[0], " — ", names[1]), h("td.num", {}, score),
    h("td", {}, h(`span.st.${m.status}`, {}, ht(m.status))));
}

async function load() {
  const q = query();
  const url = new URL(location.href);
  for (const [k, v] of q) if (k !== "limit") url.searchParams.set(k, v);
  for (const f of FIELDS) if (!q.has(f)) url.searchParams.delete(f);
  history.replaceState(null, "", url);
  const err = document.getElementById("error");
  try {
    const body = await getJson(`/api/matches?${q}`);
    err.hidden = true;
    const head = h("tr", {}, ["#", ht("date"), ht("table"), ht("variant"), ht("players"), ht("score"), ht("status")]
      .map((x) => h("th", {}, x)));
    fill("matches", h("thead", {}, head), h("tbody", {}, body.matches.map(row)));
    fill("found", body.total ? ht("found", { n: body.total }) : ht("none"));
    fill("page", body.total ? ht("page", { a: offset + 1, b: offset + body.matches.length, n: body.total }) : "");
    document.getElementById("prev").disabled = offset === 0;
    document.getElementById("next").disabled = offset + body.matches.length >= body.total;
    document.body.dataset.shown = q.toString(); // the search these rows answer (a test waits on it)
  } catch (e) {
    err.hidden = false;
    fill(err, lang === "en" ? e.en : e.ru);
  }
}

function start() {
  label();
  for (const f of FIELDS) if (params.get(f)) document.getElementById(f).value = params.get(f);
  document.getElementById("search").addEventListener("submit", (ev) => { ev.preventDefault(); offset = 0; load(); });
  document.getElementById("prev").addEventListener("click", () => { offset = Math.max(0, offset - PAGE); load(); });
  document.getElementById("next").addEventListener("click", () => { offset += PAGE; load(); });
  variantChoices().finally(load);
}

start();
