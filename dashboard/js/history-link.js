// The club view's link to the match history (/matches), in the screen's language.
import { withLang } from "./i18n.js";
import { ht } from "./history-texts.js";

const a = document.getElementById("history-link");
if (a) {
  a.textContent = ht("matches");
  a.href = withLang("/matches");
}
