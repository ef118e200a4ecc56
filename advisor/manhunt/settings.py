"""The Manhunt planner's switches: where the compiled core takes over, which nodes are
valued without a search, and which derive their children from their parent's passes.

Read at call time (``settings.PAIR_VALUES``, never copied into another module), so a
test can turn one off for a planning call and compare the two answers.
"""
from __future__ import annotations

#: the deriving nodes (by face-down hideouts) whose guesses the compiled core values
#: (``_guess_by_core``); at the others, or on the Python core, ``_value_guess`` does
COMPILED_LEVELS: tuple[int, ...] = (4, 5, 6, 7)
#: value the nodes with two face-down hideouts from their own count (``_pair_node``);
#: off, they are searched like the others (the tests compare the two)
PAIR_VALUES = True
#: a node with four face-down hideouts or more derives its children from its tagged
#: passes (``_derive_child``) instead of counting them, while its joint of hideouts
#: can hold at most this many tuples (the product of its positions' candidates)
DERIVE_LIMIT = 20_000
