"""The assistant's logic without Streamlit: one session object, taps in, typed outcomes out.

Why a tap carries a version. A tap travels from the browser to the server while the
page may be moving on: a second tap of a double tap, a tap made just before another
window saved, a tap the browser delivers twice. Streamlit's widgets could not tell
these apart from a new tap: their value is sent again with every rerun, and a value
the server had already entered came back with the next timed rerun of the page and
was entered a second time (issue 29, docs/app.md). So every control of the entry pad
(``app.pad``) is drawn with the version of the record it was drawn for (``n.v``: the
entry count and the store's version of the game) and sends it with the tap;
:meth:`Assistant.tap` applies a tap only to that version, and exactly once (a tap
seen before, by its ``seq``, is a duplicate): a tap made on an older page changes
nothing and says so (:class:`Stale`).

Every outcome is a typed value (:class:`Saved`, :class:`Refused`, :class:`Stale`,
:class:`Changed`, :class:`Duplicate`, :class:`Back`); what the band says is a
:class:`Message` of :class:`Say` parts, put into words by the page in its language.
Everything a browser session holds is one :class:`AssistantSession`.
"""
from __future__ import annotations

import collections
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Literal, Union

from engine.record import (
    Event,
    FugitiveDraw,
    Guess,
    ManhuntGuess,
    MarshalDraw,
    Pass,
    Place,
    Record,
    RecordFormatError,
    Reveal,
    event_from_dict,
    event_from_json,
    event_to_dict,
)
from notepad import CorrectionError, Notepad, RecordRuleError
from solver import Posterior
from store import GameStore, StoreError
from store.access import Principal
from store.policy import Access, Action, Kind

from .assistant_fixes import Fix, earlier_entry, fixes_for_contradiction, fixes_for_refusal, truncating

#: The kinds of tap the pad sends. Entries: place, escape, pass, fdraw (his deck),
#: mdraw (her card), miss; drafts: pick (a number of her guess), hit (open the hit's
#: panel), hitwho, hitpos, hitcard, hitcancel, hitsave; the record: undo, card (a card
#: of the row: open the entry that placed it), open (an entry of the list), close,
#: quick (the corrected value of the entry open), fix (a correction a message offers),
#: dismiss (the band's message); back (to the list of games); escmode (his sprint
#: line shows the escape's 42 +k, or back); draft (a reloaded page gives back what she
#: was entering, kept in the browser: ``DraftCopy``).
TAP_KINDS = frozenset({
    "place", "escape", "pass", "fdraw", "mdraw", "pick", "miss", "hit", "hitwho", "hitpos", "hitcard",
    "hitcancel", "hitsave", "undo", "card", "open", "close", "quick", "fix", "dismiss", "back", "escmode", "draft",
})
#: How many taps a session remembers, to recognise one delivered twice.
SEEN_TAPS = 512


@dataclass(frozen=True)
class Tap:
    """One tap of the entry pad: the game and the version it was drawn for, what was
    tapped (``kind``, ``value``), the page's id of the tap (``seq``); ``fix`` for a
    correction a message offered."""

    game: str
    version: str
    kind: str
    value: int | None = None
    seq: str = ""
    fix: Fix | None = None
    draft: "DraftCopy | None" = None

    @classmethod
    def from_payload(cls, payload: Any) -> "Tap | None":
        """The tap the browser sent (``{"g", "v", "k", "x", "s", "f"}``), or None when
        it is not one (bad input changes nothing)."""
        if not isinstance(payload, dict):
            return None
        kind, game, version, seq = payload.get("k"), payload.get("g"), payload.get("v"), payload.get("s")
        if not (isinstance(kind, str) and kind in TAP_KINDS
                and isinstance(game, str) and isinstance(version, str) and isinstance(seq, str)):
            return None
        value = payload.get("x")
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            return None
        fix = None
        if kind == "fix":
            fix = _fix_from(payload.get("f"))
            if fix is None:
                return None
        draft = None
        if kind == "draft":
            draft = DraftCopy.from_payload(payload.get("d"))
            if draft is None:
                return None
        return cls(game, version, kind, value, seq, fix, draft)


def fix_payload(fix: Fix) -> dict[str, Any]:
    """A fix as the pad sends it back with its tap."""
    return {"i": fix.index, "e": event_to_dict(fix.event), "t": event_to_dict(fix.then) if fix.then else None,
            "x": fix.truncate, "d": fix.dropped}


def _fix_from(data: Any) -> Fix | None:
    if not isinstance(data, dict) or not isinstance(data.get("i"), int):
        return None
    try:
        event = event_from_dict(data.get("e"))
        then = event_from_dict(data["t"]) if data.get("t") is not None else None
    except RecordFormatError:
        return None
    d = data.get("d")
    dropped = d if isinstance(d, int) else 0
    return Fix(data["i"], event, then, bool(data.get("x")), dropped)


@dataclass(frozen=True)
class Say:
    """Words to say, in the page's language when it is drawn: an i18n key and its
    arguments (numbers and words, entries (``Event``), the validator's coded reasons,
    store errors, or other ``Say``)."""

    key: str
    params: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, key: str, /, **params: Any) -> "Say":
        return cls(key, tuple(params.items()))


@dataclass(frozen=True)
class GameRef:
    """A game id to name in words (the page shows it as code, cut short)."""

    id: str


MessageKind = Literal["saved", "info", "warning", "error", "stale"]


@dataclass(frozen=True)
class Message:
    """What the band says after a tap: ``kind`` (saved, info, warning, error, stale);
    ``event`` the entry just saved (drawn large); ``fixes`` corrections offered in one
    tap; ``open_entry`` an earlier entry the message points at (0-based)."""

    kind: MessageKind
    say: Say
    event: Event | None = None
    fixes: tuple[Fix, ...] = ()
    open_entry: int | None = None


@dataclass(frozen=True)
class Said:
    """An outcome that says something in the band (its ``message``)."""

    message: Message
    name: ClassVar[str] = ""


@dataclass(frozen=True)
class Saved(Said):
    """A tap that changed the stored record (an entry, an undo, a correction)."""

    name: ClassVar[str] = "saved"


@dataclass(frozen=True)
class Refused(Said):
    """A tap the rules (or the store) refused: nothing changed; the message says why."""

    name: ClassVar[str] = "refused"


@dataclass(frozen=True)
class Stale(Said):
    """A tap made on a page drawn for another version of the record: nothing changed."""

    name: ClassVar[str] = "stale"


@dataclass(frozen=True)
class Changed:
    """A tap that changed what she is entering (the numbers of her guess, a hit's
    positions, the entry open for correction), not the record."""

    name: ClassVar[str] = "changed"


@dataclass(frozen=True)
class Duplicate:
    """A tap already taken (the browser delivered it twice): nothing happens."""

    name: ClassVar[str] = "duplicate"


@dataclass(frozen=True)
class Back:
    """The back arrow: the page goes to the list of games."""

    name: ClassVar[str] = "back"


Outcome = Union[Saved, Refused, Stale, Changed, Duplicate, Back]


@dataclass
class OpenGame:
    """A game as this session has it: its notepad and the store's version it was read at."""

    pad: Notepad
    stored: int

    @property
    def version(self) -> str:
        return f"{len(self.pad)}.{self.stored}"


@dataclass
class HitDraft:
    """A hit being entered: the guessed numbers and, per number, its position and the
    sprint cards under it; ``active`` the number she chose to look at (None: the first
    one not complete)."""

    numbers: tuple[int, ...]
    manhunt: bool
    positions: dict[int, int | None] = field(default_factory=dict)
    cards: dict[tuple[int, int], tuple[int, ...]] = field(default_factory=dict)
    active: int | None = None


@dataclass
class Draft:
    """What she is entering on one version of a game, not yet an entry: the numbers
    of her guess, a hit's details, the entry open for correction. A new version (any
    change of the record) starts a new draft."""

    version: str
    numbers: tuple[int, ...] = ()
    hit: HitDraft | None = None
    edit: int | None = None
    escape: bool = False  #: his sprint line shows the escape (42 +k)


def _ints(data: Any, most: int = 41) -> tuple[int, ...] | None:
    """A list of whole numbers 0..``most`` from the browser (None when it is not one)."""
    if not isinstance(data, list) or len(data) > 41:
        return None
    if not all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= most for x in data):
        return None
    return tuple(data)


def _cards_at(h: HitDraft, x: int) -> tuple[int, ...]:
    """The sprint cards entered under ``x`` at its position (none while it has none)."""
    p = h.positions.get(x)
    return h.cards.get((x, p), ()) if p else ()


@dataclass(frozen=True)
class DraftCopy:
    """What she is entering (a :class:`Draft`) as the page keeps it, so that a reload
    gives it back (issue 36): the numbers of her guess; a hit's (number, position,
    sprint cards) per number and the number shown; his escape line; the entry open.
    Given back by replaying it as taps on the version it was made on: what the taps
    would refuse is not given back."""

    numbers: tuple[int, ...] = ()
    hit: tuple[tuple[int, int | None, tuple[int, ...]], ...] | None = None
    active: int | None = None
    escape: bool = False
    edit: int | None = None

    @classmethod
    def of(cls, draft: Draft) -> "DraftCopy":
        hit = None
        if draft.hit is not None:
            h = draft.hit
            hit = tuple((x, h.positions.get(x), _cards_at(h, x)) for x in h.numbers)
        return cls(draft.numbers, hit, draft.hit.active if draft.hit is not None else None, draft.escape, draft.edit)

    def payload(self) -> dict[str, Any] | None:
        """As the page keeps it (None: nothing entered)."""
        if self == DraftCopy():
            return None
        return {"n": list(self.numbers), "h": [[x, p, list(c)] for x, p, c in self.hit] if self.hit is not None else None,
                "a": self.active, "e": self.escape, "o": self.edit}

    @classmethod
    def from_payload(cls, data: Any) -> "DraftCopy | None":
        """The copy the page sent back, or None when it is not one (bad input changes nothing)."""
        if not isinstance(data, dict):
            return None
        numbers = _ints(data.get("n"))
        if numbers is None:
            return None
        hit = None
        if data.get("h") is not None:
            if not isinstance(data["h"], list):
                return None
            rows = []
            for row in data["h"]:
                if not isinstance(row, list) or len(row) != 3:
                    return None
                head = _ints([v for v in row[:2] if v is not None])
                cards = _ints(row[2])
                if head is None or cards is None or row[0] is None:
                    return None
                rows.append((row[0], row[1], cards))
            hit = tuple(rows)
        active, edit = data.get("a"), data.get("o")
        if _ints([v for v in (active, edit) if v is not None], most=10_000) is None or not isinstance(data.get("e"), bool):
            return None
        return cls(numbers, hit, active, data["e"], edit)


@dataclass(frozen=True)
class Ack:
    """The last tap the server took on a game's pad, and what came of it (the pad
    shows it pending until then)."""

    seq: str
    outcome: str


@dataclass
class AssistantSession:
    """Everything one browser session of the assistant holds (one object in
    ``st.session_state``): the games it has open, what she is entering, the band's
    messages, the taps taken."""

    games: dict[str, OpenGame] = field(default_factory=dict)
    drafts: dict[str, Draft] = field(default_factory=dict)
    messages: dict[str, Message] = field(default_factory=dict)
    acks: dict[str, Ack] = field(default_factory=dict)
    seen: collections.deque[str] = field(default_factory=lambda: collections.deque(maxlen=SEEN_TAPS))
    #: a stored game this version refuses: (the first entry that breaks a rule, its record)
    broken: dict[str, tuple[int, Record]] = field(default_factory=dict)
    #: when the page last compared its copy with the store (time.monotonic)
    checked: float = 0.0
    #: what the list of games says once (a game just deleted)
    notice: Say | None = None

    def draft(self, gid: str) -> Draft:
        """The draft of the version of ``gid`` this session has (a fresh one after any change)."""
        game = self.games.get(gid)
        version = game.version if game is not None else ""
        draft = self.drafts.get(gid)
        if draft is None or draft.version != version:
            draft = self.drafts[gid] = Draft(version)
        return draft


def event_for(kind: str, value: int | None) -> Event | None:
    """The entry a one-tap control makes (None for a tap that is not an entry)."""
    if kind == "pass":
        return Pass()
    if value is None:
        return None
    if kind == "place":
        return Place(value)
    if kind == "escape":
        return Place(value, 42)
    if kind == "fdraw":
        return FugitiveDraw(value)
    if kind == "mdraw":
        return MarshalDraw(value)
    return None


class Assistant:
    """The assistant's controller: opens games from the store, takes taps, saves.

    ``solve`` gives the posterior of a record (the app's cached solve): a hit's
    likely positions and the contradiction's corrections come from it. ``owner``:
    the browser's owner key; a game opens only for the browser whose list holds it
    (None, said on purpose: no such check, for callers that are not a browser: the
    tests of the taps).
    """

    def __init__(self, store: GameStore, solve: Callable[[Record], Posterior], owner: Principal | str | None):
        self.store = store
        self.solve = solve
        self.owner = owner

    # ------------------------------------------------------------------ games
    def game(self, session: AssistantSession, gid: str) -> OpenGame | Say:
        """The game ``gid`` as this session has it (read from the store the first
        time), or why it cannot be opened here.

        Only the assistant's own games open here: a match's record holds the
        Fugitive's hidden cards, and the match page replays it from its seed, so the
        assistant must neither show it nor change it. And only this browser's: a game
        in another browser's list reads as no game at all (its id is no key: it is in
        the URL, the list and the export), so a stranger learns not even that it exists."""
        game = session.games.get(gid)
        if game is not None:
            return game
        if self.owner is not None and not Access(Kind.ASSISTANT, self.store.role_for_owner(gid, self.owner)).may(
                Action.PLAY):
            return Say.of("game_not_found", gid=GameRef(gid))
        try:
            stored = self.store.open(gid)
        except StoreError as exc:
            return Say.of("game_not_found", gid=GameRef(gid)) if exc.code == "no_game" else Say.of("open_failed", error=exc)
        if stored.info.kind != "assistant":
            return Say.of("game_is_match")
        try:
            pad = stored.notepad()
        except RecordRuleError as exc:
            # saved by an older version whose rules allowed it: the page says where and
            # offers to keep the entries before it
            at = exc.index if exc.index is not None else 0
            session.broken[gid] = (at, stored.record)
            return Say.of("game_unreadable_rule", n=at + 1, reason=exc.reason)
        session.broken.pop(gid, None)
        game = session.games[gid] = OpenGame(pad, stored.info.version)
        return game

    def follow(self, session: AssistantSession, gid: str) -> bool:
        """Drop this session's copy of ``gid`` when the store holds a newer one (saved
        in another window or on another phone), so the page shows what is stored;
        True when it did."""
        game = session.games.get(gid)
        if game is None:
            return False
        try:
            now = self.store.version(gid)
        except StoreError:
            now = None  # deleted: opening it again says so
        if now == game.stored:
            return False
        del session.games[gid]
        return True

    def keep_entries(self, session: AssistantSession, gid: str) -> Message:
        """Save the stored record cut before its first entry that breaks a rule."""
        at, record = session.broken[gid]
        try:
            self.store.save(gid, record.truncated(at), expected=record)
        except StoreError as exc:
            return Message("error", Say.of("refused", reason=exc))
        session.broken.pop(gid, None)
        session.games.pop(gid, None)
        return Message("info", Say.of("kept_entries", n=at))

    # ------------------------------------------------------------------ taps
    def tap(self, session: AssistantSession, gid: str, tap: Tap) -> Outcome:
        """Apply one tap of the pad of game ``gid``: only to the version it was drawn
        for, and once."""
        if tap.seq in session.seen:
            return Duplicate()
        session.seen.append(tap.seq)
        outcome = self._tap(session, gid, tap)
        session.acks[gid] = Ack(tap.seq, outcome.name)
        if isinstance(outcome, Said):
            session.messages[gid] = outcome.message
        elif isinstance(outcome, Changed) and gid in session.messages and session.messages[gid].kind in (
                "error", "stale", "warning"):
            del session.messages[gid]  # she went on: the refusal is answered
        return outcome

    def _tap(self, session: AssistantSession, gid: str, tap: Tap) -> Outcome:
        if tap.kind == "back":
            return Back()
        moved = self.follow(session, gid)
        game = self.game(session, gid)
        if not isinstance(game, OpenGame):
            return Refused(Message("error", game))
        if tap.game != gid or tap.version != game.version:
            say = (Say.of("stale_elsewhere") if moved
                   else Say.of("stale_tap", n=_entries_of(tap.version), m=len(game.pad)))
            return Stale(Message("stale", say))
        draft = session.draft(gid)
        kind, value = tap.kind, tap.value
        if kind in ("place", "escape", "pass", "fdraw", "mdraw"):
            event = event_for(kind, value)
            if event is None:
                return Refused(Message("error", Say.of("bad_tap")))
            return self._enter(session, gid, game, event)
        if kind == "undo":
            return self._undo(session, gid, game)
        if kind == "escmode":
            draft.escape = not draft.escape
            return Changed()
        if kind in ("pick", "miss", "hit"):
            return self._guess(session, gid, game, draft, kind, value)
        if kind.startswith("hit"):
            return self._hit_tap(session, gid, game, draft, kind, value)
        if kind in ("card", "open", "close", "dismiss"):
            return self._open(session, gid, game, draft, kind, value)
        if kind == "quick":
            return self._quick(session, gid, game, draft, value)
        if kind == "draft":
            assert tap.draft is not None  # Tap.from_payload checked it
            return self._restore(session, gid, game, draft, tap.draft)
        assert kind == "fix" and tap.fix is not None  # Tap.from_payload checked it
        return self._correct(session, gid, game, tap.fix, Say.of("fixed", i=tap.fix.index + 1))

    # ------------------------------------------------------------------ entries
    def _enter(self, session: AssistantSession, gid: str, game: OpenGame, event: Event) -> Outcome:
        """Append one entry and save it; a refusal changes nothing and says why, with
        the corrections that would allow it and the earlier entry it points at."""
        before = game.pad.record
        try:
            warnings = game.pad.append(event)  # a refused entry leaves the notepad as it was
        except RecordRuleError as exc:
            return Refused(Message("error", Say.of("refused", reason=exc.reason), fixes=fixes_for_refusal(
                before, event, exc), open_entry=earlier_entry(exc.reason)))
        refusal = self._save(session, gid, game, before)
        if refusal is not None:
            return refusal
        if warnings:
            return Saved(Message("warning", Say.of("warning", reason=tuple(warnings)), event=event))
        return Saved(Message("saved", Say.of("saved", what=event), event=event))

    def _save(self, session: AssistantSession, gid: str, game: OpenGame, before: Record) -> Refused | None:
        """Save the game's record (made from the version this session read). Refused
        (the game was deleted, or changed elsewhere since), nothing is written and this
        session's copy is dropped, so the page shows the stored game."""
        try:
            self.store.save(gid, game.pad.record, expected_version=game.stored)
        except StoreError as exc:
            session.games.pop(gid, None)
            if exc.code == "changed_elsewhere":
                return Refused(Message("error", Say.of("stale_elsewhere")))
            if exc.code == "no_game":
                return Refused(Message("error", Say.of("game_deleted")))
            return Refused(Message("error", Say.of("refused", reason=exc)))
        game.stored += 1
        return None

    def _undo(self, session: AssistantSession, gid: str, game: OpenGame) -> Outcome:
        if not len(game.pad):
            return Refused(Message("error", Say.of("nothing_to_undo")))
        before = game.pad.record
        event = game.pad.undo()
        return self._save(session, gid, game, before) or Saved(Message("info", Say.of("undone", what=event)))

    def _correct(self, session: AssistantSession, gid: str, game: OpenGame, fix: Fix, done: Say) -> Outcome:
        """Correct an earlier entry (and enter the refused one after it) as one save."""
        before = game.pad.record
        if fix.then is None and not fix.truncate and fix.index < len(before.events) and \
                before.events[fix.index] == fix.event:
            session.draft(gid).edit = None  # the value it has: nothing to correct
            return Changed()
        trial = Notepad.from_record(before)
        try:
            trial.correct(fix.index, fix.event, truncate=fix.truncate)
        except CorrectionError as exc:
            return Refused(Message("error", Say.of("correction_breaks", i=exc.index + 1, reason=exc.reason),
                                   fixes=(truncating(fix.index, fix.event, exc),), open_entry=exc.index))
        except (RecordRuleError, IndexError) as exc:
            reason = exc.reason if isinstance(exc, RecordRuleError) else Say.of("no_such_entry", i=fix.index + 1)
            return Refused(Message("error", Say.of("refused", reason=reason)))
        if fix.then is not None:
            try:
                trial.append(fix.then)
            except RecordRuleError as exc:
                return Refused(Message("error", Say.of("refused", reason=exc.reason)))
        game.pad = trial
        return self._save(session, gid, game, before) or Saved(Message("info", done))

    def correct_json(self, session: AssistantSession, gid: str, version: str, index: int, text: str) -> Outcome:
        """Correct entry ``index`` from its JSON (any kind of entry), made on ``version``."""
        game = self.game(session, gid)
        if not isinstance(game, OpenGame):
            return Refused(Message("error", game))
        if version != game.version:
            return Stale(Message("stale", Say.of("stale_tap", n=_entries_of(version), m=len(game.pad))))
        try:
            event = event_from_json(text, index)
        except RecordFormatError as exc:  # bad JSON too: the reader gives it a code
            outcome: Outcome = Refused(Message("error", Say.of("bad_json", reason=exc.reason)))
        else:
            outcome = self._correct(session, gid, game, Fix(index, event), Say.of("corrected_to", i=index + 1,
                                                                                   what=event))
        if isinstance(outcome, Said):
            session.messages[gid] = outcome.message
        return outcome

    # ------------------------------------------------------------------ her guess
    def _guess(self, session: AssistantSession, gid: str, game: OpenGame, draft: Draft, kind: str,
               value: int | None) -> Outcome:
        state = game.pad.state
        manhunt = state.allows("manhunt_guess")
        if not (manhunt or state.allows("guess")) or draft.hit is not None:
            return Refused(Message("error", Say.of("not_now")))
        if kind == "pick":
            if value is None or not 1 <= value <= 41:
                return Refused(Message("error", Say.of("bad_tap")))
            if value in state.face_up_numbers or value in state.face_up_sprint_cards:
                try:  # the rule's own words: a face-up number cannot be guessed
                    game.pad.check(ManhuntGuess(value, False) if manhunt else Guess((value,), False))
                except RecordRuleError as exc:
                    return Refused(Message("error", Say.of("refused", reason=exc.reason)))
            if manhunt:
                draft.numbers = () if draft.numbers == (value,) else (value,)
            else:
                chosen = set(draft.numbers) ^ {value}
                draft.numbers = tuple(sorted(chosen))
            return Changed()
        if not draft.numbers:
            return Refused(Message("warning", Say.of("select_numbers_first")))
        if kind == "miss":
            event = ManhuntGuess(draft.numbers[0], False) if manhunt else Guess(draft.numbers, False)
            return self._enter(session, gid, game, event)
        post = self.solve(game.pad.record)
        draft.hit = HitDraft(draft.numbers, manhunt, {x: likely_position(post, x) for x in draft.numbers})
        return Changed()

    def _hit_tap(self, session: AssistantSession, gid: str, game: OpenGame, draft: Draft, kind: str,
                 value: int | None) -> Outcome:
        hit = draft.hit
        if hit is None:
            return Refused(Message("error", Say.of("not_now")))
        if kind == "hitcancel":
            draft.hit = None
            return Changed()
        if kind == "hitsave":
            return self._save_hit(session, gid, game, draft, hit)
        if kind == "hitwho":
            if value not in hit.numbers:
                return Refused(Message("error", Say.of("bad_tap")))
            hit.active = value
            return Changed()
        x = active_number(game.pad, hit)
        if kind == "hitpos":
            if value not in game.pad.state.face_down:
                return Refused(Message("error", Say.of("bad_tap")))
            hit.positions[x] = value
            hit.active = x
            return Changed()
        # hitcard: a sprint card under the active number's hideout, on or off
        pos = hit.positions.get(x)
        if pos is None or value is None or not 1 <= value <= 41:
            return Refused(Message("error", Say.of("choose_position_first", x=x)))
        have = set(hit.cards.get((x, pos), ()))
        if value not in have and value in seen_cards(game.pad, hit):
            return Refused(Message("error", Say.of("refused", reason=Say.of("card_not_under", c=value))))
        cards = have ^ {value}
        hit.cards[(x, pos)] = tuple(sorted(cards))
        # on to the next revealed card once it has the cards entered for it (more than
        # that, or any under a +0: she stays on it, and saving it offers the recount)
        hit.active = None if len(cards) == needs(game.pad, hit, x) else x
        return Changed()

    def _save_hit(self, session: AssistantSession, gid: str, game: OpenGame, draft: Draft, hit: HitDraft) -> Outcome:
        reveals = []
        for x in hit.numbers:
            pos = hit.positions.get(x)
            if pos is None:
                return Refused(Message("error", Say.of("refused", reason=Say.of("choose_position", x=x))))
            reveals.append((x, pos, hit.cards.get((x, pos), ())))
        if hit.manhunt:
            x, pos, cards = reveals[0]
            event: Event = ManhuntGuess(x, True, pos, cards)
        else:
            event = Guess(hit.numbers, True, tuple(Reveal(pos, x, cards) for x, pos, cards in reveals))
        return self._enter(session, gid, game, event)

    # ------------------------------------------------------------------ correcting
    def _open(self, session: AssistantSession, gid: str, game: OpenGame, draft: Draft, kind: str,
              value: int | None) -> Outcome:
        if kind == "dismiss":
            session.messages.pop(gid, None)
            return Changed()
        if kind == "close":
            draft.edit = None
            return Changed()
        row = game.pad.state.row
        if kind == "card":
            if value is None or not 1 <= value <= len(row):
                return Refused(Message("error", Say.of("bad_tap")))
            value = row[value - 1].placed_at
        if value is None or not 0 <= value < len(game.pad):
            return Refused(Message("error", Say.of("bad_tap")))
        draft.edit = value
        draft.hit = None
        session.messages.pop(gid, None)
        return Changed()

    def _quick(self, session: AssistantSession, gid: str, game: OpenGame, draft: Draft,
               value: int | None) -> Outcome:
        """The entry open for correction takes the tapped value: a placement's sprint
        count, her card, his deck."""
        i = draft.edit
        if i is None or value is None:
            return Refused(Message("error", Say.of("not_now")))
        old = game.pad.events[i]
        if isinstance(old, Place):
            event: Event = Place(value, old.hideout)
        elif isinstance(old, MarshalDraw):
            event = MarshalDraw(value)
        elif isinstance(old, FugitiveDraw):
            event = FugitiveDraw(value)
        else:
            return Refused(Message("error", Say.of("not_now")))
        return self._correct(session, gid, game, Fix(i, event), Say.of("corrected_to", i=i + 1, what=event))

    def _restore(self, session: AssistantSession, gid: str, game: OpenGame, draft: Draft,
                 copy: DraftCopy) -> Outcome:
        """A reloaded page gives back what she was entering on this version: replayed as
        the taps that made it, on a fresh draft (she has not gone on since); all of it,
        or nothing when a tap of it is refused now."""
        if DraftCopy.of(draft) != DraftCopy():
            return Changed()  # she has begun again: hers stands
        steps: list[tuple[str, int | None]] = []
        if copy.edit is not None:
            steps.append(("open", copy.edit))
        if copy.escape:
            steps.append(("escmode", None))
        steps += [("pick", x) for x in copy.numbers]
        if copy.hit is not None:
            if tuple(x for x, _, _ in copy.hit) != copy.numbers:
                return Changed()
            steps.append(("hit", None))
            for x, pos, cards in copy.hit:
                steps.append(("hitwho", x))
                if pos is not None:
                    steps.append(("hitpos", pos))
                steps += [("hitcard", c) for c in cards]
        for kind, value in steps:
            if kind == "escmode":
                draft.escape = True
                continue
            outcome = self._draft_step(session, gid, game, draft, kind, value)
            if not isinstance(outcome, Changed):
                session.drafts[gid] = Draft(draft.version)  # nothing of it
                return Changed()
        if draft.hit is not None:
            draft.hit.active = copy.active if copy.active in draft.hit.numbers else None
        return Changed()

    def _draft_step(self, session: AssistantSession, gid: str, game: OpenGame, draft: Draft, kind: str,
                    value: int | None) -> Outcome:
        if kind in ("pick", "hit"):
            return self._guess(session, gid, game, draft, kind, value)
        if kind.startswith("hit"):
            return self._hit_tap(session, gid, game, draft, kind, value)
        return self._open(session, gid, game, draft, kind, value)

    # ------------------------------------------------------------------ what the page shows
    def contradiction(self, record: Record, post: Posterior) -> Message:
        """The solver's contradiction: the entry after which no hidden history fits,
        and the corrections of earlier sprint counts after which one does (an
        under-count shows here), each in one tap."""
        i = post.first_inconsistent_event
        fixes = fixes_for_contradiction(record, lambda r: self.solve(r).consistent)
        if i is None or i >= len(record.events):
            return Message("error", Say.of("contradiction_plain", reason=post.reason), fixes=fixes)
        return Message("error", Say.of("contradiction_band", i=i + 1, what=record.events[i]), fixes=fixes, open_entry=i)


def _entries_of(version: str) -> int | str:
    head = version.partition(".")[0]
    return int(head) if head.isdigit() else "?"


def likely_position(post: Posterior | None, x: int) -> int | None:
    """The face-down position where ``x`` is most likely (None when it is nowhere)."""
    if post is None or not post.consistent:
        return None
    best, where = 0, None
    for p in post.positions:
        q = p.counts.get(x, 0)
        if not p.revealed and q > best:
            best, where = q, p.position
    return where


def possible_positions(post: Posterior | None, x: int, face_down: tuple[int, ...]) -> tuple[int, ...]:
    """The face-down positions where ``x`` can stand by the entries (all of them when
    the posterior does not say: a contradiction, or ``x`` nowhere)."""
    if post is None or not post.consistent:
        return face_down
    where = tuple(p.position for p in post.positions if not p.revealed and p.counts.get(x, 0) > 0)
    return where or face_down


def seen_cards(pad: Notepad, hit: HitDraft) -> set[int]:
    """The cards that cannot lie under a revealed hideout: hers, the face-up ones, the
    numbers of this hit."""
    s = pad.state
    return set(s.marshal_hand) | set(s.face_up_numbers) | set(s.face_up_sprint_cards) | set(hit.numbers)


def needs(pad: Notepad, hit: HitDraft, x: int) -> int:
    """How many sprint cards lie under the position chosen for ``x``."""
    pos = hit.positions.get(x)
    return pad.state.row[pos - 1].sprints if pos else 0


def complete(pad: Notepad, hit: HitDraft, x: int) -> bool:
    pos = hit.positions.get(x)
    return pos is not None and len(hit.cards.get((x, pos), ())) >= needs(pad, hit, x)


def active_number(pad: Notepad, hit: HitDraft) -> int:
    """The revealed number the hit's panel shows: the one she picked, else the first
    one not complete, else the last."""
    if hit.active in hit.numbers:
        return hit.active
    return next((x for x in hit.numbers if not complete(pad, hit, x)), hit.numbers[-1])
