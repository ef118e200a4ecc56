"""What a Marshal's record says, in the shape the counting needs.

The solver never looks at events again after this: every public fact of
SOLVER_MODEL.md ("Consistent", 1–6) becomes a field here. A hidden field in the
input is never read: :func:`extract` projects the record to the Marshal's record
first.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine.cards import ESCAPE, SETUP_DRAWS
from engine.record import Record


@dataclass(frozen=True)
class Position:
    """One hideout of the row (position >= 1)."""

    index: int  # 1 = first hideout right of card 0
    turn: int  # the Fugitive turn that placed it (0 = the opening)
    sprints: int  # how many sprint cards lie under it
    hideout: int | None = None  # known number (revealed, or 42)
    sprint_cards: tuple[int, ...] | None = None  # known sprint cards (revealed)

    @property
    def face_down(self) -> bool:
        return self.hideout is None

    @property
    def sprints_hidden(self) -> bool:
        return self.sprint_cards is None


@dataclass(frozen=True)
class Facts:
    """Everything public about the hidden history, at the end of a record."""

    positions: tuple[Position, ...]
    #: deck -> number of the Fugitive's draws usable at each Fugitive turn (index = turn)
    slots: dict[int, tuple[int, ...]]
    #: deck -> the Fugitive's total draws from it (setup included)
    draws: dict[int, int]
    marshal_cards: frozenset[int]
    #: single-number misses: number -> the largest row length at which it was missed
    missed_single: dict[int, int] = field(default_factory=dict)
    #: multi-number misses: (numbers, row length at the time)
    missed_sets: tuple[tuple[frozenset[int], int], ...] = ()
    escaped: bool = False

    @property
    def known_cards(self) -> frozenset[int]:
        """Cards whose place is public: revealed hideouts and sprint cards, and 42."""
        out: set[int] = set()
        for p in self.positions:
            if p.hideout is not None:
                out.add(p.hideout)
            if p.sprint_cards:
                out.update(p.sprint_cards)
        return frozenset(out)

    def with_reveal(self, position: int, hideout: int, sprint_cards: tuple[int, ...]) -> "Facts":
        """These facts after a face-down position is revealed (a Manhunt hit): the same
        as extracting the record with the hit appended, without reading it again."""
        p = self.positions[position - 1]
        if not p.face_down:
            raise ValueError(f"position {position} is already face up")
        revealed = Position(p.index, p.turn, p.sprints, hideout, tuple(sprint_cards))
        return replace(self, positions=self.positions[: position - 1] + (revealed,) + self.positions[position:])

    def slots_at(self, deck: int, turn: int) -> int:
        s = self.slots[deck]
        return s[turn] if turn < len(s) else s[-1]


def extract(record: Record) -> Facts:
    """Turn a (format-valid, rule-valid) record into :class:`Facts`.

    Turn bookkeeping follows RULES.md: the opening is turn 0; every later Fugitive
    turn starts with its draw; a bonus draw after a pass counts from the next turn.
    (One pass over the events, dispatching on their ``type``: every solve starts here.)
    """
    record = record.marshal_view()
    # per deck (index 1-3), the usable draws at each turn (index = turn); the setup
    # draws at turn 0
    now = [0, SETUP_DRAWS[1], SETUP_DRAWS[2], SETUP_DRAWS[3]]
    slots = [[], [now[1]], [now[2]], [now[3]]]
    pending_bonus = [0, 0, 0, 0]
    turn = 0
    positions: list[list] = []  # [turn, sprints, hideout, sprint cards]
    marshal: set[int] = set()
    missed_single: dict[int, int] = {}
    missed_sets: list[tuple[frozenset[int], int]] = []
    escaped = False
    fugitive_turn_open = True  # the opening is running
    after_pass = False
    for event in record.events:
        kind = event.type
        if kind == "fugitive_draw":
            d = event.deck
            if after_pass:  # second-edition bonus draw: usable from the next turn
                pending_bonus[d] += 1
                after_pass = False
                continue
            if not fugitive_turn_open:  # a new turn starts with its draw
                turn += 1
                for r in (1, 2, 3):
                    now[r] += pending_bonus[r]
                    slots[r].append(now[r])
                pending_bonus = [0, 0, 0, 0]
                fugitive_turn_open = True
            now[d] += 1
            slots[d][-1] = now[d]
        elif kind == "place" or kind == "pass":
            if not fugitive_turn_open:  # a turn without a draw (all decks empty)
                turn += 1
                for r in (1, 2, 3):
                    now[r] += pending_bonus[r]
                    slots[r].append(now[r])
                pending_bonus = [0, 0, 0, 0]
            fugitive_turn_open = turn == 0  # the opening may place twice
            after_pass = kind == "pass"
            if not after_pass:
                if event.hideout == ESCAPE:
                    positions.append([turn, event.sprints, ESCAPE, None])
                    escaped = True
                else:
                    positions.append([turn, event.sprints, None, None])
        else:
            fugitive_turn_open = False
            after_pass = False
            if kind == "marshal_draw":
                marshal.add(event.card)
            elif kind == "guess":
                if event.hit:
                    for r in event.reveals:
                        q = positions[r.position - 1]
                        q[2] = r.hideout
                        q[3] = tuple(r.sprint_cards)
                elif len(event.numbers) == 1:
                    x = event.numbers[0]
                    missed_single[x] = max(missed_single.get(x, 0), len(positions))
                else:
                    missed_sets.append((frozenset(event.numbers), len(positions)))
            elif kind == "manhunt_guess":
                if event.hit:
                    q = positions[event.position - 1]
                    q[2] = event.number
                    q[3] = tuple(event.sprint_cards or ())
                else:
                    missed_single[event.number] = len(positions)
    # a bonus draw at the very end is usable only later: it counts in draws, not in slots
    return Facts(
        positions=tuple(Position(i, t, k, h, cards) for i, (t, k, h, cards) in enumerate(positions, 1)),
        slots={1: tuple(slots[1]), 2: tuple(slots[2]), 3: tuple(slots[3])},
        draws={1: now[1] + pending_bonus[1], 2: now[2] + pending_bonus[2], 3: now[3] + pending_bonus[3]},
        marshal_cards=frozenset(marshal),
        missed_single=missed_single,
        missed_sets=tuple(missed_sets),
        escaped=escaped,
    )


__all__ = ["Facts", "Position", "extract"]
