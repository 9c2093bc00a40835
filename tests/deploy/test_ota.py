"""Over-the-air updates end to end: the locked-down broker, the hub with its HTTP, and virtual devices that
boot from their own flash folder in their own process (hub/virtual/device.py), so the new build really runs —
or really crashes. Each node downloads with its own credential and checks every file
against the signed manifest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hub import cli
from hub.service.control import ControlServer
from tests.deploy.ota_kit import BASE, Stand, crash_at_start, source_build, stand, state_file, tree, until
from tests.support.proxy import TcpProxy

pytestmark = pytest.mark.mosquitto

BOOT_S = 30.0  # a virtual device boots in about a second; a loaded machine may take many


@pytest.fixture(scope="module")
def base_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("builds")
    return source_build(tree(tmp, BASE), tmp / "base")


def test_update_is_downloaded_checked_swapped_and_kept(
    tmp_path: Path, base_build: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with stand(tmp_path) as s:
        dev = s.device("t1", "p1", [1, 2, 3], base_build).start()
        try:
            until(lambda: s.online("p1") and s.fw("p1") == BASE, BOOT_S, "p1 did not come online", dev)
            new = s.release(tree(tmp_path, "0.1.1"))
            (result,) = s.hub.ota.push(["p1"], new.id)
            assert result.ok, result.en
            until(
                lambda: s.ota("p1").get("st") == "ok" and s.fw("p1") == "0.1.1",
                BOOT_S,
                f"p1 did not keep 0.1.1: {s.ota('p1')}",
                dev,
            )
            assert s.online("p1") and s.ota("p1")["r"] == new.id
            assert state_file(dev)["good"] == "/ota/a" and "try" not in state_file(dev)
            assert dev.boots == 2 and s.hub.ota.stats["swaps"] == 1
            assert cli.main(["devices", "--db", s.cfg.store.path]) == 0  # `luza devices` shows how it ended
            line = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("p1 "))
            assert "0.1.1" in line and line.endswith(f"ok {new.id}")
        finally:
            dev.stop()


def test_a_corrupted_file_is_refused_and_the_old_build_keeps_running(
    tmp_path: Path, base_build: Path
) -> None:
    with stand(tmp_path) as s:
        dev = s.device("t1", "p1", [1, 2, 3], base_build).start()
        try:
            until(lambda: s.online("p1") and s.fw("p1") == BASE, BOOT_S, "p1 did not come online", dev)
            new = s.release(tree(tmp_path, "0.1.1"))
            stored = new.file("firmware/node.py")
            assert stored is not None
            data = bytearray(stored.read_bytes())
            data[100] ^= 0x20  # one bit flipped on the hub's disk: same size, another SHA-256
            stored.write_bytes(bytes(data))
            (result,) = s.hub.ota.push(["p1"], new.id)
            assert result.ok, result.en
            until(
                lambda: s.ota("p1").get("st") == "refused", BOOT_S, f"p1 did not refuse: {s.ota('p1')}", dev
            )
            assert s.ota("p1") == {
                "st": "refused",
                "r": new.id,
                "to": "0.1.1",
                "err": "hash firmware/node.py",
            }
            assert s.online("p1") and s.fw("p1") == BASE and dev.boots == 1  # never restarted
            st = state_file(dev)
            assert st["good"] == "" and "try" not in st and "staged" not in st
            assert not (dev.flash / "ota" / "a").exists()  # the half-staged slot is emptied
        finally:
            dev.stop()


def test_a_build_that_crashes_at_start_rolls_back_by_itself(tmp_path: Path, base_build: Path) -> None:
    with stand(tmp_path) as s:
        dev = s.device("t1", "p1", [1, 2, 3], base_build).start()
        try:
            until(lambda: s.online("p1") and s.fw("p1") == BASE, BOOT_S, "p1 did not come online", dev)
            bad = s.release(tree(tmp_path, "0.1.2", crash_at_start))
            (result,) = s.hub.ota.push(["p1"], bad.id)
            assert result.ok, result.en
            until(
                lambda: s.ota("p1").get("st") == "rolled_back",
                BOOT_S * 2,
                f"p1 did not roll back: {s.ota('p1')}",
                dev,
            )
            ota = s.ota("p1")
            assert ota["r"] == bad.id and ota["err"] == "crash RuntimeError: this build crashes at start"
            until(
                lambda: s.online("p1") and s.fw("p1") == BASE, BOOT_S, "p1 is not back on its old build", dev
            )
            assert dev.boots == 3  # the old build, the trial that crashed, the old build again
            assert "this build crashes at start" in dev.log()
            st = state_file(dev)
            assert st["good"] == "" and "try" not in st
        finally:
            dev.stop()


def test_a_power_cut_during_the_download_leaves_the_old_build_running(
    tmp_path: Path, base_build: Path
) -> None:
    with stand(tmp_path) as s:
        dev = s.device("t1", "p1", [1, 2, 3], base_build).start()
        proxy = TcpProxy(("127.0.0.1", s.web.port)).start()
        try:
            until(lambda: s.online("p1") and s.fw("p1") == BASE, BOOT_S, "p1 did not come online", dev)
            new = s.release(tree(tmp_path, "0.1.1"))
            s.hub.ota.http_port = proxy.port  # the node downloads through a link that stalls midway
            proxy.hold_after(new.size // 2)
            (result,) = s.hub.ota.push(["p1"], new.id)
            assert result.ok, result.en
            until(lambda: proxy.down >= new.size // 2, BOOT_S, "the download did not get halfway", dev)
            assert state_file(dev)["fetch"]["r"] == new.id  # it is mid-transfer, and flash says so
            dev.power_cut()
            dev.start()
            until(
                lambda: s.online("p1") and s.ota("p1").get("err") == "interrupted",
                BOOT_S,
                f"p1 did not come back saying the download was cut: {s.ota('p1')}",
                dev,
            )
            assert s.fw("p1") == BASE and s.ota("p1")["st"] == "refused"
            st = state_file(dev)
            assert st["good"] == "" and "try" not in st and "fetch" not in st and "staged" not in st
            s.hub.ota.http_port = s.web.port  # the link is fine again: the same release goes through
            (again,) = s.hub.ota.push(["p1"], new.id)
            assert again.ok, again.en
            until(
                lambda: s.ota("p1").get("st") == "ok" and s.fw("p1") == "0.1.1",
                BOOT_S,
                f"p1 did not take the release after the cut: {s.ota('p1')}",
                dev,
            )
        finally:
            proxy.stop()
            dev.stop()


def test_a_second_push_while_a_node_downloads_is_refused_and_the_download_goes_on(
    tmp_path: Path, base_build: Path
) -> None:
    with stand(tmp_path) as s:
        dev = s.device("t1", "p1", [1, 2, 3], base_build).start()
        proxy = TcpProxy(("127.0.0.1", s.web.port)).start()
        try:
            until(lambda: s.online("p1") and s.fw("p1") == BASE, BOOT_S, "p1 did not come online", dev)
            new = s.release(tree(tmp_path, "0.1.1"))
            s.hub.ota.http_port = proxy.port  # the download stalls midway: it stays under way
            proxy.hold_after(new.size // 2)
            assert s.hub.ota.push(["p1"], new.id)[0].ok
            until(
                lambda: proxy.down >= new.size // 2 and s.ota("p1").get("st") == "fetch",
                BOOT_S,
                f"the download did not get halfway: {s.ota('p1')}",
                dev,
            )
            # the club view's button pressed twice, or a second push
            (again,) = s.hub.ota.push(["p1"], new.id)
            assert again.code == "busy" and again.en.startswith(
                f"p1 is already updating (downloading {new.id} "
            )
            with pytest.raises(RuntimeError, match="409: p1 is already updating"):  # the club view's button
                _push_over_http(s, "p1", new.id)
            # the command reaching the node anyway (a redelivery): the node ignores it, the download goes on
            assert s.hub.command("p1", "ota", r=new.id, port=proxy.port)
            until(
                lambda: f"ota: {new.id} ignored: the download of {new.id} is under way" in dev.log(),
                BOOT_S,
                "the node did not say it ignored the repeat",
                dev,
            )
            assert state_file(dev)["fetch"]["r"] == new.id and s.ota("p1")["st"] == "fetch"
            proxy.cut()  # now the first download fails by itself, and says so
            until(lambda: s.ota("p1").get("st") == "refused", BOOT_S * 2, f"not refused: {s.ota('p1')}", dev)
            assert s.ota("p1")["err"] == "http" and s.fw("p1") == BASE and dev.boots == 1
            assert "fetch" not in state_file(dev)
        finally:
            proxy.stop()
            dev.stop()


def test_pushing_to_a_table_with_a_match_in_play_is_refused_with_a_clear_line(
    tmp_path: Path, base_build: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with stand(tmp_path) as s:
        p1 = s.device("t1", "p1", [1, 2, 3], base_build).start()
        p4 = s.device("t2", "p4", [4, 5, 6], base_build).start()
        control = ControlServer(s.hub, tmp_path / "control.sock").start()
        try:
            until(lambda: s.online("p1") and s.online("p4"), BOOT_S, "the nodes did not come online", p1)
            new = s.release(tree(tmp_path, "0.1.1"))
            s.hub.new_match("t1", "free", ("Ivan", "Petr"))
            rc = cli.main(
                [
                    "firmware",
                    "push",
                    "--all",
                    "--release",
                    new.id,
                    "--control",
                    str(tmp_path / "control.sock"),
                ]
            )
            out, err = capsys.readouterr()
            assert rc == 2
            assert (
                "p1: refused: table t1 has a match in play: p1 is updated between matches; end the match, "
                "then push again / на столе t1 идёт партия: p1 обновляется между партиями; завершите партию "
                "и повторите"
            ) in err
            assert f"p4: sent: {new.id} (0.1.1) sent to p4" in out  # the other table is free
            until(
                lambda: s.fw("p4") == "0.1.1" and s.ota("p4").get("st") == "ok", BOOT_S, "p4 not updated", p4
            )
            assert s.fw("p1") == BASE and s.ota("p1") == {} and p1.boots == 1  # p1 was never sent anything
            with pytest.raises(Exception, match="match in play"):  # the club view's button says the same
                _push_over_http(s, "p1", new.id)
        finally:
            control.stop()
            p1.stop()
            p4.stop()


def _push_over_http(s: Stand, device: str, release: str) -> None:
    import httpx

    from hub.web.auth import PinStore

    pins = PinStore(s.cfg.store.path)
    pins.set("t1", "2468")
    base = f"http://127.0.0.1:{s.web.port}"
    token = httpx.post(f"{base}/api/tables/t1/token", json={"pin": "2468"}).json()["token"]
    r = httpx.post(
        f"{base}/api/devices/{device}/ota",
        json={"release": release},
        headers={"Authorization": f"Bearer {token}"},
    )
    if r.status_code != 202:
        raise RuntimeError(f"{r.status_code}: {r.json()['error']['en']} / {r.json()['error']['ru']}")


def never_connects(root: Path) -> None:
    """A build that starts but never reaches the broker (a broken link layer): no crash to catch."""
    link = root / "firmware" / "link.py"
    text = link.read_text()
    link.write_text(
        text.replace(
            "    async def _session(self):\n",
            "    async def _session(self):\n        await self.clock.sleep_ms(3600000)\n",
        )
    )


def test_a_build_that_never_reaches_the_hub_is_reset_by_the_trial_timer_and_rolls_back(
    tmp_path: Path, base_build: Path
) -> None:
    with stand(tmp_path) as s:
        dev = s.device("t1", "p1", [1, 2, 3], base_build, trial_s=4.0).start()
        try:
            until(lambda: s.online("p1") and s.fw("p1") == BASE, BOOT_S, "p1 did not come online", dev)
            mute = s.release(tree(tmp_path, "0.1.3", never_connects))
            assert s.hub.ota.push(["p1"], mute.id)[0].ok
            until(
                lambda: s.ota("p1").get("st") == "rolled_back", BOOT_S * 2, f"no rollback: {s.ota('p1')}", dev
            )
            assert s.ota("p1") == {"st": "rolled_back", "r": mute.id, "to": "0.1.3", "err": "unconfirmed"}
            until(
                lambda: s.online("p1") and s.fw("p1") == BASE, BOOT_S, "p1 is not back on its old build", dev
            )
            assert "trial not confirmed in time" in dev.log() and dev.boots == 3
        finally:
            dev.stop()


def test_config_changes_travel_the_same_way_and_one_that_cuts_the_node_off_rolls_back(
    tmp_path: Path, base_build: Path
) -> None:
    with stand(tmp_path) as s:
        dev = s.device("t1", "p1", [1, 2, 3], base_build, trial_s=4.0).start()
        control = ControlServer(s.hub, tmp_path / "control.sock").start()
        try:
            until(lambda: s.online("p1"), BOOT_S, "p1 did not come online", dev)
            change = tmp_path / "change.json"
            change.write_text('{"beam": {"jam_ms": 1500}, "tele_s": 5}')
            assert (
                cli.main(
                    [
                        "firmware",
                        "push",
                        "--device",
                        "p1",
                        "--config",
                        str(change),
                        "--control",
                        str(tmp_path / "control.sock"),
                    ]
                )
                == 0
            )
            until(lambda: s.ota("p1").get("st") == "ok", BOOT_S, f"config not kept: {s.ota('p1')}", dev)
            saved = json.loads((dev.flash / "config.json").read_text())
            assert saved["beam"]["jam_ms"] == 1500 and saved["tele_s"] == 5 and s.fw("p1") == BASE
            assert not (dev.flash / "ota" / "config.json").exists()
            wrong = tmp_path / "wrong.json"  # valid, but the node cannot reach the broker with it
            wrong.write_text('{"broker": {"port": 1}}')
            assert (
                cli.main(
                    [
                        "firmware",
                        "push",
                        "--device",
                        "p1",
                        "--config",
                        str(wrong),
                        "--control",
                        str(tmp_path / "control.sock"),
                    ]
                )
                == 0
            )
            until(
                lambda: s.ota("p1").get("st") == "rolled_back", BOOT_S * 2, f"no rollback: {s.ota('p1')}", dev
            )
            until(lambda: s.online("p1"), BOOT_S, "p1 is not back with its config", dev)
            assert json.loads((dev.flash / "config.json").read_text())["broker"]["port"] == s.broker.port
            bad = tmp_path / "bad.json"  # refused by the node's own validation: nothing is tried
            bad.write_text('{"beam": {"debounce_ms": "fast"}}')
            assert (
                cli.main(
                    [
                        "firmware",
                        "push",
                        "--device",
                        "p1",
                        "--config",
                        str(bad),
                        "--control",
                        str(tmp_path / "control.sock"),
                    ]
                )
                == 0
            )
            until(lambda: s.ota("p1").get("st") == "refused", BOOT_S, f"not refused: {s.ota('p1')}", dev)
            assert s.ota("p1")["err"].startswith("config beam.debounce_ms: must be a number")
        finally:
            control.stop()
            dev.stop()
