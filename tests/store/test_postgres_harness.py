"""The throwaway PostgreSQL of the tests is never left running: stopped and removed
at the end, and stopped by its watchdog when the process that started it is killed."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness import postgres

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _needs_postgres():
    why = postgres.missing()
    if why:
        pytest.skip(why)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}").exists() and "zombie" not in Path(f"/proc/{pid}/status").read_text().lower()


def _postmaster(root: Path) -> int:
    return int((root / "data" / "postmaster.pid").read_text().split()[0])


def test_a_server_is_stopped_and_removed_at_the_end():
    with postgres.throwaway_server() as server:
        pid = _postmaster(server.root)
        assert _alive(pid) and server.root.exists()
        with server.admin() as con:
            assert con.execute("SELECT current_setting('listen_addresses')").fetchone() == ("",)  # no TCP
    assert not _alive(pid) and not server.root.exists()


KILLED = """
import os, signal
from harness import postgres
server = postgres.start()
print(server.root, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_the_watchdog_stops_the_server_of_a_killed_test_run():
    done = subprocess.run([sys.executable, "-c", KILLED], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == -9, done.stderr
    root = Path(done.stdout.strip())

    def of_that_folder() -> list[str]:
        commands = []
        for proc in Path("/proc").glob("[0-9]*"):
            try:
                commands.append((proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace"))
            except OSError:
                pass  # gone meanwhile
        assert commands
        return [c for c in commands if str(root) in c]

    # the watchdog stops the server, removes the folder (its pid file with it) and ends:
    # its own `rm` and shell may outlive the folder by a moment (seen under load)
    deadline = time.monotonic() + 30
    while (root.exists() or of_that_folder()) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not root.exists()  # the watchdog stopped the server (its pid file went with the folder)
    assert not of_that_folder()  # no postgres of that folder, nor the watchdog
