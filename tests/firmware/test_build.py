"""`luza firmware build` (mpy-cross on every file) and `luza firmware flash`
(validation, mpremote command line)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from hub import cli
from hub.commands import firmware as fw
from hub.ota import build as ob
from tests.firmware import fw_runner
from tests.firmware import vectors as v

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("build") / "firmware"
    lines: list[str] = []
    ob.build(out, log=lines.append)
    return out, lines


def good_config(tmp_path, **changes):
    cfg = {
        "table": "club-1",
        "device": "pocket-a",
        "wifi": {"ssid": "club", "password": "secret"},
        "pockets": [{"pocket": 1, "upper": 32, "lower": 33, "colour": False}],
        **changes,
    }
    path = tmp_path / "node.json"
    path.write_text(json.dumps(cfg))
    return path


def test_build_compiles_every_firmware_file_and_wire(built):
    out, lines = built
    for _src, rel in ob.sources():
        target = out / rel
        assert target.is_file(), rel
        if rel.suffix == ".mpy":
            assert target.read_bytes()[:2] == b"M\x06"  # .mpy magic and version 6 (MicroPython >= 1.22)
    assert (out / "firmware" / "pocket.mpy").is_file() and (
        out / "firmware" / "drivers" / "beams.mpy"
    ).is_file()
    assert (out / "luza_wire" / "__init__.mpy").is_file() and (out / "luza_wire" / "protocol.mpy").is_file()
    assert sorted(p.name for p in out.iterdir()) == ["firmware", "luza_wire", "main.py"]  # no stand-in files
    assert lines[-1].startswith("built ") and any(
        "firmware/pocket.py -> firmware/pocket.mpy" in x for x in lines
    )


def test_the_build_holds_the_files_the_micropython_harness_runs():
    from tests.firmware import mp

    built = {"/" + src.relative_to(ROOT).as_posix() for src, _rel in ob.sources()}
    assert built == set(mp.collect(mp.FIRMWARE))


def test_the_wire_package_imports_nothing_but_itself_and_json():
    """The device carries luza_wire as it is: importing the hub, the engine or typing would fail there."""
    import ast

    for path in sorted((ROOT / "luza_wire").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            for name in names:
                assert name == "json" or name.split(".")[0] == "luza_wire", f"{path.name} imports {name}"


@pytest.mark.micropython
def test_built_mpy_files_run_under_micropython_with_identical_results(built, micropython):
    out, _ = built
    extra = {"/" + p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    extra.update(
        {
            "/tests/__init__.py": "",
            "/tests/firmware/__init__.py": "",
            "/tests/firmware/fw_runner.py": (ROOT / "tests/firmware/fw_runner.py").read_text(),
        }
    )
    vectors = [vec for _n, vec in v.pocket_vectors()[:12]]
    code = (
        "import json\nimport firmware.pocket\nassert firmware.pocket.__file__.endswith('.mpy')\n"
        "from luza_wire import protocol\nassert protocol.__file__.endswith('.mpy')\n"
        "ev = protocol.parse_event(protocol.encode_event('pocket', 'p-1', 1, 2, 3, p=4))\n"
        "assert ev.get('pocket') == 4\n"
        "from tests.firmware import fw_runner\n"
        f"print(json.dumps(fw_runner.run_all(json.loads({json.dumps(json.dumps(vectors))}))))"
    )
    got = micropython.run_json(code, extra=extra)
    assert got == json.loads(json.dumps(fw_runner.run_all(vectors)))


def test_syntax_error_is_reported_as_file_and_line(tmp_path):
    root = tmp_path / "repo"
    (root / "firmware").mkdir(parents=True)
    (root / "luza_wire").mkdir()
    (root / "firmware" / "__init__.py").write_text("")
    (root / "firmware" / "bad.py").write_text(
        "x = 1\n\ndef f(a, /, b):  # positional-only: not MicroPython\n    pass\n"
    )
    (root / "luza_wire" / "__init__.py").write_text("")
    with pytest.raises(ob.FirmwareError, match=r"^firmware/bad\.py:3: SyntaxError"):
        ob.build(tmp_path / "out", root=root, log=lambda _line: None)


def test_build_command_line(tmp_path, capsys):
    assert cli.main(["firmware", "build", "--out", str(tmp_path / "b")]) == 0
    assert "built " in capsys.readouterr().out


def test_flash_bad_config_lists_each_problem(tmp_path, capsys):
    path = good_config(
        tmp_path,
        pockets=[{"pocket": 9, "upper": 32, "lower": 32, "colour": False}],
        beam={"debounce_ms": "fast"},
    )
    rc = cli.main(
        ["firmware", "flash", "--port", "/dev/ttyUSB0", "--config", str(path), "--out", str(tmp_path / "b")]
    )
    err = capsys.readouterr().err
    assert rc == 2
    assert "pockets[0].pocket: must be 1..6, got 9" in err
    assert "pockets[0].lower: GPIO 32 is already used by another beam" in err
    assert "beam.debounce_ms: must be a number 0..50, got 'fast'" in err


def test_flash_missing_config_file(tmp_path, capsys):
    rc = cli.main(["firmware", "flash", "--port", "/dev/ttyUSB0", "--config", str(tmp_path / "nope.json")])
    assert rc == 2 and "nope.json: file not found" in capsys.readouterr().err


def test_flash_missing_port_says_so(tmp_path, capsys):
    rc = cli.main(
        ["firmware", "flash", "--port", str(tmp_path / "ttyUSB9"), "--config", str(good_config(tmp_path))]
    )
    err = capsys.readouterr().err
    assert rc == 2 and "ttyUSB9 not found: plug the node in" in err


@pytest.mark.skipif(shutil.which("mpremote") is not None, reason="mpremote is installed here")
def test_flash_without_mpremote_says_how_to_install(tmp_path, capsys):
    port = tmp_path / "ttyUSB0"
    port.write_text("")  # a path that exists; no device is needed to reach the mpremote check
    rc = cli.main(["firmware", "flash", "--port", str(port), "--config", str(good_config(tmp_path))])
    assert rc == 2 and "pip install luza[device]" in capsys.readouterr().err


def test_flash_dry_run_prints_the_mpremote_command(tmp_path, capsys, monkeypatch):
    main_py = ROOT / "firmware" / "main.py"
    if not main_py.is_file():
        pytest.skip("firmware/main.py (the link engineer's) does not exist yet")
    path = good_config(tmp_path)
    out = tmp_path / "b"
    rc = cli.main(
        ["firmware", "flash", "--port", "/dev/ttyUSB0", "--config", str(path), "--out", str(out), "--dry-run"]
    )
    printed = capsys.readouterr().out.strip().splitlines()[-1]
    assert rc == 0
    assert printed == " ".join(
        fw.flash_commands("/dev/ttyUSB0", out, path, shutil.which("mpremote") or "mpremote")
    )


def test_flash_command_line_copies_build_and_config():
    cmd = fw.flash_commands("/dev/ttyUSB0", Path("build/firmware"), Path("node.json"))
    assert cmd == [
        "mpremote",
        "connect",
        "/dev/ttyUSB0",
        "fs",
        "cp",
        "-r",
        "build/firmware/firmware",
        "build/firmware/luza_wire",
        ":",
        "+",
        "fs",
        "cp",
        "build/firmware/main.py",
        ":main.py",
        "+",
        "fs",
        "cp",
        "node.json",
        ":config.json",
        "+",
        "exec",
        fw.FORGET_OTA,
        "+",
        "reset",
    ]


@pytest.mark.micropython
def test_flashing_over_usb_forgets_a_committed_update(micropython):
    """After `luza firmware flash` the USB build runs, not an update the node had
    kept (firmware/loader.py)."""
    code = (
        "import os\n" + fw.FORGET_OTA + "\nprint(os.listdir('/'))\nos.mkdir('/ota')\n"
        "open('/ota/state', 'w').write('{\"good\": \"/ota/a\"}')\n" + fw.FORGET_OTA + "\n"
        "print(os.listdir('/ota'))\nfrom firmware import ota\nfrom firmware.flash import Flash\n"
        "print(ota.boot(Flash(''))[0] == '')"
    )
    out = micropython.run(code, ("firmware/ota.py", "firmware/flash.py", "firmware/__init__.py"))
    assert out.splitlines()[1:] == ["[]", "True"] and "ota" not in out.splitlines()[0]
