"""The rules' arithmetic, written once (docs/rules.md).

Every number the rules compute with lives here, named: how far a hideout may lie
above the previous one (the base step of 3 plus the footprints of its sprint cards),
the fewest sprint cards a jump needs, when the escape wins at once. The engine, the
views (a bot sees only its view), the notepad's validator, the solver, the advisor and
the app ask these functions instead of writing the sums again, and the compiled
counting core's constants are checked against them (``tests/solver/test_compiled_rules.py``).

The functions know nothing of states or views: they take the previous hideout and a
hand (or just counts, for what the Marshal sees). Sprint values are 1 or 2, so "can
the hand reach h" is a sum, not a search; only the "two" opening (the first hideout
must leave a legal second) needs a small search, and only on the first turn when the
hand has 9 cards.
"""
from __future__ import annotations

from itertools import combinations
from typing import Collection, Iterable, Iterator

from .cards import ESCAPE, sprint_value
from .errors import MoveText, move_text

#: How far a hideout may lie above the previous one without sprint cards.
BASE_STEP = 3
#: The fewest and the most footprints one sprint card adds (an odd card, an even card).
MIN_SPRINT_VALUE = 1
MAX_SPRINT_VALUE = 2
#: The escape wins at once when the highest revealed hideout before 42 is at least
#: this; below it a Manhunt starts (docs/rules.md, "Winning").
ESCAPE_THRESHOLD = 30

#: Sprint value by card number (0..42), a table because it is read in hot loops.
SPRINT: tuple[int, ...] = tuple(sprint_value(c) for c in range(ESCAPE + 1))


def sprint_total(cards: Iterable[int]) -> int:
    """Footprints of a set of cards; 42 never counts (it can never be a sprint card)."""
    return sum([SPRINT[c] for c in cards if c != ESCAPE])


def footprints(sprints: int, evens: int = 0) -> int:
    """The footprints of ``sprints`` sprint cards of which ``evens`` are even (each
    card adds at least 1, an even one 2): what the solver knows of a sprint set whose
    cards it counts by parity."""
    return sprints * MIN_SPRINT_VALUE + evens * (MAX_SPRINT_VALUE - MIN_SPRINT_VALUE)


def max_gap(footprints: int) -> int:
    """The most a hideout may lie above the previous one over sprint cards worth
    ``footprints``: the base step plus their footprints."""
    return BASE_STEP + footprints


def max_gaps(sprints: int) -> tuple[int, ...]:
    """``evens`` -> :func:`max_gap` over ``sprints`` sprint cards of which ``evens``
    are even (0 to ``sprints``): a table for loops over sprint sets known by parity."""
    return tuple(max_gap(footprints(sprints, evens)) for evens in range(sprints + 1))


def reach(previous: int, footprints: int) -> int:
    """The highest hideout placeable after ``previous`` over sprint cards worth ``footprints``."""
    return previous + BASE_STEP + footprints


def widest_reach(previous: int, sprints: int) -> int:
    """The highest hideout placeable after ``previous`` over ``sprints`` sprint cards
    whose numbers are unknown (every one even, worth the most): the bound the Marshal
    can draw from a public sprint count."""
    return reach(previous, MAX_SPRINT_VALUE * sprints)


def footprints_needed(previous: int, hideout: int) -> int:
    """The footprints the sprint cards must add for ``hideout`` to follow ``previous``
    (0 or less: none are needed)."""
    return hideout - previous - BASE_STEP


def lowest_previous(hideout: int, footprints: int) -> int:
    """The lowest previous hideout that ``hideout`` can follow over sprint cards worth
    ``footprints`` (the placement rule read backwards)."""
    return hideout - BASE_STEP - footprints


def fewest_sprints(previous: int, hideout: int) -> int:
    """The fewest sprint cards of unknown numbers (each worth at most 2) that can
    let ``hideout`` follow ``previous``: what the Marshal knows a jump costs."""
    return max(0, -(-footprints_needed(previous, hideout) // MAX_SPRINT_VALUE))


def fewest_sprint_cards(previous: int, hand: Iterable[int], hideout: int) -> int | None:
    """The fewest sprint cards of ``hand`` that let ``hideout`` follow ``previous``
    (the most footprints first), or None when the whole hand cannot reach it."""
    need = footprints_needed(previous, hideout)
    if need <= 0:
        return 0
    values = sorted((SPRINT[c] for c in hand if c != hideout and c != ESCAPE), reverse=True)
    total = 0
    for n, v in enumerate(values, start=1):
        total += v
        if total >= need:
            return n
    return None


def escape_wins(highest_revealed: int) -> bool:
    """Whether an escape wins at once, the highest revealed hideout before 42 being
    ``highest_revealed`` (0 counts); otherwise a Manhunt starts."""
    return highest_revealed >= ESCAPE_THRESHOLD


def reachable(previous: int, hand: Collection[int]) -> list[int]:
    """Hand cards placeable after ``previous`` with some sprint set, in the hand's
    iteration order (see :func:`reachable_hideouts` for them ascending): a card fits
    when every other usable card of the hand sprinting reaches it (42 never sprints).
    One sum and one pass over the hand: the random bots ask it on every placement."""
    top = reach(previous, sprint_total(hand))
    return [h for h in hand if previous < h <= (top if h == ESCAPE else top - SPRINT[h])]


def has_placement(previous: int, hand: Collection[int]) -> bool:
    """True when some card of ``hand`` can follow ``previous`` (with any sprints)."""
    top = reach(previous, sprint_total(hand))  # reachable's test, stopping at the first card that fits
    return any(previous < h <= (top if h == ESCAPE else top - SPRINT[h]) for h in hand)


def reachable_hideouts(previous: int, hand: Collection[int]) -> list[int]:
    """Hand cards placeable after ``previous`` with some sprint set, ascending."""
    return sorted(reachable(previous, hand))


def _sprint_pool(hand: Iterable[int], hideout: int) -> list[int]:
    return sorted(c for c in hand if c != hideout and c != ESCAPE)


def leaves_second(previous: int, hand: frozenset[int], hideout: int, sprint_cards: frozenset[int]) -> bool:
    """After placing ``hideout`` over ``sprint_cards``, can the rest of the hand follow?"""
    return has_placement(hideout, hand - sprint_cards - {hideout})


def _sprint_sets(previous: int, hand: frozenset[int], hideout: int) -> Iterator[frozenset[int]]:
    """Every sprint set from the hand that lets ``hideout`` follow ``previous`` (lazily)."""
    need = footprints_needed(previous, hideout)
    pool = _sprint_pool(hand, hideout)
    for size in range(len(pool) + 1):
        for combo in combinations(pool, size):
            if sprint_total(combo) >= need:
                yield frozenset(combo)


def opening_first_ok(previous: int, hand: frozenset[int], hideout: int) -> bool:
    """"two" opening: is there a sprint set for ``hideout`` that leaves a legal second?"""
    return any(leaves_second(previous, hand, hideout, s) for s in _sprint_sets(previous, hand, hideout))


def placement_error(
    previous: int,
    hand: frozenset[int],
    hideout: object,
    sprint_cards: frozenset[int],
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
    sprints = sprint_total(sprint_cards)  # 42 is not among them (refused above)
    need = footprints_needed(previous, hideout)
    if need > sprints:
        if not sprint_cards:
            return move_text("out_of_reach_no_sprints", hideout=hideout, step=BASE_STEP, previous=previous,
                             need=need)
        return move_text("out_of_reach", hideout=hideout, step=BASE_STEP, previous=previous, sprints=sprints,
                         need=need)
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

