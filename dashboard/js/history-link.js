// The club view's links to the match history (/matches) and the players (/players), in the screen's language.
import { withLang } from "./i18n.js";
import { ht } from "./history-texts.js";
import { st } from "./stats-texts.js";

const a = document.getElementById("history-link");
if (a) {
  a.textContent = ht("matches");
  a.href = withLang("/matches");
}
const p = document.getElementById("players-link");
if (p) {
  p.textContent = st("players");
  p.href = withLang("/players");
}
