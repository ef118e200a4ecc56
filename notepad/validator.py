"""The rules of RULES.md checked event by event, incrementally.

Why incremental: the notepad checks every entry as the Marshal types it, and the
app asks after each entry which entries are allowed next. A :class:`Validator`
therefore holds the public state and checks one event against it in constant-ish
time; :func:`validate` is just a loop over a record.

What is checked: everything the public information makes *certain* (turn order,
deck sizes, cards seen twice, reveals at real face-down positions, known numbers
increasing along the row, the Fugitive's public hand size). For a *full* record
the hidden fields are checked as well (the hand, the placement rule, that reveals
and hits agree with the hidden cards). A Marshal's record that is well-formed but
has no consistent hidden history is *valid* here: telling that is the solver's job.

Every check is done before anything changes: ``check`` and ``push`` compute an
"apply" step only once the event has passed, so an invalid event leaves the
validator exactly as it was.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from engine.cards import DECKS, ESCAPE, SETUP_DRAWS, STARTING_HAND, deck_of, sprint_value
from engine.record import (
    Event,
    FugitiveDraw,
    Guess,
    ManhuntGuess,
    MarshalDraw,
    Pass,
    Place,
    Record,
    Ruleset,
)

from .state import AllowedEntry, Phase, Player, PublicState, Slot, frozen_mapping

#: Deck sizes after the setup draws (deck 1: 11 - 3, deck 2: 14 - 2, deck 3: 13).
START_DECKS: dict[int, int] = {d: len(r) - SETUP_DRAWS[d] for d, r in DECKS.items()}
#: The Fugitive's hand after setup: 1, 2, 3, 42 and five drawn cards.
START_HAND_SIZE = len(STARTING_HAND) + sum(SETUP_DRAWS.values())
#: Highest revealed hideout at the escape that wins the Fugitive the game at once.
ESCAPE_SAFE = 30


class RecordRuleError(ValueError):
    """A record (or one entry) that breaks a rule of RULES.md.

    ``index`` is the 0-based event index (``None`` for the setup), ``reason`` the
    rule in words; the message reads ``event 7: <reason>``.
    """

    def __init__(self, index: int | None, reason: str):
        self.index = index
        self.reason = reason
        super().__init__(f"event {index}: {reason}" if index is not None else reason)


@dataclass
class _Plan:
    """A checked event: what it changes and what the app should warn about."""

    apply: Callable[[], None]
    warnings: tuple[str, ...] = ()


def _cards_text(cards: Iterable[int]) -> str:
    return ", ".join(str(c) for c in cards)


class Validator:
    """Public state of one game, advanced one valid event at a time.

    Build it with the record's ruleset (and ``fugitive_setup`` for a full record),
    then ``check(event)`` (raises :class:`RecordRuleError`, returns warnings) or
    ``push(event)`` (checks, then applies). ``state`` is a read-only snapshot and
    ``allowed_next()`` lists what may be entered now.
    """

    def __init__(self, ruleset: Ruleset = Ruleset(), fugitive_setup: tuple[int, ...] | None = None):
        self.ruleset = ruleset
        self.full = fugitive_setup is not None
        self.events = 0
        self.phase = Phase.OPENING
        self._opening_min = 2 if ruleset.opening == "two" else 1
        self._opening_places = 0
        self._draws_left = 0
        self._decks = dict(START_DECKS)
        self._hand_size = START_HAND_SIZE
        self._winner: Player | None = None
        self._escaped = False
        # the row, one entry per position 1..n (index = position - 1)
        self._sprints: list[int] = []
        self._number: list[int | None] = []  # face-up numbers
        self._placed_at: list[int] = []
        self._revealed_at: list[int | None] = []
        self._revealed_sprints: list[tuple[int, ...] | None] = []
        self._face_up_pos: dict[int, int] = {0: 0}  # number -> position
        self._face_down = 0
        # cards the Marshal has seen: number -> how ("drawn (event 2)")
        self._seen: dict[int, str] = {}
        self._marshal_hand: list[int] = []
        # full records only: the Fugitive's hidden cards
        self._hand: set[int] = set()
        self._fugitive_cards: dict[int, str] = {}
        self._hidden: list[int] = []  # hideout number per position
        self._hidden_sprints: list[tuple[int, ...]] = []
        self._hidden_pos: dict[int, int] = {}  # face-down hideout number -> position
        if fugitive_setup is not None:
            self._setup(tuple(fugitive_setup))

    # ------------------------------------------------------------------ public API
    @classmethod
    def for_record(cls, record: Record) -> "Validator":
        """An empty validator for this record's ruleset and setup."""
        return cls(record.ruleset, record.fugitive_setup)

    def check(self, event: Event) -> tuple[str, ...]:
        """Raise :class:`RecordRuleError` if ``event`` may not come next; return warnings."""
        return self._plan(event).warnings

    def push(self, event: Event) -> tuple[str, ...]:
        """Check ``event`` and apply it; on an error nothing changes."""
        plan = self._plan(event)
        plan.apply()
        self.events += 1
        return plan.warnings

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def winner(self) -> Player | None:
        return self._winner

    @property
    def state(self) -> PublicState:
        """A frozen snapshot of the public state."""
        row = tuple(
            Slot(
                position=i + 1,
                sprints=self._sprints[i],
                number=self._number[i],
                placed_at=self._placed_at[i],
                revealed_at=self._revealed_at[i],
                sprint_cards=self._revealed_sprints[i],
            )
            for i in range(len(self._sprints))
        )
        return PublicState(
            ruleset=self.ruleset,
            events=self.events,
            row=row,
            deck_sizes=frozen_mapping(self._decks),
            phase=self.phase,
            marshal_hand=tuple(sorted(self._marshal_hand)),
            fugitive_hand_size=self._hand_size,
            escaped=self._escaped,
            winner=self._winner,
            allowed=self.allowed_next(),
        )

    def allowed_next(self) -> tuple[AllowedEntry, ...]:
        """The kinds of event the rules allow now, each with its constraints."""
        out: list[AllowedEntry] = []
        ph = self.phase
        nonempty = self._nonempty()
        if ph is Phase.OPENING:
            out.append(self._place_entry())
            if self._opening_places >= self._opening_min:
                out += self._marshal_turn_entries(first=True)
        elif ph is Phase.FUGITIVE_DRAW:
            if nonempty:
                out.append(AllowedEntry("fugitive_draw", decks=nonempty))
            else:
                out += [self._place_entry(), AllowedEntry("pass")]
        elif ph is Phase.FUGITIVE_ACTION:
            out += [self._place_entry(), AllowedEntry("pass")]
        elif ph is Phase.AFTER_PASS:
            if nonempty:
                out.append(
                    AllowedEntry(
                        "fugitive_draw", decks=nonempty[:1], optional=True,
                        note="the extra draw after a pass comes from the lowest deck with cards",
                    )
                )
            out += self._marshal_turn_entries(first=False)
        elif ph is Phase.MARSHAL_DRAW:
            out += self._marshal_turn_entries(first=self._draws_left == 2)
        elif ph is Phase.MARSHAL_GUESS:
            out.append(self._guess_entry("guess"))
        elif ph is Phase.MANHUNT:
            out.append(self._guess_entry("manhunt_guess"))
        return tuple(out)

    # ------------------------------------------------------------------ allowed entries
    def _nonempty(self) -> tuple[int, ...]:
        return tuple(d for d in (1, 2, 3) if self._decks[d] > 0)

    def _place_entry(self) -> AllowedEntry:
        others = self._hand_size - 1  # cards besides 42
        return AllowedEntry(
            "place",
            max_sprints=others - 1 if others >= 1 else None,
            escape_max_sprints=others,
        )

    def _marshal_turn_entries(self, first: bool) -> list[AllowedEntry]:
        nonempty = self._nonempty()
        if not nonempty:
            return [self._guess_entry("guess")]
        cards = tuple(
            c for d in nonempty for c in DECKS[d] if c not in self._seen and c not in self._fugitive_cards
        )
        note = "the Marshal's first turn: 2 draws, then a guess" if first else ""
        return [AllowedEntry("marshal_draw", decks=nonempty, cards=cards, note=note)]

    def _guess_entry(self, kind: str) -> AllowedEntry:
        numbers = tuple(n for n in range(1, 42) if n not in self._face_up_pos)
        positions = tuple(i + 1 for i, n in enumerate(self._number) if n is None)
        return AllowedEntry(
            kind,
            numbers=numbers,
            warn_numbers=tuple(sorted(self._marshal_hand)),
            positions=positions,
            max_numbers=len(positions) if kind == "guess" else 1,
        )

    # ------------------------------------------------------------------ setup
    def _setup(self, setup: tuple[int, ...]) -> None:
        by_deck = {d: sorted(c for c in setup if deck_of(c) == d) for d in (1, 2, 3)}
        if len(setup) != 5 or len(set(setup)) != 5 or any(len(by_deck[d]) != SETUP_DRAWS[d] for d in (1, 2, 3)):
            raise RecordRuleError(
                None,
                f"fugitive_setup must hold 3 cards of deck 1 (4-14) and 2 of deck 2 (15-28), not {list(setup)}",
            )
        self._hand = set(STARTING_HAND) | set(setup)
        for c in setup:
            self._fugitive_cards[c] = "in the Fugitive's setup"

    # ------------------------------------------------------------------ dispatch
    def _resolve(self, kind: str) -> tuple[Phase, int]:
        """The phase an event of ``kind`` meets, after skipping optional steps.

        Optional steps: a second opening place, the extra draw after a pass, and
        every draw while all decks are empty.
        """
        ph, left = self.phase, self._draws_left
        marshal_kind = kind in ("marshal_draw", "guess")
        if ph is Phase.OPENING and self._opening_places >= self._opening_min and marshal_kind:
            ph, left = Phase.MARSHAL_DRAW, 2
        elif ph is Phase.AFTER_PASS and marshal_kind:
            ph, left = Phase.MARSHAL_DRAW, 1
        elif ph is Phase.FUGITIVE_DRAW and kind in ("place", "pass") and not self._nonempty():
            ph = Phase.FUGITIVE_ACTION
        if ph is Phase.MARSHAL_DRAW and kind == "guess" and not self._nonempty():
            ph = Phase.MARSHAL_GUESS
        return ph, left

    def _plan(self, event: Event) -> _Plan:
        i = self.events
        kind = getattr(event, "type", None)
        if self.phase is Phase.OVER:
            raise RecordRuleError(i, f"no event may follow the end of the game ({self._winner} won)")
        ph, left = self._resolve(kind)
        if isinstance(event, Place) and ph in (Phase.OPENING, Phase.FUGITIVE_ACTION):
            return self._plan_place(event, i, ph)
        if isinstance(event, Pass) and ph is Phase.FUGITIVE_ACTION:
            return self._plan_pass(i)
        if isinstance(event, FugitiveDraw) and ph in (Phase.FUGITIVE_DRAW, Phase.AFTER_PASS):
            return self._plan_fugitive_draw(event, i, ph)
        if isinstance(event, MarshalDraw) and ph is Phase.MARSHAL_DRAW:
            return self._plan_marshal_draw(event, i, left)
        if isinstance(event, Guess) and ph is Phase.MARSHAL_GUESS:
            return self._plan_guess(event, i)
        if isinstance(event, ManhuntGuess) and ph is Phase.MANHUNT:
            return self._plan_manhunt(event, i)
        if kind not in ("place", "pass", "fugitive_draw", "marshal_draw", "guess", "manhunt_guess"):
            raise RecordRuleError(i, f"not an event: {event!r}")
        if kind == "manhunt_guess":
            raise RecordRuleError(i, "a manhunt_guess comes only after an escape (42) that starts a Manhunt")
        raise RecordRuleError(i, f"a {kind} is not allowed now: {self._expected(ph, left)}")

    def _expected(self, ph: Phase, left: int) -> str:
        """What the rules wanted instead, in words, for the phase the event met."""
        if ph is Phase.OPENING:
            if self._opening_places == 0:
                return "the Fugitive's first turn starts with a place (no draw)"
            if self._opening_places < self._opening_min:
                return "the opening needs exactly 2 places (ruleset opening 'two')"
            return "the Fugitive may place a second opening hideout, else the Marshal draws 2 cards"
        if ph is Phase.FUGITIVE_DRAW:
            return "the Fugitive's turn starts with a fugitive_draw while a deck has cards"
        if ph is Phase.FUGITIVE_ACTION:
            return "after his draw the Fugitive places a hideout or passes"
        if ph is Phase.AFTER_PASS:
            return "after a pass come the extra fugitive_draw or the Marshal's marshal_draw"
        if ph is Phase.MARSHAL_DRAW:
            if left == 2:
                return "the Marshal's first turn is 2 marshal_draws, then a guess"
            if left == 1 and self._is_first_marshal_turn():
                return "the Marshal's first turn needs a second marshal_draw before the guess"
            return "the Marshal's turn starts with a marshal_draw while a deck has cards"
        if ph is Phase.MARSHAL_GUESS:
            return "the Marshal must guess after her draw"
        if ph is Phase.MANHUNT:
            return "after the escape only manhunt_guess events follow"
        return "the game is over"

    def _is_first_marshal_turn(self) -> bool:
        return len(self._marshal_hand) == 1

    # ------------------------------------------------------------------ place / pass
    def _plan_place(self, e: Place, i: int, ph: Phase) -> _Plan:
        escape = e.hideout == ESCAPE
        if ph is Phase.OPENING and self._opening_places >= 2:
            raise RecordRuleError(i, "the Fugitive places at most 2 hideouts on his first turn")
        others = self._hand_size - 1
        need = e.sprints + (0 if escape else 1)
        if need > others:
            what = f"the escape with {e.sprints} sprint cards" if escape else f"a hideout with {e.sprints} sprint cards"
            raise RecordRuleError(
                i, f"{what} needs {need} cards besides 42, but the Fugitive holds only {others}"
            )
        hideout: int | None = None
        sprint_cards: tuple[int, ...] = ()
        if self.full:
            hideout, sprint_cards = self._check_hidden_place(e, i, escape, ph)
        elif (e.hideout is not None and not escape) or e.sprint_cards is not None:
            raise RecordRuleError(
                i, "place.hideout and place.sprint_cards are hidden fields; a Marshal's record "
                "(no fugitive_setup) cannot carry them"
            )

        def apply() -> None:
            self._hand_size -= e.sprints + 1
            pos = len(self._sprints) + 1
            self._sprints.append(e.sprints)
            self._placed_at.append(i)
            self._revealed_sprints.append(None)
            if self.full:
                assert hideout is not None
                self._hand.discard(hideout)
                self._hand.difference_update(sprint_cards)
                self._hidden.append(hideout)
                self._hidden_sprints.append(sprint_cards)
            if escape:
                self._number.append(ESCAPE)
                self._revealed_at.append(i)
                self._face_up_pos[ESCAPE] = pos
                self._escaped = True
                highest = max((n for n in self._face_up_pos if n != ESCAPE), default=0)
                if highest >= ESCAPE_SAFE:
                    self._end("fugitive")
                elif self._face_down == 0:
                    self._end("marshal")
                else:
                    self.phase = Phase.MANHUNT
                return
            self._number.append(None)
            self._revealed_at.append(None)
            self._face_down += 1
            if self.full:
                assert hideout is not None
                self._hidden_pos[hideout] = pos
            if ph is Phase.OPENING:
                self._opening_places += 1
                if self._opening_places == 2:
                    self.phase, self._draws_left = Phase.MARSHAL_DRAW, 2
                else:
                    self.phase = Phase.OPENING
            else:
                self.phase, self._draws_left = Phase.MARSHAL_DRAW, 1

        return _Plan(apply)

    def _check_hidden_place(self, e: Place, i: int, escape: bool, ph: Phase) -> tuple[int, tuple[int, ...]]:
        if e.hideout is None:
            raise RecordRuleError(i, "a full record needs place.hideout for every place")
        if e.sprint_cards is None and e.sprints:
            raise RecordRuleError(i, "a full record needs place.sprint_cards for every place with sprints")
        h, cards = e.hideout, tuple(e.sprint_cards or ())
        for c in (h, *cards):
            if c not in self._hand:
                raise RecordRuleError(i, f"the Fugitive does not hold {c}{self._where(c)}")
        prev = self._hidden[-1] if self._hidden else 0
        if h <= prev:
            raise RecordRuleError(i, f"hideout {h} must be higher than the previous hideout {prev}")
        reach = prev + 3 + sum(sprint_value(c) for c in cards)
        if h > reach:
            raise RecordRuleError(
                i, f"hideout {h} is out of reach: previous {prev} + 3 + sprint values "
                f"{reach - prev - 3} = {reach}"
            )
        if ph is Phase.OPENING and self._opening_places == 0 and self.ruleset.opening == "two" and not escape:
            rest = self._hand - {h, *cards}
            if not _has_placement(h, rest):
                raise RecordRuleError(
                    i, f"with opening 'two' the first hideout must leave a legal second; after {h} "
                    f"the Fugitive cannot place from {_cards_text(sorted(rest))}"
                )
        return h, cards

    def _where(self, c: int) -> str:
        if c in self._seen:
            return f" ({c} was {self._seen[c]})"
        if c in self._fugitive_cards:
            return f" (he already played it; it was {self._fugitive_cards[c]})"
        return ""

    def _plan_pass(self, i: int) -> _Plan:
        def apply() -> None:
            if self.ruleset.pass_draw and self._nonempty():
                self.phase = Phase.AFTER_PASS
            else:
                self.phase, self._draws_left = Phase.MARSHAL_DRAW, 1

        return _Plan(apply)

    # ------------------------------------------------------------------ draws
    def _plan_fugitive_draw(self, e: FugitiveDraw, i: int, ph: Phase) -> _Plan:
        d = e.deck
        if self._decks[d] == 0:
            raise RecordRuleError(i, f"fugitive_draw from deck {d}, but deck {d} is empty")
        if ph is Phase.AFTER_PASS:
            low = self._nonempty()[0]
            if d != low:
                raise RecordRuleError(
                    i, f"the extra draw after a pass must come from the lowest deck with cards, "
                    f"deck {low}, not deck {d}"
                )
        card = e.card
        if self.full:
            if card is None:
                raise RecordRuleError(i, "a full record needs fugitive_draw.card")
            if deck_of(card) != d:
                raise RecordRuleError(i, f"card {card} is not in deck {d}")
            if card in self._seen or card in self._fugitive_cards:
                where = self._seen.get(card) or self._fugitive_cards[card]
                raise RecordRuleError(i, f"fugitive_draw of {card}, but {card} was already {where}")
        elif card is not None:
            raise RecordRuleError(
                i, "fugitive_draw.card is a hidden field; a Marshal's record (no fugitive_setup) cannot carry it"
            )

        def apply() -> None:
            self._decks[d] -= 1
            self._hand_size += 1
            if card is not None:
                self._hand.add(card)
                self._fugitive_cards[card] = f"drawn by the Fugitive (event {i})"
            if ph is Phase.AFTER_PASS:
                self.phase, self._draws_left = Phase.MARSHAL_DRAW, 1
            else:
                self.phase = Phase.FUGITIVE_ACTION

        return _Plan(apply)

    def _plan_marshal_draw(self, e: MarshalDraw, i: int, left: int) -> _Plan:
        c = e.card
        d = deck_of(c)
        if d == 0:
            raise RecordRuleError(i, f"marshal_draw of {c}, but {c} is in no deck")
        if c in self._seen:
            raise RecordRuleError(i, f"marshal_draw of {c}, but {c} was already {self._seen[c]}")
        if self._decks[d] == 0:
            raise RecordRuleError(i, f"marshal_draw of {c}, but deck {d} is empty")
        if c in self._fugitive_cards:
            raise RecordRuleError(i, f"marshal_draw of {c}, but {c} is the Fugitive's ({self._fugitive_cards[c]})")

        def apply() -> None:
            self._decks[d] -= 1
            self._marshal_hand.append(c)
            self._seen[c] = f"drawn (event {i})"
            self._draws_left = left - 1
            self.phase = Phase.MARSHAL_GUESS if self._draws_left <= 0 else Phase.MARSHAL_DRAW

        return _Plan(apply)

    # ------------------------------------------------------------------ guesses
    def _check_guessable(self, numbers: Iterable[int], i: int) -> tuple[str, ...]:
        warnings = []
        for n in numbers:
            if n in self._face_up_pos:
                raise RecordRuleError(
                    i, f"{n} is already face up (position {self._face_up_pos[n]}); a face-up number cannot be guessed"
                )
            if n in self._marshal_hand:
                warnings.append(f"{n} is in the Marshal's hand, so it cannot hit")
        return tuple(warnings)

    def _check_reveals(self, reveals: list[tuple[int, int, tuple[int, ...]]], i: int) -> None:
        """Public checks of hideouts turned face up at once: (position, number, sprint cards)."""
        n_row = len(self._sprints)
        used: set[int] = set()
        positions: set[int] = set()
        for pos, number, cards in reveals:
            if pos > n_row:
                raise RecordRuleError(
                    i, f"reveal of {number} at position {pos}, but the row has only {n_row} hideouts"
                )
            up = self._number[pos - 1]
            if up is not None:
                raise RecordRuleError(i, f"reveal of {number} at position {pos}, but position {pos} is already face up ({up})")
            if pos in positions:
                raise RecordRuleError(i, f"two reveals name position {pos}")
            positions.add(pos)
            if len(cards) != self._sprints[pos - 1]:
                raise RecordRuleError(
                    i, f"the hideout at position {pos} has {self._sprints[pos - 1]} sprint cards, "
                    f"but the reveal lists {len(cards)}"
                )
            for c, role in [(number, "hideout"), *((c, "sprint card") for c in cards)]:
                if c in self._seen:
                    raise RecordRuleError(i, f"revealed {role} {c}, but {c} was already {self._seen[c]}")
                if c in used or c in self._face_up_pos:
                    raise RecordRuleError(i, f"revealed {role} {c}, but {c} is revealed twice")
                used.add(c)
        # known numbers must increase along the row, with room for the hideouts between
        new = {pos: number for pos, number, _ in reveals}
        known = sorted([(p, n) for n, p in self._face_up_pos.items()] + list(new.items()))
        for (pa, a), (pb, b) in zip(known, known[1:]):
            if pa not in new and pb not in new:
                continue
            if b <= a:
                raise RecordRuleError(i, f"{b} at position {pb} must be higher than {a} at position {pa}")
            if b - a < pb - pa:
                raise RecordRuleError(
                    i, f"{b} at position {pb} leaves no room for the {pb - pa - 1} hideouts between it "
                    f"and {a} at position {pa}"
                )

    def _check_hidden_guess(self, numbers: tuple[int, ...], hit: bool, reveals, i: int) -> None:
        truth = all(n in self._hidden_pos for n in numbers)
        if hit != truth:
            if truth:
                raise RecordRuleError(i, f"every guessed number ({_cards_text(numbers)}) is a face-down hideout, so the guess hits")
            missing = [n for n in numbers if n not in self._hidden_pos]
            raise RecordRuleError(i, f"{_cards_text(missing)} is not a face-down hideout, so the guess misses")
        for pos, number, cards in reveals:
            real = self._hidden_pos[number]
            if pos != real:
                raise RecordRuleError(i, f"{number} lies at position {real}, not {pos}")
            if sorted(cards) != sorted(self._hidden_sprints[real - 1]):
                raise RecordRuleError(
                    i, f"the sprint cards under {number} are [{_cards_text(sorted(self._hidden_sprints[real - 1]))}], "
                    f"not [{_cards_text(sorted(cards))}]"
                )

    def _reveal(self, reveals: list[tuple[int, int, tuple[int, ...]]], i: int) -> None:
        for pos, number, cards in reveals:
            self._number[pos - 1] = number
            self._revealed_at[pos - 1] = i
            self._revealed_sprints[pos - 1] = tuple(cards)
            self._face_up_pos[number] = pos
            self._seen[number] = f"revealed at position {pos} (event {i})"
            for c in cards:
                self._seen[c] = f"revealed as a sprint card at position {pos} (event {i})"
            self._hidden_pos.pop(number, None)
        self._face_down -= len(reveals)

    def _plan_guess(self, e: Guess, i: int) -> _Plan:
        warnings = self._check_guessable(e.numbers, i)
        reveals = [(r.position, r.hideout, tuple(r.sprint_cards)) for r in e.reveals] if e.hit else []
        if e.hit:
            if sorted(r[1] for r in reveals) != sorted(e.numbers):
                raise RecordRuleError(i, "a hit must reveal exactly the guessed numbers")
            self._check_reveals(reveals, i)
        if self.full:
            self._check_hidden_guess(e.numbers, e.hit, reveals, i)

        def apply() -> None:
            if reveals:
                self._reveal(reveals, i)
            if self._face_down == 0:
                self._end("marshal")
            else:
                self.phase = Phase.FUGITIVE_DRAW

        return _Plan(apply, warnings)

    def _plan_manhunt(self, e: ManhuntGuess, i: int) -> _Plan:
        warnings = self._check_guessable((e.number,), i)
        reveals = []
        if e.hit:
            if e.position is None:
                raise RecordRuleError(i, "a Manhunt hit needs the position of the revealed hideout")
            reveals = [(e.position, e.number, tuple(e.sprint_cards or ()))]
            self._check_reveals(reveals, i)
        if self.full:
            self._check_hidden_guess((e.number,), e.hit, reveals, i)

        def apply() -> None:
            if not e.hit:
                self._end("fugitive")
                return
            self._reveal(reveals, i)
            if self._face_down == 0:
                self._end("marshal")

        return _Plan(apply, warnings)

    def _end(self, winner: Player) -> None:
        self.phase = Phase.OVER
        self._winner = winner


def _has_placement(prev: int, hand: set[int]) -> bool:
    """Whether some card of ``hand`` (other than 42) can be placed after ``prev``.

    Using every other card as a sprint card gives the longest reach, so that is
    the only case to try for each candidate hideout.
    """
    usable = [c for c in hand if c != ESCAPE]
    total = sum(sprint_value(c) for c in usable)
    return any(prev < h <= prev + 3 + total - sprint_value(h) for h in usable)


def validate(record: Record) -> Validator:
    """Check a whole record; return the validator at its end or raise :class:`RecordRuleError`."""
    v = Validator.for_record(record)
    for event in record.events:
        v.push(event)
    return v
