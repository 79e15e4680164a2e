"""ptxfu.eval against MPFR (floating point) and Python integers, with NumPy
broadcasting, large arrays, and the command line's messages."""
import gmpy2
import numpy as np
import pytest
from conftest import ROUNDINGS, SPECS, WIDE, bits_of_mpfr, cli_eval, edge_bits, mpfr_of, random_bits

import ptxfu

DTYPE = {16: np.uint16, 32: np.uint32, 64: np.uint64}


def mpfr_expected(spec, op, rnd, *operands):
    """The IEEE result (canonical NaN) of op on bit-pattern arrays, element by element."""
    ctx = spec.context(ROUNDINGS[rnd])
    out = np.empty(len(operands[0]), dtype=np.uint64)
    for i, ops in enumerate(zip(*operands)):
        x = [mpfr_of(spec, int(v), WIDE) for v in ops]
        with gmpy2.local_context(ctx):
            if op == "add":
                r = x[0] + x[1]
            elif op == "sub":
                r = x[0] - x[1]
            elif op == "mul":
                r = x[0] * x[1]
            else:
                r = gmpy2.fma(x[0], x[1], x[2])
            if r == 0 and op == "fma" and not (x[0] * x[1] == 0 and x[2] == 0):
                pass  # an exact zero sum: MPFR gives +0 (-0 under rm), as IEEE
        out[i] = bits_of_mpfr(spec, r)
    return out


# PTX has only .rn for the f16 and bf16 forms; f32 and f64 have all four.
FLOAT_CASES = [
    (fmt, op, rnd)
    for fmt in ("f16", "bf16", "f32", "f64")
    for op in ("add", "sub", "mul", "fma")
    for rnd in ("rn", "rz", "rm", "rp")
    if rnd == "rn" or fmt in ("f32", "f64")
]


@pytest.mark.parametrize("fmt,op,rnd", FLOAT_CASES, ids=["-".join(c) for c in FLOAT_CASES])
def test_float_ops_against_mpfr(fmt, op, rnd, rng):
    spec = SPECS[fmt]
    nsrc = 3 if op == "fma" else 2
    edges = edge_bits(spec)
    # every pair (triple: edge x edge x a few) of structured cases, then random ones
    grid = np.array(np.meshgrid(*([edges] * 2), indexing="ij")).reshape(2, -1)
    cols = [grid[0], grid[1]]
    if nsrc == 3:
        cols.append(edges[rng.integers(0, len(edges), size=grid.shape[1])])
    n = 4000
    cols = [np.concatenate([c, random_bits(rng, spec, n)]) for c in cols]
    ops = [c.astype(DTYPE[spec.width]) for c in cols]
    got = ptxfu.eval("%s.%s.%s" % (op, rnd, fmt), *ops)
    assert got.dtype == DTYPE[spec.width]
    want = mpfr_expected(spec, op, rnd, *cols)
    bad = np.nonzero(got.astype(np.uint64) != want)[0]
    assert bad.size == 0, ["%s -> 0x%x want 0x%x" % ([hex(int(c[i])) for c in cols], got[i], want[i]) for i in bad[:5]]


def test_float16_arrays_are_taken_as_bits():
    a = np.array([1.0, 2.0, -0.5, 65504.0], dtype=np.float16)
    got = ptxfu.eval("fma.rn.f16", a, a, np.float16(1.0))
    assert got.dtype == np.uint16
    assert got.view(np.float16).tolist() == [2.0, 5.0, 1.25, np.inf]
    f32 = np.array([1.5, 3.0], dtype=np.float32)
    assert ptxfu.eval("add.rn.f32", f32, f32).view(np.float32).tolist() == [3.0, 6.0]
    f64 = np.array([0.1], dtype=np.float64)
    assert ptxfu.eval("mul.rn.f64", f64, f64).view(np.float64)[0] == 0.1 * 0.1  # the host's IEEE binary64


def test_f16x2_lanes_and_mixed_precision(rng):
    spec = SPECS["f16"]
    lo, hi = random_bits(rng, spec, 3000).reshape(2, -1)
    a = (hi << np.uint64(16) | lo).astype(np.uint32)
    b = np.roll(a, 1)
    c = np.roll(a, 7)
    got = ptxfu.eval("fma.rn.f16x2", a, b, c).astype(np.uint64)
    for shift in (0, 16):  # lane 0 is bits 15:0
        lane = [(x.astype(np.uint64) >> np.uint64(shift)) & np.uint64(0xFFFF) for x in (a, b, c)]
        want = mpfr_expected(spec, "fma", "rn", *lane)
        assert np.array_equal((got >> np.uint64(shift)) & np.uint64(0xFFFF), want)
    # fma.rn.f32.f16: the f16 sources exactly, one rounding in f32
    a16, b16 = random_bits(rng, spec, 2000).reshape(2, -1)
    c32 = random_bits(rng, SPECS["f32"], 1000)
    got = ptxfu.eval("fma.rn.f32.f16", a16.astype(np.uint16), b16.astype(np.uint16), c32.astype(np.uint32))
    ctx = SPECS["f32"].context(gmpy2.RoundToNearest)
    for i in range(1000):
        x, y = mpfr_of(spec, int(a16[i]), WIDE), mpfr_of(spec, int(b16[i]), WIDE)
        z = mpfr_of(SPECS["f32"], int(c32[i]), WIDE)
        with gmpy2.local_context(ctx):
            r = gmpy2.fma(x, y, z)
        assert int(got[i]) == bits_of_mpfr(SPECS["f32"], r), i


MASK = {16: 0xFFFF, 32: 0xFFFFFFFF, 64: 0xFFFFFFFFFFFFFFFF}


def signed(v, bits):
    return v - (1 << bits) if v >> (bits - 1) else v


INT_FORMS = [  # (form, sources, bits, Python oracle on unsigned values)
    ("add.u32", 2, 32, lambda a, b: (a + b) & MASK[32]),
    ("sub.s64", 2, 64, lambda a, b: (a - b) & MASK[64]),
    ("mul.lo.u16", 2, 16, lambda a, b: (a * b) & MASK[16]),
    ("mul.hi.s32", 2, 32, lambda a, b: ((signed(a, 32) * signed(b, 32)) >> 32) & MASK[32]),
    ("mul.hi.u64", 2, 64, lambda a, b: (a * b) >> 64),
    ("mad.lo.s32", 3, 32, lambda a, b, c: (a * b + c) & MASK[32]),
    ("min.s16", 2, 16, lambda a, b: min(signed(a, 16), signed(b, 16)) & MASK[16]),
    ("max.u32", 2, 32, max),
    ("add.sat.s32", 2, 32, lambda a, b: max(-(1 << 31), min((1 << 31) - 1, signed(a, 32) + signed(b, 32))) & MASK[32]),
    ("sad.u32", 3, 32, lambda a, b, c: (c + abs(a - b)) & MASK[32]),
    ("xor.b64", 2, 64, lambda a, b: a ^ b),
    ("popc.b64", 1, 64, lambda a: bin(a).count("1")),
    ("brev.b32", 1, 32, lambda a: int(format(a, "032b")[::-1], 2)),
]


@pytest.mark.parametrize("form,nsrc,bits,oracle", INT_FORMS, ids=[f[0] for f in INT_FORMS])
def test_integer_forms_against_python_integers(form, nsrc, bits, oracle, rng):
    edges = np.array(
        [0, 1, 2, MASK[bits], MASK[bits] - 1, 1 << (bits - 1), (1 << (bits - 1)) - 1, (1 << (bits - 1)) + 1],
        dtype=np.uint64,
    )
    n = 20000
    cols = []
    for k in range(nsrc):
        c = rng.integers(0, MASK[bits], size=n, dtype=np.uint64, endpoint=True)
        c[: len(edges) ** 2] = np.repeat(edges, len(edges)) if k == 0 else np.tile(edges, len(edges))
        cols.append(c.astype(DTYPE[bits]))
    got = ptxfu.eval(form, *cols)
    want = [oracle(*(int(c[i]) for c in cols)) for i in range(n)]
    assert [int(v) for v in got] == want


def test_carry_chain_against_python_integers(rng):
    """A 128-bit add as four add.cc/addc.u32 steps, the carry flowing through arrays."""
    n = 50000
    x = [int(v) for v in rng.integers(0, 1 << 63, size=n, dtype=np.uint64)]
    y = [
        int(v) << 65 | int(w)
        for v, w in zip(
            rng.integers(0, 1 << 63, size=n, dtype=np.uint64), rng.integers(0, 1 << 63, size=n, dtype=np.uint64)
        )
    ]
    x = [v << 64 | (v * 0x9E3779B97F4A7C15 & MASK[64]) for v in x]
    words = lambda vs, k: np.array([(v >> (32 * k)) & MASK[32] for v in vs], dtype=np.uint32)  # noqa: E731
    total = [0] * n
    d, carry = ptxfu.eval("add.cc.u32", words(x, 0), words(y, 0))
    assert carry.dtype == np.bool_
    total = [int(v) for v in d]
    for k in (1, 2):
        d, carry = ptxfu.eval("addc.cc.u32", words(x, k), words(y, k), cc=carry)
        total = [t | int(v) << (32 * k) for t, v in zip(total, d)]
    d = ptxfu.eval("addc.u32", words(x, 3), words(y, 3), cc=carry)
    total = [t | int(v) << 96 for t, v in zip(total, d)]
    assert total == [(a + b) & ((1 << 128) - 1) for a, b in zip(x, y)]


def test_predicates_come_back_as_bool_arrays():
    a = np.array([1.0, 2.0, np.nan, -1.0], dtype=np.float32)
    b = np.float32(1.5)
    c = np.array([True, True, True, False])
    p, q = ptxfu.eval("setp.lt.and.f32", a, b, c)
    assert p.dtype == np.bool_ and q.dtype == np.bool_
    lt = a < b
    assert p.tolist() == (lt & c).tolist()
    assert q.tolist() == (~lt & c).tolist()  # NaN: lt is false, so q = c
    t = ptxfu.eval("testp.notanumber.f32", a)
    assert t.dtype == np.bool_ and t.tolist() == np.isnan(a).tolist()


def test_broadcasting_follows_numpy(rng):
    a = rng.integers(0, 1 << 32, size=(300, 1), dtype=np.uint64).astype(np.uint32)
    b = rng.integers(0, 1 << 32, size=(1, 200), dtype=np.uint64).astype(np.uint32)
    c = np.uint32(12345)
    got = ptxfu.eval("mad.lo.u32", a, b, c)
    assert got.shape == (300, 200) and got.dtype == np.uint32
    assert np.array_equal(got, (a.astype(np.uint64) * b + c).astype(np.uint32))
    # non-contiguous views: transposed, strided, reversed, and a big-endian array
    base = rng.integers(0, 1 << 16, size=(64, 64), dtype=np.uint64).astype(np.uint16)
    views = [base.T, base[::3, ::-2], base[::-1], base.astype(">u2")]
    for v in views:
        got = ptxfu.eval("add.u16", v, np.uint16(1))
        assert np.array_equal(got, (v.astype(np.uint32) + 1).astype(np.uint16))
    # a 3-D broadcast against a scalar and a row
    x = rng.integers(0, 1 << 16, size=(4, 5, 6), dtype=np.uint64).astype(np.uint16)
    got = ptxfu.eval("sub.u16", x, np.arange(6, dtype=np.uint16))
    assert np.array_equal(got, (x.astype(np.int64) - np.arange(6)).astype(np.uint16))
    # scalars give a NumPy scalar; empty arrays give empty arrays
    s = ptxfu.eval("add.u32", 1, 2)
    assert isinstance(s, np.uint32) and s == 3
    assert ptxfu.eval("add.u32", np.zeros(0, np.uint32), 1).shape == (0,)
    with pytest.raises(ValueError):
        ptxfu.eval("add.u32", np.zeros(3, np.uint32), np.zeros(4, np.uint32))


def test_signed_integers_are_twos_complement():
    assert ptxfu.eval("mul.wide.s32", -1, 2) == np.uint64(0xFFFFFFFFFFFFFFFE)
    assert ptxfu.eval("add.s16", np.array([-1, -32768], dtype=np.int16), 1).tolist() == [0, 0x8001]


def test_large_arrays_match_their_slices_and_mpfr(rng):
    """10^7 f16 fma operands in one call equal the same call on slices, and a
    sample equals MPFR."""
    n = 10_000_000
    a, b, c = (rng.integers(0, 1 << 16, size=n, dtype=np.uint64).astype(np.uint16) for _ in range(3))
    got = ptxfu.eval("fma.rn.f16", a, b, c)
    assert got.shape == (n,)
    for lo in (0, 12345, n - 4096):
        assert np.array_equal(
            got[lo : lo + 4096], ptxfu.eval("fma.rn.f16", a[lo : lo + 4096], b[lo : lo + 4096], c[lo : lo + 4096])
        )
    idx = rng.integers(0, n, size=3000)
    want = mpfr_expected(
        SPECS["f16"], "fma", "rn", a[idx].astype(np.uint64), b[idx].astype(np.uint64), c[idx].astype(np.uint64)
    )
    assert np.array_equal(got[idx].astype(np.uint64), want)


def test_agrees_with_the_command_line(rng):
    forms = [
        ("fma.rn.ftz.sat.f16x2", 3, 32),
        ("min.NaN.xorsign.abs.bf16", 2, 16),
        ("mul.wide.s32", 2, 32),
        ("cvt.rn.satfinite.e4m3x2.f32", 2, 32),
        ("lop3.b32", 4, 32),
        ("div.rn.f32", 2, 32),
        ("ex2.approx.ftz.f32", 1, 32),
    ]
    for form, nsrc, bits in forms:
        cols = [rng.integers(0, 1 << bits, size=200, dtype=np.uint64) for _ in range(nsrc)]
        if form == "lop3.b32":
            cols[3] &= np.uint64(0xFF)
        lines = [form + " " + " ".join("0x%0*x" % (bits // 4, int(c[i])) for c in cols) for i in range(200)]
        out, _, rc = cli_eval(lines)
        assert rc == 0
        got = ptxfu.eval(form, *[c.astype(DTYPE[bits]) for c in cols])
        width = got.dtype.itemsize * 2
        assert ["0x%0*x" % (width, int(v)) for v in got] == out, form


def test_errors_carry_the_command_line_messages():
    cases = [
        (
            ("fma.rn.oob.relu.f16x2", 0, 0, 0),
            {"target": "sm_80"},
            "fma.rn.oob.relu.f16x2 0x0 0x0 0x0",
            ["--target", "sm_80"],
        ),
        (("add.sat.u32", 1, 2), {}, "add.sat.u32 0x1 0x2", []),
        (("fma.rn.f16", 0x10000, 0, 0), {}, "fma.rn.f16 0x10000 0x0000 0x0000", []),
        (("fma.rn.f16", 1, 2), {}, "fma.rn.f16 0x0001 0x0002", []),
    ]
    for args, kwargs, line, cli_args in cases:
        with pytest.raises(ptxfu.Error) as e:
            ptxfu.eval(*args, **kwargs)
        out, _, rc = cli_eval([line], *cli_args)
        assert rc == 1 and out[0].startswith("error: 1:")
        assert out[0].endswith(": " + str(e.value)), (out[0], str(e.value))
    with pytest.raises(ptxfu.Error) as e:
        ptxfu.eval("add.u32", 1, 2, target="sm_999")
    _, err, rc = cli_eval(["add.u32 0x1 0x2"], "--target", "sm_999")
    assert rc == 2 and str(e.value) in err
    assert isinstance(e.value, ValueError)
    with pytest.raises(ptxfu.Error, match="reads the carry flag"):
        ptxfu.eval("addc.u32", 1, 2)
    with pytest.raises(ptxfu.Error, match="a float32 array holds 32-bit values"):
        ptxfu.eval("add.f16", np.float32(1), np.float32(2))
    with pytest.raises(ptxfu.Error, match="-1 does not fit in 1 bits|does not fit"):
        ptxfu.eval("selp.b32", 1, 2, -5)
    e = pytest.raises(ptxfu.Error, ptxfu.eval, "fma.rn.bogus.f16", 0, 0, 0).value
    assert e.column > 0
