"""The tap storm: one long browser session entering bot games into the assistant the
way hurried people tap, and checking after every sequence that the stored record is
exactly the entries whose taps the page accepted (issue 29).

Between sequences the session goes back to the list and starts a new game, reopens an
older one from the list, switches the language, or reloads (a phone waking up). Within
a sequence each entry is tapped on the pad, by mouse or by touch, with random gaps
from 0 to 2.5 s: often the next entry's first tap goes while the last one is still on
its way (a tap during a rerun), some final taps are double taps at one place (the
second 60-250 ms after the first), some taps hit a greyed control (a refusal), some are
Undo. What a tap came to is the pad's own account (``window.fgPadLog``); the expected
record is the game's record before the sequence plus, in order, the entry each tap the
pad answered "saved" meant (an Undo: the last one off). A stored entry without such a
tap is a phantom; a double tap whose second tap was taken is counted apart.

Used by ``tests/app/test_browser_taps.py`` (a short storm in ``make test``) and
``bench/storm_bench.py`` (the long one, 2,000 taps and more).
"""
from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass, field

from engine.record import Event, Guess, ManhuntGuess, Place
from store import GameStore

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from app.assistant_logic import event_for
from app.pad import DOUBLE_MS

from . import browser, taps

#: how long a person waits for a control she means to tap before she looks again (ms)
GONE_MS = 3_000
#: (the page's log length, how often the pad was drawn anew, whether a control the pad
#: hears stands at (x, y): not greyed out by the browser, not a toggle, not a gap)
RENDERS = """([x, y]) => { const e = document.elementFromPoint(x, y);
    const c = e && e.closest('[data-testid="fg-pad"] [data-k], [data-testid="fg-row"] [data-pick]');
    return [(window.fgPadLog || []).length,
            (document.querySelector('[data-renders]') || {dataset: {}}).dataset.renders || '0',
            !!c && !c.disabled && !e.closest('[data-toggle]')]; }"""
#: a tap the page heard is in its log at once (its click handler runs as the finger lifts);
#: one not there after this long made no click (ms)
HEARD_MS = 1_000

#: the bot games a storm plays: "random" (the engine's random bots), "<marshal>-<fugitive>"
#: (the advisor's bots)
KINDS = ("random", "solver-heuristic", "solver-random", "notepad-heuristic")


@dataclass
class Report:
    """What a storm did and found."""

    taps: int = 0
    sequences: int = 0
    games: int = 0
    entries: int = 0  #: entries the page saved
    outcomes: dict[str, int] = field(default_factory=dict)
    doubles: int = 0  #: double taps made
    second_taken: list[str] = field(default_factory=list)  #: double taps whose second tap was taken
    slow_seconds: int = 0  #: "double" taps whose second tap came too late to be one (an ordinary tap)
    #: "double" taps whose second tap came on the same control once the page had answered the
    #: first, the record unchanged (a refused card tapped again): a tap she means (issue 36)
    retaps: int = 0
    gone: int = 0  #: taps not made: the control went away (the page moved on) before the thumb came
    unheard: int = 0  #: taps the page heard nothing of (the control drawn anew under the finger: no click)
    deaf: list[str] = field(default_factory=list)  #: taps on a control the page heard nothing of, the pad not redrawn
    phantoms: list[str] = field(default_factory=list)  #: sequences whose stored record is not what the page accepted
    seconds: float = 0.0

    def line(self) -> str:
        said = ", ".join(f"{k} {v}" for k, v in sorted(self.outcomes.items()))
        return (f"{self.taps} taps in {self.sequences} sequences over {self.games} games, {self.seconds:.0f} s: "
                f"{self.entries} entries saved; taps {said}; {self.doubles} double taps, "
                f"{len(self.second_taken)} second taps taken ({self.slow_seconds} came too late to be a double "
                f"tap, {self.retaps} on the same control after its answer); {self.gone} controls gone before the tap, {self.unheard} taps made no click ({len(self.deaf)} of them on a pad not drawn anew); {len(self.phantoms)} sequences with phantom or "
                f"missing entries")


@dataclass
class _Game:
    gid: str
    events: tuple[Event, ...]
    model: list[Event]  #: what the page accepted, in order


@dataclass
class _Sent:
    """A tap the storm made and what it meant: ``event`` the entry (a final tap),
    ``undo`` an Undo; ``second`` the second tap of a double tap."""

    index: int  #: its place in the page's log
    event: Event | None = None
    undo: bool = False
    second: bool = False
    what: str = ""
    first: int | None = None  #: a second tap's first, in the page's log


class Storm:
    """One browser page, one server, one store: ``run`` plays sequences of taps."""

    def __init__(self, page, url: str, db: str, seed: int, touch_share: float = 0.5):
        self.page, self.url, self.store = page, url, GameStore(db)
        self.rng = random.Random(seed)
        self.touch_share = touch_share
        self.games: list[_Game] = []
        self.game: _Game | None = None
        self.report = Report()
        self.touch = False

    # ------------------------------------------------------------------ taps
    def _gap(self) -> None:
        """A person's pause: mostly short, now and then long (0 to 2.5 s)."""
        r = self.rng.random()
        ms = self.rng.uniform(0, 250) if r < 0.55 else self.rng.uniform(250, 1200) if r < 0.9 else \
            self.rng.uniform(1200, 2500)
        self.page.wait_for_timeout(ms)

    def _point(self, target) -> tuple[float, float] | None:
        """Where a person would put her thumb on ``target``; None when it is not there
        (a tap on its way changed the screen: she looks again). The pad draws its
        controls anew at each answer, so a control seen a moment ago may be redrawn
        when it is measured: it is looked for again."""
        for _ in range(20):
            try:
                target.wait_for(state="visible", timeout=GONE_MS)
            except PlaywrightTimeout:
                return None
            box = target.bounding_box()
            if box is not None:
                return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            self.page.wait_for_timeout(50)
        return None

    def _hit(self, x: float, y: float) -> int | None:
        """One tap at (x, y) by touch or mouse; its index in the page's log, or None
        when the page heard no tap (the control under the thumb was drawn anew
        between finger down and up: the browser makes no click of it)."""
        n, renders, control = self.page.evaluate(RENDERS, [x, y])
        if self.touch:
            self.page.touchscreen.tap(x, y)
        else:
            self.page.mouse.click(x, y)
        self.report.taps += 1
        try:
            self.page.wait_for_function("(n) => (window.fgPadLog || []).length > n", arg=n, timeout=HEARD_MS)
        except PlaywrightTimeout:
            self.report.unheard += 1
            if control and self.page.evaluate(RENDERS, [x, y])[1] == renders:  # a control, not drawn anew: unheard
                self.report.deaf.append(f"a tap at ({x:.0f}, {y:.0f}) on the pad as it stood ({self._pad()})")
            return None
        return n

    def _tap(self, target, what: str, event: Event | None = None, undo: bool = False, double: bool = False) -> list[_Sent]:
        point = self._point(target)
        if point is None:
            self.report.gone += 1
            return []
        x, y = point
        index = self._hit(x, y)
        if index is None:
            return []
        sent = [_Sent(index, event, undo, what=what)]
        if double:
            self.report.doubles += 1
            self.page.wait_for_timeout(self.rng.uniform(60, 250))
            n = self._hit(x, y)
            if n is None:
                return sent
            # a double tap in the page's own clock: under load the second tap can come
            # later than a double tap does, and then it is an ordinary tap of the page
            # as it is then: the entry of the control that stands there now
            (first, _, _), (second, kind, value) = self.page.evaluate(
                "(xs) => xs.map(i => { const e = (window.fgPadLog || [])[i] || {}; return [e.at, e.kind, e.value]; })",
                [sent[0].index, n])
            if second - first >= DOUBLE_MS:
                self.report.slow_seconds += 1
                sent.append(_Sent(n, event_for(kind, value), kind == "undo",
                                  what=f"{kind} {value} (a tap on {what}'s place, too late for a double tap)"))
            else:
                sent.append(_Sent(n, None, second=True, what=what + " (second of a double tap)", first=sent[0].index))
        return sent

    def _outcome(self, sent: _Sent) -> str:
        return taps.outcome(self.page, sent.index)

    def _wait_step(self, target, what: str) -> bool:
        """A step of an entry (a number of her guess, a hit's position...): tapped and
        seen taken before the next, as a person sees it highlighted."""
        sent = self._tap(target, what)
        if not sent:
            return False
        got = self._outcome(sent[0])
        self._count(got)
        return got == "changed"

    def _count(self, outcome: str) -> None:
        self.report.outcomes[outcome] = self.report.outcomes.get(outcome, 0) + 1

    # ------------------------------------------------------------------ the page
    def _pad(self) -> dict:
        return self.page.evaluate("""() => { const p = document.querySelector('[data-testid="fg-pad"]');
            return p ? {...p.dataset} : {}; }""")

    def _settle(self, sent: list[_Sent]) -> None:
        """Wait until every tap made has its answer and the page is idle."""
        for s in sent:
            self._outcome(s)
        browser.wait_idle(self.page)

    def _steps(self, event: Event) -> tuple[list, object]:
        """The taps that bring the pad to the final tap of ``event`` from where it is
        now (a guess may be half chosen, a hit's panel open: a final tap was dropped)
        and that final tap."""
        pad = self._pad()
        c = lambda kind, value=None: taps.control(self.page, kind, value)  # noqa: E731
        steps = []
        if isinstance(event, Place) and event.hideout == 42:
            if not c("escape", event.sprints).is_visible():
                steps.append((c("escmode"), "the escape's line"))
            return steps, (c("escape", event.sprints), f"42 +{event.sprints}")
        if isinstance(event, Place):
            return steps, (c("place", event.sprints), f"+{event.sprints}")
        if not isinstance(event, (Guess, ManhuntGuess)):
            kind, value = {"pass": ("pass", None), "fugitive_draw": ("fdraw", getattr(event, "deck", None)),
                           "marshal_draw": ("mdraw", getattr(event, "card", None))}[event.type]
            return steps, (c(kind, value), f"{kind} {value}")
        manhunt = isinstance(event, ManhuntGuess)
        numbers = (event.number,) if manhunt else event.numbers
        if pad.get("screen") != "hit":
            guess = self.page.locator('[data-testid="fg-guess"]')
            if not guess.count():
                return steps, None  # her guess is not on the screen yet (a tap on its way)
            chosen = {int(x) for x in guess.get_attribute("data-chosen").split(",") if x}
            for x in sorted(chosen ^ set(numbers)) if not manhunt else ([] if chosen == {event.number} else [event.number]):
                steps.append((c("pick", x), f"number {x}"))
            if not event.hit:
                return steps, (c("miss"), "Miss")
            steps.append((c("hit"), "Hit"))
        steps.append(("hit-panel", event))
        return steps, (c("hitsave"), "Save the hit")

    def _hit_panel(self, event: Event) -> bool:
        reveals = ([(event.number, event.position, tuple(event.sprint_cards or ()))]
                   if isinstance(event, ManhuntGuess) else
                   [(r.hideout, r.position, tuple(r.sprint_cards)) for r in event.reveals])
        for x, pos, cards in reveals:
            c = lambda kind, value=None: taps.control(self.page, kind, value)  # noqa: E731
            if len(reveals) > 1 and "fg-chosen" not in (c("hitwho", x).get_attribute("class") or ""):
                if not self._wait_step(c("hitwho", x), f"revealed card {x}"):
                    return False
            if "fg-chosen" not in (c("hitpos", pos).get_attribute("class") or ""):
                if not self._wait_step(c("hitpos", pos), f"position #{pos} of {x}"):
                    return False
            chosen = {int(e.get_attribute("data-x")) for e in self.page.locator(
                f'{taps.PAD} [data-k="hitcard"].fg-chosen').all()}
            for card in sorted(chosen ^ set(cards)):  # the cards it needs, and off any other
                if not self._wait_step(c("hitcard", card), f"sprint card {card} under {x}"):
                    return False
        return True

    # ------------------------------------------------------------------ sequences
    def _between(self) -> None:
        """What a person does between two sequences."""
        choice = self.rng.choice(["new", "new", "reopen", "lang", "reload", "none"] if self.game else ["new"])
        if choice in ("new", "reopen"):
            if self.game is not None:
                self.page.locator('[data-testid="fg-back"]').click()
            self.page.get_by_role("button", name=re.compile("^(Start|시작)$")).wait_for()
            browser.wait_idle(self.page)
            # (the list shows the 30 games updated last; the rest a tap away: she reopens a listed one)
            open_ones = [g for g in self.games if len(g.model) < len(g.events) and g.model == list(g.events[:len(g.model)])
                         and self.page.locator(f".st-key-open_{g.gid} button").count()]
            if choice == "reopen" and open_ones:
                self.game = self.rng.choice(open_ones)
                self.page.locator(f".st-key-open_{self.game.gid} button").click()
            else:
                self.page.get_by_role("button", name=re.compile("^(Start|시작)$")).click()
                self.page.wait_for_url(re.compile(r"game="))
                gid = re.search(r"[?&]game=([^&]+)", self.page.url).group(1)
                kind = self.rng.choice(KINDS)
                events = taps.game_events(kind, self.rng.randrange(10_000))
                self.game = _Game(gid, events, [])
                self.games.append(self.game)
                self.report.games += 1
            self.page.wait_for_selector(taps.settled_selector(len(self.game.model)))
        elif choice == "lang":
            lang = self.page.locator('[aria-label="Language"] button').filter(
                has_text=self.rng.choice(["English", "한국어"]))
            lang.click()
        elif choice == "reload":
            self.page.reload()
            self.page.wait_for_selector(taps.PAD)
        browser.wait_idle(self.page)

    def sequence(self, entries: int) -> None:
        """One sequence of ``entries`` entries (or to the end of the game), then the check."""
        self._between()
        game = self.game
        self.touch = self.rng.random() < self.touch_share
        before = list(game.model)
        made: list[_Sent] = []
        done = 0
        waits = 0  #: looks in a row for a control that is not on the screen, nothing on its way
        while done < entries and len(game.model) < len(game.events):
            self._absorb(made, game)
            if game.model != list(game.events[:len(game.model)]):
                break  # the page took the entries in another order (a tap that went on meanwhile): a new game next
            roll = self.rng.random()
            if roll < 0.04 and game.model:
                made += self._tap(taps.control(self.page, "undo"), "Undo", undo=True, double=self.rng.random() < 0.3)
                self._settle(made)
                self._absorb(made, game)
                done += 1
                continue
            if roll < 0.06:  # the language switched, and a tap while the page is redrawn in it
                self.page.locator('[aria-label="Language"] button').filter(
                    has_text=self.rng.choice(["English", "한국어"])).click()
            elif roll < 0.1:  # a greyed control: refused, nothing changes
                off = self.page.locator(f'{taps.PAD} [data-testid="fg-controls"] .fg-off')
                if off.count():
                    made += self._tap(off.nth(self.rng.randrange(off.count())), "a greyed control")
                    self._gap()
                    continue
            pending = [s for s in made if s.event is not None and not self.page.evaluate(
                "(i) => ((window.fgPadLog || [])[i] || {}).outcome", s.index)]
            position = len(game.model) + len(pending)
            if position >= len(game.events):
                self._settle(made)
                continue
            event = game.events[position]
            one_tap = not isinstance(event, (Guess, ManhuntGuess)) and not (isinstance(event, Place) and event.hideout == 42)
            if pending and not (one_tap and self.rng.random() < 0.5):
                self._settle(made)  # she waits for the page, this time
                continue
            if not pending:
                browser.wait_idle(self.page)
            steps, final = self._steps(event)
            if final is None or (pending and not final[0].count()):  # not on this screen yet
                if not pending:
                    waits += 1
                    assert waits < 5, f"the control of {event} never came: the pad shows {self._pad()}"
                self._settle(made)
                continue
            waits = 0
            ok = True
            for step in steps:
                if step[0] == "hit-panel":
                    ok = self._hit_panel(step[1])
                else:
                    ok = self._wait_step(*step)
                if not ok:
                    break
            if not ok:
                self._settle(made)
                continue
            double = self.rng.random() < 0.15
            made += self._tap(final[0], final[1], event=event, double=double)
            done += 1
            after = self.rng.random()
            if after < 0.2:
                continue  # the next tap at once, while this one is on its way (a tap during a rerun)
            if after < 0.6:
                self._outcome(made[-1])  # she looks at the page before the next tap
            self._gap()
        self._settle(made)
        self._absorb(made, game)
        self.report.sequences += 1
        stored = list(self.store.open(game.gid).record.events)
        if stored != game.model:
            self.report.phantoms.append(
                f"sequence {self.report.sequences} on game {game.gid}: stored {len(stored)} entries, the page accepted "
                f"{len(game.model)} (from {len(before)}): stored {[str(e) for e in stored[len(before) - 2:]]}, "
                f"accepted {[str(e) for e in game.model[len(before) - 2:]]}")
            game.model = stored  # go on from what is stored

    def _absorb(self, made: list[_Sent], game: _Game) -> None:
        """Take the answers that came in: the model gains (or loses) the entries of the
        taps the page saved, in the order of the page's log."""
        answered = self.page.evaluate("(xs) => xs.map(i => ((window.fgPadLog || [])[i] || {}).outcome || null)",
                                      [s.index for s in made])
        keep = []
        for s, got in zip(made, answered):
            if got is None:
                keep.append(s)
                continue
            self._count(got)
            if s.second and got not in ("busy", "stale"):
                # what the page's log says of both taps, to find why
                log = self.page.evaluate("(xs) => xs.map(i => { const e = (window.fgPadLog || [])[i] || {};"
                                         " return [e.kind, e.value, e.version, e.at, e.done, e.outcome, e.detail]; })",
                                         [s.first, s.index])
                (k1, v1, ver1, _, done1, out1, _), (k2, v2, ver2, at2, _, _, _) = log
                if (k1, v1, ver1) == (k2, v2, ver2) and done1 is not None and done1 <= at2 and out1 != "saved":
                    # the same control again once the page answered the first, the record
                    # unchanged: not a double tap (issue 36, point 8), an ordinary tap
                    self.report.retaps += 1
                    s = _Sent(s.index, event_for(k2, v2), k2 == "undo", what=s.what + " (again after its answer)")
                else:
                    self.report.second_taken.append(f"{s.what}: {got} (the page's log, first then second: {log}; "
                                                f"{'touch' if self.touch else 'mouse'})")
            if got == "saved":
                if s.undo:
                    game.model.pop()
                elif s.event is not None:
                    game.model.append(s.event)
                    self.report.entries += 1
        made[:] = keep

    def run(self, taps_wanted: int, entries: tuple[int, int] = (3, 12)) -> Report:
        """Sequences until ``taps_wanted`` taps were made."""
        start = time.perf_counter()
        self.page.goto(self.url + "/?page=assistant")
        browser.wait_idle(self.page)
        while self.report.taps < taps_wanted:
            self.sequence(self.rng.randint(*entries))
        self.report.seconds = time.perf_counter() - start
        return self.report

