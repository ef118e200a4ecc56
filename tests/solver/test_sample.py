"""solver.sample: hidden histories drawn with exactly the probability of docs/model.md.

The exact distribution comes from the brute-force enumerator (tests/solver/brute.py,
written independently of solver/): every route, every concrete sprint set and every
placement of the used cards in the draw lists. 20,000 samples at a fixed seed must
pass a chi-square test against it; deliberately wrong samplers must fail the same
test (the threshold has teeth), including one whose every marginal is right but
whose positions are drawn independently (the joint test catches it).
"""
from __future__ import annotations

import math
import random
from collections import Counter

import pytest

import solver
from engine.bots import RandomFugitive, RandomMarshal, play_game
from engine.cards import DECKS, deck_of
from engine.record import FugitiveDraw, MarshalDraw, Record, Ruleset, record_from_dict
from notepad.validator import validate
from tests.solver.brute import brute_distribution
from tests.solver.records import fdraw, mdraw, miss, place, record

import solver.sampling as sample_module  # noqa: E402

SAMPLES = 20_000
#: a correct sampler fails a test with probability 1e-3: each test below runs at a
#: fixed seed, so it is deterministic; the biased samplers are far beyond it
THRESHOLD = 1e-3

RECORDS = {
    # two hideouts in the opening: routes through 4 need deck 1 to have given it
    "opening-two": record(place(0), place(0)),
    # a sprint card, a Marshal's cards, a missed guess, a later draw
    "sprint": record(place(0), mdraw(5), mdraw(16), miss(3), fdraw(1), place(1)),
    # a missed two-number guess (the counter's flags)
    "missed-pair": record(place(0), place(0), mdraw(4), mdraw(20), miss(1, 3), fdraw(1), place(0)),
    # four positions, cards used at turns 0, 1 and 2 from deck 1
    "three-turns": record(place(1), place(0), mdraw(6), mdraw(9), miss(2), fdraw(1), place(0), mdraw(30), miss(5, 7)),
}


def chi2_pvalue(stat: float, df: int) -> float:
    """P(X >= stat) for X chi-square with ``df`` degrees of freedom (the regularized
    upper incomplete gamma Q(df/2, stat/2), by its series)."""
    a, x = df / 2, stat / 2
    if x <= 0:
        return 1.0
    term = total = 1 / a
    n = 1
    while term > total * 1e-15:
        term *= x / (a + n)
        total += term
        n += 1
    lower = math.exp(a * math.log(x) - x - math.lgamma(a)) * total  # P(a, x)
    return max(0.0, 1 - lower)


def chi2_test(observed: Counter, exact: dict, samples: int) -> float:
    """The p-value of the observed frequencies against the exact counts; categories
    expected fewer than 5 times are pooled (observations outside the support are a
    failure at once)."""
    outside = set(observed) - set(exact)
    assert not outside, f"sampled histories the exact measure gives no weight: {sorted(outside)[:3]}"
    total = sum(exact.values())
    stat = 0.0
    bins = 0
    pooled_e = pooled_o = 0.0
    for key, w in exact.items():
        e = samples * w / total
        o = observed.get(key, 0)
        if e < 5:
            pooled_e += e
            pooled_o += o
            continue
        stat += (o - e) ** 2 / e
        bins += 1
    if pooled_e > 0:
        stat += (pooled_o - pooled_e) ** 2 / pooled_e
        bins += 1
    return chi2_pvalue(stat, bins - 1)


def full_feature(row, sets, slots):
    """Everything the measure tells apart: the row, the sprint sets, and the slot of
    every used card in its deck's draw list."""
    return row, tuple(tuple(sorted(s)) for s in sets), tuple(sorted(slots.items()))


def history_feature(h):
    slots = {c: i for r, cards in h.draw_lists.items() for i, c in enumerate(cards)}
    used = {c for s in h.sprint_cards for c in s} | {x for x in h.hideouts if deck_of(x)}
    return full_feature(h.hideouts, h.sprint_cards, {c: s for c, s in slots.items() if c in used})


def pair_feature(row, sets, slots):
    """The joint of the hideouts at positions 1 and 2."""
    return row[0], row[1]


@pytest.fixture(scope="module")
def exact():
    return {name: brute_distribution(r, full_feature) for name, r in RECORDS.items()}


def draw(name: str, seed: int = 1, samples: int = SAMPLES) -> list:
    sampler = solver.HistorySampler(record_from_dict(RECORDS[name]))
    rng = random.Random(seed)
    return [sampler.history(rng) for _ in range(samples)]


def test_chi2_pvalue_agrees_with_known_values():
    assert chi2_pvalue(3.841, 1) == pytest.approx(0.05, abs=1e-3)
    assert chi2_pvalue(18.307, 10) == pytest.approx(0.05, abs=1e-3)
    assert chi2_pvalue(124.342, 100) == pytest.approx(0.05, abs=1e-3)


def test_the_exact_reference_is_the_solver_s_measure(exact):
    for name, r in RECORDS.items():
        assert sum(exact[name].values()) == solver.count_histories(record_from_dict(r))


#: make test-fast runs the record with the most of everything; make test all of them
SLOW_TOO = [pytest.param(n, marks=pytest.mark.slow) if n != "three-turns" else n for n in RECORDS]


@pytest.mark.parametrize("name", SLOW_TOO)
def test_samples_match_the_exact_joint_distribution(name, exact):
    """Routes, sprint sets and draw slots together: 20,000 samples against the exact measure."""
    observed = Counter(history_feature(h) for h in draw(name))
    assert chi2_test(observed, exact[name], SAMPLES) > THRESHOLD


@pytest.mark.parametrize("name", SLOW_TOO)
def test_the_pair_of_first_hideouts_matches(name):
    exact_pairs = brute_distribution(RECORDS[name], pair_feature)
    observed = Counter(h.hideouts[:2] for h in draw(name, seed=2))
    assert chi2_test(observed, exact_pairs, SAMPLES) > THRESHOLD


def test_a_sampler_with_feasible_samples_but_independent_positions_fails():
    """Draw positions 1 and 2 each from its exact marginal, again until the pair is
    possible: every sample is feasible, the marginals are near right, the pair is not,
    and the joint test says so."""
    name = "three-turns"
    exact_pairs = brute_distribution(RECORDS[name], pair_feature)
    first: Counter = Counter()
    second: Counter = Counter()
    for (x, y), w in exact_pairs.items():
        first[x] += w
        second[y] += w
    rng = random.Random(1)
    xs, wx = zip(*sorted(first.items()))
    ys, wy = zip(*sorted(second.items()))
    observed: Counter = Counter()
    while sum(observed.values()) < SAMPLES:
        pair = xs[sample_module._pick(rng, list(wx))], ys[sample_module._pick(rng, list(wy))]
        if pair in exact_pairs:
            observed[pair] += 1
    assert chi2_test(observed, exact_pairs, SAMPLES) < THRESHOLD


def test_a_slightly_biased_sampler_fails(monkeypatch, exact):
    """Every choice of the backward pass drawn with its exact weights mixed 20% toward
    uniform: the same test at the same seed rejects it (p below 1e-12; at 10% it gives
    p = 5e-4, at the edge of what 20,000 samples resolve)."""
    exact_pick = sample_module._pick

    def biased(rng, weights):
        i = exact_pick(rng, weights)
        if len(weights) > 1 and rng.randrange(5) == 0:
            return rng.randrange(len(weights))
        return i

    monkeypatch.setattr(sample_module, "_pick", biased)
    observed = Counter(history_feature(h) for h in draw("three-turns"))
    assert chi2_test(observed, exact["three-turns"], SAMPLES) < 1e-12


def test_a_sampler_that_ignores_draw_deadlines_fails(monkeypatch, exact):
    """Put every used card in a uniform free slot of its whole draw list (not among the
    first a(c)): the cards used early then often sit in slots drawn too late."""
    observed = Counter()
    sampler = solver.HistorySampler(record_from_dict(RECORDS["three-turns"]))
    rng = random.Random(1)
    for _ in range(SAMPLES):
        h = sampler.history(rng)
        lists = {}
        for r, cards in h.draw_lists.items():
            cards = list(cards)
            rng.shuffle(cards)
            lists[r] = tuple(cards)
        observed[history_feature(sample_module.HiddenHistory(h.hideouts, h.sprint_cards, lists))] += 1
    outside = set(observed) - set(exact["three-turns"])
    assert outside, "a card drawn after its use should have been sampled"


def test_every_sample_validates_and_projects_back():
    for name, r in RECORDS.items():
        public = record_from_dict(r)
        sampler = solver.HistorySampler(public)
        rng = random.Random(3)
        for _ in range(300):
            full = sampler.record(rng)
            assert full.is_full
            validate(full)
            assert full.marshal_view() == public


def test_sample_takes_any_record_form_and_projects_a_full_one_first():
    state = play_game(RandomFugitive(5), RandomMarshal(6), seed=5)
    full = state.record()
    cut = full.truncated(12)
    got = solver.sample(cut, random.Random(0))  # a full record in: its hidden fields are never read
    validate(got)
    assert got.marshal_view() == cut.marshal_view()
    assert solver.sample(cut.marshal_view().to_dict(), random.Random(0)) == got


def test_samples_of_real_games_validate_at_every_decision():
    """Records from engine games (both rulesets, escapes and Manhunts among them), cut
    at every Marshal's decision and at the end."""
    seen_escape = False
    for seed, ruleset in ((1, Ruleset()), (2, Ruleset("two", True)), (3, Ruleset("one-or-two", True)), (4, Ruleset("two"))):
        state = play_game(RandomFugitive(seed), RandomMarshal(seed + 100), seed=seed, ruleset=ruleset)
        full = state.record()
        cuts = [i for i, e in enumerate(full.events) if e.type in ("guess", "manhunt_guess")][::3] + [len(full.events)]
        for i in cuts:
            public = full.truncated(i).marshal_view()
            seen_escape |= any(e.type == "place" and e.hideout == 42 for e in public.events)
            sampler = solver.HistorySampler(public)
            rng = random.Random(i)
            for _ in range(5):
                got = sampler.record(rng)
                validate(got)
                assert got.marshal_view() == public
    assert seen_escape


def test_an_inconsistent_record_has_nothing_to_sample():
    # three hideouts without sprint cards reach at most 9; 1-9 all missed
    r = record_from_dict(record(place(0), mdraw(4), mdraw(5), miss(1), fdraw(1), place(0), mdraw(6), miss(2),
                                fdraw(1), place(0), mdraw(7), miss(3)))
    assert not solver.solve(r).consistent
    with pytest.raises(solver.NoHistory):
        solver.sample(r, random.Random(0))


# --------------------------------------------------------------------- the Fugitive's side
def _fugitive_knowledge(r: Record) -> tuple:
    """The full record with the Marshal's cards reduced to their decks."""
    return r.fugitive_setup, tuple(("marshal_draw", deck_of(e.card)) if isinstance(e, MarshalDraw) else e for e in r.events)


def test_marshal_hand_keeps_what_the_fugitive_knows_and_validates():
    for seed in range(6):
        state = play_game(RandomFugitive(seed), RandomMarshal(seed + 50), seed=seed)
        full = state.record()
        rng = random.Random(seed)
        for _ in range(20):
            got = solver.sample_marshal_hand(full, rng)
            validate(got)
            assert _fugitive_knowledge(got) == _fugitive_knowledge(full)


def test_marshal_hand_is_uniform_over_the_cards_he_never_held():
    """Her two cards of deck 1 (in draw order) are a uniform ordered pair of the deck-1
    cards he never held; her deck-2 card uniform over his unseen deck-2 cards."""
    public = record(place(0), mdraw(5), mdraw(16), miss(3), fdraw(1), place(0), mdraw(7))
    sampled = solver.sample(public, random.Random(9))  # some full record of it
    his = set(sampled.fugitive_setup) | {e.card for e in sampled.events if isinstance(e, FugitiveDraw)}
    his |= {e.hideout for e in sampled.events if e.type == "place"}
    unseen1 = [c for c in DECKS[1] if c not in his]
    unseen2 = [c for c in DECKS[2] if c not in his]
    rng = random.Random(4)
    observed: Counter = Counter()
    for _ in range(SAMPLES):
        got = solver.sample_marshal_hand(sampled, rng)
        observed[tuple(e.card for e in got.events if isinstance(e, MarshalDraw))] += 1
    exact = {(a, b, c): 1 for a in unseen1 for b in unseen2 for c in unseen1 if c != a}
    assert chi2_test(observed, exact, SAMPLES) > THRESHOLD
    # and a sampler that lets her hold one of his cards fails at once
    assert set(observed) <= set(exact)


def test_marshal_hand_needs_a_full_record():
    with pytest.raises(ValueError, match="full record"):
        solver.sample_marshal_hand(record(place(0)), random.Random(0))
