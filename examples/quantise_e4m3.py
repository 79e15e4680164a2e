#!/usr/bin/env python3
"""Quantise a float32 array to FP8 e4m3 and back with ptxfu, and plot the error.

    PYTHONPATH=build/python /usr/bin/python3 examples/quantise_e4m3.py [OUT.png]

e4m3 (OCP OFP8) has 3 fraction bits: round to nearest even gives a relative
error of at most 2^-4 for normal values (2^-6 <= |x| <= 448), more for the
subnormals below 2^-6, and .satfinite clamps everything beyond 448 to 448.
"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import ptxfu  # noqa: E402

e4m3 = ptxfu.formats.e4m3

# A sweep of magnitudes across e4m3's range and beyond, as float32.
x = np.geomspace(2.0**-12, 2000.0, 20000).astype(np.float32)
bits = e4m3.encode(x, rounding="rn", satfinite=True)  # uint8 bit patterns
back = e4m3.decode(bits)  # float64, exact
rel = np.abs(back - x) / x

# A tensor of weights, N(0, 1), scaled so that its largest value maps to 448.
rng = np.random.default_rng(0)
w = rng.standard_normal(200_000).astype(np.float32)
scale = np.float32(e4m3.max / np.abs(w).max())
wq = e4m3.decode(e4m3.encode(w * scale, satfinite=True)) / scale
err = wq - w

fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
ax1.loglog(x, np.maximum(rel, 1e-9), lw=0.6, color="tab:blue", label="|e4m3(x) - x| / |x|")
ax1.axhline(2.0**-4, color="tab:red", ls="--", lw=1, label="2^-4: half an ulp of a normal")
ax1.axvspan(x[0], e4m3.min_normal, color="0.9", label="subnormal (below 2^-6)")
ax1.axvspan(e4m3.max, x[-1], color="mistyrose", label="clamped to 448 (satfinite)")
ax1.set_ylim(1e-5, 2)
ax1.set_xlabel("x (float32)")
ax1.set_ylabel("relative error")
ax1.set_title("e4m3 round trip, round to nearest even")
ax1.legend(fontsize=8, loc="lower center")

ax2.hist(err, bins=201, color="tab:green")
ax2.set_yscale("log")
ax2.set_xlabel("e4m3(w * s) / s - w")
ax2.set_ylabel("count")
ax2.set_title("N(0,1) weights, scaled to e4m3's range: RMS error %.3g" % np.sqrt(np.mean(err.astype(np.float64) ** 2)))

fig.suptitle("float32 -> e4m3 -> float64 with ptxfu.formats.e4m3 (ptxfu %s)" % ptxfu.__version__)
fig.tight_layout()
out = sys.argv[1] if len(sys.argv) > 1 else "docs/e4m3_quantisation_error.png"
fig.savefig(out, dpi=110)
print(
    "max relative error of normal values: %.5f (bound 2^-4 = %.5f); written %s"
    % (rel[(x >= e4m3.min_normal) & (x <= e4m3.max)].max(), 2.0**-4, out)
)
