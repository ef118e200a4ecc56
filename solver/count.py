"""Exact counting of hidden histories: a dynamic program over the row.

Why a dynamic program, not route enumeration
--------------------------------------------
The number of routes (face-down hideout sequences) grows exponentially with the
number of face-down hideouts, but the weight of a route depends on its past only
through a few small numbers. Walking the row left to right, the state after
position ``i`` is

* ``h``  – the number of hideout ``i`` (the next gap starts there);
* ``G``  – how many cards of each *class* (deck 0–3 × odd/even) the hidden part has
  used so far (hideouts and sprint cards); deck 0 is the starting hand 1, 2, 3;
* ``H``  – how many face-down hideouts lie in each class of the deck the route is in
  now (the "open" deck; see below).

Weight of a history (docs/model.md, "Counting hint")
------------------------------------------------------
For each deck r, the used cards of r must sit in the Fugitive's draw list of r
before their deadline a(c) (the draws of r made by the turn of use). In position
order the deadlines never decrease, so the number of ways to give the used cards
their slots is the product, over positions, of the falling factorial
``(A_r(i) - U_r)_(m)`` where U_r counts the cards of r used before and m the ones used
now; the remaining ``d_r - u_r`` slots take any of the ``N_r - u_r`` other cards.

Sprint cards are anonymous within a class: with ``P_c`` free cards in class c
(not held by the Marshal, not revealed), ``H_c`` face-down hideouts and ``M_c`` sprint
cards of the class, their numbers can be chosen in ``(P_c - H_c)_(M_c) / prod m_c,i!``
ways. Since ``(P-H)_M = (P)_(H+M) / (P)_H``, every used card of class c contributes
the factor ``P_c - G_c`` when it is used, and the ``(P_c)_(H_c)`` is divided out once
the route has passed the class (its H no longer changes). Only the open deck's H
needs to be in the state; the division is exact because every merged weight holds
the factor ``(P)_G``.

How a position is crossed
-------------------------
In two half-steps with merging in between, so the work follows the number of states
rather than states × sprint choices × numbers: first the hidden sprint cards (by class,
with the evens they add to the reach), then the hideout. The last position goes the
other way round: hideout first, then its sprint cards with at least the evens the gap
needs. Nothing after it needs classes, so its sprint sets come from per-deck
polynomials in (cards, evens) and, together with the end factor, fold into one cached
number per usage; the row ends in terminal states keyed by the last hideout.

Marginals come from a backward pass over the same half-steps (forward × backward
through a state is the count of histories through it).

Missed multi-number guesses and joint counts
--------------------------------------------
A missed guess of a set S at row length k says "not every number of S was a hideout
among the first k". Routes increase, so one flag per set in H (above the hideout
counts) says "every number of S up to here was a hideout"; it clears when the route
skips a number of S or passes position k, and a transition that would complete S is
dropped. States split on it only inside S's span.

The joint count of a set {a < b < c} (a multi-number guess hitting) is a forward pass
*marked* at a (only the paths through hideout a), marked again at b, summed over the
states with hideout c against the backward values of the marginals. Marked passes
only visit states after their mark and are shared by every set with the same prefix.

Everything is Python integers: counts are exact at any size.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from math import comb, factorial
from typing import Any, Iterable, Iterator

from engine import rules
from engine.cards import ESCAPE
from .facts import Facts
from .count_planner import OutOfTime, PairCounts, PlannerQueries
from .gcpause import no_cycle_collection
from ._packing import (BITS, CLASS_OF, CLASS_SETS, COUNTS, DECK_OF, DECK_SETS, FLAG_ONE, FLAG_SHIFT, MASK,
                       MAX_CARD, TERMINAL, Move, State, deck_used, falling, g_get)

#: a position's candidate numbers (Counter._candidates): (x, class, deck, class
#: increment, parity bit) of each, the classes and decks among them, what the options
#: depend on besides the usage, and the usage nibbles they depend on (a mask)
Candidates = tuple[list[tuple[int, int, int, int, int]], tuple[int, ...], tuple[int, ...],
                   tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], int]


class Counter(PlannerQueries):
    """Counts the consistent hidden histories of :class:`Facts`, with marginals and
    joint counts (:meth:`through`): the readable reference core. Callers go through
    :func:`solver.counting.new_counter`, which gives this or the compiled core.

    A ``deadline`` (a ``time.perf_counter()`` value) given to a query makes its passes
    raise :class:`OutOfTime` once it is past, checked at every position: for callers
    with a time budget (the Manhunt planner), so a count never overruns it by more than
    one position's work.
    """

    core = "python"

    def __init__(self, facts: Facts):
        """The row's fixed parts, read once from ``facts``; the passes are made when a
        query first needs them. In the order the module docstring gives them: the free
        cards of each class and the draw slots of each deck (the weight of a history),
        the range each position's number can take, the flags of the multi-number
        misses, the row as the steps it is crossed in; then the empty tables the
        passes and the queries fill."""
        self.facts = facts
        self._deadline: float | None = None
        self.n = len(facts.positions)
        self.pool, self.deck_free, self._excluded = _free_cards(facts)
        self._allowed_rows: dict[int, list[bool]] = {}
        self.slots = _draw_slots(facts)
        self.revealed_use, self.revealed_before = _revealed_usage(facts)
        self.lo, self.hi = self._bounds()
        self.missed_sets, self._flag_low, self._flag_clear = self._missed_flags()
        self._all_flags = (1 << len(self.missed_sets)) - 1
        self._steps = self._row_steps()
        # the pieces of the half-steps, kept as they are made
        self._sprint_cache: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
        self._hideout_cache: dict[int, dict[int, tuple[list[Any], list[int]]]] = {}  # position -> usage -> entry
        self._candidate_cache: dict[int, Candidates] = {}
        self._closing_cache: dict[tuple[int, int], int] = {}
        self._end_cache: dict[int, list[int]] = {}  # usage -> _end_weights of the last position
        self._slots_cache: dict[int, int] = {}
        self._flag_cache: dict[tuple[int, int, int, int], int] = {}
        self._runs: dict[int, tuple[Any, ...]] = {}
        # the passes and what the queries make of them
        self._layers: list[dict[tuple[int, int, int], int]] | None = None
        self._inters: list[dict[Any, Any]] | None = None  # between the half-steps, for the backward pass
        self._last_betas: dict[Any, Any] = {}  # backward values of the layer before a face-down last position
        self._betas: list[dict[Any, Any]] = []  # backward values by layer, once the marginals are made
        self._marginals: tuple[int, list[dict[int, int]]] | None = None
        self._marked_cache: dict[tuple[int, ...], list[dict[Any, Any]]] = {}
        self._pair_cache: dict[Any, PairCounts | None] = {}
        # what the tagged passes of a Manhunt node need instead of the full passes
        self._prefixes: dict[int, dict[Any, Any]] = {}  # see _prefix_layer
        self._tag_betas: dict[tuple[int, int, int], int] = {}  # see _suffix_beta
        # backward values are scaled by D = prod_c P_c! to stay integers (see marginals)
        self._D = _scale(self.pool)

    def _missed_flags(self) -> tuple[list[tuple[tuple[int, ...], int]], list[int], list[bool]]:
        """(the multi-number misses that need a flag, the lowest number of a set still
        open at each position, whether a set's row ends just before it): "not all of
        these were hideouts among the first k", tracked by one flag per set in H (see
        ``_flags_after``). A set with a number that cannot be a hideout within its
        first k positions says nothing, and gets no flag (``_possible_within``). Flags
        change at position i only for a hideout from the lowest number of a set still
        open there, or at the position right after a set's row length: elsewhere a
        crossing leaves them as they are."""
        missed = [
            (tuple(sorted(numbers)), k)
            for numbers, k in self.facts.missed_sets
            if len(numbers) > 1 and all(self._possible_within(y, k) for y in numbers)
        ]
        if not missed:
            return missed, [99] * (self.n + 1), [False] * (self.n + 1)
        flag_low = [min((nums[0] for nums, k in missed if k >= i), default=99) for i in range(self.n + 1)]
        flag_clear = [any(k == i - 1 for _, k in missed) for i in range(self.n + 1)]
        return missed, flag_low, flag_clear

    def _row_steps(self) -> list[tuple[int, int, str]]:
        """The row as the steps it is crossed in (first, last position, kind): a face-down
        position ("regular", or "last" at the end of the row) or the escape alone, a run
        of face-up positions together ("face-up", one step: see ``_run_moves``)."""
        steps: list[tuple[int, int, str]] = []
        for i in range(1, self.n + 1):
            kind = ("regular" if self._regular(i) else "last" if self._regular_last(i)
                    else "face-up" if self._revealed(i) else "escape")
            if kind == "face-up" and steps and steps[-1][2] == "face-up":
                steps[-1] = (steps[-1][0], i, kind)
            else:
                steps.append((i, i, kind))
        return steps

    def allowed(self, i: int) -> list[bool]:
        """Which numbers a face-down hideout at position i may be (a row by number): not
        a known or Marshal's card, not missed by a single guess while the row was at
        least i long. Made when first asked: a Manhunt record has few face-down positions."""
        row = self._allowed_rows.get(i)
        if row is None:
            excluded = self._excluded
            row = [x not in excluded for x in range(43)]
            for x, k in self.facts.missed_single.items():
                if k >= i:
                    row[x] = False
            self._allowed_rows[i] = row
        return row

    def _possible_within(self, y: int, k: int) -> bool:
        """Whether y can be a hideout among the first k positions at all (a cheap test:
        a missed set with a number that cannot needs no flag)."""
        for i in range(1, min(k, self.n) + 1):
            p = self.facts.positions[i - 1]
            if p.hideout == y or (p.face_down and self.lo[i] <= y <= self.hi[i] and self.allowed(i)[y]):
                return True
        return False

    def _bounds(self) -> tuple[list[int], list[int]]:
        """The range each position's number can take at all, from reach and known numbers.

        A cheap interval propagation (each gap is 1 .. 3 + 2 * sprints: ``rules.widest_reach``) that lets the
        dynamic program drop states which cannot reach the next known number.
        """
        n = self.n
        pos = self.facts.positions
        lo = [0] * (n + 1)
        hi = [0] * (n + 1)
        for i in range(1, n + 1):
            p = pos[i - 1]
            lo[i] = lo[i - 1] + 1
            hi[i] = min(rules.widest_reach(hi[i - 1], p.sprints), MAX_CARD if p.hideout != ESCAPE else ESCAPE)
            if p.hideout is not None:
                lo[i] = max(lo[i], p.hideout)
                hi[i] = min(hi[i], p.hideout)
        for i in range(n - 1, 0, -1):
            nxt = pos[i]  # position i + 1
            hi[i] = min(hi[i], hi[i + 1] - 1)
            lo[i] = max(lo[i], rules.lowest_previous(lo[i + 1], rules.footprints(nxt.sprints, evens=nxt.sprints)))
        return lo, hi

    # ------------------------------------------------------------------ pieces
    def _sprint_options(self, i: int, G: int) -> list[tuple[int, int, int]]:
        """(class increment, evens among the sprint cards, weight) for position i's hidden
        sprints after usage G (the usage after them is G + increment).

        The weight holds the class factors C(P_c - G_c, m_c) and the slot factors
        (A_r - U_r)_(m_r) of the sprint cards. It is a product over decks, so the
        options are joined from per-deck lists (cached by the deck's free cards and
        slots) rather than enumerated class by class.
        """
        key = (i, G)
        cached = self._sprint_cache.get(key)
        if cached is not None:
            return cached
        k = self.facts.positions[i - 1].sprints
        slots = self.slots[i]
        before = self.revealed_before[i - 1]
        decks = tuple(
            (
                self.pool[2 * r] - ((G >> (BITS * 2 * r)) & MASK),
                self.pool[2 * r + 1] - ((G >> (BITS * (2 * r + 1))) & MASK),
                slots[r] - deck_used(G, r) - before[r] if r else k,
            )
            for r in range(4)
        )
        out = self._sprint_cache[key] = _sprint_sets(k, decks)
        return out

    def _closing(self, r: int, H: int) -> int:
        """(P)_(H) for both classes of deck r: divided out once the route has left r."""
        key = (r, H)
        got = self._closing_cache.get(key)
        if got is None:
            got = self._closing_cache[key] = falling(self.pool[2 * r], H & MASK) * falling(self.pool[2 * r + 1], (H >> BITS) & MASK)
        return got

    # ------------------------------------------------------------------ half-steps
    # A position is crossed in two half-steps, with merging in between:
    #   sprint step:  (h, G, H) -> (h, G', H, reach)   the hidden sprint cards
    #   hideout step: (h, G', H, reach) -> (x, G'', H')  the hideout, h < x <= reach
    # Merging after the sprint step is what keeps the work near the number of states
    # rather than states x sprint choices x numbers.

    # ------------------------------------------------------------------ grouped half-steps
    # The common position (face down, hidden sprint cards, not the last) is crossed by
    # loops over the states grouped by usage G: the sprint options and the hideout
    # options are looked up once per group, not once per state, and states that
    # cannot reach any number of the position are never made.

    def _regular(self, i: int) -> bool:
        p = self.facts.positions[i - 1]
        return p.face_down and i < self.n

    def _regular_last(self, i: int) -> bool:
        return i == self.n and self.facts.positions[i - 1].face_down

    def _revealed(self, i: int) -> bool:
        """A face-up hideout with its sprint cards face up: one transition per state."""
        return not self.facts.positions[i - 1].sprints_hidden

    # ------------------------------------------------------------------ face-up positions
    # A revealed position (and the escape) has one number, so each state has at most one
    # successor, made in one loop over the states: its weight is the draw slots of the
    # face-up cards (per usage G), its divisor the closing of a deck it leaves.

    def _revealed_weight(self, i: int, G: int) -> int:
        """The draw slots the revealed hideout and sprint cards of position i take."""
        slots = self.slots[i]
        before = self.revealed_before[i - 1]
        use = self.revealed_use[i]
        wt = 1
        for r in (1, 2, 3):
            if use[r]:
                wt *= falling(slots[r] - deck_used(G, r) - before[r], use[r])
        return wt

    def _revealed_moves(self, i: int, layer: Iterable[State]) -> Iterator[Move]:
        """(state, successor, weight, divisor) of every state that can reach position i's number."""
        p = self.facts.positions[i - 1]
        x = p.known_hideout
        lowest = _lowest_before(x, p.sprint_cards)
        r_x = DECK_OF[x] if x != ESCAPE else -1
        flagged = self._flag_low[i] <= x or self._flag_clear[i]
        closing = self._closing
        weights: dict[int, int] = {}
        for s in layer:
            h, G, H = s
            if h >= x or h < lowest:
                yield s, None, 0, 1
                continue
            wt = weights.get(G)
            if wt is None:
                wt = weights[G] = self._revealed_weight(i, G)
            if not wt:
                yield s, None, 0, 1
                continue
            r_open = DECK_OF[h]
            if r_open != r_x:
                H2, div = H & ~COUNTS, closing(r_open, H)
            else:
                H2, div = H, 1
            if H >= FLAG_ONE and flagged:
                H2 = self._flags_after(i, h, x, H, H2)
                if H2 < 0:
                    yield s, None, 0, 1
                    continue
            yield s, (x, G, H2), wt, div

    def _push_revealed(self, i: int, j: int, layer: dict[Any, Any]) -> dict[Any, Any]:
        """Forward over the face-up positions i..j."""
        out: dict[Any, Any] = {}
        get = out.get
        for s, s2, wt, div in self._face_up_moves(i, j, layer):
            if s2 is not None:
                v = layer[s] * wt
                out[s2] = get(s2, 0) + (v // div if div != 1 else v)
        return out

    def _pull_revealed(self, i: int, j: int, layer: dict[Any, Any], after: dict[Any, Any]) -> dict[Any, Any]:
        """Backward over the face-up positions i..j."""
        out: dict[Any, Any] = {}
        get = after.get
        for s, s2, wt, div in self._face_up_moves(i, j, layer):
            b = get(s2, 0) if s2 is not None else 0
            out[s] = (wt * b // div if div != 1 else wt * b) if b else 0
        return out

    def _run_moves(self, i: int, j: int, layer: Iterable[State]) -> Iterator[Move]:
        """``_revealed_moves`` over the face-up positions i..j (i < j) at once.

        Along a run of face-up positions the usage G does not change (face-up cards are
        not drawn from the pool) and each number reaches the next or never does, so a
        state's successor is fixed by its first step: the weight is the product of the
        positions' draw slots (per G), the divisor the closing of the open deck if the
        run leaves it (later closings find no face-down hideout in the new deck). A
        state with missed-set flags goes position by position.
        """
        static = self._runs.get(i)
        if static is None:
            pos = self.facts.positions
            xs = [pos[t - 1].known_hideout for t in range(i, j + 1)]
            lows = [_lowest_before(x, pos[t - 1].sprint_cards) for t, x in zip(range(i, j + 1), xs)]
            ok = all(xs[k - 1] < xs[k] and xs[k - 1] >= lows[k] for k in range(1, len(xs)))
            flagged = any(self._flag_low[t] <= x or self._flag_clear[t] for t, x in zip(range(i, j + 1), xs))
            static = self._runs[i] = (ok, xs[0], lows[0], xs[-1], DECK_OF[xs[-1]], flagged)
        ok, x_first, lowest, x_last, r_last, flagged = static
        closing = self._closing
        weights: dict[int, int] = {}
        for s in layer:
            h, G, H = s
            if not ok or h >= x_first or h < lowest:
                yield s, None, 0, 1
                continue
            if H >= FLAG_ONE and flagged:
                yield self._chain(i, j, s)
                continue
            wt = weights.get(G)
            if wt is None:
                wt = 1
                for t in range(i, j + 1):
                    wt *= self._revealed_weight(t, G)
                    if not wt:
                        break
                weights[G] = wt
            if not wt:
                yield s, None, 0, 1
                continue
            r_open = DECK_OF[h]
            if r_open != r_last:
                yield s, (x_last, G, H & ~COUNTS), wt, closing(r_open, H)
            else:
                yield s, (x_last, G, H), wt, 1

    def _chain(self, i: int, j: int, s: State) -> Move:
        """One state over the face-up positions i..j, position by position."""
        cur: State | None = s
        wt, div = 1, 1
        for t in range(i, j + 1):
            assert cur is not None
            ((_, cur, w, d),) = self._revealed_moves(t, (cur,))
            if cur is None:
                return s, None, 0, 1
            wt *= w
            div *= d
        return s, cur, wt, div

    def _face_up_moves(self, i: int, j: int, layer: Iterable[State]) -> Iterator[Move]:
        return self._revealed_moves(i, layer) if i == j else self._run_moves(i, j, layer)

    def _escape_moves(self, i: int, layer: Iterable[State]) -> Iterator[tuple[State, int, int]]:
        """(state, weight of its completions) for the escape at the last position: its
        sprint sets with the evens the last gap needs, and the end (see _finish)."""
        k = self.facts.positions[i - 1].sprints
        base = ESCAPE - rules.max_gap(rules.footprints(k))  # base - h: the evens the last gap needs
        closing = self._closing
        ends = self._end_weights_cached
        for s in layer:
            h, G, H = s
            vec = ends(i, G)
            need = base - h
            if need >= len(vec) or h >= ESCAPE:
                yield s, 0, 1
                continue
            phi = vec[need if need > 0 else 0]
            if phi and H >= FLAG_ONE and self._flags_after(i, h, ESCAPE, H, 0) < 0:
                phi = 0
            yield s, phi, closing(DECK_OF[h], H)

    def _push_escape(self, i: int, layer: dict[Any, Any]) -> dict[Any, Any]:
        z = 0
        for s, phi, div in self._escape_moves(i, layer):
            if phi:
                w = layer[s]
                z += (w // div if div != 1 else w) * phi
        return {(ESCAPE, TERMINAL, 0): z} if z else {}

    def _pull_escape(self, i: int, layer: dict[Any, Any], after: dict[Any, Any]) -> dict[Any, Any]:
        b = after.get((ESCAPE, TERMINAL, 0), 0)
        return {s: (phi * b // div if div != 1 else phi * b) for s, phi, div in self._escape_moves(i, layer)}

    def _push_sprints(self, i: int, layer: dict[Any, Any]) -> dict[Any, Any]:
        k = self.facts.positions[i - 1].sprints
        cap = self.hi[i]
        low = self.lo[i]
        out: dict[Any, Any] = {}
        get = out.get
        entries = self._hideout_cache.setdefault(i, {})
        entry = self._hideout_entry
        steps = rules.max_gaps(k)
        for G, members in _by_usage(layer, 1).items():
            for inc, evens, wo in self._sprint_options(i, G):
                G2 = G + inc
                step = steps[evens]
                got = entries.get(G2)
                table = (got if got is not None else entry(i, G2))[1]
                for h, H, w in members:
                    t = h + step
                    reach = table[t if t < cap else cap]
                    if reach <= h or reach < low:
                        continue
                    key = (h, G2, H, reach)
                    out[key] = get(key, 0) + w * wo
        return out

    def _pull_sprints(self, i: int, layer: dict[Any, Any], after: dict[Any, Any]) -> dict[Any, Any]:
        k = self.facts.positions[i - 1].sprints
        cap = self.hi[i]
        out: dict[Any, Any] = {}
        get = after.get
        entries = self._hideout_cache.setdefault(i, {})
        entry = self._hideout_entry
        steps = rules.max_gaps(k)
        for G, members in _by_usage(layer, 1).items():
            options = []
            for inc, evens, wo in self._sprint_options(i, G):
                G2 = G + inc
                got = entries.get(G2)
                options.append((G2, steps[evens], wo, (got if got is not None else entry(i, G2))[1]))
            for h, H, _ in members:
                acc = 0
                for G2, step, wo, table in options:
                    t = h + step
                    b = get((h, G2, H, table[t if t < cap else cap]))
                    if b:
                        acc += wo * b
                out[(h, G, H)] = acc
        return out

    def _hideout_groups(self, i: int, inter: dict[Any, Any]) -> Iterator[tuple[int, list[Any], list[int], list[Any]]]:
        """The states between the half-steps grouped by usage G2, each group with the
        hideout options of G2 and their numbers: (G2, options, xs, [(h, H, reach, weight, key)])."""
        groups: dict[Any, Any] = {}
        for key, w in inter.items():
            h, G, H, reach = key
            g = groups.get(G)
            if g is None:
                groups[G] = [(h, H, reach, w, key)]
            else:
                g.append((h, H, reach, w, key))
        for G2, members in groups.items():
            options = self._hideout_options(i, G2)
            yield G2, options, [o[0] for o in options], members

    # The hideout half-step as window sums. A state between the half-steps with hideout
    # h and reach t may take every option x with max(lo, h + 1) <= x <= t: a window of
    # the sorted options. The next state depends on x, on the open deck of h and on H
    # only, so the states of a group with the same (open deck, H) add up option by
    # option: forward by a difference array over the option indices, backward by prefix
    # sums of the options' values. A state carrying missed-set flags (its transitions
    # depend on h and x together) is crossed option by option.

    def _push_hideouts(self, i: int, inter: dict[Any, Any]) -> dict[Any, Any]:
        """Forward over the hideout half-step."""
        out: dict[Any, Any] = {}
        get = out.get
        closing = self._closing
        low = self.lo[i]
        for G2, options, xs, members in self._hideout_groups(i, inter):
            subs: dict[Any, Any] = {}
            for h, H, reach, w, _ in members:
                a = bisect_left(xs, low if low > h else h + 1)
                b = bisect_right(xs, reach)
                if a >= b:
                    continue
                if H >= FLAG_ONE:
                    self._push_flagged(i, G2, options, a, b, h, H, w, out)
                    continue
                sub = subs.get((DECK_OF[h], H))
                if sub is None:
                    sub = subs[(DECK_OF[h], H)] = [[0] * (len(xs) + 1), a, b]
                diff = sub[0]
                diff[a] += w
                diff[b] -= w
                if a < sub[1]:
                    sub[1] = a
                if b > sub[2]:
                    sub[2] = b
            for (r_open, H), (diff, a, b) in subs.items():
                run = 0
                div = 0
                for j in range(a, b):
                    run += diff[j]
                    if not run:
                        continue
                    x, inc, bit, r, wt = options[j]
                    if r != r_open:
                        if not div:
                            div = closing(r_open, H)
                        key = (x, G2 + inc, bit)
                        out[key] = get(key, 0) + run * wt // div
                    else:
                        key = (x, G2 + inc, H + bit)
                        out[key] = get(key, 0) + run * wt
        return out

    def _push_flagged(self, i: int, G2: int, options: list[Any], a: int, b: int, h: int, H: int, w: int, out: dict[Any, Any]) -> None:
        """Forward from one state that carries missed-set flags, option by option."""
        r_open = DECK_OF[h]
        flag_low, clear = self._flag_low[i], self._flag_clear[i]
        for j in range(a, b):
            x, inc, bit, r, wt = options[j]
            if r != r_open:
                H2 = bit + (H & ~COUNTS)  # keeps the flags
                v = w * wt // self._closing(r_open, H)
            else:
                H2 = H + bit
                v = w * wt
            if x >= flag_low or clear:
                H2 = self._flags_after(i, h, x, H, H2)
                if H2 < 0:
                    continue
            key = (x, G2 + inc, H2)
            out[key] = out.get(key, 0) + v

    def _pull_hideouts(self, i: int, inter: dict[Any, Any], after: dict[Any, Any]) -> dict[Any, Any]:
        """Backward over the hideout half-step."""
        out: dict[Any, Any] = {}
        get = after.get
        closing = self._closing
        low = self.lo[i]
        flag_low, clear = self._flag_low[i], self._flag_clear[i]
        for G2, options, xs, members in self._hideout_groups(i, inter):
            sums: dict[Any, Any] = {}  # (open deck, H) -> prefix sums over the options (staying, leaving)
            for h, H, reach, _, state in members:
                a = bisect_left(xs, low if low > h else h + 1)
                b = bisect_right(xs, reach)
                if a >= b:
                    out[state] = 0
                    continue
                r_open = DECK_OF[h]
                if H >= FLAG_ONE:
                    acc = leaving = 0
                    for j in range(a, b):
                        x, inc, bit, r, wt = options[j]
                        H2 = bit + (H & ~COUNTS) if r != r_open else H + bit
                        if x >= flag_low or clear:
                            H2 = self._flags_after(i, h, x, H, H2)
                            if H2 < 0:
                                continue
                        v = get((x, G2 + inc, H2))
                        if v:
                            if r != r_open:
                                leaving += wt * v
                            else:
                                acc += wt * v
                    out[state] = acc + leaving // closing(r_open, H) if leaving else acc
                    continue
                pre = sums.get((r_open, H))
                if pre is None:
                    stay, leave = [0], [0]
                    s1 = s2 = 0
                    for x, inc, bit, r, wt in options:
                        if r != r_open:
                            v = get((x, G2 + inc, bit))
                            if v:
                                s2 += wt * v
                        else:
                            v = get((x, G2 + inc, H + bit))
                            if v:
                                s1 += wt * v
                        stay.append(s1)
                        leave.append(s2)
                    pre = sums[(r_open, H)] = (stay, leave)
                stay, leave = pre
                leaving = leave[b] - leave[a]
                acc = stay[b] - stay[a]
                out[state] = acc + leaving // closing(r_open, H) if leaving else acc
        return out

    def _finish(self, i: int, layer: dict[Any, Any], backward: bool) -> tuple[dict[Any, Any], dict[Any, Any]]:
        """The last (face-down) position: hideout, sprint cards and the end, in one go.

        Its hideout comes first; then its sprint sets with the evens the gap needs and
        the end factor are one cached number per usage (``_end_weights``), so every path ends
        in a terminal state keyed by the hideout alone. A terminal state's backward
        value is the constant D, so the backward values of the layer before are made
        in the same loop: ``(terminal layer, backward values of layer i - 1 or {})``.
        """
        sums: dict[Any, Any] = {}  # (x, divisor) -> summed numerators, divided once at the end
        get = sums.get
        betas: dict[Any, Any] = {}
        closing = self._closing
        D = self._D
        d_over: dict[Any, Any] = {}  # divisor -> D // divisor
        low, cap = self.lo[i], self.hi[i]
        k = self.facts.positions[i - 1].sprints
        base, most = rules.max_gap(rules.footprints(k)), rules.max_gap(rules.footprints(k, evens=k))
        flag_low, clear = self._flag_low[i], self._flag_clear[i]
        end_weights = self._end_weights_cached
        shared: dict[Any, Any] = {}  # id of an options list (all alive in the hideout cache) -> its numbers, closings
        for G, members in _by_usage(layer, 1).items():
            options = self._hideout_options(i, G)
            got = shared.get(id(options))
            if got is None:
                # the numbers, and the closing each pays when it opens its deck
                got = shared[id(options)] = ([o[0] for o in options], [closing(o[3], o[2]) for o in options])
            xs, entering = got
            ends: list[list[int] | None] = [None] * len(options)  # made when first reached
            for h, H, w in members:
                r_open = DECK_OF[h]
                top = h + most if h + most < cap else cap
                counts = H & COUNTS
                leaving = 0
                acc = 0
                for j in range(bisect_left(xs, low if low > h else h + 1), len(xs)):
                    x, inc, bit, r, wt = options[j]
                    if x > top:
                        break
                    need = x - h - base
                    vec = ends[j]
                    if vec is None:
                        vec = ends[j] = end_weights(i, G + inc)
                    if need >= len(vec):
                        continue
                    phi = vec[need if need > 0 else 0]
                    if not phi:
                        continue
                    if H >= FLAG_ONE and (x >= flag_low or clear) and self._flags_after(i, h, x, H, 0) < 0:
                        continue
                    if r != r_open:
                        if not leaving:
                            leaving = closing(r_open, H)
                        div = leaving * entering[j]
                    else:
                        div = closing(r, counts + bit)
                    f = wt * phi
                    key = (x, div)
                    sums[key] = get(key, 0) + w * f
                    if backward:
                        q = d_over.get(div)
                        if q is None:
                            q = d_over[div] = D // div
                        acc += q * f
                if backward:
                    betas[(h, G, H)] = acc
        out: dict[Any, Any] = {}
        for (x, div), v in sums.items():
            end = (x, TERMINAL, 0)
            out[end] = out.get(end, 0) + v // div
        return out, betas

    # The last position crosses in the other order: hideout first, then its sprint
    # cards. Nothing after it needs parity or classes (the end only needs each deck's
    # usage and the open deck's hideouts), so the sprint cards are summed into
    # deck-level outputs once per usage; the last layer is usually the largest.

    def _end_weights_cached(self, i: int, G: int) -> list[int]:
        """``_end_weights`` by usage (only the last position asks, so i is always n)."""
        vec = self._end_cache.get(G)
        if vec is None:
            vec = self._end_cache[G] = self._end_weights(i, G)
        return vec

    def _unused_slots(self, G: int) -> int:
        """Ways to fill the draw slots no used card took: prod (N_r - u_r)_(d_r - u_r)."""
        got = self._slots_cache.get(G)
        if got is None:
            got = 1
            used_revealed = self.revealed_before[self.n]
            for r in (1, 2, 3):
                u = deck_used(G, r) + used_revealed[r]
                got *= falling(self.deck_free[r] - u, self.facts.draws[r] - u)
            self._slots_cache[G] = got
        return got

    def _end_weights(self, i: int, G: int) -> list[int]:
        """Usage G before the last position's sprint cards -> weights by at-least-evens.

        The weight of a sprint set times the unused draw slots is a product over decks,
        so it is a product of per-deck polynomials in (cards m, evens e): deck r gives
        ``C(free odd, m - e) C(free even, e) (free slots)_(m) (N_r - u_r - m)_(d_r - u_r - m)``.
        Decks 0-1 and 2-3 are joined (and cached) in pairs, then the pairs with m = k.
        """
        k = self.facts.positions[i - 1].sprints
        if not k:  # no sprint cards: the unused draw slots alone
            return [self._unused_slots(G), 0]
        slots = self.slots[i]
        before = self.revealed_before[i - 1]
        after = self.revealed_before[self.n]
        keys = []
        for r in range(4):
            fo = self.pool[2 * r] - g_get(G, 2 * r)
            fe = self.pool[2 * r + 1] - g_get(G, 2 * r + 1)
            if r:
                used = deck_used(G, r)
                keys.append((r, fo, fe, slots[r] - used - before[r], used + after[r], k))
            else:
                keys.append((0, fo, fe, 0, 0, k))
        low = self._end_pair(keys[0], keys[1])
        high = self._end_pair(keys[2], keys[3])
        exact = [0] * (k + 2)
        for m, row_a in enumerate(low):
            row_b = high[k - m]
            for ea, va in enumerate(row_a):
                if va:
                    for eb, vb in enumerate(row_b):
                        if vb:
                            exact[ea + eb] += va * vb
        for e in range(k - 1, -1, -1):  # at least e evens
            exact[e] += exact[e + 1]
        return exact

    def _end_pair(self, key_a: tuple[Any, ...], key_b: tuple[Any, ...]) -> list[list[int]]:
        """Two decks' end polynomials multiplied: by cards m <= k, a list by evens.

        They depend on the record only through the keys and each deck's draws and free
        cards, so counters share them (bounded)."""
        key = (key_a, key_b, tuple((self.facts.draws[r], self.deck_free[r]) for r in (key_a[0], key_b[0]) if r))
        got = _END_PAIRS.get(key)
        if got is None:
            if len(_END_PAIRS) >= _END_PAIRS_MAX:
                _END_PAIRS.clear()
            a, b = self._end_poly(*key_a), self._end_poly(*key_b)
            k = key_a[-1]
            got = [[0] * (m + 1) for m in range(k + 1)]
            for ma, row_a in enumerate(a):
                for mb in range(k + 1 - ma):
                    out = got[ma + mb]
                    for ea, va in enumerate(row_a):
                        if va:
                            for eb, vb in enumerate(b[mb]):
                                if vb:
                                    out[ea + eb] += va * vb
            _END_PAIRS[key] = got
        return got

    def _end_poly(self, r: int, fo: int, fe: int, room: int, used: int, k: int) -> list[list[int]]:
        """Deck r's share of the last sprint set and the end, by cards m and evens e."""
        out = [[0] * (m + 1) for m in range(k + 1)]
        for m in range(min(k, fo + fe) + 1):
            if r:
                w = falling(room, m)
                rest = self.facts.draws[r] - used - m
                w *= falling(self.deck_free[r] - used - m, rest) if rest >= 0 else 0
            else:
                w = 1
            if not w:
                continue
            for e in range(max(0, m - fo), min(m, fe) + 1):
                out[m][e] = comb(fo, m - e) * comb(fe, e) * w
        return out

    def _flags_after(self, i: int, h: int, x: int, H: int, H2: int) -> int:
        """H2 with the missed-set flags after hideout x follows h at position i; -1 if
        x completes a missed set (every number of it a hideout within its row length).

        Flag j stays set while every number of missed set j up to the current hideout
        is a hideout; it clears when the route skips one of its numbers or passes the
        row length of the guess, so only routes inside a set's span carry it.
        """
        flags = H >> FLAG_SHIFT
        key = (i, h, x, flags)
        got = self._flag_cache.get(key)
        if got is None:
            got = flags
            for j, (numbers, k) in enumerate(self.missed_sets):
                if not flags >> j & 1:
                    continue
                if i > k or any(h < y < x for y in numbers):
                    got &= ~(1 << j)
                elif x == numbers[-1]:
                    got = -1
                    break
            self._flag_cache[key] = got
        return got if got < 0 else (H2 & COUNTS) | (got << FLAG_SHIFT)

    def _hideout_options(self, i: int, G2: int) -> list[tuple[int, int, int, int, int]]:
        """Every face-down number position i can take after class usage G2.

        ``(x, class increment, parity bit, deck, weight)`` sorted by x; the weight is the
        free cards of x's class times the free draw slots of its deck. Shared by all
        states with the same usage: the part of the hideout step that does not
        depend on the previous hideout.
        """
        return self._hideout_entry(i, G2)[0]

    def _hideout_entry(self, i: int, G2: int) -> tuple[list[Any], list[int]]:
        """(hideout options, reach table) of position i after usage G2.

        Both depend on G2 only through the nibbles of the classes and decks that
        position i's numbers belong to (their free cards and free slots), and otherwise
        on the numbers, free cards and slots of the position: usages (and counters) that
        agree there share one entry.
        """
        entries = self._hideout_cache.get(i)
        if entries is None:
            entries = self._hideout_cache[i] = {}
        got = entries.get(G2)
        if got is not None:
            return got
        cands, classes, decks, static, mask = self._candidates(i)
        key = (static, G2 & mask)
        got = _HIDEOUT_ENTRIES.get(key)
        if got is None:
            slots = self.slots[i]
            before = self.revealed_before[i - 1]
            free = {c: self.pool[c] - ((G2 >> (BITS * c)) & MASK) for c in classes}
            room = {r: slots[r] - deck_used(G2, r) - before[r] for r in decks}
            room[0] = 1
            options = []
            table: list[int] = []
            best = 0
            for x, c, r, inc, bit in cands:
                f = free[c]
                if f > 0 and room[r] > 0:
                    options.append((x, inc, bit, r, f * room[r]))
                    table += [best] * (x - len(table))
                    best = x
            table += [best] * (43 - len(table))
            got = (options, table)
            if len(_HIDEOUT_ENTRIES) >= _HIDEOUT_MAX:
                _HIDEOUT_ENTRIES.clear()
            _HIDEOUT_ENTRIES[key] = got
        entries[G2] = got
        return got

    def _candidates(self, i: int) -> Candidates:
        """(x, class, deck, class increment, parity bit) for every number position i may
        take by its bounds and the allowed numbers, before any usage is known; with
        the classes and the decks (1-3) among them, what the position's options depend
        on besides the usage, and the usage nibbles they depend on (a mask)."""
        got = self._candidate_cache.get(i)
        if got is None:
            allowed = self.allowed(i)
            cands = [
                (x, CLASS_OF[x], CLASS_OF[x] >> 1, 1 << (BITS * CLASS_OF[x]), 1 << (BITS * (CLASS_OF[x] & 1)))
                for x in range(max(1, self.lo[i]), min(self.hi[i], MAX_CARD) + 1)
                if allowed[x]
            ]
            classes = tuple(sorted({c for _, c, _, _, _ in cands}))
            decks = tuple(sorted({r for _, _, r, _, _ in cands if r}))
            mask = 0
            for c in classes:
                mask |= MASK << (BITS * c)
            for r in decks:
                mask |= (MASK << (BITS * 2 * r)) | (MASK << (BITS * (2 * r + 1)))
            slots = self.slots[i]
            before = self.revealed_before[i - 1]
            static = (
                tuple(x for x, *_ in cands),
                tuple(self.pool[c] for c in classes),
                tuple(slots[r] - before[r] for r in decks),
            )
            got = self._candidate_cache[i] = (cands, classes, decks, static, mask)
        return got

    # ------------------------------------------------------------------ passes
    def _end(self, state: tuple[int, int, int]) -> tuple[int, int]:
        """(numerator factor, divisor) at the end of the row for ``state``."""
        h, G, H = state
        if G == TERMINAL:  # the last position already paid the end
            return 1, 1
        num = self._unused_slots(G)
        div = 1
        if h != ESCAPE:
            div = self._closing(DECK_OF[h], H)
        return num, div

    def forward(self, backward: bool = False) -> list[dict[tuple[int, int, int], int]]:
        """Layer i: state after position i -> summed weight of the paths reaching it.

        ``backward``: also keep what the backward pass needs (the states between the
        half-steps, and the last position's backward values). A count alone needs
        neither.
        """
        if self._layers is not None and (self._inters is not None or not backward):
            return self._layers
        layers: list[dict[tuple[int, int, int], int]] = [{(0, 0, self._all_flags << FLAG_SHIFT): 1}]
        inters: list[dict[tuple[int, int, int, int], int]] = [{}]
        for i, j, kind in self._steps:
            self._check_time()
            if kind == "last":  # with the backward values of the layer before
                inter: dict[tuple[int, int, int, int], int] = {}
                nxt, self._last_betas = self._finish(i, layers[-1], backward=backward)
            else:
                inter, nxt = self._cross(i, j, kind, layers[-1])
            for _ in range(i, j):  # inside a run of face-up positions: nothing kept
                inters.append({})
                layers.append({})
            inters.append(inter if backward else {})
            layers.append(nxt)
        self._layers = layers
        self._inters = inters if backward else None
        return layers

    def _cross(self, i: int, j: int, kind: str, layer: dict[Any, Any]) -> tuple[dict[Any, Any], dict[Any, Any]]:
        """Forward over the step of positions i..j: (the states between its half-steps,
        the layer after it)."""
        if kind == "regular":
            inter = self._push_sprints(i, layer)
            return inter, self._push_hideouts(i, inter)
        if kind == "last":
            return {}, self._finish(i, layer, backward=False)[0]
        if kind == "face-up":
            return {}, self._push_revealed(i, j, layer)
        # the one position left: the escape (42), last, its sprint cards face down
        return {}, self._push_escape(i, layer)

    def _drop_caches(self) -> None:
        """Free the per-usage option caches (two thirds of a solved counter's memory: a
        posterior keeps its counter for joints, and caches keep posteriors); a marked
        pass for a joint rebuilds what it needs."""
        for cache in (self._sprint_cache, self._hideout_cache, self._candidate_cache,
                      self._end_cache, self._flag_cache):
            cache.clear()

    def stored_states(self) -> int:
        """How many states this counter keeps (layers, backward values, marked passes):
        what a cache of solved counters should weigh them by."""
        n = sum(len(layer) for layer in self._layers or ())
        n += sum(len(b) for b in self._betas)
        n += sum(len(layer) for passes in self._marked_cache.values() for layer in passes)
        return n

    def through(self, numbers: Iterable[int]) -> int:
        """The number of histories in which every one of ``numbers`` is a face-down hideout.

        Joint counts without a pass per set: a route is increasing, so the histories
        through a < b < c are the forward weights *marked* at a (the paths that passed
        through a hideout a), marked again at b, summed at c against the backward
        values the marginals already hold. A marked pass only visits states after
        its mark, and it is shared by every set that starts with the same numbers.
        """
        nums = sorted(set(numbers))
        if not nums:
            return self.marginals()[0]
        self.marginals()
        with no_cycle_collection():
            marked = self._marked(tuple(nums[:-1]))
        last = nums[-1]
        z = 0
        for i in range(1, self.n + 1):
            beta = self._betas[i]
            for s, w in marked[i].items():
                if s[0] == last:
                    z += w * beta.get(s, 0)
        assert z % self._D == 0
        return z // self._D

    def _marked(self, prefix: tuple[int, ...]) -> list[dict[Any, Any]]:
        """Forward weights of the paths through every number of ``prefix`` (cached)."""
        if not prefix:
            return self.forward()
        got = self._marked_cache.get(prefix)
        if got is not None:
            return got
        before = self._marked(prefix[:-1])
        mark = prefix[-1]
        out: list[dict[Any, Any]] = [{}]
        cur: dict[Any, Any] = {}
        for i, j, kind in self._steps:
            nxt = self._cross(i, j, kind, cur)[1] if cur else {}
            out.extend({} for _ in range(i, j))
            for s, w in before[j].items():  # paths whose hideout j is the mark
                if s[0] == mark:
                    nxt[s] = nxt.get(s, 0) + w
            out.append(nxt)
            cur = nxt
        self._marked_cache[prefix] = out
        return out

    @property
    def free_cards(self) -> tuple[int, ...]:
        """Free cards per class: not the Marshal's, not face up (what sprint sets and
        face-down hideouts are drawn from)."""
        return tuple(self.pool)

    def total(self, deadline: float | None = None) -> int:
        """The number of consistent hidden histories."""
        if self._marginals is not None:
            return self._marginals[0]
        with self._limited(deadline):
            layers = self.forward()
        z = 0
        for s, w in layers[-1].items():
            num, div = self._end(s)
            q, rem = divmod(w * num, div)
            assert rem == 0
            z += q
        return z

    def marginals(self, deadline: float | None = None) -> tuple[int, list[dict[int, int]]]:
        """The total and, for each position, number -> count of histories with it there
        (left empty for the face-up positions before the first face-down one).

        Forward-backward. The deferred class division makes a completion's weight a
        rational number, so the backward values are kept scaled by
        ``D = prod_c P_c!``, which every product of class divisors along a path
        divides: ``beta~(s) = D * beta(s)`` is an integer, and so is
        ``alpha(s) * beta~(s) / D``, the count of histories through ``s``.
        """
        if self._marginals is not None:
            return self._marginals
        with self._limited(deadline):
            return self._forward_backward()

    def _forward_backward(self) -> tuple[int, list[dict[int, int]]]:
        layers = self.forward(backward=True)
        n = self.n
        D = self._D
        if not layers[n]:  # no history fits: nothing to go back over
            self._betas = [{} for _ in range(n + 1)]
            self._inters = None
            self._drop_caches()
            self._marginals = (0, [{} for _ in range(n + 1)])
            return self._marginals
        b_next: dict[tuple[int, int, int], int] = {}
        for s in layers[n]:
            num, div = self._end(s)
            b_next[s] = num * (D // div)
        counts: list[dict[int, int]] = [dict() for _ in range(n + 1)]
        betas: list[dict[Any, Any]] = [{} for _ in range(n + 1)]
        betas[n] = b_next
        z = sum(w * b_next[s] for s, w in layers[n].items())
        for s, w in layers[n].items():
            counts[n][s[0]] = counts[n].get(s[0], 0) + w * b_next[s]
        # the layers before the first face-down position count nothing the posterior or
        # a joint asks for (their numbers are face up), so the pass stops there
        first = next((p.index for p in self.facts.positions if p.face_down), n)
        for start, j, kind in reversed(self._steps):
            i = start - 1  # the layer before the step, from the one after it (j)
            if i < first:
                break
            self._check_time()
            # the half-steps of the step, in reverse
            if kind == "regular":
                assert self._inters is not None  # kept by the forward pass for this one
                b_inter = self._pull_hideouts(j, self._inters[j], b_next)
                b_cur = self._pull_sprints(j, layers[i], b_inter)
            elif kind == "last":
                b_cur = self._last_betas
            elif kind == "face-up":
                b_cur = self._pull_revealed(start, j, layers[i], b_next)
            else:
                b_cur = self._pull_escape(j, layers[i], b_next)
            for s, w in layers[i].items():
                v = w * b_cur[s]
                if v:
                    counts[i][s[0]] = counts[i].get(s[0], 0) + v
            betas[i] = b_cur
            b_next = b_cur
        self._betas = betas
        self._inters = None  # only the backward pass needed them; joints use layers and betas
        self._drop_caches()
        out = [{x: v // D for x, v in c.items() if v} for c in counts]
        assert z % D == 0
        self._marginals = (z // D, out)
        return self._marginals


def _free_cards(facts: Facts) -> tuple[list[int], dict[int, int], frozenset[int]]:
    """(P_c: the free cards of each class, the cards of each deck the Marshal does not
    hold, the cards no hidden part can be): the card counts of a history's weight
    (module docstring). A known card (face up, or the Marshal's) is no hidden hideout
    or sprint card; a deck's draw slots are filled from the cards she does not hold
    (``_unused_slots``)."""
    marshal = facts.marshal_cards
    excluded = facts.known_cards | marshal
    pool = [len(members - excluded) for members in CLASS_SETS]
    deck_free = {r: len(members - marshal) for r, members in DECK_SETS.items()}
    return pool, deck_free, excluded


def _draw_slots(facts: Facts) -> list[tuple[int, int, int, int]]:
    """The Fugitive's draws of decks 1-3 usable at each position's turn (``Facts.slots``;
    deck 0, the starting hand, has none), by position (a placeholder at 0): A_r(i), the
    slots a card of deck r used at position i must sit in (module docstring, "Weight of
    a history")."""
    slots: list[tuple[int, int, int, int]] = [(0, 0, 0, 0)]
    s1, s2, s3 = facts.slots[1], facts.slots[2], facts.slots[3]
    for p in facts.positions:
        t = p.turn
        slots.append((0, s1[t] if t < len(s1) else s1[-1], s2[t] if t < len(s2) else s2[-1],
                      s3[t] if t < len(s3) else s3[-1]))
    return slots


def _revealed_usage(facts: Facts) -> tuple[list[tuple[int, int, int, int]], list[tuple[int, int, int, int]]]:
    """(the cards of each deck a revealed position uses, their running sums: at i, the
    positions 1 to i), by position (a placeholder at 0): face-up cards take draw slots
    too, so they count in U_r though the dynamic program never chooses them."""
    revealed_use: list[tuple[int, int, int, int]] = [(0, 0, 0, 0)]
    for p in facts.positions:
        if p.hideout is None:
            revealed_use.append((0, 0, 0, 0))
            continue
        use = [0, 0, 0, 0]
        if p.hideout != ESCAPE:
            use[DECK_OF[p.hideout]] += 1
        for s in p.sprint_cards or ():
            use[DECK_OF[s]] += 1
        revealed_use.append((use[0], use[1], use[2], use[3]))
    revealed_before: list[tuple[int, int, int, int]] = [(0, 0, 0, 0)]
    acc = (0, 0, 0, 0)
    for used in revealed_use[1:]:
        if used != (0, 0, 0, 0):
            acc = (acc[0] + used[0], acc[1] + used[1], acc[2] + used[2], acc[3] + used[3])
        revealed_before.append(acc)
    return revealed_use, revealed_before


def _scale(pool: list[int]) -> int:
    """D = prod_c P_c!, the factor the backward values are scaled by to stay integers
    (see ``marginals``)."""
    D = 1
    for free in pool:
        D *= factorial(free)
    return D


def _lowest_before(x: int, sprint_cards: Iterable[int] | None) -> int:
    """The smallest previous hideout from which x can be placed over these sprint cards."""
    return rules.lowest_previous(x, rules.sprint_total(sprint_cards or ()))


def _by_usage(states: dict[Any, Any], at: int) -> dict[Any, Any]:
    """States grouped by their usage G (key[at]): G -> [(other key fields..., weight)]."""
    groups: dict[Any, Any] = {}
    for key, w in states.items():
        rest = key[:at] + key[at + 1:] + (w,)
        g = groups.get(key[at])
        if g is None:
            groups[key[at]] = [rest]
        else:
            g.append(rest)
    return groups


#: hideout options and reach tables by (what a position's options depend on besides the
#: usage, the usage's nibbles they depend on): shared by every counter (bounded)
_HIDEOUT_ENTRIES: dict[tuple[Any, ...], tuple[list[Any], list[int]]] = {}
_HIDEOUT_MAX = 8_000

#: the last position's per-deck-pair end polynomials, by their inputs (see _end_pair)
_END_PAIRS: dict[tuple[Any, ...], list[list[int]]] = {}
_END_PAIRS_MAX = 4_000

#: sprint sets by (sprint count, each deck's free odd, free even and free slots): they do
#: not depend on the record otherwise, so every counter shares them (bounded)
_SPRINT_SETS: dict[tuple[Any, ...], list[tuple[int, int, int]]] = {}
_DECK_SPRINTS: dict[tuple[int, int, int, int, int], list[list[tuple[int, int, int]]]] = {}
_SHARED_MAX = 60_000  # stored tuples; both tables are dropped when they pass it
_shared_size = [0]


def _share(table: dict[Any, Any], key: object, value: list[Any], size: int) -> list[Any]:
    if _shared_size[0] + size > _SHARED_MAX:
        _SPRINT_SETS.clear()
        _DECK_SPRINTS.clear()
        _shared_size[0] = 0
    _shared_size[0] += size
    table[key] = value
    return value


def _sprint_sets(k: int, decks: tuple[tuple[int, int, int], ...]) -> list[tuple[int, int, int]]:
    """(class increment, evens, weight) of every class composition of k sprint cards.

    The weight holds the class factors C(P_c - G_c, m_c) and the slot factors
    (A_r - U_r)_(m_r): a product over decks, so the sets are joined from per-deck lists.
    """
    key = (k, decks)
    got = _SPRINT_SETS.get(key)
    if got is None:
        per_deck = [_deck_sprints(r, fo, fe, room, k) for r, (fo, fe, room) in enumerate(decks)]
        low = _join(per_deck[0], per_deck[1], k)
        high = _join(per_deck[2], per_deck[3], k)
        got = [
            (inc_a + inc_b, e_a + e_b, w_a * w_b)
            for m in range(k + 1)
            for inc_a, e_a, w_a in low[m]
            for inc_b, e_b, w_b in high[k - m]
        ]
        _share(_SPRINT_SETS, key, got, len(got))
    return got


def _deck_sprints(r: int, fo: int, fe: int, room: int, k: int) -> list[list[tuple[int, int, int]]]:
    """Deck r's share of a sprint set, by card count m <= k: (class increment, evens, weight).

    ``C(fo, m - e) C(fe, e) (room)_(m)`` ways for m cards with e evens, from fo free
    odd and fe free even cards and ``room`` free draw slots (deck 0, the starting
    hand, has no draw slots).
    """
    key = (r, fo, fe, room, k)
    got = _DECK_SPRINTS.get(key)
    if got is None:
        got = [[] for _ in range(k + 1)]
        shift_o, shift_e = BITS * 2 * r, BITS * (2 * r + 1)
        for m in range(min(k, fo + fe) + 1):
            slot_w = falling(room, m) if r else 1
            if not slot_w:
                break
            for e in range(max(0, m - fo), min(m, fe) + 1):
                got[m].append((((m - e) << shift_o) + (e << shift_e), e, comb(fo, m - e) * comb(fe, e) * slot_w))
        _share(_DECK_SPRINTS, key, got, k + 1)
    return got


def _join(a: list[list[tuple[int, int, int]]], b: list[list[tuple[int, int, int]]],
          k: int) -> list[list[tuple[int, int, int]]]:
    """Two decks' sprint shares combined, by total card count m <= k."""
    out: list[list[tuple[int, int, int]]] = [[] for _ in range(k + 1)]
    for ma, rows_a in enumerate(a):
        for mb in range(k + 1 - ma):
            rows_b = b[mb]
            if rows_a and rows_b:
                out[ma + mb].extend(
                    (ia + ib, ea + eb, wa * wb) for ia, ea, wa in rows_a for ib, eb, wb in rows_b
                )
    return out


__all__ = ["Counter", "OutOfTime"]
