// Every text a Luza screen shows, in Russian and English, from this one place. The language: `?lang=ru|en`, else
// the one chosen last with the page's language toggle (localStorage), else Russian.
// The hub's own texts come as {en, ru} pairs: `pick()` chooses the one of the screen's language and words its
// rule references in that language ("classic 5.4:" -> "Классика п. 5.4:" / "Classic §5.4:").

const LANG_KEY = "luza.lang";
const asked = new URLSearchParams(location.search).get("lang");
function remembered() {
  try { return localStorage.getItem(LANG_KEY); } catch { return null; } // storage may be off (a kiosk profile)
}
export const lang = asked === "en" || asked === "ru" ? asked : remembered() === "en" ? "en" : "ru";
document.documentElement.lang = lang;

const TEXTS = {
  ru: {
    offline: "Нет связи с хабом — переподключение…", offline_since: "Нет связи — последнее обновление {time}",
    offline_taps: "Кнопки отключены, пока нет связи: нажатие не дошло бы до хаба", unknown_table: "Хаб не знает стол «{table}»",
    table: "Стол", target: "до {n}", clock: "Время партии",
    turn: "Бьёт", run: "Серия", visits: "Подход", shelf: "Полка", debt: "Долг", needs_to_win: "до победы {n}",
    provisional: "ПРЕДВАРИТЕЛЬНО", held: "Судья проверяет: {what}", held_plain: "Судья проверяет удар",
    last_shot: "Удар {n}", no_shots: "Ударов ещё не было",
    lag: "Розыгрыш права первого удара", in_hand_house: "Биток с руки из дома",
    in_hand_anywhere: "Биток с руки — с любого места", is_break: "Начальный удар",
    decider: "70:70 — решающий шар", last_ball_bonus: "Бонус за последний шар",
    ten_on: "№10 на своей отметке", ten_off: "№10 не на отметке", control_ball: "Право на контрольный шар: {who}",
    next_colour: "Следующий цвет", sequence: "Порядок",
    foul: "ШТРАФ", win: "Победа", wins: "{who} побеждает", draw: "Ничья", final: "Итог партии",
    idle: "Стол свободен", idle_hint: "Судья: отсканируйте код, чтобы начать партию",
    points_left: "На столе {n} очк.", shots: "Ударов: {n}",
    // a match of several frames (race), the handicap
    race_to: "до {n} побед", frame_n: "партия {n}", frames_won: "Партии", frames_score: "Партии {a}:{b}",
    frame_wins: "{who} выигрывает партию {n}", match_wins: "{who} выигрывает встречу",
    next_breaks: "Следующую партию разбивает {who}", next_lag: "Следующая партия: розыгрыш",
    abandoned: "Встреча прекращена: {reason}", final_frame: "Итог партии {n}", final_match: "Итог встречи",
    handicap: "Фора", handicap_points: "{who}: +{n} очк. в каждой партии", handicap_balls: "{who}: {n} шар. на полке в каждой партии",
    handicap_frames: "{who}: +{n} парт.", handicap_short_points: "фора +{n}", handicap_short_balls: "фора {n} ш.",
    handicap_short_frames: "фора +{n} п.",
    next_frame: "Следующая партия", next_frame_btn: "Начать партию {n}", abandon: "Прекратить встречу",
    abandon_reason: "Причина", race_len: "Встреча до побед", break_rule: "Разбой в следующих партиях",
    break_alternate: "по очереди (п. 11)", break_loser: "проигравший", break_winner: "выигравший",
    hcp_kind_points: "очки вперёд", hcp_kind_balls: "шары на полке", hcp_kind_frames: "партии вперёд",
    race_legend: "Встреча из нескольких партий и фора", handicap_none: "без форы", handicap_kind: "Фора", handicap_amount: "Сколько", handicap_seat: "Кому",
    breaks: "разбивал {who}", conceded: "сдана", drawn: "ничья", in_play: "идёт",
    // panel
    pin_title: "ПИН-код судьи", pin_enter: "Введите ПИН-код стола {table}", pin_wrong: "Неверный ПИН-код",
    pin_locked_wait: "Слишком много неверных ПИН-кодов — повторите через {n} с", pin_try_again: "Можно ввести ПИН-код снова",
    pin_none: "ПИН-код для этого стола не задан: задайте его на хабе (luza pin set --table {table})", ok: "ОК", clear: "Стереть",
    questions: "Вопросы", alerts: "Предупреждения", dismiss: "Скрыть", declare: "Заказ",
    declare_ball: "1. Шар", declare_pocket: "2. Луза", declare_cue: "Свояк (биток)", declared: "Заказано: {ball} в лузу {pocket}",
    shot_card: "Текущий удар", shot_n: "Удар {n}", source_sensor: "датчик", source_referee: "судья",
    remove: "Убрать", reidentify: "Номер", add_ball: "+ Пропущенный шар", jumped: "Вылетел шар",
    fouls: "Штрафы", facts: "Факты", choices: "Выбор", history: "Последние удары", score_after: "счёт {a}:{b}",
    undo: "Отменить: {what}", undo_none: "Отменять нечего", close_shot: "Закрыть удар",
    start: "Новая партия", variant: "Вариант", player_a: "Игрок 1", player_b: "Игрок 2", options: "Параметры",
    cues: "Датчики кия", cue_for: "{cue} → игрок", lag_winner: "Розыгрыш выиграл", start_btn: "Начать партию",
    registry: "Игроки из реестра", in_registry: "✓ В реестре, №{n}", unpick: "Не из реестра",
    add_player: "+ Добавить «{name}» в реестр",
    step_lag: "Розыгрыш", step_choose: "Выбор", step_concede: "Сдача партии",
    match: "Партия", end_match: "Завершить партию", concede: "Сдаётся: {who}", interference: "Вмешательство",
    decide: "Решение судьи", confirm_q: "Точно?", yes: "Да", no: "Нет", cancel: "Отмена",
    pocket_n: "Луза {n}", ball_n: "Шар {n}", any_ball: "Шар", sent: "Принято", logout: "Выйти",
    no_match: "Партия не идёт", evidence: "луза {pocket}, {time}", seen_colour: "цвет: {c}",
    nothing_open: "Открытых вопросов нет", on: "да", off: "нет", menu: "Меню", back: "Назад",
    no_call_break: "Начальный удар: без заказа", next_call: "Заказ на следующий удар: {ball} в лузу {pocket}", take_back: "Снять",
    entered: "Введено судьёй — удар {n}", named: "Шар {ball} (луза {pocket})", taken_out: "Убран шар, луза {pocket}",
    pending: "Ожидает ответа хаба", pending_try: "попытка {n}", pending_same: "Уже отправлено — ожидает ответа хаба",
    // club
    club: "Клуб", tables: "Столы", devices: "Устройства", health: "Хаб", device: "Устройство", state: "Состояние",
    last_seen: "Был в сети", firmware: "Прошивка", battery: "Батарея", rssi: "Сигнал", outbox: "Очередь",
    drops: "Потери", rejected: "Отклонено", identify: "Мигнуть", identify_sent: "Команда отправлена",
    update: "Обновить", skip_to_shot: "К карточке удара", skip_to_bar: "К отмене и меню", update_col: "Обновление", blink_col: "Мигнуть светодиодом", update_act_col: "Обновить прошивку", update_in_play: "На столе идёт партия: обновление между партиями", update_under_way: "Узел уже обновляется: дождитесь конца",
    ota_fetch: "загрузка {to}: {n}/{of}", ota_staged: "{to} готова, перезапуск между партиями", ota_trial: "проверка {to}",
    ota_ok: "{to} установлена", ota_rolled_back: "{to} откачена ({err})", ota_refused: "{to} отклонена ({err})",
    worker: "Обработчик", broker: "Брокер", queue: "Очередь", alive: "работает", dead: "остановлен",
    connected: "подключён", disconnected: "нет связи", open_questions: "вопросов: {n}", free: "свободен",
    ended: "завершена", live: "идёт", held_short: "проверка", board_link: "Табло", panel_link: "Судья",
    overlay_link: "Трансляция", ago_s: "{n} с назад", ago_m: "{n} мин назад", never: "—",
    club_signin: "Вход клуба", club_pin: "ПИН-код клуба", club_signed_in: "Клуб: вход выполнен",
    club_pin_why: "Для команд устройствам (мигнуть) и выгрузок всех партий",
    pin_failed: "Неверных ПИН-кодов: {n}", pin_locked: "заблокировано адресов: {n}", pin_new_locked: "новые устройства ждут",
    online: "в сети", offline_dev: "не в сети", lost: "потерян", error: "ошибка", unknown: "неизвестно",
    colour_ivory: "белый", colour_yellow: "жёлтый", colour_red: "красный", colour_blue: "синий",
    colour_green: "зелёный", colour_black: "чёрный",
    // page titles, the language toggle, placements by hand, the chip strip's overflow, units
    brand: "Луза", title_board: "табло", title_panel: "судья", title_club: "клуб", title_overlay: "трансляция",
    placed_rack: "Расставить пирамиду ({n})", chips_more: "ещё {n}",
    spot_foot_spot: "на заднюю отметку", spot_centre_spot: "на центральную отметку", spot_head_spot: "на переднюю отметку",
    spot_spotting_line: "на линию от задней отметки", spot_toward_centre: "от задней отметки к центру",
    spot_foot_rail: "к заднему борту за пирамидой", spot_house: "с руки из дома", spot_anywhere: "с руки с любого места",
    qr_alt: "Код для панели судьи этого стола", table_picture: "Стол: лузы и их датчики", table_pockets: "Лузы стола", unit_dbm: "дБм", unit_volt: "В", role_pocket: "лузы", role_cue: "кий", jam: "затор",
    // the shot clock (js/shotclock.js, the panel's start form and its extension button)
    match_time: "Время встречи", match_time_up: "Время!", match_time_title: "лимит времени встречи: {n} мин",
    time_limit: "Лимит времени, мин (0 — без лимита)", time_rule: "Когда время выйдет",
    time_rule_finish_frame: "доиграть партию, побеждает ведущий", time_rule_referee: "решает судья",
    shot_clock: "На удар", shot_clock_expired: "Время!", shot_clock_extended: "+ продление ×{n}",
    shot_clock_field: "Часы на удар", shot_clock_limit: "Секунд на удар", shot_clock_off: "без часов", seconds: "{n} с",
    extensions_field: "Продлений на игрока за партию", extension_btn: "Продление (осталось {n})",
    extension_none: "Продлений не осталось",
  },
  en: {
    offline: "No connection to the hub — reconnecting…", offline_since: "No connection — last update {time}",
    offline_taps: "Buttons are off while there is no connection: a tap would not reach the hub", unknown_table: "The hub has no table “{table}”",
    table: "Table", target: "to {n}", clock: "Match time",
    turn: "To play", run: "Run", visits: "Visit", shelf: "Shelf", debt: "Debt", needs_to_win: "needs {n} to win",
    provisional: "PROVISIONAL", held: "Referee is checking: {what}", held_plain: "Referee is checking the shot",
    last_shot: "Shot {n}", no_shots: "No shots yet",
    lag: "Lag for the break", in_hand_house: "Cue ball in hand from the house",
    in_hand_anywhere: "Cue ball in hand — anywhere", is_break: "Break shot",
    decider: "70:70 — decider ball", last_ball_bonus: "Last-ball bonus",
    ten_on: "#10 on its spot", ten_off: "#10 off its spot", control_ball: "Control-ball right: {who}",
    next_colour: "Next colour", sequence: "Sequence",
    foul: "FOUL", win: "Winner", wins: "{who} wins", draw: "Draw", final: "Final score",
    idle: "Table free", idle_hint: "Referee: scan the code to start a match",
    points_left: "{n} pts on the table", shots: "Shots: {n}",
    // a match of several frames (race), the handicap
    race_to: "race to {n}", frame_n: "frame {n}", frames_won: "Frames", frames_score: "Frames {a}:{b}",
    frame_wins: "{who} wins frame {n}", match_wins: "{who} wins the match",
    next_breaks: "{who} breaks the next frame", next_lag: "Next frame: the lag",
    abandoned: "Match abandoned: {reason}", final_frame: "Frame {n} final", final_match: "Match final",
    handicap: "Handicap", handicap_points: "{who}: +{n} point(s) every frame", handicap_balls: "{who}: {n} ball(s) on the shelf every frame",
    handicap_frames: "{who}: +{n} frame(s)", handicap_short_points: "hcp +{n}", handicap_short_balls: "hcp {n} ball(s)",
    handicap_short_frames: "hcp +{n} fr.",
    next_frame: "Next frame", next_frame_btn: "Start frame {n}", abandon: "Abandon the match",
    abandon_reason: "Reason", race_len: "Race to (frames)", break_rule: "Break in later frames",
    break_alternate: "alternate (§11)", break_loser: "the loser", break_winner: "the winner",
    hcp_kind_points: "points ahead", hcp_kind_balls: "balls on the shelf", hcp_kind_frames: "frames ahead",
    race_legend: "A match of several frames, handicap", handicap_none: "no handicap", handicap_kind: "Handicap", handicap_amount: "Amount", handicap_seat: "To",
    breaks: "{who} broke", conceded: "conceded", drawn: "drawn", in_play: "in play",
    pin_title: "Referee PIN", pin_enter: "Enter the PIN of table {table}", pin_wrong: "Wrong PIN",
    pin_locked_wait: "Too many wrong PINs — try again in {n} s", pin_try_again: "You may enter the PIN again",
    pin_none: "No PIN is set for this table: set it on the hub (luza pin set --table {table})", ok: "OK", clear: "Clear",
    questions: "Questions", alerts: "Alerts", dismiss: "Dismiss", declare: "Call",
    declare_ball: "1. Ball", declare_pocket: "2. Pocket", declare_cue: "Cue ball in (svoyak)", declared: "Called: {ball} into pocket {pocket}",
    shot_card: "Current shot", shot_n: "Shot {n}", source_sensor: "sensor", source_referee: "referee",
    remove: "Remove", reidentify: "Number", add_ball: "+ Missed ball", jumped: "Ball jumped",
    fouls: "Fouls", facts: "Facts", choices: "Choice", history: "Last shots", score_after: "score {a}:{b}",
    undo: "Undo: {what}", undo_none: "Nothing to undo", close_shot: "Close shot",
    start: "New match", variant: "Variant", player_a: "Player 1", player_b: "Player 2", options: "Options",
    cues: "Cue sensors", cue_for: "{cue} → player", lag_winner: "Lag won by", start_btn: "Start match",
    registry: "Players in the registry", in_registry: "✓ In the registry, #{n}", unpick: "Not from the registry",
    add_player: "+ Add “{name}” to the registry",
    step_lag: "Lag", step_choose: "Choice", step_concede: "Concession",
    match: "Match", end_match: "End match", concede: "Concedes: {who}", interference: "Interference",
    decide: "Referee decision", confirm_q: "Sure?", yes: "Yes", no: "No", cancel: "Cancel",
    pocket_n: "Pocket {n}", ball_n: "Ball {n}", any_ball: "Ball", sent: "Accepted", logout: "Log out",
    no_match: "No match in play", evidence: "pocket {pocket}, {time}", seen_colour: "colour: {c}",
    nothing_open: "No open questions", on: "yes", off: "no", menu: "Menu", back: "Back",
    no_call_break: "Break shot: no call", next_call: "Call for the next shot: {ball} into pocket {pocket}", take_back: "Take back",
    entered: "Entered by the referee — shot {n}", named: "Ball {ball} (pocket {pocket})", taken_out: "Ball removed, pocket {pocket}",
    pending: "Pending — waiting for the hub", pending_try: "try {n}", pending_same: "Already sent — pending, waiting for the hub",
    club: "Club", tables: "Tables", devices: "Devices", health: "Hub", device: "Device", state: "State",
    last_seen: "Last seen", firmware: "Firmware", battery: "Battery", rssi: "Signal", outbox: "Outbox",
    drops: "Drops", rejected: "Rejected", identify: "Blink", identify_sent: "Command sent",
    update: "Update", skip_to_shot: "Skip to the shot card", skip_to_bar: "Skip to undo and the menu", update_col: "Update", blink_col: "Blink the LED", update_act_col: "Update the firmware", update_in_play: "A match is in play on this table: updates wait for its end", update_under_way: "This node is already updating: wait for its end",
    ota_fetch: "downloading {to}: {n}/{of}", ota_staged: "{to} ready, restarts between matches", ota_trial: "trying {to}",
    ota_ok: "{to} kept", ota_rolled_back: "{to} rolled back ({err})", ota_refused: "{to} refused ({err})",
    worker: "Worker", broker: "Broker", queue: "Queue", alive: "alive", dead: "stopped",
    connected: "connected", disconnected: "disconnected", open_questions: "{n} questions", free: "free",
    ended: "ended", live: "live", held_short: "checking", board_link: "Board", panel_link: "Referee",
    overlay_link: "Overlay", ago_s: "{n} s ago", ago_m: "{n} min ago", never: "—",
    club_signin: "Club sign-in", club_pin: "Club PIN", club_signed_in: "Club: signed in",
    club_pin_why: "For device commands (blink) and the exports of all matches",
    pin_failed: "Wrong PINs: {n}", pin_locked: "addresses locked: {n}", pin_new_locked: "new devices wait",
    online: "online", offline_dev: "offline", lost: "lost", error: "error", unknown: "unknown",
    colour_ivory: "ivory", colour_yellow: "yellow", colour_red: "red", colour_blue: "blue",
    colour_green: "green", colour_black: "black",
    brand: "Luza", title_board: "board", title_panel: "referee", title_club: "club", title_overlay: "overlay",
    placed_rack: "Rack the pyramid ({n})", chips_more: "{n} more",
    spot_foot_spot: "on the foot spot", spot_centre_spot: "on the centre spot", spot_head_spot: "on the head spot",
    spot_spotting_line: "on the spotting line from the foot spot", spot_toward_centre: "from the foot spot toward the centre",
    spot_foot_rail: "next to the foot rail behind the pyramid", spot_house: "in hand, from the house", spot_anywhere: "in hand, anywhere",
    qr_alt: "Code for this table's referee panel", table_picture: "The table: pockets and their sensors", table_pockets: "The table's pockets", unit_dbm: "dBm", unit_volt: "V", role_pocket: "pockets", role_cue: "cue", jam: "jam",
    // the shot clock (js/shotclock.js, the panel's start form and its extension button)
    match_time: "Match time", match_time_up: "Time!", match_time_title: "match time limit: {n} min",
    time_limit: "Time limit, min (0: none)", time_rule: "When the time is up",
    time_rule_finish_frame: "finish the frame, the leader wins", time_rule_referee: "the referee decides",
    shot_clock: "Shot clock", shot_clock_expired: "Time!", shot_clock_extended: "+ extension ×{n}",
    shot_clock_field: "Shot clock", shot_clock_limit: "Seconds per shot", shot_clock_off: "off", seconds: "{n} s",
    extensions_field: "Extensions per player per frame", extension_btn: "Extension ({n} left)",
    extension_none: "No extensions left",
  },
};

/** The text `key` in the screen's language, `{name}` placeholders filled from `vars`. */
export function t(key, vars = {}) {
  const s = TEXTS[lang][key] ?? TEXTS.en[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (_, k) => (vars[k] ?? ""));
}

/** The text `key` as parts: its words, and each `{name}` the value given (a node stays a node: a player's name
 * marked as a name, `nameNode` in dom.js). */
export function tParts(key, vars = {}) {
  const s = TEXTS[lang][key] ?? TEXTS.en[key] ?? key;
  return s.split(/(\{\w+\})/).filter(Boolean).map((p) => {
    const m = /^\{(\w+)\}$/.exec(p);
    return m ? (vars[m[1]] ?? "") : p;
  });
}

/** The screen's language out of a hub {en, ru} pair (or an object carrying `en`/`ru` fields), its rule
 * references worded in that language (`screenText`). A plain string (a name) is returned as it is. */
export function pick(pair) {
  if (pair == null) return "";
  if (typeof pair === "string") return pair;
  return screenText(pair[lang] ?? pair.en ?? pair.ru ?? "");
}

/** The rule books a citation names (the engine's `Reason.cite()`: "classic 5.4", "general 19.1"): [en, ru].
 * The one table every screen words a rule reference from. */
export const RULE_BOOKS = {
  general: ["General rules", "Общие правила"], classic: ["Classic", "Классика"], free: ["Free", "Свободная"],
  star: ["Star", "Звёздная"], hundred: ["100 points", "100 очков"], dynamic: ["Dynamic", "Динамичная"],
  combined: ["Combined", "Комбинированная"],
};

/** A citation in the screen's language: "classic 5.4" -> "Классика п. 5.4" / "Classic §5.4". */
export function citeText(cite) {
  const m = /^(\w+) (.+)$/.exec(String(cite || "").trim());
  if (!m || !RULE_BOOKS[m[1]]) return String(cite || "");
  const book = RULE_BOOKS[m[1]][lang === "en" ? 0 : 1];
  return lang === "en" ? `${book} §${m[2]}` : `${book} п. ${m[2]}`;
}

const CITE_IN_TEXT = new RegExp(`\\b(${Object.keys(RULE_BOOKS).join("|")}) (\\d+(?:\\.\\d+)*(?:\\(\\d+\\))?)`, "g");
// A reading cited as the paragraph ("general A-G5: handicap ..."): the book alone, as reading ids are left out.
const READING_CITE = new RegExp(`\\b(${Object.keys(RULE_BOOKS).join("|")}) (A-[0-9A-Z]+(?:-\\d+)?)\\b`, "g");

/**
 * A hub text as a screen shows it: every rule reference in the screen's language (from RULE_BOOKS); the docs'
 * reading ids ("A-C4", kept in the export) and the API's field names in brackets ("(take_ball)") left out,
 * and on an English screen a Russian gloss in brackets ("(туш)").
 */
export function screenText(text) {
  let s = String(text).replace(CITE_IN_TEXT, (_, book, para) => citeText(`${book} ${para}`));
  s = s.replace(READING_CITE, (_, book) => RULE_BOOKS[book][lang === "en" ? 0 : 1]);
  s = s.replace(/,\s*A-[0-9A-Z]+(?:-\d+)?\b/g, "").replace(/\s*\(A-[0-9A-Z]+(?:-\d+)?\)/g, "");
  s = s.replace(/\s*\((?:см\.\s*)?[a-z]+(?:_[a-z]+)*\)/g, "");
  if (lang === "en") s = s.replace(/\s*\([^()]*[А-Яа-яЁё][^()]*\)/g, "");
  return s;
}

/** A colour name (ivory, yellow, ...) in the screen's language. */
export function colourName(c) {
  return c ? t(`colour_${c}`) : "";
}

/** Keep `?lang=` (and other display parameters) on a link to another screen. */
export function withLang(path) {
  return `${path}${path.includes("?") ? "&" : "?"}lang=${lang}`;
}

export const TEXT_KEYS = { ru: Object.keys(TEXTS.ru), en: Object.keys(TEXTS.en) };

/** A foul as the hub names it (GET /api/variants: {cite, en, ru}, the engine's words): "Push or press shot",
 * and its rule "General rules §19.1". The panel's button, the board's flash and the shot's entries say the same. */
export function foulName(f) {
  return f ? pick(f) : "";
}

export function foulCite(f) {
  return f && f.cite ? citeText(f.cite) : "";
}

/** One line: "Пропих — Общие правила п. 19.1" (`fallback` until the hub's names are loaded). */
export function foulLabel(f, fallback = "") {
  if (!f) return fallback;
  const cite = foulCite(f);
  return cite ? `${foulName(f)} — ${cite}` : foulName(f);
}

/** Facts only the referee sees: name -> [en, ru]. */
export const FACT_LABELS = {
  cue_ball: ["Cue ball", "Биток"],
  cue_colour: ["Cue ball colour", "Цвет битка"],
  first_contact: ["First ball hit", "Первый задетый шар"],
  first_contact_colour: ["Colour of the first ball hit", "Цвет первого задетого шара"],
  cushions: ["Balls to a cushion", "Шаров у борта"],
  centre_crossing: ["Crossed the centre", "Пересёк середину"],
  break_balls_to_cushion: ["Break: balls to a cushion", "Разбой: шаров к борту"],
  as_called: ["Played as called", "Сыгран как заказан"],
  carom_on_ten: ["Carom on #10", "Карамболь на №10"],
  rokambol_on_ten: ["Rokambol on #10", "Рокамболь на №10"],
  touched_ten: ["#10 touched", "Касание №10"],
  snookered: ["Snookered", "Шар закрыт (снукер)"],
  ten_off_spot: ["#10 off its spot", "№10 не на отметке"],
  centre_spot_taken: ["Centre spot taken", "Центральная отметка занята"],
};

/** Each referee action by its kind (the pending strip names the taps waiting for the hub): kind -> [en, ru]. */
export const ACTION_LABELS = {
  lag: ["Lag", "Розыгрыш"], declare: ["Call", "Заказ"], identify: ["Ball number", "Номер шара"],
  add_ball: ["Missed ball", "Пропущенный шар"], jumped: ["Ball jumped", "Вылетел шар"], remove: ["Remove", "Убрать"],
  foul: ["Foul", "Штраф"], fact: ["Fact", "Факт"], confirm: ["Answer", "Ответ"], withdraw: ["Take back", "Снять"],
  choose: ["Choice", "Выбор"], decide: ["Referee decision", "Решение судьи"], open_shot: ["Open shot", "Открыть удар"],
  close_shot: ["Close shot", "Закрыть удар"], undo: ["Undo", "Отмена"], interference: ["Interference", "Вмешательство"],
  concede: ["Concession", "Сдача партии"], dismiss_alert: ["Dismiss", "Скрыть"], end_match: ["End match", "Завершить партию"],
  extension: ["Extension", "Продление"],
};

/** A referee action's name in the screen's language. */
export function actionLabel(kind) {
  const l = ACTION_LABELS[kind];
  return l ? l[lang === "en" ? 0 : 1] : kind;
}

/** The page's title in its language: "Луза — табло" / "Luza — board". */
export function pageTitle(key) {
  document.title = `${t("brand")} — ${t(key)}`;
  const h1 = document.getElementById("heading"); // the board's and the overlay's heading, for screen readers
  if (h1) h1.textContent = document.title;
}

/** The language toggle every page carries: a link to the page in the other language, remembered for the next
 * visit (localStorage); `?lang=` in an address still wins. Its text is in its own language (`lang`). */
export function langToggle() {
  const other = lang === "en" ? "ru" : "en";
  const url = new URL(location.href);
  url.searchParams.set("lang", other);
  const a = document.createElement("a");
  a.className = "lang-toggle";
  a.href = url.pathname + url.search;
  a.lang = other;
  a.hreflang = other;
  a.textContent = other === "en" ? "EN" : "RU";
  a.title = other === "en" ? "English" : "Русский";
  a.setAttribute("aria-label", `${a.textContent} — ${a.title}`); // the visible text first (WCAG 2.5.3)
  a.addEventListener("click", () => { try { localStorage.setItem(LANG_KEY, other); } catch { /* kept by the link */ } });
  return a;
}
