"""Drawing hidden histories exactly: ``solver.sample(record, rng)``.

The counter of :mod:`solver.count` sums the weights of all consistent hidden
histories (docs/model.md) in a forward pass over the row. Its forward values
``alpha(s)`` (the summed weight of the paths that reach state ``s``) are all a sampler
needs: going *backward* from the end, a state ``s'`` is reached from a predecessor
``s`` by a transition of weight ``t`` with probability ``alpha(s) * t / alpha(s')``,
so the product of those choices is the weight of the whole path over the total (the
alphas telescope). No rejection, no floats: each choice is ``rng.randrange`` over the
exact integer weights of its candidates.

The dynamic program tells sprint cards apart only by *class* (deck x parity), so the
backward pass draws the hideouts and each position's class composition of sprint
cards. The rest is uniform given those, because its count does not depend on which
cards were chosen (docs/model.md, "Counting hint"):

* the sprint cards of each class: a uniformly random assignment of distinct free
  cards of the class that are not face-down hideouts of the drawn route;
* each deck's draw list: the used cards in order of their deadline, each in a
  uniformly random free slot among the first ``a(c)`` (there are ``a(c) - j`` of
  them, the counting hint's factor), then the other slots filled in a uniformly
  random order from the deck's cards neither used nor the Marshal's.

The result is a full record (docs/record.md) whose Marshal's view is the input.

The other direction, :func:`sample_marshal_hand`: what the Fugitive does not know is
the Marshal's hand, and the decks are shuffled uniformly, each on its own, so by
exchangeability her cards from deck d are a uniformly random ordered choice among the
cards of d he never held. Like the solver's measure it reads nothing into her
choices (a Marshal who never guesses a card she holds does say a little).

Sampling runs on the Python counter (the readable reference core): the compiled
core does not hand out its forward values. A :class:`HistorySampler` keeps the
counter and the candidates of every state it has gone through, so many samples of
one record cost little more than one.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from math import comb, lcm
from typing import Any, Callable, Iterator, Sequence, cast

from engine import rules
from engine.cards import DECKS, ESCAPE, SETUP_DRAWS
from engine.record import Event, FugitiveDraw, MarshalDraw, Place, Record
from ._packing import (BITS, CLASS_MEMBERS, CLASS_OF, COUNTS, DECK_OF, FLAG_ONE, MASK, N_CLASSES, deck_used, falling)
from .count import Counter
from .exact import as_record
from .facts import Facts, extract


class NoHistory(ValueError):
    """The record has no consistent hidden history: there is nothing to sample."""


#: a state of the counter's dynamic program: (previous hideout, class usage G, H)
State = tuple[int, int, int]
#: the predecessors of a state and their weights (integers or exact fractions)
Candidates = tuple[list[Any], list[Any]]

@dataclass(frozen=True)
class HiddenHistory:
    """One hidden history (docs/model.md): the row's numbers, the sprint cards under
    every position, and each deck's draw list (setup draws first)."""

    hideouts: tuple[int, ...]  # position 1..n (face-up ones included; 42 for the escape)
    sprint_cards: tuple[tuple[int, ...], ...]  # per position, ascending
    draw_lists: dict[int, tuple[int, ...]]  # deck 1-3 -> the Fugitive's draws from it, in order


def _pick(rng: random.Random, weights: Sequence[int | Fraction]) -> int:
    """An index drawn with probability weights[i] / sum(weights), exactly (integers or
    Fractions; Fractions are brought to integers over their common denominator)."""
    if any(isinstance(w, Fraction) for w in weights):
        den = lcm(*(Fraction(w).denominator for w in weights))
        ints: Sequence[int] = [int(w * den) for w in weights]
    else:
        ints = cast("Sequence[int]", weights)
    total = sum(ints)
    if total <= 0:
        raise AssertionError("a sampling step with no weight: the counter and the sampler disagree")
    r = rng.randrange(total)
    for i, w in enumerate(ints):
        if r < w:
            return i
        r -= w
    raise AssertionError("unreachable")


def _ratio(num: int, div: int) -> int | Fraction:
    q, rem = divmod(num, div)
    return q if not rem else Fraction(num, div)


class HistorySampler:
    """Draws consistent hidden histories of one Marshal's record with their exact
    probabilities (see the module docstring). Build once, call :meth:`history` or
    :meth:`record` many times."""

    def __init__(self, record: Record):
        self.public = record.marshal_view()
        self.facts: Facts = extract(self.public)
        self.counter = Counter(self.facts)
        c = self.counter
        self.layers = c.forward(backward=True)
        assert c._inters is not None  # the backward pass keeps them
        self.inters = c._inters
        self.n = c.n
        self._cache: dict[tuple[object, ...], Candidates] = {}
        self._by_h_H: dict[int, dict[tuple[int, int], list[State]]] = {}
        self._by_G: dict[int, dict[int, list[tuple[int, int, int, int]]]] = {}
        # the end of the row: the last layer's states, weighted by their end factor
        ends, weights = [], []
        for s, w in self.layers[self.n].items():
            num, div = c._end(s)
            v = _ratio(w * num, div)
            if v:
                ends.append(s)
                weights.append(v)
        if not ends:
            raise NoHistory("no hidden history fits this record: nothing to sample")
        self._ends = (ends, weights)

    # ------------------------------------------------------------------ phase A
    def _choose(self, rng: random.Random, key: tuple[object, ...], make: Callable[[], Candidates]) -> Any:
        got = self._cache.get(key)
        if got is None:
            got = self._cache[key] = make()
            if not got[0]:
                raise AssertionError(f"no predecessor for {key}: the counter and the sampler disagree")
        items, weights = got
        return items[_pick(rng, weights)]

    def _route(self, rng: random.Random) -> tuple[list[int | None], list[tuple[int, ...] | None]]:
        """Backward through the steps: (hideout per position, class counts of the hidden
        sprint cards per position or None), each by index 1..n."""
        c = self.counter
        hide: list[int | None] = [None] * (self.n + 1)
        comps: list[tuple[int, ...] | None] = [None] * (self.n + 1)
        ends, weights = self._ends
        cur = ends[_pick(rng, weights)]
        for p in self.facts.positions:
            if not p.face_down:
                hide[p.index] = p.hideout
        for step_no in range(len(c._steps) - 1, -1, -1):
            i, j, kind = c._steps[step_no]
            if kind == "face-up":
                cur = self._choose(rng, ("up", step_no, cur), lambda: self._face_up_candidates(i, j, cur))
            elif kind == "regular":
                hide[i] = cur[0]
                inter = self._choose(rng, ("x", i, cur), lambda: self._hideout_candidates(i, cur))
                cur, inc = self._choose(rng, ("s", i, inter), lambda: self._sprint_candidates(i, inter))
                comps[i] = _counts(inc)
            elif kind == "last":
                hide[i] = cur[0]
                cur, G2, need = self._choose(rng, ("last", i, cur), lambda: self._last_candidates(i, cur))
                comps[i] = self._choose(rng, ("end", i, G2, need), lambda: self._end_candidates(i, G2, need))
            else:  # the escape
                cur, G, need = self._choose(rng, ("esc", i), lambda: self._escape_candidates(i))
                comps[i] = self._choose(rng, ("end", i, G, need), lambda: self._end_candidates(i, G, need))
        assert cur == (0, 0, cur[2]), cur
        return hide, comps

    def _face_up_candidates(self, i: int, j: int, target: State) -> Candidates:
        layer = self.layers[i - 1]
        items, weights = [], []
        for s, s2, wt, div in self.counter._face_up_moves(i, j, layer):
            if s2 == target:
                v = _ratio(layer[s] * wt, div)
                if v:
                    items.append(s)
                    weights.append(v)
        return items, weights

    def _hideout_candidates(self, i: int, target: State) -> Candidates:
        """The states between the half-steps from which hideout x = target[0] leads to target."""
        c = self.counter
        x, G3, H3 = target
        G2 = G3 - (1 << (BITS * CLASS_OF[x]))
        option = next(o for o in c._hideout_options(i, G2) if o[0] == x)
        _, inc, bit, r, wt = option
        groups = self._by_G.get(i)
        if groups is None:
            groups = self._by_G[i] = {}
            for key in self.inters[i]:
                groups.setdefault(key[1], []).append(key)
        low = c.lo[i]
        flag_low, clear = c._flag_low[i], c._flag_clear[i]
        items, weights = [], []
        for key in groups.get(G2, ()):
            h, _, H, reach = key
            if not (h < x <= reach and x >= low):
                continue
            r_open = DECK_OF[h]
            if r != r_open:
                H2, div = bit + (H & ~COUNTS), c._closing(r_open, H)
            else:
                H2, div = H + bit, 1
            if H >= FLAG_ONE and (x >= flag_low or clear):
                H2 = c._flags_after(i, h, x, H, H2)
                if H2 < 0:
                    continue
            if H2 != H3:
                continue
            v = _ratio(self.inters[i][key] * wt, div)
            if v:
                items.append(key)
                weights.append(v)
        return items, weights

    def _sprint_candidates(self, i: int, inter: tuple[int, int, int, int]) -> Candidates:
        """The states before position i (and their sprint class increments) that lead to ``inter``."""
        c = self.counter
        h, G2, H, reach = inter
        k = self.facts.positions[i - 1].sprints
        cap = c.hi[i]
        index = self._by_h_H.get(i)
        if index is None:
            index = self._by_h_H[i] = {}
            for s in self.layers[i - 1]:
                index.setdefault((s[0], s[2]), []).append(s)
        items, weights = [], []
        steps = rules.max_gaps(k)
        for s in index.get((h, H), ()):
            G = s[1]
            for inc, evens, wo in c._sprint_options(i, G):
                if G + inc != G2:
                    continue
                table = c._hideout_entry(i, G2)[1]
                t = h + steps[evens]
                if table[t if t < cap else cap] == reach:
                    items.append((s, inc))
                    weights.append(self.layers[i - 1][s] * wo)
        return items, weights

    def _last_candidates(self, i: int, target: State) -> Candidates:
        """The last position (face down): the states before it and the usage and evens
        its sprint cards start from, for hideout x = target[0] (mirrors Counter._finish)."""
        c = self.counter
        x = target[0]
        k = self.facts.positions[i - 1].sprints
        base, most = rules.max_gap(rules.footprints(k)), rules.max_gap(rules.footprints(k, evens=k))
        low, cap = c.lo[i], c.hi[i]
        flag_low, clear = c._flag_low[i], c._flag_clear[i]
        layer = self.layers[i - 1]
        items, weights = [], []
        for s, w in layer.items():
            h, G, H = s
            if not (h < x and x >= low and x <= min(h + most, cap)):
                continue
            option = next((o for o in c._hideout_options(i, G) if o[0] == x), None)
            if option is None:
                continue
            _, inc, bit, r, wt = option
            need = x - h - base
            vec = c._end_weights_cached(i, G + inc)
            if need >= len(vec):
                continue
            phi = vec[need if need > 0 else 0]
            if not phi:
                continue
            if H >= FLAG_ONE and (x >= flag_low or clear) and c._flags_after(i, h, x, H, 0) < 0:
                continue
            r_open = DECK_OF[h]
            if r != r_open:
                div = c._closing(r_open, H) * c._closing(r, bit)
            else:
                div = c._closing(r, (H & COUNTS) + bit)
            items.append((s, G + inc, need))
            weights.append(_ratio(w * wt * phi, div))
        return items, weights

    def _escape_candidates(self, i: int) -> Candidates:
        c = self.counter
        layer = self.layers[i - 1]
        k = self.facts.positions[i - 1].sprints
        base = ESCAPE - rules.max_gap(rules.footprints(k))  # base - h: the evens the last gap needs
        items, weights = [], []
        for s, phi, div in c._escape_moves(i, layer):
            if phi:
                items.append((s, s[1], base - s[0]))
                weights.append(_ratio(layer[s] * phi, div))
        return items, weights

    def _end_candidates(self, i: int, G: int, need: int) -> Candidates:
        """The class counts of the last position's sprint cards (with at least ``need``
        evens), weighted by their sets, draw slots and the unused draw slots of the end
        (the terms of Counter._end_weights, one composition at a time)."""
        c = self.counter
        k = self.facts.positions[i - 1].sprints
        slots = c.slots[i]
        before = c.revealed_before[i - 1]
        after = c.revealed_before[self.n]
        per_deck = []
        for r in range(4):
            fo = c.pool[2 * r] - ((G >> (BITS * 2 * r)) & MASK)
            fe = c.pool[2 * r + 1] - ((G >> (BITS * (2 * r + 1))) & MASK)
            used = deck_used(G, r)
            per_deck.append((fo, fe, slots[r] - used - before[r] if r else 0, used + after[r] if r else 0))
        items, weights = [], []
        for counts in _compositions(k, N_CLASSES):
            if sum(counts[1::2]) < max(need, 0):
                continue
            w = 1
            for r, (fo, fe, room, used) in enumerate(per_deck):
                mo, me = counts[2 * r], counts[2 * r + 1]
                m = mo + me
                w *= comb(fo, mo) * comb(fe, me)
                if r and w:
                    rest = self.facts.draws[r] - used - m
                    w *= falling(room, m) * (falling(c.deck_free[r] - used - m, rest) if rest >= 0 else 0)
                if not w:
                    break
            if w:
                items.append(counts)
                weights.append(w)
        # the counter summed exactly these terms (its end weight by at-least-evens)
        assert sum(weights) == c._end_weights_cached(i, G)[max(need, 0)], "the sampler's end terms disagree"
        return items, weights

    # ------------------------------------------------------------------ phase B
    def history(self, rng: random.Random) -> HiddenHistory:
        """One consistent hidden history, drawn with its exact probability."""
        facts = self.facts
        hide, comps = self._route(rng)
        excluded = facts.known_cards | facts.marshal_cards
        face_down = {hide[p.index] for p in facts.positions if p.face_down}
        # the sprint cards, class by class: a uniform assignment of distinct free cards
        sprint: list[list[int]] = [[] for _ in range(self.n + 1)]
        for cls in range(N_CLASSES):
            wanted = [(i, comp[cls]) for i, comp in enumerate(comps) if i >= 1 and comp is not None and comp[cls]]
            if not wanted:
                continue
            free = [x for x in CLASS_MEMBERS[cls] if x not in excluded and x not in face_down]
            chosen = iter(rng.sample(free, sum(m for _, m in wanted)))
            for i, m in wanted:
                sprint[i].extend(next(chosen) for _ in range(m))
        sprint_cards = []
        for p in facts.positions:
            cards = p.sprint_cards if p.sprint_cards is not None else tuple(sorted(sprint[p.index]))
            assert len(cards) == p.sprints
            sprint_cards.append(tuple(cards))
        # each deck's draw list: used cards by deadline, each in a uniform free slot
        # among its first a(c); then the rest from the cards neither used nor hers
        used_by_deck: dict[int, list[tuple[int, int]]] = {1: [], 2: [], 3: []}
        hideouts = tuple(h for h in hide[1:] if h is not None)
        assert len(hideouts) == self.n, "a position without its hideout: the counter and the sampler disagree"
        for p, cards in zip(facts.positions, sprint_cards):
            h = hideouts[p.index - 1]
            for card in cards + ((h,) if h != ESCAPE else ()):
                r = DECK_OF[card]
                if r:
                    used_by_deck[r].append((facts.slots_at(r, p.turn), card))
        draw_lists: dict[int, tuple[int, ...]] = {}
        for r in (1, 2, 3):
            d = facts.draws[r]
            slots: list[int | None] = [None] * d
            for a, card in sorted(used_by_deck[r]):
                free = [s for s in range(min(a, d)) if slots[s] is None]
                assert free, "a used card without a draw slot: the counter and the sampler disagree"
                slots[free[rng.randrange(len(free))]] = card
            used = {card for _, card in used_by_deck[r]}
            others = [x for x in DECKS[r] if x not in used and x not in facts.marshal_cards]
            fill = iter(rng.sample(others, slots.count(None)))
            draw_lists[r] = tuple(s if s is not None else next(fill) for s in slots)
        return HiddenHistory(hideouts, tuple(sprint_cards), draw_lists)

    def record(self, rng: random.Random) -> Record:
        """One consistent hidden history as a full record whose Marshal's view is the input."""
        return full_record(self.public, self.history(rng))


def full_record(public: Record, history: HiddenHistory) -> Record:
    """The Marshal's record ``public`` with the hidden fields of ``history`` filled in."""
    lists = history.draw_lists
    setup = tuple(sorted(lists[1][:SETUP_DRAWS[1]] + lists[2][:SETUP_DRAWS[2]] + lists[3][:SETUP_DRAWS[3]]))
    nxt = {r: SETUP_DRAWS[r] for r in (1, 2, 3)}
    position = 0
    events: list[Event] = []
    for e in public.events:
        if isinstance(e, FugitiveDraw):
            events.append(FugitiveDraw(e.deck, lists[e.deck][nxt[e.deck]]))
            nxt[e.deck] += 1
        elif isinstance(e, Place):
            events.append(Place(e.sprints, history.hideouts[position], history.sprint_cards[position]))
            position += 1
        else:
            events.append(e)
    return Record(tuple(events), public.ruleset, setup)


def _counts(inc: int) -> tuple[int, ...]:
    return tuple((inc >> (BITS * c)) & MASK for c in range(N_CLASSES))


def _compositions(k: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every tuple of ``parts`` non-negative integers summing to k."""
    if parts == 1:
        yield (k,)
        return
    for first in range(k + 1):
        for rest in _compositions(k - first, parts - 1):
            yield (first,) + rest


def sample(record: Any, rng: random.Random) -> Record:
    """One consistent hidden history of a Marshal's record (a Record, dict, JSON text or
    path; a full record is projected first), drawn with exactly the probability
    docs/model.md gives it, as a full record whose Marshal's view is the input.
    Raises :class:`NoHistory` when no history fits. For many samples of one record,
    build a :class:`HistorySampler` once."""
    return HistorySampler(as_record(record)).record(rng)


def sample_marshal_hand(record: Any, rng: random.Random) -> Record:
    """The Fugitive's side: a full record with the Marshal's cards drawn anew.

    What the Fugitive knows is the full record without the Marshal's card numbers
    (he sees the deck of each of her draws). Her cards of deck d are drawn as a
    uniformly random ordered choice among the cards of d he never held (not in his
    setup, draws or row), the decks independent: his exact posterior under uniform
    shuffles. The result keeps every other field of ``record``.
    """
    record = as_record(record)
    if not record.is_full:
        raise ValueError("sample_marshal_hand needs the Fugitive's full record (with fugitive_setup)")
    his: set[int] = set(record.fugitive_setup)
    for e in record.events:
        if isinstance(e, FugitiveDraw) and e.card is not None:
            his.add(e.card)
        elif isinstance(e, Place):
            if e.hideout is not None:
                his.add(e.hideout)
            his.update(e.sprint_cards or ())
    draws = [DECK_OF[e.card] for e in record.events if isinstance(e, MarshalDraw)]
    picks = {}
    for r in (1, 2, 3):
        unseen = [x for x in DECKS[r] if x not in his]
        picks[r] = iter(rng.sample(unseen, draws.count(r)))
    events = tuple(MarshalDraw(next(picks[DECK_OF[e.card]])) if isinstance(e, MarshalDraw) else e
                   for e in record.events)
    return Record(events, record.ruleset, record.fugitive_setup)


__all__ = ["sample", "sample_marshal_hand", "HistorySampler", "HiddenHistory", "NoHistory", "full_record"]
