"""A three-kernel attention forward for one head on the modelled GPU
(examples/attention.cu): scores = Q K^T scaled, a softmax per row, out = P V.
Checked against NumPy in float64 within a bound derived from the kernels'
arithmetic (below).

    PYTHONPATH=build/python python3 examples/attention.py [N] [D] [CONFIG]

The bound, for |q|, |k|, |v| <= 1 and u = 2^-24: each score is a d-term fma
chain, off by at most d*u*d (gamma_d times sum |q k| <= d) before scaling, so
t = s * log2(e)/sqrt(d) is off by at most d^2*u*0.26 + |t|*u; 2^t then carries
that as a relative error of ln2 times it, plus ex2.approx.f32's 2 ulp (the PTX
ISA's table of FP32 transcendentals); the row sum adds n*u and the division u.
So P is within ERR = (d^2*u*0.26 + 16u)*ln2 + 2^-22 + (n+2)*u, twice (e and
its sum), relative, and each output within (2*ERR + n*u) * sum_j p_j|v_j| <=
2*ERR + n*u absolute. The check uses twice that.
"""

import math
import os
import sys

import numpy as np

import ptxfu

HERE = os.path.dirname(os.path.abspath(__file__))
U = 2.0**-24


def bounds(n, d):
    """(relative bound on P, absolute bound on the output) for |q|, |k|, |v| <= 1."""
    t_err = d * d * U * 0.26 + 16 * U
    p_rel = 2 * (t_err * math.log(2) + 2.0**-22) + (n + 2) * U
    return p_rel, p_rel + n * U


def attention(dev, mod, q, k, v):
    """out, P and the three launches' results for DeviceArrays q, k (n x d) and v (n x d), float32."""
    n, d = q.shape
    s = dev.empty((n, n), np.float32)
    p = dev.empty((n, n), np.float32)
    out = dev.empty((n, d), np.float32)
    scale = np.float32(math.log2(math.e) / math.sqrt(d))
    runs = [
        mod.get_function("scores")(
            grid=((n + 127) // 128, n), block=(min(n, 128),), args=(q, k, s, np.int32(n), np.int32(d), scale)
        ),
        mod.get_function("softmax_rows")(grid=(n,), block=(n,), args=(s, p, np.int32(n))),
        mod.get_function("weighted_sum")(grid=(n,), block=(d,), args=(p, v, out, np.int32(n), np.int32(d))),
    ]
    return out, p, runs


def reference(q, k, v):
    q, k, v = (x.astype(np.float64) for x in (q, k, v))
    s = q @ k.T / math.sqrt(q.shape[1])
    e = np.exp(s - s.max(axis=1, keepdims=True))
    p = e / e.sum(axis=1, keepdims=True)
    return p @ v, p


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 64
    d = int(sys.argv[2]) if len(sys.argv) > 2 else 32
    config = sys.argv[3] if len(sys.argv) > 3 else "sm_80"
    rng = np.random.default_rng(4)
    q, k, v = (rng.uniform(-1, 1, (n, d)).astype(np.float32) for _ in range(3))
    dev = ptxfu.Device(config)
    mod = dev.load_module(os.path.join(HERE, "attention.ptx"))
    out, p, runs = attention(dev, mod, *(dev.to_device(x) for x in (q, k, v)))
    want_out, want_p = reference(q, k, v)
    p_rel, out_abs = bounds(n, d)
    p_err = np.max(np.abs(p.get() - want_p) / want_p)
    out_err = np.max(np.abs(out.get() - want_out))
    for r in runs:
        print(f"{r.kernel:13s} cycles {r.start_cycle:>8d} .. {r.end_cycle:>8d}  ipc {r.ipc:.2f}")
    ok = p_err <= 2 * p_rel and out_err <= 2 * out_abs
    print(
        f"attention n={n} d={d} on {config}: P within {p_err:.2e} relative (bound {p_rel:.2e}), "
        f"out within {out_err:.2e} (bound {out_abs:.2e}): {'ok' if ok else 'OUT OF BOUNDS'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
