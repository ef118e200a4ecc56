"""The children of a node with four face-down hideouts or more, derived from the node's
tagged passes instead of counted.

Once the hideouts are fixed, sprint cards of one class are interchangeable, so the
histories of a sprint set are those of its class composition shared equally among the
sets that avoid the hideouts. A child of such a node (while the node's joint of
hideouts is small, ``settings.DERIVE_LIMIT``) is therefore not counted at all: its
posterior and, with three left, its guesses' pair counts (``_Ctx.pair_tables``) come
from its parent's tagged passes with its hit fixed (``_derive_child``). One pass serves
every sprint set of the hit.
"""
from __future__ import annotations

from typing import Any

from solver.counting import CLASS_OF, composition, composition_counts
from solver.exact import posterior_from_counts
from solver.facts import Facts
from solver.posterior import Posterior

from . import settings
from .context import _Ctx
from .sprints import _sets_of


def _derives(post: Posterior) -> bool:
    """Whether a node's children are derived from its passes (``settings.DERIVE_LIMIT``):
    the fixed joints a derived child comes from hold up to a tuple per combination of
    the other hideouts' candidates, so past the limit the children are counted instead."""
    if post.face_down_count < 4:
        return False
    size = 1
    for q in post.positions:
        if not q.revealed:
            size *= sum(1 for n in q.counts.values() if n)
    return size <= settings.DERIVE_LIMIT


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
