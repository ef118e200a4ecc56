"""The Manhunt planner: the Marshal's exact best guess order as a decision tree.

In a Manhunt the Marshal guesses single numbers; a miss ends the game, a hit reveals
the hideout's position and its sprint cards (a new record, a new posterior) and she
goes on until no face-down hideout is left. ``plan_manhunt`` gives the best first
guess and its exact probability of catching him (with the decision tree on request),
or rigorous bounds when the budget runs out.

The front door: callers import ``plan_manhunt``, ``ManhuntPlan`` and ``sprint_groups``
from here. The modules, one job each, each importing only those above it:

* :mod:`.settings`: the switches (where the compiled core takes over, which nodes are
  valued without a search), read at call time so the tests can compare both ways;
* :mod:`.context`: one planning call's nodes, budget and memo (``_Ctx``), the budget's
  exceptions, and the exact values kept across calls;
* :mod:`.sprints`: the sprint sets a hit can show, grouped exactly, and how many sets
  of a class composition the free cards allow;
* :mod:`.pairs`: a node with two face-down hideouts, valued from its own count;
* :mod:`.tags`: a guess at a node with three, valued from the tagged passes;
* :mod:`.derive`: the children of a node with four or more, derived from its passes;
* :mod:`.compiled`: a guess at a deriving node with four to seven, valued in the
  compiled core (the Python search stays its reference);
* :mod:`.search`: the recursion itself, a node's value over its first guesses and a
  guess's over its outcomes (``_node``, ``_value_guess``);
* :mod:`.plan`: ``plan_manhunt``, its budget and its answer, ``ManhuntPlan``.

Names with a leading underscore are private to this package (its modules share them;
the tests reach them in the module that defines them).
"""
from __future__ import annotations

from .plan import ManhuntPlan, plan_manhunt
from .sprints import sprint_groups

__all__ = ["ManhuntPlan", "plan_manhunt", "sprint_groups"]
