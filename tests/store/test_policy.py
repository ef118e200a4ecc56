"""The one access policy (store.policy), tested as one table: every kind of game ×
what the person is in it × finished or not × made it or not, against a table written
out by hand here; and docs/app.md prints the same table."""
from __future__ import annotations

import itertools
import pathlib

from store.access import Role
from store.policy import Access, Action, Kind, View, actions_of, link_grants, view_of

ROOT = pathlib.Path(__file__).resolve().parents[2]

# kind, role, live or over, made -> view, actions ("*": either, the same). Every row
# not written here is a person who is sent nothing and may do nothing.
TABLE = """
assistant owner    *    *    notes    play review export rename delete
device    owner    live *    device   play share review resign abandon delete
device    owner    over *    all      share review delete
device    watcher  live *    public
device    watcher  over *    all      review
linked    marshal  live *    marshal  play resign claim
linked    marshal  live made marshal  play resign claim invite call_off
linked    marshal  over *    all      rematch review
linked    fugitive live *    fugitive play resign claim
linked    fugitive live made fugitive play resign claim invite call_off
linked    fugitive over *    all      rematch review
linked    watcher  live *    public
linked    watcher  over *    all      review
rated     marshal  live *    marshal  play resign claim
rated     marshal  over *    all      review
rated     fugitive live *    fugitive play resign claim
rated     fugitive over *    all      review
rated     watcher  live *    public
rated     watcher  over *    all      review
"""


def expected() -> dict[tuple[Kind, Role | None, bool, bool], tuple[View, frozenset[Action]]]:
    out = {}
    for line in TABLE.strip().splitlines():
        kind, role, when, made, view, *acts = line.split()
        for m, over in itertools.product((False, True) if made == "*" else (made == "made",),
                                         (False, True) if when == "*" else (when == "over",)):
            out[(Kind(kind), Role(role), over, m)] = (View(view), frozenset(Action(a) for a in acts))
    return out


def test_the_policy_is_the_table():
    want = expected()
    for kind, role, finished, made in itertools.product(Kind, (None, *Role), (False, True), (False, True)):
        a = Access(kind, role, finished, made)
        got = (view_of(a), actions_of(a))
        assert got == want.get((kind, role, finished, made), (View.NOTHING, frozenset())), (kind, role, finished, made)
        assert all(a.may(x) == (x in got[1]) for x in Action)


def test_a_called_off_match_has_no_rematch_and_a_human_fugitive_keeps_learning_until_the_end():
    for role in (Role.MARSHAL, Role.FUGITIVE):
        assert not Access(Kind.LINKED, role, True, called_off=True).may(Action.REMATCH)
        assert Access(Kind.LINKED, role, True, called_off=True).may(Action.REVIEW)
    assert not Access(Kind.DEVICE, Role.OWNER, False, human_fugitive=True).may(Action.REVIEW)
    assert Access(Kind.DEVICE, Role.OWNER, True, human_fugitive=True).may(Action.REVIEW)


def test_a_link_never_takes_a_seat_from_anyone_nor_changes_what_a_holder_is():
    for link in Role:
        assert link_grants(link, held_by_other=True, mine=None) is (Role.WATCHER if link is Role.WATCHER else None)
        for mine in (Role.MARSHAL, Role.FUGITIVE, Role.OWNER):
            assert link_grants(link, held_by_other=False, mine=mine) is mine
    assert link_grants(Role.FUGITIVE, held_by_other=False, mine=Role.WATCHER) is Role.FUGITIVE
    assert link_grants(Role.OWNER, held_by_other=False, mine=None) is None  # no link is an owner's


def markdown() -> str:
    """The table as docs/app.md prints it."""
    rows = ["| game | is | while | view | may |", "| --- | --- | --- | --- | --- |"]
    for line in TABLE.strip().splitlines():
        kind, role, when, made, view, *acts = line.split()
        who = role + (" (made it)" if made == "made" else "")
        rows.append(f"| {kind} | {who} | {'any time' if when == '*' else when} | {view} | {', '.join(acts) or '—'} |")
    return "\n".join(rows)


def test_docs_app_prints_the_table():
    assert markdown() in (ROOT / "docs" / "app.md").read_text(encoding="utf-8"), markdown()
