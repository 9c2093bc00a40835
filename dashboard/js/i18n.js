// Every text a Luza screen shows, in Russian and English, from this one place. `?lang=ru|en` (default ru).
// The hub's own texts come as {en, ru} pairs: `pick()` chooses the one of the screen's language.

const params = new URLSearchParams(location.search);
export const lang = params.get("lang") === "en" ? "en" : "ru";
document.documentElement.lang = lang;

const TEXTS = {
  ru: {
    offline: "Нет связи с хабом — переподключение…", offline_since: "Нет связи — последнее обновление {time}",
    offline_taps: "Кнопки отключены, пока нет связи: нажатие не дошло бы до хаба", unknown_table: "Хаб не знает стол «{table}»",
    table: "Стол", target: "до {n}", clock: "Время партии",
    turn: "Бьёт", run: "Серия", visits: "Подход", shelf: "Полка", debt: "Долг", needs_to_win: "до победы {n}",
    provisional: "ПРЕДВАРИТЕЛЬНО", held: "Судья проверяет: {what}", held_plain: "Судья проверяет удар",
    last_shot: "Удар {n}", no_shots: "Ударов ещё не было",
    lag: "Розыгрыш права первого удара", in_hand_house: "{who}: биток с руки из дома",
    in_hand_anywhere: "{who}: биток с руки — с любого места", is_break: "Начальный удар",
    decider: "70:70 — решающий шар", last_ball_bonus: "Бонус за последний шар",
    ten_on: "№10 на своей отметке", ten_off: "№10 не на отметке", control_ball: "Право на контрольный шар: {who}",
    next_colour: "Следующий цвет", sequence: "Порядок",
    foul: "ШТРАФ", win: "Победа", wins: "{who} побеждает", draw: "Ничья", final: "Итог партии",
    idle: "Стол свободен", idle_hint: "Судья: отсканируйте код, чтобы начать партию",
    points_left: "На столе {n} очк.", shots: "Ударов: {n}",
    // panel
    pin_title: "PIN судьи", pin_enter: "Введите PIN стола {table}", pin_wrong: "Неверный PIN",
    pin_locked_wait: "Слишком много неверных PIN — повторите через {n} с", pin_try_again: "Можно ввести PIN снова",
    pin_none: "PIN для этого стола не задан. На хабе: luza pin set --table {table}", ok: "OK", clear: "Стереть",
    questions: "Вопросы", alerts: "Предупреждения", dismiss: "Скрыть", declare: "Заказ",
    declare_ball: "1. Шар", declare_pocket: "2. Луза", declare_cue: "Свояк (биток)", declared: "Заказано: {ball} в лузу {pocket}",
    shot_card: "Текущий удар", shot_n: "Удар {n}", source_sensor: "датчик", source_referee: "судья",
    remove: "Убрать", reidentify: "Номер", add_ball: "+ Пропущенный шар", jumped: "Вылетел шар",
    fouls: "Штрафы", facts: "Факты", choices: "Выбор", history: "Последние удары", score_after: "счёт {a}:{b}",
    undo: "Отменить: {what}", undo_none: "Отменять нечего", close_shot: "Закрыть удар",
    start: "Новая партия", variant: "Вариант", player_a: "Игрок 1", player_b: "Игрок 2", options: "Параметры",
    cues: "Датчики кия", cue_for: "{cue} → игрок", lag_winner: "Розыгрыш выиграл", start_btn: "Начать партию",
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
    last_seen: "Был в сети", firmware: "Прошивка", battery: "Батарея", rssi: "RSSI", outbox: "Очередь",
    drops: "Потери", rejected: "Отклонено", identify: "Мигнуть", identify_sent: "Команда отправлена",
    update: "Обновить", update_col: "Обновление", update_in_play: "На столе идёт партия: обновление между партиями",
    ota_fetch: "загрузка {to}: {n}/{of}", ota_staged: "{to} готова, перезапуск между партиями", ota_trial: "проверка {to}",
    ota_ok: "{to} установлена", ota_rolled_back: "{to} откачена ({err})", ota_refused: "{to} отклонена ({err})",
    worker: "Обработчик", broker: "Брокер", queue: "Очередь", alive: "работает", dead: "остановлен",
    connected: "подключён", disconnected: "нет связи", open_questions: "вопросов: {n}", free: "свободен",
    ended: "завершена", live: "идёт", held_short: "проверка", board_link: "Табло", panel_link: "Судья",
    overlay_link: "Трансляция", ago_s: "{n} с назад", ago_m: "{n} мин назад", never: "—",
    club_signin: "Вход клуба", club_pin: "PIN клуба", club_signed_in: "Клуб: вход выполнен",
    club_pin_why: "Для команд устройствам (мигнуть) и выгрузок всех партий",
    pin_failed: "Неверных PIN: {n}", pin_locked: "заблокировано адресов: {n}", pin_new_locked: "новые устройства ждут",
    online: "в сети", offline_dev: "не в сети", lost: "потерян", error: "ошибка", unknown: "неизвестно",
    colour_ivory: "белый", colour_yellow: "жёлтый", colour_red: "красный", colour_blue: "синий",
    colour_green: "зелёный", colour_black: "чёрный",
  },
  en: {
    offline: "No connection to the hub — reconnecting…", offline_since: "No connection — last update {time}",
    offline_taps: "Buttons are off while there is no connection: a tap would not reach the hub", unknown_table: "The hub has no table “{table}”",
    table: "Table", target: "to {n}", clock: "Match time",
    turn: "To play", run: "Run", visits: "Visit", shelf: "Shelf", debt: "Debt", needs_to_win: "needs {n} to win",
    provisional: "PROVISIONAL", held: "Referee is checking: {what}", held_plain: "Referee is checking the shot",
    last_shot: "Shot {n}", no_shots: "No shots yet",
    lag: "Lag for the break", in_hand_house: "{who}: cue ball in hand from the house",
    in_hand_anywhere: "{who}: cue ball in hand — anywhere", is_break: "Break shot",
    decider: "70:70 — decider ball", last_ball_bonus: "Last-ball bonus",
    ten_on: "#10 on its spot", ten_off: "#10 off its spot", control_ball: "Control-ball right: {who}",
    next_colour: "Next colour", sequence: "Sequence",
    foul: "FOUL", win: "Winner", wins: "{who} wins", draw: "Draw", final: "Final score",
    idle: "Table free", idle_hint: "Referee: scan the code to start a match",
    points_left: "{n} pts on the table", shots: "Shots: {n}",
    pin_title: "Referee PIN", pin_enter: "Enter the PIN of table {table}", pin_wrong: "Wrong PIN",
    pin_locked_wait: "Too many wrong PINs — try again in {n} s", pin_try_again: "You may enter the PIN again",
    pin_none: "No PIN is set for this table. On the hub: luza pin set --table {table}", ok: "OK", clear: "Clear",
    questions: "Questions", alerts: "Alerts", dismiss: "Dismiss", declare: "Call",
    declare_ball: "1. Ball", declare_pocket: "2. Pocket", declare_cue: "Cue ball in (svoyak)", declared: "Called: {ball} into pocket {pocket}",
    shot_card: "Current shot", shot_n: "Shot {n}", source_sensor: "sensor", source_referee: "referee",
    remove: "Remove", reidentify: "Number", add_ball: "+ Missed ball", jumped: "Ball jumped",
    fouls: "Fouls", facts: "Facts", choices: "Choice", history: "Last shots", score_after: "score {a}:{b}",
    undo: "Undo: {what}", undo_none: "Nothing to undo", close_shot: "Close shot",
    start: "New match", variant: "Variant", player_a: "Player 1", player_b: "Player 2", options: "Options",
    cues: "Cue sensors", cue_for: "{cue} → player", lag_winner: "Lag won by", start_btn: "Start match",
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
    last_seen: "Last seen", firmware: "Firmware", battery: "Battery", rssi: "RSSI", outbox: "Outbox",
    drops: "Drops", rejected: "Rejected", identify: "Blink", identify_sent: "Command sent",
    update: "Update", update_col: "Update", update_in_play: "A match is in play on this table: updates wait for its end",
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
  },
};

/** The text `key` in the screen's language, `{name}` placeholders filled from `vars`. */
export function t(key, vars = {}) {
  const s = TEXTS[lang][key] ?? TEXTS.en[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (_, k) => (vars[k] ?? ""));
}

/** The screen's language out of a hub {en, ru} pair (or an object carrying `en`/`ru` fields). */
export function pick(pair) {
  if (pair == null) return "";
  if (typeof pair === "string") return pair;
  return pair[lang] ?? pair.en ?? pair.ru ?? "";
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

/** Referee-only fouls (the sensors cannot know them): code -> [paragraph, en, ru]. */
export const FOUL_LABELS = {
  miss: ["5.3", "Missed (no object ball touched)", "Промах (не задет прицельный шар)"],
  bad_break: ["12.1", "Incorrect break", "Неправильный начальный удар"],
  bad_cue_strike: ["15", "Bad cue strike", "Неправильный удар кием"],
  both_feet_off: ["16", "Both feet off the floor", "Обе ноги оторваны от пола"],
  touch: ["17", "Ball touched", "Касание шара"],
  push: ["19", "Push / press shot", "Толчок, подставка"],
  not_completed: ["20", "Shot not completed (cushion / crossing)", "Удар не завершён (борт / переход)"],
  slow_play: ["26", "Slow play", "Затягивание удара"],
  placement: ["21.2", "Ball touched placing from hand", "Касание шара при установке с руки"],
  outside_house: ["21.3", "From hand outside the house", "С руки не из дома"],
  house_ball_struck: ["21.4", "House ball struck directly", "Прямой удар по шару в доме"],
  cue_ball_pocketed: ["classic 5.5", "Cue ball pocketed", "Биток в лузе"],
  wrong_own_ball: ["star 4.3", "Not the own playing ball", "Не свой игровой шар"],
  ten_touched: ["100 12", "Cue ball touched #10", "Биток коснулся №10"],
};

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

/** A foul's label in the screen's language: "§5.3 Missed…" (the variant's paragraph when the hub gives one). */
export function foulLabel(code, paragraph) {
  const f = FOUL_LABELS[code];
  const where = paragraph || (f && f[0]) || "";
  const name = f ? (lang === "en" ? f[1] : f[2]) : code;
  return `${/^\d/.test(where) ? "§" : ""}${where} ${name}`.trim();
}

/** Each referee action by its kind (the pending strip names the taps waiting for the hub): kind -> [en, ru]. */
export const ACTION_LABELS = {
  lag: ["Lag", "Розыгрыш"], declare: ["Call", "Заказ"], identify: ["Ball number", "Номер шара"],
  add_ball: ["Missed ball", "Пропущенный шар"], jumped: ["Ball jumped", "Вылетел шар"], remove: ["Remove", "Убрать"],
  foul: ["Foul", "Штраф"], fact: ["Fact", "Факт"], confirm: ["Answer", "Ответ"], withdraw: ["Take back", "Снять"],
  choose: ["Choice", "Выбор"], decide: ["Referee decision", "Решение судьи"], open_shot: ["Open shot", "Открыть удар"],
  close_shot: ["Close shot", "Закрыть удар"], undo: ["Undo", "Отмена"], interference: ["Interference", "Вмешательство"],
  concede: ["Concession", "Сдача партии"], dismiss_alert: ["Dismiss", "Скрыть"], end_match: ["End match", "Завершить партию"],
};

/** A referee action's name in the screen's language. */
export function actionLabel(kind) {
  const l = ACTION_LABELS[kind];
  return l ? l[lang === "en" ? 0 : 1] : kind;
}
