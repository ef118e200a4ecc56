"""``fugitive games``: list, export, import, rename and delete stored games.

The database is ``--db``, else ``$FUGITIVE_DB``, else ``./data/fugitive.sqlite3``
(the app's): a SQLite file, or a PostgreSQL database given as a ``postgresql://``
URL. Refusals (unknown id, invalid import, a database that cannot be reached) are
one-line messages with exit code 1, and leave the database as it was.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from .args import is_output_error, output_file, write_text_file
from .reading import read_bytes, where

if TYPE_CHECKING:
    from store import GameStore


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="PATH|URL",
                        help="the SQLite file, or a postgresql:// URL (default: $FUGITIVE_DB or data/fugitive.sqlite3)")
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    sub.add_parser("list", help="list the stored games")
    p = sub.add_parser("export", help="print a game's record as JSON (or write it to a file)")
    p.add_argument("id")
    p.add_argument("-o", "--output", metavar="FILE")
    p = sub.add_parser("import", help="store a record from a JSON file ('-': standard input)")
    p.add_argument("file")
    p.add_argument("--title")
    p.add_argument("--kind", choices=("assistant", "match"), default="assistant")
    p = sub.add_parser("rename", help="give a game a new title")
    p.add_argument("id")
    p.add_argument("title")
    p = sub.add_parser("delete", help="delete a game")
    p.add_argument("id")


def run(args: argparse.Namespace) -> int:
    # the store (and its database library) is imported here, not at the top: every
    # command's module is imported to build the parser, and the others never need it
    from store import configured_location, display_location

    location = args.db if args.db else configured_location()
    try:
        if args.db == "":
            raise ValueError("--db: an empty file name")
        for value, what in _texts(args):
            _check_text(value, what)
        return _run(args, location)
    except ValueError as exc:  # StoreError is one too (a database that cannot be reached: database_error)
        print(f"error: {exc}", file=sys.stderr)
    except (FileExistsError, NotADirectoryError) as exc:  # making the database's folder
        print(f"error: {exc.filename or display_location(location)}: a file is where a folder should be",
              file=sys.stderr)
    except OSError as exc:
        if is_output_error(exc):  # standard output, not the database: main says so
            raise
        print(f"error: {exc.filename or display_location(location)}: {exc.strerror}", file=sys.stderr)
    return 1


def _texts(args: argparse.Namespace) -> Iterator[tuple[str, str]]:
    """The text arguments that go into the database, with their names."""
    for name in ("id", "title"):
        value = getattr(args, name, None)
        if value is not None:
            yield value, name


def _check_text(value: str, what: str) -> None:
    """A command-line argument is bytes decoded with surrogates where they were not
    UTF-8; SQLite cannot store those, so they are refused by name."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(f"the {what} is not valid text (UTF-8): {value.encode('utf-8', 'replace').decode()!r}") from None


def _run(args: argparse.Namespace, location: str) -> int:
    from store import GameStore, StoreError

    try:
        # reading a database that is not there would make a new empty one and say
        # "no games": a mistyped path would look like every game was lost
        store = GameStore(location, create=args.action == "import")
    except StoreError as exc:
        if exc.code != "no_database":
            raise
        raise ValueError(f"no database at {exc.params['where']} (--db, $FUGITIVE_DB or data/fugitive.sqlite3)") from None
    with store:
        return _act(args, store)


def _act(args: argparse.Namespace, store: GameStore) -> int:
    from store import StoreError

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
            problem = output_file(args.output, "-o")
            if problem:
                raise ValueError(problem)
            try:
                write_text_file(args.output, text + "\n")
            except OSError as exc:
                raise OSError(exc.errno, exc.strerror, args.output) from None
            print(f"wrote {args.output}")
        else:
            print(text)
        return 0
    if args.action == "import":
        data = read_bytes(args.file)
        # a file name that is not UTF-8 still makes a readable title
        stem = "Imported game" if args.file == "-" else os.fsencode(Path(args.file).stem).decode("utf-8", "replace")
        try:
            info = store.import_json(data, title=args.title or stem, kind=args.kind)
        except StoreError as exc:
            raise ValueError(f"{where(args.file)}: {exc}") from None
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
