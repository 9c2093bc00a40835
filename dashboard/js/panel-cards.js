// The referee panel's cards: open questions, alerts, the two-tap call, the current shot, fouls and facts,
// the last shots. Each card is a function of (ctx, board) returning an element; ctx.send(kind, fields) acts.
import { t, pick, colourName, foulLabel, foulName, foulCite, citeText, FACT_LABELS, lang } from "./i18n.js";
import { h, ball, ballInfo, nameNode } from "./dom.js";
import { pickBall, pickPocket, pickOption } from "./sheet.js";
import { profileOf, foulOf } from "./variants.js";
import { nextCalls } from "./panel-taps.js";

const COLOURS = ["ivory", "yellow", "blue", "black", "green", "red"];
const GENERAL_FOULS = ["miss", "bad_break", "bad_cue_strike", "touch", "push", "not_completed"];  // until loaded

const takesCalls = (board) => Boolean(profileOf(board.variant)?.calls);

// each card a named place the keyboard can reach (the skip link goes to #card-shot)
const card = (cls, title, ...body) => h(`section.card.${cls}`, { id: `card-${cls}`, tabindex: "-1" },
  title ? h("h2", {}, title) : null, ...body);
const btn = (label, onclick, cls = "") => h(`button.btn.act${cls ? "." + cls : ""}`, { type: "button", onclick }, label);

function timeOf(board, ms) {
  const start = board.clock && board.clock.started_ms;
  if (ms == null || start == null || ms < start) return "";
  const s = Math.floor((ms - start) / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function evidence(board, q) {
  const p = ((board.shot && board.shot.pocketed) || []).find((x) => x.item === q.item)
    || ((board.shot && board.shot.late) || []).find((x) => x.item === q.item);
  if (!p) return null;
  return h("div.evidence", {}, t("evidence", { pocket: p.pocket, time: timeOf(board, p.at_ms) }),
    p.seen ? h("span", {}, ` · ${t("seen_colour", { c: colourName(p.seen) })}`) : null);
}

function optionsOf(q) {
  return q.choices.map((c) => [c.value, pick(c.label)]); // every option, labelled by the hub
}

/** The referee action that answers question `q` with `value`. */
export function answerOf(q, value) {
  const num = (v) => (/^\d+$/.test(String(v)) ? Number(v) : v);
  switch (q.action) {
    case "identify":
      return COLOURS.includes(value) ? ["identify", { item: q.item, colour: value }] : ["identify", { item: q.item, ball: num(value) }];
    case "confirm": return ["confirm", { question: q.id, answer: value }];
    case "lag": return ["lag", { winner: num(value) }];
    case "choose": return ["choose", { player: q.player ?? 0, option: String(value) }];
    case "decide": return ["decide", { option: String(value) }];
    case "fact":
      return COLOURS.includes(value) ? ["fact", { name: "cue_colour", value }] : ["fact", { name: "cue_ball", value: num(value) }];
    case "add_ball": // a ball reported at an impossible time (hub/ingest/suspects.py): add it, or no ball fell
      return value === "add" ? ["add_ball", q.shot ? { pocket: q.pocket, shot_number: q.shot } : { pocket: q.pocket }]
        : ["dismiss_alert", { alert: q.id }];
    default: return [q.action, {}];
  }
}

function questionCard(ctx, board, q) {
  let opts = optionsOf(q);
  if (q.action === "lag") opts = [[0, nameNode(board.players[0])], [1, nameNode(board.players[1])]]; // a seat
  const isBall = ["identify", "fact", "choose"].includes(q.action) && opts.length > 0
    && opts.every(([v]) => /^\d+$/.test(String(v)));
  const answer = async (v) => {
    const [kind, fields] = answerOf(q, v);
    if (q.action === "choose" && /ball/.test(String(v))) { // a penalty ball to take: the ball grid
      const pool = q.balls && q.balls.length ? q.balls : (board.on_table || []).filter((x) => x !== 0);
      const n = await pickBall(pick(q), board, pool);
      if (n === null) return;
      fields.ball = n;
    }
    ctx.send(kind, fields);
  };
  const body = q.action === "declare" ? [btn(t("declare"), () => declareFlow(ctx, board), "primary")]
    : h(`div.${isBall ? "ball-grid" : "answers"}`, {}, opts.map(([v, label]) => {
      const face = isBall ? ball(Number(v), ballInfo(board, Number(v))) : label;
      return h(`button.btn.act.answer${isBall ? ".ball-btn" : ""}`, { type: "button", dataset: { value: String(v) },
        onclick: () => answer(v) }, face);
    }));
  return h("article.question", { dataset: { id: q.id } },
    h("p.qtext", {}, pick(q)), q.cite ? h("div.cite", {}, citeText(q.cite)) : null, evidence(board, q), body);
}

export function questionsCard(ctx, board) {
  // a called variant's "call before the shot" is the call card's business, not a question
  const qs = (board.questions || []).filter((q) => !(takesCalls(board) && q.action === "declare"));
  if (!qs.length) return null;
  return card("questions", `${t("questions")} (${qs.length})`, qs.map((q) => questionCard(ctx, board, q)));
}

export function alertsCard(ctx, board) {
  const list = board.alerts || [];
  if (!list.length) return null;
  return card("alerts", t("alerts"), list.map((a) => h(`div.alert.${a.severity || "warning"}`, { dataset: { id: a.id } },
    h("p", {}, pick(a)), a.severity !== "error" ? btn(t("dismiss"), () => ctx.send("dismiss_alert", { alert: a.id }), "small") : null)));
}

/** Two taps: the ball, then the pocket (a cue-ball call «свояк» through the grid's extra button). */
export async function declareFlow(ctx, board) {
  const balls = (board.on_table || []).filter((n) => n !== 0);
  const b = await pickBall(t("declare_ball"), board, balls, [["cue", t("declare_cue")]]);
  if (b === null) return;
  const pocket = await pickPocket(t("declare_pocket"));
  if (pocket === null) return;
  await ctx.send("declare", b === "cue" ? { calls: [{ ball: 0, pocket, kind: "cue_ball" }] } : { ball: b, pocket });
}

/** The call is offered only where the engine asks for one now (its `declaration` need: Classic 5.2 not on the
 * break, 100 points §2 on the break too); the hub refuses any other call when it is tapped. */
export function callAllowed(board) {
  return takesCalls(board) && (board.needs || []).some((n) => n.kind === "declaration") && !board.over;
}

export function declareCard(ctx, board) {
  if (!takesCalls(board)) return null;
  const asked = (board.questions || []).find((q) => q.action === "declare");
  const offer = callAllowed(board)
    ? [h("button.btn.act.primary.huge", { type: "button", id: "declare", onclick: () => declareFlow(ctx, board) },
      t("declare")), asked ? h("div.cite", {}, pick(asked)) : null]
    : [board.is_break ? h("div.cite", { id: "no-call" }, t("no_call_break")) : null];
  const calls = nextCalls(ctx, board);
  if (!offer.some(Boolean) && !calls.length) return null;
  return card("declare", null, offer, calls);
}

function target(ctx) { return ctx.shotNumber != null ? { shot_number: ctx.shotNumber } : {}; }

export function shotCard(ctx, board) {
  const s = board.shot;
  if (!s) return null;
  const rows = (s.pocketed || []).map((p) => h("div.pot", { dataset: { item: p.item } },
    h("span.pk", {}, `${p.pocket}`),
    p.ball != null ? ball(p.ball, ballInfo(board, p.ball)) : (p.colour ? ball(-1, { colour: p.colour, label: "?" }) : h("span.ball", {}, "?")),
    h("span.src", {}, p.source === "referee" ? t("source_referee") : t("source_sensor")),
    btn(t("reidentify"), async () => {
      const n = await pickBall(t("reidentify"), board, allBalls(board));
      if (n !== null) ctx.send("identify", { item: p.item, ball: n });
    }, "small"),
    btn(t("remove"), () => ctx.send("remove", { item: p.item }), "small.danger")));
  const head = `${t("shot_n", { n: s.number })}${s.status === "open" ? " · " + t("provisional").toLowerCase() : ""}`;
  return card("shot", head,
    ctx.shotNumber != null ? h("div.targeting", {}, t("shot_n", { n: ctx.shotNumber }),
      btn("✕", () => { ctx.shotNumber = null; ctx.render(); }, "small")) : null,
    (s.fouls || []).length ? h("div.fouls-on", {}, s.fouls.map((f) => h("span.tag.red", {},
      foulLabel(foulOf(board.variant, f), t("foul"))))) : null,
    rows,
    h("div.row", {},
      btn(t("add_ball"), async () => {
        const pocket = await pickPocket(t("add_ball"));
        if (pocket === null) return;
        const n = await pickBall(t("any_ball"), board, allBalls(board), [["?", "?"]]);
        ctx.send("add_ball", { pocket, ...(typeof n === "number" ? { ball: n } : {}), ...target(ctx) });
      }),
      btn(t("jumped"), async () => {
        const n = await pickBall(t("jumped"), board, allBalls(board));
        if (n !== null) ctx.send("jumped", { ball: n, ...target(ctx) });
      })));
}

function allBalls(board) {
  return Object.keys(board.balls).map(Number).sort((a, b) => a - b);
}

function stepLabel(kind) {
  const known = { lag: "step_lag", choose: "step_choose", interference: "interference", concede: "step_concede",
    decide: "decide" };
  return known[kind] ? t(known[kind]) : kind;
}

export function foulsCard(ctx, board) {
  const s = board.shot;  // the fouls the referee called (on again = taken back); those an answer gave are the shot's
  const on = new Set(s ? s.called_fouls : []);
  const profile = profileOf(board.variant);
  const fouls = profile ? profile.fouls : GENERAL_FOULS.map((code) => ({ code }));
  const facts = profile ? profile.referee_facts : [];
  return card("fouls", t("fouls"),
    h("div.foul-grid", {}, fouls.map((f) => h(`button.btn.act.foul${on.has(f.code) ? ".on" : ""}`, {
      type: "button", dataset: { foul: f.code }, "aria-pressed": on.has(f.code) ? "true" : "false",
      onclick: () => ctx.send("foul", { foul: f.code, on: !on.has(f.code), ...target(ctx) }) },
    h("span.fname", {}, f.en ? foulName(f) : f.code), f.cite ? h("small.fcite", {}, foulCite(f)) : null))),
    facts.length ? h("h2", {}, t("facts")) : null,
    h("div.foul-grid", {}, facts.map((f) => factButton(ctx, board, f.name, f.type))));
}

function factButton(ctx, board, name, kind) {
  const label = FACT_LABELS[name] ? FACT_LABELS[name][lang === "en" ? 0 : 1] : name;
  const value = board.shot && board.shot.facts ? board.shot.facts[name] : undefined;
  const shown = value == null ? "" : ` · ${value === true ? t("on") : value === false ? t("off") : kind === "colour" ? colourName(value) : value}`;
  return btn(`${label}${shown}`, async () => {
    let v;
    if (kind === "ball") v = await pickBall(label, board, allBalls(board));
    else if (kind === "colour") v = await pickOption(label, COLOURS.map((c) => [c, colourName(c)]));
    else if (kind === "count") v = await pickOption(label, Array.from({ length: 9 }, (_, i) => [i, String(i)]));
    else if (kind === "bool") v = await pickOption(label, [[true, t("yes")], [false, t("no")]]);
    else v = !value;
    if (v !== null) ctx.send("fact", { name, value: v, ...target(ctx) });
  }, value ? "on" : "");
}

export function historyCard(ctx, board) {
  const hist = (board.history || []).slice().reverse();
  if (!hist.length) return null;
  return card("history", t("history"), hist.map((s) => h(`button.btn.hist${s.number != null && ctx.shotNumber === s.number ? ".on" : ""}`, {
    type: "button", onclick: () => { if (s.number == null) return; ctx.shotNumber = ctx.shotNumber === s.number ? null : s.number; ctx.render(); },
  },
  h("span.n", {}, s.number != null ? t("shot_n", { n: s.number }) : stepLabel(s.kind)),
  h("span.sc", {}, t("score_after", { a: s.scores[0], b: s.scores[1] })),
  h("span.why", {}, (s.reasons || []).map(pick).slice(-1)[0] || ""))));
}
