"""Toolchain spike (issue 17), step 2: time each kernel on the captured crossings; check them equal to Python's (mod P).

    pip install numba cython nanobind   # not project dependencies
    cmake -S bench/spike -B bench/spike/build && cmake --build bench/spike/build
    (cd bench/spike && cythonize -i -3 spike_cy.pyx)
    python bench/spike/run.py data.pkl [cpp cython numba]
"""
import pickle, sys, time, subprocess
import numpy as np
HERE = __import__("pathlib").Path(__file__).parent
sys.path[:0] = [str(HERE), str(HERE / "build")]
P = 2147483647
data = pickle.load(open(sys.argv[1], "rb"))
crossings = [c for _, cs in data for c in cs]

def as_dict_cpp(res):
    ks, vs = res
    return dict(zip((tuple(k) for k in ks), vs))

def as_dict_arr(res):
    ks, vs = res
    out = {}
    for k, v in zip(ks.tolist(), vs.tolist()):
        if k != 0xFFFFFFFFFFFFFFFF and v:
            out[(k & 63, k >> 32, k >> 6 & 0x3FFFFFF)] = v
    return out

def run(name, fn, conv, reps=3):
    best = None
    for _ in range(reps):
        t0 = time.perf_counter()
        res = [fn(c["st"], c["grp_start"], c["so"], c["e_start"], c["opts"], c["tables"], c["inv_close"], c["cap"], c["low"]) for c in crossings]
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    bad = sum(1 for c, r in zip(crossings, res) if not c["flags"] and conv(r) != c["want"])
    checked = sum(1 for c in crossings if not c["flags"])
    print(f"{name:8s} {best * 1000:8.1f} ms  (equal to Python on {checked - bad}/{checked} crossings without flags)")
    return best

print(f"{len(data)} states, {len(crossings)} regular crossings, {sum(len(c['st']) for c in crossings)} input states")
print(f"python   {sum(c['py_t'] for c in crossings) * 1000:8.1f} ms  (the counter's own _push_sprints + _push_hideouts, captured once)")
which = sys.argv[2:] or ["cpp", "cython", "numba"]
if "cpp" in which:
    t = time.perf_counter(); import spike_cpp; print(f"import spike_cpp {1000*(time.perf_counter()-t):.1f} ms")
    run("c++", spike_cpp.cross, as_dict_arr)
if "cython" in which:
    t = time.perf_counter(); import spike_cy; print(f"import spike_cy {1000*(time.perf_counter()-t):.1f} ms")
    run("cython", spike_cy.cross, as_dict_arr)
if "numba" in which:
    t = time.perf_counter(); import spike_numba; print(f"import numba + module {1000*(time.perf_counter()-t):.1f} ms")
    c = crossings[0]
    t = time.perf_counter(); spike_numba.cross(c["st"], c["grp_start"], c["so"], c["e_start"], c["opts"], c["tables"], c["inv_close"], c["cap"], c["low"]); print(f"numba first call (compile or cache load) {1000*(time.perf_counter()-t):.1f} ms")
    run("numba", spike_numba.cross, as_dict_arr)
