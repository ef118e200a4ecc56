"""``fugitive solve RECORD.json [--json] [--core compiled|python]``: exact probabilities for
the Marshal's position."""
from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from solver.posterior import Posterior


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", help="a game record (docs/record.md); '-' reads standard input")
    parser.add_argument("--json", action="store_true", help="print the JSON object of docs/record.md")
    parser.add_argument("--core", choices=("compiled", "python"),
                        help="the counting core (default: compiled where it is built; the counts are the same); "
                             "said on standard error when chosen here or when the compiled core cannot be loaded")


def _bar(p: float, width: int = 20) -> str:
    filled = round(p * width)
    return "#" * filled + "." * (width - filled)


def render(post: Posterior) -> str:
    """A readable table: every possible number, then each position's candidates."""
    if not post.consistent:
        return (
            "inconsistent: no hidden history fits this record\n"
            f"first inconsistent event: {post.first_inconsistent_event}\n{post.reason}"
        )
    lines = [f"histories: {post.histories}", f"face-down hideouts: {post.face_down_count}", ""]
    lines.append("number  P(face-down hideout)")
    for x, p in post.hideouts.items():
        if p > 0:
            lines.append(f"{x:>6}  {p:7.4f}  {_bar(p)}{'  certain' if p == 1 else ''}")
    lines.append("")
    lines.append("position  candidates")
    for pos in post.positions:
        if pos.revealed:
            lines.append(f"{pos.position:>8}  {pos.hideout} (face up)")
        else:
            cands = sorted(pos.candidates.items(), key=lambda kv: -kv[1])
            shown = ", ".join(f"{x}: {p:.3f}" for x, p in cands[:8])
            more = f", … ({len(cands) - 8} more)" if len(cands) > 8 else ""
            lines.append(f"{pos.position:>8}  [{pos.sprints} sprint] {shown}{more}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from engine.record import RecordFormatError
    from solver.exact import InvalidRecord, solve

    from .reading import read_record, report

    from solver.counting import CoreUnavailable, announce, use_core

    if args.core:
        try:
            use_core(args.core)
        except CoreUnavailable as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    try:
        post = solve(read_record(args.record))
    except (InvalidRecord, RecordFormatError) as exc:
        return report(args.record, exc)
    if args.core:
        announce()
    if args.json:
        print(json.dumps(post.to_dict(), indent=2))
    else:
        print(render(post))
    return 0 if post.consistent else 3
