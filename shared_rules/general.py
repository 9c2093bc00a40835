"""The МКП «Общие правила Пирамиды» paragraphs the variants cite, written once (docs/rules/general.md).

Each rule is a small function over a `Draft`; reasons cite `general <§>`. Where the МКП text was not found
the default of docs/rules/general.md is used and the option that changes it is named
(`break_min_balls_to_cushion`, `incorrect_break_rebreak`, `require_correct_completion`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .draft import Draft
from .errors import IllegalInputError, MalformedInputError
from .model import Colour, Foul, InHand, Interference, Lag, ShotReport, Spot
from .outcome import EffectKind, Reason
from .state import LAG, PLAY, REFEREE, State


def _r(paragraph: str, en: str, ru: str, ambiguity: str | None = None) -> Reason:
    return Reason("general", paragraph, en, ru, ambiguity)


# Every general paragraph the engine cites, with what it says (the coverage test checks each has a test).
PARAGRAPHS: dict[str, str] = {
    "5.3": "the cue ball must touch at least one object ball (miss = foul)",
    "8.1": "rack: 15 object balls in a pyramid, apex on the foot spot",
    "8.2": "the cue ball starts in the house, in hand",
    "10": "after a foul the offender's visit ends; the opponent plays on",
    "11": "lag; the break is from hand from the house",
    "12": "a correct break: a ball pocketed or enough object balls to a cushion",
    "12.1": "an incorrect break is a foul",
    "14.2": "starting a shot before the previous one ended is a foul",
    "15": "the cue ball is struck only with the cue tip (and only the cue ball)",
    "16": "not both feet off the floor",
    "17": "forbidden touching of balls",
    "18": "double hit",
    "19.1": "push or press shot",
    "19.2": "touching balls: strike at 45° or more, else a push",
    "20": "correctly completed shot: a pot, two cushions, or a cushion and a crossing",
    "21.1": "from hand: anywhere in the house, not on the line, not touching a house ball",
    "21.2": "touching a ball while placing: foul, the right to play from hand passes",
    "21.3": "placed on the line or outside the house: warned; striking anyway is a foul",
    "21.4": "from hand the cue ball must leave the house before touching a ball",
    "21.5": "every object ball in the house: the temporary house is used",
    "22.1": "a ball pocketed by a correct shot is correctly pocketed",
    "22.2": "correctly pocketed balls go on the shooter's shelf",
    "22.3": "a foul during the shot makes every ball pocketed on it incorrectly pocketed",
    "22.4": "incorrectly pocketed balls do not count and are spotted",
    "22.5": "a ball that bounces out of a pocket is not pocketed",
    "24.3": "a jumped cue ball or object ball is a foul",
    "25": "spotting: foot spot, then the spotting line, then toward the centre spot",
    "26": "slow play is a foul",
    "27": "outside interference: restore, or re-rack with the scores kept",
    "28": "interfering with the opponent is a foul",
    "29.1": "the list of fouls",
    "29.2": "several breaches on one shot are penalised once",
    "A-G4": "a race to N frames: the lag, then the break rule (alternate, "
    "loser or winner breaks); first to N wins",
    "A-G5": "handicap: points or balls on the shelf in every frame, or frames before the first break",
}

R_MISS = _r("5.3", "miss: the cue ball touched no object ball", "промах: биток не коснулся прицельного шара")
R_RACK = _r(
    "8.1", "pyramid of 15 balls, apex on the foot spot", "пирамида из 15 шаров, вершина на задней отметке"
)
R_HOUSE_START = _r("8.2", "the cue ball starts in the house, in hand", "биток в доме, с руки")
R_FOUL_TURN = _r(
    "10",
    "foul: the visit ends, the opponent plays on from the position left",
    "нарушение: подход окончен, соперник продолжает из сложившейся позиции",
    "A-F2",
)
R_LAG = _r(
    "11",
    "lag won: this player breaks, from hand from the house",
    "розыгрыш выигран: разбивает этот игрок с руки из дома",
)
R_BREAK_OK = _r("12", "correct break", "правильный начальный удар")
R_BAD_BREAK = _r(
    "12.1",
    "incorrect break: no ball pocketed and too few object balls reached a cushion",
    "неправильный начальный удар: ни один шар не забит и мало шаров коснулось бортов",
)
R_REBREAK = _r(
    "12.1",
    "after the incorrect break the balls are racked again and the opponent breaks",
    "после неправильного разбоя шары расставляются заново, разбивает соперник",
)
R_HAND_HOUSE = _r(
    "21.1",
    "cue ball in hand: place it in the house, not on the home line, not touching a ball in the house",
    "биток с руки: в доме, не на линии дома и не вплотную к шару в доме",
)
R_PLACEMENT = _r(
    "21.2",
    "a ball was touched while placing the cue ball: the right to play from hand passes to the opponent",
    "при установке битка задет шар: право удара с руки переходит к сопернику",
)
R_TEMP_HOUSE = _r(
    "21.5",
    "every object ball lies in the house: use the temporary house behind the foot spot, play toward the head",
    "все прицельные шары в доме: используется временный дом за задней отметкой, "
    "удар в сторону переднего борта",
)
R_POTTED = _r("22.2", "correctly pocketed: onto the shooter's shelf", "правильно забит: на полку игрока")
R_INCORRECT = _r(
    "22.3",
    "pocketed on a foul: incorrectly pocketed, does not count",
    "забит при нарушении: забит неправильно, не засчитывается",
)
R_SPOT = _r(
    "25",
    "spot the ball: foot spot; if taken, the next free place on the spotting line; "
    "if full, toward the centre spot",
    "выставить шар: на заднюю отметку; если занята — на линию выставления; если она занята — к центру",
)
R_RESTORE = _r(
    "27",
    "outside interference: the balls are put back where they were; no penalty",
    "вмешательство постороннего: шары возвращены на места, штрафа нет",
)
R_RERACK = _r(
    "27",
    "outside interference, positions lost: coloured ball to the house, the rest racked (incomplete pyramid, "
    "general 8), new lag, break as at the start; the score is kept",
    "вмешательство постороннего, позицию не восстановить: цветной шар в дом, остальные — пирамидой "
    "(неполной, п.8), новый розыгрыш, игра по правилу начального удара; счёт сохраняется",
    "A-G3",
)
R_ONCE = _r(
    "29.2",
    "several breaches on one shot: penalised once",
    "несколько нарушений за один удар: штраф взимается один раз",
)

# The FOUL effect of each foul cites the paragraph that defines it (29.1 lists them).
_FOUL_TEXT: dict[Foul, tuple[str, str, str]] = {
    Foul.MISS: ("5.3", "foul 29.1(1): miss", "штраф 29.1(1): промах"),
    Foul.BAD_BREAK: ("12.1", "foul 29.1(2): incorrect break", "штраф 29.1(2): неправильный начальный удар"),
    Foul.EARLY_START: (
        "14.2",
        "foul 29.1(3): shot started before the previous one ended",
        "штраф 29.1(3): удар до завершения предыдущего",
    ),
    Foul.BAD_CUE_STRIKE: (
        "15",
        "foul 29.1(4): incorrect strike of the cue ball",
        "штраф 29.1(4): неправильный удар кием по битку",
    ),
    Foul.BOTH_FEET_OFF: (
        "16",
        "foul 29.1(5): both feet off the floor",
        "штраф 29.1(5): отрыв обеих ног от пола",
    ),
    Foul.TOUCH: (
        "17",
        "foul 29.1(6): forbidden touching of a ball",
        "штраф 29.1(6): запрещённое касание шаров",
    ),
    Foul.DOUBLE_HIT: ("18", "foul 29.1(7): double hit", "штраф 29.1(7): двойной удар"),
    Foul.PUSH: ("19.1", "foul 29.1(8): push or press shot", "штраф 29.1(8): пропих"),
    Foul.NOT_COMPLETED: (
        "20",
        "foul 29.1(9): shot not correctly completed (no two cushions, nor a cushion and a crossing)",
        "штраф 29.1(9): неправильно завершённый удар (нет двух бортов или борта с перекатом)",
    ),
    Foul.JUMPED: (
        "24.3",
        "foul 29.1(10): a ball jumped off the table",
        "штраф 29.1(10): шар выскочил за борт",
    ),
    Foul.SLOW_PLAY: ("26", "foul 29.1(11): slow play", "штраф 29.1(11): замедленная игра"),
    Foul.INTERFERENCE: (
        "28",
        "foul 29.1(12): interfering with the opponent",
        "штраф 29.1(12): вмешательство в игру соперника",
    ),
    Foul.PLACEMENT: (
        "21.2",
        "foul: a ball touched while placing the cue ball",
        "штраф: касание шара при установке битка",
    ),
    Foul.OUTSIDE_HOUSE: (
        "21.3",
        "foul: struck from the home line or outside the house",
        "штраф: удар с линии дома или из-за пределов дома",
    ),
    Foul.HOUSE_BALL_STRUCK: (
        "21.4",
        "foul: from hand, a ball in the house was struck directly",
        "штраф: с руки битком прямо сыгран шар в доме",
    ),
}


def _foul_reason(foul: Foul) -> Reason:
    known = _FOUL_TEXT.get(foul)
    if known is not None:
        return _r(*known)
    # A variant's own foul carries "variant paragraph" as its value (e.g. "star 4.3").
    variant, _, paragraph = foul.value.partition(" ")
    name = foul.name.lower().replace("_", " ")
    return Reason(variant, paragraph, f"foul: {name}", f"штраф: {name}")


FOUL_REASONS: dict[Foul, Reason] = {f: _foul_reason(f) for f in Foul}

# Order in which fouls are listed in an outcome (stable, by the 29.1 list).
FOUL_ORDER: dict[Foul, int] = {f: i for i, f in enumerate(Foul)}

# §25: a standard 12-ft table has ≈ 0.89 m from the foot spot to the foot rail cushion: room for ≈ 12 balls of
# 68 mm on the spotting line (docs/rules/general.md §25). Beyond that, toward the centre spot.
SPOTTING_LINE_CAPACITY = 12


# -- the lag and the break -----------------------------------------------------------------------------------


def initial_state(variant: str, balls: Sequence[int], special: int) -> State:
    """General 8.1/8.2: the pyramid on the table, the coloured ball in hand in the house, the lag due."""
    table = tuple(b for b in balls if b != special)
    return State(
        variant,
        table,
        ((), ()),
        (0, 0),
        hand=special,
        in_hand=InHand.HOUSE,
        is_break=True,
        mode=LAG,
        placed=((min(table), Spot.FOOT.value),) if table else (),
    )


def lag(state: State, inp: Lag) -> Draft:
    """General 11: the lag winner breaks, from hand from the house."""
    if state.mode != LAG:
        raise IllegalInputError("no lag is due now", "розыгрыш сейчас не проводится")
    check_player(inp.winner, "Lag.winner")
    d = Draft(state)
    d.mode = PLAY
    d.breaker = inp.winner
    d.is_break = True
    d.pass_turn(inp.winner, R_LAG)
    return d


def break_is_correct(shot: ShotReport, object_pocketed: int, min_to_cushion: int) -> bool:
    """General 12: True if the break is correct (a ball pocketed, or enough object balls to a cushion).

    `break_balls_to_cushion` None means not reported: the ordinary reading, a correct break.
    """
    if object_pocketed > 0 or shot.break_balls_to_cushion is None:
        return True
    return shot.break_balls_to_cushion >= min_to_cushion


def correctly_completed(shot: ShotReport, any_pocketed: bool) -> bool:
    """General 20: a pot, or two cushion contacts, or a cushion contact and a centre-line crossing.

    Unreported facts (None) are read as fulfilled; only a definite report makes the foul.
    """
    if any_pocketed or shot.cushions is None:
        return True
    if shot.cushions >= 2:
        return True
    return shot.cushions == 1 and shot.centre_crossing is not False


# -- fouls and spotting --------------------------------------------------------------------------------------


def call_fouls(d: Draft, fouls: Sequence[Foul], offender: int) -> None:
    """Record every foul (29.1) and that they are penalised once (29.2)."""
    for f in fouls:
        d.emit(EffectKind.FOUL, FOUL_REASONS[f], player=offender, detail=f.value)
    if len(fouls) > 1:
        d.emit(EffectKind.NOTE, R_ONCE, player=offender, amount=len(fouls))


def spot_balls(d: Draft, balls: Iterable[int], reason: Reason = R_SPOT) -> None:
    """General 25: spot `balls` (already off the table) in order; the first on the foot spot, then the line.

    The engine cannot see whether the foot spot is free; the instruction carries the fallback order and the
    referee places the balls. Balls spotted by the same input follow each other along the spotting line.
    """
    taken = sum(1 for _, s in d.placed if s != Spot.HOUSE.value)
    for ball in balls:
        if taken == 0:
            spot = Spot.FOOT.value
        elif taken <= SPOTTING_LINE_CAPACITY:
            spot = Spot.SPOTTING_LINE.value
        else:
            spot = Spot.TOWARD_CENTRE.value
        taken += 1
        d.on_table.append(ball)
        d.placed.append((ball, spot))
        d.emit(EffectKind.SPOT, reason, ball=ball, spot=spot)
        if reason is not R_SPOT:
            d.emit(EffectKind.TO_TABLE, R_SPOT, ball=ball, spot=spot)


def incorrectly_pocketed(d: Draft, balls: Sequence[int]) -> None:
    """General 22.3/22.4: the balls do not count (the caller spots them, by the variant's spotting rule)."""
    for ball in balls:
        d.emit(EffectKind.NOTE, R_INCORRECT, ball=ball)


def placement_foul(d: Draft, where: InHand, cue: int, offender: int) -> None:
    """General 21.2: after a ball touched while placing, the opponent has the cue ball in hand, same area."""
    if d.hand is None and cue in d.on_table:
        d.on_table.remove(cue)
        d.placed = [p for p in d.placed if p[0] != cue]
        d.to_hand(cue, where, 1 - offender, R_PLACEMENT)


def rebreak(d: Draft, offender: int, coloured: int) -> None:
    """General 12.1 with `incorrect_break_rebreak`: rack again; the opponent breaks from the house."""
    if coloured in d.on_table:
        d.on_table.remove(coloured)
        d.hand = coloured
    if d.hand is not None:
        d.to_hand(d.hand, InHand.HOUSE, 1 - offender, R_REBREAK)
    d.emit(EffectKind.RACK, R_REBREAK, amount=len(d.on_table))
    d.is_break = True


def check_player(player: object, field: str) -> None:
    """MalformedInputError unless `player` is a seat, 0 or 1."""
    if type(player) is not int or player not in (0, 1):
        raise MalformedInputError(
            f"{field}: {player!r} is not a seat (0 or 1)", f"{field}: {player!r} — не игрок (0 или 1)"
        )


def check_turn(state: State, s: ShotReport) -> None:
    """General 11 and 28: raise unless a shot may be played now (no lag,
    decision or choice due), by to_play."""
    if state.mode == LAG:
        raise IllegalInputError("enter the lag first (general 11)", "сначала проведите розыгрыш (п.11)")
    if state.mode == REFEREE:
        raise IllegalInputError("the referee must decide first (see needs)", "сначала нужно решение судьи")
    if state.pending is not None:
        p = state.pending
        raise IllegalInputError(
            f"player {p.player} must first choose ({p.kind})",
            f"игрок {p.player} должен сначала выбрать ({p.kind})",
        )
    check_player(s.shooter, "ShotReport.shooter")
    if s.shooter != state.to_play:
        raise IllegalInputError(
            f"it is player {state.to_play}'s shot, not player {s.shooter}'s (general 28: a shot out of turn "
            "is reported as the non-shooter's interference foul)",
            f"удар игрока {state.to_play}, а не {s.shooter} (п.28)",
        )
    if s.offender is not None:
        check_player(s.offender, "ShotReport.offender")


# -- outside interference (§27) ------------------------------------------------------------------------------


def interference(state: State, inp: Interference, coloured: int = 0) -> Draft:
    """General 27: restore = an audit entry only; otherwise re-rack, new lag, scores kept."""
    d = Draft(state)
    if inp.restore:
        d.emit(EffectKind.NOTE, R_RESTORE)
        return d
    if state.pending is not None:
        raise IllegalInputError(
            "answer the pending choice before re-racking", "сначала ответьте на ожидающий выбор"
        )
    if state.mode == REFEREE:
        raise IllegalInputError(
            "the referee decision is due first; re-racking cannot resolve it",
            "сначала решение судьи; перерасстановка его не заменяет",
        )
    rerack(d, R_RERACK, coloured)
    d.mode = LAG
    d.is_break = True
    return d


def rerack(d: Draft, reason: Reason, coloured: int = 0) -> None:
    """Coloured ball to the house (if it is on a shelf it swaps with a white ball on the table, A-G3); the
    white balls on the table form a (possibly incomplete,
    general 8) pyramid with the apex on the foot spot."""
    if d.hand is None:
        if coloured in d.on_table:
            d.on_table.remove(coloured)
        else:
            for p in (0, 1):
                if coloured in d.shelves[p] and d.on_table:
                    white = min(d.on_table)
                    d.on_table.remove(white)
                    i = d.shelves[p].index(coloured)
                    d.shelves[p][i] = white  # the score stays as it was: the white ball takes its place
                    d.emit(EffectKind.TO_SHELF, reason, player=p, ball=white, detail="replaces_coloured")
        d.hand = coloured if coloured not in d.shelves[0] and coloured not in d.shelves[1] else None
    if d.hand is not None:
        d.to_hand(d.hand, InHand.HOUSE, d.to_play, reason)
    d.placed = [(b, Spot.FOOT.value if i == 0 else "rack") for i, b in enumerate(sorted(d.on_table))]
    d.emit(
        EffectKind.RACK,
        reason,
        amount=len(d.on_table),
        detail="incomplete" if len(d.on_table) < 15 else "full",
    )


def colour_default(ball: int) -> Colour:
    """Ball 0 is the coloured (yellow) ball, the rest ivory: Free, Combined, Dynamic, Classic, 100 points."""
    return Colour.YELLOW if ball == 0 else Colour.IVORY
