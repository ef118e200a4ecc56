"""Reading a record named on the command line, with the message people see when they
cannot: ``error: FILE: what is wrong`` (the path once, even when the reader's own
message names it)."""
from __future__ import annotations

import sys
from pathlib import Path

from engine.record import Record, load_record, record_from_json


def read_record(path: str) -> Record:
    """The record in ``path`` (``-``: standard input); RecordFormatError if it is not one."""
    return record_from_json(sys.stdin.buffer.read()) if path == "-" else load_record(path)


def read_bytes(path: str) -> bytes:
    """The bytes of ``path`` (``-``: standard input); OSError if it cannot be read."""
    return sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()


def where(path: str) -> str:
    """``path`` as a message names it."""
    return "standard input" if path == "-" else path


def report(path: str, exc: Exception) -> int:
    """Print ``exc`` as the error of ``path`` on standard error; the exit code 1."""
    message = str(exc)
    prefix = "" if getattr(exc, "code", None) == "unreadable_file" else f"{where(path)}: "
    print(f"error: {prefix}{message}", file=sys.stderr)
    return 1
