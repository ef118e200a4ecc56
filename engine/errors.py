"""The engine's typed errors.

An illegal move is an ordinary event in a game against a human (a mistyped number,
a sprint set that falls short), so it gets its own exception type carrying a reason
in words that the CLI and the app can show as-is.

Every reason a move is refused with (``game.apply`` and ``rules.placement_error``) has
a ``code`` (a key of :data:`MOVE_MESSAGES`) and ``params``: the English reason is the
template formatted with them (a :class:`MoveText`), so the app can say the same reason
in Korean. (``FugitiveView.placement_error`` adds one plain sentence of its own for a
view asked out of turn; the app does not show it.)
"""
from __future__ import annotations


class CodedError:
    """The part every coded error shares: ``code`` names the kind of fault (a key of
    its module's message table) and ``params`` the values its template mentions, so
    that another layer (the app) can say the reason in another language. A reason that
    is a :class:`CodedText` brings its own; one given as plain text has ``code`` None
    and empty ``params``."""

    code: str | None
    params: dict[str, object]

    def _take_code(self, reason: object, code: str | None = None, params: dict[str, object] | None = None) -> None:
        self.code = code if code is not None else getattr(reason, "code", None)
        self.params = dict(params if params is not None else getattr(reason, "params", None) or {})


class IllegalMove(CodedError, Exception):
    """A move that the rules (docs/rules.md) do not allow in this state.

    ``reason`` is a sentence for a human, e.g. "14 is more than 3 above 9 and the
    sprint cards add only +2". The state the move was tried on is never changed.
    Raise one with ``IllegalMove.because(code, **params)`` (``code`` a key of
    :data:`MOVE_MESSAGES`; see :class:`CodedError`).
    """

    def __init__(self, reason: str):
        self.reason = reason
        self._take_code(reason)
        super().__init__(reason)

    @classmethod
    def because(cls, code: str, /, **params: object) -> "IllegalMove":
        """The error for illegal move ``code``: ``raise IllegalMove.because(code, ...)``."""
        if code not in MOVE_MESSAGES:
            raise KeyError(f"unknown move code {code!r}")
        return cls(move_text(code, **params))


class ReplayError(ValueError):
    """A full record that cannot be replayed; ``index`` is the 0-based event index."""

    def __init__(self, message: str, index: int | None = None):
        self.index = index
        self.reason = message
        super().__init__(f"event {index}: {message}" if index is not None else message)


class CodedText(str):
    """English text of a message (or of a part of one) that keeps its code and arguments.

    It *is* the English string, so everything that prints or compares a reason works
    as with a plain string; ``code`` and ``params`` let another layer (the app) say it
    in another language: the template of ``code`` formatted with ``params``. An
    argument may itself be a coded text (a part of the message). The record reader's
    :class:`engine.record.FormatText`, the validator's
    :class:`notepad.validator.RuleText` and the engine's :class:`MoveText` are its kinds.
    """

    code: str
    params: dict[str, object]

    def __new__(cls, text: str, code: str, params: dict[str, object]) -> "CodedText":
        self = super().__new__(cls, text)
        self.code = code
        self.params = dict(params)
        return self

    def __reduce__(self) -> tuple[type["CodedText"], tuple[str, str, dict[str, object]]]:
        return (type(self), (str(self), self.code, self.params))


class MoveText(CodedText):
    """The reason of an illegal move, or a part of one (what the game waits for), with
    its code (a key of :data:`MOVE_MESSAGES` or :data:`MOVE_PHRASES`)."""


#: Every kind of illegal move: code -> English template (placeholders: ``IllegalMove.params``).
MOVE_MESSAGES: dict[str, str] = {
    # any move at the wrong time
    "game_over": "the game is over: the {winner} won",
    "game_over_no_winner": "the game is over",
    "wrong_time": "cannot {what} now: it is {doing}",
    "not_a_move": "{move} is not a move",
    # draws
    "no_such_deck": "there is no deck {deck!r}: the decks are 1, 2 and 3",
    "deck_empty": "deck {deck} is empty",
    "bonus_draw_not_lowest":
        "the bonus draw after a pass comes only from the lowest deck that still has cards: deck {lowest}",
    # placing a hideout (engine.rules.placement_error)
    "not_a_hideout_card": "{hideout!r} is not a hideout card: hideouts are numbered 1 to 42",
    "hideout_not_held": "{hideout} is not in the Fugitive's hand",
    "escape_as_sprint": "42 can never be a sprint card: it is the escape card and can only be placed as a hideout",
    "hideout_is_sprint": "{hideout} cannot be both the hideout and one of its sprint cards",
    "sprint_card_not_held": "sprint card {card} not in the Fugitive's hand",
    "sprint_cards_not_held": "sprint cards {cards} not in the Fugitive's hand",
    "hideout_not_higher": "{hideout} is not higher than the previous hideout {previous}",
    "out_of_reach_no_sprints":
        "{hideout} is more than {step} above {previous} and there are no sprint cards (it needs +{need})",
    "out_of_reach":
        "{hideout} is more than {step} above {previous} and the sprint cards add only +{sprints} (it needs +{need})",
    "opening_blocks_second": "with the 'two' opening the first hideout must leave a legal second placement, "
                             "and after {hideout} with these sprint cards no card left in the hand can follow",
    # passing
    "opening_pass_two": "the Fugitive cannot pass on his first turn: he must place exactly 2 hideouts",
    "opening_pass": "the Fugitive cannot pass on his first turn: he must place 1 or 2 hideouts",
    "opening_needs_second": "with the 'two' opening the Fugitive must place a second hideout on his first turn",
    "fugitive_draw_first": "the Fugitive must first draw a card (from any deck that has cards), then place or pass",
    # guesses
    "not_guessable": "{number!r} cannot be guessed: guesses are numbers from 1 to 41",
    "guess_face_up": "{number} is already face up: guess a number that is not",
    "guess_face_up_sprint": "{number} lies face up as a sprint card: guess a number that is not face up",
    "manhunt_single_guess": "during the Manhunt the Marshal guesses one number at a time (a Manhunt guess)",
    "marshal_draw_first": "the Marshal must draw first (from any deck that has cards), then guess",
    "guess_without_numbers": "a guess needs at least one number",
    "manhunt_guess_not_now": "a Manhunt guess is possible only during a Manhunt; this is a normal guess",
}

#: Parts of the reasons above (``winner``, ``what`` and ``doing``): code -> English template.
MOVE_PHRASES: dict[str, str] = {
    # who won ("winner_" + GameState.winner)
    "winner_fugitive": "Fugitive",
    "winner_marshal": "Marshal",
    # what a move tried to do
    "act_draw": "draw",
    "act_place": "place a hideout",
    "act_pass": "pass",
    "act_decline": "decline a bonus draw (there is none to decline)",
    "act_guess": "guess",
    "act_hunt": "make a Manhunt guess",
    # what the game waits for ("doing_" + the value of every Phase but "over")
    "doing_fugitive_opening": "the Fugitive's first turn (place 1 or 2 hideouts)",
    "doing_fugitive_draw": "the Fugitive's draw",
    "doing_fugitive_place": "the Fugitive's turn to place a hideout or pass",
    "doing_fugitive_bonus_draw": "the Fugitive's optional bonus draw after his pass",
    "doing_marshal_draw": "the Marshal's draw",
    "doing_marshal_guess": "the Marshal's guess",
    "doing_manhunt": "the Manhunt (the Marshal guesses one number at a time)",
}

_MOVE_TEMPLATES: dict[str, str] = {**MOVE_MESSAGES, **MOVE_PHRASES}


def move_text(code: str, /, **params: object) -> MoveText:
    """The English text of ``code`` (a key of MOVE_MESSAGES or MOVE_PHRASES) with ``params``."""
    return MoveText(_MOVE_TEMPLATES[code].format(**params), code, params)
