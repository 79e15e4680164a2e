"""Shared oracles for the ptxfu Python tests.

The float oracle is GNU MPFR through gmpy2: a format is described here from
its published parameters (IEEE 754, OCP OFP8 and MX), independently of
ptxfu's rows, and values go between bit patterns and exact rationals with
this file's own codec. Integer forms are checked against Python integers.
"""
import os
import subprocess
from fractions import Fraction

import gmpy2
import numpy as np
import pytest

import ptxfu

SOURCE_DIR = os.environ.get("PTXFU_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
BINARY = os.environ.get("PTXFU_BINARY", os.path.join(SOURCE_DIR, "build", "ptxfu"))


class Spec:
    """A float format from its parameters. kind: 'ieee' (inf and NaN in the top
    exponent), 'fn' (e4m3: no inf, NaN only S.1111.111), 'finite' (no inf, no
    NaN), 'e8m0' (unsigned powers of two, NaN 0xff). shift: where the encoding
    sits in its register (tf32: 13)."""

    def __init__(self, name, e, m, kind="ieee", shift=0):
        self.name, self.e, self.m, self.kind, self.shift = name, e, m, kind, shift
        self.bias = (1 << (e - 1)) - 1
        self.sign = kind != "e8m0"
        self.width = e + m + (1 if self.sign else 0)
        top = (1 << e) - 1
        self.max_biased = top - 1 if kind in ("ieee", "e8m0") else top
        self.emin = (0 if kind == "e8m0" else 1) - self.bias  # exponent of the smallest normal
        self.emax = self.max_biased - self.bias

    # MPFR's exponents: x = f * 2^E with 1/2 <= f < 1.
    def context(self, rounding):
        return gmpy2.context(
            precision=self.m + 1,
            emin=self.emin - self.m + 1,
            emax=self.emax + 1,
            subnormalize=self.kind != "e8m0",
            round=rounding,
        )

    def max_value(self):
        frac = (1 << self.m) - 1
        if self.kind == "fn":
            frac -= 1
        return Fraction((1 << self.m) + frac, 1 << self.m) * Fraction(2) ** self.emax

    def decode(self, bits):
        """The exact value (a Fraction), or 'nan', or +-inf as float."""
        bits >>= self.shift
        s = (bits >> (self.e + self.m)) & 1 if self.sign else 0
        ex = (bits >> self.m) & ((1 << self.e) - 1)
        fr = bits & ((1 << self.m) - 1)
        top = (1 << self.e) - 1
        if self.kind == "ieee" and ex == top:
            return "nan" if fr else (-np.inf if s else np.inf)
        if self.kind == "fn" and ex == top and fr == (1 << self.m) - 1:
            return "nan"
        if self.kind == "e8m0":
            return "nan" if ex == top else Fraction(2) ** (ex - self.bias)
        if ex == 0:
            v = Fraction(fr, 1 << self.m) * Fraction(2) ** self.emin
        else:
            v = Fraction((1 << self.m) + fr, 1 << self.m) * Fraction(2) ** (ex - self.bias)
        return -v if s else v

    def encode_exact(self, v, negative_zero=False):
        """Bits of a value the format holds exactly (a Fraction, or +-inf)."""
        sign_bit = 1 << (self.e + self.m) if self.sign else 0
        if v == np.inf or v == -np.inf:
            assert self.kind == "ieee"
            return ((sign_bit if v < 0 else 0) | (((1 << self.e) - 1) << self.m)) << self.shift
        s = sign_bit if (v < 0 or (v == 0 and negative_zero)) else 0
        a = abs(Fraction(v))
        if a == 0:
            assert self.kind != "e8m0"
            return s << self.shift
        if self.kind == "e8m0":
            e = a.numerator.bit_length() - a.denominator.bit_length()
            assert Fraction(2) ** e == a
            return (e + self.bias) << self.shift
        e = a.numerator.bit_length() - a.denominator.bit_length()
        if Fraction(2) ** e > a:
            e -= 1
        if e < self.emin:  # subnormal
            fr = a / Fraction(2) ** self.emin * (1 << self.m)
            assert fr.denominator == 1, (self.name, v)
            return (s | int(fr)) << self.shift
        fr = (a / Fraction(2) ** e - 1) * (1 << self.m)
        assert fr.denominator == 1 and e <= self.emax, (self.name, v)
        return (s | ((e + self.bias) << self.m) | int(fr)) << self.shift


SPECS = {
    "f16": Spec("f16", 5, 10),
    "bf16": Spec("bf16", 8, 7),
    "f32": Spec("f32", 8, 23),
    "f64": Spec("f64", 11, 52),
    "tf32": Spec("tf32", 8, 10, shift=13),
    "e4m3": Spec("e4m3", 4, 3, "fn"),
    "e5m2": Spec("e5m2", 5, 2),
    "e2m3": Spec("e2m3", 2, 3, "finite"),
    "e3m2": Spec("e3m2", 3, 2, "finite"),
    "e2m1": Spec("e2m1", 2, 1, "finite"),
    "ue8m0": Spec("ue8m0", 8, 0, "e8m0"),
}

ROUNDINGS = {"rn": gmpy2.RoundToNearest, "rz": gmpy2.RoundToZero, "rm": gmpy2.RoundDown, "rp": gmpy2.RoundUp}


def mpfr_of(spec, bits, ctx):
    """An operand as an MPFR number (exact: the context is wider)."""
    v = spec.decode(bits)
    if isinstance(v, str):
        return gmpy2.mpfr("nan")
    if isinstance(v, float):
        return gmpy2.mpfr(v)
    with gmpy2.local_context(ctx):
        r = gmpy2.mpfr(v.numerator) / v.denominator
    if v == 0 and (bits >> spec.shift) >> (spec.e + spec.m) & 1:
        r = -gmpy2.mpfr(0)
    return r


def bits_of_mpfr(spec, r):
    """The bits of a result MPFR rounded into the format (canonical NaN)."""
    if gmpy2.is_nan(r):
        return (((1 << (spec.e + spec.m)) - 1)) << spec.shift  # sign 0, every other bit set
    if gmpy2.is_infinite(r):
        return spec.encode_exact(np.inf if r > 0 else -np.inf)
    if r == 0:
        return spec.encode_exact(Fraction(0), negative_zero=gmpy2.is_signed(r))
    return spec.encode_exact(Fraction(*r.as_integer_ratio()))


WIDE = gmpy2.context(precision=300, emin=-100000, emax=100000)


def random_bits(rng, spec, n):
    """Random patterns: half uniform over all encodings, half finite with
    exponents near the bias (where sums and products stay in range)."""
    w = spec.width
    a = rng.integers(0, 1 << w, size=n, dtype=np.uint64)
    mid = rng.integers(spec.bias - spec.bias // 4 - 1, spec.bias + spec.bias // 4 + 1, size=n // 2, dtype=np.uint64)
    frac = rng.integers(0, 1 << spec.m, size=n // 2, dtype=np.uint64)
    sign = rng.integers(0, 2, size=n // 2, dtype=np.uint64) << np.uint64(w - 1)
    a[: n // 2] = sign | (mid << np.uint64(spec.m)) | frac
    return a << np.uint64(spec.shift)


def edge_bits(spec):
    """Structured cases: zeros, the smallest and largest subnormals and normals,
    one, the largest finite value, infinities and NaNs, with both signs."""
    m, e = spec.m, spec.e
    pos = [
        0,
        1,
        (1 << m) - 1,
        1 << m,
        (1 << m) | 1,
        spec.bias << m,
        (spec.bias << m) | 1,
        ((spec.bias + 1) << m) - 1,
        (spec.max_biased << m) | ((1 << m) - 1),
        (spec.max_biased << m),
        ((1 << e) - 1) << m,
        (((1 << e) - 1) << m) | 1,
        (((1 << e) - 1) << m) | ((1 << m) - 1),
    ]
    out = set()
    for p in pos:
        p &= (1 << (e + m)) - 1
        out.add(p)
        out.add(p | (1 << (e + m)))
    return np.array(sorted(out), dtype=np.uint64) << np.uint64(spec.shift)


def cli_eval(lines, *args):
    """`ptxfu eval` on text lines; returns its output lines."""
    r = subprocess.run([BINARY, "eval", *args], input="\n".join(lines) + "\n", capture_output=True, text=True)
    return r.stdout.splitlines(), r.stderr, r.returncode


@pytest.fixture
def rng():
    return np.random.default_rng(20240611)
