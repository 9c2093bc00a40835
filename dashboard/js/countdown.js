// A PIN lockout that counts down on screen ("try again in 59 s", "58 s", …), then says the PIN may be entered
// again. Used by the referee panel's keypad and the club view's sign-in: a bare "60 s" left people guessing.
import { t } from "./i18n.js";

/**
 * Show the lockout of `seconds` (the hub's Retry-After) in `el`, counting down each second from a fixed end, so
 * a slow timer cannot stretch it. `onDone()` runs when it is over. Returns a function that stops it.
 */
export function lockoutCountdown(el, seconds, onDone = () => {}) {
  clearInterval(el.luzaCountdown);
  const end = Date.now() + Math.max(1, Math.ceil(seconds)) * 1000;
  const show = () => {
    const left = Math.ceil((end - Date.now()) / 1000);
    el.dataset.left = String(Math.max(0, left));
    if (left > 0) {
      el.textContent = t("pin_locked_wait", { n: left });
      return;
    }
    clearInterval(el.luzaCountdown);
    el.textContent = t("pin_try_again");
    onDone();
  };
  show();
  el.luzaCountdown = setInterval(show, 250);
  return () => clearInterval(el.luzaCountdown);
}
