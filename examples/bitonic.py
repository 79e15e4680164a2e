"""Bitonic sort on the modelled GPU by chained launches (examples/bitonic.cu):
one launch per step of the sorting network, all on one device array, checked
against numpy.sort.

    PYTHONPATH=build/python python3 examples/bitonic.py [LOG2_N] [CONFIG]
"""

import os
import sys

import numpy as np

import ptxfu

HERE = os.path.dirname(os.path.abspath(__file__))


def bitonic_sort(dev, mod, a, block=256):
    """Sorts DeviceArray a (uint32, a power-of-two size) in place; returns the launches' results."""
    n = a.size
    if n & (n - 1):
        raise ValueError(f"{n} elements: bitonic sort takes a power of two")
    step = mod.get_function("bitonic_step")
    threads = min(block, n)
    runs = []
    k = 2
    while k <= n:
        j = k // 2
        while j > 0:
            runs.append(step(grid=(n // threads,), block=(threads,), args=(a, np.uint32(j), np.uint32(k))))
            j //= 2
        k *= 2
    return runs


def main():
    m = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    config = sys.argv[2] if len(sys.argv) > 2 else "sm_80"
    dev = ptxfu.Device(config)
    mod = dev.load_module(os.path.join(HERE, "bitonic.ptx"))
    data = np.random.default_rng(2).integers(0, 1 << 32, 1 << m, dtype=np.uint32)
    a = dev.to_device(data)
    runs = bitonic_sort(dev, mod, a)
    same = np.array_equal(a.get(), np.sort(data))
    print(
        f"bitonic sort of {1 << m} uint32 on {config}: {len(runs)} launches, {dev.timeline()[-1].end_cycle} cycles, "
        f"{'matches' if same else 'DIFFERS FROM'} numpy.sort"
    )
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
