"""The Fugitive's coach grades by his chance to win over the whole game (issue 39, point 1).

Its advice is checked by playing it forward: from the real state of a coached turn, the
coach's "Better" line and his own move are each played on the same sampled states (her
hand and the decks drawn as he could imagine them) and the game played out by the
expert AI's kind on both sides (the search Fugitive, the solver Marshal breaking ties at
random). His chance to win with the coach's line must not be lower than with his own
move. A forced pass is said, not graded."""
from __future__ import annotations

import re
import statistics
from pathlib import Path

import pytest

from engine import fugitive_view
from engine.bots import RandomFugitive, RandomMarshal, play_game
from engine.cards import ESCAPE
from engine.moves import PassTurn, PlaceHideout
from engine.record import Pass, Place, load_record
from engine.replaying import replay
from engine.rules import SPRINT, has_placement
from engine.state import Phase

from advisor.playforward import play_forward

from app import review
from app.i18n import set_lang

GAME = Path(__file__).parents[1] / "advisor" / "coach_expert_game.json"  # expert Fugitive vs expert Marshal, seed 5
YOU = review.Reader("fugitive", ("fugitive",))


def _better_plan(line: str, state):
    """The moves a "Better:" line names, played as a player reading it would (the
    sprint cards it names; a count alone: the cards worth the most footprints, as the
    line's own figures were measured); None when the line names no move."""
    m = re.match(r"Better: (\d+) with (\d+) sprint card", line)
    if m:
        h, k = int(m[1]), int(m[2])
        cards = frozenset(sorted((c for c in state.fugitive_hand if c not in (h, ESCAPE)), key=lambda c: -SPRINT[c])[:k])
        move = PlaceHideout(h, cards)
    elif m := re.match(r"Better: (\d+) with sprint cards? ([\d, ]+)", line):
        move = PlaceHideout(int(m[1]), frozenset(int(c) for c in m[2].split(",")))
    elif m := re.match(r"Better: (\d+) without sprint cards", line):
        move = PlaceHideout(int(m[1]))
    elif line.startswith("Better: passing"):
        return (PassTurn(),)
    else:
        return None
    if state.phase is Phase.FUGITIVE_OPENING and state.opening_placed == 0:
        return (move, PassTurn())
    return (move,)


def _own_plan(state, event):
    if isinstance(event, Pass):
        return (PassTurn(),)
    move = PlaceHideout(event.hideout, frozenset(event.sprint_cards or ()))
    if state.phase is Phase.FUGITIVE_OPENING and state.opening_placed == 0:
        return (move, PassTurn())
    return (move,)


@pytest.mark.slow
def test_the_coachs_better_line_wins_at_least_as_often_as_his_own_move_in_self_play():
    from advisor.coach_fugitive import coach_fugitive

    set_lang("en")
    full = load_record(GAME)
    games = 48
    checked = []
    for turn in coach_fugitive(full):
        state = replay(full.truncated(turn.index))
        lines = review.fugitive_lines(turn, YOU)
        plan = next((p for p in (_better_plan(x, state) for x in lines) if p is not None), None)
        if plan is None:
            continue
        view = fugitive_view(state)
        better = play_forward(view, plan, games, seed=turn.index)
        mine = play_forward(view, _own_plan(state, full.events[turn.index]), games, seed=turn.index)
        diffs = [a - b for a, b in zip(better, mine)]
        se = statistics.stdev(diffs) / games ** 0.5
        checked.append((turn.index + 1, plan, sum(better) / games, sum(mine) / games, se))
        # the old coach: "Better: 6 with 3 sprint card(s)" on the first turn, won 0 of 40
        # games against 6 of 40 with his own 2 with one sprint card
        assert sum(diffs) / games >= -2 * se - 1 / games, checked
    assert checked  # the coach named a better line somewhere in this game


def test_a_forced_pass_is_said_not_graded():
    from advisor.coach_fugitive import coach_fugitive

    set_lang("en")
    seen = {"forced": 0, "chosen pass": 0, "place": 0}
    # two random games (seeds 1 and 2: 26 forced passes, a chosen pass, 17 placements,
    # coached in a few seconds; seeds 0 and 4 take 50 s each for nothing more)
    for seed in (1, 2):
        full = play_game(RandomFugitive(seed), RandomMarshal(seed), seed=seed).record()
        for turn in coach_fugitive(full):
            state = replay(full.truncated(turn.index))
            lines = review.fugitive_lines(turn, YOU)
            if isinstance(turn.event, Pass) and not has_placement(state.previous, state.fugitive_hand):
                seen["forced"] += 1
                assert f"No card of your hand could follow {state.previous}: the pass was forced" in lines[-1], lines
                assert not any("Better" in x or "hidden you" in x or "chance to win" in x for x in lines), lines
            elif isinstance(turn.event, (Place, Pass)):
                seen["chosen pass" if isinstance(turn.event, Pass) else "place"] += 1
                assert not any("forced" in x for x in lines), lines
    assert all(seen.values()), seen  # each kind of turn was met
