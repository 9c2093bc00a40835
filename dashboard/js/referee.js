// Referee panel /referee/<table>: a phone held in one hand. PIN first; then open questions, the call, the shot,
// fouls and facts, the last shots; undo, close and the match menu at the bottom, within the thumb's reach.
import { t, pick, lang, actionLabel, pageTitle, langToggle } from "./i18n.js";
import { h, fill, tableFromPath, tn } from "./dom.js";
import { fitAll, fitOnResize } from "./fit.js";
import { live } from "./ws.js";
import { TableApi, ApiError } from "./api.js";
import { lockoutCountdown } from "./countdown.js";
import { questionsCard, alertsCard, declareCard, shotCard, foulsCard, historyCard } from "./panel-cards.js";
import { takeBackCard } from "./panel-taps.js";
import { PendingTaps } from "./pending.js";
import { startCard } from "./panel-start.js";
import { raceCard, endMatch } from "./panel-race.js";
import { raceOf, renderMatchTime } from "./race.js";
import { loadVariants } from "./variants.js";
import { pickOption, confirmSheet } from "./sheet.js";
import { clockRow, tickPanelClock } from "./panel-clock.js";

const table = tableFromPath();
const api = new TableApi(table);
const taps = new PendingTaps(table);
let env = null;
let receivedAt = Date.now();
let mode = null; // "pin" | "start" | "match": the start form is built once per entry, so typing survives updates
let toastTimer = null;
let shownQuestions = new Set();

function toast(text, bad = false) {
  const el = fill("toast", text);
  el.className = bad ? "toast bad" : "toast";
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, bad ? 6000 : 1500);
}

function showError(e) {
  if (e instanceof ApiError && e.status === 401) { mode = null; render(); }
  toast(e instanceof ApiError ? pick(e) : String(e), true);
}

/** The strip that names the taps waiting for the hub ("pending / ожидает"), with how often each was tried. */
function showPending() {
  const el = document.getElementById("pending");
  const list = taps.list();
  el.hidden = !list.length;
  document.body.classList.toggle("has-pending", list.length > 0);
  fill(el, list.length ? h("b", {}, `${t("pending")}: `) : null, list.map((tap, i) => h("span.ptap", {
    dataset: { kind: tap.kind, uid: tap.uid } }, `${i ? ", " : ""}${actionLabel(tap.kind)}`,
  tap.tries ? ` (${t("pending_try", { n: tap.tries + 1 })})` : "")));
}

/** Send a tap until the hub answers (the same uid each time: applied once), then show the answer. A tap whose
 * token the hub no longer takes (401) stays pending and is sent again, same uid, once the PIN is entered. */
async function run(tap) {
  taps.sending(tap);
  showPending();
  let parked = false;
  try {
    const res = await api.actionUntilAnswered(tap.kind, tap.fields, tap.uid, () => { taps.tried(tap); showPending(); });
    if (res && res.state) accept(res.state);
    toast(t("sent"));
    return true;
  } catch (e) {
    parked = e instanceof ApiError && e.status === 401;
    showError(e);
    return false;
  } finally {
    if (parked) taps.park(tap); else taps.finish(tap);
    showPending();
  }
}

/** Send the taps still pending: found in sessionStorage by a reloaded page, or parked for the PIN. */
function resumeTaps() {
  if (api.signedIn) for (const tap of taps.toResume()) run(tap);
}

const ctx = {
  shotNumber: null,
  token: () => api.token, // the start form registers a new player with it (js/panel-players.js)
  render: () => render(true),
  async send(kind, fields = {}) {
    if (document.body.dataset.online !== "1") return false;
    const tap = taps.start(kind, fields);
    if (tap === null) { toast(t("pending_same")); return false; } // pressed again while pending: nothing new sent
    return run(tap);
  },
  async start(body) {
    try {
      const res = await api.startMatch(body);
      if (res && res.state) accept(res.state);
      return true;
    } catch (e) { showError(e); return false; }
  },
};

function accept(state) {
  if (env && state.rev != null && env.rev != null && state.rev < env.rev) return;
  // tokens live in the hub's memory: one from before a hub restart (another boot) is void, ask for the PIN again
  const bootKey = `luza.boot.${table}`;
  if (api.signedIn && state.boot && sessionStorage.getItem(bootKey) && sessionStorage.getItem(bootKey) !== state.boot) {
    api.signOut();
  }
  if (api.signedIn && state.boot) sessionStorage.setItem(bootKey, state.boot);
  env = state;
  receivedAt = Date.now();
  render();
  resumeTaps(); // a reloaded panel: the same uids again
}

// ------------------------------------------------------------------ PIN keypad

let pinKeys = null; // the PIN screen's keyboard handler while it is shown

function pinScreen() {
  let pin = "";
  const dots = h("div.pin-dots", { id: "pin-dots" });
  const msg = h("div.pin-msg", { id: "pin-msg" }, env && env.pin_set === false ? t("pin_none", { table }) : "");
  const show = () => { dots.textContent = pin.length ? "●".repeat(pin.length) : "·"; };
  const submit = async () => {
    if (!pin) return;
    try {
      await api.login(pin);
      if (env && env.boot) sessionStorage.setItem(`luza.boot.${table}`, env.boot);
      mode = null;
      render();
      resumeTaps();
    } catch (e) {
      pin = ""; show();
      msg.classList.add("bad");
      if (e instanceof ApiError && e.status === 429 && e.retryAfter) { // locked out: count down, OK waits
        okKey.disabled = true;
        lockoutCountdown(msg, e.retryAfter, () => { okKey.disabled = false; msg.classList.remove("bad"); });
      } else if (e instanceof ApiError && e.status === 401) msg.textContent = t("pin_wrong");
      else msg.textContent = e instanceof ApiError ? pick(e) : String(e);
    }
  };
  const key = (label, fn, cls = "") => h(`button.key${cls ? "." + cls : ""}`, { type: "button", onclick: fn,
    dataset: { key: label } }, label);
  const okKey = key(t("ok"), submit, "ok");
  show();
  pinKeys = (e) => { // digits, Backspace and Enter from a keyboard press the keypad's own buttons
    if (e.ctrlKey || e.metaKey || e.altKey || document.querySelector("[role=dialog], dialog[open]")) return;
    const label = /^[0-9]$/.test(e.key) ? e.key : e.key === "Backspace" ? "⌫" : e.key === "Enter" ? t("ok") : null;
    const b = label && [...document.querySelectorAll("#main .keypad button")].find((k) => k.dataset.key === label);
    if (!b) return;
    e.preventDefault();
    if (!b.disabled) b.click();
  };
  return h("section.pin", {},
    h("h1", {}, t("pin_title")), h("p", {}, tn("pin_enter", { table: env ? (env.name || table) : table })),
    dots, msg,
    h("div.keypad", {},
      ["1", "2", "3", "4", "5", "6", "7", "8", "9"].map((d) => key(d, () => { if (pin.length < 12) pin += d; show(); })),
      key("⌫", () => { pin = pin.slice(0, -1); show(); }, "fn"),
      key("0", () => { if (pin.length < 12) pin += "0"; show(); }),
      okKey));
}

// ------------------------------------------------------------------ the page

function header() {
  const m = env && env.match;
  const name = (i) => h(`span.pn.p${i}${m.to_play === i && !m.over ? ".turn" : ""}`, { translate: "no", "data-fit": "0.7,3" },
    m.players[i]);
  const race = raceOf(m);
  return [h("h1.tname", { translate: "no", "data-fit": "0.6,1" }, env ? (env.name || table) : table), langToggle(),
    m ? h("div.mini", {}, name(0), h("b", {}, `${m.scores[0]}:${m.scores[1]}`), name(1)) : null,
    race ? h("div.mini-race", { id: "frame-score" }, `${t("race_to", { n: race.race_to })} · ${t("frame_n", { n: race.frame })} · `,
      h("b", {}, t("frames_score", { a: race.score[0], b: race.score[1] })), " ",
      h("span.match-time", { id: "match-time", hidden: true })) : null];
}

function bottomBar(m) {
  const undo = m.undo ? pick(m.undo) : t("undo_none"); // the hub names it: "Undo shot 7"
  return [
    clockRow(ctx, m),
    h("button.btn.act.undo", { type: "button", id: "undo", disabled: !m.undo || null, onclick: async () => {
      if (await confirmSheet(undo)) ctx.send("undo");
    } }, undo),
    h("div.row", {},
      h("button.btn.act", { type: "button", id: "close-shot", disabled: !(m.shot && m.shot.status === "open") || null,
        onclick: () => ctx.send("close_shot") }, t("close_shot")),
      h("button.btn.act", { type: "button", id: "menu", onclick: () => matchMenu(m) }, t("menu"))),
  ];
}

async function matchMenu(m) {
  const choice = await pickOption(t("match"), [
    ["interference", t("interference")], ["concede0", tn("concede", { who: m.players[0] })],
    ["concede1", tn("concede", { who: m.players[1] })],
    ["end", raceOf(m) && !raceOf(m).over ? t("abandon") : t("end_match")], ["logout", t("logout")]]);
  if (choice === null) return;
  if (choice === "logout") { api.signOut(); mode = null; render(); return; }
  if (choice === "end") { await endMatch(ctx, m, lang); return; }
  if (!(await confirmSheet(t("confirm_q")))) return;
  if (choice === "interference") ctx.send("interference", { restore: true });
  else ctx.send("concede", { player: Number(choice.slice(-1)) });
}

async function render(force = false) {
  if (!env) return;
  fitAll(fill("head", header())); // names never cut: smaller, then on up to three lines (js/fit.js)
  const want = !api.signedIn ? "pin" : env.match && !env.match.over ? "match" : env.match ? "match" : "start";
  const main = document.getElementById("main");
  const bar = document.getElementById("bar");
  if (want !== "match" && want === mode && !force) return;
  const entered = want !== mode;
  mode = want;
  if (want === "pin") { fill(main, pinScreen()); fill(bar); skipLink(); return; }
  if (want === "start") {
    fill(bar);
    const form = await startCard(ctx, env);
    if (mode === "start") { fill(main, form); main.scrollTop = 0; skipLink(); }
    return;
  }
  await loadVariants(); // the cards offer what the variant's profile says
  if (mode !== "match" || !env.match) return;
  const m = env.match;
  const ids = (m.questions || []).map((q) => q.id);
  const fresh = ids.some((id) => !shownQuestions.has(id)); // a new question: back to the top, where it is
  shownQuestions = new Set(ids);
  const scroll = entered || fresh ? 0 : main.scrollTop;
  const race = raceCard(ctx, m); // a frame of a race won: start the next one, or end the match
  fill(main, race, questionsCard(ctx, m) || (race ? null : h("div.none", {}, t("nothing_open"))),
    alertsCard(ctx, m), declareCard(ctx, m),
    shotCard(ctx, m), takeBackCard(ctx, m), historyCard(ctx, m), foulsCard(ctx, m));
  main.scrollTop = scroll;
  fill(bar, bottomBar(m));
  tickClock();
  syncDisabled();
  skipLink();
}

/** The skip links: to the shot card, there only while the card is; to undo and the menu, while the bar has them. */
function skipLink() {
  const skip = document.getElementById("skip");
  skip.textContent = t("skip_to_shot");
  skip.hidden = !document.getElementById("card-shot");
  const toBar = document.getElementById("skip-bar");
  toBar.textContent = t("skip_to_bar");
  toBar.hidden = !document.getElementById("undo");
}

function syncDisabled() {
  const off = document.body.dataset.online !== "1";
  for (const b of document.querySelectorAll("button.act")) {
    if (off) { if (!b.disabled) { b.disabled = true; b.dataset.off = "1"; } }
    else if (b.dataset.off) { b.disabled = false; delete b.dataset.off; }
  }
}

document.body.dataset.lang = lang;
document.addEventListener("keydown", (e) => { if (mode === "pin" && pinKeys) pinKeys(e); });
fitOnResize(() => fitAll());
pageTitle("title_panel");
const tickClock = () => {
  tickPanelClock(env, receivedAt, link.online, link.lastMessageAt);
  const at = link.online ? Date.now() : Math.max(receivedAt, link.lastMessageAt ?? receivedAt);
  renderMatchTime(document.getElementById("match-time"), env && env.match ? env.match.race : null, env && env.hub_ms,
    receivedAt, at); // the match time (general A-G6) in the header's race line
};
const link = live(`/ws/tables/${encodeURIComponent(table)}`, {
  onMessage(msg) { if (msg.type === "state") { accept(msg); document.body.dataset.rev = String(msg.rev); } },
  onStatus() { syncDisabled(); tickClock(); },
  token: () => api.token,
  hint: t("offline_taps"), // the offline strip says why the buttons are off
});
setInterval(tickClock, 250);
