#!/usr/bin/env python3
"""ptxfu.eval on 10^7 f16 fma operands beside the core's own benchmark of
the same form (Google Benchmark, tb/perf/fp_bench.cc: fma/f16/rn).

    PYTHONPATH=build/python /usr/bin/python3 tb/perf/eval_speed.py [BUILD_DIR]

Both run on one thread with operands drawn the same way as fp_bench.cc's:
finite, exponents within bias +- 1/8 of the exponent range, random signs
and fractions. Both rates are per second of CPU time, as Google Benchmark
reports them (on a shared machine the wall clock also counts other jobs'
time); each is the median of REPEATS runs. Prints both and their ratio;
exits 1 if ptxfu.eval is more than 1.5 times slower.
"""
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

import ptxfu

N = 10_000_000
REPEATS = 5


def operands(rng, n):
    bias, top = 15, (1 << 5) - 2
    e = (bias - top // 8 + rng.integers(0, top // 4, size=n)).astype(np.uint16)
    return (rng.integers(0, 2, size=n).astype(np.uint16) << 15) | (e << 10) | \
        rng.integers(0, 1 << 10, size=n).astype(np.uint16)


def python_rate():
    rng = np.random.default_rng(42)
    a, b, c = operands(rng, N), operands(rng, N), operands(rng, N)
    ptxfu.eval("fma.rn.f16", a[:1000], b[:1000], c[:1000])  # decode the form once, warm up
    times, walls, out_times = [], [], []
    out = np.empty(N, dtype=np.uint16)
    for _ in range(REPEATS):
        w, t = time.perf_counter(), time.process_time()
        d = ptxfu.eval("fma.rn.f16", a, b, c)
        times.append(time.process_time() - t)
        walls.append(time.perf_counter() - w)
        t = time.process_time()
        ptxfu.eval("fma.rn.f16", a, b, c, out=out)
        out_times.append(time.process_time() - t)
    assert d.shape == (N,) and d.dtype == np.uint16 and np.array_equal(d, out)
    return (N / statistics.median(times), min(times), max(times), N / statistics.median(walls),
            N / statistics.median(out_times))


def core_rate(build):
    exe = os.path.join(build, "tb", "perf", "ptxfu_bench_fp")
    out = subprocess.run([exe, "--benchmark_filter=^fma/f16/rn$", "--benchmark_format=json",
                          "--benchmark_repetitions=%d" % REPEATS, "--benchmark_min_time=0.5"],
                         capture_output=True, text=True, check=True).stdout
    runs = [b["items_per_second"] for b in json.loads(out)["benchmarks"] if b.get("run_type") == "iteration"]
    return statistics.median(runs), min(runs), max(runs)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    core, core_lo, core_hi = core_rate(build)
    py, py_lo_t, py_hi_t, py_wall, py_out = python_rate()
    print("core  fma/f16/rn (Google Benchmark, 4096 operands a loop): %6.1f M/s (runs %.1f .. %.1f)"
          % (core / 1e6, core_lo / 1e6, core_hi / 1e6))
    print("ptxfu.eval('fma.rn.f16', a, b, c), 3 x 10^7 uint16 operands: %6.1f M/s (%.3f .. %.3f s a call; "
          "%.1f M/s by the wall clock)" % (py / 1e6, py_lo_t, py_hi_t, py_wall / 1e6))
    print("the same with out= (an array reused, no new pages):       %6.1f M/s" % (py_out / 1e6))
    ratio = core / py
    print("ratio core / ptxfu.eval: %.2f (aim: at most 1.5)" % ratio)
    return 0 if ratio <= 1.5 else 1


if __name__ == "__main__":
    sys.exit(main())
