// The shot clock on the referee panel (hub/reconcile/shotclock.py): its setting on the start form, and in the bottom
// bar, within the thumb's reach, the seconds left and the extension for the player to play.
import { t } from "./i18n.js";
import { h, nameNode } from "./dom.js";
import { renderShotClock } from "./shotclock.js";

const LIMITS = [0, 30, 40, 45, 60, 90];
const EXTENSIONS = [0, 1, 2, 3];

/** The start form's fieldset: seconds per shot (off by default) and extensions per player per frame. */
export function shotClockFields() {
  return h("fieldset.shot-clock", {}, h("legend", {}, t("shot_clock_field")),
    h("label.field", { for: "sc-limit" }, h("span", {}, t("shot_clock_limit")),
      h("select", { id: "sc-limit", name: "sc-limit" }, LIMITS.map((s) => h("option", { value: s },
        s ? t("seconds", { n: s }) : t("shot_clock_off"))))),
    h("label.field", { for: "sc-ext" }, h("span", {}, t("extensions_field")),
      h("select", { id: "sc-ext", name: "sc-ext" }, EXTENSIONS.map((n) => h("option", { value: n }, String(n))))));
}

/** new_match's `shot_clock` from the form, or undefined (off). */
export function readShotClock(form) {
  const limit = Number(form.querySelector("[name=sc-limit]")?.value || 0);
  if (!limit) return undefined;
  return { limit_s: limit, extensions: Number(form.querySelector("[name=sc-ext]")?.value || 0) };
}

/** The bar's clock row while the match has a clock: the countdown and the extension for the player to play. */
export function clockRow(ctx, m) {
  const sc = m.shot_clock;
  if (!sc || !sc.on || m.over) return null;
  const who = sc.player ?? m.to_play;
  const left = Array.isArray(sc.extensions_left) && who != null ? sc.extensions_left[who] : 0;
  return h("div.row.clock-row", {},
    h("div.shotclock", { id: "panel-shotclock", hidden: true }),
    sc.extensions ? h("button.btn.act", { type: "button", id: "extension", disabled: !(sc.running && left > 0) || null,
      onclick: () => ctx.send("extension", who != null ? { player: who } : {}) },
    left > 0 ? t("extension_btn", { n: left }) : t("extension_none"),
    who != null ? [" · ", nameNode(m.players[who])] : null) : null);
}

/** Count the panel's clock down (called on every state and four times a second). */
export function tickPanelClock(env, receivedAt, online, lastMessageAt) {
  const el = document.getElementById("panel-shotclock");
  if (!el || !env || !env.match) return;
  const at = online ? Date.now() : Math.max(receivedAt, lastMessageAt ?? receivedAt);
  renderShotClock(el, env.match.shot_clock, env.hub_ms, receivedAt, at);
}
