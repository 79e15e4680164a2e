"""ptxfu: a bit-exact model of NVIDIA GPU arithmetic, for NumPy.

    >>> import numpy as np, ptxfu
    >>> a = np.array([1.0, 2.0, -0.5], dtype=np.float16)
    >>> ptxfu.eval("fma.rn.f16", a, a, np.float16(1.0)).view(np.float16)
    array([2.  , 5.  , 1.25], dtype=float16)
    >>> ptxfu.formats.e4m3.encode([448.0, 500.0, 0.3], satfinite=True)
    array([126, 126,  42], dtype=uint8)
    >>> ptxfu.check("add.sat.u32 %r1, %r2, %r3;", target="sm_80")[0].message
    "Modifier '.sat' does not apply to '.u32' type"

eval        one PTX form over NumPy arrays of bit patterns, with broadcasting
check       ptxfu check on PTX text: verdicts with line, column and message
formats     the float formats of the core's table: decode, encode, constants
mma, matmul tensor-core matrix multiply-accumulate on NumPy matrices, bit exact
sim, bench  the SystemC model; the dicts `ptxfu sim/bench --json` print
load_sweep  a `ptxfu sweep` result directory as columns (NumPy arrays or lists)

Every function runs the same code as the `ptxfu` command line, and errors
raise ptxfu.Error (a ValueError) with the command line's message.
"""

import functools
import json
import os
from typing import NamedTuple, Optional

import numpy as np

from . import _ptxfu

__all__ = [
    "Error",
    "Form",
    "eval",
    "check",
    "mma",
    "matmul",
    "CheckResult",
    "Verdict",
    "Format",
    "formats",
    "sim",
    "bench",
    "embedded_configs",
    "load_sweep",
    "SweepResults",
    "__version__",
]

__version__ = _ptxfu.__version__


class Error(ValueError):
    """Bad input: the message is the one the ptxfu command line prints.

    `column` is where in a form's spelling the problem is (1-based), 0 when
    the message is not about a position."""

    column = 0


_ptxfu._set_error_type(Error)

Form = _ptxfu.Form
Form.__doc__ = """A PTX form decoded and checked once: Form("fma.rn.f16", 3, target="sm_80").

Properties: spelling, num_sources, source_bits (a list), dest_bits (1 for a
predicate), num_dests (2 where a second predicate is written), reads_carry,
writes_carry. ptxfu.eval builds and caches these itself."""


# ---------------------------------------------------------------- eval


@functools.lru_cache(maxsize=512)
def _form(mnemonic, num_sources, target, ptx_version, add_features, remove_features):
    return Form(mnemonic, num_sources, target, ptx_version, list(add_features), list(remove_features))


def _uint_dtype(bits):
    if bits == 1:
        return np.dtype(np.bool_)
    for size in (8, 16, 32, 64):
        if bits <= size:
            return np.dtype("uint%d" % size)
    raise Error("no destination is wider than 64 bits")


def _native(a):
    """`a` in native byte order and aligned, so C++ can read it in place."""
    if not a.dtype.isnative:
        a = a.astype(a.dtype.newbyteorder("="))
    return np.require(a, requirements="A")


def _bits_of(x, bits, what):
    """An operand as an unsigned array whose values fit in `bits` bits.

    Unsigned integers are bit patterns; signed integers may also be negative
    (their two's complement is taken); floats are taken as their bits and
    must be as wide as the operand; booleans are 0 and 1."""
    a = np.asarray(x)
    kind = a.dtype.kind
    if kind == "b":
        return _native(a.view(np.uint8))
    if kind == "f":
        width = a.dtype.itemsize * 8
        if width != bits:
            hint = (
                "give float%d values or uint%d bit patterns" % (bits, bits)
                if bits in (16, 32, 64)
                else "give unsigned integer bit patterns"
            )
            raise Error(
                "%s is %d bits wide: a %s array holds %d-bit values (%s)" % (what, bits, a.dtype.name, width, hint)
            )
        return _native(a).view("u%d" % a.dtype.itemsize)
    if kind == "u":  # Form checks that the values fit
        return _native(a)
    if kind == "i":
        a = _native(a)
        if a.size:
            lo, hi = int(a.min()), int(a.max())
            if lo < -(1 << (bits - 1)) or hi >= (1 << bits):
                if hi >= (1 << bits):
                    raise Error("%s '0x%x' does not fit in %d bits" % (what, hi, bits))
                raise Error("%s %d does not fit in %d bits" % (what, lo, bits))
        u = a.astype(np.uint64) & np.uint64((1 << bits) - 1 if bits < 64 else 0xFFFFFFFFFFFFFFFF)
        return u.astype(_uint_dtype(bits)) if bits > 1 else u.astype(np.uint8)
    if kind == "O":  # Python integers beyond int64, mixed lists
        try:
            return _bits_of(np.array(x, dtype=np.uint64), bits, what)
        except (TypeError, ValueError, OverflowError):
            pass
    raise Error("%s: expected unsigned integer bit patterns or float values, not %s" % (what, a.dtype.name))


def eval(form, *operands, cc=None, out=None, target=None, ptx_version=None, add_features=(), remove_features=()):
    """Evaluates one PTX form over NumPy arrays, as `ptxfu eval` does per line.

    form      the opcode as PTX spells it: "fma.rn.ftz.f16x2", "add.cc.u32", "setp.lt.and.f32"
    operands  the sources in PTX order: arrays (or scalars) of bit patterns
              (uint8/16/32/64), or float16/float32/float64 arrays taken as
              their bits; signed integers give their two's complement. They
              broadcast against each other as NumPy arrays do.
    cc        the carry flag for the forms that read it (addc, subc, madc): 0/1 or an array
    out       an array for the destination (of its dtype and the broadcast shape,
              C-contiguous), as a ufunc's out=: returned, filled
    target    "sm_80" etc. (default: the newest, where every form is legal); ptx_version
              "8.6"; add_features/remove_features change the target's feature mask

    Returns the destination's bits as an array of the broadcast shape (uint16 for
    f16, uint32 for f16x2, bool for a predicate; `.view(np.float16)` to read an
    f16 result as numbers). Forms with a second destination (setp's q, lop3's
    predicate) return (d, p) and forms that write the carry flag (.cc) return
    (d, carry), the extra arrays bool. Scalars in, NumPy scalars out.
    """
    f = _form(form, len(operands), target, ptx_version, tuple(add_features), tuple(remove_features))
    if f.reads_carry and cc is None:
        raise Error("'%s' reads the carry flag: give cc=0 or cc=1 (or an array of them)" % form)
    if not f.reads_carry and cc is not None:
        raise Error("'%s' does not read the carry flag: drop cc=" % form)
    arrays = [_bits_of(x, bits, "operand %d" % (k + 1)) for k, (x, bits) in enumerate(zip(operands, f.source_bits))]
    if f.reads_carry:
        arrays.append(_bits_of(cc, 1, "cc"))
    scalar = all(a.ndim == 0 for a in arrays)
    arrays = np.broadcast_arrays(*arrays) if arrays else []
    results = f._eval_arrays(arrays, _uint_dtype(f.dest_bits), out)
    if scalar:
        results = tuple(r[()] for r in results)
    return results[0] if len(results) == 1 else results


# ---------------------------------------------------------------- check


class Verdict(NamedTuple):
    line: int
    column: int
    ok: bool
    message: str  # "ok", or ptxas's words

    def __str__(self):
        return "ok" if self.ok else "error: %d:%d: %s" % (self.line, self.column, self.message)


class CheckResult:
    """The verdicts of ptxfu.check, in source order.

    module    True when the text has a directive (.version, .target, .entry, ...):
              then the verdicts are its errors only, and none means ptxas would
              accept it. Else each loose statement has one verdict, ok or not.
    ok        True when nothing was rejected.
    Iterating, len() and indexing go over the verdicts."""

    def __init__(self, module, verdicts):
        self.module = module
        self.verdicts = verdicts

    @property
    def ok(self):
        return all(v.ok for v in self.verdicts)

    def __iter__(self):
        return iter(self.verdicts)

    def __len__(self):
        return len(self.verdicts)

    def __getitem__(self, i):
        return self.verdicts[i]

    def __repr__(self):
        return "CheckResult(module=%r, verdicts=%r)" % (self.module, self.verdicts)


def check(text, target=None, ptx_version=None, add_features=(), remove_features=()):
    """`ptxfu check` on PTX text (a str or bytes), or on a file (a pathlib.Path).

    Loose statements ("add.sat.u32 %r1, %r2, %r3;" per line) get one verdict
    each; a module gets the errors ptxas would report. Without target the
    module's .target applies (loose statements need one). Raises Error for an
    unknown target."""
    if isinstance(text, os.PathLike):  # its bytes, as `ptxfu check FILE` reads them
        with open(text, "rb") as f:
            text = f.read()
    module, verdicts = _ptxfu._check(text, target, ptx_version, list(add_features), list(remove_features))
    return CheckResult(module, [Verdict(*v) for v in verdicts])


# ---------------------------------------------------------------- formats


class Format:
    """A float format of the core's table (ptxfu.formats.NAME).

    Bit patterns are as a register holds them: tf32 in an f32 container whose
    low 13 bits are zero, the FP8/FP6/FP4/UE8M0 formats in the low bits of a
    uint8. `dtype` is the container's NumPy type.

    Constants, derived from the format's row: max, min_normal, min_subnormal
    (values; None where the format has no subnormals) and max_bits,
    min_normal_bits, min_subnormal_bits, nan_bits (bit patterns; nan_bits is
    the NaN results take, None where the format has no NaN)."""

    def __init__(self, core):
        self._core = core
        self.name = core.name
        self.exponent_bits = core.exponent_bits
        self.fraction_bits = core.fraction_bits
        self.width = core.width
        self.dtype = np.dtype("uint%d" % core.container_bits)
        self.has_sign = core.has_sign
        self.has_infinity = core.has_infinity
        self.has_nan = core.has_nan
        self.has_subnormals = core.has_subnormals
        self.max = core.max
        self.min_normal = core.min_normal
        self.min_subnormal = core.min_subnormal
        self.max_bits = core.max_bits
        self.min_normal_bits = core.min_normal_bits
        self.min_subnormal_bits = core.min_subnormal_bits
        self.nan_bits = core.nan_bits

    def decode(self, bits):
        """The exact value of each bit pattern, as float64 (NaN for NaNs)."""
        a = np.asarray(bits)
        if a.dtype.kind == "f" and a.dtype.itemsize == self.dtype.itemsize:
            a = _native(a).view(self.dtype)
        elif a.dtype.kind == "i":
            if a.size and a.min() < 0:
                raise Error("%s.decode takes bit patterns: %d is negative" % (self.name, a.min()))
        elif a.dtype.kind == "O":
            try:
                a = np.array(bits, dtype=np.uint64)
            except (TypeError, ValueError, OverflowError):
                raise Error("%s.decode takes bit patterns (unsigned integers)" % self.name) from None
        elif a.dtype.kind != "u":
            raise Error("%s.decode takes bit patterns (unsigned integers), not %s" % (self.name, a.dtype.name))
        out = self._core._decode(a)
        return out[()] if out.ndim == 0 else out

    def encode(self, values, rounding="rn", satfinite=False):
        """Each value rounded once to the format (rounding 'rn', 'rz', 'rm' or 'rp').

        satfinite: infinities and overflows become the largest finite value of
        their sign, as cvt's .satfinite. Without it overflow gives what the
        format has: inf (f16, bf16, f32, f64, tf32, e5m2), NaN (e4m3), the largest
        finite value (e2m1, e2m3, e3m2 have neither), NaN (ue8m0). NaN stays
        NaN (e2m1, e2m3, e3m2: +max)."""
        v = np.asarray(values, dtype=np.float64)
        out = self._core._encode(v, rounding, bool(satfinite)).astype(self.dtype)
        return out[()] if out.ndim == 0 else out

    def __repr__(self):
        return "<ptxfu format %s: e%dm%d, max %r>" % (self.name, self.exponent_bits, self.fraction_bits, self.max)


class _Formats:
    """Every float format of the core's table, by name: ptxfu.formats.e4m3,
    ptxfu.formats["bf16"]; iterating gives them in the table's order."""

    def __init__(self, fmts):
        self._all = list(fmts)
        self._by_name = {f.name: f for f in self._all}
        for f in self._all:
            setattr(self, f.name, f)

    def __iter__(self):
        return iter(self._all)

    def __len__(self):
        return len(self._all)

    def __getitem__(self, name):
        try:
            return self._by_name[name]
        except KeyError:
            raise Error("unknown format '%s' (the formats: %s)" % (name, ", ".join(self._by_name))) from None

    def __contains__(self, name):
        return name in self._by_name

    def names(self):
        return [f.name for f in self._all]

    def __repr__(self):
        return "<ptxfu formats: %s>" % ", ".join(self._by_name)


formats = _Formats(Format(c) for c in _ptxfu._formats())


# ---------------------------------------------------------------- mma, matmul

# Per element type: the dtype of its bit patterns, and the dtype of its
# values where NumPy has one (tf32: float32, whose low 13 bits the tensor
# core ignores).
_MMA_BITS = {
    "f16": np.uint16,
    "bf16": np.uint16,
    "tf32": np.uint32,
    "f32": np.uint32,
    "f64": np.uint64,
    "e4m3": np.uint8,
    "e5m2": np.uint8,
    "e3m2": np.uint8,
    "e2m3": np.uint8,
    "e2m1": np.uint8,
    "s8": np.uint8,
    "u8": np.uint8,
    "s4": np.uint8,
    "u4": np.uint8,
    "s32": np.uint32,
}
_MMA_VALUES = {
    "f16": np.float16,
    "tf32": np.float32,
    "f32": np.float32,
    "f64": np.float64,
    "s8": np.int8,
    "u8": np.uint8,
    "s4": np.int8,
    "u4": np.uint8,
    "s32": np.int32,
}

DEFAULT_MMA = "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"


@functools.lru_cache(maxsize=256)
def _mma_instruction(name, target):
    return _ptxfu._Mma(name, target)


def _mma_operand(x, elem, what):
    """An operand as the unsigned bit patterns of its element type."""
    a = np.asarray(x)
    bits = np.dtype(_MMA_BITS[elem])
    values = _MMA_VALUES.get(elem)
    if a.dtype == bits:
        return _native(a)
    if values is not None and a.dtype == np.dtype(values):
        a = _native(a)
        if elem == "s4":  # int8 values in -8..7, as their 4-bit two's complement
            if a.size and (a.min() < -8 or a.max() > 7):
                raise Error("%s: s4 values lie in -8..7, found %d" % (what, a.min() if a.min() < -8 else a.max()))
            return a.view(np.uint8) & np.uint8(0xF)
        return a.view(bits)
    accepted = ("%s values or " % np.dtype(values).name if values is not None else "") + "%s bit patterns" % bits.name
    raise Error("%s: a %s operand takes %s, not %s" % (what, elem, accepted, a.dtype.name))


def _mma_run(inst, a, b, c, chain, bits):
    ta, tb, tc, td = inst.types
    a, b = _mma_operand(a, ta, "A"), _mma_operand(b, tb, "B")
    if c is None:
        c = np.zeros((a.shape[-2] if a.ndim >= 2 else 0, b.shape[-1] if b.ndim >= 1 else 0), _MMA_BITS[tc])
    c = _mma_operand(c, tc, "C")
    for name, x in (("A", a), ("B", b), ("C", c)):
        if x.ndim < 2:
            raise Error("%s is %s: a matrix has two dimensions (a batch of them more)" % (name, tuple(x.shape)))
    try:
        inst._check_shapes(a.shape[-2], a.shape[-1], b.shape[-2], b.shape[-1], c.shape[-2], c.shape[-1], chain)
    except Error as e:
        raise Error("%s%s" % (e, "" if chain else " or a batch of them")) from None
    try:
        batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2], c.shape[:-2])
    except ValueError:
        raise Error(
            "the batch shapes of A %s, B %s and C %s do not broadcast" % (a.shape[:-2], b.shape[:-2], c.shape[:-2])
        ) from None
    a, b, c = (np.broadcast_to(x, batch + x.shape[-2:]) for x in (a, b, c))
    d_bits = np.dtype(_MMA_BITS[td])
    d = inst._run(a, b, c, d_bits)
    return d if bits else d.view(_MMA_VALUES.get(td, d_bits))


def mma(a, b, c, instruction=DEFAULT_MMA, target="sm_80", bits=False):
    """D = A B + C as one tensor-core instruction computes it, bit exactly.

    instruction  the PTX name: "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
                 "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32" (f16 wmma: d.c),
                 "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16" (c is d's type)
    target       "sm_70" ... "sm_120a": its tensor core's numerics
    a, b, c      (M, K), (K, N) and (M, N) arrays of the instruction's shape, or
                 batches of them with leading dimensions that broadcast as in
                 np.matmul. Each takes its element type's values or bit patterns:
                   f16: float16 or uint16      bf16: uint16 bits
                   tf32: float32 or uint32 (the f32 register; the low 13 bits
                         are ignored, as the hardware truncates)
                   f32: float32 or uint32      f64: float64 or uint64
                   e4m3, e5m2, e3m2, e2m3, e2m1: uint8 bits (in the low bits)
                   s8: int8 or uint8 bits      u8: uint8
                   s4: int8 (-8..7) or uint8 bits (low 4)   u4: uint8 (0..15)
                   s32: int32 or uint32 bits
    bits         False: D as values (float32 for f32, float16 for f16, float64
                 for f64, int32 for s32); True: as bit patterns (uint32 ...).

    Raises ptxfu.Error, with the command line's message, for an instruction
    the target does not have, a wrong shape or a wrong dtype. The loop over
    the batch runs in C++ with the GIL released.

    >>> ones = np.ones((16, 16), np.float16)
    >>> mma(ones, ones[:, :8], np.full((16, 8), 0.5, np.float32),
    ...     instruction="mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32")[0, 0]
    16.5
    """
    return _mma_run(_mma_instruction(instruction, target), a, b, c, False, bits)


def matmul(a, b, c=None, instruction=DEFAULT_MMA, target="sm_80", bits=False):
    """A (M, K) B (K, N) + C as a simple kernel computes it with one
    instruction: chained over K in ascending k (each instruction's D is the
    next one's C), K a multiple of the instruction's k; M and N of any size
    (tiled by the instruction's shape: every element of D is independent of
    the tiling). c=None: +0. Batches, dtypes, bits and errors as ptxfu.mma."""
    return _mma_run(_mma_instruction(instruction, target), a, b, c, True, bits)


# ---------------------------------------------------------------- sim, bench


def _message(err, prefix):
    """The command line's message, without its `ptxfu sim: ` prefix."""
    text = err.decode("utf-8", "replace").strip()
    return text[len(prefix) :] if text.startswith(prefix) else text


def embedded_configs():
    """The names of the architecture configs compiled in (sm_70 ... sm_100)."""
    return list(_ptxfu._embedded_configs())


def sim(program, config=None, warps=1, mode=None, rtl_half=False, trace=None, kanata=None):
    """`ptxfu sim --json PROGRAM`: runs a straight-line PTX program on the SM model.

    config is a config file or an embedded config's name ("sm_80"; default
    sm_90); mode "lt" or "at" (default: "at" with rtl_half, else "lt");
    trace/kanata write a VCD or Kanata file. Returns the dict `--json` prints:
    cycles, warp_instructions, ipc, pipes, stalls, registers, host_seconds (and
    rtl_cosim with rtl_half). Calls run in this process, one simulation at a
    time (other Python threads go on meanwhile)."""
    if mode is None:
        mode = "at" if rtl_half else "lt"
    status, out, err = _ptxfu._sim(
        os.fspath(program),
        None if config is None else os.fspath(config),
        int(warps),
        mode,
        bool(rtl_half),
        "" if trace is None else os.fspath(trace),
        "" if kanata is None else os.fspath(kanata),
    )
    if status not in (0, 3):  # 3: the RTL disagreed, which the dict reports
        raise Error(_message(err, "ptxfu sim: "))
    return json.loads(out)


def bench(config=None, all=False):
    """`ptxfu bench --json`: the microbenchmarks (latency and throughput beside
    each config's published references) on one config (file or embedded name;
    default sm_90) or, with all=True, every embedded config. Returns the list of
    dicts `--json` prints."""
    if all and config is not None:
        raise Error("give config or all=True, not both")
    status, out, err = _ptxfu._bench(None if config is None else os.fspath(config), bool(all))
    if status != 0:
        raise Error(_message(err, "ptxfu bench: "))
    return json.loads(out)


# ---------------------------------------------------------------- sweeps

_TEXT_COLUMNS = ("key", "program", "base", "status", "error")


def _column(values, numpy):
    """A CSV column as numbers where every non-empty cell is a number."""

    def number(s):
        try:
            return int(s)
        except ValueError:
            return float(s)

    try:
        parsed = [None if v == "" else number(v) for v in values]
    except ValueError:
        return list(values)
    if not numpy:
        return parsed
    if all(isinstance(v, int) for v in parsed):
        return np.array(parsed, dtype=np.int64)
    return np.array([np.nan if v is None else v for v in parsed], dtype=np.float64)


class SweepResults:
    """A `ptxfu sweep` result directory (what results.csv and sweep.json hold).

    name, manifest  the sweep (sweep.json as a dict: parameters, programs, metrics, ...)
    columns         column name -> values, in results.csv's order: metrics and
                    numeric parameters as NumPy arrays (int64, or float64 with NaN
                    for failed points), key/program/base/status/error and other text
                    as lists of str (plain lists throughout with numpy=False)
    rows            one dict per point
    len()           the number of points recorded"""

    def __init__(self, manifest, header, rows, numpy):
        self.manifest = manifest
        self.name = manifest.get("name")
        self.header = list(header)
        self.columns = {}
        for i, name in enumerate(self.header):
            cells = [r[i] if i < len(r) else "" for r in rows]
            self.columns[name] = list(cells) if name in _TEXT_COLUMNS else _column(cells, numpy)
        self.rows = [{name: self.columns[name][i] for name in self.header} for i in range(len(rows))]

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, column):
        return self.columns[column]

    def __repr__(self):
        return "<ptxfu sweep %s: %d points, columns %s>" % (self.name, len(self), ", ".join(self.header))


def load_sweep(directory, numpy=True):
    """Loads a `ptxfu sweep` result directory (results.csv, sweep.json)."""
    manifest, header, rows = _ptxfu._read_sweep(os.fspath(directory))
    return SweepResults(json.loads(manifest), header, rows, numpy)


# ---------------------------------------------------------------- host API
# Device, DeviceArray, Module, Kernel, LaunchResult, KernelFault and the typed
# scalars (ptxfu.u32(...)): python/ptxfu/host.py.
from . import host as _host  # noqa: E402
from .host import *  # noqa: E402,F401,F403

__all__ += _host.__all__
