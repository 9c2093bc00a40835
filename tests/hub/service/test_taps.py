"""Every tap the referee makes is refused at once when the rules would refuse it later, and every accepted tap
can be taken back (issue 20 item 1); the same tap pressed again while the first waits for its commit is
refused (issue 18 item 3). The session tests play the fold directly;
the last test stalls the hub's real commit."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from hub import configfile
from hub.cli import main
from hub.export import build, load
from hub.reconcile.table import TableSession, rederived
from hub.service.hub import Hub
from hub.store.database import Store
from hub.view.build import scoreboard
from hub.vocab.checks import RefereeInputError
from hub.vocab.inputs import input_from_record, input_to_record
from tests.export.matchkit import Clock, Table, open_hub
from tests.hub.conftest import TABLES
from tests.hub.service.test_idempotent import Locked, referee_rows
from tests.hub.service.test_service import PLAYERS, wait_for
from tests.hub.tablekit import Kit, item, session

ROOT = Path(__file__).resolve().parents[3]


def calls_asked(s: TableSession) -> bool:
    """The engine asks for a call before the next shot: what the panel reads to offer its call button."""
    return any(n["kind"] == "declaration" for n in scoreboard(s)["needs"])


def test_classic_5_2_a_call_on_the_break_is_refused_at_the_tap_and_the_match_goes_on() -> None:
    """classic 5.2 (A-C4): no call is made on the break. On today's main the hub said "accepted", then refused
    to score the break and held the table (0:0 shot after shot until undone)."""
    k = Kit()
    s = session("classic", [k.ref("lag", 500, winner=0)])
    assert not calls_asked(s)  # the panel offers no call on the break
    with pytest.raises(RefereeInputError) as refused:
        s.apply(k.ref("declare", 800, ball=6, pocket=3))
    assert refused.value.en == (
        "call refused: classic 5.2: no call is made on the break (A-C4); remove the declaration"
    )
    assert refused.value.ru.startswith("заказ не принят: classic 5.2: на начальном ударе заказ не делается")
    assert refused.value.code == "refused" and refused.value.field == "calls"
    assert len(s.log) == 1 and scoreboard(s)["next_shot"] == {"declarations": []}
    s.apply(k.strike(1000))
    with pytest.raises(RefereeInputError, match="no call is made on the break"):
        s.apply(k.ref("declare", 1100, ball=6, pocket=3, shot="current"))  # the open break itself
    assert calls_asked(s)  # after the break (provisionally): the call for shot 2
    s.apply(k.ref("declare", 1200, ball=6, pocket=3))  # for the next shot, while the break rolls
    s.apply(k.ref("close_shot", 9000))
    assert s.status == "live" and not s.alerts
    assert scoreboard(s)["next_shot"]["declarations"] == [
        {"ball": 6, "pocket": 3, "kind": "object", "method": ""}
    ]
    s.apply(k.strike(20000, seat=1))
    s.apply(k.pocket(21000, 3))
    s.apply(k.ref("close_shot", 30000))
    assert s.status == "live" and s.match.state.scores == (0, 6)  # classic 5.3: the called ball counts


def test_a_call_the_engine_refuses_is_refused_at_the_tap() -> None:
    k = Kit()
    s = session("classic", [k.ref("lag", 500, winner=0), k.strike(1000), k.ref("close_shot", 9000)])
    with pytest.raises(RefereeInputError, match=r"classic 5\.5: the cue ball cannot be called"):
        s.apply(k.ref("declare", 10000, calls=[{"ball": 0, "pocket": 2, "kind": "cue_ball"}]))
    with pytest.raises(RefereeInputError, match="call one object ball"):
        s.apply(k.ref("declare", 10000, calls=[{"ball": 1, "pocket": 2}, {"ball": 2, "pocket": 3}]))
    star = session("star", [k.ref("lag", 500, winner=0)])
    with pytest.raises(RefereeInputError, match=r"star 4\.3: no calls are made"):
        star.apply(k.ref("declare", 800, ball=3, pocket=1))


def test_hundred_2_a_call_on_the_break_is_allowed_and_can_be_taken_back() -> None:
    """hundred 2: only the safety rule binds the break,
    and a called ball counts there: the call is offered."""
    k = Kit()
    s = session("hundred", [k.ref("lag", 500, winner=0)])
    assert calls_asked(s)
    s.apply(k.ref("declare", 800, ball=6, pocket=3))
    assert [q for q in s.questions if q.action == "declare"] == []  # the call is made: not asked
    with pytest.raises(RefereeInputError, match=r"ball 3 is not a numbered ball on the table \(hundred 4\)"):
        s.apply(k.ref("declare", 900, ball=3, pocket=3))
    s.apply(k.ref("declare", 1000, calls=[]))  # taken back: asked again, nothing called for the break
    assert scoreboard(s)["next_shot"] == {"declarations": []}
    assert [q.action for q in s.questions if q.action == "declare"] == ["declare"]
    s.apply(k.strike(2000))
    assert s.assembler.open is not None and s.assembler.open.declarations == ()


def double_hit_shot() -> tuple[Kit, TableSession, str]:
    k = Kit()
    strike = k.strike(1000, double=True)
    s = session("free", [k.ref("lag", 500, winner=0), strike, k.pocket(2000, 1)])
    return k, s, f"double_hit:{item(strike)}"


def test_an_answer_is_taken_back_and_asked_again() -> None:
    k, s, q = double_hit_shot()
    s.apply(k.ref("confirm", 3000, question=q, answer="foul"))
    assert "double_hit" in scoreboard(s)["shot"]["fouls"] and q not in {x.id for x in s.questions}
    assert scoreboard(s)["shot"]["answers"] == {q: "foul"}
    s.apply(k.ref("withdraw", 4000, what="answer", question=q))
    board = scoreboard(s)
    assert board["shot"]["answers"] == {} and "double_hit" not in board["shot"]["fouls"]
    assert q in {x.id for x in s.questions}  # asked again
    # both kept: a new input
    assert [a["kind"] for a in board["shot"]["amendments"]] == ["confirm", "withdraw"]
    with pytest.raises(RefereeInputError, match="has no answer to question"):
        s.apply(k.ref("withdraw", 5000, what="answer", question=q))  # nothing left to take back
    assert json.dumps(scoreboard(rederived(s)), sort_keys=True) == json.dumps(scoreboard(s), sort_keys=True)


def test_a_named_ball_and_a_removed_ball_are_taken_back() -> None:
    k = Kit()
    ball = k.pocket(2000, 5)
    s = session("classic", [k.ref("lag", 500, winner=0), k.strike(1000), ball])
    s.apply(k.ref("identify", 3000, item=item(ball), ball=4))
    assert scoreboard(s)["shot"]["pocketed"][0]["named"] is True and s.match.state.scores == (0, 0)
    s.apply(k.ref("withdraw", 3500, what="identity", item=item(ball)))
    shot = scoreboard(s)["shot"]
    assert shot["pocketed"][0]["named"] is False and shot["pocketed"][0]["ball"] is None
    assert [q.item for q in s.questions if q.action == "identify"] == [item(ball)]  # asked again
    s.apply(k.ref("remove", 4000, item=item(ball)))
    assert scoreboard(s)["shot"]["taken_out"] == [{"item": item(ball), "pocket": 5, "source": "sensor"}]
    s.apply(k.ref("withdraw", 4500, what="removal", item=item(ball)))
    assert scoreboard(s)["shot"]["taken_out"] == [] and len(scoreboard(s)["shot"]["pocketed"]) == 1
    with pytest.raises(RefereeInputError, match="was not removed; nothing to put back"):
        s.apply(k.ref("withdraw", 5000, what="removal", item=item(ball)))
    with pytest.raises(RefereeInputError, match="was not named by the referee"):
        s.apply(k.ref("withdraw", 5000, what="identity", item=item(ball)))
    assert json.dumps(scoreboard(rederived(s)), sort_keys=True) == json.dumps(scoreboard(s), sort_keys=True)


def test_a_removed_strike_and_a_new_shot_answer_cannot_be_put_back_and_say_what_to_do() -> None:
    k = Kit()
    bump = k.strike(1000)
    s = session("free", [k.ref("lag", 500, winner=0), bump, k.ref("remove", 1500, item=item(bump))])
    with pytest.raises(RefereeInputError, match="re-cut the shots; it cannot be put back"):
        s.apply(k.ref("withdraw", 2000, what="removal", item=item(bump)))
    late = k.pocket(20000, 2)
    s2 = session("free", [k.ref("lag", 500, winner=0), k.strike(3000), k.pocket(3500, 1), late])
    q = f"late_drop:{item(late)}"
    s2.apply(k.ref("confirm", 21000, question=q, answer="new_shot"))
    with pytest.raises(RefereeInputError, match="made a shot of its own; undo that shot instead"):
        s2.apply(k.ref("withdraw", 22000, what="answer", question=q))


@pytest.mark.parametrize(
    ("args", "field", "words"),
    [
        ({"what": "everything"}, "what", "one of answer, identity, removal"),
        ({"what": "answer", "item": "pk-1/1/1"}, "item", "named by its question"),
        ({"what": "identity", "question": "late_drop:x"}, "question", "item id"),
        ({"what": "removal"}, "item", "non-empty text"),
    ],
)
def test_a_malformed_withdrawal_names_its_field(args: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(RefereeInputError) as err:
        Kit.ref("withdraw", 0, **args)
    assert err.value.field == field and words in err.value.en and err.value.ru != err.value.en


def test_a_withdrawal_is_stored_and_read_back_as_it_was() -> None:
    a = Kit.ref("withdraw", 123, uid="u-1", what="answer", question="double_hit:cue-a/1/1")
    rec = input_to_record(a)
    assert rec == {
        "type": "referee",
        "kind": "withdraw",
        "at_ms": 123,
        "uid": "u-1",
        "args": {"what": "answer", "question": "double_hit:cue-a/1/1"},
    }
    assert input_from_record(json.loads(json.dumps(rec))) == a


def test_a_match_with_taps_taken_back_replays_exports_and_verifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The taking back is a new input: `luza replay` re-derives the stored state, the export is valid and
    `luza verify` replays it to the same result without the database."""
    db = tmp_path / "luza.db"
    clock = Clock()
    hub = open_hub(db, clock)
    try:
        t = Table(hub, clock)
        t.births()
        hub.new_match("t1", "classic", PLAYERS)
        t.ref("lag", winner=0)
        t.wait(5000)
        t.shot(0, [5])
        hub.wait_idle()
        q = next(q for q in hub.state("t1")["match"]["questions"] if q["action"] == "identify")
        t.ref("identify", item=q["item"], ball=9)
        t.ref("withdraw", what="identity", item=q["item"])  # a wrong tap taken back, then the right one
        t.ref("identify", item=q["item"], ball=4)
        t.ref("declare", ball=15, pocket=6)
        t.ref("declare", calls=[])
        t.shot(0, [3], call=(15, 3))
        t.ref("foul", foul="miss")
        t.ref("foul", foul="miss", on=False)
        ball = hub.state("t1")["match"]["shot"]["pocketed"][0]["item"]
        t.ref("remove", item=ball)
        assert hub.state("t1")["match"]["shot"]["taken_out"][0]["item"] == ball
        t.ref("withdraw", what="removal", item=ball)
        t.ref("end_match")
        hub.wait_idle()
        assert hub.state("t1")["last_match"]["scores"] == [19, 0]  # 4 on the break (classic 5.1), 15 called
    finally:
        hub.stop()
    assert main(["replay", str(db), "--match", "1"]) == 0
    assert "verified" in capsys.readouterr().out
    store = Store(db, readonly=True)
    try:
        doc = json.loads(json.dumps(build(load(store, 1))))
    finally:
        store.close()
    jsonschema.validate(doc, json.loads((ROOT / "docs" / "match-export.schema.json").read_text()))
    withdrawn = [i for i in doc["inputs"] if i["origin"].get("action") == "withdraw"]
    assert [i["corrects"]["shot"] for i in withdrawn] == [1, 2]  # each names the shot it corrects
    assert all(i["applied"] for i in doc["inputs"]) and doc["verification"]["matches_stored_state"] is True
    out = tmp_path / "m.json"  # the club's export is signed (hub/export/signing.py): verify checks that too
    assert main(["export", "--db", str(db), "--match", "1", "--format", "json", "-o", str(out)]) == 0
    assert main(["verify", str(out)]) == 0
    assert "signed by" in capsys.readouterr().out


# ---------------------------------------------------------------- one tap applied once (issue 18 item 3)


def test_the_same_tap_with_a_new_uid_is_refused_while_the_first_waits_for_its_commit(tmp_path: Path) -> None:
    """A commit outage (another connection holds the write lock): "add ball into pocket 3" waits; the same tap
    with a new uid (a second press, a reloaded panel) is refused at once with the reason, the first one's uid
    again is not (a retry); once the commit goes through the ball counts once,
    and the same tap later is a second ball."""
    db = tmp_path / "luza.db"
    hub = Hub(configfile.parse({"store": {"path": str(db)}, "tables": TABLES}), mqtt=False).start()
    try:
        hub.submit("t1", {"kind": "new_match", "variant": "free", "players": list(PLAYERS)})
        hub.submit("t1", {"kind": "lag", "winner": 0})
        hub.submit("t1", {"kind": "open_shot"})
        lock = Locked(db)
        add = {"kind": "add_ball", "pocket": 3}
        first = hub.submit_async("t1", {**add, "uid": "tap-1"})
        wait_for(lambda: hub.stats["commit_failures"] >= 1, 30)  # the store refuses: the tap is pending
        second = hub.submit_async("t1", {**add, "uid": "tap-2"})
        with pytest.raises(RefereeInputError) as refused:
            second.result(1)  # answered at once, not after the outage
        assert refused.value.code == "refused" and refused.value.field == "uid"
        assert "the same 'add_ball'" in refused.value.en and "still waiting to be stored" in refused.value.en
        assert "ещё ждёт сохранения" in refused.value.ru
        # another effect
        other_pocket = hub.submit_async("t1", {"kind": "add_ball", "pocket": 4, "uid": "tap-3"})
        retry = hub.submit_async("t1", {**add, "uid": "tap-1"})
        assert not first.done() and not retry.done() and not other_pocket.done()
        lock.release()
        assert first.result(30)["match"]["shot"]["number"] == 1
        assert retry.result(30)["replayed"] is True and other_pocket.result(30)
        pocketed = hub.state("t1")["match"]["shot"]["pocketed"]
        assert sorted(p["pocket"] for p in pocketed) == [3, 4]  # pocket 3 once
        # the first one answered: the same tap again is a second ball
        hub.submit("t1", {**add, "uid": "tap-4"})
        assert sorted(p["pocket"] for p in hub.state("t1")["match"]["shot"]["pocketed"]) == [3, 3, 4]
        assert hub.stats["referee_duplicate_pending"] == 1
    finally:
        hub.stop()
    assert [uid for kind, uid in referee_rows(db) if kind == "add_ball"] == ["tap-1", "tap-3", "tap-4"]
