"""The coach's words: the figures of :mod:`advisor.coach_marshal` and
:mod:`advisor.coach_fugitive` said in the page's language, for one reader.

Who reads what (:class:`Reader`): a person who played one side alone (against the AI,
or by a link on two phones) reads that side's coach in the second person ("You drew
from deck 2…"); watchers, the two players of one device and an AI vs AI match read
both coaches in the third person.

Figures are compared as they are shown (whole percents, two decimals): a decision
whose figure reads the same as the best one's is said to be as good as the best, so
no line ever reads "better … at 80% instead of 80%".
"""
from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from advisor.coach_fugitive import Chance, CoachTurn, Option
from advisor.guesses import MAX_SETS
from advisor.coach_marshal import MANHUNT_SECONDS, DrawCall, GuessCall, ManhuntCall, MarshalCall
from engine.record import Event, Pass, Place

from .i18n import t
from .formatting import decimal, number, percent

SIDES = ("marshal", "fugitive")


@dataclass(frozen=True)
class Reader:
    """Who reads a game in Learning."""

    you: str | None  #: the side this reader played alone ("you"), else None
    sides: tuple[str, ...]  #: the coaches shown

    @classmethod
    def of(cls, played: tuple[str, ...]) -> "Reader":
        """``played``: the sides the reader played (none: a watcher; both: two players
        on one device, who read both coaches like watchers)."""
        if len(played) == 1:
            return cls(played[0], played)
        return cls(None, SIDES)

    def own(self, side: str) -> bool:
        return self.you == side


def _tw(key: str, you: bool, /, **kw: object) -> str:
    """``key`` in the second person (``key_you``) or the third."""
    return t(f"{key}_you" if you else key, **kw)


def _nums(numbers: Iterable[int]) -> str:
    return "+".join(map(str, numbers))


def _two(x: float) -> str:
    return decimal(x, 2)


def _span(lo: float, hi: float) -> str:
    """A chance known exactly, or within bounds (as shown)."""
    return percent(lo) if percent(lo) == percent(hi) else t("coach_between", lo=percent(lo), hi=percent(hi))


# --------------------------------------------------------------------------- the Marshal
def marshal_lines(call: MarshalCall, reader: Reader) -> list[str]:
    """The coach's words for one decision of the Marshal (markdown-free text)."""
    you = reader.own("marshal")
    if isinstance(call, DrawCall):
        return _draw_lines(call, you)
    if isinstance(call, GuessCall):
        return _guess_lines(call, you)
    return _manhunt_lines(call, you)


def _draw_lines(c: DrawCall, you: bool) -> list[str]:
    """Her draw in a player's words: how many of his face-down hideouts the deck's
    unseen cards held on average; the better deck by that figure, or by the blocking
    reason in its own words (never two measures compared)."""
    mine, best = c.score(c.deck), c.score(c.best)
    lines = [f"{c.index + 1}. " + _tw("mc_drew_w", you, d=c.deck, u=mine.unseen, m=_one(mine.mass))]
    same = c.is_best or _two(mine.score) == _two(best.score)
    if same and mine.reason_key == "blocking":
        lines.append(_tw("mc_draw_best_blocking", you, top=c.top))
    elif same:
        lines.append(t("mc_draw_best_w"))
    elif best.reason_key == "blocking":
        lines.append(_tw("mc_draw_better_blocking", you, d=best.deck, top=c.top))
    else:
        lines.append(_tw("mc_draw_better_w", you, d=best.deck, u=best.unseen, m=_one(best.mass), left=best.left))
    return lines


def _one(x: float) -> str:
    return decimal(x, 1)


def _guess_lines(c: GuessCall, you: bool) -> list[str]:
    k = len(c.numbers)
    args = dict(g=_nums(c.numbers), p=percent(c.p), k=k, e=_two(c.reveals))
    lines = [f"{c.index + 1}. " + _tw("mc_guessed" if k == 1 else "mc_guessed_set", you, **args)]
    b = c.best
    bargs = dict(b=_nums(b.numbers), bp=percent(b.p), bk=len(b.numbers), be=_two(b.reveals))
    searched = "" if b.exact else " " + t("mc_searched", n=MAX_SETS)
    if c.is_best or (_two(c.reveals) == _two(b.reveals) and percent(c.p) == percent(b.p)) or not b.numbers:
        lines.append(t("mc_guess_best") + searched)
    elif b.p < c.p < 1 and percent(c.p) != percent(b.p) and not c.own_cards:
        # hers was the likelier: a miss of it would have ruled out more of the histories
        # left, so more revealed on average does not decide it alone
        lines.append(t("mc_guess_better", **bargs) + " " + _guess_why(c, you, args, bargs) + searched)
        lines.append(t("mc_miss_teaches_mine", g=_nums(c.numbers), mp=percent(c.p), b=_nums(b.numbers), bmp=percent(b.p)))
    else:
        lines.append(t("mc_guess_better", **bargs) + " " + _guess_why(c, you, args, bargs) + searched)
        if c.p < b.p < 1 and percent(c.p) != percent(b.p) and c.p > 0:
            lines.append(t("mc_miss_teaches", g=_nums(c.numbers), mp=percent(c.p), b=_nums(b.numbers), bmp=percent(b.p)))
    if c.hit:
        lines.append(t("gain_won", n=c.revealed) if c.won
                     else t("gain_hit", n=c.revealed))
    elif c.own_cards:
        lines.append(_tw("mc_own_cards", you, n=", ".join(map(str, c.own_cards))))
    elif c.p > 0:
        lines.append(t("gain_miss", p=percent(c.p)))
    else:
        lines.append(t("gain_miss_zero"))
    return lines


def _guess_why(c: GuessCall, you: bool, args: dict[str, object], bargs: dict[str, object]) -> str:
    """One line of why the best guess was better."""
    b = c.best
    if c.own_cards:
        return _tw("mc_why_own", you, n=", ".join(map(str, c.own_cards)))
    if c.p == 0:
        return t("mc_why_impossible", **args)
    if b.p >= 1:
        return t("mc_why_certain", **bargs)
    if len(b.numbers) < len(c.numbers):
        return t("mc_why_smaller", **args, **bargs)
    if len(b.numbers) > len(c.numbers):
        return t("mc_why_larger", **args, **bargs)
    return t("mc_why_likelier", **args, **bargs)


def _manhunt_lines(c: ManhuntCall, you: bool) -> list[str]:
    lines = [f"{c.index + 1}. " + _tw("mc_manhunt", you, x=c.number, p=percent(c.p), v=_span(*c.value))]
    verdict = c.is_best
    shown_equal = _span(*c.value) == _span(*c.best_value)
    if verdict or (verdict is False and shown_equal) or c.number == c.best:
        lines.append(t("mc_guess_best"))
    elif verdict is False:
        lines.append(t("mc_manhunt_better", b=c.best, bp=percent(c.best_p), bv=_span(*c.best_value)))
    else:
        lines.append(t("mc_manhunt_unknown", s=f"{MANHUNT_SECONDS:g}", b=c.best, bv=_span(*c.best_value)))
    if c.hit:
        lines.append(t("gain_won", n=1) if c.won else t("gain_hit", n=1))
    else:
        lines.append(t("mc_manhunt_missed"))
    return lines


def marshal_flagged(call: MarshalCall) -> bool:
    """Whether the coach names a better decision than hers (as the lines say it: a
    figure that reads the same as the best one's is not called worse)."""
    if isinstance(call, DrawCall):
        return not (call.is_best or _two(call.score(call.deck).score) == _two(call.score(call.best).score))
    if isinstance(call, GuessCall):
        b = call.best
        return not (call.is_best or (_two(call.reveals) == _two(b.reveals) and percent(call.p) == percent(b.p))
                    or not b.numbers)
    shown_equal = _span(*call.value) == _span(*call.best_value)
    return call.is_best is False and not shown_equal and call.number != call.best


# --------------------------------------------------------------------------- the Fugitive
def _move_text(e: Event, you: bool) -> str:
    if isinstance(e, Place):
        if e.is_escape:
            return _tw("coach_move_escape", you, s=e.sprints)
        if e.sprints:
            return _tw("coach_move_place", you, h=e.hideout, s=e.sprints)
        return _tw("coach_move_place_none", you, h=e.hideout)
    return _tw("coach_move_pass", you)


def _option_text(o: Option) -> str:
    if o.hideout is None:
        return t("coach_option_pass")
    return t("coach_option", h=o.hideout, s=o.sprints)


def _chance_text(c: Chance) -> str:
    """A move the grade names: the pass, or a hideout with its sprint cards by number."""
    if c.hideout is None:
        return t("coach_option_pass")
    if not c.sprint_cards:
        return t("fc_option_none", h=c.hideout)
    return t("fc_option", n=c.sprints, h=c.hideout,
             cards=", ".join(map(str, c.sprint_cards)))


def _difference(o: Option, turn: CoachTurn) -> str | None:
    """The first figure (found next turn, most exposed, and between two placements the
    sum of the exposures) on which the option reads lower than his move, said; None when
    it reads lower on none. A figure on which the better move is worse is no reason for
    it: the grade is his chance to win over the whole game, and the one-turn figures
    only explain it where they agree."""
    pairs = [("coach_diff_found", percent(o.found), percent(turn.found), o.found < turn.found),
             ("coach_diff_worst", percent(o.worst), percent(turn.worst), o.worst < turn.worst)]
    if (o.hideout is not None) == isinstance(turn.event, Place):
        pairs.append(("coach_diff_total", _two(o.total), _two(turn.total), o.total < turn.total))
    for key, a, b, lower in pairs:
        if a != b and lower:
            return t(key, a=a, b=b)
    return None


def _spent(e: Event) -> int:
    return e.sprints if isinstance(e, Place) else 0


def _grade_line(turn: CoachTurn, you: bool) -> str:
    """The grade: forced, or his chance to win against the clearly better move's."""
    if turn.forced:
        if isinstance(turn.event, Pass):
            return _tw("fc_forced_pass", you, p=turn.previous)
        return _tw("fc_forced", you)
    b = turn.better
    if turn.win is None:
        return _tw("fc_no_grade", you)
    if b is None:
        return _tw("fc_good", you, w=percent(turn.win))
    if b.hideout == 42 and turn.better_option is not None and turn.better_option.wins:
        return t("coach_best_escape", s=b.sprints)
    why = []
    mine = _spent(turn.event)
    if b.sprints < mine:
        why.append(_tw("fc_why_fewer", you, a=b.sprints, b=mine))
    elif b.sprints > mine:
        why.append(_tw("fc_why_more", you, a=b.sprints, b=mine))
    here = turn.event.hideout if isinstance(turn.event, Place) else turn.previous
    if b.hideout is None:
        why.append(_tw("fc_why_pass", you))
    elif here is not None and here < b.hideout < 42:  # how far along he is weighs most in his chance to win
        why.append(t("fc_why_further", a=b.hideout, b=here))
    if b.hideout is not None and turn.better_option is not None:
        diff = _difference(turn.better_option, turn)
        if diff is not None:
            why.append(diff)
    text = t("fc_better", o=_chance_text(b), a=percent(b.win), b=percent(turn.win))
    return text + (" " + t("fc_because", why="; ".join(why)) if why else "")


def fugitive_lines(turn: CoachTurn, reader: Reader) -> list[str]:
    """The coach's words for one turn of the Fugitive (markdown-free text): his move
    and its one-turn figures, each face-down hideout's exposure, how they were
    averaged, then the grade (his chance to win against the better move's, or forced)."""
    you = reader.own("fugitive")
    lines = [f"{turn.index + 1}. {_move_text(turn.event, you)} — "
             + _tw("fc_found", you, f=percent(turn.found), w=percent(turn.worst))]
    spots = " · ".join(t("coach_spot", x=x.number, p=x.position, q=percent(x.p)) for x in turn.exposures)
    lines.append(spots or t("coach_nothing_hidden"))
    if turn.hands == 1:
        lines.append(_tw("coach_hands_one", you))
    elif turn.exact:
        lines.append(t("coach_hands_exact", n=number(turn.hands)))
    else:
        se = max((x.se for x in turn.exposures), default=0.0)
        lines.append(t("coach_hands_sampled", k=turn.averaged, n=number(turn.hands),
                       se=decimal(max(math.ceil(se * 1000), 1) / 10, 1)))
    lines.append(_grade_line(turn, you))
    if turn.bluff is not None:
        f = turn.bluff
        worked = f.worked and percent(f.p) != percent(f.p_fewest)
        if f.fewest:
            key = "coach_bluff_worked" if worked else "coach_bluff_failed"
        else:  # enough to reach it was no sprint card at all
            key = "coach_bluff_worked_none" if worked else "coach_bluff_failed_none"
        lines.append(t(key, h=f.hideout, s=f.sprints, p=percent(f.p), f=f.fewest, pf=percent(f.p_fewest)))
    return lines


def fugitive_flagged(turn: CoachTurn) -> bool:
    """Whether the coach names a clearly better move than his (a forced one is not graded)."""
    return not turn.forced and turn.win is not None and turn.better is not None


def first_worth_a_look(calls: tuple[MarshalCall, ...], turns: tuple[CoachTurn, ...], moves: int) -> int:
    """The step Learning opens at: just after the first move the coach grades as not
    the best (hers or his, of the coaches given), else after the first move (0: no move)."""
    flagged = [c.index for c in calls if marshal_flagged(c)] + [x.index for x in turns if fugitive_flagged(x)]
    return min(flagged) + 1 if flagged else min(moves, 1)
