// The players' pages' texts (players.html, player.html) in Russian and English, in the screen's language
// (`?lang=` through js/i18n.js). Kept apart from i18n.js's table, as the history pages' are.
import { lang } from "./i18n.js";

const TEXTS = {
  ru: {
    players: "Игроки", leaderboard: "Рейтинг игроков", search: "Игрок (любой алфавит)", find: "Найти",
    club: "Клуб", history: "История партий", csv: "Скачать CSV", rank: "Место", name: "Игрок", rating: "Рейтинг",
    matches: "Встречи", won_lost: "Победы — поражения", frames: "Партии", points: "Очки (за : против)",
    best_run: "Лучшая серия", pot_rate: "Точность", balls_per_visit: "Шаров за подход", shot_time: "Время удара",
    none: "Игроков пока нет", not_found: "Никого не найдено", counted: "Учтено встреч: {n}",
    left_out: "Не учтены (неполные или повреждённые данные): {list}",
    back: "← Игроки", player_n: "Игрок {n}", nickname: "Прозвище", club_name: "Клуб", rated: "рейтинговых встреч: {n}",
    played: "сыграно {n}", won: "побед {n}", lost: "поражений {n}", drawn: "ничьих {n}", unfinished: "не доиграно {n}",
    frames_line: "выиграно {w}, проиграно {l}", points_line: "{f} : {a}", run_line: "{b} шар. ({p} очк.)",
    run_when: "{date}, встреча №{m}", pot_line: "{pct}% ударов с забитым шаром ({n} из {of})",
    visit_line: "{v} за подход ({balls} шар. за {visits} подх.)", time_line: "в среднем {avg} с, самый долгий {max} с",
    time_count: "ударов с датчиком: {n}", no_data: "нет данных", fouls: "Штрафы по пунктам правил", no_fouls: "Штрафов нет",
    breaks: "Начальные удары", breaks_line: "всего {n}: с забитым шаром {pot}, со штрафом {foul}, пустых {none}; шаров забито {balls}",
    pockets: "Лузы", pocket_n: "Луза {n}: {count}", h2h: "Личные встречи", opponent: "Соперник", record: "Счёт встреч",
    handicap: "Фора (по рейтингу)", give_me: "вам {p} очк. в партии до {t}", give_them: "сопернику {p} очк. в партии до {t}",
    even: "без форы", recent: "Последние встречи", date: "Дата", result: "Итог", score: "Счёт",
    r_won: "победа", r_lost: "поражение", r_drawn: "ничья", r_unfinished: "не доиграна",
    merged: "Этот игрок объединён с игроком №{n}", open_merged: "Открыть", merge: "Объединить дубликат с этим игроком",
    merge_id: "Номер дубликата", merge_btn: "Объединить", merged_ok: "Готово: перенесено встреч — {n}",
    formula: "Как считается: docs/statistics.md", loading: "Загрузка…", photo: "Фото игрока {name}",
  },
  en: {
    players: "Players", leaderboard: "Player rankings", search: "Player (either alphabet)", find: "Search",
    club: "Club", history: "Match history", csv: "Download CSV", rank: "Rank", name: "Player", rating: "Rating",
    matches: "Matches", won_lost: "Won — lost", frames: "Frames", points: "Points (for : against)",
    best_run: "Best run", pot_rate: "Pot rate", balls_per_visit: "Balls per visit", shot_time: "Shot time",
    none: "No players yet", not_found: "Nobody found", counted: "Matches counted: {n}",
    left_out: "Left out (incomplete or damaged evidence): {list}",
    back: "← Players", player_n: "Player {n}", nickname: "Nickname", club_name: "Club", rated: "rated matches: {n}",
    played: "played {n}", won: "won {n}", lost: "lost {n}", drawn: "drawn {n}", unfinished: "unfinished {n}",
    frames_line: "won {w}, lost {l}", points_line: "{f} : {a}", run_line: "{b} ball(s) ({p} points)",
    run_when: "{date}, match #{m}", pot_line: "{pct}% of shots pocketed a ball ({n} of {of})",
    visit_line: "{v} per visit ({balls} balls in {visits} visits)", time_line: "average {avg} s, longest {max} s",
    time_count: "shots timed by the cue sensor: {n}", no_data: "no data", fouls: "Fouls by rule", no_fouls: "No fouls",
    breaks: "Breaks", breaks_line: "{n} in all: potted {pot}, fouled {foul}, nothing {none}; balls potted {balls}",
    pockets: "Pockets", pocket_n: "Pocket {n}: {count}", h2h: "Head to head", opponent: "Opponent", record: "Record",
    handicap: "Handicap (from the ratings)", give_me: "{p} points to you in a frame to {t}",
    give_them: "{p} points to your opponent in a frame to {t}",
    even: "no handicap", recent: "Recent matches", date: "Date", result: "Result", score: "Score",
    r_won: "won", r_lost: "lost", r_drawn: "drawn", r_unfinished: "unfinished",
    merged: "This player was merged into player #{n}", open_merged: "Open", merge: "Merge a duplicate into this player",
    merge_id: "The duplicate's number", merge_btn: "Merge", merged_ok: "Done: matches moved — {n}",
    formula: "How it is counted: docs/statistics.md", loading: "Loading…", photo: "Photo of {name}",
  },
};

/** A players' page text in the screen's language, `{name}` filled from `vars`. */
export function st(key, vars = {}) {
  const s = TEXTS[lang][key] ?? TEXTS.en[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (_, k) => (vars[k] ?? ""));
}

export const STATS_KEYS = { ru: Object.keys(TEXTS.ru), en: Object.keys(TEXTS.en) };

/** A player's name in the screen's language: the Latin spelling on an English screen. */
export function playerName(p) {
  if (!p) return "";
  return lang === "en" ? (p.name_en || p.name) : p.name;
}

/** Seconds from milliseconds, one decimal ("—" for none). */
export function seconds(ms) {
  return ms == null ? "—" : (ms / 1000).toFixed(1);
}
