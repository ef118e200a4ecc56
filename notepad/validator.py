"""The rules of docs/rules.md checked event by event, incrementally.

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

The validator is an independent check of the engine: it re-derives the turn order
and the rules from the events rather than calling ``engine.apply`` (so the tests can
hold one against the other), but the cards (``engine.cards``) and the rules'
arithmetic (``engine.rules``: reach, the fewest sprint cards, the escape threshold,
``has_placement``) are the engine's, written once.

Every check is done before anything changes: ``check`` and ``push`` compute an
"apply" step only once the event has passed, so an invalid event leaves the
validator exactly as it was.

Every refusal has a ``code`` (a key of :data:`MESSAGES`) and ``params``; its English
reason is the template formatted with the arguments (a :class:`RuleText`), so the
app can say it in another language from the same code and arguments. The templates
here are the one English of each refusal, for the CLI and the app alike: plain words
of the notepad's user, the Marshal ("you drew 17", "his hideout"), no event type or
field name of the JSON (the app shows an event index as the entry number, from 1).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Literal

from engine import rules
from engine.cards import DECKS, ESCAPE, SETUP_DRAWS, STARTING_HAND, deck_of
from engine.errors import CodedError, CodedText
from engine.record import (
    DrawDeclined,
    EndOpening,
    Event,
    FugitiveDraw,
    Guess,
    ManhuntGuess,
    MarshalDraw,
    Pass,
    Place,
    TURN_ENDS,
    Record,
    Ruleset,
)

from .state import (AllowedEntry, FugitiveDrawEntry, GuessEntry, MarshalDrawEntry, PassEntry, Phase, PlaceEntry, Player,
                    PublicState, Slot, frozen_mapping)

#: Deck sizes after the setup draws (deck 1: 11 - 3, deck 2: 14 - 2, deck 3: 13).
START_DECKS: dict[int, int] = {d: len(r) - SETUP_DRAWS[d] for d, r in DECKS.items()}
#: The Fugitive's hand after setup: 1, 2, 3, 42 and five drawn cards.
START_HAND_SIZE = len(STARTING_HAND) + sum(SETUP_DRAWS.values())


class RuleText(CodedText):
    """A rule message of the validator, or a part of one (how a card was seen), with
    its code (a key of :data:`MESSAGES`, :data:`PHRASES` or :data:`WARNINGS`)."""


#: Every kind of rule break: code -> English template (placeholders: ``RecordRuleError.params``),
#: the one English of each (the app's catalogues say it in other languages as ``rule_<code>``).
MESSAGES: dict[str, str] = {
    # the setup of a full record
    "bad_setup": "the Fugitive's starting cards must be 3 of deck 1 (4-14) and 2 of deck 2 (15-28), not {setup}",
    # the order of events
    "game_over": "the game is over ({winner} won): nothing can follow",
    "not_an_event": "this is not an entry: {value}",
    "manhunt_guess_without_escape": "a Manhunt guess comes only after he played 42 and a Manhunt began",
    "not_allowed_now": "{kind} cannot come now: {expected}",
    # place
    "opening_max_two": "on his first turn the Fugitive places at most 2 hideouts",
    "hideout_sprints_exceed_hand": "a hideout with {sprints} sprint cards needs {need} cards besides 42, but by your "
                                   "entries he holds only {held}",
    "escape_sprints_exceed_hand": "42 with {sprints} sprint cards needs {need} cards besides 42, but by your entries "
                                  "he holds only {held}",
    "escape_out_of_reach": "42 is out of reach: from his last hideout {previous}, {sprints} sprint cards reach at "
                           "most {reach}",
    "place_hidden_fields": "your record cannot hold his hidden hideouts or sprint cards (only the full record of a "
                           "match can)",
    "place_needs_hideout": "the full record of a match needs the number of every hideout",
    "place_needs_sprint_cards": "the full record of a match needs the sprint cards under every hideout that has some",
    "fugitive_lacks_card": "the Fugitive does not hold {card}",
    "fugitive_lacks_seen_card": "the Fugitive does not hold {card} ({card} was {how})",
    "fugitive_lacks_played_card": "the Fugitive does not hold {card} any more (he already played it; it was {how})",
    "hideout_not_higher": "hideout {hideout} must be higher than his last hideout {prev}",
    "hideout_out_of_reach": "hideout {hideout} is out of reach: {prev} + 3 + the sprint cards' {sprint_sum} = {reach}",
    "opening_blocks_second": "with exactly 2 opening hideouts the first must leave room for a second; after "
                             "{hideout} he cannot place any of {cards}",
    # fugitive_draw
    "fugitive_draw_empty_deck": "he drew from deck {deck}, but by your entries deck {deck} is empty",
    "extra_draw_not_lowest": "his extra draw after a pass comes from the lowest deck with cards, deck {lowest}, not "
                             "deck {deck}",
    "fugitive_draw_needs_card": "the full record of a match needs the card of each of his draws",
    "card_not_in_deck": "card {card} is not in deck {deck}",
    "fugitive_draw_card_seen": "he drew {card}, but {card} was already {how}",
    "fugitive_draw_hidden_card": "your record cannot hold the cards he drew (only the full record of a match can)",
    # marshal_draw
    "card_in_no_deck": "you drew {card}, but {card} is in no deck",
    "marshal_draw_card_seen": "you drew {card}, but {card} was already {how}",
    "marshal_draw_empty_deck": "you drew {card}, but by your entries deck {deck} is empty",
    "marshal_draw_fugitive_card": "you drew {card}, but {card} is the Fugitive's ({how})",
    # guesses and reveals
    "guess_face_up": "{number} is already face up (position {position}): a face-up number cannot be guessed",
    "guess_face_up_sprint": "{number} lies face up as a sprint card (position {position}): a face-up number cannot "
                            "be guessed",
    "hit_reveals_other_numbers": "a hit turns up exactly the numbers you guessed",
    "manhunt_hit_needs_position": "a Manhunt hit needs the position of the hideout it turned up",
    "reveal_beyond_row": "{number} at position {position}, but the row has only {row} hideouts",
    "reveal_face_up": "{number} at position {position}, but position {position} is already face up ({face_up})",
    "reveal_position_twice": "two of the numbers are at position {position}",
    "reveal_sprint_count": "the hideout at position {position} has {sprints} sprint cards, but you listed {listed}",
    "revealed_card_seen": "the {role} {card} turned up, but {card} was already {how}",
    "revealed_card_twice": "the {role} {card} is listed twice",
    "reveal_not_increasing": "{number} at position {position} must be higher than {prev} at position {prev_position}",
    "reveal_no_room": "{number} at position {position} leaves no room for the {between} hideouts between it and "
                      "{prev} at position {prev_position}",
    "guess_hits": "every number you guessed ({numbers}) is a face-down hideout, so the guess hits",
    "guess_misses": "{numbers} is not a face-down hideout, so the guess misses",
    "reveal_wrong_position": "{number} lies at position {real}, not {position}",
    "reveal_wrong_sprint_cards": "the sprint cards under {number} are {real}, not {listed}",
}

#: Parts of messages (arguments that are words, not numbers): code -> English template.
PHRASES: dict[str, str] = {
    # who won
    "player_fugitive": "the Fugitive",
    "player_marshal": "you",
    # kinds of event
    "kind_place": "his hideout",
    "kind_pass": "his pass",
    "kind_fugitive_draw": "his draw",
    "kind_marshal_draw": "your draw",
    "kind_guess": "your guess",
    "kind_manhunt_guess": "a Manhunt guess",
    "kind_end_opening": "the end of his first turn",
    "kind_decline_draw": "declining his extra draw",
    # what a revealed card was
    "role_hideout": "hideout",
    "role_sprint_card": "sprint card",
    # how a card was seen (``event``: the 0-based event index)
    "how_drawn": "drawn by you (event {event})",
    "how_revealed": "turned up at position {position} (event {event})",
    "how_revealed_sprint": "turned up as a sprint card at position {position} (event {event})",
    "how_in_setup": "among the Fugitive's starting cards",
    "how_drawn_by_fugitive": "drawn by the Fugitive (event {event})",
    # what the rules wanted instead of an event not allowed now
    "expect_opening_place": "his first turn starts with a hideout (no draw)",
    "expect_opening_two": "in this game he opens with exactly 2 hideouts",
    "expect_opening_second": "he may place a second opening hideout, else you draw 2 cards",
    "expect_fugitive_draw": "his turn starts with his draw while a deck has cards",
    "expect_fugitive_action": "after his draw he places a hideout or passes",
    "expect_after_pass": "after his pass come his extra draw or your draw",
    "expect_marshal_first_turn": "your first turn is 2 draws, then a guess",
    "expect_marshal_second_draw": "your first turn needs a second draw before the guess",
    "expect_marshal_draw": "your turn starts with a draw while a deck has cards",
    "expect_marshal_guess": "after your draw comes your guess",
    "expect_manhunt": "after his escape only Manhunt guesses follow",
    "expect_over": "the game is over",
}

#: Warnings of an accepted event: code -> English template.
WARNINGS: dict[str, str] = {
    "guess_in_marshal_hand": "{number} is in your hand, so it cannot hit",
}

_TEMPLATES: dict[str, str] = {**MESSAGES, **PHRASES, **WARNINGS}


def rule_text(code: str, **args: object) -> RuleText:
    """The English text of ``code`` (a key of MESSAGES, PHRASES or WARNINGS) with ``args``."""
    return RuleText(_TEMPLATES[code].format(**args), code, args)


class RecordRuleError(CodedError, ValueError):
    """A record (or one entry) that breaks a rule of docs/rules.md.

    ``index`` is the 0-based event index (``None`` for the setup), ``reason`` the
    rule as a :class:`RuleText`: its English words (the message reads ``event 7:
    <reason>``), its ``code`` (a key of :data:`MESSAGES`) and ``params`` (the values
    its template mentions), so that another layer (the app) can say it in another
    language. A reason is always coded: raise one with
    ``RecordRuleError.rule(index, code, **params)``.
    """

    reason: RuleText
    code: str

    def __init__(self, index: int | None, reason: RuleText):
        self.index = index
        self.reason = reason
        self.code = reason.code
        self.params = dict(reason.params)
        super().__init__(f"event {index}: {reason}" if index is not None else reason)

    def __reduce__(self) -> tuple[Callable[..., RecordRuleError], tuple[type, tuple[object, ...], dict[str, object]]]:
        # the built-in reduce would call cls(message); rebuild from the attributes instead
        return (_rebuild_error, (type(self), self.args, self.__dict__))

    @classmethod
    def rule(cls, index: int | None, code: str, /, **args: object) -> "RecordRuleError":
        """The error for rule break ``code`` at event ``index``: ``raise RecordRuleError.rule(i, code, ...)``."""
        if code not in MESSAGES:
            raise KeyError(f"unknown rule code {code!r}")
        return cls(index, rule_text(code, **args))


def _rebuild_error(cls: type[RecordRuleError], message_args: tuple[object, ...], state: dict[str, object]) -> RecordRuleError:
    err = cls.__new__(cls)
    BaseException.__init__(err, *message_args)
    err.__dict__.update(state)
    return err


@dataclass
class _Plan:
    """A checked event: what it changes and what the app should warn about."""

    apply: Callable[[], None]
    warnings: tuple[RuleText, ...] = ()


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
        self._snapshot: PublicState | None = None  # the state, until the next push
        self.phase = Phase.FUGITIVE_OPENING
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
        self._sprint_up_pos: dict[int, int] = {}  # revealed sprint card -> position (face up too)
        self._face_down = 0
        # cards the Marshal has seen: number -> how ("drawn (event 2)")
        self._seen: dict[int, RuleText] = {}
        self._marshal_hand: list[int] = []
        # full records only: the Fugitive's hidden cards
        self._hand: set[int] = set()
        self._fugitive_cards: dict[int, RuleText] = {}
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

    def check(self, event: Event) -> tuple[RuleText, ...]:
        """Raise :class:`RecordRuleError` if ``event`` may not come next; return warnings."""
        return self._plan(event).warnings

    def push(self, event: Event) -> tuple[RuleText, ...]:
        """Check ``event`` and apply it; on an error nothing changes."""
        plan = self._plan(event)
        self._snapshot = None
        plan.apply()
        self.events += 1
        return plan.warnings

    def copy(self) -> "Validator":
        """An independent validator at the same point of the same game (its containers
        copied; what they hold is immutable): a caller that checked a record can go on
        from there with a longer one without checking the shared events again."""
        new = object.__new__(type(self))
        inside = self.__dict__.copy()
        for name in self.CONTAINERS:
            inside[name] = inside[name].copy()
        new.__dict__ = inside
        return new

    #: the attributes that are containers, which :meth:`copy` copies (a test holds this
    #: list equal to the lists, dicts and sets a validator has)
    CONTAINERS = ("_decks", "_sprints", "_number", "_placed_at", "_revealed_at", "_revealed_sprints",
                  "_face_up_pos", "_sprint_up_pos", "_seen", "_marshal_hand", "_hand", "_fugitive_cards",
                  "_hidden", "_hidden_sprints", "_hidden_pos")

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def winner(self) -> Player | None:
        return self._winner

    @property
    def state(self) -> PublicState:
        """A frozen snapshot of the public state (made once per event: a page reads it
        many times between two entries)."""
        if self._snapshot is None:
            self._snapshot = self._make_state()
        return self._snapshot

    def _make_state(self) -> PublicState:
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
            phase=self._settled_phase(),
            marshal_hand=tuple(sorted(self._marshal_hand)),
            fugitive_hand_size=self._hand_size,
            escaped=self._escaped,
            winner=self._winner,
            allowed=self.allowed_next(),
        )

    def _settled_phase(self) -> Phase:
        """The phase as the engine names it: a draw due while every deck is empty is
        skipped (docs/rules.md), so that turn is already at its guess or placement. (A
        decision that writes no event, one opening hideout or no bonus draw, cannot
        be seen in a record: until the next event the phase stays the Fugitive's.)"""
        if not self._nonempty():
            if self.phase is Phase.MARSHAL_DRAW:
                return Phase.MARSHAL_GUESS
            if self.phase is Phase.FUGITIVE_DRAW:
                return Phase.FUGITIVE_PLACE
        return self.phase

    def allowed_next(self) -> tuple[AllowedEntry, ...]:
        """The kinds of event the rules allow now, each with its constraints (the entries
        a person is offered: a turn end, ``end_opening`` or ``decline_draw``, is accepted
        where it may be but not offered, her next entry, offered then, saying the same)."""
        out: list[AllowedEntry] = []
        ph = self.phase
        nonempty = self._nonempty()
        if ph is Phase.FUGITIVE_OPENING:
            out.append(self._place_entry())
            if self._opening_places >= self._opening_min:
                out += self._marshal_turn_entries(first=True)
        elif ph is Phase.FUGITIVE_DRAW:
            if nonempty:
                out.append(FugitiveDrawEntry(decks=nonempty))
            else:
                out += [self._place_entry(), PassEntry()]
        elif ph is Phase.FUGITIVE_PLACE:
            out += [self._place_entry(), PassEntry()]
        elif ph is Phase.FUGITIVE_BONUS_DRAW:
            if nonempty:
                out.append(
                    FugitiveDrawEntry(
                        decks=nonempty[:1], optional=True,
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

    def _place_entry(self) -> PlaceEntry:
        others = self._hand_size - 1  # cards besides 42
        least = 0  # sprint cards the escape needs at the least (each adds at most 2)
        previous = self._public_previous()
        if previous is not None:
            least = rules.fewest_sprints(previous, ESCAPE)
        return PlaceEntry(
            max_sprints=others - 1 if others >= 1 else None,
            escape_max_sprints=others if least <= others else None,
            escape_min_sprints=least,
        )

    def _public_previous(self) -> int | None:
        """The previous hideout when the Marshal knows it (0 before the first one, or a
        face-up last card); None when the last card is face down."""
        return self._number[-1] if self._number else 0

    def _marshal_turn_entries(self, first: bool) -> list[AllowedEntry]:
        nonempty = self._nonempty()
        if not nonempty:
            return [self._guess_entry("guess")]
        cards = tuple(
            c for d in nonempty for c in DECKS[d] if c not in self._seen and c not in self._fugitive_cards
        )
        note = "the Marshal's first turn: 2 draws, then a guess" if first else ""
        return [MarshalDrawEntry(decks=nonempty, cards=cards, note=note)]

    def _guess_entry(self, kind: Literal["guess", "manhunt_guess"]) -> GuessEntry:
        up = self._face_up_pos
        numbers = tuple(n for n in range(1, 42) if n not in up and n not in self._sprint_up_pos)
        positions = tuple(i + 1 for i, n in enumerate(self._number) if n is None)
        return GuessEntry(
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
            raise RecordRuleError.rule(None, "bad_setup", setup=list(setup))
        self._hand = set(STARTING_HAND) | set(setup)
        for c in setup:
            self._fugitive_cards[c] = rule_text("how_in_setup")

    # ------------------------------------------------------------------ dispatch
    def _resolve(self, kind: str) -> tuple[Phase, int]:
        """The phase an event of ``kind`` meets, after skipping optional steps.

        Optional steps: a second opening place, the extra draw after a pass, and
        every draw while all decks are empty.
        """
        ph, left = self.phase, self._draws_left
        marshal_kind = kind in ("marshal_draw", "guess")
        if ph is Phase.FUGITIVE_OPENING and self._opening_places >= self._opening_min and marshal_kind:
            ph, left = Phase.MARSHAL_DRAW, 2
        elif ph is Phase.FUGITIVE_BONUS_DRAW and marshal_kind:
            ph, left = Phase.MARSHAL_DRAW, 1
        elif ph is Phase.FUGITIVE_DRAW and kind in ("place", "pass") and not self._nonempty():
            ph = Phase.FUGITIVE_PLACE
        if ph is Phase.MARSHAL_DRAW and kind == "guess" and not self._nonempty():
            ph = Phase.MARSHAL_GUESS
        return ph, left

    def _plan(self, event: Event) -> _Plan:
        i = self.events
        kind = str(getattr(event, "type", None))
        if self.phase is Phase.OVER:
            raise RecordRuleError.rule(i, "game_over", winner=rule_text(f"player_{self._winner}"))
        ph, left = self._resolve(kind)
        if isinstance(event, Place) and ph in (Phase.FUGITIVE_OPENING, Phase.FUGITIVE_PLACE):
            return self._plan_place(event, i, ph)
        if isinstance(event, Pass) and ph is Phase.FUGITIVE_PLACE:
            return self._plan_pass(i)
        if isinstance(event, FugitiveDraw) and ph in (Phase.FUGITIVE_DRAW, Phase.FUGITIVE_BONUS_DRAW):
            return self._plan_fugitive_draw(event, i, ph)
        if isinstance(event, MarshalDraw) and ph is Phase.MARSHAL_DRAW:
            return self._plan_marshal_draw(event, i, left)
        if isinstance(event, Guess) and ph is Phase.MARSHAL_GUESS:
            return self._plan_guess(event, i)
        if isinstance(event, ManhuntGuess) and ph is Phase.MANHUNT:
            return self._plan_manhunt(event, i)
        if isinstance(event, EndOpening) and ph is Phase.FUGITIVE_OPENING and self._opening_places >= max(1, self._opening_min):
            return self._plan_turn_end(2)
        if isinstance(event, DrawDeclined) and ph is Phase.FUGITIVE_BONUS_DRAW:
            return self._plan_turn_end(1)
        if kind not in ("place", "pass", "fugitive_draw", "marshal_draw", "guess", "manhunt_guess", *TURN_ENDS):
            raise RecordRuleError.rule(i, "not_an_event", value=repr(event))
        if kind == "manhunt_guess":
            raise RecordRuleError.rule(i, "manhunt_guess_without_escape")
        raise RecordRuleError.rule(
            i, "not_allowed_now", kind=rule_text(f"kind_{kind}"), expected=self._expected(ph, left)
        )

    def _expected(self, ph: Phase, left: int) -> RuleText:
        """What the rules wanted instead, in words, for the phase the event met."""
        return rule_text(self._expected_code(ph, left))

    def _expected_code(self, ph: Phase, left: int) -> str:
        if ph is Phase.FUGITIVE_OPENING:
            if self._opening_places == 0:
                return "expect_opening_place"
            if self._opening_places < self._opening_min:
                return "expect_opening_two"
            return "expect_opening_second"
        if ph is Phase.FUGITIVE_DRAW:
            return "expect_fugitive_draw"
        if ph is Phase.FUGITIVE_PLACE:
            return "expect_fugitive_action"
        if ph is Phase.FUGITIVE_BONUS_DRAW:
            return "expect_after_pass"
        if ph is Phase.MARSHAL_DRAW:
            if left == 2:
                return "expect_marshal_first_turn"
            if left == 1 and self._is_first_marshal_turn():
                return "expect_marshal_second_draw"
            return "expect_marshal_draw"
        if ph is Phase.MARSHAL_GUESS:
            return "expect_marshal_guess"
        if ph is Phase.MANHUNT:
            return "expect_manhunt"
        return "expect_over"

    def _is_first_marshal_turn(self) -> bool:
        return len(self._marshal_hand) == 1

    # ------------------------------------------------------------------ place / pass
    def _plan_place(self, e: Place, i: int, ph: Phase) -> _Plan:
        escape = e.hideout == ESCAPE
        if ph is Phase.FUGITIVE_OPENING and self._opening_places >= 2:
            raise RecordRuleError.rule(i, "opening_max_two")
        others = self._hand_size - 1
        need = e.sprints + (0 if escape else 1)
        if need > others:
            raise RecordRuleError.rule(
                i, "escape_sprints_exceed_hand" if escape else "hideout_sprints_exceed_hand",
                sprints=e.sprints, need=need, held=others,
            )
        previous = self._public_previous()
        if escape and previous is not None and ESCAPE > rules.widest_reach(previous, e.sprints):
            raise RecordRuleError.rule(i, "escape_out_of_reach", previous=previous, sprints=e.sprints,
                                       reach=rules.widest_reach(previous, e.sprints))
        hideout: int | None = None
        sprint_cards: tuple[int, ...] = ()
        if self.full:
            hideout, sprint_cards = self._check_hidden_place(e, i, escape, ph)
        elif (e.hideout is not None and not escape) or e.sprint_cards is not None:
            raise RecordRuleError.rule(i, "place_hidden_fields")

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
                if rules.escape_wins(highest):
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
            if ph is Phase.FUGITIVE_OPENING:
                self._opening_places += 1
                if self._opening_places == 2:
                    self.phase, self._draws_left = Phase.MARSHAL_DRAW, 2
                else:
                    self.phase = Phase.FUGITIVE_OPENING
            else:
                self.phase, self._draws_left = Phase.MARSHAL_DRAW, 1

        return _Plan(apply)

    def _check_hidden_place(self, e: Place, i: int, escape: bool, ph: Phase) -> tuple[int, tuple[int, ...]]:
        if e.hideout is None:
            raise RecordRuleError.rule(i, "place_needs_hideout")
        if e.sprint_cards is None and e.sprints:
            raise RecordRuleError.rule(i, "place_needs_sprint_cards")
        h, cards = e.hideout, tuple(e.sprint_cards or ())
        for c in (h, *cards):
            if c not in self._hand:
                raise self._not_held(i, c)
        prev = self._hidden[-1] if self._hidden else 0
        if h <= prev:
            raise RecordRuleError.rule(i, "hideout_not_higher", hideout=h, prev=prev)
        sprint_sum = rules.sprint_total(cards)
        reach = rules.reach(prev, sprint_sum)
        if h > reach:
            raise RecordRuleError.rule(
                i, "hideout_out_of_reach", hideout=h, prev=prev, sprint_sum=sprint_sum, reach=reach
            )
        if ph is Phase.FUGITIVE_OPENING and self._opening_places == 0 and self.ruleset.opening == "two" and not escape:
            rest = self._hand - {h, *cards}
            if not rules.has_placement(h, frozenset(rest)):
                raise RecordRuleError.rule(i, "opening_blocks_second", hideout=h, cards=_cards_text(sorted(rest)))
        return h, cards

    def _not_held(self, i: int, c: int) -> RecordRuleError:
        """The Fugitive places a card he does not hold, and where that card is instead."""
        if c in self._seen:
            return RecordRuleError.rule(i, "fugitive_lacks_seen_card", card=c, how=self._seen[c])
        if c in self._fugitive_cards:
            return RecordRuleError.rule(i, "fugitive_lacks_played_card", card=c, how=self._fugitive_cards[c])
        return RecordRuleError.rule(i, "fugitive_lacks_card", card=c)

    def _plan_turn_end(self, draws: int) -> _Plan:
        """An ``end_opening`` or ``decline_draw`` (record version 2): the Marshal's turn
        begins with ``draws`` draws, exactly as when her draw comes next without it."""
        def apply() -> None:
            self.phase, self._draws_left = Phase.MARSHAL_DRAW, draws

        return _Plan(apply)

    def _plan_pass(self, i: int) -> _Plan:
        def apply() -> None:
            if self.ruleset.pass_draw and self._nonempty():
                self.phase = Phase.FUGITIVE_BONUS_DRAW
            else:
                self.phase, self._draws_left = Phase.MARSHAL_DRAW, 1

        return _Plan(apply)

    # ------------------------------------------------------------------ draws
    def _plan_fugitive_draw(self, e: FugitiveDraw, i: int, ph: Phase) -> _Plan:
        d = e.deck
        if self._decks[d] == 0:
            raise RecordRuleError.rule(i, "fugitive_draw_empty_deck", deck=d)
        if ph is Phase.FUGITIVE_BONUS_DRAW:
            low = self._nonempty()[0]
            if d != low:
                raise RecordRuleError.rule(i, "extra_draw_not_lowest", lowest=low, deck=d)
        card = e.card
        if self.full:
            if card is None:
                raise RecordRuleError.rule(i, "fugitive_draw_needs_card")
            if deck_of(card) != d:
                raise RecordRuleError.rule(i, "card_not_in_deck", card=card, deck=d)
            if card in self._seen or card in self._fugitive_cards:
                where = self._seen.get(card) or self._fugitive_cards[card]
                raise RecordRuleError.rule(i, "fugitive_draw_card_seen", card=card, how=where)
        elif card is not None:
            raise RecordRuleError.rule(i, "fugitive_draw_hidden_card")

        def apply() -> None:
            self._decks[d] -= 1
            self._hand_size += 1
            if card is not None:
                self._hand.add(card)
                self._fugitive_cards[card] = rule_text("how_drawn_by_fugitive", event=i)
            if ph is Phase.FUGITIVE_BONUS_DRAW:
                self.phase, self._draws_left = Phase.MARSHAL_DRAW, 1
            else:
                self.phase = Phase.FUGITIVE_PLACE

        return _Plan(apply)

    def _plan_marshal_draw(self, e: MarshalDraw, i: int, left: int) -> _Plan:
        c = e.card
        d = deck_of(c)
        if d == 0:
            raise RecordRuleError.rule(i, "card_in_no_deck", card=c)
        if c in self._seen:
            raise RecordRuleError.rule(i, "marshal_draw_card_seen", card=c, how=self._seen[c])
        if self._decks[d] == 0:
            raise RecordRuleError.rule(i, "marshal_draw_empty_deck", card=c, deck=d)
        if c in self._fugitive_cards:
            raise RecordRuleError.rule(i, "marshal_draw_fugitive_card", card=c, how=self._fugitive_cards[c])

        def apply() -> None:
            self._decks[d] -= 1
            self._marshal_hand.append(c)
            self._seen[c] = rule_text("how_drawn", event=i)
            self._draws_left = left - 1
            self.phase = Phase.MARSHAL_GUESS if self._draws_left <= 0 else Phase.MARSHAL_DRAW

        return _Plan(apply)

    # ------------------------------------------------------------------ guesses
    def _check_guessable(self, numbers: Iterable[int], i: int) -> tuple[RuleText, ...]:
        warnings: list[RuleText] = []
        for n in numbers:
            if n in self._face_up_pos:
                raise RecordRuleError.rule(i, "guess_face_up", number=n, position=self._face_up_pos[n])
            if n in self._sprint_up_pos:
                raise RecordRuleError.rule(i, "guess_face_up_sprint", number=n, position=self._sprint_up_pos[n])
            if n in self._marshal_hand:
                warnings.append(rule_text("guess_in_marshal_hand", number=n))
        return tuple(warnings)

    def _check_reveals(self, reveals: list[tuple[int, int, tuple[int, ...]]], i: int) -> None:
        """Public checks of hideouts turned face up at once: (position, number, sprint cards)."""
        n_row = len(self._sprints)
        used: set[int] = set()
        positions: set[int] = set()
        for pos, number, cards in reveals:
            if pos > n_row:
                raise RecordRuleError.rule(i, "reveal_beyond_row", number=number, position=pos, row=n_row)
            up = self._number[pos - 1]
            if up is not None:
                raise RecordRuleError.rule(i, "reveal_face_up", number=number, position=pos, face_up=up)
            if pos in positions:
                raise RecordRuleError.rule(i, "reveal_position_twice", position=pos)
            positions.add(pos)
            if len(cards) != self._sprints[pos - 1]:
                raise RecordRuleError.rule(
                    i, "reveal_sprint_count", position=pos, sprints=self._sprints[pos - 1], listed=len(cards)
                )
            for c, role in [(number, "role_hideout"), *((c, "role_sprint_card") for c in cards)]:
                if c in self._seen:
                    raise RecordRuleError.rule(i, "revealed_card_seen", role=rule_text(role), card=c, how=self._seen[c])
                if c in used or c in self._face_up_pos:
                    raise RecordRuleError.rule(i, "revealed_card_twice", role=rule_text(role), card=c)
                used.add(c)
        # known numbers must increase along the row, with room for the hideouts between
        new = {pos: number for pos, number, _ in reveals}
        known = sorted([(p, n) for n, p in self._face_up_pos.items()] + list(new.items()))
        for (pa, a), (pb, b) in zip(known, known[1:]):
            if pa not in new and pb not in new:
                continue
            if b <= a:
                raise RecordRuleError.rule(
                    i, "reveal_not_increasing", number=b, position=pb, prev=a, prev_position=pa
                )
            if b - a < pb - pa:
                raise RecordRuleError.rule(
                    i, "reveal_no_room", number=b, position=pb, between=pb - pa - 1, prev=a, prev_position=pa
                )

    def _check_hidden_guess(self, numbers: tuple[int, ...], hit: bool, reveals: list[tuple[int, int, tuple[int, ...]]],
                            i: int) -> None:
        truth = all(n in self._hidden_pos for n in numbers)
        if hit != truth:
            if truth:
                raise RecordRuleError.rule(i, "guess_hits", numbers=_cards_text(numbers))
            missing = [n for n in numbers if n not in self._hidden_pos]
            raise RecordRuleError.rule(i, "guess_misses", numbers=_cards_text(missing))
        for pos, number, cards in reveals:
            real = self._hidden_pos[number]
            if pos != real:
                raise RecordRuleError.rule(i, "reveal_wrong_position", number=number, real=real, position=pos)
            if sorted(cards) != sorted(self._hidden_sprints[real - 1]):
                raise RecordRuleError.rule(
                    i, "reveal_wrong_sprint_cards", number=number,
                    real=_cards_text(sorted(self._hidden_sprints[real - 1])), listed=_cards_text(sorted(cards)),
                )

    def _reveal(self, reveals: list[tuple[int, int, tuple[int, ...]]], i: int) -> None:
        for pos, number, cards in reveals:
            self._number[pos - 1] = number
            self._revealed_at[pos - 1] = i
            self._revealed_sprints[pos - 1] = tuple(cards)
            self._face_up_pos[number] = pos
            self._seen[number] = rule_text("how_revealed", position=pos, event=i)
            for c in cards:
                self._seen[c] = rule_text("how_revealed_sprint", position=pos, event=i)
                self._sprint_up_pos[c] = pos
            self._hidden_pos.pop(number, None)
        self._face_down -= len(reveals)

    def _plan_guess(self, e: Guess, i: int) -> _Plan:
        warnings = self._check_guessable(e.numbers, i)
        reveals = [(r.position, r.hideout, tuple(r.sprint_cards)) for r in e.reveals] if e.hit else []
        if e.hit:
            if sorted(r[1] for r in reveals) != sorted(e.numbers):
                raise RecordRuleError.rule(i, "hit_reveals_other_numbers")
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
                raise RecordRuleError.rule(i, "manhunt_hit_needs_position")
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


def public_state(record: Record) -> PublicState:
    """What the Marshal's record says of the game now (hands, decks, row, whose turn),
    read by the validator, which checks the record on the way (``RecordRuleError``)."""
    return validate(record).state


def validate(record: Record) -> Validator:
    """Check a whole record; return the validator at its end or raise :class:`RecordRuleError`."""
    v = Validator.for_record(record)
    for event in record.events:
        v.push(event)
    return v
