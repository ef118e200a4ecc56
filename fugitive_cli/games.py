"""``fugitive games``: list, export, import, rename and delete stored games.

The database is ``--db PATH``, else ``$FUGITIVE_DB``, else ``./data/fugitive.sqlite3``
(the app's). Refusals (unknown id, invalid import) are one-line messages with exit
code 1, and leave the database as it was.
"""
from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path

from notepad.store import GameStore, StoreError


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="PATH", help="the SQLite file (default: $FUGITIVE_DB or data/fugitive.sqlite3)")
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    sub.add_parser("list", help="list the stored games")
    p = sub.add_parser("export", help="print a game's record as JSON (or write it to a file)")
    p.add_argument("id")
    p.add_argument("-o", "--output", metavar="FILE")
    p = sub.add_parser("import", help="store a record from a JSON file")
    p.add_argument("file")
    p.add_argument("--title")
    p.add_argument("--kind", choices=("assistant", "match"), default="assistant")
    p = sub.add_parser("rename", help="give a game a new title")
    p.add_argument("id")
    p.add_argument("title")
    p = sub.add_parser("delete", help="delete a game")
    p.add_argument("id")


def run(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except StoreError as exc:
        print(f"error: {exc}", file=sys.stderr)
    except sqlite3.Error as exc:
        print(f"error: database {args.db or ''}: {exc}", file=sys.stderr)
    except OSError as exc:
        print(f"error: {exc.filename or ''}: {exc.strerror}", file=sys.stderr)
    return 1


def _run(args: argparse.Namespace) -> int:
    store = GameStore(args.db)
    if args.action == "list":
        games = store.list()
        if not games:
            print("no games")
        for g in games:
            print(f"{g.id}  {g.kind:<9}  {g.events:>3} events  {g.updated[:19].replace('T', ' ')}  {g.title}")
        return 0
    if args.action == "export":
        text = store.export_json(args.id)
        if args.output:
            Path(args.output).write_text(text + "\n", encoding="utf-8")
            print(f"wrote {args.output}")
        else:
            print(text)
        return 0
    if args.action == "import":
        data = Path(args.file).read_bytes()
        info = store.import_json(data, title=args.title or Path(args.file).stem, kind=args.kind)
        print(f"imported {info.id}  {info.events} events  {info.title}")
        return 0
    if args.action == "rename":
        store.rename(args.id, args.title)
        print("renamed")
        return 0
    if args.action == "delete":
        store.delete(args.id)
        print("deleted")
        return 0
    raise AssertionError(args.action)
