"""Argument types shared by the subcommands, checked before any work starts.

A long run (a tournament, a calibration) must not fail at its end on something
that was wrong at its start, such as an output file in a folder that does not
exist, and a count must not be so large that the task list alone fills the memory.
The argparse types raise ``argparse.ArgumentTypeError`` (argparse prints it as
``fugitive <command>: error: argument --x: ...`` with exit code 2); the other checks
raise ValueError (:func:`names`) or return a message (:func:`output_file`), which the
command prints with :func:`fail` the same way.
"""
from __future__ import annotations

import argparse
import errno
import os
import shutil
import sys
from pathlib import Path
from typing import Callable, Iterable


def count(lo: int, hi: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``lo`` to ``hi``."""

    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number from {lo:,} to {hi:,}, not {text[:40]!r}") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"must be from {lo:,} to {hi:,}, not {text[:40]}")
        return value

    return parse


def names(text: str, known: Iterable[str], what: str) -> list[str]:
    """A comma-separated list of bot names: each known, none twice (a repeated bot would
    play the same seeds again and count them as more games), at least one."""
    known = list(known)
    got = [n.strip() for n in text.split(",") if n.strip()]  # "random," is "random"
    if not got:
        raise ValueError(f"{what}: name at least one of {', '.join(known)}")
    bad = [n for n in got if n not in known]
    if bad:
        raise ValueError(f"{what}: unknown {', '.join(map(repr, bad))}; the bots are {', '.join(known)}")
    twice = sorted({n for n in got if got.count(n) > 1})
    if twice:
        raise ValueError(f"{what}: {', '.join(twice)} named twice")
    return got


def output_file(path: str | None, what: str, suffix: str | None = None) -> str | None:
    """Why ``path`` cannot take an output file (None when it can, or when no path).

    Checked before the work: the folder must exist and be writable, the path must
    not be a folder, and a chart's name must end in its format (matplotlib would
    otherwise add one and write a different file than the one named).
    """
    if path is None:
        return None
    if not path.strip():
        return f"{what}: an empty file name"
    if suffix and Path(path).suffix.lower() != suffix:
        return f"{what}: {path} must end in {suffix}"
    p = Path(path)
    if p.is_dir():
        return f"{what}: {path} is a folder"
    if p.exists() and not p.is_file():  # a device or a pipe (/dev/stdout): written as it is
        return None if os.access(p, os.W_OK) else f"{what}: cannot write {path}"
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        return f"{what}: no folder {folder}"
    if not os.access(folder, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        return f"{what}: cannot write {path}"
    return None


def fail(command: str, message: str) -> int:
    """Print a refusal of the arguments like argparse does; the exit code 2."""
    print(f"fugitive {command}: error: {message}", file=sys.stderr)
    return 2


def write_text_file(path: str, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: into a temporary file next to it,
    then renamed over it, so a full disk never leaves a half-written or emptied file.
    A path that is not a regular file (a device such as /dev/stdout, a pipe) is
    written as it is: renaming over it would replace it. A symbolic link is followed,
    and a file replaced keeps its permissions."""
    target = Path(os.path.realpath(path))
    if target.exists() and not target.is_file():
        with open(target, "w", encoding="utf-8") as fh:
            fh.write(text)
        return
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        if target.exists():
            shutil.copymode(target, tmp)
        os.replace(tmp, target)
    finally:
        if tmp.exists():
            tmp.unlink()


def is_output_error(exc: OSError) -> bool:
    """A write to standard output that failed (a closed pipe, a full disk): the commands
    report their own files' errors themselves, and leave these to ``main``."""
    return isinstance(exc, BrokenPipeError) or (
        exc.filename is None and exc.errno in (errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT))
