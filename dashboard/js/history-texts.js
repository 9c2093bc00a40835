// The history pages' texts (matches.html, match.html) in Russian and English, in the screen's language
// (`?lang=` through js/i18n.js). Kept apart from i18n.js's table: only these two pages use them.
import { lang } from "./i18n.js";

const TEXTS = {
  ru: {
    matches: "История партий", search: "Игрок (любой алфавит)", table: "Стол", variant: "Вариант", any: "все",
    since: "С", until: "По", find: "Найти", date: "Дата", players: "Игроки", score: "Счёт", status: "Статус",
    found: "Найдено: {n}", none: "Партий не найдено", prev: "← Назад", next: "Дальше →", page: "{a}–{b} из {n}",
    live: "идёт", ended: "завершена", club: "Клуб", open: "Открыть",
    match_n: "Партия {n}", timeline: "Удары", shot: "Удар {n}", by: "бьёт {who}", after: "счёт {a}:{b}",
    pots: "Забиты: {balls}", no_pots: "ничего не забито",
    evidence: "Доказательства", complete: "полные", incomplete: "неполные",
    verify: "Проверка (luza verify)", checking: "Проверка…",
    st_verified: "ПРОВЕРЕНО", st_incomplete: "НЕПОЛНЫЕ ДАННЫЕ", st_failed: "НЕ СОВПАДАЕТ", st_unsigned: "БЕЗ ПОДПИСИ",
    st_forged: "ПОДДЕЛКА", downloads: "Скачать", pdf_club: "PDF — для клуба (вход клуба на странице клуба)",
    winner: "Победитель: {who}", draw: "Ничья", back: "← История", loading: "Загрузка…",
    race: "Встреча до {n} побед", race_n: "Встреча {n}", frames_score: "Партии {a}:{b}", frame_n: "Партия {n}", col_frame: "Партия",
    col_breaker: "Разбивал", col_score: "Счёт", col_winner: "Выиграл", conceded: "сдана", abandoned: "Прекращена: {why}",
  },
  en: {
    matches: "Match history", search: "Player (either alphabet)", table: "Table", variant: "Variant", any: "all",
    since: "From", until: "To", find: "Search", date: "Date", players: "Players", score: "Score", status: "Status",
    found: "Found: {n}", none: "No matches found", prev: "← Previous", next: "Next →", page: "{a}–{b} of {n}",
    live: "live", ended: "ended", club: "Club", open: "Open",
    match_n: "Match {n}", timeline: "Shots", shot: "Shot {n}", by: "{who} to play", after: "score {a}:{b}",
    pots: "Pocketed: {balls}", no_pots: "nothing pocketed",
    evidence: "Evidence", complete: "complete", incomplete: "incomplete",
    verify: "Verification (luza verify)", checking: "Checking…",
    st_verified: "VERIFIED", st_incomplete: "INCOMPLETE", st_failed: "DOES NOT MATCH", st_unsigned: "UNSIGNED",
    st_forged: "FORGED", downloads: "Download", pdf_club: "PDF — for the club (the club sign-in on the club view)",
    winner: "Winner: {who}", draw: "Draw", back: "← History", loading: "Loading…",
    race: "Race to {n} frames", race_n: "Match {n}", frames_score: "Frames {a}:{b}", frame_n: "Frame {n}", col_frame: "Frame",
    col_breaker: "Broke", col_score: "Score", col_winner: "Won by", conceded: "conceded", abandoned: "Abandoned: {why}",
  },
};

/** A history text in the screen's language, `{name}` filled from `vars`. */
export function ht(key, vars = {}) {
  const s = TEXTS[lang][key] ?? TEXTS.en[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (_, k) => (vars[k] ?? ""));
}

export const HISTORY_KEYS = { ru: Object.keys(TEXTS.ru), en: Object.keys(TEXTS.en) };

/** A hub time (ms) as a local date and time in the screen's language. */
export function when(ms) {
  if (ms == null) return "—";
  return new Date(ms).toLocaleString(lang === "en" ? "en-GB" : "ru-RU",
    { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" });
}
