// The start form's player picker (js/panel-start.js): under each name, the registry's players that the typed text
// finds in either alphabet (GET /api/players?q=), as big buttons for a thumb; a tap chooses one (the match then
// names the player by id as well as by name); "+ Add to the registry" registers the typed name (POST /api/players,
// the referee's token) and chooses it. A name typed and not chosen is still a name: the match counts for nobody's
// statistics (docs/statistics.md).
import { t, lang } from "./i18n.js";
import { h, fill, nameNode } from "./dom.js";
import { getJson, ApiError } from "./api.js";

const DELAY_MS = 200;
const SHOWN = 4;

function label(p) {
  return [p.name, p.nickname ? `«${p.nickname}»` : "", p.club].filter(Boolean).join(" · ");
}

async function register(name, token) {
  const res = await fetch("/api/players", { method: "POST", headers: { "Content-Type": "application/json",
    Authorization: `Bearer ${token}` }, body: JSON.stringify({ name }) });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, body);
  return body;
}

/** The picker of one seat: `input` is the seat's name field; `chosen` ({id, name} or null) the player the form
 * opens with (the last match's). Returns {box, id()}: the element to put under the input, and the chosen id. */
export function playerPicker(input, seat, token, chosen = null, onChange = () => {}) {
  let player = chosen;
  let timer = null;
  let asked = "";
  const list = h("div.picks", { id: `picks-${seat}`, role: "group", "aria-label": t("registry") });
  const badge = h("div.chosen", { id: `chosen-${seat}`, "aria-live": "polite" });
  const status = h("p.pick-err", { role: "alert", hidden: true });

  const showChosen = () => {
    input.dataset.playerId = player ? String(player.id) : "";
    fill(badge, player ? [h("span", {}, t("in_registry", { n: player.id })), " ",
      h("button.btn.unpick", { type: "button", "aria-label": t("unpick"), onclick: () => { player = null; showChosen(); suggest(); } }, "✕")] : []);
    badge.hidden = !player;
    onChange();
  };
  const choose = (p) => {
    player = { id: p.id, name: p.name };
    input.value = p.name;
    fill(list);
    showChosen();
  };
  const suggest = async () => {
    const q = input.value.trim();
    if (player && q !== player.name) { player = null; showChosen(); }
    asked = q;
    status.hidden = true;
    if (player || q.length < 2) { fill(list); return; }
    let found = [];
    try {
      found = (await getJson(`/api/players?q=${encodeURIComponent(q)}&limit=${SHOWN}`)).players;
    } catch { found = []; } // the registry is a help: a typed name still starts the match
    if (asked !== q) return; // a later keystroke asked again
    const exact = found.some((p) => p.name.toLowerCase() === q.toLowerCase());
    fill(list, found.map((p) => h("button.btn.pick", { type: "button", dataset: { player: p.id }, onclick: () => choose(p) },
      nameNode(label(p)))),
      exact ? null : h("button.btn.pick.add", { type: "button", id: `add-player-${seat}`, onclick: async () => {
        try { choose(await register(q, token())); } catch (e) {
          status.hidden = false;
          fill(status, lang === "en" ? e.en : e.ru);
        }
      } }, t("add_player", { name: q })));
  };
  input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(suggest, DELAY_MS); });
  showChosen();
  return { box: h("div.picker", {}, badge, list, status), id: () => (player ? player.id : null) };
}
