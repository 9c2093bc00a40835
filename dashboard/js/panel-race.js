// The referee panel's race (a match of several frames): the start form's race fields (race to N, the break rule,
// the handicap, the match time limit), the card that starts the next frame once a frame is won, and ending a race before it is won.
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { raceOf, raceVerdict, handicapText } from "./race.js";
import { pickOption, confirmSheet } from "./sheet.js";

/** The start form's race fields: race to N, who breaks later frames, the handicap (kind, amount, seat). */
export function raceFields(seatName) {
  const kinds = ["", "points", "balls", "frames"];
  return h("fieldset.race", {}, h("legend", {}, t("race_legend")),
    h("label.field", { for: "race-to" }, h("span", {}, t("race_len")),
      h("input", { id: "race-to", name: "race_to", type: "number", min: 1, max: 25, value: 1, inputmode: "numeric" })),
    h("label.field", { for: "break-rule" }, h("span", {}, t("break_rule")),
      h("select", { id: "break-rule", name: "break_rule" }, ["alternate", "loser", "winner"].map((r) =>
        h("option", { value: r }, t(`break_${r}`))))),
    h("label.field", { for: "hcp-kind" }, h("span", {}, t("handicap_kind")),
      h("select", { id: "hcp-kind", name: "hcp_kind" }, kinds.map((k) =>
        h("option", { value: k }, k ? t(`hcp_kind_${k}`) : t("handicap_none"))))),
    h("label.field", { for: "hcp-amount" }, h("span", {}, t("handicap_amount")),
      h("input", { id: "hcp-amount", name: "hcp_amount", type: "number", min: 1, max: 200, value: 1, inputmode: "numeric" })),
    h("label.field", { for: "hcp-seat" }, h("span", {}, t("handicap_seat")),
      h("select", { id: "hcp-seat", name: "hcp_seat" }, [1, 0].map((s) => h("option.seat-name", { value: s,
        dataset: { seat: String(s) } }, seatName(s).textContent)))),
    h("label.field", { for: "time-limit" }, h("span", {}, t("time_limit")),
      h("input", { id: "time-limit", name: "time_limit_min", type: "number", min: 0, max: 600, value: 0, inputmode: "numeric" })),
    h("label.field", { for: "time-rule" }, h("span", {}, t("time_rule")),
      h("select", { id: "time-rule", name: "time_rule" }, ["finish_frame", "referee"].map((r) =>
        h("option", { value: r }, t(`time_rule_${r}`))))));
}

/** The `race` of new_match from the form, or undefined for one frame with no handicap. */
export function readRace(form) {
  const raceTo = Number(form.querySelector("#race-to")?.value || 1);
  const kind = form.querySelector("#hcp-kind")?.value || "";
  const handicap = kind ? { kind, amount: Number(form.querySelector("#hcp-amount").value || 1),
    seat: Number(form.querySelector("#hcp-seat").value) } : null;
  const limit = Number(form.querySelector("#time-limit")?.value || 0); // general A-G6: 0 = no time limit
  const time = limit > 0 ? { time_limit_min: limit, time_rule: form.querySelector("#time-rule").value } : {};
  if (raceTo <= 1 && !handicap && !limit) return undefined;
  return { race_to: raceTo, break_rule: form.querySelector("#break-rule").value, handicap, ...time };
}

/** At the end of a frame of a race: what it means (the frame's winner, who breaks next, or the match's winner)
 * with the one button that comes next: start the next frame, or end the match. Null while a frame is in play. */
export function raceCard(ctx, m) {
  const r = raceOf(m);
  if (!r || !(r.frame_over || r.over)) return null;
  const next = !r.over;
  return h("section.card.race-card", { id: "card-race" },
    h("h2", {}, `${t("race_to", { n: r.race_to })} · ${t("frames_score", { a: r.score[0], b: r.score[1] })}`),
    h("p.verdict", {}, raceVerdict(r, m.players)),
    r.handicap ? h("p.muted", {}, `${t("handicap")}: ${handicapText(r, m.players)}`) : null,
    next ? h("button.btn.act.primary.huge", { type: "button", id: "next-frame", onclick: () => ctx.send("next_frame") },
      t("next_frame_btn", { n: r.frame + 1 }))
      : h("button.btn.act.primary.huge", { type: "button", id: "end-race", onclick: () => ctx.send("end_match") },
        t("end_match")));
}

const REASONS = { ru: ["Истекло время встречи", "Игрок не может продолжать", "Клуб закрывается"],
  en: ["The match time is up", "A player cannot go on", "The club is closing"] };

/** End the match from the menu: before a race is won it is abandoned, with a reason the referee picks. */
export async function endMatch(ctx, m, lang) {
  const r = raceOf(m);
  if (!r || r.over) {
    if (await confirmSheet(t("confirm_q"))) ctx.send("end_match");
    return;
  }
  const reasons = REASONS[lang] || REASONS.en;
  const reason = await pickOption(`${t("abandon")} — ${t("abandon_reason")}`, reasons.map((x) => [x, x]));
  if (reason !== null) ctx.send("end_match", { reason });
}
