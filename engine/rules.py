"""The placement rule of RULES.md as pure functions on plain values.

These functions know nothing of states or views: they take the previous hideout and
a hand, so the engine, the views (a bot sees only its view) and tests all ask the one
implementation. Sprint values are 1 or 2, so "can the hand reach h" is a sum, not a
search; only the "two" opening (the first hideout must leave a legal second) needs a
small search, and only on the first turn when the hand has 9 cards.
"""
from __future__ import annotations

from itertools import combinations
from typing import Iterable, Iterator

from .cards import BASE_STEP, ESCAPE, sprint_value
from .errors import MoveText, move_text

#: Sprint value by card number (0..42), a table because it is read in hot loops.
SPRINT = tuple(1 if c % 2 else 2 for c in range(ESCAPE + 1))


def sprint_total(cards: Iterable[int]) -> int:
    """Footprints of a set of cards; 42 never counts (it can never be a sprint card)."""
    return sum(SPRINT[c] for c in cards if c != ESCAPE)


def max_reach(previous: int, hand: Iterable[int], hideout: int) -> int:
    """The highest number reachable from ``previous`` when ``hideout`` is placed and
    every other usable card of the hand sprints."""
    total = sprint_total(hand)
    if hideout != ESCAPE and hideout in hand:
        total -= SPRINT[hideout]
    return previous + BASE_STEP + total


def has_placement(previous: int, hand: frozenset[int] | set[int]) -> bool:
    """True when some card of ``hand`` can follow ``previous`` (with any sprints)."""
    total = sprint_total(hand)
    for h in hand:
        if h > previous:
            reach = previous + BASE_STEP + total - (SPRINT[h] if h != ESCAPE else 0)
            if h <= reach:
                return True
    return False


def reachable_hideouts(previous: int, hand: frozenset[int] | set[int]) -> list[int]:
    """Hand cards placeable after ``previous`` with some sprint set, ascending."""
    total = sprint_total(hand)
    out = []
    base = previous + BASE_STEP + total
    for h in hand:
        if h > previous and h <= base - (SPRINT[h] if h != ESCAPE else 0):
            out.append(h)
    out.sort()
    return out


def _sprint_pool(hand: Iterable[int], hideout: int) -> list[int]:
    return sorted(c for c in hand if c != hideout and c != ESCAPE)


def leaves_second(previous: int, hand: frozenset[int], hideout: int, sprint_cards: frozenset[int]) -> bool:
    """After placing ``hideout`` over ``sprint_cards``, can the rest of the hand follow?"""
    return has_placement(hideout, hand - sprint_cards - {hideout})


def _sprint_sets(previous: int, hand: frozenset[int], hideout: int):
    """Every sprint set from the hand that lets ``hideout`` follow ``previous`` (lazily)."""
    need = hideout - previous - BASE_STEP
    pool = _sprint_pool(hand, hideout)
    for size in range(len(pool) + 1):
        for combo in combinations(pool, size):
            if sum(SPRINT[c] for c in combo) >= need:
                yield frozenset(combo)


def opening_first_ok(previous: int, hand: frozenset[int], hideout: int) -> bool:
    """"two" opening: is there a sprint set for ``hideout`` that leaves a legal second?"""
    return any(leaves_second(previous, hand, hideout, s) for s in _sprint_sets(previous, hand, hideout))


def placement_error(
    previous: int,
    hand: frozenset[int],
    hideout: object,
    sprint_cards: frozenset,
    needs_second: bool = False,
) -> MoveText | None:
    """Why placing ``hideout`` over ``sprint_cards`` is illegal, or None when it is legal.

    ``needs_second`` is the "two" opening's condition on the first hideout. The reason
    is coded (a key of ``errors.MOVE_MESSAGES``), so the app can say it in Korean.
    """
    if not isinstance(hideout, int) or isinstance(hideout, bool) or not 1 <= hideout <= ESCAPE:
        return move_text("not_a_hideout_card", hideout=hideout)
    if hideout not in hand:
        return move_text("hideout_not_held", hideout=hideout)
    if ESCAPE in sprint_cards:
        return move_text("escape_as_sprint")
    if hideout in sprint_cards:
        return move_text("hideout_is_sprint", hideout=hideout)
    missing = sorted(c for c in sprint_cards if c not in hand)
    if len(missing) == 1:
        return move_text("sprint_card_not_held", card=missing[0])
    if missing:
        return move_text("sprint_cards_not_held", cards=", ".join(map(str, missing)))
    if hideout <= previous:
        return move_text("hideout_not_higher", hideout=hideout, previous=previous)
    gap = hideout - previous
    sprints = sum(SPRINT[c] for c in sprint_cards)
    if gap > BASE_STEP + sprints:
        if not sprint_cards:
            return move_text("out_of_reach_no_sprints", hideout=hideout, step=BASE_STEP, previous=previous,
                             need=gap - BASE_STEP)
        return move_text("out_of_reach", hideout=hideout, step=BASE_STEP, previous=previous, sprints=sprints,
                         need=gap - BASE_STEP)
    if needs_second and not leaves_second(previous, hand, hideout, sprint_cards):
        return move_text("opening_blocks_second", hideout=hideout)
    return None


def legal_hideouts(previous: int, hand: frozenset[int], needs_second: bool = False) -> list[int]:
    """Hideouts placeable with at least one sprint set, ascending."""
    cands = reachable_hideouts(previous, hand)
    if needs_second:
        cands = [h for h in cands if opening_first_ok(previous, hand, h)]
    return cands


def placements(previous: int, hand: frozenset[int], needs_second: bool = False) -> Iterator[tuple[int, frozenset[int]]]:
    """Every legal (hideout, sprint set), hideouts ascending, then by sprint-set size.

    The number of sprint sets grows as 2^(hand size): iterate, do not list, for big hands.
    """
    for h in legal_hideouts(previous, hand, needs_second):
        for s in _sprint_sets(previous, hand, h):
            if not needs_second or leaves_second(previous, hand, h, s):
                yield h, s


assert all(SPRINT[c] == sprint_value(c) for c in range(ESCAPE + 1))
