"""ptxfu.formats against this file's own description of each format (IEEE
754, OCP OFP8, OCP MX) and MPFR's rounding."""
from fractions import Fraction

import gmpy2
import numpy as np
import pytest
from conftest import ROUNDINGS, SPECS, bits_of_mpfr

import ptxfu

NAMES = ["f16", "bf16", "f32", "f64", "tf32", "e4m3", "e5m2", "e2m3", "e3m2", "e2m1", "ue8m0"]

# Published constants: (max, min normal, min subnormal or None, NaN pattern or None)
CONSTANTS = {
    "f16": (65504.0, 2.0**-14, 2.0**-24, 0x7FFF),
    "bf16": ((2 - 2.0**-7) * 2.0**127, 2.0**-126, 2.0**-133, 0x7FFF),
    "f32": ((2 - 2.0**-23) * 2.0**127, 2.0**-126, 2.0**-149, 0x7FFFFFFF),
    "f64": (np.finfo(np.float64).max, 2.0**-1022, 2.0**-1074, 0x7FFFFFFFFFFFFFFF),
    "tf32": ((2 - 2.0**-10) * 2.0**127, 2.0**-126, 2.0**-136, 0x7FFFE000),
    "e4m3": (448.0, 2.0**-6, 2.0**-9, 0x7F),
    "e5m2": (57344.0, 2.0**-14, 2.0**-16, 0x7F),
    "e2m3": (7.5, 1.0, 0.125, None),
    "e3m2": (28.0, 0.25, 0.0625, None),
    "e2m1": (6.0, 1.0, 0.5, None),
    "ue8m0": (2.0**127, 2.0**-127, None, 0xFF),
}


def test_every_format_of_the_table():
    assert ptxfu.formats.names() == NAMES
    assert len(ptxfu.formats) == len(NAMES) and "e4m3" in ptxfu.formats
    assert ptxfu.formats["bf16"] is ptxfu.formats.bf16
    with pytest.raises(ptxfu.Error, match="unknown format 'e9m9'"):
        ptxfu.formats["e9m9"]


@pytest.mark.parametrize("name", NAMES)
def test_constants(name):
    f = ptxfu.formats[name]
    spec = SPECS[name]
    mx, mn, sub, nan = CONSTANTS[name]
    assert (f.exponent_bits, f.fraction_bits, f.width) == (spec.e, spec.m, spec.width)
    assert f.max == mx and f.decode(f.max_bits) == mx and float(spec.max_value()) == mx
    assert f.min_normal == mn and f.decode(f.min_normal_bits) == mn
    assert f.min_subnormal == sub
    assert (f.min_subnormal_bits is None) == (sub is None)
    if sub is not None:
        assert f.decode(f.min_subnormal_bits) == sub
    assert f.nan_bits == nan and f.has_nan == (nan is not None)
    if nan is not None:
        assert np.isnan(f.decode(nan))
    assert f.has_infinity == (spec.kind == "ieee")
    assert f.dtype == np.dtype("uint%d" % max(8, 1 << (spec.width + spec.shift - 1).bit_length()))


def all_patterns(spec):
    return np.arange(1 << spec.width, dtype=np.uint64) << np.uint64(spec.shift)


def sample_patterns(spec, rng, n=20000):
    return rng.integers(0, 1 << spec.width, size=n, dtype=np.uint64, endpoint=False) << np.uint64(spec.shift)


@pytest.mark.parametrize("name", NAMES)
def test_decode_against_the_published_layout(name, rng):
    spec = SPECS[name]
    f = ptxfu.formats[name]
    bits = all_patterns(spec) if spec.width <= 16 else sample_patterns(spec, rng)
    got = f.decode(bits.astype(f.dtype))
    assert got.dtype == np.float64 and got.shape == bits.shape
    for b, v in zip(bits.tolist(), got.tolist()):
        want = spec.decode(b)
        if want == "nan":
            assert np.isnan(v), hex(b)
        else:
            assert v == want, (hex(b), v, want)
            if want == 0:
                assert np.signbit(v) == bool(b >> (spec.e + spec.m + spec.shift)), hex(b)


@pytest.mark.parametrize("name", NAMES)
def test_encode_decode_round_trip(name):
    spec = SPECS[name]
    f = ptxfu.formats[name]
    bits = all_patterns(spec) if spec.width <= 16 else np.array([0, f.max_bits, f.min_normal_bits], np.uint64)
    values = f.decode(bits.astype(f.dtype))
    keep = ~np.isnan(values)
    assert np.array_equal(f.encode(values[keep]).astype(np.uint64), bits[keep])


def values_around(spec, rng, n):
    """Doubles in and beyond the format's range: exact values, halfway
    points, neighbours of both, random reals, overflows, tiny values."""
    mx = float(spec.max_value())
    tiny = 2.0 ** (spec.emin - spec.m)
    exps = rng.integers(spec.emin - spec.m - 2, spec.emax + 2, size=n)
    mant = rng.random(n) + 1.0
    with np.errstate(over="ignore"):  # f64: beyond its range is inf
        v = mant * np.exp2(exps.astype(np.float64))
    half_ulps = []
    for e in (spec.emin - 1, spec.emin, 0, spec.emax):
        ulp = 2.0 ** (max(e, spec.emin) - spec.m)
        for k in range(8):
            x = 2.0**e + (k + 0.5) * ulp
            half_ulps += [x, np.nextafter(x, 0), np.nextafter(x, np.inf)]
    special = [
        0.0,
        tiny,
        tiny / 2,
        tiny / 2 * 1.0000001,
        tiny / 4,
        mx,
        mx * 1.01,
        mx * 2,
        1e300,
        np.inf,
        mx + 2.0 ** (spec.emax - spec.m - 1),
    ]
    out = np.concatenate([v, half_ulps, special])
    if spec.sign:
        out = np.concatenate([out, -out])
    return out


def expected_encoding(spec, v, rounding, satfinite):
    """MPFR rounds once; the format's rule for what does not fit follows the
    PTX text and the OCP specs (see ptxfu.Format.encode)."""
    if np.isnan(v):
        return None
    if spec.kind == "e8m0":
        if v < 0:  # no sign: its NaN
            return 0xFE if satfinite else 0xFF
        if np.isinf(v):
            return 0xFE if satfinite else 0xFF
        with gmpy2.local_context(gmpy2.context(precision=1, round=ROUNDINGS[rounding])):
            r = gmpy2.mpfr(v)
        e = int(gmpy2.floor(gmpy2.log2(r))) if r > 0 else -1000
        e = max(e, -127)  # no zero: zero and underflow give the smallest value
        if e > 127:  # overflow: toward zero the largest value, else the NaN
            return 0xFE if satfinite or rounding in ("rz", "rm") else 0xFF
        return e + 127
    with gmpy2.local_context(spec.context(ROUNDINGS[rounding])):
        r = gmpy2.mpfr(v)
    mx = spec.max_value()
    sign = -1 if v < 0 else 1
    overflow = gmpy2.is_infinite(r) or abs(Fraction(*r.as_integer_ratio())) > mx
    if overflow:
        if satfinite or spec.kind == "finite":
            return spec.encode_exact(sign * mx)
        if spec.kind == "fn":  # e4m3: toward zero gives max, away from zero NaN (canonical: sign 0)
            if np.isinf(v):  # no infinity to round: the NaN
                return 0x7F
            toward_zero = rounding == "rz" or (rounding == "rm" and sign > 0) or (rounding == "rp" and sign < 0)
            return spec.encode_exact(sign * mx) if toward_zero else 0x7F
        return bits_of_mpfr(spec, r)  # inf, or max toward zero: MPFR's overflow rule
    return bits_of_mpfr(spec, r)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("rounding", ["rn", "rz", "rm", "rp"])
@pytest.mark.parametrize("satfinite", [False, True])
def test_encode_against_mpfr(name, rounding, satfinite, rng):
    spec = SPECS[name]
    f = ptxfu.formats[name]
    values = values_around(spec, rng, 3000)
    got = f.encode(values, rounding=rounding, satfinite=satfinite)
    assert got.dtype == f.dtype
    for v, g in zip(values.tolist(), got.tolist()):
        want = expected_encoding(spec, v, rounding, satfinite)
        assert g == want, (name, rounding, satfinite, v, hex(g), hex(want))


def test_nan_and_satfinite_rules():
    e4m3, e5m2, e2m1 = ptxfu.formats.e4m3, ptxfu.formats.e5m2, ptxfu.formats.e2m1
    assert e4m3.encode(np.nan) == 0x7F and e5m2.encode(np.nan) == 0x7F
    assert e2m1.encode(np.nan, satfinite=True) == 0x7  # no NaN: +max
    assert e4m3.encode(-1e9) == 0x7F and e4m3.encode(-1e9, satfinite=True) == 0xFE  # NaN results are canonical
    assert e5m2.encode(np.inf) == 0x7C and e5m2.encode(np.inf, satfinite=True) == 0x7B


def test_encode_takes_any_float_dtype_and_keeps_the_shape():
    x = (np.arange(-6, 6, dtype=np.float32) / 4).reshape(3, 4)  # exact in bf16
    bits = ptxfu.formats.bf16.encode(x)
    assert bits.shape == (3, 4) and bits.dtype == np.uint16
    assert np.array_equal(ptxfu.formats.bf16.decode(bits), x.astype(np.float64))  # these are exact in bf16
    assert ptxfu.formats.f16.encode(1.0) == 0x3C00 and isinstance(ptxfu.formats.f16.decode(0x3C00), np.float64)
    assert ptxfu.formats.f16.decode(np.float16(1.5).reshape(1)) == 1.5  # a float16 array is its bits


def test_bad_input_raises():
    with pytest.raises(ptxfu.Error, match="not a e2m1 bit pattern: it is 4 bits wide"):
        ptxfu.formats.e2m1.decode([0x10])
    with pytest.raises(ptxfu.Error, match="low 13 bits must be zero"):
        ptxfu.formats.tf32.decode(np.uint32(0x3F800001))
    with pytest.raises(ptxfu.Error, match="rounding must be"):
        ptxfu.formats.f16.encode(1.0, rounding="rna")
    with pytest.raises(ptxfu.Error, match="negative"):
        ptxfu.formats.f16.decode(-1)
