"""Toolchain spike (issue 17), step 1: capture the regular positions' forward crossings of given states, with the
per-usage tables the Python counter made, as flat arrays mod P (2^31 - 1).

    PYTHONPATH=. python bench/spike/dump.py slowest.json data.pkl

slowest.json: the 20 slowest states of the solver benchmark (seconds, seed, event).
"""
import json
import pickle
import sys
import time

import numpy as np
from engine import rules
from solver.count import Counter, DECK_OF, COUNTS, FLAG_ONE, falling
from solver.facts import extract
from bench.solver_bench import decision_states

P = 2147483647

def crossings(rec):
    facts = extract(rec.marshal_view())
    c = Counter(facts)
    layer = {(0, 0, c._all_flags << 8): 1}
    out = []
    for i, j, kind in c._steps:
        if kind != "regular":
            layer = c._cross(i, j, kind, layer)[1]
            continue
        t0 = time.perf_counter()
        inter = c._push_sprints(i, layer)
        nxt = c._push_hideouts(i, inter)
        py_t = time.perf_counter() - t0
        # tables
        Gs = sorted({G for (_, G, _) in layer})
        gidx = {G: n for n, G in enumerate(Gs)}
        e_of = {}
        entries = []
        so = []  # per group: list of (inc, step, w, e)
        k = facts.positions[i - 1].sprints
        for G in Gs:
            row = []
            for inc, evens, wo in c._sprint_options(i, G):
                G2 = G + inc
                if G2 not in e_of:
                    e_of[G2] = len(entries); entries.append(c._hideout_entry(i, G2))
                row.append((inc, rules.max_gaps(k)[evens], wo % P, e_of[G2]))
            so.append(row)
        st = np.array([(h, G, H, w % P, gidx[G]) for (h, G, H), w in layer.items()], dtype=np.uint64).reshape(-1, 5)
        grp_start = np.zeros(len(Gs) + 1, dtype=np.int64)
        for g, row in enumerate(so): grp_start[g + 1] = grp_start[g] + len(row)
        so_arr = np.array([o for row in so for o in row], dtype=np.uint64).reshape(-1, 4)
        e_start = np.zeros(len(entries) + 1, dtype=np.int64)
        for e, (opts, table) in enumerate(entries): e_start[e + 1] = e_start[e] + len(opts)
        opt_arr = np.array([(x, inc, bit, r, wt % P) for opts, _ in entries for (x, inc, bit, r, wt) in opts], dtype=np.uint64).reshape(-1, 5)
        tables = np.array([t for _, table in entries for t in table], dtype=np.int64)
        inv_close = np.zeros(4 * 256, dtype=np.uint64)
        for r in range(4):
            for H in range(256):
                cl = c._closing(r, H)
                inv_close[r * 256 + H] = pow(cl, -1, P) if cl % P else 0
        want = {key: w % P for key, w in nxt.items() if w % P}
        out.append(dict(st=st, grp_start=grp_start, so=so_arr, e_start=e_start, opts=opt_arr, tables=tables,
                        inv_close=inv_close, cap=c.hi[i], low=c.lo[i], py_t=py_t, want=want, flags=bool(c.missed_sets)))
        layer = nxt
    return out

if __name__ == "__main__":
    slow = json.load(open(sys.argv[1]))[:20]  # [(seconds, seed, event index)], slowest first
    want = {(s, i) for _, s, i in slow}
    data = []
    for seed, i, rec in decision_states(max(s for s, _ in want) + 1):
        if (seed, i) in want:
            data.append(((seed, i), crossings(rec)))
    pickle.dump(data, open(sys.argv[2], "wb"))
    print(len(data), sum(len(x) for _, x in data), "crossings; python time %.3f s" % sum(c["py_t"] for _, x in data for c in x))
