"""A throwaway PostgreSQL server for the tests and the benchmarks.

Debian's ``postgresql`` package (installed by ``make test`` through
scripts/install-postgres.sh) gives ``initdb``, ``pg_ctl`` and ``postgres``; no
cluster of the package is used. :func:`throwaway_server` makes a cluster in a new
temporary folder, starts it on a Unix socket in that folder (no TCP port at all, so
nothing outside this machine's processes can reach it and two servers never clash),
hands out fresh databases, and stops it and removes the folder at the end.

PostgreSQL refuses to run as root. When the tests run as root, the server runs as
the unprivileged ``postgres`` user that the Debian package makes (or
``$FUGITIVE_PG_USER``); otherwise as the user running the tests. Local connections
are trusted: the socket's folder is the server user's alone (root reaches it anyway).

A watchdog process, started as the server's user, stops the server and removes its
folder if the process that started it dies without stopping it (a test run killed
with SIGKILL), so no server is ever left running.
"""
from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

SKIP = "POSTGRESQL TESTS SKIPPED"
SUPERUSER = "fugitive"


class StartError(RuntimeError):
    """The server could not be made or started (the reason, with its log's end)."""


def bindir() -> Path | None:
    """The folder of ``initdb``, ``pg_ctl`` and ``postgres``: ``$FUGITIVE_PG_BIN``, the
    newest of Debian's /usr/lib/postgresql/*/bin, or the ones on PATH."""
    env = os.environ.get("FUGITIVE_PG_BIN")
    candidates = [Path(env)] if env else []
    candidates += sorted((Path(p) for p in glob.glob("/usr/lib/postgresql/*/bin")),
                         key=lambda p: _version_key(p.parent.name), reverse=True)
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(Path(on_path).resolve().parent)
    for c in candidates:
        if all((c / tool).is_file() for tool in ("initdb", "pg_ctl", "postgres")):
            return c
    return None


def _version_key(name: str) -> tuple[int, ...]:
    return tuple(int(p) for p in name.split(".") if p.isdigit())


def server_user() -> pwd.struct_passwd | None:
    """The user the server runs as (None: there is no unprivileged one)."""
    if os.geteuid() != 0:
        return pwd.getpwuid(os.geteuid())
    name = os.environ.get("FUGITIVE_PG_USER", "postgres")
    try:
        user = pwd.getpwnam(name)
    except KeyError:
        return None
    return user if user.pw_uid != 0 else None


def missing() -> str | None:
    """Why a throwaway PostgreSQL cannot run here (None when it can)."""
    if bindir() is None:
        return (f"{SKIP}: no PostgreSQL server programs (initdb, pg_ctl, postgres) in /usr/lib/postgresql/*/bin "
                "or on PATH (`make test` installs Debian's postgresql where it runs as root with apt-get)")
    if server_user() is None:
        return (f"{SKIP}: the tests run as root and there is no unprivileged user "
                f"{os.environ.get('FUGITIVE_PG_USER', 'postgres')!r} to run PostgreSQL as (it refuses root)")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return f"{SKIP}: the Python package psycopg is missing (pip install -e .)"
    return None


@dataclass
class Server:
    """A running throwaway server: :meth:`new_database` gives a fresh database's URL."""

    root: Path
    bin: Path
    user: pwd.struct_passwd
    watchdog: subprocess.Popen | None = None
    _names: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def log(self) -> Path:
        return self.root / "server.log"

    def url(self, dbname: str = "postgres") -> str:
        """A libpq URL of a database of this server, over its Unix socket."""
        return f"postgresql://{SUPERUSER}@/{dbname}?host={self.root}"

    def admin(self):
        """A psycopg connection to the server's ``postgres`` database, autocommitting."""
        import psycopg

        return psycopg.connect(host=str(self.root), user=SUPERUSER, dbname="postgres", autocommit=True)

    def new_database(self, prefix: str = "t") -> str:
        """Make a new empty database; its URL."""
        name = f"{prefix}{next(self._names)}"
        with self.admin() as con:
            con.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def new_schema(self, prefix: str = "s") -> str:
        """A new empty schema in the server's ``postgres`` database, as a URL whose
        connections use it (``search_path``): as good as a new database to the store,
        and made in milliseconds where a database takes most of a second."""
        name = f"{prefix}{next(self._names)}"
        with self.admin() as con:
            con.execute(f'CREATE SCHEMA "{name}"')
        return self.url("postgres") + f"&options=-csearch_path%3D{name}"

    def run(self, *args: str, check: bool = True, **kw) -> subprocess.CompletedProcess:
        """One of the server's programs, as the server's user."""
        return subprocess.run([str(self.bin / args[0]), *args[1:]], check=check, **_as_user(self.user), **kw)

    def stop(self) -> None:
        """Stop the server (fast: connections are closed) and remove its folder."""
        if self.watchdog is not None and self.watchdog.poll() is None:
            self.watchdog.send_signal(signal.SIGTERM)
            self.watchdog.wait(10)
        if (self.data / "postmaster.pid").exists():
            done = self.run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "30", "stop",
                            check=False, capture_output=True)
            if done.returncode != 0:
                self.run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop",
                         check=False, capture_output=True)
        shutil.rmtree(self.root, ignore_errors=True)


def _as_user(user: pwd.struct_passwd) -> dict:
    """subprocess arguments that run a program as ``user`` (nothing when that is us)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
    env.update(HOME=user.pw_dir or "/", LC_ALL="C", LANG="C")
    kw: dict = {"env": env, "cwd": "/"}
    if os.geteuid() == 0:
        kw.update(user=user.pw_uid, group=user.pw_gid, extra_groups=[])
    return kw


def start(*, durable: bool = False) -> Server:
    """Make and start a server in a new temporary folder (:class:`StartError` if it
    cannot be done). ``durable=False`` turns fsync off: for tests, which throw the
    server away; benchmarks ask for ``durable=True``, a server as it would be run."""
    why = missing()
    if why:
        raise StartError(why)
    user, bin_ = server_user(), bindir()
    assert user is not None and bin_ is not None
    # /tmp, not $TMPDIR: the server's user must reach the folder, and a Unix socket's
    # path must stay under ~100 bytes
    root = Path(tempfile.mkdtemp(prefix="fugitive-pg-", dir="/tmp" if os.path.isdir("/tmp") else None))
    if os.geteuid() == 0:
        os.chown(root, user.pw_uid, user.pw_gid)
    server = Server(root, bin_, user)
    try:
        made = server.run("initdb", "-D", str(server.data), "-U", SUPERUSER, "-A", "trust", "-E", "UTF8",
                          "--locale=C", "--no-sync", check=False, capture_output=True, text=True)
        if made.returncode != 0:
            raise StartError(f"initdb failed: {(made.stderr or made.stdout).strip()[-800:]}")
        settings = {
            "listen_addresses": "''",
            "unix_socket_directories": f"'{root}'",
            "max_connections": "200",
            "shared_buffers": "32MB",
        }
        if not durable:
            settings.update(fsync="off", synchronous_commit="off", full_page_writes="off")
        with open(server.data / "postgresql.auto.conf", "a") as fh:
            fh.writelines(f"{k} = {v}\n" for k, v in settings.items())
        started = server.run("pg_ctl", "-D", str(server.data), "-l", str(server.log), "-w", "-t", "60", "start",
                             check=False, capture_output=True, text=True)
        if started.returncode != 0:
            log = server.log.read_text(errors="replace")[-800:] if server.log.exists() else ""
            raise StartError(f"the server did not start: {started.stdout.strip()} {log.strip()}")
        server.watchdog = _watchdog(server)
        return server
    except BaseException:
        server.stop()
        raise


def _watchdog(server: Server) -> subprocess.Popen:
    """A process, as the server's user, that stops the server and removes its folder
    once this process is gone (checked every second); :meth:`Server.stop` ends it."""
    script = ('while [ -d "/proc/$0" ]; do sleep 1; done; '
              '"$1" -D "$2" -m immediate -w stop >/dev/null 2>&1; rm -rf "$3"')
    return subprocess.Popen(
        ["sh", "-c", script, str(os.getpid()), str(server.bin / "pg_ctl"), str(server.data), str(server.root)],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        **_as_user(server.user),
    )


@contextlib.contextmanager
def throwaway_server(*, durable: bool = False) -> Iterator[Server]:
    """A started server for the ``with`` block; stopped and removed after it."""
    server = start(durable=durable)
    try:
        yield server
    finally:
        server.stop()


if __name__ == "__main__":  # a quick check by hand: python -m harness.postgres
    why = missing()
    if why:
        sys.exit(why)
    with throwaway_server() as s:
        print("started:", s.url(), "->", s.new_database())
    print("stopped and removed:", not s.root.exists())
