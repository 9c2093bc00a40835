// One match of the history /match?id=N: the shots with the rules' cited reasons (from the match's JSON export),
// the evidence status, the hub's `luza verify` verdict (GET /api/matches/{id}/verify) and the downloads.
import { pick, withLang, lang, t, langToggle } from "./i18n.js";
import { h, fill } from "./dom.js";
import { getJson, club, ApiError } from "./api.js";
import { ht, when } from "./history-texts.js";
import { st } from "./stats-texts.js";
import { loadVariants } from "./variants.js";

const id = new URLSearchParams(location.search).get("id") || "";
const api = `/api/matches/${encodeURIComponent(id)}`;

function showError(e) {
  const err = document.getElementById("error");
  err.hidden = false;
  fill(err, lang === "en" ? e.en : e.ru);
}

// a registered player's name opens their page (the match names them by id: docs/statistics.md)
function nameOf(m, i) {
  const pid = (m.player_ids || [])[i];
  return pid ? h("a.pn", { href: withLang(`/player?id=${pid}`), dataset: { player: pid } }, m.players[i])
    : h("span.pn", {}, m.players[i]);
}

function summary(doc, variants) {
  const m = doc.match;
  const r = doc.result || {};
  const race = isRace(doc);
  const sc = race ? doc.race.score : r.scores || [0, 0];  // a race: the frame score (its frames below)
  const who = r.draw ? ht("draw") : r.winner_name ? ht("winner", { who: r.winner_name }) : ht(m.status);
  fill("summary",
    h("div.sc", {}, nameOf(m, 0), h("b", {}, `${sc[0]}:${sc[1]}`), nameOf(m, 1)),
    h("div.meta", {}, [race ? ht("race", { n: doc.race.race_to }) : null, pick(m.table.name) || m.table.id, pick((variants.find((v) => v.id === m.variant) || {}).title) || m.variant, when(m.started_ms), who]
      .filter(Boolean).join(" · ")));
}

// A race to N frames (docs/rules/general.md A-G4): the frame score and each frame's breaker, score and winner, from
// the export's `race` and `frames` (docs/exports.md). A single frame shows nothing here.
function isRace(doc) {
  return Boolean(doc.race && (doc.race.race_to > 1 || (doc.frames || []).length > 1));
}

function raceBox(doc) {
  const box = document.getElementById("race");
  if (!isRace(doc)) return;
  const race = doc.race;
  const who = (seat) => (seat == null ? "—" : doc.match.players[seat]);
  const rows = (doc.frames || []).map((f, k) => {
    const r = f.result || {};
    const sc = r.scores || [0, 0];
    return h("tr", { dataset: { frame: k + 1 } }, h("td.num", {}, String(k + 1)), h("td", {}, who(r.breaker)),
      h("td.num", {}, `${sc[0]}:${sc[1]}`), h("td", {}, r.draw ? ht("draw") : who(r.winner)),
      h("td", {}, r.conceded ? ht("conceded") : ""));
  });
  const head = ["col_frame", "col_breaker", "col_score", "col_winner", null].map((k) => h("th", {}, k ? ht(k) : ""));
  box.hidden = false;
  fill(box, h("h2", {}, ht("race", { n: race.race_to })),
    h("p.fscore", { id: "frame-score" }, ht("frames_score", { a: race.score[0], b: race.score[1] })),
    race.abandoned ? h("p", {}, ht("abandoned", { why: race.abandoned })) : null,
    h("table.hist", { id: "frames" }, h("thead", {}, h("tr", {}, head)), h("tbody", {}, rows)));
}

// The shots in order; in a race each frame's shots under its heading (a frame's shots are numbered from 1).
function timeline(doc) {
  const shots = doc.shots || [];
  if (!isRace(doc)) return shots.map(shotItem);
  const out = [];
  let frame = null;
  for (const s of shots) {
    if (s.frame !== frame) {
      frame = s.frame;
      out.push(h("li.frame-head", { dataset: { frame } }, h("h3", {}, ht("frame_n", { n: frame }))));
    }
    out.push(shotItem(s));
  }
  return out;
}

function shotItem(s) {
  const balls = (s.balls || []).map((b) => b.ball ?? "?").join(", ");
  const after = s.score_after ? ht("after", { a: s.score_after[0], b: s.score_after[1] }) : "";
  // the engine's fouls (the referee's calls among them, with the variant's paragraph), then every reason
  const fouls = (s.fouls || []).map((f) => h("li.foul", {}, h("cite", {}, `§${f.cite}`), " ", pick(f)));
  const reasons = (s.reasons || []).map((r) => h("li", {}, h("cite", {}, `§${r.cite}`), " ", pick(r)));
  return h(`li.shot${s.fouls && s.fouls.length ? ".fouled" : ""}`, { dataset: { n: s.number } },
    h("div.shead", {}, h("b", {}, ht("shot", { n: s.number })), h("span", {}, ht("by", { who: s.shooter_name })),
      h("span", {}, balls ? ht("pots", { balls }) : ht("no_pots")), h("span.after", {}, after)),
    h("ul.reasons", {}, fouls, reasons));
}

function evidenceBox(doc) {
  const ev = (doc.verification || {}).evidence || {};
  const ok = ev.complete !== false;
  fill("evidence", h("span.k", {}, ht("evidence")),
    h(`span.badge.${ok ? "verified" : "incomplete"}`, { id: "evidence-status" }, ht(ok ? "complete" : "incomplete")),
    ok ? null : h("p", {}, pick(ev)));
}

async function verdict() {
  fill("verify", h("span.k", {}, ht("verify")), h("span.badge", {}, ht("checking")));
  try {
    const v = await getJson(`${api}/verify`);
    fill("verify", h("span.k", {}, ht("verify")),
      h(`span.badge.${v.status}`, { id: "verify-status", dataset: { status: v.status } }, ht(`st_${v.status}`)),
      h("p", {}, pick(v)), v.problems.length ? h("ul", {}, v.problems.map((p) => h("li", {}, p))) : null);
  } catch (e) {
    fill("verify", h("span.k", {}, ht("verify")), h("p.err", {}, lang === "en" ? e.en : e.ru));
  }
}

// The club's token (its sign-in on the club view, js/api.js `club`) opens the heavy exports (hub/web/heavy.py):
// the PDF is fetched with it.
const clubToken = () => club.token;

async function pdf(ev) {
  ev.preventDefault();
  try {
    const res = await fetch(`${api}/export?format=pdf&lang=${lang}`, { headers: { Authorization: `Bearer ${clubToken()}` } });
    if (!res.ok) throw new ApiError(res.status, await res.json().catch(() => null));
    const a = h("a", { href: URL.createObjectURL(await res.blob()), download: `luza-match-${id}-${lang}.pdf` });
    a.click();
  } catch (e) {
    showError(e);
  }
}

function downloads() {
  const link = (fmt) => h("a.dl", { href: `${api}/export?format=${fmt}&lang=${lang}`, id: `dl-${fmt}`,
    download: fmt === "html" ? null : "" }, fmt.toUpperCase());
  const token = clubToken();
  fill("downloads", link("json"), link("csv"), link("html"),
    token ? h("a.dl", { href: "#", id: "dl-pdf", onclick: pdf }, "PDF") : h("span.note", {}, ht("pdf_club")));
}

async function start() {
  fill("back", ht("back")).setAttribute("href", withLang("/matches"));
  fill("players-link", st("players")).setAttribute("href", withLang("/players"));
  fill("downloads-title", ht("downloads"));
  fill("timeline-title", ht("timeline"));
  fill("title", ht("match_n", { n: id }));
  document.title = `${t("brand")} — ${ht("match_n", { n: id })}`;
  if (!document.querySelector(".histhead .lang-toggle")) document.querySelector(".histhead").append(langToggle());
  downloads();
  verdict();
  try {
    const [doc, variants] = await Promise.all([getJson(api), loadVariants()]);
    summary(doc, variants);
    evidenceBox(doc);
    raceBox(doc);
    if (isRace(doc)) fill("title", ht("race_n", { n: id }));
    fill("timeline", timeline(doc));
  } catch (e) {
    showError(e);
  }
}

start();
