"""Guess advice for the Marshal's normal turn.

Candidates
----------
Single numbers (the most likely face-down hideouts), the set of all *certain*
numbers, the certain numbers plus one uncertain number, pairs of the most likely
uncertain numbers, and (``any_size``: the app's suggestion panel) the set of any size
that reveals the most hideouts on average (:func:`best_of_any_size`, the search the
Marshal's coach grades her guesses by, with the same budget: so the first suggestion
by ``expected_reveals`` is the coach's best guess). A guess is all-or-nothing (docs/rules.md), so a set is only as good as
the chance that every number of it hits.

Criteria (every figure is stated per suggestion)
-----------------------------------------------
``p_hit``
    exact probability that every number is a face-down hideout now
    (``Posterior.joint``; a ratio of history counts).
``expected_reveals``
    ``p_hit * len(numbers)``: expected number of hideouts turned face up.
``information_bits``
    expected entropy reduction of the (uniform) posterior over hidden histories, which
    equals the entropy of the outcome. For a single number the outcome partition used
    is *miss* / *hit at position p* for every face-down position p, computed exactly
    from the per-position counts. The identities of the sprint cards that a hit also
    shows are **not** resolved, so the figure is an exact value for the
    position-resolved outcome and a lower bound on the information of the full reveal
    (``information_exact`` is False to say so). For a set of several numbers only
    hit / miss is resolved (again a lower bound).
``lookahead``
    expected hideouts revealed by this guess and by the best *single* guess right after
    it, where that next guess is chosen knowing only hit/miss of this one, and the
    Fugitive's move in between is ignored: ``E[reveals] + P(hit) max_y P(y | hit)
    + P(miss) max_y P(y | miss)``, with ``P(y | hit) = J(G+y)/J(G)`` and
    ``P(y | miss) = (P(y) - J(G+y)) / (1 - J(G))``, exact joint probabilities over the
    ``lookahead_width`` most likely numbers y (and every certain number).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import combinations
from math import log2
from typing import Callable, Container, Iterable

from engine.record import Record
from solver.posterior import Posterior

from .cache import joint, solve_cached

ORDER = ("expected_reveals", "p_hit", "information_bits", "lookahead")

#: the best set's search computes at most this many joint probabilities per size (then
#: the best set found is the best of those searched, and the grade says so)
MAX_SETS = 4000


# --------------------------------------------------------------------------- best sets
@dataclass(frozen=True)
class BestSet:
    numbers: tuple[int, ...]
    p: Fraction
    exact: bool  #: False: the search stopped at MAX_SETS joints (the best of those)
    searched: int  #: joint probabilities computed


def best_set(post: Posterior, k: int, exclude: Iterable[int] = (), max_sets: int = MAX_SETS,
             floor: Fraction | None = None) -> BestSet:
    """The ``k`` numbers most likely to be face-down hideouts all together (the best
    guess of ``k`` numbers), by branch and bound over the numbers in descending order
    of probability: a set is never more likely than any of its numbers, nor than any
    of its subsets, so a branch whose bound (the smaller of the joint so far and the
    next number's own probability) cannot beat the best found is left. ``floor``: only
    a set more likely than it is wanted (no numbers when there is none), so branches
    that cannot pass it are left from the start."""
    exclude = frozenset(exclude)
    cands = sorted((x for x, c in post.number_counts.items() if c and x not in exclude),
                   key=lambda x: (-post.number_counts[x], x))
    if k < 1 or len(cands) < k:
        return BestSet((), Fraction(0), True, 0)
    probs = [post.probability(x) for x in cands]
    best_numbers: tuple[int, ...] = ()
    best_p = Fraction(-1) if floor is None else floor
    searched = 0
    stopped = False

    def grow(start: int, chosen: tuple[int, ...], p: Fraction) -> None:
        nonlocal best_numbers, best_p, searched, stopped
        if len(chosen) == k:
            if p > best_p:
                best_numbers, best_p = chosen, p
            return
        for j in range(start, len(cands) - (k - len(chosen)) + 1):
            if min(p, probs[j]) <= best_p:
                return  # the numbers after j are no more likely than j
            if searched >= max_sets:
                stopped = True
                return
            nxt = chosen + (cands[j],)
            q = probs[j] if len(nxt) == 1 else joint(post, nxt)
            searched += len(nxt) > 1
            if q > best_p:
                grow(j + 1, nxt, q)

    grow(0, (), Fraction(1))
    if not best_numbers and floor is not None:
        return BestSet((), Fraction(0), not stopped, searched)
    if not best_numbers:
        return BestSet(tuple(sorted(cands[:k])), Fraction(0), not stopped, searched)
    return BestSet(tuple(sorted(best_numbers)), best_p, not stopped, searched)


@dataclass(frozen=True)
class BestGuess:
    """The guess that reveals the most hideouts on average."""

    numbers: tuple[int, ...]
    p: float  #: its chance to hit
    exact: bool  #: False: a size's search stopped at MAX_SETS joints

    @property
    def reveals(self) -> float:
        return self.p * len(self.numbers)


def best_of_any_size(post: Posterior, hand: Iterable[int] = (), max_sets: int = MAX_SETS) -> BestGuess:
    """The best guess of any size by expected reveals (see the module docstring)."""
    hand = frozenset(hand)
    probs = sorted((post.probability(x) for x, c in post.number_counts.items() if c and x not in hand), reverse=True)
    best: tuple[Fraction, Fraction, tuple[int, ...]] = (Fraction(-1), Fraction(0), ())
    exact = True
    for k in range(1, min(post.face_down_count, len(probs)) + 1):
        if k * probs[k - 1] <= best[0]:
            continue  # no k numbers can reveal more on average
        # only a set more likely than best / k can reveal more: the search starts there
        found = best_set(post, k, hand, max_sets, floor=best[0] / k if best[0] > 0 else None)
        exact &= found.exact
        if found.numbers and k * found.p > best[0]:
            best = (k * found.p, found.p, found.numbers)
    return BestGuess(best[2], float(best[1]), exact)




@dataclass(frozen=True)
class Suggestion:
    """One candidate guess with its figures and a one-line reason."""

    numbers: tuple[int, ...]
    p_hit: Fraction
    expected_reveals: float
    information_bits: float
    information_exact: bool
    lookahead: float | None
    reason: str = ""
    #: the reason as a key of REASONS and its arguments, for pages in other languages
    reason_key: str = ""
    reason_args: dict[str, object] = field(default_factory=dict, compare=False)
    #: "exact" or a short note on what a figure leaves out
    notes: tuple[str, ...] = field(default=())

    @property
    def size(self) -> int:
        return len(self.numbers)

    def to_dict(self) -> dict[str, object]:
        return {
            "numbers": list(self.numbers),
            "p_hit": float(self.p_hit),
            "expected_reveals": self.expected_reveals,
            "information_bits": self.information_bits,
            "information_exact": self.information_exact,
            "lookahead": self.lookahead,
            "reason": self.reason,
        }


def _entropy(probs: Iterable[float]) -> float:
    return -sum(p * log2(p) for p in probs if p > 0)


def _pct(p: float | Fraction) -> str:
    p = float(p)
    if 0 < p < 0.005:
        return "<1%"
    if 0.995 <= p < 1:
        return ">99%"
    return f"{round(100 * p)}%"


_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def _join(numbers: Iterable[int]) -> str:
    nums = [str(n) for n in numbers]
    if len(nums) == 1:
        return nums[0]
    return ", ".join(nums[:-1]) + " and " + nums[-1]


def single_information(post: Posterior, x: int) -> float:
    """Entropy (bits) of the outcome of guessing x alone: miss, or hit at position p."""
    n = post.histories
    parts = [pp.counts.get(x, 0) for pp in post.positions if not pp.revealed]
    hit = sum(parts)
    return _entropy([(n - hit) / n] + [c / n for c in parts])


#: The reasons in English, the one English of each; ``Suggestion.reason_key`` and
#: ``reason_args`` let a page say the same in another language (the app's catalogues have
#: these keys prefixed with "adv_", and say the parts of :data:`REASON_PHRASES` the same way).
REASONS = {
    "certain": "{nums} {verb} certain: reveals {words} hideout{s} for sure{win}",
    "certain_plus": "{cert} {verb} certain; adding {unc} ({p}) reveals {words} hideouts if it hits{win}",
    "single": "{x} is the most likely hideout left ({p}{spot}){win}",
    "cannot": "{x} cannot hit",
    "multi": "{nums}: all hideouts with probability {p}; {words} reveals if it hits{win}",
}

#: Parts of the reasons: ``win`` when the guess would win the game, ``spot`` where a single
#: number most likely lies.
REASON_PHRASES = {
    "win": " and wins the game",
    "spot": ", most likely at position {pos}",
}


def _reason_parts(numbers: Iterable[int], certain: Container[int], p: Fraction,
                  post: Posterior) -> tuple[str, dict[str, object]]:
    """(key of REASONS, its arguments) for a candidate guess."""
    nums = sorted(numbers)
    cert = [x for x in nums if x in certain]
    unc = [x for x in nums if x not in certain]
    k = len(nums)
    args = {"k": k, "words": _WORDS.get(k, str(k)), "win": k == post.face_down_count, "p": _pct(p),
            "nums": _join(nums), "s": "s" if k > 1 else "",
            "numbers": tuple(nums), "certain": tuple(cert), "uncertain": tuple(unc)}  # to join in other languages
    if not unc:
        return "certain", dict(args, verb="is" if len(cert) == 1 else "are")
    if cert:
        return "certain_plus", dict(args, cert=_join(cert), unc=_join(unc), verb="is" if len(cert) == 1 else "are")
    if k == 1:
        x = nums[0]
        if not p:
            return "cannot", dict(args, x=x)
        where = [pp for pp in post.positions if not pp.revealed and pp.counts.get(x)]
        pos = max(where, key=lambda pp: pp.counts[x]).position if where else None
        return "single", dict(args, x=x, pos=pos)
    return "multi", args


def _reason(numbers: Iterable[int], certain: Container[int], p: Fraction,
            post: Posterior) -> tuple[str, str, dict[str, object]]:
    """(the reason in English, its key, its arguments)."""
    key, args = _reason_parts(numbers, certain, p, post)
    english = dict(
        args,
        win=REASON_PHRASES["win"] if args["win"] else "",
        spot=REASON_PHRASES["spot"].format(pos=args["pos"]) if args.get("pos") else "",
    )
    return REASONS[key].format(**english), key, args


def advise_guesses(
    source: Record | Posterior,
    *,
    hand: Iterable[int] | None = None,
    top: int = 6,
    width: int = 6,
    lookahead: bool = True,
    lookahead_width: int = 3,
    lookahead_top: int = 3,
    order: str = "expected_reveals",
    validate: bool = True,
    any_size: bool = False,
) -> list[Suggestion]:
    """Ranked guess suggestions for the Marshal's normal turn, best first.

    ``source`` is the Marshal's record (rule-checked unless ``validate`` is False,
    solved, cached) or a posterior; ``hand`` her cards (they cannot hit and are never
    suggested): by default, for a record, the cards her record says she drew. ``order`` is one of
    ``expected_reveals`` (default), ``p_hit``, ``information_bits``, ``lookahead``;
    ties are broken by the other figures in that order, then by the smaller set.
    ``any_size``: the guess of any size that reveals the most on average (the coach's
    search, :func:`best_of_any_size`) is a candidate too, so the first suggestion by
    ``expected_reveals`` is the coach's best guess (the app's suggestion panel; the
    bots keep the candidates they were measured with).
    """
    if order not in ORDER:
        raise ValueError(f"order must be one of {', '.join(ORDER)}")
    if isinstance(source, Posterior):
        post = source
    else:
        post = solve_cached(source, validate=validate)
        if hand is None:
            hand = source.marshal_cards
    if not post.consistent:
        raise ValueError(f"the record is inconsistent: {post.reason}")
    hand = frozenset(hand or ())
    probs = {x: post.probability(x) for x, c in post.number_counts.items() if c and x not in hand}
    if not probs:
        return []
    certain = sorted(x for x, p in probs.items() if p == 1)
    uncertain = sorted((x for x, p in probs.items() if p < 1), key=lambda x: (-probs[x], x))
    top_unc = uncertain[:width]

    cands: dict[tuple[int, ...], Fraction] = {}
    for x in (certain[:1] if certain else []) + top_unc:
        cands[(x,)] = probs[x]
    if certain:
        cands[tuple(certain)] = Fraction(1)
        for u in top_unc[:3]:
            cands[tuple(sorted(certain + [u]))] = probs[u]  # certain numbers do not change it
    for a, b in combinations(top_unc[:3], 2):
        cands[tuple(sorted((a, b)))] = joint(post, (a, b))
    # the guess of any size that reveals the most on average, by the coach's own search
    # (one budget, MAX_SETS): the panel's first suggestion is the coach's best guess
    most = best_of_any_size(post, hand) if any_size else None
    if most is not None and most.numbers:
        cands[most.numbers] = probs[most.numbers[0]] if len(most.numbers) == 1 else joint(post, most.numbers)

    ys = certain + uncertain[:lookahead_width]
    out: list[Suggestion] = []
    for nums, p in cands.items():
        if p == 0:
            continue
        k = len(nums)
        er = float(p) * k
        if k == 1:
            info = single_information(post, nums[0])
        else:
            info = _entropy([float(p), 1 - float(p)])
        out.append(
            Suggestion(
                nums, p, er, info, False, None, *_reason(nums, set(certain), p, post),
                notes=("information: sprint card identities not resolved (lower bound)",),
            )
        )
    keys = {
        "expected_reveals": lambda s: (s.expected_reveals, s.p_hit, s.information_bits),
        "p_hit": lambda s: (s.p_hit, s.expected_reveals, s.information_bits),
        "information_bits": lambda s: (s.information_bits, s.expected_reveals, s.p_hit),
        "lookahead": lambda s: (s.lookahead or 0, s.expected_reveals, s.p_hit),
    }
    def rank(items: list[Suggestion], key: Callable[[Suggestion], tuple[float, ...]]) -> list[Suggestion]:
        return sorted(items, key=lambda s: (tuple(-v for v in key(s)), s.size, s.numbers))

    if lookahead:
        # the lookahead costs joint probabilities: compute it for the best few by the
        # immediate figures (all of them when ranking by lookahead)
        pre = rank(out, keys["expected_reveals"])
        n = len(pre) if order == "lookahead" else lookahead_top
        done = [replace(s, lookahead=s.expected_reveals + _next_best(post, s.numbers, s.p_hit, probs, ys)) for s in pre[:n]]
        out = done + pre[n:]
    ranked = rank(out, keys[order])
    if most is not None and most.numbers and order == "expected_reveals":
        # a tie (as many reveals on average, as likely) goes to the coach's own pick, so the
        # first suggestion and the coach's "Better" name one guess
        first = ranked[0]
        mine = next((s for s in ranked if s.numbers == most.numbers), first)
        if mine is not first and (mine.p_hit * mine.size, mine.p_hit) == (first.p_hit * first.size, first.p_hit):
            ranked = [mine] + [s for s in ranked if s is not mine]
    return ranked[:top]


def _next_best(post: Posterior, nums: tuple[int, ...], p: Fraction, probs: dict[int, Fraction], ys: list[int]) -> float:
    """P(hit) max_y P(y|hit) + P(miss) max_y P(y|miss) over the numbers ``ys``."""
    g = set(nums)
    left_after_hit = post.face_down_count - len(nums)
    best_hit = Fraction(0)
    best_miss = Fraction(0)
    for y in ys:
        if y in g:
            jy = p  # J(G + y) = J(G)
        elif probs[y] == 1:
            jy = p
        elif p == 1:
            jy = probs[y]
        else:
            jy = joint(post, g | {y})
        if y not in g and p > 0 and left_after_hit > 0:
            best_hit = max(best_hit, jy / p)
        if p < 1:
            best_miss = max(best_miss, (probs[y] - jy) / (1 - p))
    return float(p * best_hit + (1 - p) * best_miss)


def best_guess(record: Record, order: str = "expected_reveals", lookahead: bool = False) -> frozenset[int] | None:
    """The top suggestion's numbers (a frozenset), for bots (whose records the engine built)."""
    sugg = advise_guesses(record, top=1, lookahead=lookahead or order == "lookahead", order=order, validate=False)
    return frozenset(sugg[0].numbers) if sugg else None
