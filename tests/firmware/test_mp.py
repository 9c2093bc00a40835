"""The MicroPython harness itself: real runtime, files in the FS, errors with tracebacks, timeouts."""

from __future__ import annotations

import pytest

from tests.firmware import mp

pytestmark = pytest.mark.micropython


def test_runs_real_micropython_and_captures_stdout(micropython):
    out = micropython.run("import sys\nprint(sys.implementation.name)\nprint('tail', end='')")
    assert out == "micropython\ntail"


def test_batch_shares_one_interpreter_and_reports_each_snippet(micropython):
    results = micropython.run_batch(["x = 41", "print(x + 1)", "raise KeyError('k')", "print('after')"])
    assert [r.stdout for r in results] == ["", "42\n", "", "after\n"]
    assert results[2].type == "KeyError"
    assert "Traceback" in (results[2].error or "")
    assert [r.ok for r in results] == [True, True, False, True]


def test_error_carries_micropython_traceback(micropython):
    with pytest.raises(micropython.MicroPythonError) as info:
        micropython.run("def f():\n    raise ValueError('boom')\nf()")
    assert info.value.type == "ValueError"
    assert "ValueError: boom" in str(info.value)
    assert "line 2, in f" in str(info.value)


def test_repo_files_keep_package_layout_and_fakes_land_in_lib(micropython):
    out = micropython.run(
        "from luza_wire import frame\nimport machine\nprint(frame.VERSION, machine.FAKE)",
        files=micropython.WIRE,
        extra={"machine.py": "FAKE = 'yes'\n"},
    )
    assert out == "1 yes\n"


def test_async_snippets_can_await(micropython):
    code = "import asyncio\nasync def g():\n    await asyncio.sleep_ms(1)\n    return 7\nprint(await g())"
    assert micropython.run(code, async_=True) == "7\n"


def test_busy_loop_is_stopped_by_the_outer_timeout(micropython):
    with pytest.raises(micropython.HarnessError, match="exceeded"):
        micropython.run("while True:\n    pass", timeout=2)


def test_unknown_pattern_is_a_clear_error():
    with pytest.raises(mp.HarnessError, match="no repo file matches"):
        mp.collect(["firmware/does-not-exist.py"])


def test_parity_check_fails_when_the_runtimes_disagree(micropython, monkeypatch):
    from tests.firmware import fw_runner
    from tests.firmware import vectors as v

    named = v.pocket_vectors()[:2]
    v.mp_identical(micropython, named)  # agree
    real = fw_runner.run_all
    # CPython only
    monkeypatch.setattr(fw_runner, "run_all", lambda vecs: [{**r, "det": []} for r in real(vecs)])
    with pytest.raises(AssertionError, match="MicroPython disagrees with CPython on: \\['single_ball'"):
        v.mp_identical(micropython, named)
