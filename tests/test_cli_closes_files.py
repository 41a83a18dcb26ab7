"""The command leaves without the interpreter's teardown (``cli.script``: ``os._exit`` once its
exit handlers ran), so a file a command left open would never be flushed. Every data command
must close what it opens before it returns: checked here, after each command run in a fresh
process through ``main`` (no Python file object open but the standard streams, no descriptor
open on the command's folders)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "botzone" / "sample.txt"

# after the commands: what is still open, as JSON (the Python file objects over a descriptor the
# collector can reach, by name, and the descriptors that name a path under the run's folder)
_LEFT_OPEN = """
import gc, io, json, os, sys
gc.collect()
streams = (sys.stdin, sys.stdout, sys.stderr, sys.__stdin__, sys.__stdout__, sys.__stderr__)
buffers = [getattr(s, "buffer", None) for s in streams]
std = {id(o) for o in (*streams, *buffers, *(getattr(b, "raw", None) for b in buffers))}
def on_disk(o):  # a file object over a descriptor (not BytesIO/StringIO: nothing to lose)
    try:
        o.fileno()
    except (OSError, ValueError):
        return False
    return True
files = sorted({
    repr(getattr(o, "name", o)) for o in gc.get_objects()
    if isinstance(o, io.IOBase) and not o.closed and id(o) not in std and on_disk(o)
})
fds = []
for fd in os.listdir("/proc/self/fd"):
    try:
        target = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        continue
    if target.startswith(FOLDER):
        fds.append(target)
print(json.dumps({"files": files, "fds": sorted(fds)}))
"""


def _left_open(folder: Path, commands: list[list[str]]) -> dict[str, list[str]]:
    code = (
        "import contextlib, io\n"
        "from mjstats.cli import main\n"
        f"FOLDER = {str(folder)!r}\n"
        f"for argv in {commands!r}:\n"
        "    with contextlib.redirect_stdout(io.StringIO()):\n"
        "        code = main(argv)\n"
        "    assert code == 0, (argv, code)\n"
        + _LEFT_OPEN
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=folder)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="lists descriptors in /proc")
def test_the_data_commands_close_what_they_open(tmp_path: Path) -> None:
    ds = str(tmp_path / "ds")
    commands = [
        ["ingest", "--audit", "-q", "--format", "botzone", str(SAMPLE), "--out", ds],
        ["decisions", "-q", ds],
        ["export", ds, "--out", str(tmp_path / "hands.jsonl")],
        ["findings", ds, "--csv"],
        ["stats", ds],
    ]
    left = _left_open(tmp_path, commands)
    assert left == {"files": [], "fds": []}


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="lists descriptors in /proc")
def test_the_check_sees_a_file_left_open(tmp_path: Path) -> None:
    """The check above can fail: a file opened and kept (as a command must not) is named."""
    kept = tmp_path / "kept.txt"
    code = (
        f"FOLDER = {str(tmp_path)!r}\n"
        f"_kept = open({str(kept)!r}, 'w')\n"
        "_kept.write('buffered')\n"
        + _LEFT_OPEN
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          check=True)
    left = json.loads(done.stdout.strip().splitlines()[-1])
    assert left["files"] == [repr(str(kept))]
    assert left["fds"] == [str(kept)]
