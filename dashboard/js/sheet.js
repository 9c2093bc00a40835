// Bottom sheets of the referee panel: pick a ball, pick a pocket, confirm. Each returns a Promise of the choice
// (null when cancelled), so an action is "tap, tap" and reads top to bottom in the caller.
import { t } from "./i18n.js";
import { h, ball, ballInfo, tableSvg } from "./dom.js";

function open(title, body) {
  return new Promise((resolve) => {
    const opener = document.activeElement; // the keyboard goes back there when the sheet closes
    const onKey = (e) => { if (e.key === "Escape") { e.preventDefault(); close(null); } };
    const close = (value) => {
      document.removeEventListener("keydown", onKey);
      root.remove();
      if (opener && opener.isConnected && opener.focus) opener.focus();
      resolve(value);
    };
    const root = h("div.sheet-backdrop", { onclick: (e) => { if (e.target === root) close(null); } },
      h("div.sheet", { role: "dialog", "aria-modal": "true", "aria-label": title },
        h("div.sheet-title", {}, title),
        body(close),
        h("button.btn.wide.ghost", { type: "button", onclick: () => close(null) }, t("cancel"))));
    document.body.append(root);
    document.addEventListener("keydown", onKey);
    const first = root.querySelector("button:not([disabled]), [tabindex='0']");
    if (first) first.focus();
  });
}

/** Choose one of `balls` (numbers) of the board; `extra` = [[value, label]] added as plain buttons. */
export function pickBall(title, board, balls, extra = []) {
  return open(title, (close) => h("div.ball-grid", {},
    balls.map((n) => h("button.btn.ball-btn", { type: "button", dataset: { ball: String(n) }, onclick: () => close(n) },
      ball(n, ballInfo(board, n)))),
    extra.map(([v, label]) => h("button.btn.ball-btn.text", { type: "button", dataset: { value: String(v) },
      onclick: () => close(v) }, label))));
}

/** Choose one of the six pockets on the table diagram. */
export function pickPocket(title) {
  return open(title, (close) => h("div.pocket-pick", {}, tableSvg({ onPocket: (p) => close(p) })));
}

/** Choose among labelled options: [[value, label]]. */
export function pickOption(title, options) {
  return open(title, (close) => h("div.option-list", {},
    options.map(([v, label]) => h("button.btn.wide", { type: "button", dataset: { value: String(v) },
      onclick: () => close(v) }, label))));
}

/** Ask before an action that cannot be taken back lightly. */
export async function confirmSheet(question) {
  const v = await pickOption(question, [[true, t("yes")]]);
  return v === true;
}
