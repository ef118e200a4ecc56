"""``fugitive``: the command-line entry point.

Each subcommand lives in its own module of this package with two functions,
``configure(parser)`` and ``run(args) -> int``; each module imports what
its command needs inside ``run``, so ``fugitive check`` never pays for the solver.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

#: command -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("fugitive_cli.play", "play a game in the terminal against a bot"),
    "simulate": ("fugitive_cli.simulate", "play bot games and print win counts and speed"),
    "check": ("fugitive_cli.check", "validate a game record (docs/record.md)"),
    "games": ("fugitive_cli.games", "list, export and import the stored games"),
    "solve": ("fugitive_cli.solve", "exact probabilities for the Marshal's position of a record"),
    "tournament": ("fugitive_cli.tournament", "play every Marshal bot against every Fugitive bot"),
    "calibration": ("fugitive_cli.calibration", "how well the solver's probabilities match outcomes"),
    "doctor": ("fugitive_cli.doctor", "what this installation runs on (versions, the counting core)"),
}


class _Version(argparse.Action):
    """``--version``: the version and the counting core in use (made only when asked)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[object] | None, option_string: str | None = None) -> None:
        from .doctor import report

        print("\n".join(report()))
        parser.exit()


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, ModuleType]]:
    parser = argparse.ArgumentParser(prog="fugitive", description="Fugitive: engine, notepad and exact solver.")
    parser.add_argument("--version", nargs=0, action=_Version, help="print the version and the counting core, then exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules: dict[str, ModuleType] = {}
    for name, (module_name, help_text) in COMMANDS.items():
        module = importlib.import_module(module_name)
        p = sub.add_parser(name, help=help_text, description=help_text)
        module.configure(p)
        modules[name] = module
    return parser, modules


def main(argv: list[str] | None = None) -> int:
    parser, modules = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 2
    try:
        code = int(modules[args.command].run(args) or 0)
        sys.stdout.flush()  # here, not at exit, so that a failed write is an error message
        return code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `fugitive solve r.json --json | head`
        _drop_stdout()
        return 0
    except OSError as exc:
        from .args import is_output_error

        if not is_output_error(exc):
            raise
        _drop_stdout()  # what is left in its buffer cannot be written either
        print(f"error: cannot write the output: {exc.strerror}", file=sys.stderr)
        return 1


def _drop_stdout() -> None:
    import os

    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


if __name__ == "__main__":
    sys.exit(main())
