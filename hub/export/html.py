"""The scoresheet: one self-contained HTML page (A4, print CSS) in Russian or English, built from an export
document: club, table, date, players, variant and options, final score and winner, the shot list with the
running score and the cited reasons, fouls marked, the open shot marked provisional, and the replay note.
WeasyPrint turns the same page into the PDF (hub.export.pdf)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, tzinfo
from html import escape
from typing import Any

from hub.export import text
from hub.reconcile.options import option_label
from shared_rules.opening import R_HANDICAP_BALL, R_HANDICAP_POINTS

CSS = """
@page { size: A4; margin: 14mm 12mm 16mm 12mm;
  @bottom-left { content: "Luza"; font: 7.5pt "DejaVu Sans", sans-serif; color: #777; }
  @bottom-right { content: "PAGE " counter(page) " / " counter(pages); font: 7.5pt "DejaVu Sans", sans-serif;
                  color: #777; } }
* { box-sizing: border-box; }
body { font: 9pt/1.35 "DejaVu Sans", "Noto Sans", Arial, sans-serif; color: #111; margin: 0; }
header { display: flex; justify-content: space-between; align-items: flex-end; border-bottom: 2px solid #111;
  padding-bottom: 4pt; margin-bottom: 8pt; }
header .club { font-size: 14pt; font-weight: bold; }
header .sheet { font-size: 11pt; text-transform: uppercase; letter-spacing: .06em; }
.meta { width: 100%; border-collapse: collapse; margin-bottom: 8pt; }
.meta td { padding: 2pt 6pt 2pt 0; vertical-align: top; }
.meta td.k { color: #555; width: 22%; white-space: nowrap; }
.result { width: 100%; border-collapse: collapse; margin: 4pt 0 10pt; }
.result td { border: 1.2pt solid #111; padding: 6pt 8pt; font-size: 12pt; }
.result td.n { width: 70%; }
.result td.s { text-align: center; font-size: 18pt; font-weight: bold; }
.result tr.won td.n::after { content: " ★ WINNER"; font-size: 9pt; font-weight: bold; }
.verdict { font-size: 10.5pt; font-weight: bold; margin: 0 0 10pt; }
h2.frame { font-size: 10.5pt; margin: 10pt 0 4pt; border-bottom: 1pt solid #111; padding-bottom: 2pt;
  page-break-after: avoid; }
.shots { width: 100%; border-collapse: collapse; font-size: 8pt; table-layout: fixed; }
.shots th { background: #e8e8e8; border: .6pt solid #999; padding: 3pt 2.5pt; font-size: 7.5pt; text-align: left; overflow-wrap: break-word; }
.shots td { border: .6pt solid #bbb; padding: 2.5pt 3pt; vertical-align: top; }
.shots td.num, .shots td.sc, .shots td.pt { text-align: center; white-space: nowrap; }
.shots td.sc { font-weight: bold; }
.shots tr.foul td { background: #fde8e8; }
.shots tr.foul td.num::before { content: "⚠ "; color: #b00; }
.shots tr.provisional td { font-style: italic; background: #fff8dc; }
.shots tr.void td { color: #888; text-decoration: line-through; }
.shots tr.action td { background: #f4f4f4; color: #333; }
.shots td.why { font-size: 7pt; color: #333; }
.shots thead { display: table-header-group; }
.shots tr { page-break-inside: avoid; }
.note { margin-top: 10pt; font-size: 8pt; border-left: 3pt solid #2a7; padding: 3pt 6pt; }
.note.bad { border-color: #b00; }
.sign { margin-top: 22pt; width: 100%; border-collapse: collapse; }
.sign td { width: 33%; padding: 18pt 8pt 0 0; font-size: 8pt; color: #555; }
.sign td div { border-top: .8pt solid #111; padding-top: 2pt; }
@media screen { body { max-width: 200mm; margin: 10mm auto; } }
"""  # noqa: E501


def render(doc: Mapping[str, Any], lang: str = "ru", tz: tzinfo = UTC, key: str | None = None) -> str:
    """The scoresheet page as HTML text; `key`: the fingerprint of the hub's key that signs it (printed)."""
    m = doc["match"]
    css = CSS.replace("PAGE", text.word("page", lang)).replace("WINNER", text.word("winner", lang).upper())
    parts = [
        f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8">',
        f"<title>{escape(text.word('sheet', lang))} {m['id']}</title><style>{css}</style></head><body>",
        _header(doc, lang),
        _meta(doc, lang, tz),
        _result(doc, lang),
        _frames(doc, lang, tz),
        _note(doc, lang),
        _key(doc, lang, key),
        _signatures(doc, lang),
        "</body></html>\n",
    ]
    return "".join(parts)


def _club(doc: Mapping[str, Any], lang: str) -> str:
    club = doc["match"].get("club") or {}
    return str(club.get(lang) or club.get("en") or "Luza")


def _header(doc: Mapping[str, Any], lang: str) -> str:
    m = doc["match"]
    return (
        f'<header><div class="club">{escape(_club(doc, lang))}</div>'
        f'<div class="sheet">{escape(text.word("sheet_race" if is_race(doc) else "sheet", lang))} № {m["id"]}'
        "</div></header>"
    )


def _meta(doc: Mapping[str, Any], lang: str, tz: tzinfo) -> str:
    m, w = doc["match"], text.word
    ended = m.get("ended_ms") or _last_time(doc)
    when = (
        f"{text.local(m['started_ms'], tz, '%H:%M')}–{text.local(ended, tz, '%H:%M')}"
        if ended
        else text.local(m["started_ms"], tz, "%H:%M")
    )
    rules = (doc.get("settings") or {}).get("rules") or {}
    options = rules.get("options") or doc["engine_log"].get("options") or {}
    rows = [
        (w("table", lang), m["table"]["name"]),
        (w("date", lang), text.local(m["started_ms"], tz, "%d.%m.%Y")),
        (w("time", lang), when),
        (w("variant", lang), text.title(m["variant"], lang)),
        (w("target", lang), str(options.get("target", ""))),
        (w("race", lang), _race_format(doc, lang)),
        (w("handicap", lang), _handicap(doc, lang)),
        (w("options", lang), _options(options, lang)),
    ]
    cells = "".join(f'<tr><td class="k">{escape(k)}</td><td>{escape(v)}</td></tr>' for k, v in rows if v)
    return f'<table class="meta">{cells}</table>'


def is_race(doc: Mapping[str, Any]) -> bool:
    """More than a single frame with no handicap (a race's sheet has a section per frame)."""
    race = doc.get("race") or {}
    return bool(race) and (
        race["race_to"] > 1
        or race["handicap"] is not None
        or len(doc.get("frames") or ()) > 1
        or bool(race.get("time_limit_min"))
    )


def _race_format(doc: Mapping[str, Any], lang: str) -> str:
    race = doc.get("race") or {}
    if not is_race(doc):
        return ""
    out = f"{text.word('race_to', lang, n=race['race_to'])}, {text.word('break_' + race['break_rule'], lang)}"
    if race.get("time_limit_min"):  # general A-G6
        rule = text.word("time_rule_" + race["time_rule"], lang)
        out += f", {text.word('time_limit', lang, n=race['time_limit_min'])} ({rule})"
        if race.get("time_called"):
            out += f", {text.word('time_up', lang).lower()}"
    return out


def _handicap(doc: Mapping[str, Any], lang: str) -> str:
    h = (doc.get("race") or {}).get("handicap")
    if not h:
        return ""
    return text.word("handicap_" + h["kind"], lang, name=doc["match"]["players"][h["seat"]], n=h["amount"])


def _options(options: Mapping[str, Any], lang: str) -> str:
    out = []
    for k, v in options.items():
        if k == "target":
            continue
        en, ru = option_label(k)
        value = text.word("yes" if v else "no", lang) if isinstance(v, bool) else str(v)
        out.append(f"{ru if lang == 'ru' else en}: {value}")
    return "; ".join(out)


def _last_time(doc: Mapping[str, Any]) -> int | None:
    times = [i["at_ms"] for i in doc.get("inputs") or []]
    return max(times) if times else None


def _result(doc: Mapping[str, Any], lang: str) -> str:
    r, names = doc["result"], doc["match"]["players"]
    if is_race(doc):
        return _race_result(doc, lang)
    scores = r.get("provisional_scores") or r["scores"]
    rows = "".join(
        f'<tr class="{"won" if r["winner"] == i else ""}"><td class="n">{escape(names[i])}</td>'
        f'<td class="s">{scores[i]}</td></tr>'
        for i in (0, 1)
    )
    if r["winner"] is not None:
        verdict = f"{text.word('winner', lang)}: {r['winner_name']} ({scores[0]}:{scores[1]})"
    elif r["draw"]:
        verdict = f"{text.word('draw', lang)} ({scores[0]}:{scores[1]})"
    else:
        prov = f", {text.word('provisional', lang)}" if r.get("provisional_scores") else ""
        verdict = f"{text.word('unfinished', lang)} ({scores[0]}:{scores[1]}{prov})"
    return f'<table class="result">{rows}</table><p class="verdict">{escape(verdict)}</p>'


def _race_result(doc: Mapping[str, Any], lang: str) -> str:
    """A race's result: the frame score in the box, the winner or why there is none."""
    r, race, names = doc["result"], doc["race"], doc["match"]["players"]
    score = race["score"]
    rows = "".join(
        f'<tr class="{"won" if r["winner"] == i else ""}"><td class="n">{escape(names[i])}</td>'
        f'<td class="s">{score[i]}</td></tr>'
        for i in (0, 1)
    )
    frames = f"{text.word('frames', lang)} {score[0]}:{score[1]}"
    if race["abandoned"] is not None:
        verdict = f"{text.word('abandoned', lang, reason=race['abandoned'])} ({frames})"
    elif r["winner"] is not None:
        verdict = f"{text.word('winner', lang)}: {r['winner_name']} ({frames})"
    else:
        verdict = f"{text.word('unfinished', lang)} ({frames})"
    return f'<table class="result">{rows}</table><p class="verdict">{escape(verdict)}</p>'


def _frames(doc: Mapping[str, Any], lang: str, tz: tzinfo) -> str:
    """The shot list: one table, or for a race one section per frame with its breaker and result."""
    if not is_race(doc):
        return _shots(doc, lang, tz)
    return "".join(f"{_frame_head(doc, f, lang)}{_shots(doc, lang, tz, f['number'])}" for f in doc["frames"])


def _frame_head(doc: Mapping[str, Any], frame: Mapping[str, Any], lang: str) -> str:
    names, res, w = doc["match"]["players"], frame["result"], text.word
    bits = [w("frame", lang, n=frame["number"])]
    if res["breaker"] is not None:
        bits.append(w("frame_breaks", lang, name=names[res["breaker"]]))
    s = res["scores"]
    if res["winner"] is not None:
        bits.append(
            f"{s[0]}:{s[1]}, {w('frame_won', lang, name=names[res['winner']])}"
            + (f" ({w('frame_conceded', lang)})" if res["conceded"] else "")
        )
    else:
        bits.append(f"{s[0]}:{s[1]}, {w('frame_drawn' if res['draw'] else 'frame_in_play', lang)}")
    return f'<h2 class="frame">{escape(" — ".join(bits))}</h2>'


def _shots(doc: Mapping[str, Any], lang: str, tz: tzinfo, frame: int | None = None) -> str:
    w = text.word
    head = "".join(
        f"<th>{escape(h)}</th>"
        for h in (
            "№",
            w("time", lang),
            w("player", lang),
            w("call", lang),
            w("balls", lang),
            w("fouls", lang),
            w("points", lang),
            w("running", lang),
            w("reasons", lang),
        )
    )
    items: list[tuple[int, int, str]] = [
        (a["at_ms"], 0, _action_row(doc, a, lang, tz))
        for a in doc["actions"]
        if a["status"] == "ok" and frame in (None, a.get("frame"))
    ]
    items += [
        (s["opened_ms"], 1, _shot_row(s, lang, tz)) for s in doc["shots"] if frame in (None, s.get("frame"))
    ]
    if frame is not None:
        items += [(-1, -1, row) for row in _handicap_rows(doc, frame, lang)]
    body = "".join(row for _, _, row in sorted(items, key=lambda x: (x[0], x[1])))
    cols = "".join(f'<col style="width:{w}%">' for w in (4, 8, 10.5, 6.5, 9.5, 12, 7.5, 6.5, 35.5))
    return (
        "<table "
        f'class="shots"><colgroup>{cols}</colgroup><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'
    )


def _shot_row(s: Mapping[str, Any], lang: str, tz: tzinfo) -> str:
    classes = [
        c
        for c, on in (
            ("foul", bool(s["fouls"])),
            ("provisional", s["provisional"]),
            ("void", s["status"] == "void"),
        )
        if on
    ]
    pa, pb = text.points(s)
    pts = " / ".join(f"{p:+d}".replace("-", "\u2212") if p else "0" for p in (pa, pb)) if (pa or pb) else ""
    note = text.status_note(s, lang)
    why = text.reasons(s, lang, "<br>") if not note else escape(note) + "<br>" + text.reasons(s, lang, "<br>")
    cells = [
        str(s["number"]),
        text.clock(s["opened_ms"], tz),
        s["shooter_name"] or "",
        text.calls(s, lang),
        text.balls(s, lang),
        text.foul_names(s, lang),
        pts,
        text.score(s["score_after"]),
    ]
    tds = "".join(
        f'<td class="{c}">{escape(v)}</td>'
        for c, v in zip(("num", "t", "pl", "call", "balls", "fl", "pt", "sc"), cells, strict=True)
    )
    return f'<tr class="{" ".join(classes)}">{tds}<td class="why">{_keep_br(why)}</td></tr>'


def _handicap_rows(doc: Mapping[str, Any], frame: int, lang: str) -> list[str]:
    """The frame's handicap as its first row: what each seat starts with, citing general A-G5."""
    opening = doc["frames"][frame - 1]["opening"]
    names, out = doc["match"]["players"], []
    for kind, reason in (("balls", R_HANDICAP_BALL), ("points", R_HANDICAP_POINTS)):
        for seat in (0, 1):
            n = opening[kind][seat]
            if n:
                label = text.word(f"handicap_{kind}", lang, name=names[seat], n=n)
                why = f"{reason.cite()}: {reason.ru if lang == 'ru' else reason.en}"
                out.append(
                    f'<tr class="action"><td class="num"></td><td></td><td colspan="6">'
                    f"{escape(text.word('handicap', lang))}: {escape(label)}</td>"
                    f'<td class="why">{escape(why)}</td></tr>'
                )
    return out


def _keep_br(html_text: str) -> str:
    return "<br>".join(escape(part) for part in html_text.split("<br>"))


def _action_row(doc: Mapping[str, Any], a: Mapping[str, Any], lang: str, tz: tzinfo) -> str:
    names = doc["match"]["players"]
    args = a.get("args") or {}
    seat = args.get("winner", args.get("player"))
    name = names[seat] if seat in (0, 1) else ""
    key = a["kind"] if a["kind"] in text.WORDS else None
    label = text.word(key, lang, name=name, option=args.get("option", "")) if key else a["kind"]
    return (
        f'<tr class="action"><td class="num"></td><td>{text.clock(a["at_ms"], tz)}</td>'
        f'<td colspan="6">{escape(label)}</td><td class="why">{_keep_br(text.reasons(a, lang, "<br>"))}'
        f"</td></tr>"
    )


def _note(doc: Mapping[str, Any], lang: str) -> str:
    v = doc.get("verification") or {}
    n = v.get("replayed_inputs", len(doc.get("inputs") or []))
    head = text.word("verified", lang)
    if (v.get("evidence") or {}).get("complete") is False:  # holes in the nodes' seqs: not "verified"
        head, body, cls = text.word("incomplete", lang), str(v["evidence"][lang]), "note bad"
    elif v.get("matches_stored_state") is False:
        body, cls = text.word("verified_bad", lang, d=len(v.get("differences") or [])), "note bad"
    elif v.get("matches_stored_state") is None:
        body, cls = text.word("verified_none", lang, n=n), "note"
    else:
        body, cls = text.word("verified_ok", lang, n=n), "note"
    evidence = text.word("evidence", lang, id=doc["match"]["id"])
    gen = doc.get("generator") or {}
    return (
        f'<div class="{cls}"><b>{escape(head)}:</b> {escape(body)}<br>'
        f"{escape(evidence)} {escape(text.word('generated', lang))}: luza "
        f"{escape(str(gen.get('version', '')))}</div>"
    )


def _key(doc: Mapping[str, Any], lang: str, key: str | None) -> str:
    """The fingerprint of the club's key that signs this file and its evidence (hub/export/signing.py)."""
    if key is None:
        return ""
    check = f"luza verify luza-match-{doc['match']['id']}.json --fingerprint {key}"
    text = (
        f"Подписано ключом клуба {key}; проверить: {check}"
        if lang == "ru"
        else f"Signed with the club's key {key}; check: {check}"
    )
    return f'<div class="note key">{escape(text)}</div>'


def _signatures(doc: Mapping[str, Any], lang: str) -> str:
    names = doc["match"]["players"]
    cells = [text.word("referee", lang), *names]
    tds = "".join(f"<td><div>{escape(c)} ({escape(text.word('signature', lang))})</div></td>" for c in cells)
    return f'<table class="sign"><tr>{tds}</tr></table>'
