// Club view /: every table live, the device list with identify (blink) and update buttons, the hub's health.
import { t, pick, withLang, pageTitle, langToggle } from "./i18n.js";
import { h, fill, pocketHealth, tableSvg, battery } from "./dom.js";
import { live } from "./ws.js";
import { fitAll, fitOnResize } from "./fit.js";
import { deviceCommand, deviceUpdate, club, ApiError } from "./api.js";
import { lockoutCountdown } from "./countdown.js";
import { raceOf, handicapText } from "./race.js";

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

// A race on the table: race to N, the frame in play and the frame score; the handicap on a line of its own.
function raceLine(b) {
  const r = raceOf(b);
  if (!r) return null;
  return h("div.trace", {}, `${t("race_to", { n: r.race_to })} · ${t("frame_n", { n: r.frame })} · `,
    h("b", {}, t("frames_score", { a: r.score[0], b: r.score[1] })),
    r.handicap ? h("div.thcp", {}, `${t("handicap")}: ${handicapText(r, b.players)}`) : null);
}

function tableCard(entry) {
  const env = entry.state || {};
  const m = env.match;
  const b = m || env.last_match;
  const [cls, label] = status(m);
  const pockets = (env.devices || []).filter((d) => d.role === "pocket");
  const q = m ? (m.questions || []).length : 0;
  return h(`article.tcard.${cls}`, { dataset: { table: entry.id } },
    h("div.thead", {}, h("span.tname", { id: `tname-${entry.id}`, translate: "no", "data-fit": "0.6,2" }, entry.name || env.name || entry.id), h(`span.status.${cls}`, {}, label),
      q ? h("span.qbadge", {}, t("open_questions", { n: q })) : null),
    b ? h("div.tscore", {},
      [0, 1].map((i) => h(`div.pl${m && !m.over && m.to_play === i ? ".turn" : ""}`, {},
        h("span.pn", { translate: "no", "data-fit": "0.7,3" }, b.players[i]), h("b", {}, String(b.scores[i]))))) : h("div.tfree", {}, t("free")),
    b ? h("div.tvar", {}, pick(b.title), b.target ? ` · ${t("target", { n: b.target })}` : "") : null,
    raceLine(b),
    accessLine(entry.access),
    h("div.tfoot", {}, h("div.mini-table", {}, tableSvg({ health: pocketHealth(pockets), labels: false })),
      h("nav", { "aria-labelledby": `tname-${entry.id}` }, h("a", { href: withLang(`/board/${entry.id}`) }, t("board_link")),
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

// A node's over-the-air update as its status said it (luza_wire/ota.py): progress, or how it ended.
function updateText(o) {
  if (!o || !o.st) return ["", "—"];
  const vars = { to: o.to || o.r || "", n: o.n ?? 0, of: o.of ?? "?", err: o.err || "" };
  const cls = o.st === "ok" ? "ok" : o.st === "refused" || o.st === "rolled_back" ? "bad" : "busy";
  return [cls, t(`ota_${o.st}`, vars)];
}

const updating = (d) => d.ota?.st === "fetch" || d.ota?.st === "trial";

const roleLabel = (role) => (role === "pocket" || role === "cue" ? t(`role_${role}`) : role);

function devicesTable(devs, busy) {
  const num = (v, unit = "") => (v == null ? "—" : `${v}${unit}`);
  const upd = (d) => { const [cls, text] = updateText(d.ota); return h(`td.ota${cls ? "." + cls : ""}`, {}, text); };
  return [h("thead", {}, h("tr", {}, [t("device"), t("table"), t("state"), t("last_seen"), t("firmware"), t("battery"),
    t("rssi"), t("outbox"), t("drops"), t("rejected"), t("update_col"), h("span.vh", {}, t("blink_col")), h("span.vh", {}, t("update_act_col"))]
    .map((x) => h("th", {}, x)))),
  h("tbody", {}, devs.map((d) => h(`tr.${d.online ? "on" : "off"}`, { dataset: { device: d.device } },
    h("td.dev", {}, h("span", { translate: "no" }, d.device), d.role ? h("small", {}, ` ${roleLabel(d.role)}`) : null),
    h("td", { translate: "no" }, d.table || "—"),
    h("td", {}, h(`span.dot.${d.online ? "ok" : "bad"}`), stateLabel(d), d.jam ? ` · ${t("jam")}` : ""),
    h("td", {}, ago(d.last_seen_ms)), h("td", {}, d.fw || "—"),
    h(`td${battery(d.battery).low ? ".warn" : ""}`, {}, battery(d.battery).text), h("td", {}, num(d.rssi, ` ${t("unit_dbm")}`)),
    h("td", {}, num(d.outbox)), h("td", {}, num(d.dropped)), h("td", {}, String(d.rejected)), upd(d),
    h("td", {}, h("button.btn.small", { type: "button", disabled: !d.online || null, onclick: () => identify(d) }, t("identify"))),
    // an update only between matches, one at a time: the hub refuses it while the node's table has a match in
    // play or while the node is still downloading or trying one
    h("td", {}, h("button.btn.small.upd", { type: "button", disabled: !d.online || busy.has(d.table) || updating(d) || null,
      title: busy.has(d.table) ? t("update_in_play") : updating(d) ? t("update_under_way") : "",
      onclick: () => update(d) }, t("update"))))))];
}

function toast(text, bad = false, ms = 3000) {
  const el = document.getElementById("toast");
  el.textContent = text;
  el.className = bad ? "toast bad" : "toast";
  el.hidden = false;
  clearTimeout(el.luzaTimer);
  el.luzaTimer = setTimeout(() => { el.hidden = true; }, ms);
}

// ------------------------------------------------------------------ the club's sign-in (device actions, exports)

function accessBar() {
  fill("access", club.token
    ? [h("span.signed", {}, t("club_signed_in")), h("button.btn.small", { type: "button", id: "club-signout",
      onclick: () => { club.signOut(); accessBar(); } }, t("logout"))]
    : h("button.btn.small", { type: "button", id: "club-signin", onclick: () => signIn() }, t("club_signin")));
}

/** Ask for the club PIN in a dialog; true once signed in, false if closed (Escape, Cancel). */
function signIn() {
  return new Promise((resolve) => {
    const input = h("input", { id: "club-pin", type: "password", inputmode: "numeric", autocomplete: "off", maxlength: 12,
      "aria-describedby": "club-pin-msg" });
    const msg = h("p.msg", { id: "club-pin-msg", role: "status" }, t("club_pin_why"));
    const ok = h("button.btn", { id: "club-pin-ok", type: "submit" }, t("ok"));
    const dialog = h("dialog.signin", {},
      h("form", { method: "dialog", onsubmit: async (e) => {
        e.preventDefault();
        if (!input.value) return;
        try {
          await club.login(input.value);
          dialog.close("ok");
        } catch (err) {
          input.value = "";
          msg.classList.add("bad");
          if (err instanceof ApiError && err.status === 429 && err.retryAfter) {
            ok.disabled = true;
            lockoutCountdown(msg, err.retryAfter, () => { ok.disabled = false; msg.classList.remove("bad"); });
          } else msg.textContent = err instanceof ApiError && err.status === 401 ? t("pin_wrong") : pick(err);
        }
      } },
      h("h2", {}, t("club_signin")), h("label", { for: "club-pin" }, t("club_pin")), input, msg,
      h("div.row", {}, ok, h("button.btn.ghost", { type: "button", onclick: () => dialog.close("") }, t("cancel")))));
    dialog.addEventListener("close", () => {
      dialog.remove();
      accessBar();
      resolve(dialog.returnValue === "ok");
    });
    document.body.append(dialog);
    dialog.showModal();
    input.focus();
  });
}

/** Blink a node: with the club's token (signing in first if there is none), or a referee token of its table. */
async function identify(d) {
  const tableToken = sessionStorage.getItem(`luza.token.${d.table}`);
  if (!club.token && !tableToken && !(await signIn())) return;
  const token = club.token || tableToken;
  try {
    await deviceCommand(d.device, "identify", token);
    toast(t("identify_sent"));
  } catch (e) {
    if (e instanceof ApiError && e.status === 401 && token === club.token) { // a new club PIN, a restarted hub
      club.signOut();
      if (await signIn()) return identify(d);
    }
    toast(e instanceof ApiError ? pick(e) : String(e), true);
  }
}

// The hub's own firmware to one node (POST /api/devices/{id}/ota): the club's token or its table's referee token.
async function update(d) {
  const tableToken = sessionStorage.getItem(`luza.token.${d.table}`);
  if (!club.token && !tableToken && !(await signIn())) return;
  const token = club.token || tableToken;
  try {
    toast(pick(await deviceUpdate(d.device, token)), false, 6000);
  } catch (e) {
    if (e instanceof ApiError && e.status === 401 && token === club.token) {
      club.signOut();
      if (await signIn()) return update(d);
    }
    toast(e instanceof ApiError ? pick(e) : String(e), true, 8000);
  }
}

pageTitle("title_club");
fitOnResize(() => fitAll());
fill("title", `${t("brand")} · ${t("club")}`);
document.querySelector(".clubhead").append(langToggle());
fill("devices-title", t("devices"));
accessBar();
live("/ws/club", {
  onMessage(msg) {
    if (msg.type !== "club") return;
    hubMs = msg.hub_ms ?? hubMs;
    receivedAt = Date.now();
    fitAll(fill("tables", (msg.tables || []).map(tableCard)));
    const busy = new Set((msg.tables || []).filter((e) => e.state && e.state.match && !e.state.match.over).map((e) => e.id));
    fill("devices", devicesTable(msg.devices || [], busy));
    // alerts of the whole hub (a repaired or damaged store, a full disk) ride on every table's state
    const hubAlerts = (((msg.tables || [])[0] || {}).state || {}).alerts || [];
    fill("health", h("span.hlabel", {}, t("health")), healthView(msg.health),
      hubAlerts.filter((a) => a.scope === "hub").map((a) => h("span.hitem.bad.halert", {}, pick(a))));
  },
});
