"""The exact solver for the Marshal's position (docs/model.md).

Typical use::

    import solver
    post = solver.solve(record)          # a Record, a dict, JSON text or a path
    post.probability(17)                 # Fraction: 17 is a face-down hideout now
    post.positions[1].candidates         # position 2's numbers and their chances
    post.joint({17, 21})                 # the chance a guess of both hits

:mod:`solver.exact` reads and checks the record and builds the :class:`Posterior`;
:mod:`solver.facts` turns a Marshal's record into the public facts the counting
needs; :mod:`solver.count` counts the hidden histories; :mod:`solver.model` is the
route model as a constraint problem (it explains an inconsistent record);
:mod:`solver.sampling` draws hidden histories with their exact probabilities
(``solver.sample(record, rng)``).
"""
from .exact import InvalidRecord, as_record, count_histories, solve
from .facts import Facts, extract
from .posterior import PositionPosterior, Posterior
from .sampling import HistorySampler, NoHistory, sample, sample_marshal_hand

__all__ = [
    "solve", "count_histories", "as_record", "InvalidRecord",
    "Posterior", "PositionPosterior",
    "Facts", "extract",
    "sample", "sample_marshal_hand", "HistorySampler", "NoHistory",
]
