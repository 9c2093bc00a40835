// What the referee entered on the shot shown, each with its way back (issue: every accepted tap can be taken back,
// not only the whole shot by undo). The hub keeps both taps in its log: taking back is a new input (docs/web-api.md).
//   call          -> declare {calls: [], shot}            foul      -> foul {foul, on: false, shot_number}
//   fact          -> fact {name, value: null, shot_number}  answer    -> withdraw {what: "answer", question}
//   ball's number -> withdraw {what: "identity", item}      removed   -> withdraw {what: "removal", item}
import { t, colourName, foulLabel, FACT_LABELS, lang } from "./i18n.js";
import { foulOf } from "./variants.js";
import { h } from "./dom.js";

const QUESTION_LABELS = {
  late_drop: ["Late drop", "Поздний шар"], double_hit: ["Double hit", "Двойное касание"],
  early_start: ["Early strike", "Ранний удар"], out_of_turn: ["Out of turn", "Не в свою очередь"],
  maybe_two: ["One ball or two", "Один шар или два"], shot_clock: ["Time ran out", "Время вышло"],
};
const ANSWER_LABELS = {
  foul: ["foul", "штраф"], no_foul: ["no foul", "без штрафа"], return: ["put back", "вернуть"],
  count: ["counts", "засчитать"], new_shot: ["new shot", "новый удар"], one: ["one", "один"], two: ["two", "два"],
};
const word = (table, key) => (table[key] ? table[key][lang === "en" ? 0 : 1] : key);

/** One entry with its ✕: `what` names it for tests and screen readers. */
function entry(what, label, send, id = "") {
  return h("div.tap", { dataset: { what, id } }, h("span.tap-what", {}, label),
    send ? h("button.btn.act.small.take-back", { type: "button", "aria-label": `${t("take_back")}: ${label}`,
      title: t("take_back"), onclick: send }, "✕") : null);
}

/** A call's text, "Called: 6 into pocket 3" (a cue-ball call «свояк»: ◯). */
export function callText(c, key = "declared") {
  return t(key, { ball: c.kind === "cue_ball" ? "◯" : c.ball, pocket: c.pocket });
}

/** The calls made for the next shot (before it opens), each with its ✕. */
export function nextCalls(ctx, board) {
  const calls = (board.next_shot && board.next_shot.declarations) || [];
  return calls.map((c) => entry("call-next", callText(c, "next_call"),
    () => ctx.send("declare", { calls: [], shot: "next" })));
}

function shotEntries(ctx, s, variant) {
  const at = { shot_number: s.number };
  const out = [];
  if (s.status === "open") {
    for (const c of s.declarations || []) out.push(entry("call", callText(c), () => ctx.send("declare", { calls: [], shot: "current" })));
  }
  for (const f of s.called_fouls || []) out.push(entry("foul", foulLabel(foulOf(variant, f), t("foul")), () => ctx.send("foul", { foul: f, on: false, ...at }), f));
  for (const [name, value] of Object.entries(s.facts || {})) {
    if (value == null || value === false) continue;
    const label = FACT_LABELS[name] ? FACT_LABELS[name][lang === "en" ? 0 : 1] : name;
    const shown = value === true ? "" : `: ${typeof value === "string" ? colourName(value) : value}`;
    out.push(entry("fact", `${label}${shown}`, () => ctx.send("fact", { name, value: null, ...at }), name));
  }
  for (const [q, answer] of Object.entries(s.answers || {})) {
    const label = `${word(QUESTION_LABELS, q.split(":")[0])}: ${word(ANSWER_LABELS, answer)}`;
    const back = answer === "new_shot" ? null : () => ctx.send("withdraw", { what: "answer", question: q });
    out.push(entry("answer", label, back, q)); // a new shot is taken back by undoing that shot
  }
  for (const p of s.pocketed || []) {
    if (p.named) {
      out.push(entry("identity", t("named", { ball: p.ball ?? (p.colour ? colourName(p.colour) : "?"), pocket: p.pocket }),
        () => ctx.send("withdraw", { what: "identity", item: p.item }), p.item));
    }
  }
  for (const p of s.taken_out || []) {
    out.push(entry("removal", t("taken_out", { pocket: p.pocket }), () => ctx.send("withdraw", { what: "removal", item: p.item }), p.item));
  }
  return out;
}

/** "Entered on shot N": everything the referee set on the shot shown, each one can be taken back. */
export function takeBackCard(ctx, board) {
  const s = board.shot;
  const rows = s ? shotEntries(ctx, s, board.variant) : [];
  if (!rows.length) return null;
  return h("section.card.taps", {}, h("h2", {}, t("entered", { n: s.number })), rows);
}
