// The referee panel's start form: variant, names, the variant's labelled options, the race (race to N, break rule,
// handicap: js/panel-race.js), cue pairing, the lag.
import { t, pick } from "./i18n.js";
import { h } from "./dom.js";
import { loadVariants } from "./variants.js";
import { playerPicker } from "./panel-players.js";
import { raceFields, readRace } from "./panel-race.js";
import { shotClockFields, readShotClock } from "./panel-clock.js";

function optionInput(o) {
  const id = `opt-${o.name}`;
  let input;
  if (o.type === "bool") {
    input = h("input", { type: "checkbox", id, name: o.name, checked: Boolean(o.default) });
  } else if (Array.isArray(o.choices) && o.choices.length) {
    input = h("select", { id, name: o.name }, o.choices.map((c) => h("option", {
      value: JSON.stringify(c.value), selected: c.value === o.default }, pick(c.label))));
  } else {
    input = h("input", { type: o.type === "int" ? "number" : "text", id, name: o.name, value: o.default ?? "",
      inputmode: o.type === "int" ? "numeric" : null });
  }
  return h(`label.field${o.type === "bool" ? ".check" : ""}`, { for: id }, h("span", {}, pick(o.label)), input);
}

function readOption(form, o) {
  const el = form.querySelector(`[name="${o.name}"]`);
  if (!el) return undefined;
  if (o.type === "bool") return el.checked;
  if (el.tagName === "SELECT") return JSON.parse(el.value);
  if (o.type === "int") return el.value === "" ? undefined : Number(el.value);
  return el.value;
}

/** The form; `ctx.api.startMatch` then (if the lag is known) a `lag` action. */
export async function startCard(ctx, env) {
  const variants = await loadVariants();
  const cues = (env.devices || []).filter((d) => d.role === "cue");
  const optionsBox = h("div.options");
  const select = h("select", { name: "variant", id: "variant" }, variants.map((v) => h("option", { value: v.id },
    `${pick(v.title)}${v.target ? " · " + t("target", { n: v.target }) : ""}`)));
  const showOptions = () => {
    const v = variants.find((x) => x.id === select.value);
    optionsBox.replaceChildren(...((v && v.options) || []).map(optionInput));
  };
  select.addEventListener("change", showOptions);
  showOptions();
  const last = env.last_match;
  // the names (and the registry's players, if they were chosen) of the last match, to play again
  const inputs = ["pa", "pb"].map((id, s) => h("input", { id, required: true, maxlength: 60, autocomplete: "off",
    value: last ? last.players[s] : "" }));
  const lastIds = (last && last.player_ids) || [null, null];
  const pickers = inputs.map((input, s) => playerPicker(input, s, () => ctx.token(),
    lastIds[s] ? { id: lastIds[s], name: last.players[s] } : null));
  // a seat is named by the name typed above it ("Player 1/2" only while that field is empty)
  const seatName = (s) => h("span.seat-name", { dataset: { seat: String(s) } }, s === 0 ? t("player_a") : t("player_b"));
  const nameSeats = () => {
    for (const [s, id] of [[0, "#pa"], [1, "#pb"]]) {
      const typed = form.querySelector(id).value.trim();
      for (const el of form.querySelectorAll(`.seat-name[data-seat="${s}"]`)) {
        el.textContent = typed || (s === 0 ? t("player_a") : t("player_b"));
      }
    }
  };
  const form = h("form.card.start", { oninput: nameSeats, onsubmit: async (e) => {
    e.preventDefault();
    const v = variants.find((x) => x.id === select.value);
    const options = {};
    for (const o of (v && v.options) || []) {
      const val = readOption(form, o);
      if (val !== undefined && val !== o.default) options[o.name] = val;
    }
    const pairing = {};
    for (const c of cues) pairing[c.device] = Number(form.querySelector(`[name="cue-${c.device}"]`).value);
    const players = [form.querySelector("#pa").value.trim(), form.querySelector("#pb").value.trim()];
    const ids = pickers.map((p) => p.id());
    const lagVal = form.querySelector("[name=lag]:checked")?.value;
    const race = readRace(form);
    const clock = readShotClock(form);
    const ok = await ctx.start({ variant: select.value, players, options, ...(cues.length ? { cues: pairing } : {}),
      ...(race ? { race } : {}), ...(clock ? { shot_clock: clock } : {}),
      ...(ids.some((x) => x != null) ? { player_ids: ids } : {}) });
    if (ok && lagVal !== undefined && lagVal !== "") await ctx.send("lag", { winner: Number(lagVal) });
  } },
  h("h2", {}, t("start")),
  h("label.field", { for: "variant" }, h("span", {}, t("variant")), select),
  h("label.field", { for: "pa" }, h("span", {}, t("player_a")), inputs[0]), pickers[0].box,
  h("label.field", { for: "pb" }, h("span", {}, t("player_b")), inputs[1]), pickers[1].box,
  optionsBox,
  raceFields(seatName),
  shotClockFields(),
  cues.length ? h("fieldset", {}, h("legend", {}, t("cues")), cues.map((c, i) => h("label.field", {},
    h("span", { translate: "no" }, c.device),
    h("select", { name: `cue-${c.device}` }, [0, 1].map((s) => h("option.seat-name", { value: s,
      selected: (c.seat ?? i) === s, dataset: { seat: String(s) } }, s === 0 ? t("player_a") : t("player_b"))))))) : null,
  h("fieldset.lag", {}, h("legend", {}, t("lag_winner")),
    ["", 0, 1].map((v) => h("label.radio", {}, h("input", { type: "radio", name: "lag", value: v, checked: v === "" }),
      v === "" ? "—" : seatName(v)))),
  h("button.btn.act.primary.huge", { type: "submit", id: "start" }, t("start_btn")));
  nameSeats(); // the names of the last match, when the form opens with them
  return form;
}
