"""A brute-force reference counter for small Marshal's records.

Written independently of ``solver/``: it reads the events itself, enumerates every
hideout number and every concrete set of sprint cards for every position, checks
each finished history against the record, and counts the Fugitive's draw lists for
it by enumerating where in each deck's draw list every used card lies. Slow on
purpose; only for records with a few positions and few sprint cards.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations, permutations, product
from typing import Iterator

DECK_RANGES = {1: range(4, 15), 2: range(15, 29), 3: range(29, 42)}


def _deck(card: int) -> int:
    for d, rng in DECK_RANGES.items():
        if card in rng:
            return d
    return 0


def _value(card: int) -> int:
    return 1 if card % 2 else 2


def read_events(record: dict):
    """Positions (turn, sprints, known hideout, known sprint cards), draw turns, facts."""
    turn = 0
    draw_turns = {1: [0, 0, 0], 2: [0, 0], 3: []}  # the turn from which each draw is usable
    positions: list[dict] = []
    marshal: set[int] = set()
    misses: list[tuple[frozenset, int]] = []
    phase = "opening"  # opening | marshal | fugitive_drawn | fugitive_done
    for e in record["events"]:
        t = e["type"]
        if t == "fugitive_draw":
            if phase == "fugitive_done":  # bonus draw after a pass
                draw_turns[e["deck"]].append(turn + 1)
            else:
                if phase == "marshal":
                    turn += 1
                    phase = "fugitive_drawn"
                draw_turns[e["deck"]].append(turn)
        elif t in ("place", "pass"):
            if phase == "marshal":
                turn += 1
            phase = "opening" if turn == 0 else "fugitive_done"
            if t == "place":
                positions.append({"turn": turn, "k": e["sprints"], "h": e.get("hideout"), "S": None})
        else:
            phase = "marshal"
            if t == "marshal_draw":
                marshal.add(e["card"])
            elif t == "guess":
                if e["hit"]:
                    for r in e["reveals"]:
                        positions[r["position"] - 1]["h"] = r["hideout"]
                        positions[r["position"] - 1]["S"] = tuple(r["sprint_cards"])
                else:
                    misses.append((frozenset(e["numbers"]), len(positions)))
            elif t == "manhunt_guess":
                if e["hit"]:
                    positions[e["position"] - 1]["h"] = e["number"]
                    positions[e["position"] - 1]["S"] = tuple(e.get("sprint_cards", []))
                else:
                    misses.append((frozenset([e["number"]]), len(positions)))
    return positions, draw_turns, marshal, misses


def _falling(n: int, k: int) -> int:
    out = 1
    for j in range(k):
        out *= n - j
    return out if k <= n else 0


@lru_cache(maxsize=None)
def _draw_lists(deck: int, used: tuple[tuple[int, int], ...], draw_turns: tuple[int, ...], n_free: int) -> int:
    """Draw lists of one deck in which each (card, turn) used card was drawn by its turn."""
    d = len(draw_turns)
    u = len(used)
    if u > d:
        return 0
    placements = 0
    for slots in permutations(range(d), u):
        if all(draw_turns[s] <= turn for s, (_, turn) in zip(slots, used)):
            placements += 1
    return placements * _falling(n_free - u, d - u)


def _routes(positions: list[dict], marshal: set[int], misses) -> Iterator[tuple[list[int], list[tuple[int, ...]], dict[int, int]]]:
    """Every route of hidden hideouts and sprint sets the row allows, each as (row,
    sprint sets, card -> turn of use), the missed multi-number guesses respected. The
    lists are the walk's own: read them before asking for the next route."""
    n = len(positions)
    known = {p["h"] for p in positions if p["h"] is not None}
    for p in positions:
        known.update(p["S"] or ())
    row: list[int] = []
    sets: list[tuple[int, ...]] = []
    used: dict[int, int] = {}

    def rec(i: int, prev: int):
        if i == n:
            if not any(numbers <= set(row[:k]) for numbers, k in misses):
                yield row, sets, used
            return
        p = positions[i]
        if p["S"] is not None:
            options_s = [p["S"]]
        else:
            pool = [c for c in range(1, 42) if c not in used and c not in marshal and c not in known]
            options_s = list(combinations(pool, p["k"]))
        for S in options_s:
            top = prev + 3 + sum(_value(c) for c in S)
            if p["h"] is not None:
                options = [p["h"]] if prev < p["h"] <= top else []
            else:
                options = [
                    x for x in range(prev + 1, min(top, 41) + 1)
                    if x not in used and x not in marshal and x not in known and x not in S
                ]
            for x in options:
                if x == 42 and i != n - 1:
                    continue
                row.append(x)
                sets.append(tuple(S))
                for c in S + ((x,) if x != 42 else ()):
                    used[c] = p["turn"]
                yield from rec(i + 1, x)
                for c in S + ((x,) if x != 42 else ()):
                    del used[c]
                sets.pop()
                row.pop()

    yield from rec(0, 0)


def brute_force(record: dict, accept=None) -> tuple[int, list[dict[int, int]]]:
    """(total histories, per position: number -> histories with that face-down number).

    ``accept(row, face_down)`` (optional) keeps only histories it returns True for.
    """
    positions, draw_turns, marshal, misses = read_events(record)
    face_down = [p["h"] is None for p in positions]
    counts: list[dict[int, int]] = [dict() for _ in positions]
    total = 0
    for row, _, used in _routes(positions, marshal, misses):
        if accept is not None and not accept(row, face_down):
            continue
        w = 1
        for d, rng in DECK_RANGES.items():
            cards = tuple(sorted((c, t) for c, t in used.items() if c in rng))
            n_free = sum(1 for c in rng if c not in marshal)
            w *= _draw_lists(d, cards, tuple(draw_turns[d]), n_free)
            if not w:
                break
        if not w:
            continue
        total += w
        for i, down in enumerate(face_down):
            if down:
                counts[i][row[i]] = counts[i].get(row[i], 0) + w
    return total, counts


def _placements(d: int, used: tuple[tuple[int, int], ...], draw_turns: tuple[int, ...]) -> list[dict[int, int]]:
    """Every way to give the used (card, turn) cards of a deck slots of its draw list
    (card -> slot index), each card drawn by its turn."""
    out = []
    for slots in permutations(range(d), len(used)):
        if all(draw_turns[s] <= turn for s, (_, turn) in zip(slots, used)):
            out.append({card: s for s, (card, _) in zip(slots, used)})
    return out


def brute_distribution(record: dict, feature) -> dict:
    """The exact distribution of ``feature(row, sprint_sets, slots)`` over the hidden
    histories (docs/model.md): key -> histories. ``slots`` maps each used card of
    decks 1-3 to its index in its deck's draw list; every such placement is counted
    with the ways to fill the other slots. Enumerates everything: tiny records only."""
    positions, draw_turns, marshal, misses = read_events(record)
    out: dict = {}
    for row, sets, used in _routes(positions, marshal, misses):
        per_deck = []
        fill = 1
        for d, rng in DECK_RANGES.items():
            cards = tuple(sorted((c, t) for c, t in used.items() if c in rng))
            n_free = sum(1 for c in rng if c not in marshal)
            turns = tuple(draw_turns[d])
            per_deck.append(_placements(len(turns), cards, turns))
            fill *= _falling(n_free - len(cards), len(turns) - len(cards))
        if not fill:
            continue
        for combo in product(*per_deck):
            slots = {c: s for placement in combo for c, s in placement.items()}
            key = feature(tuple(row), tuple(sets), slots)
            out[key] = out.get(key, 0) + fill
    return out
