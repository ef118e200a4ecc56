"""``fugitive check RECORD.json``: is this record valid (format and rules)?

Prints ``ok`` and a one-line summary, or the first error with its event index
and exit code 1. Every problem is a message, never a traceback: the command is
meant for people checking a file they wrote or exported.
"""
from __future__ import annotations

import argparse

from engine.record import RecordFormatError
from notepad.validator import RecordRuleError, validate

from .reading import read_record, report


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", metavar="RECORD.json", help="a game record (docs/record.md, version 1); '-' reads standard input")


def run(args: argparse.Namespace) -> int:
    try:
        record = read_record(args.record)
        validator = validate(record)
    except (RecordFormatError, RecordRuleError) as exc:
        return report(args.record, exc)
    kind = "full record" if record.is_full else "Marshal's record"
    print("ok")
    print(f"{kind}: {validator.state.summary()}")
    return 0
