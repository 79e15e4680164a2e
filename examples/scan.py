"""A three-kernel prefix sum on the modelled GPU, as a CUDA host program
runs it (examples/scan.cu): scan each block, scan the block sums, add them
back. Checked against NumPy's cumsum, bit for bit (unsigned integers wrap).

    PYTHONPATH=build/python python3 examples/scan.py [N] [CONFIG]
"""

import os
import sys

import numpy as np

import ptxfu

BLOCK = 256
HERE = os.path.dirname(os.path.abspath(__file__))


def scan(dev, mod, x):
    """The inclusive scan of DeviceArray x (uint32) as a new DeviceArray, and the three launches' results."""
    n = x.size
    blocks = (n + BLOCK - 1) // BLOCK
    if blocks > 1024:
        raise ValueError(f"{n} elements: scan_sums takes at most 1024 blocks of {BLOCK}")
    out = dev.empty_like(x)
    sums = dev.zeros(blocks + 1, np.uint32)  # sums[0] stays 0: the first block's offset
    runs = [
        mod.get_function("scan_blocks")(grid=(blocks,), block=(BLOCK,), args=(x, out, sums[1:], np.uint32(n))),
        mod.get_function("scan_sums")(grid=(1,), block=(1024,), args=(sums[1:], np.uint32(blocks))),
        mod.get_function("add_offsets")(grid=(blocks,), block=(BLOCK,), args=(out, sums, np.uint32(n))),
    ]
    return out, runs


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 14
    config = sys.argv[2] if len(sys.argv) > 2 else "sm_80"
    dev = ptxfu.Device(config)
    mod = dev.load_module(os.path.join(HERE, "scan.ptx"))
    data = np.random.default_rng(1).integers(0, 1 << 32, n, dtype=np.uint32)
    out, runs = scan(dev, mod, dev.to_device(data))
    want = np.cumsum(data, dtype=np.uint32)
    for r in runs:
        print(f"{r.kernel:12s} cycles {r.start_cycle:>8d} .. {r.end_cycle:>8d}  ipc {r.ipc:.2f}")
    same = np.array_equal(out.get(), want)
    print(
        f"scan of {n} uint32 on {config}: {dev.timeline()[-1].end_cycle} cycles, {'matches' if same else 'DIFFERS FROM'} numpy.cumsum"
    )
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
