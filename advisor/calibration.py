"""Calibration: the solver's predicted hit probability against the actual hit rate.

Games are played by the solver Marshal (``advisor.bots.SolverMarshal``) against each
Fugitive bot. For every guess she makes (normal guesses and Manhunt guesses), the
prediction is the exact probability, from the record just before the guess, that
every guessed number is a face-down hideout (``Posterior.joint``); the outcome is the
recorded hit or miss. Predictions are binned by tenths; the Brier score is the mean of
``(prediction - outcome)^2``.

The solver's measure assumes a Fugitive whose choices carry no information beyond
being legal (docs/model.md), so a Fugitive bot with a style (small steps) is exactly
where miscalibration should show.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import registry
from .search import Budget
from .tournament import play_pairing

BINS = 10


@dataclass
class Calibration:
    fugitive: str
    marshal: str
    games: int
    pairs: list[tuple[float, int]] = field(default_factory=list)

    @property
    def brier(self) -> float:
        return sum((p - y) ** 2 for p, y in self.pairs) / len(self.pairs) if self.pairs else float("nan")

    def bins(self) -> list[tuple[float, float, int, float, float]]:
        """(bin low, bin high, count, mean prediction, actual hit rate) for non-empty bins."""
        out = []
        for b in range(BINS):
            lo, hi = b / BINS, (b + 1) / BINS
            sel = [(p, y) for p, y in self.pairs if lo <= p < hi or (b == BINS - 1 and p == 1.0)]
            if sel:
                out.append((lo, hi, len(sel), sum(p for p, _ in sel) / len(sel), sum(y for _, y in sel) / len(sel)))
        return out


def game_predictions(task: tuple[str, str, int, Budget | None]) -> tuple[str, list[tuple[float, int]]]:
    from engine import marshal_view
    from engine.record import Guess, ManhuntGuess, Record

    from .cache import solve_cached

    f, m, seed, budget = task
    state = play_pairing(m, f, seed, budget)
    rec = marshal_view(state).record
    out = []
    for i, e in enumerate(rec.events):
        if isinstance(e, Guess):
            nums = e.numbers
        elif isinstance(e, ManhuntGuess):
            nums = (e.number,)
        else:
            continue
        post = solve_cached(Record(rec.events[:i], rec.ruleset), validate=False)  # the engine's record
        out.append((float(post.joint(nums)), int(e.hit)))
    return f, out


def run_calibration(games: int, seed: int = 0, jobs: int = 2, fugitives: list[str] | None = None,
                    marshal: str = "solver", progress: bool = True, budget: Budget | None = None) -> list[Calibration]:
    from tqdm import tqdm

    fugitives = fugitives or registry.names("fugitive")
    res = {f: Calibration(f, marshal, games) for f in fugitives}
    tasks = [(f, marshal, seed + i, budget) for f in fugitives for i in range(games)]
    bar = tqdm(total=len(tasks), desc="games", unit="game", disable=not progress, mininterval=0.5)
    if jobs <= 1:
        it = map(game_predictions, tasks)
        for f, pairs in it:
            res[f].pairs.extend(pairs)
            bar.update(1)
    else:
        import multiprocessing as mp

        with mp.get_context("fork").Pool(jobs) as pool:
            for f, pairs in pool.imap_unordered(game_predictions, tasks, chunksize=1):
                res[f].pairs.extend(pairs)
                bar.update(1)
    bar.close()
    return [res[f] for f in fugitives]


def report(cals: list[Calibration]) -> str:
    lines = []
    for c in cals:
        lines.append(f"Fugitive: {c.fugitive} (Marshal: {c.marshal}, {c.games} games, {len(c.pairs)} guesses), "
                     f"Brier score {c.brier:.4f}")
        lines.append("| predicted | guesses | mean predicted | actual hit rate |")
        lines.append("| --- | --- | --- | --- |")
        for lo, hi, n, mp_, act in c.bins():
            lines.append(f"| {lo:.1f}-{hi:.1f} | {n} | {mp_:.3f} | {act:.3f} |")
        lines.append("")
    return "\n".join(lines)


def write_png(cals: list[Calibration], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 5.5))
    ax.plot([0, 1], [0, 1], "k--", lw=1, label="perfect")
    for c in cals:
        b = c.bins()
        ax.plot([x[3] for x in b], [x[4] for x in b], "o-", label=f"{c.fugitive} (Brier {c.brier:.3f})")
    ax.set_xlabel("predicted hit probability (exact posterior)")
    ax.set_ylabel("actual hit rate")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8)
    ax.set_title("Reliability of the solver's guesses")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
