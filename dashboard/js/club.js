// Club view /: every table live, the device list with identify (blink) and update buttons, the hub's health.
import { t, pick, withLang } from "./i18n.js";
import { h, fill, pocketHealth, tableSvg, battery } from "./dom.js";
import { live } from "./ws.js";
import { deviceCommand, deviceUpdate, ApiError } from "./api.js";

let hubMs = 0;
let receivedAt = Date.now();

function ago(ms) {
  if (ms == null) return t("never");
  const s = Math.max(0, Math.round((hubMs + (Date.now() - receivedAt) - ms) / 1000));
  return s < 120 ? t("ago_s", { n: s }) : t("ago_m", { n: Math.round(s / 60) });
}

function status(m) {
  if (!m) return ["free", t("free")];
  if (m.status === "held") return ["held", t("held_short")];
  if (m.over || m.status === "ended") return ["ended", t("ended")];
  return ["live", t("live")];
}

// Failed PIN attempts at this table's token exchange (hub.web.pinguard): one small line, only when there are any.
function accessLine(a) {
  if (!a || !a.failed) return null;
  const parts = [t("pin_failed", { n: a.failed }), ago(a.last_failed_ms)];
  if (a.locked_addresses) parts.push(t("pin_locked", { n: a.locked_addresses }));
  if (a.new_devices_locked) parts.push(t("pin_new_locked"));
  return h("div.taccess", {}, parts.join(" · "));
}

function tableCard(entry) {
  const env = entry.state || {};
  const m = env.match;
  const b = m || env.last_match;
  const [cls, label] = status(m);
  const pockets = (env.devices || []).filter((d) => d.role === "pocket").map((d) => ({
    ...d, pockets: Array.isArray(d.pockets) ? d.pockets : d.pocket != null ? [].concat(d.pocket) : [] }));
  const q = m ? (m.questions || []).length : 0;
  return h(`article.tcard.${cls}`, { dataset: { table: entry.id } },
    h("div.thead", {}, h("span.tname", {}, entry.name || env.name || entry.id), h(`span.status.${cls}`, {}, label),
      q ? h("span.qbadge", {}, t("open_questions", { n: q })) : null),
    b ? h("div.tscore", {},
      [0, 1].map((i) => h(`div.pl${m && !m.over && m.to_play === i ? ".turn" : ""}`, {},
        h("span.pn", {}, b.players[i]), h("b", {}, String(b.scores[i]))))) : h("div.tfree", {}, t("free")),
    b ? h("div.tvar", {}, pick(b.title), b.target ? ` · ${t("target", { n: b.target })}` : "") : null,
    accessLine(entry.access),
    h("div.tfoot", {}, h("div.mini-table", {}, tableSvg({ health: pocketHealth(pockets), labels: false })),
      h("nav", {}, h("a", { href: withLang(`/board/${entry.id}`) }, t("board_link")),
        h("a", { href: withLang(`/referee/${entry.id}`) }, t("panel_link")),
        h("a", { href: withLang(`/overlay/${entry.id}`) }, t("overlay_link")))));
}

function healthView(hl) {
  if (!hl) return [];
  const item = (name, ok, text) => h(`span.hitem.${ok ? "ok" : "bad"}`, {}, `${name}: ${text}`);
  return [item(t("worker"), hl.worker_alive, hl.worker_alive ? t("alive") : t("dead")),
    item(t("broker"), hl.broker_connected, hl.broker_connected ? t("connected") : t("disconnected")),
    item(t("queue"), (hl.queue_depth ?? 0) < 100, String(hl.queue_depth ?? 0))];
}

function stateLabel(d) {
  const s = d.state || (d.online ? "online" : "offline");
  return s === "offline" ? t("offline_dev") : t(s);
}

// A node's over-the-air update as its status said it (shared_rules/wire_ota.py): progress, or how it ended.
function updateText(o) {
  if (!o || !o.st) return ["", "—"];
  const vars = { to: o.to || o.r || "", n: o.n ?? 0, of: o.of ?? "?", err: o.err || "" };
  const cls = o.st === "ok" ? "ok" : o.st === "refused" || o.st === "rolled_back" ? "bad" : "busy";
  return [cls, t(`ota_${o.st}`, vars)];
}

function devicesTable(devs, busy) {
  const num = (v, unit = "") => (v == null ? "—" : `${v}${unit}`);
  const rej = (r) => (typeof r === "number" ? r : Object.values(r || {}).reduce((a, b) => a + b, 0));
  const upd = (d) => { const [cls, text] = updateText(d.ota); return h(`td.ota${cls ? "." + cls : ""}`, {}, text); };
  return [h("thead", {}, h("tr", {}, [t("device"), t("table"), t("state"), t("last_seen"), t("firmware"), t("battery"),
    t("rssi"), t("outbox"), t("drops"), t("rejected"), t("update_col"), "", ""].map((x) => h("th", {}, x)))),
  h("tbody", {}, devs.map((d) => h(`tr.${d.online ? "on" : "off"}`, { dataset: { device: d.device || d.id } },
    h("td.dev", {}, d.device || d.id, d.role ? h("small", {}, ` ${d.role}`) : null), h("td", {}, d.table || d.table_id || "—"),
    h("td", {}, h(`span.dot.${d.online ? "ok" : "bad"}`), stateLabel(d), d.jam ? " · jam" : ""),
    h("td", {}, ago(d.last_seen_ms)), h("td", {}, d.fw || d.firmware || "—"),
    h(`td${battery(d.battery).low ? ".warn" : ""}`, {}, battery(d.battery).text), h("td", {}, num(d.rssi, " dBm")),
    h("td", {}, num(d.outbox)), h("td", {}, num(d.dropped)), h("td", {}, String(rej(d.rejected))), upd(d),
    h("td", {}, h("button.btn.small", { type: "button", disabled: !d.online || null, onclick: () => identify(d) }, t("identify"))),
    // an update only between matches: the hub refuses it while the node's table has a match in play
    h("td", {}, h("button.btn.small.upd", { type: "button", disabled: !d.online || busy.has(d.table) || null,
      title: busy.has(d.table) ? t("update_in_play") : "", onclick: () => update(d) }, t("update"))))))];
}

function toast(text, bad, ms = 3000) {
  const el = document.getElementById("toast");
  el.textContent = text;
  el.className = bad ? "toast bad" : "toast";
  el.hidden = false;
  setTimeout(() => { el.hidden = true; }, ms);
}

async function identify(d) {
  try {
    await deviceCommand(d.device || d.id, "identify", sessionStorage.getItem(`luza.token.${d.table}`));
    toast(t("identify_sent"), false);
  } catch (e) {
    toast(e instanceof ApiError ? pick(e) : String(e), true);
  }
}

// The hub's own firmware to one node (POST /api/devices/{id}/ota, the referee token of its table, as identify).
async function update(d) {
  try {
    toast(pick(await deviceUpdate(d.device || d.id, sessionStorage.getItem(`luza.token.${d.table}`))), false, 6000);
  } catch (e) {
    toast(e instanceof ApiError ? pick(e) : String(e), true, 8000);
  }
}

fill("title", `Luza · ${t("club")}`);
fill("devices-title", t("devices"));
live("/ws/club", {
  onMessage(msg) {
    if (msg.type !== "club") return;
    hubMs = msg.hub_ms ?? hubMs;
    receivedAt = Date.now();
    fill("tables", (msg.tables || []).map(tableCard));
    const busy = new Set((msg.tables || []).filter((e) => e.state && e.state.match && !e.state.match.over).map((e) => e.id));
    fill("devices", devicesTable(msg.devices || [], busy));
    // alerts of the whole hub (a repaired or damaged store, a full disk) ride on every table's state
    const hubAlerts = (((msg.tables || [])[0] || {}).state || {}).alerts || [];
    fill("health", h("span.hlabel", {}, t("health")), healthView(msg.health),
      hubAlerts.filter((a) => a.scope === "hub").map((a) => h("span.hitem.bad.halert", {}, pick(a))));
  },
});
