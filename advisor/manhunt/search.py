"""The search: a node's value as the best of its first guesses, a guess's value as the
sum over its outcomes.

The value of a record is

    V(r) = max_x  sum over outcomes o = (position p, sprint cards S) of x:
                      P(o | r) * V(r + hit(x, p, S))

with V = max_x P(x) when one face-down hideout is left (a hit wins) and a miss worth
0. Every probability is an exact ratio of history counts: the count of the extended
record over the count of ``r`` (one history of ``r`` with x at p over S is one history
of the extended record).

Every outcome of a guess is solved before any is searched, which bounds its value (at
most its most likely number's probability: its first guess must hit), and a guess
stops once its upper bound cannot beat the best guess found. The last levels are not
searched: a node with two face-down hideouts is valued from its own count
(:mod:`.pairs`), a guess at a node with three from the node's tagged count
(:mod:`.tags`), a child of a node with four or more is derived from its parent's
passes (:mod:`.derive`), and at four to seven the compiled core values the guess
(:mod:`.compiled`).

``_node`` and ``_value_guess`` call each other (a node's value needs its guesses', a
guess's needs its children's), so they share this module; every step that does not
recurse lives in the modules above.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import floor
from typing import Any, NamedTuple

from solver.facts import Facts
from solver.posterior import Posterior, PositionPosterior

from . import compiled, settings
from .context import ONE, ZERO, NodeResult, _add_hit, _catches_of, _Ctx, _OutOfBudget, _Partial, _remember
from .derive import _derive_child, _derives
from .pairs import _pair_node
from .sprints import _merged_groups, sprint_groups
from .tags import _value_by_tags

#: (lower, upper, outcome branches of the tree, out of budget) of a first guess
GuessValue = tuple[Fraction, Fraction, list[Any], bool]


class _Outcome(NamedTuple):
    """One outcome of a guess (a hit at a position over a group of sprint sets), solved
    but not searched: the bounds on the histories one set of the group catches."""

    sets: int
    child: tuple[Any, ...]
    facts: Facts
    position: int
    sprints: tuple[int, ...]
    histories: int  # of one set of the group (the child's count)
    lo: int | Fraction
    hi: int | Fraction


@dataclass
class _Caught:
    """Bounds on the histories a guess catches (of the node's N): integers, as an
    outcome's share of N is its sets times the histories of one, and a child's value
    times its histories is the histories it catches (``_catches_of``), so the sums
    stay exact without a common denominator."""

    lo: int | Fraction
    hi: int | Fraction


@dataclass
class _FirstGuesses:
    """What the search of a node's first guesses found (``_search_first_guesses``)."""

    values: dict[int, tuple[Fraction, Fraction]]
    trees: dict[int, list[Any]] = field(default_factory=dict)
    #: the value of a certain number, once one was valued exactly, and that number
    settled: Fraction | None = None
    settled_x: int | None = None
    out_of_budget: bool = False


def _node(hits: tuple[Any, ...], facts: Facts, ctx: _Ctx,
          post: Posterior | None = None) -> NodeResult:
    """(lower, upper, best first guess, {x: (lo, hi)}, tree) for the record with these
    Manhunt hits (``facts`` are its facts).

    A node known from this call or an earlier one is not searched again. Nodes with
    nothing or one number left face down have their value at once (all histories
    caught; the most likely number's probability), and one with two from its own count
    (``_pair_node``); the others search their first guesses. A search stopped by the
    budget raises ``_Partial`` with the bounds it had.
    """
    got = ctx.known_value(hits)
    if got is not None:
        return got
    if post is None:
        post = ctx.posterior(hits, facts)
    if not post.consistent:
        raise ValueError(f"inconsistent Manhunt record: {post.reason}")
    m = post.face_down_count
    if m == 0:
        return _keep(ctx, hits, (ONE, ONE, None, {}, {"value": ONE}), remember=False)
    probs = _first_guess_order(post)
    if m == 1:
        p0, x0 = probs[0]
        return _keep(ctx, hits, (p0, p0, x0, {x: (p, p) for p, x in probs}, {"guess": x0, "value": p0}),
                     remember=False)
    if m == 2 and settings.PAIR_VALUES:
        pair = _pair_node(hits, facts, post, ctx)
        if pair is not None:
            return _keep(ctx, hits, pair, remember=not ctx.build_tree)
    found = _search_first_guesses(hits, facts, post, probs, ctx)
    res = _node_result(found, probs, ctx)
    if found.out_of_budget:
        raise _Partial(res)
    return _keep(ctx, hits, res, remember=not ctx.build_tree and res[0] == res[1])


def _keep(ctx: _Ctx, hits: tuple[Any, ...], res: NodeResult, remember: bool) -> NodeResult:
    """A node's result into this call's memo, and, when ``remember``, for later calls
    (an exact value of a search without a tree: ``_remember``)."""
    ctx.memo[hits] = res
    if remember:
        _remember(ctx, hits, res)
    return res


def _first_guess_order(post: Posterior) -> list[tuple[Fraction, int]]:
    """The node's possible numbers as (probability, x), in the order the search values
    them: most likely first (the counts share the denominator, so they are ranked as
    integers), since a guess's value is at most its probability and a likely one found
    early prunes the rest. With more than one face-down hideout, the certain numbers
    come first by their fewest outcomes: any one settles the value (see
    ``_search_first_guesses``), and the one with the fewest positions it can stand at
    and the fewest sprint cards there is the cheapest to search."""
    nc, N = post.number_counts, post.histories
    probs = [(Fraction(nc[x], N), x) for x in sorted((x for x, c in nc.items() if c), key=lambda x: (-nc[x], x))]
    if post.face_down_count > 1 and probs[0][0] == 1:
        def outcomes(x: int) -> tuple[int, int, int]:
            where = [q for q in post.positions if not q.revealed and q.counts.get(x)]
            return (len(where), sum(q.sprints for q in where), x)

        certain = sorted((x for p, x in probs if p == 1), key=outcomes)
        probs = [(ONE, x) for x in certain] + [(p, x) for p, x in probs if p != 1]
    return probs


def _search_first_guesses(hits: tuple[Any, ...], facts: Facts, post: Posterior, probs: list[tuple[Fraction, int]],
                          ctx: _Ctx) -> _FirstGuesses:
    """Value the first guesses in ``probs``'s order until none left can beat the best.

    A guess is worth at most its probability, so the search stops at the first whose
    probability is no more than the best lower bound found (exact pruning), and each
    guess is told that bound to beat. Guessing a certain number first is optimal: it
    cannot miss, and a strategy that guesses it later can be followed after it,
    knowing more. So once one certain number is valued exactly, that is the value of
    the record, every other certain number has the same value and no first guess does
    better. Stops at the first guess the budget cut short.
    """
    known = facts.marshal_cards | facts.known_cards
    found = _FirstGuesses({x: (ZERO, p) for p, x in probs})
    values = found.values
    best_lo, best_x = ZERO, probs[0][1]
    for px, x in probs:
        if px <= best_lo and best_lo > 0:
            break  # V(x) <= P(x): cannot beat the best found (exact pruning)
        if found.settled is not None and px == 1:
            continue  # valued with the first certain number
        beat = best_lo if best_lo > 0 and px < 1 else None  # a certain number is valued exactly
        lo, hi, branches, found.out_of_budget = _value_guess(hits, facts, post, known, x, px, ctx, beat)
        values[x] = (lo, hi if found.settled is None or hi < found.settled else found.settled)
        found.trees[x] = branches
        if lo > best_lo or (lo == best_lo and best_x is None):
            best_lo, best_x = lo, x
        if found.out_of_budget:
            break
        if px == 1 and lo == hi and found.settled is None:
            found.settled, found.settled_x = lo, x
            for py, y in probs:
                if y != x:
                    values[y] = (lo, lo) if py == 1 else (values[y][0], min(values[y][1], lo))
            break
    return found


def _node_result(found: _FirstGuesses, probs: list[tuple[Fraction, int]], ctx: _Ctx) -> NodeResult:
    """The node's bounds and best first guess from its first guesses' bounds.

    When the node has a certain number none of which was valued exactly, the upper
    bound of any one that was searched bounds the record (every certain number's value
    is the record's value) and so every first guess. Among guesses of equal bounds the
    smallest number is best, but a settled value keeps the certain number whose tree
    was explored."""
    values = found.values
    lo_all = max(v[0] for v in values.values())
    hi_all = max(v[1] for v in values.values())
    if probs[0][0] == 1 and found.settled is None:
        cap = min(values[x][1] for p, x in probs if p == 1)
        hi_all = min(hi_all, cap)
        for y, (a, b) in values.items():
            values[y] = (a, min(b, cap))
    best_x = max(values, key=lambda x: (values[x][0], values[x][1], -x))
    if found.settled_x is not None and values[best_x][0] == found.settled:
        best_x = found.settled_x  # the certain number whose tree was explored
    tree = None
    if ctx.build_tree:
        tree = {"guess": best_x, "value": (values[best_x][0], values[best_x][1]),
                "outcomes": found.trees.get(best_x, [])}
    return lo_all, hi_all, best_x, values, tree


def _value_guess(hits: tuple[Any, ...], facts: Facts, post: Posterior, known: frozenset[int], x: int, px: Fraction,
                 ctx: _Ctx, beat: Fraction | None = None) -> GuessValue:
    """(lower, upper, outcome branches, out of budget) of guessing x first at a node.

    Its value is the sum over x's outcomes (position, sprint group) of the outcome's
    probability times the value of the record after it. Every outcome is solved first,
    which bounds its value without searching below it: a record's value is at most
    its most likely number's probability (its first guess must hit), and exactly that
    with one face-down hideout left. With ``beat`` (the best value of another first
    guess), the search stops as soon as the upper bound shows x cannot beat it; the
    bounds returned then need not meet. When the budget runs out, the outcomes count
    with the bounds they have.

    Three ways, the first that applies: at three face-down hideouts, exactly from the
    tagged passes (``_value_by_tags``); at a deriving node of ``COMPILED_LEVELS``, in
    the compiled core (``_guess_by_core``); else by the search here
    (``_value_by_search``). Each of the first two answers None where the node is not of
    its shape, and the next way is taken.
    """
    if settings.PAIR_VALUES and not ctx.build_tree and post.face_down_count == 3:
        try:
            v = _value_by_tags(hits, facts, post, known, x, ctx)
        except _OutOfBudget:
            return ZERO, px, [], True
        if v is not None:
            return v, v, [], False
    derive = settings.PAIR_VALUES and not ctx.build_tree and _derives(post)
    if derive and post.face_down_count in settings.COMPILED_LEVELS:
        N = post.histories
        try:
            got = compiled._guess_by_core(hits, facts, post, known, x, beat, ctx)
        except _OutOfBudget:
            return ZERO, px, [], True
        if got is not None:
            return Fraction(got[0], N), Fraction(got[1], N), [], got[2]
    return _value_by_search(hits, facts, post, known, x, px, derive, ctx, beat)


def _value_by_search(hits: tuple[Any, ...], facts: Facts, post: Posterior, known: frozenset[int], x: int,
                     px: Fraction, derive: bool, ctx: _Ctx, beat: Fraction | None) -> GuessValue:
    """``_value_guess`` by the search: every outcome solved first (``_outcomes``), which
    bounds x's value; then, unless those bounds already show x cannot beat ``beat``,
    the open outcomes searched (``_search_outcomes``). Out of budget while solving the
    outcomes, x keeps the bound of its probability; while searching them, the bounds
    the outcomes had then."""
    N = post.histories
    try:
        outcomes = _outcomes(hits, facts, post, known, x, derive, ctx)
    except _OutOfBudget:
        return ZERO, px, [], True
    caught = _Caught(sum(o.sets * o.lo for o in outcomes), sum(o.sets * o.hi for o in outcomes))
    # x cannot beat ``beat`` once hi / N <= beat (for an integer hi, once hi <= the floor
    # of beat * N; otherwise the test only stops later)
    beat_c = None if beat is None else floor(beat * N)
    branches: list[Any] = []
    out_of_budget = False
    if beat_c is None or caught.hi > beat_c:
        try:
            _search_outcomes(outcomes, caught, beat_c, N, branches, ctx)
        except _OutOfBudget:
            out_of_budget = True
    return Fraction(caught.lo, N), Fraction(caught.hi, N), branches, out_of_budget


def _outcomes(hits: tuple[Any, ...], facts: Facts, post: Posterior, known: frozenset[int], x: int, derive: bool,
              ctx: _Ctx) -> list[_Outcome]:
    """Every outcome of a hit of x (each face-down position x can stand at, each group
    of sprint sets there), counted and bounded, none searched."""
    outcomes: list[_Outcome] = []
    for q in post.positions:
        if q.revealed or not q.counts.get(x):
            continue
        outcomes += _outcomes_at(hits, facts, post, known, x, q, derive, ctx)
    return outcomes


def _outcomes_at(hits: tuple[Any, ...], facts: Facts, post: Posterior, known: frozenset[int], x: int,
                 q: PositionPosterior, derive: bool, ctx: _Ctx) -> list[_Outcome]:
    """The outcomes of a hit of x at q: each sprint group's child (derived from this
    node's passes where it derives, ``_derive_child``), its count and the bounds of
    its value (``_bounds_caught``).

    A sprint set that holds every number some other face-down position can still
    take (on its side of x) fits no history, and is skipped uncounted. The groups'
    histories must add up to the solver's count of x at q: the groups stop once they
    do, and a shortfall is a bug.
    """
    target = q.counts[x]
    covered = 0
    others = [
        {y for y, c in o.counts.items() if c and (y < x) == (o.position < q.position)}
        for o in post.positions if not o.revealed and o.position != q.position
    ]
    outcomes: list[_Outcome] = []
    for S, mult in _hit_groups(hits, facts, post, known, x, q, derive, ctx):
        if S and any(ys.issubset(S) for ys in others):
            continue
        child = _add_hit(hits, x, q.position, S)
        child_facts = facts.with_reveal(q.position, x, S)
        if derive and child not in ctx.posteriors and ctx.known_value(child) is None:
            _derive_child(ctx, hits, facts, x, q.position, S, child, child_facts)
        n1 = ctx.count(child, child_facts)
        n = n1 * mult
        if not n:
            continue
        covered += n
        clo, chi = _bounds_caught(ctx, child, child_facts, n1)
        outcomes.append(_Outcome(mult, child, child_facts, q.position, S, n1, clo, chi))
        if covered == target:
            break
    if covered != target:
        raise AssertionError(f"sprint groups of {x} at {q.position} cover {covered} of {target} histories")
    return outcomes


def _hit_groups(hits: tuple[Any, ...], facts: Facts, post: Posterior, known: frozenset[int], x: int,
                q: PositionPosterior, derive: bool, ctx: _Ctx) -> list[tuple[tuple[int, ...], int]]:
    """The sprint groups a hit of x at q can show (``sprint_groups``): only the class
    compositions some history has there (from the fixed joint where the node derives,
    else from ``sprint_classes``; a Manhunt record ends with the escape, so a
    face-down position is never the last), and, where the node derives, the sets that
    lead to one node merged (``_merged_groups``)."""
    last = q.position == len(facts.positions)
    fits = joint = None
    if q.sprints and not last:
        joint = ctx.fixed_joint(hits, facts, q.position, x) if derive else None
        if joint is not None:  # the compositions with a history, as sprint_classes gives
            fits = {inc for inc, row in joint.items() if any(row.values())}
        else:
            fits = ctx.sprint_classes(hits, facts, q.position).get(x, set())
    if derive and joint is not None:
        assert fits is not None
        return _merged_groups(post, x, q.position, known, joint, fits, ctx.deadline)
    return sprint_groups(post, None, x, q.position, ctx.deadline, known=known, fits=fits)


def _bounds_caught(ctx: _Ctx, hits: tuple[Any, ...], facts: Facts, n: int) -> tuple[int | Fraction, int | Fraction]:
    """Bounds on the histories a node's best play catches (its value times its
    histories ``n``; integers, see :func:`_catches_of`) without searching it: its
    value if known; else all with nothing left face down, the most likely number's
    count with one left (exact), and at most that with more."""
    got = ctx.known_value(hits)
    if got is not None:
        return _catches_of(got[0], n), _catches_of(got[1], n)
    post = ctx.posterior(hits, facts)
    m = post.face_down_count
    if m == 0:
        return n, n
    if m == 2 and settings.PAIR_VALUES:  # valued exactly from its own count (_pair_node)
        got = _node(hits, facts, ctx, post=post)
        return _catches_of(got[0], n), _catches_of(got[1], n)
    top = max(post.number_counts.values())
    return (top, top) if m == 1 else (0, top)


def _search_outcomes(outcomes: list[_Outcome], caught: _Caught, beat_c: int | None, N: int, branches: list[Any],
                     ctx: _Ctx) -> None:
    """Search the outcomes whose value is still open, the most open first (the bounds
    close fastest), each child's exact value taking the place of its bounds in
    ``caught``; stop once x cannot beat ``beat_c`` (histories). With a tree, every
    outcome is searched and becomes a branch. A child stopped by the budget leaves
    its rigorous bounds (where tighter than the outcome's) and stops the search
    (``_OutOfBudget``)."""
    for mult, child, child_facts, p, S, n1, clo, chi in sorted(outcomes, key=lambda o: -o.sets * (o.hi - o.lo)):
        if clo != chi or ctx.build_tree:
            try:
                nlo, nhi, _, _, ctree = _node(child, child_facts, ctx)
            except _Partial as part:  # the child's bounds, rigorous though not met
                caught.lo += mult * (max(_catches_of(part.res[0], n1), clo) - clo)
                caught.hi += mult * (min(_catches_of(part.res[1], n1), chi) - chi)
                raise _OutOfBudget from None
            caught.lo += mult * (_catches_of(nlo, n1) - clo)
            caught.hi += mult * (_catches_of(nhi, n1) - chi)
            if ctx.build_tree:
                branches.append({"position": p, "sprint_cards": list(S), "sets": mult,
                                 "probability": Fraction(mult * n1, N), "value": (nlo, nhi), "next": ctree})
            if beat_c is not None and caught.hi <= beat_c:
                break
