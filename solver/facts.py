"""What a Marshal's record says, in the shape the counting needs.

The solver never looks at events again after this: every public fact of
SOLVER_MODEL.md ("Consistent", 1–6) becomes a field here. A hidden field in the
input is never read: :func:`extract` projects the record to the Marshal's record
first.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine.cards import DECKS, ESCAPE, SETUP_DRAWS
from engine.record import (
    FugitiveDraw,
    Guess,
    ManhuntGuess,
    MarshalDraw,
    Pass,
    Place,
    Record,
)


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
    """
    record = record.marshal_view()
    # per deck, the usable draws at each turn; start with the setup draws at turn 0
    per_turn: list[dict[int, int]] = [dict(SETUP_DRAWS)]
    turn = 0
    pending_bonus = {1: 0, 2: 0, 3: 0}
    positions: list[dict] = []
    marshal: set[int] = set()
    missed_single: dict[int, int] = {}
    missed_sets: list[tuple[frozenset[int], int]] = []
    escaped = False
    fugitive_turn_open = True  # the opening is running
    after_pass = False

    def new_turn() -> None:
        nonlocal turn
        turn += 1
        row = dict(per_turn[-1])
        for d, n in pending_bonus.items():
            row[d] += n
            pending_bonus[d] = 0
        per_turn.append(row)

    for event in record.events:
        if isinstance(event, FugitiveDraw):
            if after_pass:  # second-edition bonus draw: usable from the next turn
                pending_bonus[event.deck] += 1
                after_pass = False
                continue
            if not fugitive_turn_open:
                new_turn()
                fugitive_turn_open = True
            per_turn[-1][event.deck] += 1
        elif isinstance(event, (Place, Pass)):
            if not fugitive_turn_open:  # a turn without a draw (all decks empty)
                new_turn()
            fugitive_turn_open = turn == 0  # the opening may place twice
            after_pass = isinstance(event, Pass)
            if isinstance(event, Place):
                positions.append(
                    {
                        "index": len(positions) + 1,
                        "turn": turn,
                        "sprints": event.sprints,
                        "hideout": ESCAPE if event.is_escape else None,
                        "sprint_cards": None,
                    }
                )
                if event.is_escape:
                    escaped = True
        else:
            fugitive_turn_open = False
            after_pass = False
            if isinstance(event, MarshalDraw):
                marshal.add(event.card)
            elif isinstance(event, Guess):
                if event.hit:
                    for r in event.reveals:
                        positions[r.position - 1]["hideout"] = r.hideout
                        positions[r.position - 1]["sprint_cards"] = tuple(r.sprint_cards)
                elif len(event.numbers) == 1:
                    x = event.numbers[0]
                    missed_single[x] = max(missed_single.get(x, 0), len(positions))
                else:
                    missed_sets.append((frozenset(event.numbers), len(positions)))
            elif isinstance(event, ManhuntGuess):
                if event.hit:
                    p = positions[event.position - 1]
                    p["hideout"] = event.number
                    p["sprint_cards"] = tuple(event.sprint_cards or ())
                else:
                    missed_single[event.number] = len(positions)
    # a bonus draw at the very end is usable only later: it counts in draws, not in slots
    slots = {d: tuple(row[d] for row in per_turn) for d in DECKS}
    draws = {d: per_turn[-1][d] + pending_bonus[d] for d in DECKS}
    return Facts(
        positions=tuple(Position(**p) for p in positions),
        slots=slots,
        draws=draws,
        marshal_cards=frozenset(marshal),
        missed_single=missed_single,
        missed_sets=tuple(missed_sets),
        escaped=escaped,
    )


__all__ = ["Facts", "Position", "extract"]
