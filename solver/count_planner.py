"""What the Manhunt planner asks of the Python counter besides the posterior.

The planner values a guess from the histories of the records one hit further, and
these queries give their counts without a count per record: from the forward and
backward values a count has stored (``sprint_classes``) or from *tagged* passes, which
carry the hideouts (and sprint classes) of the face-down positions they are asked
about through the dynamic program of :mod:`solver.count` (``pair_counts``,
``fixed_joint``). Only :class:`solver.count.Counter` uses this class (it inherits it);
callers go through :mod:`solver.counting`.

A sprint set's class composition is a key packed as a usage (see ``solver._packing``);
:func:`solver.counting.composition_counts` reads it.
"""
from __future__ import annotations

import time
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from math import comb

from engine import rules

from ._packing import BITS, CLASS_OF, COUNTS, DECK_OF, FLAG_ONE, FLAG_SHIFT, MASK, N_CLASSES, Move, State

if TYPE_CHECKING:
    from .facts import Facts

#: a pair of face-down positions and the counts of their hideouts by sprint classes
#: (``TaggedQueries.pair_counts``), or None when the passes cannot say
PairCounts = tuple[int, int, dict[Any, Any]]


def composition_counts(comp: int) -> tuple[int, ...]:
    """Cards of each class in a class composition (as :func:`solver.counting.composition_counts`)."""
    return tuple((comp >> (BITS * c)) & MASK for c in range(N_CLASSES))


class OutOfTime(Exception):
    """A count given a deadline ran past it (checked once per position)."""


class TaggedQueries:
    """``pair_counts`` and ``fixed_joint`` from a core's tagged passes (``_tagged``,
    ``_tag_positions``): shared by the Python counter and the compiled one, which
    differ only in how they run the passes."""

    _deadline: float | None = None
    #: the pair counts asked for, by their fixed positions (made by the core)
    _pair_cache: dict[Any, PairCounts | None]

    if TYPE_CHECKING:  # what each core provides
        @property
        def free_cards(self) -> tuple[int, ...]: ...

        def _tag_positions(self) -> list[int] | None: ...

        def _tagged(self, fd: list[int], fixed: dict[int, int], keep: dict[Any, Any]) -> dict[tuple[Any, ...], int]: ...

    @contextmanager
    def _limited(self, deadline: float | None) -> Iterator[None]:
        """The passes made inside check ``deadline``; later ones (a joint asked of a kept
        posterior) have none."""
        self._deadline = deadline
        try:
            yield
        finally:
            self._deadline = None

    def _check_time(self) -> None:
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise OutOfTime

    def pair_counts(self, *fixed: tuple[int, int], deadline: float | None = None) -> PairCounts | None:
        """For a Manhunt node with two face-down positions a < b besides the ``fixed``
        ones ((position, hideout) pairs): ``(a, b, {incs: (first, second)})`` with

        * ``first[(y, inc_a)][z]``: histories with hideout y at a over sprint cards of
          class increment ``inc_a`` (see ``_sprint_options``) and hideout z at b;
        * ``second[(y, inc_b)][z]``: the same with y at b over ``inc_b`` and z at a;

        and ``incs`` the class increments of the sprint cards under the fixed hideouts,
        in the order given (``()`` with none fixed). ``None`` for any other record (see
        ``_tag_positions``).

        One tagged pass (``_tagged``) keeps the hideouts and sprint classes of both a
        and b; each table sums out the sprint classes of the other position.
        """
        if fixed in self._pair_cache:
            return self._pair_cache[fixed]
        with self._limited(deadline):
            got = self._pair_cache[fixed] = self._pair_counts(dict(fixed))
        return got

    def _pair_counts(self, fixed: dict[int, int]) -> PairCounts | None:
        fd = self._tag_positions()
        if fd is None or len(fd) != len(fixed) + 2 or not fixed.keys() <= set(fd):
            return None
        a, b = [q for q in fd if q not in fixed]
        at = [fd.index(q) for q in fixed]  # where the fixed positions' tags are in a key
        ia, ib = fd.index(a), fd.index(b)
        out: dict[tuple[int, ...], tuple[dict[tuple[int, int], dict[int, int]], dict[tuple[int, int], dict[int, int]]]] = {}
        keep = {a: (True, True), b: (True, True)}
        for q in fixed:
            keep[q] = (False, True)
        for key, n in self._tagged(fd, fixed, keep).items():
            incs = tuple(key[t][0] for t in at)
            tables = out.get(incs)
            if tables is None:
                tables = out[incs] = ({}, {})
            (ha, inc_a), (hb, inc_b) = key[ia], key[ib]
            row = tables[0].setdefault((ha, inc_a), {})
            row[hb] = row.get(hb, 0) + n
            row = tables[1].setdefault((hb, inc_b), {})
            row[ha] = row.get(ha, 0) + n
        return a, b, out

    def pair_shares(self, hit: tuple[int, int], at: tuple[int, int],
                    deadline: float | None = None) -> PairCounts | None:
        """``pair_counts(hit, at)`` with every count divided by the sprint sets of the
        hit's class composition that the free cards allow besides the hit's hideout, the
        hideout at ``at`` and the two of its row: the histories of *one* sprint set of
        that composition under the hit (sprint cards of one class are interchangeable
        once the hideouts are fixed, so each such set has an equal share). The Manhunt
        planner values the guesses of a child it derives from its parent this way."""
        key = ("shares", hit, at)
        if key in self._pair_cache:
            return self._pair_cache[key]
        with self._limited(deadline):
            got = self._pair_cache[key] = self._pair_shares(hit, at)
        return got

    def _pair_shares(self, hit: tuple[int, int], at: tuple[int, int]) -> PairCounts | None:
        got = self._pair_counts(dict((hit, at)))
        if got is None:
            return None
        a, b, by_incs = got
        pool = self.free_cards
        shares: dict[Any, Any] = {}
        out: dict[Any, Any] = {}
        for (inc_hit, inc), tables in by_incs.items():
            need = composition_counts(inc_hit)
            mine: tuple[dict[Any, Any], dict[Any, Any]] = ({}, {})
            for which, table in enumerate(tables):
                for row_key, row in table.items():
                    x2 = row_key[0]
                    got_row = mine[which][row_key] = {}
                    for y, n in row.items():
                        key = (inc_hit, CLASS_OF[x2], CLASS_OF[y])
                        k = shares.get(key)
                        if k is None:
                            k = 1
                            for c in range(N_CLASSES):
                                if need[c]:
                                    free = pool[c] - sum(1 for h in (hit[1], at[1], x2, y) if CLASS_OF[h] == c)
                                    k *= comb(free, need[c])
                            shares[key] = k
                        q, rem = divmod(n, k)
                        assert rem == 0, "sprint sets of one class composition must count alike"
                        got_row[y] = q
            out[(inc_hit, inc)] = mine
        return a, b, out

    def fixed_joint(self, p: int, x: int, deadline: float | None = None) -> dict[int, dict[tuple[int, ...], int]] | None:
        """For a Manhunt node (see ``_tag_positions``) and hideout x at its face-down
        position p: class increment of p's sprint cards -> tuple of the other face-down
        hideouts (in position order) -> histories. ``None`` for any other record."""
        fd = self._tag_positions()
        if fd is None or p not in fd:
            return None
        keep = {i: (True, False) for i in fd}
        keep[p] = (False, True)
        t = fd.index(p)
        out: dict[Any, Any] = {}
        with self._limited(deadline):
            tagged = self._tagged(fd, {p: x}, keep)
        for key, n in tagged.items():
            row = out.setdefault(key[t][0], {})
            hideouts = tuple(part[0] for u, part in enumerate(key) if u != t)
            row[hideouts] = row.get(hideouts, 0) + n
        return out


class PlannerQueries(TaggedQueries):
    """The Manhunt planner's queries on the Python counter's passes (mixed into
    :class:`solver.count.Counter`)."""

    # what the Python counter (solver.count.Counter, the one class that inherits this)
    # holds and does, for the queries below
    facts: Facts
    n: int
    lo: list[int]
    hi: list[int]
    _D: int
    _all_flags: int
    _flag_low: list[int]
    _flag_clear: list[bool]
    _steps: list[tuple[int, int, str]]
    _layers: list[dict[State, int]] | None
    _betas: list[dict[Any, Any]]
    _prefixes: dict[int, dict[Any, Any]]
    _tag_betas: dict[State, int]

    if TYPE_CHECKING:
        def marginals(self, deadline: float | None = None) -> tuple[int, list[dict[int, int]]]: ...

        def _closing(self, r: int, H: int) -> int: ...

        def _cross(self, i: int, j: int, kind: str, layer: dict[Any, Any]) -> tuple[dict[Any, Any], dict[Any, Any]]: ...

        def _end(self, state: State) -> tuple[int, int]: ...

        def _escape_moves(self, i: int, layer: Iterable[State]) -> Iterator[tuple[State, int, int]]: ...

        def _face_up_moves(self, i: int, j: int, layer: Iterable[State]) -> Iterator[Move]: ...

        def _flags_after(self, i: int, h: int, x: int, H: int, H2: int) -> int: ...

        def _hideout_options(self, i: int, G2: int) -> list[tuple[int, int, int, int, int]]: ...

        def _regular(self, i: int) -> bool: ...

        def _revealed(self, i: int) -> bool: ...

        def _sprint_options(self, i: int, G: int) -> list[tuple[int, int, int]]: ...

    def _moves_from(self, i: int, h: int, G: int, H: int,
                    only: int = 0) -> Iterator[tuple[int, int, State, int, bool]]:
        """Every way one state crosses the face-down position i (not the last):
        ``(class increment of the sprint cards, hideout y, successor, weight, whether it
        leaves the open deck)``; a move that leaves it is still to be divided by the
        deck's closing. For the questions that follow single states (the per-state
        loops below), not for whole layers (the grouped half-steps). ``only``: the
        hideout, when it is fixed."""
        k = self.facts.positions[i - 1].sprints
        cap, low = self.hi[i], self.lo[i]
        flagged = H >= FLAG_ONE
        flag_low, clear = self._flag_low[i], self._flag_clear[i]
        r_open = DECK_OF[h]
        steps = rules.max_gaps(k)
        for inc, evens, wo in self._sprint_options(i, G):
            G2 = G + inc
            reach = min(h + steps[evens], cap)
            if only and only > reach:
                continue
            for y, y_inc, bit, r, wt in self._hideout_options(i, G2):
                if y > reach:
                    break
                if y <= h or y < low or (only and y != only):
                    continue
                H2 = bit + (H & ~COUNTS) if r != r_open else H + bit
                if flagged and (y >= flag_low or clear):
                    H2 = self._flags_after(i, h, y, H, H2)
                    if H2 < 0:
                        continue
                yield inc, y, (y, G2 + y_inc, H2), wo * wt, r != r_open

    def sprint_classes(self, i: int, deadline: float | None = None) -> dict[int, set[int]]:
        """For a face-down position i with hidden sprint cards (not the last position):
        number x -> the class increments (see ``_sprint_options``) of the sprint sets
        that lie under hideout x at position i in at least one consistent history.

        A reveal of x at i over a sprint set of any other class composition fits no
        history, so the Manhunt planner need not count it. Made from the stored forward
        and backward values: a state of layer i - 1 with a forward weight, one sprint
        option, one hideout, and a successor with a backward value.
        """
        if not self._regular(i):
            raise ValueError(f"position {i} is not a face-down position before the last")
        self.marginals(deadline)
        assert self._layers is not None  # kept by the marginals
        layer, beta = self._layers[i - 1], self._betas[i]
        out: dict[int, set[int]] = {}
        with self._limited(deadline):
            for (h, G, H), a in layer.items():
                if not a:
                    continue
                self._check_time()
                for inc, x, s2, _, _ in self._moves_from(i, h, G, H):
                    if beta.get(s2):
                        out.setdefault(x, set()).add(inc)
        return out

    def _tag_positions(self) -> list[int] | None:
        """The face-down positions, when the tagged passes below apply to this record (a
        Manhunt node): none of them the last, only face-up positions between them, and
        one state before the first (the positions before it are face up). Else None."""
        fd = [q.index for q in self.facts.positions if q.face_down]
        if not fd or fd[-1] >= self.n:
            return None
        if any(not self._revealed(i) for i in range(fd[0] + 1, fd[-1]) if i not in fd):
            return None
        return fd if len(self._prefix_layer(fd[0])) == 1 else None

    def _prefix_layer(self, first: int) -> dict[Any, Any]:
        """The layer before position ``first``, crossing only the steps before it (a
        tagged pass starts there and needs nothing else of the forward pass)."""
        if self._layers is not None:
            return self._layers[first - 1]
        layer = self._prefixes.get(first)
        if layer is None:
            layer = {(0, 0, self._all_flags << FLAG_SHIFT): 1}
            for i, j, kind in self._steps:
                if j >= first:
                    break
                layer = self._cross(i, j, kind, layer)[1]
            self._prefixes[first] = layer
        return layer

    def _tagged(self, fd: list[int], fixed: dict[int, int], keep: dict[Any, Any]) -> dict[tuple[Any, ...], int]:
        """Counts of histories with the hideouts ``fixed`` asks for (position -> hideout)
        by tag: for each face-down position in ``fd`` (in order) the part ``keep`` asks
        for, (hideout if keep[i][0]) + (class increment of its sprint cards if keep[i][1]).

        A forward pass over the face-down positions from the one state before the
        first, each state carrying the summed weights of its tags; the last position
        is crossed against the backward values of the states after it
        (``_suffix_beta``). It needs no other pass.
        """
        ((s0, w0),) = self._prefix_layer(fd[0]).items()
        cur: dict[Any, Any] = {s0: {(): w0}}
        betas = self._tag_betas
        out: dict[Any, Any] = {}
        closing = self._closing
        for t, i in enumerate(fd):
            last = t == len(fd) - 1
            if t and i > fd[t - 1] + 1:  # the face-up positions between
                nxt: dict[Any, Any] = {}
                for s, s2, wt, div in self._face_up_moves(fd[t - 1] + 1, i - 1, cur):
                    if s2 is not None:
                        got = nxt.setdefault(s2, {})
                        for tag, w in cur[s].items():
                            v = w * wt // div if div != 1 else w * wt
                            got[tag] = got.get(tag, 0) + v
                cur = nxt
            keep_h, keep_inc = keep[i]
            only = fixed.get(i, 0)
            nxt = {}
            for (h, G, H), tags in cur.items():
                self._check_time()
                for inc, y, s2, f, leaves in self._moves_from(i, h, G, H, only):
                    if last:
                        bv = betas.get(s2)
                        if bv is None:
                            bv = betas[s2] = self._suffix_beta(i, s2)
                        if not bv:
                            continue
                        f *= bv
                    div = closing(DECK_OF[h], H) if leaves else 1
                    part = ((y,) if keep_h else ()) + ((inc,) if keep_inc else ())
                    into = out if last else nxt.setdefault(s2, {})
                    for tag, w in tags.items():
                        key = tag + (part,)
                        v = w * f // div if div != 1 else w * f
                        into[key] = into.get(key, 0) + v
            cur = nxt
        D = self._D
        for key, v in out.items():
            q, rem = divmod(v, D)
            assert rem == 0
            out[key] = q
        return out

    def _suffix_beta(self, last: int, s: tuple[int, int, int]) -> int:
        """The backward value (scaled by D, as in ``marginals``) of a state after the
        last face-down position ``last``: one path over the face-up positions after it
        (one successor each), then the escape's sprint cards and the end."""
        chain = []
        for i, j, kind in self._steps:
            if i <= last:
                continue
            if kind == "face-up":
                ((_, s2, wt, div),) = self._face_up_moves(i, j, (s,))
                if s2 is None:
                    return 0
                chain.append((wt, div))
                s = s2
                continue
            if kind != "escape":
                raise ValueError(f"position {i} after the last face-down position is face down")
            ((_, phi, div),) = self._escape_moves(i, (s,))
            b = phi * self._D // div
            break
        else:  # the row ends face up
            num, div = self._end(s)
            b = num * (self._D // div)
        for wt, div in reversed(chain):
            b = wt * b // div
        return b
