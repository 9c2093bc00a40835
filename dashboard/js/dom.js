// Small DOM helpers shared by the screens: element builder, ball symbols, the six-pocket table diagram, clocks.
import { t, pick, tParts } from "./i18n.js";

/** Build an element: h("div.card.big", {onclick, dataset: {...}, ...attrs}, ...children). */
export function h(spec, attrs = {}, ...children) {
  const [tag, ...classes] = spec.split(".");
  const el = document.createElement(tag || "div");
  if (classes.length) el.className = classes.join(" ");
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "text") el.textContent = v;
    else if (k === "html") el.innerHTML = v; // only for trusted SVG from the hub
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c == null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** A name (a player's, a table's): not a word of the screen's language (`translate="no"`; the language checks
 * of tests/dashboard skip it). */
export function nameNode(text, cls = "nm") {
  return h(`span.${cls}`, { translate: "no" }, text ?? "");
}

/** The text `key` with its `{who}`-style values as name nodes: "{who}: cue ball in hand" with the name marked. */
export function tn(key, names = {}) {
  const vars = {};
  for (const [k, v] of Object.entries(names)) vars[k] = v instanceof Node ? v : nameNode(v);
  return tParts(key, vars);
}

/** Replace the children of `el` (or of the element with that id). */
export function fill(el, ...children) {
  const node = typeof el === "string" ? document.getElementById(el) : el;
  node.replaceChildren(...children.flat(Infinity).filter((c) => c != null && c !== false));
  return node;
}

/** What the scoreboard says of ball `n`: its `balls` entry ({colour, value, label}; docs/table-view.schema.json). */
export function ballInfo(board, n) {
  return (board && board.balls[n]) || { ball: n };
}

/** A ball symbol: a coloured disc with its number (0 = the cue ball / special ball). */
export function ball(n, info = {}, extra = "") {
  const colour = info.colour || (n === 0 ? "yellow" : "ivory");
  const label = info.label ?? (n === 0 ? "" : String(n));
  const el = h(`span.ball.c-${colour}${n === 0 ? ".cue" : ""}${extra ? "." + extra : ""}`,
    { title: info.value != null ? `${n}: ${info.value}` : String(n), dataset: { ball: String(n) }, translate: "no" }, label);
  return el;
}

// Pocket centres on a vertical table, head (the house) at the bottom: 1 head-left, 2 head-right,
// 3 middle-left, 4 middle-right, 5 foot-left, 6 foot-right (viewBox 300 x 560).
export const POCKETS = {
  1: [18, 542], 2: [282, 542], 3: [10, 280], 4: [290, 280], 5: [18, 18], 6: [282, 18],
};

const SVG = "http://www.w3.org/2000/svg";
function s(tag, attrs = {}) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

/**
 * The table with its six pockets. `health[p]` is a class (online, offline, jam, battery, silent);
 * `onPocket(p)` makes pockets buttons (the panel's pocket diagram).
 */
export function tableSvg({ health = {}, onPocket = null, labels = true } = {}) {
  // a picture with its name on the board; the panel's pockets are buttons, so there it is a named group
  const svg = s("svg", { viewBox: "-30 -30 360 620", class: "table-svg", role: onPocket ? "group" : "img",
    "aria-label": t(onPocket ? "table_pockets" : "table_picture") });
  svg.append(s("rect", { x: 10, y: 10, width: 280, height: 540, rx: 10, class: "cloth" }));
  svg.append(s("line", { x1: 10, y1: 415, x2: 290, y2: 415, class: "house" })); // the house line (head quarter)
  svg.append(s("circle", { cx: 150, cy: 145, r: 5, class: "spot" })); // the pyramid's spot
  svg.append(s("circle", { cx: 150, cy: 280, r: 4, class: "spot" }));
  for (const [p, [x, y]] of Object.entries(POCKETS)) {
    const g = s("g", { class: `pocket ${health[p] || ""}`.trim(), "data-pocket": p });
    g.append(s("circle", { cx: x, cy: y, r: 30, class: "health" }));
    g.append(s("circle", { cx: x, cy: y, r: 22, class: "hole" }));
    if (labels) {
      const tx = s("text", { x, y });
      tx.textContent = p;
      g.append(tx);
    }
    if (onPocket) {
      g.setAttribute("role", "button");
      g.setAttribute("tabindex", "0");
      g.setAttribute("aria-label", t("pocket_n", { n: p }));
      g.append(s("circle", { cx: x, cy: y, r: 48, fill: "transparent", class: "hit" }));
      g.addEventListener("click", () => onPocket(Number(p)));
    }
    svg.append(g);
  }
  return svg;
}

/** Flash the pockets where balls dropped (a class removed after the animation). */
export function flashPockets(svg, pockets) {
  for (const p of pockets) {
    const g = svg.querySelector(`g.pocket[data-pocket="${p}"]`);
    if (!g) continue;
    g.classList.remove("flash");
    void g.getBoundingClientRect();
    g.classList.add("flash");
  }
}

/** A battery reading as shown (nodes report volts; a percentage is accepted too) and whether it is low. */
export function battery(v) {
  if (v == null) return { text: "—", low: false };
  if (v <= 5) return { text: `${Number(v).toFixed(2)} ${t("unit_volt")}`, low: v < 3.5 };
  return { text: `${Math.round(v)}%`, low: v < 20 };
}

/** Each pocket's health class from the table's devices (a pocket node lists its pockets). */
export function pocketHealth(devices = []) {
  const out = {};
  for (const d of devices || []) {
    const pockets = d.pockets;
    let cls = d.online ? "online" : "offline";
    if (d.online && d.silent) cls = "silent";
    if (d.online && battery(d.battery).low) cls = "battery";
    for (const p of pockets) {
      out[p] = d.jam && d.online ? "jam" : cls;
    }
  }
  return out;
}

/** mm:ss (or h:mm:ss) since `startMs` by the hub's clock (`hubMs` and the local time it was received). */
export function clockText(startMs, hubMs, receivedAt, at = Date.now()) {
  if (startMs == null || hubMs == null) return "";
  const now = hubMs + (at - receivedAt);
  const secs = Math.max(0, Math.floor((now - startMs) / 1000));
  const hh = Math.floor(secs / 3600);
  const mm = String(Math.floor((secs % 3600) / 60)).padStart(hh ? 2 : 1, "0");
  const ss = String(secs % 60).padStart(2, "0");
  return hh ? `${hh}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** The reasons of the last shot, one line each, in the screen's language. */
export function reasonLines(board) {
  return (board.last_reasons || []).map(pick).filter(Boolean);
}

/** The table id from the page path (/board/t1 -> t1). */
export function tableFromPath() {
  const parts = location.pathname.split("/").filter(Boolean);
  return decodeURIComponent(parts[parts.length - 1] || "t1");
}
