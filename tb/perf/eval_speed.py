#!/usr/bin/env python3
"""ptxfu.eval on 10^7 f16 fma operand triples beside the core's own benchmark
of the same form and the same kind of stream (Google Benchmark,
tb/perf/fp_bench.cc: stream/DIST/fma/f16/rn, 10^7 fresh triples, results
stored).

    PYTHONPATH=build/python /usr/bin/python3 tb/perf/eval_speed.py [BUILD_DIR]

The operands are drawn as fp_bench.cc draws them: `near1` (finite,
exponents 2^-4 .. 2^3, random signs and fractions) and `uniform` (every
16-bit pattern equally likely: NaNs, infinities and subnormals included).
Both sides run on one thread and both rates are per second of CPU time, as
Google Benchmark reports them (on a shared machine the wall clock also
counts other jobs' time); each is the median of REPEATS runs. Exits 1 if
ptxfu.eval is more than 1.5 times slower than the core on either stream.
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


def operands(rng, n, dist):
    if dist == "uniform":
        return rng.integers(0, 1 << 16, size=n, dtype=np.uint32).astype(np.uint16)
    bias = 15
    e = (bias - 4 + rng.integers(0, 8, size=n)).astype(np.uint16)
    return (
        (rng.integers(0, 2, size=n).astype(np.uint16) << 15)
        | (e << 10)
        | rng.integers(0, 1 << 10, size=n).astype(np.uint16)
    )


def python_rate(dist):
    rng = np.random.default_rng(42)
    a, b, c = (operands(rng, N, dist) for _ in range(3))
    ptxfu.eval("fma.rn.f16", a[:1000], b[:1000], c[:1000])  # decode the form once, warm up
    cpu, wall, cpu_out = [], [], []
    out = np.empty(N, dtype=np.uint16)
    for _ in range(REPEATS):
        w, t = time.perf_counter(), time.process_time()
        d = ptxfu.eval("fma.rn.f16", a, b, c)
        cpu.append(time.process_time() - t)
        wall.append(time.perf_counter() - w)
        t = time.process_time()
        ptxfu.eval("fma.rn.f16", a, b, c, out=out)
        cpu_out.append(time.process_time() - t)
    assert d.shape == (N,) and d.dtype == np.uint16 and np.array_equal(d, out)
    return {
        "cpu": N / statistics.median(cpu),
        "runs": (N / max(cpu), N / min(cpu)),
        "wall": N / statistics.median(wall),
        "out": N / statistics.median(cpu_out),
    }


def core_rate(build, dist):
    exe = os.path.join(build, "tb", "perf", "ptxfu_bench_fp")
    out = subprocess.run(
        [
            exe,
            "--benchmark_filter=^stream/%s/fma/f16/rn$" % dist,
            "--benchmark_format=json",
            "--benchmark_repetitions=%d" % REPEATS,
            "--benchmark_min_time=0.5",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    runs = [b["items_per_second"] for b in json.loads(out)["benchmarks"] if b.get("run_type") == "iteration"]
    return statistics.median(runs), (min(runs), max(runs))


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    worst = 0.0
    for dist in ("near1", "uniform"):
        core, (lo, hi) = core_rate(build, dist)
        py = python_rate(dist)
        ratio = core / py["cpu"]
        worst = max(worst, ratio)
        print(
            "%-7s core stream/%s/fma/f16/rn %6.1f M/s (runs %.1f .. %.1f); ptxfu.eval %6.1f M/s (runs %.1f .. %.1f; "
            "out= %.1f; wall clock %.1f); ratio %.2f"
            % (
                dist,
                dist,
                core / 1e6,
                lo / 1e6,
                hi / 1e6,
                py["cpu"] / 1e6,
                py["runs"][0] / 1e6,
                py["runs"][1] / 1e6,
                py["out"] / 1e6,
                py["wall"] / 1e6,
                ratio,
            )
        )
    print("worst ratio core / ptxfu.eval: %.2f (aim: at most 1.5)" % worst)
    return 0 if worst <= 1.5 else 1


if __name__ == "__main__":
    sys.exit(main())
