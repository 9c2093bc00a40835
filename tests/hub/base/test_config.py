"""luza.toml validation: good files load; every bad one names the key and the fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from hub import config, configfile

EXAMPLE = Path(__file__).resolve().parents[3] / "hub" / "example.toml"


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "luza.toml"
    p.write_text(text, encoding="utf-8")
    return p


def test_example_loads() -> None:
    cfg = configfile.load(EXAMPLE)
    assert [t.id for t in cfg.tables] == ["t1", "t2"]
    foot = cfg.device("p-foot")
    assert foot is not None and foot.table == "t1" and foot.role == "pocket" and foot.pockets == (5, 6)
    cue = cfg.device("cue-b")
    assert cue is not None and cue.role == "cue" and cue.seat == 1
    assert cfg.broker.host == "127.0.0.1" and cfg.broker.port == 1883
    assert Path(cfg.store.path) == EXAMPLE.parent / "luza.db"  # relative to the config file
    assert cfg.club_ru.startswith("Бильярдный")


def test_defaults_for_an_empty_file(tmp_path: Path) -> None:
    cfg = configfile.load(write(tmp_path, ""))
    assert cfg.tables == ()
    assert cfg.store.synchronous == "full"
    assert cfg.broker.client_id == "luza-hub"


def test_credentials_from_url(tmp_path: Path) -> None:
    cfg = configfile.load(write(tmp_path, '[broker]\nurl = "mqtt://hub:s3cret@broker.local:1884"\n'))
    assert (cfg.broker.host, cfg.broker.port, cfg.broker.username, cfg.broker.password) == (
        "broker.local",
        1884,
        "hub",
        "s3cret",
    )


def test_the_telemetry_connection_is_optional(tmp_path: Path) -> None:
    """No telemetry login: one connection reads everything (an open broker,
    an installation from before it)."""
    assert configfile.load(write(tmp_path, "")).broker.tele_username is None
    cfg = configfile.load(
        write(tmp_path, '[broker]\ntele_username = "luza-hub-tele"\ntele_password = "pw"\n')
    )
    assert (cfg.broker.tele_username, cfg.broker.tele_password, cfg.broker.tele_client_id) == (
        "luza-hub-tele",
        "pw",
        "luza-hub-tele",
    )


BAD = [
    (
        '[[tables]]\nid = "t1"\n[[tables]]\nid = "t2"\npockets = { p-foot = [5, 7] }\n',
        "tables[1].pockets: device 'p-foot' lists pocket 7; pockets are 1-6",
    ),
    (
        '[[tables]]\nid = "t1"\npockets = { a = [1, 2], b = [2, 3] }\n',
        "tables[0].pockets: pocket 2 is listed by both 'a' and 'b'; give it to one",
    ),
    ('[[tables]]\nid = "T1"\n', "tables[0].id: table id 'T1' is not an id"),
    ('[[tables]]\nname = "x"\n', "tables[0].id: is missing"),
    ('[[tables]]\nid = "t1"\n[[tables]]\nid = "t1"\n', "tables[1].id: table id 't1' is used twice"),
    ('[[tables]]\nid = "t1"\ncues = { c = 2 }\n', "tables[0].cues: device 'c' has seat 2; seats are 0"),
    ('[[tables]]\nid = "t1"\ncues = { c = 0, d = 0 }\n', "tables[0].cues: seat 0 has two cue nodes"),
    (
        '[[tables]]\nid = "t1"\npockets = { x = [1] }\n[[tables]]\nid = "t2"\npockets = { x = [2] }\n',
        "tables[1].pockets: device 'x' is already on table 't1'",
    ),
    ('[[tables]]\nid = "t1"\npocket = { x = [1] }\n', "tables[0].pocket: unknown key; the keys here are"),
    ('[broker]\nurl = "http://x"\n', "broker.url: 'http://x' is not a broker URL"),
    ('[broker]\nkeepalive_s = "30"\n', "broker.keepalive_s: must be a whole number 5..3600, got '30'"),
    ("[broker]\nreconnect_min_s = 10\nreconnect_max_s = 5\n", "broker.reconnect_max_s: must be at least"),
    ('[broker]\ntele_password = "pw"\n', "broker.tele_username: name the telemetry connection's broker user"),
    ('[broker]\ntele_username = ""\n', "broker.tele_username: name the telemetry connection's broker user"),
    ("[broker]\ntele_username = 5\n", "broker.tele_username: must be a string"),
    ('[store]\nsynchronous = "off"\n', "store.synchronous: 'off' is not one of"),
    ("[store]\npath = 5\n", "store.path: must be a string"),
    ("[ingest]\nserial = [1]\n", "ingest.serial: must be a list of serial ports"),
    ('[settle]\nhanging = "5"\n', "settle.hanging"),
    ("tables = 3\n", "tables: must be an array of tables"),
    ("[clubs]\n", "clubs: unknown key"),
]


@pytest.mark.parametrize(("text", "message"), BAD)
def test_bad_config_names_key_and_fix(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(config.ConfigError) as err:
        configfile.load(write(tmp_path, text))
    assert message in str(err.value)


def test_toml_syntax_error_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(config.ConfigError, match="not valid TOML"):
        configfile.load(write(tmp_path, "[broker\n"))
    with pytest.raises(config.ConfigError, match="cannot read config"):
        configfile.load(tmp_path / "nope.toml")


def test_settle_times_reach_the_sessions(tmp_path: Path) -> None:
    from hub.service.rebuild import timing

    cfg = configfile.load(write(tmp_path, "[settle]\nhanging_ball_ms = 4000\nmin_colour_conf = 0.7\n"))
    t = timing(cfg.settle)
    assert t.hanging_ball_ms == 4000 and t.min_colour_conf == 0.7 and t.roll_ms == 12000
    with pytest.raises(
        config.ConfigError,
        match=r"settle\.hanging_ms: unknown settle time; the ones there are: "
        r"hanging_ball_ms",
    ):
        configfile.load(write(tmp_path, "[settle]\nhanging_ms = 4000\n"))
