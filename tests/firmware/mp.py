"""Run code under the real MicroPython (the WebAssembly port under Node 20) from pytest.

One Node process runs one *batch*: the files are copied once into MicroPython's in-memory file system,
keeping the repo's package layout (``firmware/pocket.py`` lands at ``/firmware/pocket.py``), then each snippet
runs in turn in the same interpreter (its ``__main__`` globals and imported modules persist between snippets
of a batch, as on a device). MicroPython's stdout is captured per snippet.

The runtime has no ``machine``, ``network``, ``socket`` or ``asyncio.run``: put fakes in ``extra`` (they land
in ``/lib``, which is on ``sys.path``) and drive coroutines yourself (or pass ``async_=True`` to use top-level
``await``).

    from tests.firmware import mp

    out = mp.run("from firmware import VERSION; print(VERSION)", files=mp.FIRMWARE)
    results = mp.run_batch(["print(1)", "raise ValueError('x')"])   # -> [Result('1\\n'), Result(error=...)]

``mp.run`` raises ``MicroPythonError`` (with MicroPython's own traceback) if the snippet raised;
``mp.run_batch`` returns a ``Result`` per snippet and raises only if the process itself failed or timed out.
Tests call ``mp.require()`` (or use the ``micropython`` fixture) to skip, with the reason, when Node or the
npm package is missing; ``scripts/setup --dev`` installs both.
"""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "node_modules" / "@micropython" / "micropython-webassembly-pyscript" / "micropython.mjs"

#: The wire contract, a package the device carries as it is (the same files `luza firmware build` compiles).
WIRE: tuple[str, ...] = ("luza_wire/*.py",)
#: Repo files a device holds: the firmware package and the wire contract (the device layout).
FIRMWARE: tuple[str, ...] = ("firmware/**/*.py", *WIRE)

DEFAULT_TIMEOUT = 60.0  # seconds for a whole batch, start-up (~0.3 s) included
DEFAULT_HEAP = 1024 * 1024  # bytes; an ESP32 without PSRAM has roughly 100-150 KB free

# The driver: reads a JSON spec on stdin, writes one JSON line of results on stdout.
_DRIVER = r"""
import { pathToFileURL } from 'node:url';
const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const spec = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const m = await import(pathToFileURL(spec.package).href);
let out = [];
const sink = d => out.push(typeof d === 'string' ? d : new TextDecoder().decode(d));
const mp = await m.loadMicroPython({stdout: sink, stderr: sink, linebuffer: false, heapsize: spec.heap});
const made = new Set(['/']);
function mkdirs(dir) {
  let cur = '';
  for (const part of dir.split('/').filter(Boolean)) {
    cur += '/' + part;
    if (!made.has(cur)) { try { mp.FS.mkdir(cur); } catch (e) {} made.add(cur); }
  }
}
mkdirs('/lib');
for (const [path, b64] of Object.entries(spec.files)) {
  mkdirs(path.slice(0, path.lastIndexOf('/')));
  mp.FS.writeFile(path, Buffer.from(b64, 'base64'));
}
mp.runPython("import sys\nsys.path.insert(0, '/lib')\nsys.path.insert(0, '/')\n");
const results = [];
for (const snip of spec.snippets) {
  out = [];
  let error = null, type = null;
  try {
    if (snip.async) await mp.runPythonAsync(snip.code); else mp.runPython(snip.code);
  } catch (e) {
    error = String(e && e.message !== undefined ? e.message : e);
    type = (e && e.type) ? String(e.type) : 'JSError';
  }
  results.push({stdout: out.join(''), error, type});
}
process.stdout.write(JSON.stringify({results}) + '\n');
"""


@dataclass(frozen=True)
class Result:
    """What one snippet did: its stdout, and MicroPython's traceback and exception type if it raised."""

    stdout: str = ""
    error: str | None = None
    type: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


class MicroPythonError(AssertionError):
    """A snippet raised under MicroPython; the message is MicroPython's traceback."""

    def __init__(self, result: Result, code: str) -> None:
        self.result = result
        self.type = result.type
        head = code.strip().splitlines()[:3]
        super().__init__(
            f"MicroPython raised {result.type} in snippet starting {chr(10).join(head)!r}:\n{result.error}"
            + (("\nstdout:\n" + result.stdout) if result.stdout else "")
        )


class HarnessError(RuntimeError):
    """The Node process failed, timed out or answered nonsense (not a Python exception in a snippet)."""


def missing() -> str | None:
    """Why MicroPython cannot run here (None if it can)."""
    if shutil.which("node") is None:
        return "node is not installed (scripts/setup --dev installs it)"
    if not PACKAGE.is_file():
        return (
            "npm package @micropython/micropython-webassembly-pyscript is missing "
            "(scripts/setup --dev runs npm install)"
        )
    return None


def require() -> None:
    """Skip the calling test, with the reason, when the MicroPython runtime is missing."""
    reason = missing()
    if reason:
        pytest.skip("MicroPython runtime unavailable: " + reason)


def collect(patterns: Iterable[str], root: Path = ROOT) -> dict[str, bytes]:
    """Repo files matching glob ``patterns`` (relative to the repo root) as {device path: bytes}."""
    files: dict[str, bytes] = {}
    for pattern in patterns:
        matched = sorted(p for p in root.glob(pattern) if p.is_file() and "__pycache__" not in p.parts)
        if not matched:
            raise HarnessError(f"no repo file matches {pattern!r}")
        for path in matched:
            files["/" + path.relative_to(root).as_posix()] = path.read_bytes()
    return files


def _fs_files(files: Iterable[str], extra: Mapping[str, str | bytes] | None) -> dict[str, str]:
    blobs = collect(files)
    for name, content in (extra or {}).items():
        path = name if name.startswith("/") else "/lib/" + name
        blobs[path] = content.encode() if isinstance(content, str) else content
    return {path: base64.b64encode(data).decode() for path, data in blobs.items()}


def run_batch(
    snippets: Sequence[str],
    files: Iterable[str] = (),
    extra: Mapping[str, str | bytes] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    heap: int = DEFAULT_HEAP,
    async_: bool = False,
) -> list[Result]:
    """Run ``snippets`` one after another in one MicroPython; a Result per snippet.

    ``files``: repo glob patterns copied into the FS at their repo paths (``/`` is on ``sys.path``).
    ``extra``: {path: content} for fakes; a relative path lands in ``/lib`` (also on ``sys.path``).
    ``async_``: run the snippets with top-level ``await`` allowed (``runPythonAsync``).
    Raises HarnessError if Node fails or the batch exceeds ``timeout`` seconds (a busy loop blocks Node).
    """
    reason = missing()
    if reason:
        raise HarnessError("MicroPython runtime unavailable: " + reason)
    spec = {
        "package": str(PACKAGE),
        "heap": int(heap),
        "files": _fs_files(files, extra),
        "snippets": [{"code": code, "async": bool(async_)} for code in snippets],
    }
    try:
        proc = subprocess.run(
            ["node", "--input-type=module", "-e", _DRIVER],
            input=json.dumps(spec).encode(),
            capture_output=True,
            timeout=timeout,
            cwd=ROOT,
        )
    except subprocess.TimeoutExpired as exc:
        raise HarnessError(
            f"MicroPython batch of {len(snippets)} snippet(s) exceeded {timeout:.0f} s"
        ) from exc
    lines = proc.stdout.decode("utf-8", "replace").strip().splitlines()
    if proc.returncode != 0 or not lines:
        raise HarnessError(
            f"node exited {proc.returncode}: " + proc.stderr.decode("utf-8", "replace").strip()[-2000:]
        )
    try:
        raw = json.loads(lines[-1])["results"]
    except (ValueError, KeyError) as exc:
        raise HarnessError(f"unexpected driver output: {lines[-1][:500]!r}") from exc
    return [Result(r["stdout"], r["error"], r["type"]) for r in raw]


def run(
    code: str,
    files: Iterable[str] = (),
    extra: Mapping[str, str | bytes] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    heap: int = DEFAULT_HEAP,
    async_: bool = False,
) -> str:
    """Run one snippet under MicroPython and return its stdout; raise MicroPythonError if it raised."""
    (result,) = run_batch([code], files, extra, timeout, heap, async_)
    if not result.ok:
        raise MicroPythonError(result, code)
    return result.stdout


def run_json(code: str, files: Iterable[str] = (), **kwargs: object) -> object:
    """Run a snippet whose last stdout line is JSON (e.g. ``print(json.dumps(results))``) and decode it."""
    out = run(code, files, **kwargs)  # type: ignore[arg-type]
    lines = out.strip().splitlines()
    if not lines:
        raise HarnessError("snippet printed nothing; expected a JSON line")
    return json.loads(lines[-1])
