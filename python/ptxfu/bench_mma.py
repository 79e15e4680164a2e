"""Throughput of ptxfu.mma on a batch of m16n8k16 tiles, beside the C++
engine's (tb/perf/ptxfu_bench_mma), in exact products a second.

    PYTHONPATH=build/python python3 -m ptxfu.bench_mma [--tiles 10000] [--repeat 5]
        [--same-tile] [--cxx build/tb/perf/ptxfu_bench_mma]

Times ptxfu.mma("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", sm_80)
on one batch of --tiles random tiles (float16 A and B, float32 C; the best
of --repeat runs, the conversions from NumPy included) and, given --cxx, runs
the Google Benchmark binary (BM_Mma: one tile repeated, through the matrix
API; BM_BlockFma: the engine alone on 64 D elements in turn; the *_10000_tiles
ones: 10,000 different tiles in turn, as here) and prints the ratios. Rates
are per CPU second on both sides (time.process_time here, Google
Benchmark's CPU time there), so that a loaded machine skews neither; one
thread throughout.
"""
import argparse
import json
import subprocess
import time

import numpy as np

import ptxfu

INSTRUCTION = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"


def python_rate(tiles, repeat, same_tile=False):
    rng = np.random.default_rng(1)
    # finite f16 with |x| < 1, as the C++ benchmark draws them
    a = (rng.integers(0, 1 << 16, (tiles, 16, 16), dtype=np.uint64) & 0xBBFF).astype(np.uint16).view(np.float16)
    b = (rng.integers(0, 1 << 16, (tiles, 16, 8), dtype=np.uint64) & 0xBBFF).astype(np.uint16).view(np.float16)
    if same_tile:  # as BM_Mma: one tile, every time
        a, b = np.broadcast_to(a[0], a.shape), np.broadcast_to(b[0], b.shape)
    c = np.ones((tiles, 16, 8), np.float32)
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        ptxfu.mma(a, b, c, instruction=INSTRUCTION, target="sm_80")
        best = min(best, time.process_time() - t0)
    return tiles * 16 * 8 * 16 / best


def cxx_rates(binary):
    out = subprocess.run(
        [binary, "--benchmark_format=json", "--benchmark_min_time=1"], capture_output=True, text=True, check=True
    ).stdout
    return {b["name"]: b["products/s"] for b in json.loads(out)["benchmarks"]}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tiles", type=int, default=10000)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--cxx", help="path of ptxfu_bench_mma (Google Benchmark) to compare with")
    p.add_argument("--same-tile", action="store_true", help="one tile broadcast over the batch, as BM_Mma repeats one")
    args = p.parse_args()
    py = python_rate(args.tiles, args.repeat, args.same_tile)
    what = "one tile %d times" % args.tiles if args.same_tile else "%d different tiles" % args.tiles
    print("ptxfu.mma, m16n8k16, %s: %.1f M products/s" % (what, py / 1e6))
    if args.cxx:
        for name, rate in cxx_rates(args.cxx).items():
            print("%s: %.1f M products/s; C++ / Python = %.2f" % (name, rate / 1e6, rate / py))


if __name__ == "__main__":
    main()
