"""ptxfu.mma and ptxfu.matmul against an oracle written here from the
published tensor-core model (Fasi et al. 2021; Khattak & Mikaitis,
arXiv:2512.07004), with exact Fractions: each block's nonzero products and
c are aligned to the largest exponent among them and truncated towards zero
to `kept` bits below it, summed exactly, and the sum rounded once to the
output format; blocks of `width` products chain in ascending k. Plus the
batch and dtype rules, the C++ engine (through the command line) and the
error messages."""
import os
import subprocess
import tempfile
from fractions import Fraction

import numpy as np
import pytest
from conftest import BINARY, SOURCE_DIR, SPECS

import ptxfu

F16, BF16, F32 = SPECS["f16"], SPECS["bf16"], SPECS["f32"]


def exponent(spec, bits):
    """The exponent the alignment reads: the field's, subnormals at emin."""
    field = (bits >> spec.m) & ((1 << spec.e) - 1)
    return (field if field else 1) - spec.bias


def round_to(spec, v, mode):
    """The bits of Fraction v rounded once to spec ('rz' or 'rn'); no overflow."""
    if v == 0:
        return spec.encode_exact(Fraction(0))
    a = abs(v)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    e = max(e, spec.emin)
    q = a / Fraction(2) ** (e - spec.m)  # the kept significand is its integer part
    n = q.numerator // q.denominator
    rem = q - n
    if mode == "rn" and (rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n % 2 == 1)):
        n += 1
    r = n * Fraction(2) ** (e - spec.m)
    assert r <= spec.max_value(), "the oracle does not model overflow"
    return spec.encode_exact(-r if v < 0 else r)


def block(pairs, c, in_spec, out_spec, kept, mode):
    """One block: the (a, b) bit pairs and c (bits of out_spec)."""
    addends = []
    for a, b in pairs:
        v = in_spec.decode(a) * in_spec.decode(b)
        if v != 0:
            addends.append((v, exponent(in_spec, a) + exponent(in_spec, b)))
    vc = out_spec.decode(c)
    if vc != 0:
        addends.append((vc, exponent(out_spec, c)))
    if not addends:  # zeros only: +0 whatever their signs (the H100 probe)
        return out_spec.encode_exact(Fraction(0))
    ulp = Fraction(2) ** (max(e for _, e in addends) - kept)
    total = sum(int(v / ulp) * ulp for v, _ in addends)  # int() truncates towards zero
    return round_to(out_spec, total, mode)


def oracle(a, b, c, in_spec, out_spec, width, kept, mode):
    """D = A B + C, each element a chain of blocks of `width` in ascending k."""
    m, k = a.shape
    n = b.shape[1]
    d = np.zeros((m, n), dtype=np.uint64)
    for i in range(m):
        for j in range(n):
            acc = int(c[i, j])
            for k0 in range(0, k, width):
                pairs = [(int(a[i, t]), int(b[t, j])) for t in range(k0, k0 + width)]
                acc = block(pairs, acc, in_spec, out_spec, kept, mode)
            d[i, j] = acc
    return d


def finite(rng, spec, shape, spread):
    """Finite bit patterns with exponents within `spread` of the bias (some
    zeros and, where spread reaches down, subnormals), both signs."""
    n = int(np.prod(shape))
    e = rng.integers(max(0, spec.bias - spread), spec.bias + spread // 2 + 1, size=n)
    f = rng.integers(0, 1 << spec.m, size=n)
    s = rng.integers(0, 2, size=n)
    bits = (s << (spec.e + spec.m)) | (e << spec.m) | f
    bits[rng.random(n) < 0.05] = 0
    return bits.astype(np.uint64).reshape(shape)


# (instruction, target, input spec, output spec, block width, kept bits, rounding): the rows as
# the papers give them, written here independently of src/mma/numerics.cc.
CASES = [
    (
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
        "sm_80",
        F16,
        F32,
        8,
        24,
        "rz",
    ),
    (
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
        "sm_80",
        BF16,
        F32,
        8,
        24,
        "rz",
    ),
    (
        "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16",
        "sm_80",
        F16,
        F16,
        8,
        24,
        "rn",
    ),
    ("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32", "sm_70", F16, F32, 4, 23, "rz"),
    ("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32", "sm_70", F16, F32, 4, 23, "rz"),
    (
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
        "sm_90",
        F16,
        F32,
        16,
        25,
        "rz",
    ),
    (
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
        "sm_90",
        BF16,
        F32,
        16,
        25,
        "rz",
    ),
    (
        "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16",
        "sm_90",
        BF16,
        F32,
        16,
        25,
        "rz",
    ),
]


@pytest.mark.parametrize("name,target,ins,outs,width,kept,mode", CASES, ids=[f"{c[1]}-{c[0]}" for c in CASES])
def test_against_the_fraction_oracle(name, target, ins, outs, width, kept, mode):
    rng = np.random.default_rng(23)
    inst = ptxfu._ptxfu._Mma(name, target)
    m, n, k = inst.m, inst.n, inst.k
    batch = 3
    # Wide exponent spreads: the alignment truncates, subnormals; narrow ones:
    # cancellation. An f16 result stays below overflow, which the oracle leaves out.
    spreads = (3, 9, 9) if outs is F16 else (3, 12, 20)
    a = np.stack([finite(rng, ins, (m, k), s) for s in spreads])
    b = np.stack([finite(rng, ins, (k, n), s) for s in spreads])
    c = np.stack([finite(rng, outs, (m, n), s) for s in spreads])
    dt = {16: np.uint16, 32: np.uint32}
    got = ptxfu.mma(
        a.astype(dt[ins.width]),
        b.astype(dt[ins.width]),
        c.astype(dt[outs.width]),
        instruction=name,
        target=target,
        bits=True,
    )
    assert got.shape == (batch, m, n) and got.dtype == dt[outs.width]
    for t in range(batch):
        want = oracle(a[t], b[t], c[t], ins, outs, width, kept, mode)
        bad = np.argwhere(got[t] != want)
        assert bad.size == 0, "tile %d (%d, %d): got 0x%x want 0x%x" % (
            t,
            *bad[0],
            got[t][tuple(bad[0])],
            want[tuple(bad[0])],
        )


def test_matmul_chains_over_k_against_the_oracle():
    rng = np.random.default_rng(5)
    name = "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"
    a, b = finite(rng, BF16, (5, 64), 10), finite(rng, BF16, (64, 3), 10)  # M, N not multiples of 16, 8
    c = finite(rng, F32, (5, 3), 10)
    got = ptxfu.matmul(
        a.astype(np.uint16),
        b.astype(np.uint16),
        c.astype(np.uint32),
        instruction=name,
        bits=True,
    )
    assert np.array_equal(got, oracle(a, b, c, BF16, F32, 8, 24, "rz"))
    # c=None is +0.
    zero = ptxfu.matmul(a.astype(np.uint16), b.astype(np.uint16), instruction=name, bits=True)
    assert np.array_equal(zero, oracle(a, b, np.zeros((5, 3), np.uint64), BF16, F32, 8, 24, "rz"))


def test_values_and_bits_agree():
    rng = np.random.default_rng(7)
    name = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
    a = rng.standard_normal((16, 16)).astype(np.float16)
    b = rng.standard_normal((16, 8)).astype(np.float16)
    c = rng.standard_normal((16, 8)).astype(np.float32)
    d = ptxfu.mma(a, b, c, instruction=name)
    assert d.dtype == np.float32
    bits = ptxfu.mma(
        a.view(np.uint16),
        b.view(np.uint16),
        c.view(np.uint32),
        instruction=name,
        bits=True,
    )
    assert np.array_equal(d.view(np.uint32), bits)
    assert np.allclose(d, a.astype(np.float64) @ b.astype(np.float64) + c, rtol=1e-5, atol=1e-5)


def test_tf32_inputs_are_truncated():
    rng = np.random.default_rng(8)
    name = "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"
    a = rng.standard_normal((16, 8)).astype(np.float32)
    b = rng.standard_normal((8, 8)).astype(np.float32)
    c = np.zeros((16, 8), np.float32)
    cut = np.uint32(0xFFFFE000)
    d = ptxfu.mma(a, b, c, instruction=name)
    assert np.array_equal(
        d,
        ptxfu.mma(
            (a.view(np.uint32) & cut).view(np.float32),
            (b.view(np.uint32) & cut).view(np.float32),
            c,
            instruction=name,
        ),
    )


def test_integers_and_f64():
    rng = np.random.default_rng(9)
    name = "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32"
    a = rng.integers(-128, 128, (16, 32)).astype(np.int8)
    b = rng.integers(-128, 128, (32, 8)).astype(np.int8)
    c = rng.integers(-1000, 1000, (16, 8)).astype(np.int32)
    d = ptxfu.mma(a, b, c, instruction=name)
    assert d.dtype == np.int32
    assert np.array_equal(d, a.astype(np.int64) @ b.astype(np.int64) + c)
    assert np.array_equal(
        ptxfu.mma(a.view(np.uint8), b.view(np.uint8), c.view(np.uint32), instruction=name),
        d,
    )
    # f64: a chain of fmas; small integers are exact.
    f = "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64"
    x, y = rng.integers(-9, 9, (8, 4)).astype(np.float64), rng.integers(-9, 9, (4, 8)).astype(np.float64)
    assert np.array_equal(ptxfu.mma(x, y, np.ones((8, 8)), instruction=f, target="sm_80"), x @ y + 1)


def test_batches_broadcast_like_matmul():
    rng = np.random.default_rng(10)
    name = "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"
    a = finite(rng, BF16, (4, 1, 16, 16), 6).astype(np.uint16)
    b = finite(rng, BF16, (3, 16, 8), 6).astype(np.uint16)
    c = finite(rng, F32, (16, 8), 6).astype(np.uint32)
    d = ptxfu.mma(a, b, c, instruction=name, bits=True)
    assert d.shape == (4, 3, 16, 8)
    for i in range(4):
        for j in range(3):
            assert np.array_equal(d[i, j], ptxfu.mma(a[i, 0], b[j], c, instruction=name, bits=True))
    # Non-contiguous views read as their values.
    bt = np.ascontiguousarray(b[0].T).T
    assert np.array_equal(ptxfu.mma(a[0, 0], bt, c, instruction=name, bits=True), d[0, 0])


def run_cli(name, target, a, b, c, width, matmul=False):
    """`ptxfu mma` on the three matrices (the C++ engine behind the command line)."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for label, x in (("A", a), ("B", b), ("C", c)):
            p = os.path.join(tmp, label + ".txt")
            with open(p, "w") as f:
                f.write("\n".join(" ".join("0x%x" % v for v in row) for row in x) + "\n")
            paths.append(p)
        cmd = [BINARY, "mma", "--instruction", name, "--target", target, *paths] + (["--matmul"] if matmul else [])
        r = subprocess.run(cmd, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        return np.array(
            [[int(t, 16) for t in line.split()] for line in r.stdout.splitlines()],
            dtype=np.uint64,
        )


@pytest.mark.parametrize(
    "name,target,ins,outs",
    [
        ("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "sm_80", F16, F32),
        (
            "mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16",
            "sm_90",
            SPECS["e4m3"],
            F16,
        ),
        (
            "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
            "sm_100",
            SPECS["tf32"],
            F32,
        ),
    ],
)
def test_random_batches_equal_the_engine(name, target, ins, outs):
    """Uniform bit patterns (NaN, inf, subnormals included), a batch in
    Python against each tile through the command line."""
    rng = np.random.default_rng(11)
    inst = ptxfu._ptxfu._Mma(name, target)
    m, n, k = inst.m, inst.n, inst.k
    cont = {8: np.uint8, 16: np.uint16, 19: np.uint32, 32: np.uint32}
    ia = (rng.integers(0, 1 << ins.width, (3, m, k), dtype=np.uint64) << np.uint64(ins.shift)).astype(cont[ins.width])
    ib = (rng.integers(0, 1 << ins.width, (3, k, n), dtype=np.uint64) << np.uint64(ins.shift)).astype(cont[ins.width])
    ic = rng.integers(0, 1 << outs.width, (3, m, n), dtype=np.uint64).astype(cont[outs.width])
    d = ptxfu.mma(ia, ib, ic, instruction=name, target=target, bits=True)
    for t in range(3):
        assert np.array_equal(d[t], run_cli(name, target, ia[t], ib[t], ic[t], outs.width))
    big = ptxfu.matmul(
        ia.reshape(m, 3 * k),
        ib.reshape(3 * k, n),
        ic[0],
        instruction=name,
        target=target,
        bits=True,
    )
    assert np.array_equal(
        big,
        run_cli(
            name,
            target,
            ia.reshape(m, 3 * k),
            ib.reshape(3 * k, n),
            ic[0],
            outs.width,
            matmul=True,
        ),
    )


def test_errors_carry_the_command_lines_messages():
    name = "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"
    a, b, c = (
        np.zeros((16, 16), np.uint16),
        np.zeros((16, 8), np.uint16),
        np.zeros((16, 8), np.float32),
    )
    with pytest.raises(
        ptxfu.Error,
        match=r"^A is \(16, 15\); m16n8k16 needs \(16, 16\) or a batch of them$",
    ):
        ptxfu.mma(a[:, :15], b, c, instruction=name)
    with pytest.raises(ptxfu.Error, match=r"^C is \(16, 4\); m16n8k16 needs \(16, 8\)"):
        ptxfu.mma(a, b, c[:, :4], instruction=name)
    with pytest.raises(ptxfu.Error, match=r"B: a bf16 operand takes uint16 bit patterns, not float16"):
        ptxfu.mma(a, b.view(np.float16), c, instruction=name)
    with pytest.raises(
        ptxfu.Error,
        match=r"A: a f16 operand takes float16 values or uint16 bit patterns, not int64",
    ):
        ptxfu.mma(np.zeros((16, 16), np.int64), b, c, instruction=name.replace("bf16", "f16"))
    with pytest.raises(ptxfu.Error, match=r"not available on sm_75: bf16 -> f32 exists on sm_80"):
        ptxfu.mma(a, b, c, instruction=name, target="sm_75")
    with pytest.raises(ptxfu.Error, match=r"do not broadcast"):
        ptxfu.mma(
            np.zeros((2, 16, 16), np.uint16),
            np.zeros((3, 16, 8), np.uint16),
            c,
            instruction=name,
        )
    with pytest.raises(
        ptxfu.Error,
        match=r"^A is \(16, 24\); a chain of m16n8k16 needs a K that is a positive multiple",
    ):
        ptxfu.matmul(
            np.zeros((16, 24), np.uint16),
            np.zeros((24, 8), np.uint16),
            instruction=name,
        )
    with pytest.raises(ptxfu.Error, match=r"^B is \(16, 8\); A is \(16, 32\): B needs 32 rows"):
        ptxfu.matmul(np.zeros((16, 32), np.uint16), b, instruction=name)
    with pytest.raises(ptxfu.Error, match=r"A element \(0, 1\) 0x1f does not fit in 4 bits \(e2m1\)"):
        x = np.zeros((16, 32), np.uint8)
        x[0, 1] = 0x1F
        ptxfu.mma(
            x,
            np.zeros((32, 8), np.uint8),
            np.zeros((16, 8), np.float32),
            target="sm_120a",
            instruction="mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e2m1.f32",
        )
    with pytest.raises(ptxfu.Error, match=r"is \(16,\): a matrix has two dimensions"):
        ptxfu.mma(np.zeros(16, np.uint16), b, c, instruction=name)


def test_the_batch_runs_without_the_gil():
    """While a large batch computes in one thread, Python keeps running in another."""
    import threading

    name = "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"
    a = np.full((4000, 16, 16), 0x3F80, np.uint16)
    b, c = np.full((16, 8), 0x3F80, np.uint16), np.zeros((16, 8), np.float32)
    done = []
    t = threading.Thread(target=lambda: done.append(ptxfu.mma(a, b, c, instruction=name)))
    spins = 0
    t.start()
    while t.is_alive():
        spins += 1
    t.join()
    assert done[0].shape == (4000, 16, 8) and done[0][0, 0, 0] == 16.0
    assert spins > 1000, "the main thread ran %d times while the batch computed" % spins


# One mma.sync tile, two paths: the corpus GEMMs at exactly one instruction's
# shape run a single mma on the kernel model (ptxfu.Device: fragments,
# ldmatrix, lane layouts), and ptxfu.mma computes the same product from the
# whole matrices. The bits must agree.
CORPUS_PTX = os.path.join(SOURCE_DIR, "tb", "corpus", "ptx")


@pytest.mark.parametrize(
    "ptx, entry, instruction, k, b_transposed, dtype",
    [
        (
            "mma_gemm.sm_80.ptx",
            "mma_gemm_f16_f32",
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
            16,
            False,
            np.uint16,
        ),
        (
            "fp8_mma_gemm.sm_89.ptx",
            "fp8_mma_gemm_e4m3_f32",
            "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32",
            32,
            True,
            np.uint8,
        ),
    ],
)
@pytest.mark.parametrize("target", ["sm_89", "sm_90"])
def test_one_tile_on_the_kernel_model_is_ptxfu_mma(ptx, entry, instruction, k, b_transposed, dtype, target):
    rng = np.random.default_rng(k)
    m, n = 16, 8
    if dtype == np.uint16:  # finite f16 of both signs in [2^-4, 2^4)
        a, b = (
            (rng.integers(0, 2, s) << 15 | rng.integers(11, 19, s) << 10 | rng.integers(0, 1024, s)).astype(np.uint16)
            for s in ((m, k), (k, n))
        )
    else:  # finite e4m3 of both signs in [2^-3, 2^5)
        a, b = (
            (rng.integers(0, 2, s) << 7 | rng.integers(4, 12, s) << 3 | rng.integers(0, 8, s)).astype(np.uint8)
            for s in ((m, k), (k, n))
        )
    c = rng.uniform(-8, 8, (m, n)).astype(np.float32)
    dev = ptxfu.Device(target)
    kernel = dev.load_module(os.path.join(CORPUS_PTX, ptx)).get_function(entry)
    b_arg = np.ascontiguousarray(b.T) if b_transposed else b
    d = dev.zeros((m, n), np.float32)
    args = (
        dev.to_device(a),
        dev.to_device(b_arg),
        dev.to_device(c),
        d,
        np.int32(m),
        np.int32(n),
        np.int32(k),
    )
    kernel(grid=(1,), block=(32,), args=args)
    want = ptxfu.mma(a, b, c.view(np.uint32), instruction=instruction, target=target, bits=True)
    np.testing.assert_array_equal(d.get().view(np.uint32), want)
