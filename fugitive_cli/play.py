"""``fugitive play``: one game in the terminal against a random bot.

The human sees only their own view (engine.views), exactly as a bot would; every
input is checked by the engine, and an illegal move or a typo re-prompts with the
engine's reason. End of input (Ctrl-D) or "quit" leaves cleanly.
"""
from __future__ import annotations

import argparse
import random
import re
import sys
from typing import Callable, Iterable

from engine import (
    DeclineDraw,
    Draw,
    FugitiveView,
    HuntGuess,
    IllegalMove,
    MakeGuess,
    MarshalView,
    Move,
    PassTurn,
    Phase,
    PlaceHideout,
    apply,
    fugitive_view,
    marshal_view,
    new_game,
)
from engine.bots import RandomFugitive, RandomMarshal
from engine.record import Event, FugitiveDraw, Guess, ManhuntGuess, MarshalDraw, Pass, Place, Ruleset
from engine.state import GameState, Hideout, MarshalDrewFrom

from .args import fail, output_file, write_text_file


class Quit(Exception):
    """The player typed quit or closed the input. ``state``: the game as it stood (set
    by :func:`play`, so that ``--save`` can keep a game left halfway)."""

    state: GameState | None = None


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--role", choices=("marshal", "fugitive"), default="marshal", help="your role (default marshal)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the deal and the bot (default random)")
    parser.add_argument("--ruleset-two", action="store_true", help='opening "two": exactly two opening hideouts')
    parser.add_argument("--pass-draw", action="store_true", help="second edition: bonus draw after a pass")
    parser.add_argument("--save", metavar="PATH",
                        help="write the full record (docs/record.md) here at the end, or when you quit")


# --------------------------------------------------------------------------- rendering
def _cards(cards: Iterable[int]) -> str:
    return " ".join(str(c) for c in sorted(cards)) or "-"


def render_marshal_row(view: MarshalView) -> str:
    parts = []
    for h in view.row:
        if h.number is None:
            parts.append("??" + (f"+{h.sprints}" if h.sprints else ""))
        elif h.sprint_cards is None:  # 42: its sprint cards stay hidden
            parts.append(f"{h.number}" + (f"+{h.sprints}" if h.sprints else ""))
        else:
            parts.append(f"{h.number}" + (f"+({_cards(h.sprint_cards)})" if h.sprint_cards else ""))
    return "  ".join(parts)


def render_fugitive_row(row: Iterable[Hideout]) -> str:
    parts = []
    for h in row:
        text = str(h.number) if h.face_up else f"[{h.number}]"
        if h.sprint_cards:
            text += f"+({_cards(h.sprint_cards)})"
        parts.append(text)
    return "  ".join(parts)


def show_marshal(view: MarshalView, write: Callable[[str], None]) -> None:
    write("")
    write(f"Row: {render_marshal_row(view)}   (?? = face down, +n = sprint cards)")
    write(f"Your hand: {_cards(view.hand)}   Fugitive holds {view.fugitive_hand_size} cards   Decks: {_decks(view.deck_sizes)}")


def show_fugitive(view: FugitiveView, write: Callable[[str], None]) -> None:
    write("")
    write(f"Row: {render_fugitive_row(view.row)}   ([n] = still face down)")
    write(f"Your hand: {_cards(view.hand)}   Marshal holds {view.marshal_hand_size} cards   Decks: {_decks(view.deck_sizes)}")


def _decks(sizes: Iterable[int]) -> str:
    return ", ".join(f"{i + 1}: {n}" for i, n in enumerate(sizes))


def describe_for_marshal(event: Event) -> str:
    """A Fugitive event as the Marshal learns it."""
    if isinstance(event, FugitiveDraw):
        return f"The Fugitive draws from deck {event.deck}."
    if isinstance(event, Place):
        s = f" with {event.sprints} sprint card{'s' if event.sprints != 1 else ''}"
        if event.is_escape:
            return f"The Fugitive plays 42{s}: the escape!"
        return f"The Fugitive places a hideout{s}."
    if isinstance(event, Pass):
        return "The Fugitive passes."
    return ""


def describe_for_fugitive(event: Event | MarshalDrewFrom) -> str:
    if isinstance(event, MarshalDrewFrom):
        return f"The Marshal draws from deck {event.deck}."
    if isinstance(event, Guess):
        nums = ", ".join(map(str, event.numbers))
        if event.hit:
            return f"The Marshal guesses {nums}: hit! Revealed: " + ", ".join(f"{r.hideout} (position {r.position})" for r in event.reveals)
        return f"The Marshal guesses {nums}: miss."
    if isinstance(event, ManhuntGuess):
        return f"Manhunt: the Marshal guesses {event.number}: {'hit' if event.hit else 'miss'}."
    return ""


# --------------------------------------------------------------------------- input
_NUMBERS = re.compile(r"[\s,+]+")


def parse_numbers(text: str) -> list[int]:
    """Whole numbers separated by spaces, commas or plus signs; ValueError otherwise."""
    parts = [p for p in _NUMBERS.split(text.strip()) if p]
    if not parts:
        raise ValueError("type at least one number")
    numbers = []
    for p in parts:
        if not (p.isascii() and p.isdigit()):  # int() would take "1_0" and other scripts' digits
            raise ValueError(f"not a number: {p[:20]!r}")
        numbers.append(int(p[:6]) if len(p) <= 6 else 10**6)  # no card is that high: refused later
    return numbers


def ask_move(
    view: MarshalView | FugitiveView, read: Callable[[str], str | None], write: Callable[[str], None]
) -> Move:
    """Prompt until the text parses into a move (legality is the engine's job)."""
    phase = view.phase
    while True:
        if phase in (Phase.FUGITIVE_DRAW, Phase.MARSHAL_DRAW):
            decks = [i + 1 for i, n in enumerate(view.deck_sizes) if n]
            prompt = f"Draw from which deck ({'/'.join(map(str, decks))})? "
        elif phase is Phase.FUGITIVE_BONUS_DRAW:
            prompt = "Take the bonus card from the lowest deck? (y/n) "
        elif phase in (Phase.FUGITIVE_OPENING, Phase.FUGITIVE_PLACE):
            can_pass = phase is Phase.FUGITIVE_PLACE or (isinstance(view, FugitiveView) and view.opening_placed == 1)
            prompt = "Place: hideout then sprint cards, e.g. '12 5 7'" + (" (or 'pass')" if can_pass else "") + ": "
        elif phase is Phase.MARSHAL_GUESS:
            prompt = "Guess one or more numbers, e.g. '12' or '12 15': "
        else:
            prompt = "Manhunt: guess one number: "
        text = read(prompt)
        if text is None:
            raise Quit
        text = text.strip().lower()
        if text in ("q", "quit", "exit"):
            raise Quit
        if not text:
            continue
        try:
            if phase is Phase.FUGITIVE_BONUS_DRAW:
                if text in ("y", "yes"):
                    decks = [i + 1 for i, n in enumerate(view.deck_sizes) if n]
                    return Draw(decks[0])
                if text in ("n", "no"):
                    return DeclineDraw()
                raise ValueError("answer y or n")
            if phase in (Phase.FUGITIVE_OPENING, Phase.FUGITIVE_PLACE) and text in ("p", "pass"):
                return PassTurn()
            numbers = parse_numbers(text)
            if phase in (Phase.FUGITIVE_DRAW, Phase.MARSHAL_DRAW):
                if len(numbers) != 1:
                    raise ValueError("type one deck number")
                return Draw(numbers[0])
            if phase in (Phase.FUGITIVE_OPENING, Phase.FUGITIVE_PLACE):
                if len(set(numbers)) != len(numbers):
                    raise ValueError("a card is listed twice")
                return PlaceHideout(numbers[0], frozenset(numbers[1:]))
            if phase is Phase.MARSHAL_GUESS:
                if len(set(numbers)) != len(numbers):
                    raise ValueError("a number is listed twice")
                own = sorted(set(numbers) & view.hand)
                if own:
                    write(f"Note: {_cards(own)} in your own hand cannot be a hideout (the guess is still made).")
                return MakeGuess(frozenset(numbers))
            if len(numbers) != 1:
                raise ValueError("in a Manhunt guess one number at a time")
            return HuntGuess(numbers[0])
        except ValueError as exc:
            write(f"Sorry: {exc}.")


# --------------------------------------------------------------------------- game loop
def play(
    role: str,
    seed: int | None,
    ruleset: Ruleset,
    read: Callable[[str], str | None],
    write: Callable[[str], None] = print,
) -> GameState:
    """Play one game, the human in ``role``; returns the final (or last) state.

    Raises Quit when the player quits.
    """
    if seed is None:
        seed = random.randrange(2**31)
    state = new_game(seed, ruleset)
    human_is_fugitive = role == "fugitive"
    # each side's view, narration and bot by its own type: the human's view and the
    # bot's are never the same side
    bot_move: Callable[[GameState], Move]
    if human_is_fugitive:
        marshal_bot = RandomMarshal(seed + 1)
        bot_move = lambda s: marshal_bot.choose(marshal_view(s))  # noqa: E731
    else:
        fugitive_bot = RandomFugitive(seed + 1)
        bot_move = lambda s: fugitive_bot.choose(fugitive_view(s))  # noqa: E731

    def narrate(seen: int) -> int:
        """Write the events from ``seen`` on as the human learns them; the new count."""
        if human_is_fugitive:
            f_events = fugitive_view(state).events
            lines = [describe_for_fugitive(e) for e in f_events[seen:]]
            count = len(f_events)
        else:
            m_events = marshal_view(state).events
            lines = [describe_for_marshal(e) for e in m_events[seen:]]
            count = len(m_events)
        for line in lines:
            if line:
                write(line)
        return count

    write(f"Fugitive - you are the {role.capitalize()} (seed {seed}, opening {ruleset.opening}, pass_draw {str(ruleset.pass_draw).lower()}).")
    seen = 0  # events already narrated
    while not state.is_over:
        mine = (state.current_player == "fugitive") == human_is_fugitive
        seen = narrate(seen)
        if not mine:
            state = apply(state, bot_move(state))
            continue
        view: MarshalView | FugitiveView
        if human_is_fugitive:
            view = fugitive_view(state)
            show_fugitive(view, write)
        else:
            view = marshal_view(state)
            show_marshal(view, write)
        while True:
            try:
                move = ask_move(view, read, write)
            except Quit as quit:
                quit.state = state
                raise
            try:
                state = apply(state, move)
                break
            except IllegalMove as exc:
                write(f"Not allowed: {exc.reason}.")
        if not human_is_fugitive:
            ev = state.public_events[-1]
            if isinstance(ev, MarshalDraw):
                write(f"You draw {ev.card}.")
            elif isinstance(ev, Guess):
                write("Hit! " + ", ".join(f"{r.hideout} at position {r.position}, sprint cards {_cards(r.sprint_cards)}" for r in ev.reveals) if ev.hit else "Miss.")
            elif isinstance(ev, ManhuntGuess):
                write("Hit!" if ev.hit else "Miss.")
        else:
            last = state.events[-1]
            if isinstance(last, FugitiveDraw) and isinstance(move, Draw):
                write(f"You draw {last.card}.")
    narrate(seen)
    write("")
    winner = state.winner or ""  # set: the game is over
    write(f"Game over: the {winner.capitalize()} wins.")
    write(f"The whole row: {render_fugitive_row(state.row)}")
    return state


def run(args: argparse.Namespace) -> int:
    ruleset = Ruleset("two" if args.ruleset_two else "one-or-two", bool(args.pass_draw))

    def read(prompt: str) -> str | None:
        try:
            return input(prompt)
        except EOFError:
            return None

    problem = output_file(args.save, "--save")
    if problem:  # found now, not after a whole game
        return fail("play", problem)
    try:
        state = play(args.role, args.seed, ruleset, read)
    except Quit as quit:
        print("\nBye.")
        if args.save and quit.state is not None:
            return _save(quit.state, args.save, "The game so far")
        return 0
    if args.save:
        return _save(state, args.save, "Record")
    return 0


def _save(state: GameState, path: str, what: str) -> int:
    try:
        write_text_file(path, state.record().to_json())
    except OSError as exc:
        print(f"error: could not write {path}: {exc.strerror}", file=sys.stderr)
        return 1
    print(f"{what} written to {path}.")
    return 0
