"""The Manhunt planner: the Marshal's exact best guess order as a decision tree.

In a Manhunt the Marshal guesses single numbers; a miss ends the game, a hit reveals
the hideout's position and its sprint cards (a new record, a new posterior) and she
goes on until no face-down hideout is left. The value of a record is

    V(r) = max_x  sum over outcomes o = (position p, sprint cards S) of x:
                      P(o | r) * V(r + hit(x, p, S))

with V = max_x P(x) when one face-down hideout is left (a hit wins) and a miss worth
0. Every probability is an exact ratio of history counts: the count of the extended
record over the count of ``r`` (one history of ``r`` with x at p over S is one history
of the extended record).

Sprint sets are grouped exactly, not sampled: two sprint cards of the same class
(deck, parity) that are candidates for no other face-down position can be swapped in
every history, so sets that differ only in such cards lead to the same posterior of
the other positions and the same value. A group is one candidate part T plus a class
composition of the rest, weighted by the number of sets in it. Every (x, p) check
sums the group counts back to the solver's marginal count of x at p.

Search: every outcome of a guess is solved before any is searched, which bounds its
value (at most its most likely number's probability: its first guess must hit), and a
guess stops once its upper bound cannot beat the best guess found. Sprint sets of a
class composition that no history has under x at p are never made
(``sprint_classes`` of :mod:`solver.counting`).

The last levels are not searched. Once the hideouts are fixed, sprint cards of one
class are interchangeable, so the histories of a sprint set are those of its class
composition shared equally among the sets that avoid the hideouts. Hence: a node with
two face-down hideouts is valued from its own count (``_pair_node``); a guess at a node
with three from the node's tagged count (``_value_by_tags``); and a child of a node
with four or more (while the node's joint of hideouts is small, ``DERIVE_LIMIT``) is
not counted at all: its posterior and, with three left, its guesses' pair counts come
from its parent's tagged passes with its hit fixed (``_derive_child``).

Compiled: on the compiled core, a guess at a deriving node with four to seven face-down
hideouts is valued in the core (``_guess_by_core``, ``solver/compiled/planner.hpp``):
the same sprint groups, derived children, guess order, bounds and stops as the Python
here, which stays the reference (``COMPILED_LEVELS`` says where; the tests hold the two
equal guess by guess). No node below is counted there: each is a view of the node's
own tagged passes with its hits' positions fixed, divided among the sprint sets as
``_derive_child`` divides one hit's (one pass serves every sprint set of the hits).
Nodes valued there are not kept in this module's memo (the core keeps its own).

Budget: a time limit and a limit on solver calls. When either runs out the planner
does not guess: it returns rigorous bounds. Lower bounds come from exact values of
finished branches (and a fixed guess set's exact chance), upper bounds from the bounds
above (an unexplored first guess x has at most P(x)). ``exact`` says which case it is.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations, count, product
from math import comb, floor
from typing import Any, Iterable, Iterator, Sequence

from engine import rules
from engine.record import ManhuntGuess, Record
from solver.counting import (CLASS_MEMBERS, CLASS_OF, CLASS_SPRINT, N_CLASSES, HistoryCounter, OutOfTime, compiled_search,
                             composition, composition_counts, composition_of, new_counter, planner_sums)
from solver.facts import Facts, extract
from solver.gcpause import no_cycle_collection
from solver.posterior import Posterior
from solver.exact import counted, posterior_from_counts, validate_record

from .cache import record_key, solve_cached

ONE = Fraction(1)
#: the deriving nodes (by face-down hideouts) whose guesses the compiled core values
#: (``_guess_by_core``); at the others, or on the Python core, ``_value_guess`` does
COMPILED_LEVELS: tuple[int, ...] = (4, 5, 6, 7)
#: value the nodes with two face-down hideouts from their own count (``_pair_node``);
#: off, they are searched like the others (the tests compare the two)
PAIR_VALUES = True
ZERO = Fraction(0)
#: a node with four face-down hideouts or more derives its children from its tagged
#: passes (``_derive_child``) instead of counting them, while its joint of hideouts
#: can hold at most this many tuples (the product of its positions' candidates)
DERIVE_LIMIT = 20_000


class _OutOfBudget(Exception):
    pass


#: a node's result: (lower, upper, best first guess, {x: (lo, hi)}, tree)
NodeResult = tuple[Fraction, Fraction, "int | None", dict[int, tuple[Fraction, Fraction]], "dict[str, Any] | None"]
#: ``HistoryCounter.fixed_joint``: class increment -> the other hideouts -> histories
FixedJoint = dict[int, dict[tuple[int, ...], int]]

@dataclass
class ManhuntPlan:
    """The planner's answer for a Manhunt record."""

    best_guess: int
    lower: Fraction
    upper: Fraction
    #: first guess -> (lower, upper) of its value (equal when exact)
    first_guesses: dict[int, tuple[Fraction, Fraction]]
    solves: int
    seconds: float
    #: the decision tree (when exact): {"guess": x, "value": v, "outcomes": [...]}
    tree: dict[str, Any] | None = None
    note: str = ""
    #: when the value (or its final bounds) was known; the rest of ``seconds`` went to
    #: the other first guesses
    value_seconds: float = 0.0

    @property
    def exact(self) -> bool:
        return self.lower == self.upper

    def exact_within(self, seconds: float) -> bool:
        """Whether the value was exact within ``seconds`` (the time the other first
        guesses took after it does not count)."""
        return self.exact and self.value_seconds <= seconds

    @property
    def value(self) -> Fraction:
        if not self.exact:
            raise ValueError(f"the planner ran out of budget: the value is in [{float(self.lower):.4f}, {float(self.upper):.4f}]")
        return self.lower

    def summary(self) -> str:
        if self.exact:
            return f"guess {self.best_guess} first: exact probability of catching him {float(self.lower):.4f}"
        return (
            f"guess {self.best_guess} first; the state is too large for the budget ({self.note}): "
            f"the probability of catching him is between {float(self.lower):.4f} and {float(self.upper):.4f}"
        )


@dataclass
class _Ctx:
    """One planning call: its budget, and what it has solved.

    Every record of the search is the root's record plus Manhunt hits. After the
    escape nothing happens between the Marshal's guesses and a hit says the same
    whenever it came, so a node is named by its hits sorted by position (the same hits
    in any order are one node, one solve, one memo entry), and its facts are its
    parent's facts with one more reveal. Nothing is read from a
    record again, and a node is solved once: its count comes with its posterior.
    """

    deadline: float
    max_solves: int
    #: names the public content of the root's record without its Manhunt hits
    prefix_key: int = 0
    solves: int = 0
    memo: dict[Any, Any] = field(default_factory=dict)
    build_tree: bool = False
    posteriors: dict[tuple[Any, ...], Posterior] = field(default_factory=dict)
    counts: dict[tuple[Any, ...], int] = field(default_factory=dict)
    classes: dict[Any, Any] = field(default_factory=dict)
    #: the counters of nodes with two face-down hideouts or more (their stored passes
    #: answer ``sprint_classes`` and ``pair_counts`` without counting again)
    counters: dict[tuple[Any, ...], HistoryCounter] = field(default_factory=dict)
    #: nodes whose posterior and pair counts come from their parent's tagged passes
    #: (``_derive_child``): node -> (parent, (position, hideout) of the hit, class
    #: increment of its sprint cards, the numbers they hold, the node's free cards)
    derived: dict[Any, Any] = field(default_factory=dict)
    #: (parent, position, hideout) -> the parent's ``HistoryCounter.fixed_joint``
    fixed_joints: dict[tuple[Any, ...], FixedJoint | None] = field(default_factory=dict)
    #: (parent, hit, class increment, position, hideout) -> a derived node's pair counts
    derived_pairs: dict[Any, Any] = field(default_factory=dict)

    def charge(self) -> None:
        if time.perf_counter() > self.deadline or self.solves >= self.max_solves:
            raise _OutOfBudget
        self.solves += 1

    def known_value(self, hits: tuple[Any, ...]) -> tuple[Any, ...] | None:
        got = self.memo.get(hits)
        if got is None and not self.build_tree:
            got = _EXACT.get((self.prefix_key, hits))
        return got

    def posterior(self, hits: tuple[Any, ...], facts: Facts) -> Posterior:
        post = self.posteriors.get(hits)
        if post is None:
            self.charge()
            try:
                post, counter = counted(facts, deadline=self.deadline)
            except OutOfTime:
                raise _OutOfBudget from None
            self.posteriors[hits] = post
            self.counts[hits] = post.histories if post.consistent else 0
            if post.consistent and post.face_down_count > 1:
                self.counters[hits] = counter
        return post

    def fixed_joint(self, hits: tuple[Any, ...], facts: Facts, p: int, x: int) -> FixedJoint | None:
        """A node's ``HistoryCounter.fixed_joint(p, x)`` (made once; a solver call of the budget)."""
        key = (hits, p, x)
        if key not in self.fixed_joints:
            self.charge()
            try:
                self.fixed_joints[key] = self.counter(hits, facts).fixed_joint(p, x, deadline=self.deadline)
            except OutOfTime:
                raise _OutOfBudget from None
        return self.fixed_joints[key]

    def counter(self, hits: tuple[Any, ...], facts: Facts) -> HistoryCounter:
        """A node's counter with its forward and backward values (counted again only
        for a node whose posterior came from elsewhere, the root)."""
        counter = self.counters.get(hits)
        if counter is None:
            self.charge()
            counter = self.counters[hits] = new_counter(facts)
        return counter

    def pair_tables(self, hits: tuple[Any, ...], facts: Facts, p: int,
                    x: int) -> tuple[Sequence[int], dict[Any, Any], frozenset[int]] | None:
        """A node's pair counts with x fixed at p (``HistoryCounter.pair_counts``), by the class
        increment under x, with the node's free cards per class and the numbers to leave
        out (held by the sprint cards of a derived node's last hit). From the node's own
        counter, or for a derived node (``_derive_child``) from its parent's passes with
        both hideouts fixed: the parent's counts sum over every set of the hit's
        composition that avoids the four hideouts, each with an equal share
        (``HistoryCounter.pair_shares``). None when the node is not of the shape the
        tagged passes need."""
        got = self.derived.get(hits)
        try:
            if got is None:
                counter = self.counter(hits, facts)
                pairs = counter.pair_counts((p, x), deadline=self.deadline)
                if pairs is None:
                    return None
                return counter.free_cards, {incs[0]: t for incs, t in pairs[2].items()}, frozenset()
            parent, (p0, x0), inc0, gone, pool = got
            key = (parent, (p0, x0), inc0, p, x)
            by_inc = self.derived_pairs.get(key)
            if by_inc is None:
                pairs = self.counters[parent].pair_shares((p0, x0), (p, x), deadline=self.deadline)
                if pairs is None:
                    return None
                by_inc = {inc: tables for (inc_hit, inc), tables in pairs[2].items() if inc_hit == inc0}
                self.derived_pairs[key] = by_inc
            return pool, by_inc, gone
        except OutOfTime:
            raise _OutOfBudget from None

    def sprint_classes(self, hits: tuple[Any, ...], facts: Facts, position: int) -> dict[int, set[int]]:
        """``HistoryCounter.sprint_classes`` of a node's position (one more count of the node,
        made once): most sprint sets a reveal could show fit no history, and this
        rules them out by class composition without a count each."""
        key = (hits, position)
        got = self.classes.get(key)
        if got is None:
            try:
                got = self.classes[key] = self.counter(hits, facts).sprint_classes(position, deadline=self.deadline)
            except OutOfTime:
                raise _OutOfBudget from None
        return got

    def bounds_caught(self, hits: tuple[Any, ...], facts: Facts, n: int) -> tuple[int | Fraction, int | Fraction]:
        """Bounds on the histories a node's best play catches (its value times its
        histories ``n``; integers, see :func:`_catches_of`) without searching it: its
        value if known; else all with nothing left face down, the most likely number's
        count with one left (exact), and at most that with more."""
        got = self.known_value(hits)
        if got is not None:
            return _catches_of(got[0], n), _catches_of(got[1], n)
        post = self.posterior(hits, facts)
        m = post.face_down_count
        if m == 0:
            return n, n
        if m == 2 and PAIR_VALUES:  # valued exactly from its own count (_pair_node)
            got = _node(hits, facts, self, post=post)
            return _catches_of(got[0], n), _catches_of(got[1], n)
        top = max(post.number_counts.values())
        return (top, top) if m == 1 else (0, top)

    def count(self, hits: tuple[Any, ...], facts: Facts) -> int:
        """A node's number of histories: from its posterior, which its search needs
        anyway, unless its value is already known (then a count alone)."""
        n = self.counts.get(hits)
        if n is None:
            if self.known_value(hits) is None:
                self.posterior(hits, facts)
                return self.counts[hits]
            self.charge()
            try:
                n = new_counter(facts).total(deadline=self.deadline)
            except OutOfTime:
                raise _OutOfBudget from None
            self.counts[hits] = n
        return n


def sprint_groups(
    post: Posterior, record: Record | None, x: int, p: int, deadline: float | None = None,
    known: set[int] | frozenset[int] | None = None, fits: set[int] | None = None,
) -> list[tuple[tuple[int, ...], int]]:
    """(representative sprint set, number of sets it stands for) for a hit of x at p.

    ``known``: the cards whose place is public (the Marshal's, the face-up ones), when
    the caller has them; else they are read from ``record``. ``fits``: the class
    compositions (``sprint_classes`` of :mod:`solver.counting`) a sprint set under x at p can have in
    some history; sets of any other composition are left out (they fit no history).
    With a ``deadline`` the enumeration (which can be large) stops past it with
    ``_OutOfBudget``.
    """
    pos = post.positions[p - 1]
    k = pos.sprints
    if k == 0:
        return [((), 1)]
    if known is None:
        assert record is not None, "the record, or the cards known"
        facts = extract(record.marshal_view())
        known = facts.marshal_cards | facts.known_cards
    free = [c for c in range(1, 42) if c not in known and c != x]
    cand: set[int] = set()
    for q in post.positions:
        if not q.revealed and q.position != p:
            cand.update(c for c, n in q.counts.items() if n)
    need = rules.footprints_needed(_prev_max(post, p), x)  # the gap rule: x - h(p-1) <= 3 + v(S)
    cand_free = [c for c in free if c in cand]
    plain = [[c for c in CLASS_MEMBERS[k_] if c in free and c not in cand] for k_ in range(N_CLASSES)]
    if fits is None:  # every class composition of k of these cards
        sizes = [len(pl) + sum(1 for c in cand_free if CLASS_OF[c] == k_) for k_, pl in enumerate(plain)]
        fits = {composition_of(comp) for comp in _compositions(k, sizes)}
    return _fitting_groups(cand_free, plain, fits, need, deadline)


def _fitting_groups(cand_free: list[int], plain: list[list[int]], fits: set[int], need: int,
                    deadline: float | None) -> list[tuple[tuple[int, ...], int]]:
    """The groups of sprint_groups, made from the class compositions in ``fits``: for
    each, the candidate cards of each class it can include, and plain cards for the
    rest, with the evens the gap needs."""
    by_class = [[c for c in cand_free if CLASS_OF[c] == k] for k in range(N_CLASSES)]
    out = []
    for inc in sorted(fits):
        if deadline is not None and time.perf_counter() > deadline:
            raise _OutOfBudget
        per_class = []
        per_class_cards = composition_counts(inc)
        for c in range(N_CLASSES):
            n = per_class_cards[c]
            opts = [
                (Tc, n - t)
                for t in range(min(n, len(by_class[c])) + 1)
                if n - t <= len(plain[c])
                for Tc in combinations(by_class[c], t)
            ]
            if not opts:
                break
            per_class.append(opts)
        else:
            for j, choice in enumerate(product(*per_class)):
                if deadline is not None and not j & 255 and time.perf_counter() > deadline:
                    raise _OutOfBudget
                S: list[int] = []
                mult = 1
                for c, (Tc, m) in enumerate(choice):
                    S.extend(Tc)
                    if m:
                        S.extend(plain[c][:m])
                        mult *= comb(len(plain[c]), m)
                if rules.sprint_total(S) >= need:
                    out.append((tuple(sorted(S)), mult))
    return out


def _prev_max(post: Posterior, p: int) -> int:
    """The largest number the position before p can hold (its hideout, or its largest
    candidate; 0 before the first): the gap rule bounds the hideout at p by it."""
    if p == 1:
        return 0
    q = post.positions[p - 2]
    return q.hideout if q.hideout is not None else max(q.counts)


def _compositions(n: int, caps: list[int], start: int = 0) -> Iterator[list[int]]:
    if n == 0:
        yield [0] * (len(caps) - start)
        return
    if start == len(caps):
        return
    for m in range(min(n, caps[start]), -1, -1):
        for rest in _compositions(n - m, caps, start + 1):
            yield [m] + rest


#: exact results across calls (a bot asks again after every hit of a Manhunt), by
#: (the number _PREFIXES gives the record without its Manhunt hits, its hits in
#: canonical order): a number, so a lookup does not hash the whole record again
_EXACT: dict[Any, Any] = {}
_PREFIXES: dict[Any, Any] = {}
_PREFIX_IDS = count()


def _split_hits(record: Record) -> tuple[Record, tuple[Any, ...]]:
    """The record without its trailing Manhunt hits, and those hits in canonical form.

    A later call (after one more hit) has the same prefix, so it finds the nodes of
    the earlier calls in ``_EXACT``.
    """
    events = record.events
    k = len(events)
    tail: list[ManhuntGuess] = []
    while k:
        e = events[k - 1]
        if not (isinstance(e, ManhuntGuess) and e.hit):
            break
        tail.append(e)
        k -= 1
    hits = tuple(sorted((e.position, e.number, tuple(e.sprint_cards or ())) for e in tail))
    return Record(events[:k], record.ruleset), hits


def _value_guess(hits: tuple[Any, ...], facts: Facts, post: Posterior, known: frozenset[int], x: int, px: Fraction,
                 ctx: _Ctx, beat: Fraction | None = None) -> tuple[Fraction, Fraction, list[Any], bool]:
    """(lower, upper, outcome branches, out of budget) of guessing x first at a node.

    Its value is the sum over x's outcomes (position, sprint group) of the outcome's
    probability times the value of the record after it. Every outcome is solved first,
    which bounds its value without searching below it: a record's value is at most
    its most likely number's probability (its first guess must hit), and exactly that
    with one face-down hideout left. With ``beat`` (the best value of another first
    guess), the search stops as soon as the upper bound shows x cannot beat it; the
    bounds returned then need not meet. When the budget runs out, the outcomes count
    with the bounds they have.
    """
    N = post.histories
    lo, hi = ZERO, px
    branches: list[Any] = []
    if PAIR_VALUES and not ctx.build_tree and post.face_down_count == 3:
        try:
            v = _value_by_tags(hits, facts, post, known, x, ctx)
        except _OutOfBudget:
            return lo, hi, branches, True
        if v is not None:
            return v, v, branches, False
    derive = PAIR_VALUES and not ctx.build_tree and _derives(post)
    if derive and post.face_down_count in COMPILED_LEVELS:
        try:
            got = _guess_by_core(hits, facts, post, known, x, beat, ctx)
        except _OutOfBudget:
            return lo, hi, branches, True
        if got is not None:
            return Fraction(got[0], N), Fraction(got[1], N), branches, got[2]
    # the bounds in histories caught (the node's N of them): an outcome's share of N is
    # its sprint sets times the histories of one (n1), and a child's value times its n1
    # is the histories it catches, an integer (see _catches_of), so the sums are integers
    lo_c: int | Fraction | None = None
    hi_c: int | Fraction | None = None
    try:
        outcomes: list[tuple[int, tuple[Any, ...], Facts, int, tuple[int, ...], int, int | Fraction, int | Fraction]] = []
        for q in post.positions:
            if q.revealed or not q.counts.get(x):
                continue
            target = q.counts[x]
            covered = 0
            # only sprint sets of a class composition some history has there (a Manhunt
            # record ends with the escape, so a face-down position is never the last)
            last = q.position == len(facts.positions)
            fits = joint = None
            if q.sprints and not last:
                joint = ctx.fixed_joint(hits, facts, q.position, x) if derive else None
                if joint is not None:  # the compositions with a history, as sprint_classes gives
                    fits = {inc for inc, row in joint.items() if any(row.values())}
                else:
                    fits = ctx.sprint_classes(hits, facts, q.position).get(x, set())
            # the numbers each other face-down position can still take with x at q
            # (on its side of x); a sprint set holding all of one position's fits no history
            others = [
                {y for y, c in o.counts.items() if c and (y < x) == (o.position < q.position)}
                for o in post.positions if not o.revealed and o.position != q.position
            ]
            if derive and joint is not None:  # the sets that lead to one node merged (_merge_siblings)
                assert fits is not None
                groups = _merged_groups(post, x, q.position, known, joint, fits, ctx.deadline)
            else:
                groups = sprint_groups(post, None, x, q.position, ctx.deadline, known=known, fits=fits)
            for S, mult in groups:
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
                clo, chi = ctx.bounds_caught(child, child_facts, n1)
                outcomes.append((mult, child, child_facts, q.position, S, n1, clo, chi))
                if covered == target:
                    break
            if covered != target:
                raise AssertionError(f"sprint groups of {x} at {q.position} cover {covered} of {target} histories")
        lo_c = sum(o[0] * o[6] for o in outcomes)
        hi_c = sum(o[0] * o[7] for o in outcomes)
        # x cannot beat ``beat`` once hi_c / N <= beat (for an integer hi_c, once hi_c <=
        # the floor of beat * N; otherwise the test only stops later)
        beat_c = None if beat is None else floor(beat * N)
        if beat_c is not None and hi_c <= beat_c:
            return Fraction(lo_c, N), Fraction(hi_c, N), branches, False
        # the outcomes with the most open value first: the bounds close fastest
        for mult, child, child_facts, p, S, n1, clo, chi in sorted(outcomes, key=lambda o: -o[0] * (o[7] - o[6])):
            if clo != chi or ctx.build_tree:
                try:
                    nlo, nhi, _, _, ctree = _node(child, child_facts, ctx)
                except _Partial as part:  # the child's bounds, rigorous though not met
                    lo_c += mult * (max(_catches_of(part.res[0], n1), clo) - clo)
                    hi_c += mult * (min(_catches_of(part.res[1], n1), chi) - chi)
                    raise _OutOfBudget from None
                lo_c += mult * (_catches_of(nlo, n1) - clo)
                hi_c += mult * (_catches_of(nhi, n1) - chi)
                if ctx.build_tree:
                    branches.append({"position": p, "sprint_cards": list(S), "sets": mult,
                                     "probability": Fraction(mult * n1, N), "value": (nlo, nhi), "next": ctree})
                if beat_c is not None and hi_c <= beat_c:
                    break
    except _OutOfBudget:
        if lo_c is None or hi_c is None:
            return lo, hi, branches, True
        return Fraction(lo_c, N), Fraction(hi_c, N), branches, True
    assert lo_c is not None and hi_c is not None
    return Fraction(lo_c, N), Fraction(hi_c, N), branches, False


def _guess_by_core(hits: tuple[Any, ...], facts: Facts, post: Posterior, known: frozenset[int], x: int,
                  beat: Fraction | None, ctx: _Ctx) -> tuple[int, int, bool] | None:
    """``_value_guess`` at a deriving node with four to seven face-down hideouts, in the
    compiled core (``solver/compiled/planner.hpp``): bounds on the histories guessing x
    first catches, its children derived and searched as ``_derive_child`` and ``_node``
    (with ``_value_by_tags`` at three face-down hideouts) do, in the same order with the
    same stops. The nodes below are not looked up in this module's memo, nor kept there
    (the core keeps its own while the node's counter lives). Past the budget, the bounds
    so far and True (``_OutOfBudget`` before it has any). None
    where the Python reference must do it (the Python core, a count past 64 bits, a
    child with four face-down hideouts that does not derive)."""
    if post.histories >> 64:
        return None
    core = compiled_search(ctx.counter(hits, facts))
    if core is None:
        return None
    positions: list[int] = []
    for q in post.positions:
        if not q.revealed:
            positions += (q.position, q.sprints, _prev_max(post, q.position), q.counts.get(x, 0),
                          sum(1 << y for y, n in q.counts.items() if n))
    beat_c = None if beat is None else floor(beat * post.histories)
    # the core's fixed joints are solver calls of the budget, as in _Ctx.fixed_joint,
    # charged however the call ends
    try:
        got: tuple[int, int, bool] | None
        got, calls = core.value_guess(x, positions, sum(1 << c for c in known), beat_c, ctx.deadline,
                                      ctx.max_solves - ctx.solves, DERIVE_LIMIT)
    except OutOfTime as stop:
        ctx.solves += stop.args[0] if stop.args else 0
        raise _OutOfBudget from None
    ctx.solves += calls
    return got


def _value_by_tags(hits: tuple[Any, ...], facts: Facts, post: Posterior, known: frozenset[int], x: int,
                   ctx: _Ctx) -> Fraction | None:
    """The exact value of guessing x at a node with three face-down hideouts, from the
    node's tagged passes (or its parent's, ``_Ctx.pair_tables``); no child is counted
    or searched.

    A hit of x at p over S leaves two face-down hideouts, valued as in
    :func:`_pair_node` from the counts n(x' at p' over a class composition, y at the
    other). ``HistoryCounter.pair_counts((p, x))`` gives these counts with x at p, by the class
    composition of p's sprint cards, summed over the sets of that composition. Sprint
    cards of a class are interchangeable once the hideouts are fixed, so each set of
    the composition that avoids x, x' and y has an equal share, and a set S has none
    where it holds x' or y; the sets are summed by the numbers they hold
    (``_held_sets``). ``None`` when the node is not of this shape.
    """
    caught = 0
    # the cards a sprint set under x can hold, by class
    free = [[c for c in CLASS_MEMBERS[k] if c not in known and c != x] for k in range(N_CLASSES)]
    fast = planner_sums()
    free_mask = sum(1 << c for cards in free for c in cards)
    for q in post.positions:
        if q.revealed or not q.counts.get(x):
            continue
        p = q.position
        got = ctx.pair_tables(hits, facts, p, x)
        if got is None:
            return None
        pool, by_inc, gone = got
        gone_mask = sum(1 << c for c in gone)
        for inc, tables in by_inc.items():
            if inc and not q.sprints:
                continue
            if time.perf_counter() > ctx.deadline:
                raise _OutOfBudget
            n = fast(list(pool), x, inc, list(tables), gone_mask, free_mask) if fast is not None else None
            caught += _caught_by_inc(pool, x, inc, tables, gone, free) if n is None else n
    return Fraction(caught, post.histories)


def _caught_by_inc(pool: Sequence[int], x: int, inc: int, tables: Iterable[dict[tuple[int, int], dict[int, int]]],
                   gone: frozenset[int],
                   free: list[list[int]]) -> int:
    """The histories a guess of x catches over every sprint set of class increment
    ``inc`` under it (at the position the ``tables`` are of), the Marshal guessing the
    best x' and then the best y after the hit (see :func:`_value_by_tags`): the readable
    reference of the compiled ``caught_by_tags`` (``solver/compiled/catches.hpp``).

    ``pool``: the node's free cards per class; ``tables``: the pair counts by
    (x', class increment of its sprint cards) -> {y: histories}, summed over the sets
    of ``inc``; ``gone``: numbers no longer possible (held by a derived node's last
    sprint set); ``free``: the cards of each class a sprint set under x can hold.
    """
    cx = CLASS_OF[x]
    # the child's free cards: less x and the sprint cards
    child_pool = [pool[c] - (c == cx) - m for c, m in enumerate(composition_counts(inc))]
    rows: dict[Any, Any] = {}  # x' -> [(class increment, ranked shares of the next guesses)]
    sets: dict[Any, Any] = {}  # (class of x', class of y) -> sets of this composition avoiding x, x', y
    next_sets: dict[Any, Any] = {}  # the same for the sprint sets of x' (see _ranked)
    for table in tables:
        for (x2, inc2), row in table.items():
            if x2 in gone:
                continue
            per_set = {}
            for y, n in row.items():
                if n and y not in gone:
                    key = (CLASS_OF[x2], CLASS_OF[y])
                    k = sets.get(key)
                    if k is None:
                        k = sets[key] = _sets_of(pool, inc, x, x2, y)
                    share, rem = divmod(n, k)
                    assert rem == 0, "sprint sets of one class composition must count alike"
                    per_set[y] = share
            rows.setdefault(x2, []).append((inc2, _ranked(child_pool, inc2, x2, per_set, next_sets)))
    # a set's catches depend only on the numbers of these counts it holds, and
    # holding numbers only takes catches away: the next guesses go best first
    # by their catches when the set holds none, and stop at the first that
    # holds none of the set's numbers (no later one can do better)
    ys = {x2: {y for _, ranked in parts for _, y in ranked} for x2, parts in rows.items()}
    full = {x2: _catches(child_pool, x2, parts) for x2, parts in rows.items()}
    order = sorted(full, key=lambda x2: full[x2], reverse=True)
    numbers = set(rows).union(*ys.values())
    caught = 0
    for held, mult in _held_sets(inc, numbers, free):
        top = 0
        for x2 in order:
            if full[x2] <= top:
                break
            if x2 in held:
                continue
            v = full[x2] if ys[x2].isdisjoint(held) else _catches(child_pool, x2, rows[x2], held)
            if v > top:
                top = v
        caught += mult * top
    return caught


def _held_sets(inc: int, numbers: set[int], free: list[list[int]]) -> list[tuple[frozenset[int], int]]:
    """The sprint sets of class increment ``inc`` from the ``free`` cards (by class),
    grouped by the ``numbers`` they hold: (numbers held, how many sets hold exactly
    those). The other cards of a class are interchangeable, so a group is one choice
    of numbers per class and any choice of the rest."""
    need, active = _needs(inc)
    out: list[tuple[frozenset[int], int]] = [(frozenset(), 1)]
    for c in active:
        m = need[c]
        nums = [n for n in free[c] if n in numbers]
        rest = len(free[c]) - len(nums)
        options = [(T, comb(rest, m - t)) for t in range(min(m, len(nums)) + 1) if m - t <= rest
                   for T in combinations(nums, t)]
        out = [(held.union(T), mult * k) for held, mult in out for T, k in options]
    return out


def _merge_siblings(groups: list[tuple[tuple[int, ...], int]], joint: dict[Any, Any]) -> list[tuple[tuple[int, ...], int]]:
    """Sprint groups of one hit with the sets that lead to the same node merged: sets
    of one composition that hold the same numbers the other positions can take (in
    ``joint``, the parent's ``HistoryCounter.fixed_joint``) give the same posterior and value
    (see ``_derive_child``), so the first stands for all, with their multiplicities."""
    merged: dict[Any, Any] = {}
    numbers: dict[int, set[int]] = {}
    for S, mult in groups:
        inc = composition(S)
        nums = numbers.get(inc)
        if nums is None:
            nums = numbers[inc] = {h for hideouts, n in joint.get(inc, {}).items() if n for h in hideouts}
        key = (inc, frozenset(nums.intersection(S)))
        got = merged.get(key)
        if got is None:
            merged[key] = [S, mult]
        else:
            got[1] += mult
    return [(S, mult) for S, mult in merged.values()]


def _merged_groups(post: Posterior, x: int, p: int, known: set[int] | frozenset[int], joint: dict[Any, Any],
                   fits: set[int], deadline: float | None) -> list[tuple[tuple[int, ...], int]]:
    """``_merge_siblings(sprint_groups(...), joint)`` made directly, without the sets
    of each merged group: for each class composition in ``fits`` that the gap rule
    allows, a choice per class of the numbers of ``joint`` the set holds, filled up
    with the class's other free cards (a group of ``comb(others, rest)`` sets). The
    same groups, sets and multiplicities; a test holds the two equal."""
    k = post.positions[p - 1].sprints
    if k == 0:
        return [((), 1)]
    gap = rules.footprints_needed(_prev_max(post, p), x)  # the gap rule: x - h(p-1) <= 3 + v(S)
    free = [[c for c in CLASS_MEMBERS[k_] if c not in known and c != x] for k_ in range(N_CLASSES)]
    out = []
    for inc in sorted(fits):
        if deadline is not None and time.perf_counter() > deadline:
            raise _OutOfBudget
        need, active = _needs(inc)
        if sum(need[c] * CLASS_SPRINT[c] for c in active) < gap:
            continue
        numbers = {h for hideouts, n in joint.get(inc, {}).items() if n for h in hideouts}
        per_class = []
        for c in active:
            m = need[c]
            nums = [n for n in free[c] if n in numbers]
            rest = [n for n in free[c] if n not in numbers]
            opts = [(T + tuple(rest[:m - t]), comb(len(rest), m - t))
                    for t in range(min(m, len(nums)) + 1) if m - t <= len(rest) for T in combinations(nums, t)]
            if not opts:
                break
            per_class.append(opts)
        else:
            for choice in product(*per_class):
                S: list[int] = []
                mult = 1
                for part, k_ in choice:
                    S.extend(part)
                    mult *= k_
                out.append((tuple(sorted(S)), mult))
    return out


def _derives(post: Posterior) -> bool:
    """Whether a node's children are derived from its passes (``DERIVE_LIMIT``)."""
    if post.face_down_count < 4:
        return False
    size = 1
    for q in post.positions:
        if not q.revealed:
            size *= sum(1 for n in q.counts.values() if n)
    return size <= DERIVE_LIMIT


def _derive_child(ctx: _Ctx, hits: tuple[Any, ...], facts: Facts, x: int, p: int, S: tuple[int, ...],
                  child: tuple[Any, ...], child_facts: Facts) -> None:
    """The posterior of the node after a hit of x at p over S (one face-down hideout
    fewer than its parent) from its parent's count, without a count of its own.

    ``HistoryCounter.fixed_joint(p, x)`` gives the parent's histories with x at p by the class
    composition of p's sprint cards and the tuple of the other hideouts. Sprint cards
    of a class are interchangeable once the hideouts are fixed, so every set of S's
    composition that avoids x and the tuple has the same share of them, and S has none
    of a tuple it meets. The node's guesses are valued from its parent's passes the
    same way (``_Ctx.pair_tables``). One pass serves every sprint set of the hit.
    """
    joint = ctx.fixed_joint(hits, facts, p, x)
    if joint is None:
        return  # not of this shape: the node is counted itself
    inc = composition(S)
    pool = ctx.counters[hits].free_cards
    gone = frozenset(S)
    shares: dict[Any, Any] = {}
    mine: dict[tuple[int, ...], int] = {}
    rows = joint.get(inc, {})
    for hideouts, n in rows.items():
        if n and gone.isdisjoint(hideouts):
            classes = tuple(sorted(CLASS_OF[h] for h in hideouts))
            k = shares.get(classes)
            if k is None:
                k = shares[classes] = _sets_of(pool, inc, x, *hideouts)
            q, rem = divmod(n, k)
            assert rem == 0, "sprint sets of one class composition must count alike"
            mine[hideouts] = q
    post = _joint_posterior(child_facts, mine)
    ctx.posteriors[child] = post
    ctx.counts[child] = post.histories
    if post.consistent:
        child_pool = [pool[c] - (c == CLASS_OF[x]) - m for c, m in enumerate(composition_counts(inc))]
        ctx.derived[child] = (hits, (p, x), inc, gone, child_pool)


def _joint_posterior(facts: Facts, joint: dict[tuple[int, ...], int]) -> Posterior:
    """The posterior of a Manhunt node from the joint of its face-down hideouts (tuple
    of hideouts in position order -> histories)."""
    fd = [q.index for q in facts.positions if q.face_down]
    counts: dict[int, dict[int, int]] = {i: {} for i in fd}
    total = 0
    for hideouts, n in joint.items():
        if n:
            total += n
            for i, h in zip(fd, hideouts):
                counts[i][h] = counts[i].get(h, 0) + n
    return posterior_from_counts(facts, total, counts)


def _catches_of(v: Fraction, n: int) -> int | Fraction:
    """A node's value (or a bound of it) times its histories ``n``: the histories it
    catches. An integer for every value and bound the search makes (a value is a sum
    of its outcomes' catches over the node's histories, the most likely number's
    probability its count over them); a Fraction only if some bound were not."""
    q, r = divmod(v.numerator * n, v.denominator)
    return Fraction(v.numerator * n, v.denominator) if r else q


def _add_hit(hits: tuple[Any, ...], x: int, p: int, S: tuple[int, ...]) -> tuple[Any, ...]:
    return tuple(sorted(hits + ((p, x, tuple(S)),)))


def _node(hits: tuple[Any, ...], facts: Facts, ctx: _Ctx,
          post: Posterior | None = None) -> NodeResult:
    """(lower, upper, best first guess, {x: (lo, hi)}, tree) for the record with these
    Manhunt hits (``facts`` are its facts)."""
    got = ctx.known_value(hits)
    if got is not None:
        return got
    key = hits
    if post is None:
        post = ctx.posterior(hits, facts)
    if not post.consistent:
        raise ValueError(f"inconsistent Manhunt record: {post.reason}")
    m = post.face_down_count
    if m == 0:
        res: NodeResult = (ONE, ONE, None, {}, {"value": ONE})
        ctx.memo[key] = res
        return res
    # most likely first (the counts share the denominator, so they are ranked as integers)
    nc, N = post.number_counts, post.histories
    probs = [(Fraction(nc[x], N), x) for x in sorted((x for x, c in nc.items() if c), key=lambda x: (-nc[x], x))]
    if m > 1 and probs[0][0] == 1:
        # any certain number settles the value (below), so try first the one with the
        # fewest outcomes: the fewest positions it can stand at, the fewest sprint cards
        def outcomes(x: int) -> tuple[int, int, int]:
            where = [q for q in post.positions if not q.revealed and q.counts.get(x)]
            return (len(where), sum(q.sprints for q in where), x)

        certain = sorted((x for p, x in probs if p == 1), key=outcomes)
        probs = [(ONE, x) for x in certain] + [(p, x) for p, x in probs if p != 1]
    if m == 1:
        p0, x0 = probs[0]
        res = (p0, p0, x0, {x: (p, p) for p, x in probs}, {"guess": x0, "value": p0})
        ctx.memo[key] = res
        return res
    if m == 2 and PAIR_VALUES:
        pair = _pair_node(hits, facts, post, ctx)
        if pair is not None:
            res = pair
            ctx.memo[key] = res
            if not ctx.build_tree:
                _remember(ctx, key, res)
            return res
    known = facts.marshal_cards | facts.known_cards
    values: dict[int, tuple[Fraction, Fraction]] = {x: (ZERO, p) for p, x in probs}
    best_lo, best_x = ZERO, probs[0][1]
    trees: dict[int, list[Any]] = {}
    out_of_budget = False
    # Guessing a certain number first is optimal: it cannot miss, and a strategy that
    # guesses it later can be followed after it, knowing more. So once one certain
    # number is valued exactly, that is the value of the record, every other certain
    # number has the same value and no first guess does better.
    settled: Fraction | None = None
    for px, x in probs:
        if px <= best_lo and best_lo > 0:
            break  # V(x) <= P(x): cannot beat the best found (exact pruning)
        if settled is not None and px == 1:
            continue  # valued with the first certain number
        beat = best_lo if best_lo > 0 and px < 1 else None  # a certain number is valued exactly
        lo, hi, branches, out_of_budget = _value_guess(hits, facts, post, known, x, px, ctx, beat)
        values[x] = (lo, hi if settled is None or hi < settled else settled)
        trees[x] = branches
        if lo > best_lo or (lo == best_lo and best_x is None):
            best_lo, best_x = lo, x
        if out_of_budget:
            break
        if px == 1 and lo == hi and settled is None:
            settled, settled_x = lo, x
            for py, y in probs:
                if y != x:
                    values[y] = (lo, lo) if py == 1 else (values[y][0], min(values[y][1], lo))
            break
    lo_all = max(v[0] for v in values.values())
    hi_all = max(v[1] for v in values.values())
    if probs[0][0] == 1 and settled is None:
        # every certain number's value is the record's value, so the upper bound of one
        # that was searched bounds the record and every first guess
        cap = min(values[x][1] for p, x in probs if p == 1)
        hi_all = min(hi_all, cap)
        for y, (a, b) in values.items():
            values[y] = (a, min(b, cap))
    best_x = max(values, key=lambda x: (values[x][0], values[x][1], -x))
    if settled is not None and values[best_x][0] == settled:
        best_x = settled_x  # the certain number whose tree was explored
    tree = None
    if ctx.build_tree:
        tree = {"guess": best_x, "value": (values[best_x][0], values[best_x][1]), "outcomes": trees.get(best_x, [])}
    res = (lo_all, hi_all, best_x, values, tree)
    if out_of_budget:
        raise _Partial(res)
    ctx.memo[key] = res
    if not ctx.build_tree and lo_all == hi_all:
        _remember(ctx, key, res)
    return res


def _remember(ctx: _Ctx, key: tuple[Any, ...], res: tuple[Any, ...]) -> None:
    """Keep an exact node's result for later calls (see ``_EXACT``)."""
    if len(_EXACT) > 50000:
        _EXACT.clear()
        _PREFIXES.clear()
    _EXACT[(ctx.prefix_key, key)] = res


def _pair_node(hits: tuple[Any, ...], facts: Facts, post: Posterior, ctx: _Ctx) -> NodeResult | None:
    """The exact value of a node with two face-down hideouts, from its own count alone.

    A guess x that hits at position p over the sprint set S leaves one face-down
    hideout, and the Marshal then guesses its most likely number y, so x is worth
    ``sum over (p, S) of max_y n(x at p over S, y at the other) / N``. The counter
    gives these counts by the class composition of S (``HistoryCounter.pair_counts``), and
    a set S of that composition not holding y has ``1 / sets(composition | x, y)`` of
    them: sprint cards of one class are interchangeable once the hideouts are fixed.
    The sets are grouped as in :func:`sprint_groups`. ``None`` when the node is not of
    this shape (the planner then searches it).
    """
    try:
        got = ctx.counter(hits, facts).pair_counts(deadline=ctx.deadline)
    except OutOfTime:
        raise _OutOfBudget from None
    if got is None:
        return None
    a, b, tables = got
    first, second = tables.get((), ({}, {}))
    N = post.histories
    pool = ctx.counter(hits, facts).free_cards
    known = facts.marshal_cards | facts.known_cards
    by_guess: dict[Any, Any] = {}  # x -> [(position, {class increment: {y: count}})]
    for p, table in ((a, first), (b, second)):
        for (x, inc), row in table.items():
            by_guess.setdefault(x, {}).setdefault(p, {})[inc] = row
    values: dict[int, tuple[Fraction, Fraction]] = {}
    trees: dict[int, list[Any]] = {}
    for x, where in by_guess.items():
        if time.perf_counter() > ctx.deadline:
            raise _OutOfBudget
        caught = 0
        branches = []
        for p, rows in sorted(where.items()):
            if not ctx.build_tree:
                caught += _catches(pool, x, [(inc, _ranked(pool, inc, x, row)) for inc, row in rows.items()])
                continue
            covered = 0
            for S, mult in sprint_groups(post, None, x, p, ctx.deadline, known=known, fits=set(rows)):
                inc = composition(S)
                best_y, best_n, all_n = 0, 0, 0
                for y, n in rows.get(inc, {}).items():
                    if not n or y in S:
                        continue
                    q, rem = divmod(n, _sets_of(pool, inc, x, y))
                    assert rem == 0, "sprint sets of one class composition must count alike"
                    all_n += q
                    if q > best_n or (q == best_n and y < best_y):
                        best_y, best_n = y, q
                if not all_n:
                    continue
                covered += mult * all_n
                caught += mult * best_n
                v = Fraction(best_n, all_n)
                branches.append({"position": p, "sprint_cards": list(S), "sets": mult,
                                 "probability": Fraction(mult * all_n, N), "value": (v, v),
                                 "next": {"guess": best_y, "value": v}})
            target = post.positions[p - 1].counts.get(x, 0)
            if covered != target:
                raise AssertionError(f"sprint groups of {x} at {p} cover {covered} of {target} histories")
        v = Fraction(caught, N)
        values[x] = (v, v)
        trees[x] = branches
    best_x = max(values, key=lambda x: (values[x][0], -x))
    v = values[best_x][0]
    tree = {"guess": best_x, "value": (v, v), "outcomes": trees[best_x]} if ctx.build_tree else None
    return v, v, best_x, values, tree


def _catches(pool: Sequence[int], x: int, parts: Iterable[tuple[int, list[tuple[int, int]]]],
             held: frozenset[int] | set[int] = frozenset()) -> int:
    """The histories a hit of x catches with the best next guess, summed over every
    sprint set of each class composition of ``parts`` ((class increment, ranked shares
    from :func:`_ranked`)), leaving out the numbers in ``held`` (no longer possible)."""
    total = 0
    for inc, ranked in parts:
        if held:
            ranked = [qy for qy in ranked if qy[1] not in held]
        total += _caught_over_sets(pool, inc, x, ranked)
    return total


def _ranked(pool: Sequence[int], inc: int, x: int, row: dict[int, int],
            sets: dict[Any, Any] | None = None) -> list[tuple[int, int]]:
    """The numbers y of ``row`` ({y: histories of x over sprint cards of class increment
    ``inc`` with y left}) with the share of one sprint set, best first: (share, y).
    ``sets``: a cache of the sets counts for this ``pool``, shared by calls."""
    ranked = []
    if sets is None:
        sets = {}
    cx = CLASS_OF[x]
    for y, n in row.items():
        if n:
            key = (inc, cx, CLASS_OF[y])  # sets of the composition avoiding x and y
            k = sets.get(key)
            if k is None:
                k = sets[key] = _sets_of(pool, inc, x, y)
            q, rem = divmod(n, k)
            assert rem == 0, "sprint sets of one class composition must count alike"
            ranked.append((q, y))
    ranked.sort(reverse=True)
    return ranked


#: class increment -> (cards of each class, the classes it uses)
_NEEDS: dict[int, tuple[tuple[int, ...], list[int]]] = {}


def _caught_over_sets(pool: Sequence[int], inc: int, x: int, ranked: list[tuple[int, int]]) -> int:
    """Sum over every sprint set S of class increment ``inc`` under x of the histories
    the best second guess catches: the largest share (``_ranked``) of a y not in S.

    No set is made: y is the best guess of exactly the sets that hold every better y
    and not y itself, and those are counted class by class.
    """
    need, active = _needs(inc)
    held = [0] * N_CLASSES  # classes of the better y, which the sets hold (never more than need)
    cx = CLASS_OF[x]
    total = 0
    for q, y in ranked:
        cy = CLASS_OF[y]
        n_sets = 1
        for c in active:
            a = held[c]
            free = pool[c] - (c == cx) - (c == cy) - a
            if free < need[c] - a:
                n_sets = 0
                break
            n_sets *= comb(free, need[c] - a)
        total += q * n_sets
        held[cy] += 1
        if held[cy] > need[cy]:
            break  # no set holds every better y any more
    return total


def _sets_of(pool: Sequence[int], inc: int, *hideouts: int) -> int:
    """How many sprint sets of class increment ``inc`` the free cards allow besides the
    given hideouts (``pool``: the free cards of each class)."""
    need, active = _needs(inc)
    n = 1
    for c in active:
        free = pool[c]
        for h in hideouts:
            if CLASS_OF[h] == c:
                free -= 1
        n *= comb(free, need[c])
    return n


def _needs(inc: int) -> tuple[tuple[int, ...], list[int]]:
    """(cards of each class, the classes used) of a class composition (kept)."""
    got = _NEEDS.get(inc)
    if got is None:
        need = composition_counts(inc)
        got = _NEEDS[inc] = (need, [c for c in range(N_CLASSES) if need[c]])
    return got


class _Partial(_OutOfBudget):
    def __init__(self, res: NodeResult) -> None:
        self.res = res


def plan_manhunt(
    record: Record,
    *,
    time_budget: float = 2.0,
    max_solves: int = 1_000_000,
    tree: bool = False,
    all_first_guesses: bool = True,
    validate: bool = True,
) -> ManhuntPlan:
    """The best guess order for a Manhunt record (the Marshal's record after an escape).

    ``validate`` as in ``solve``: the record is rule-checked first (bots, whose
    records the engine built, pass False).
    Exact when the tree fits the budget (``plan.exact``), else rigorous bounds.
    ``all_first_guesses``: once the value is known, spend what is left of the budget
    valuing every other first guess exactly (else they keep the bounds the search
    left them, which never exceed the value; ``first_guesses`` has both kinds).
    """
    record = record.marshal_view()
    if validate:
        validate_record(record)
    with no_cycle_collection():
        return _plan(record, time_budget, max_solves, tree, all_first_guesses)


def _plan(record: Record, time_budget: float, max_solves: int, tree: bool, all_first_guesses: bool) -> ManhuntPlan:
    start = time.perf_counter()
    # a rigorous floor that needs no tree, taken first so the budget covers it: guessing
    # a fixed set of numbers one by one wins exactly when they are the face-down
    # hideouts (a joint probability)
    root_post = solve_cached(record, validate=False)  # checked by plan_manhunt
    floor, fixed = _fixed_set_floor(root_post)
    prefix, hits = _split_hits(record)
    prefix_id = _PREFIXES.get(record_key(prefix))
    if prefix_id is None:
        prefix_id = _PREFIXES[record_key(prefix)] = next(_PREFIX_IDS)  # never reused
    ctx = _Ctx(start + time_budget, max_solves, prefix_key=prefix_id, build_tree=tree)
    facts = extract(record)
    try:
        # first the value (first guesses that cannot beat the best one found are left
        # at their bounds), then, in the time left, the exact value of every first guess
        lo, hi, bx, values, t = _node(hits, facts, ctx, post=root_post)
        value_seconds = time.perf_counter() - start
        note = ""
        if all_first_guesses:
            _value_first_guesses(hits, facts, root_post, values, ctx)
    except _Partial as part:
        value_seconds = 0.0
        lo, hi, bx, values, t = part.res
        note = f"budget of {time_budget:g} s / {max_solves} solver calls reached"
    except _OutOfBudget:
        value_seconds = 0.0
        post = solve_cached(record, validate=False)
        probs = {x: post.probability(x) for x, c in post.number_counts.items() if c}
        bx = max(probs, key=lambda x: (probs[x], -x))
        lo, hi, values, t = ZERO, probs[bx], {x: (ZERO, p) for x, p in probs.items()}, None
        note = "budget reached before the first level"
    if lo != hi:
        if floor > lo:
            lo = floor
            for x in fixed:
                if x in values and values[x][0] < floor:
                    values[x] = (floor, values[x][1])
            bx = max(values, key=lambda x: (values[x][0], values[x][1], -x))
            note += "; lower bound from guessing the most likely set"
    seconds = time.perf_counter() - start
    if lo != hi or not value_seconds:
        value_seconds = seconds
    assert bx is not None  # a record in a Manhunt has a face-down hideout to guess
    return ManhuntPlan(bx, lo, hi, values, ctx.solves, seconds, t, note, value_seconds)


def _value_first_guesses(hits: tuple[Any, ...], facts: Facts, post: Posterior, values: dict[Any, Any], ctx: _Ctx) -> None:
    """Narrow the bounds of the first guesses the search left unvalued, most likely
    first, until each is exact or the budget runs out (the record's value is already
    known: these only say how much worse each other first guess is)."""
    known = facts.marshal_cards | facts.known_cards
    for x in sorted(values, key=lambda y: (-post.probability(y), y)):
        lo0, hi0 = values[x]
        if lo0 == hi0:
            continue
        lo, hi, _, out_of_budget = _value_guess(hits, facts, post, known, x, post.probability(x), ctx)
        values[x] = (max(lo, lo0), min(hi, hi0))
        if out_of_budget:
            return


def _fixed_set_floor(post: Posterior) -> tuple[Fraction, tuple[int, ...]]:
    """The best of a few fixed guess sets: (its exact chance of catching him, the set).

    A set of as many numbers as there are face-down hideouts wins exactly when it is
    the set of face-down hideouts. Candidates: the most likely numbers, and each
    position's most likely number.
    """
    m = post.face_down_count
    if m == 0 or not post.consistent:
        return ZERO, ()
    ranked = sorted((x for x, c in post.number_counts.items() if c), key=lambda x: (-post.number_counts[x], x))
    candidates = {tuple(sorted(ranked[:m]))}
    per_position = {max(q.counts, key=lambda x: (q.counts[x], -x)) for q in post.positions if not q.revealed}
    if len(per_position) == m:
        candidates.add(tuple(sorted(per_position)))
    best: Fraction = ZERO
    best_set: tuple[int, ...] = ()
    for T in candidates:
        if len(T) == m:
            j = post.joint(frozenset(T))
            if j > best:
                best, best_set = j, T
    return best, best_set


__all__ = ["ManhuntPlan", "plan_manhunt", "sprint_groups"]
