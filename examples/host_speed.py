"""What a launch and a copy cost from Python, beyond the simulation:
1,000 launches of an empty kernel (one CTA of 32 threads), and to_device /
get of 256 MiB.

    PYTHONPATH=build/python python3 examples/host_speed.py
"""

import os
import time

import numpy as np

import ptxfu

HERE = os.path.dirname(os.path.abspath(__file__))
EMPTY = """.version 7.0
.target sm_80
.address_size 64
.visible .entry empty()
{
    ret;
}
"""


def best_of(repeats, f):
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    dev = ptxfu.Device("sm_80")
    k = dev.load_module_text(EMPTY, "empty.ptx").get_function("empty")
    k(grid=1, block=32)  # warm

    def launches():
        for _ in range(1000):
            k(grid=1, block=32)

    t = best_of(3, launches)
    print(f"1000 launches of an empty kernel: {t:.3f} s ({t:.2f} ms a launch)")
    host = np.random.default_rng(0).integers(0, 255, 256 << 20, dtype=np.uint8)
    d = dev.to_device(host)
    up = best_of(3, lambda: dev.to_device(host))
    down = best_of(3, d.get)
    assert np.array_equal(d.get(), host)
    gb = host.nbytes / 1e9
    print(f"to_device of 256 MiB: {up:.3f} s ({gb / up:.2f} GB/s); get: {down:.3f} s ({gb / down:.2f} GB/s)")


if __name__ == "__main__":
    main()
