"""``fugitive check RECORD.json``: is this record valid (format and rules)?

Prints ``ok`` and a one-line summary, or the first error with its event index
and exit code 1. Every problem is a message, never a traceback: the command is
meant for people checking a file they wrote or exported.
"""
from __future__ import annotations

import argparse
import sys

from engine.record import RecordFormatError, load_record
from notepad.validator import RecordRuleError, validate


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", metavar="RECORD.json", help="a game record (RECORD.md, version 1)")


def run(args: argparse.Namespace) -> int:
    try:
        record = load_record(args.record)
    except RecordFormatError as exc:
        print(f"error: {args.record}: {exc}", file=sys.stderr)
        return 1
    except RecursionError:  # json's answer to absurdly deep nesting
        print(f"error: {args.record}: not a game record (JSON nested too deeply)", file=sys.stderr)
        return 1
    try:
        validator = validate(record)
    except RecordRuleError as exc:
        print(f"error: {args.record}: {exc}", file=sys.stderr)
        return 1
    kind = "full record" if record.is_full else "Marshal's record"
    print("ok")
    print(f"{kind}: {validator.state.summary()}")
    return 0
