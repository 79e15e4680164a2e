"""The host API: a CUDA host program's objects on the modelled GPU, shaped
like CuPy's (RawModule, RawKernel, ndarray) and PyCUDA's.

    >>> dev = ptxfu.Device("sm_80")
    >>> mod = dev.load_module("kernels.ptx")
    >>> x = dev.to_device(np.arange(1024, dtype=np.uint32))
    >>> run = mod.get_function("add_one")(grid=(4,), block=(256,), args=(x, np.uint32(x.size)))
    >>> x.get()[:3], run.cycles

Device memory persists across the launches of one Device; launches run one
after another as on one stream (Device.timeline). Every launch runs in this
process (no fork). Errors raise ptxfu.Error with a message naming the thing;
a kernel that faults raises ptxfu.KernelFault.
"""

import json
import os
import shutil
import subprocess
import tempfile
from typing import NamedTuple

import numpy as np

from . import _ptxfu

__all__ = [
    "Device",
    "DeviceArray",
    "Module",
    "Kernel",
    "LaunchResult",
    "KernelFault",
    "TimelineEntry",
    "compile_cuda",
    "u8",
    "s8",
    "u16",
    "s16",
    "u32",
    "s32",
    "u64",
    "s64",
    "f16",
    "f32",
    "f64",
]


def _error_type():
    from . import Error  # the package's, defined before this module is imported

    return Error


class KernelFault(RuntimeError):
    """A kernel faulted (a bad address, a deadlock, the cycle limit). The
    message is compute-sanitizer's kind (FILE:LINE:COL: error: Invalid
    __global__ read ... by thread (x,y,z) in block (x,y,z) ...); `thread` and
    `block` are (x, y, z) tuples or None, `line` the PTX line (0: none),
    `result` the launch's LaunchResult."""

    thread = None
    block = None
    line = 0
    result = None


_ptxfu._set_kernel_fault_type(KernelFault)

# ---------------------------------------------------------------- scalars

# NumPy's dtypes and the PTX scalar types they pass as: one row each.
_SCALAR_TYPES = {
    np.dtype(np.uint8): "u8",
    np.dtype(np.int8): "s8",
    np.dtype(np.uint16): "u16",
    np.dtype(np.int16): "s16",
    np.dtype(np.uint32): "u32",
    np.dtype(np.int32): "s32",
    np.dtype(np.uint64): "u64",
    np.dtype(np.int64): "s64",
    np.dtype(np.float16): "f16",
    np.dtype(np.float32): "f32",
    np.dtype(np.float64): "f64",
}
_DTYPE_OF = {v: k for k, v in _SCALAR_TYPES.items()}


def _scalar(type_name, value):
    """A kernel argument of PTX type `type_name` holding `value`'s bits."""
    bits = np.array(value, dtype=_DTYPE_OF[type_name]).reshape(1)
    return _ptxfu._Scalar(type_name, int(bits.view(np.dtype(f"u{bits.itemsize}"))[0]))


def u8(v):
    return _scalar("u8", v)


def s8(v):
    return _scalar("s8", v)


def u16(v):
    return _scalar("u16", v)


def s16(v):
    return _scalar("s16", v)


def u32(v):
    return _scalar("u32", v)


def s32(v):
    return _scalar("s32", v)


def u64(v):
    return _scalar("u64", v)


def s64(v):
    return _scalar("s64", v)


def f16(v):
    return _scalar("f16", v)


def f32(v):
    return _scalar("f32", v)


def f64(v):
    return _scalar("f64", v)


# ---------------------------------------------------------------- memory


class DeviceArray:
    """An array in device memory: a pointer (an allocation and an offset),
    a shape and a dtype, C-contiguous. Slicing along the first axis with
    step 1 gives a pointer into the same buffer; get() copies it out."""

    def __init__(self, device, buffer, shape, dtype):
        self.device = device
        self._buffer = buffer
        self.shape = tuple(int(n) for n in shape)
        self.dtype = np.dtype(dtype)

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def nbytes(self):
        return self.size * self.dtype.itemsize

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def ptr(self):
        """The device address a kernel receives."""
        return self._buffer.address

    def __len__(self):
        return self.shape[0]

    def __repr__(self):
        return f"DeviceArray(shape={self.shape}, dtype={self.dtype}, ptr=0x{self.ptr:x})"

    def __getitem__(self, key):
        if isinstance(key, (int, np.integer)):
            key = slice(key, key + 1 if key != -1 else None)
            whole = self[key]
            return DeviceArray(self.device, whole._buffer, self.shape[1:] or (), self.dtype)
        if not isinstance(key, slice):
            raise _error_type()(f"DeviceArray index {key!r}: only a slice of the first axis (x[a:b]) or an integer")
        start, stop, step = key.indices(self.shape[0])
        if step != 1:
            raise _error_type()("DeviceArray slice: step 1 only (a pointer into the buffer)")
        if key.start is not None and not -self.shape[0] <= key.start <= self.shape[0]:
            raise _error_type()(f"DeviceArray slice start {key.start} is out of the {self.shape[0]} rows")
        if key.stop is not None and not -self.shape[0] <= key.stop <= self.shape[0]:
            raise _error_type()(f"DeviceArray slice stop {key.stop} is out of the {self.shape[0]} rows")
        stop = max(stop, start)
        row = self.nbytes // self.shape[0] if self.shape[0] else 0
        return DeviceArray(
            self.device,
            self._buffer.slice(start * row, (stop - start) * row),
            (stop - start,) + self.shape[1:],
            self.dtype,
        )

    def get(self):
        """A NumPy copy of the array, bit for bit."""
        out = np.empty(self.shape, self.dtype)
        if out.nbytes:
            self.device._dev.copy_to_host(out.reshape(-1).view(np.uint8), self._buffer)
        return out

    def set(self, array):
        """Copies a host array of the same size in."""
        a = np.ascontiguousarray(array, dtype=self.dtype)
        if a.nbytes != self.nbytes:
            raise _error_type()(f"set: {a.nbytes} bytes for a {self.nbytes}-byte DeviceArray")
        self.device._dev.copy_to_device(self._buffer, a.reshape(-1).view(np.uint8))

    def free(self):
        self.device.free(self)


# ---------------------------------------------------------------- results


class UnitUse(NamedTuple):
    busy_cycles: int
    utilisation: float
    warp_instructions: int


class TimelineEntry(NamedTuple):
    kernel: str
    start_cycle: int
    end_cycle: int
    ok: bool


class LaunchResult:
    """What a launch did, with `ptxfu sim --json`'s fields: cycles,
    warp_instructions, ctas, ipc, units (a dict of UnitUse by unit name),
    stalls (issue-less cycles by reason), residency, profile (a NumPy
    structured array, one row per instruction: line, instruction, unit,
    warp_instructions, active_lanes and a column per stall reason),
    start_cycle and end_cycle on the device's timeline, printf (the text the
    kernel's printf calls made, by block, warp, lane, then call); to_json()."""

    def __init__(self, r):
        self._r = r
        for name in (
            "kernel",
            "start_cycle",
            "end_cycle",
            "cycles",
            "warp_instructions",
            "ctas",
            "ipc",
            "host_seconds",
            "printf",
            "ok",
            "error",
        ):
            setattr(self, name, getattr(r, name))

    @property
    def units(self):
        return {u.name: UnitUse(u.busy_cycles, u.utilisation, u.warp_instructions) for u in self._r.units}

    @property
    def stalls(self):
        return dict(self._r.stalls)

    @property
    def residency(self):
        return self._r.residency

    @property
    def profile(self):
        rows = self._r._profile_rows()
        reasons = sorted(rows[0][5]) if rows else []
        dtype = [
            ("line", np.uint32),
            ("instruction", object),
            ("unit", object),
            ("warp_instructions", np.uint64),
            ("active_lanes", np.uint64),
        ] + [(r, np.uint64) for r in reasons]
        return np.array(
            [(line, ins, unit, wi, lanes, *(st[r] for r in reasons)) for line, ins, unit, wi, lanes, st in rows],
            dtype=dtype,
        )

    def to_json(self):
        return self._r.to_json()

    def to_dict(self):
        return json.loads(self.to_json())

    def __repr__(self):
        return f"LaunchResult({self.kernel}: {self.cycles} cycles, ok={self.ok})"

    def plot_profile(self, ax=None):
        """Stall cycles per PTX line, stacked by reason (matplotlib)."""
        import matplotlib.pyplot as plt

        p = self.profile
        reasons = [n for n in p.dtype.names[5:] if p[n].sum()]
        lines = np.unique(p["line"])
        ax = ax or plt.figure(figsize=(10, 4)).gca()
        bottom = np.zeros(len(lines))
        for r in reasons:
            v = np.array([p[r][p["line"] == ln].sum() for ln in lines], dtype=float)
            ax.bar([str(ln) for ln in lines], v, bottom=bottom, label=r)
            bottom += v
        ax.set_xlabel("PTX line")
        ax.set_ylabel("warp-cycles waiting to issue")
        ax.set_title(f"{self.kernel}: {self.cycles} cycles")
        ax.legend()
        return ax


# ---------------------------------------------------------------- modules


class Kernel:
    """A module's .entry: call it with grid, block and args (DeviceArrays,
    NumPy scalars, or ptxfu.u32(...) and friends)."""

    def __init__(self, k):
        self._k = k
        self.name = k.name
        self.parameters = k.parameters()

    def _arg(self, i, a):
        if isinstance(a, DeviceArray):
            return a._buffer
        if isinstance(a, _ptxfu._Scalar):
            return a
        if isinstance(a, (np.generic, np.ndarray)) and np.ndim(a) == 0 and a.dtype in _SCALAR_TYPES:
            return _scalar(_SCALAR_TYPES[a.dtype], a)
        param = self.parameters[i] if i < len(self.parameters) else "none: there are fewer parameters"
        raise _error_type()(
            f"{self.name}: argument {i} ({type(a).__name__} {a!r}) for parameter '.{param}': "
            "pass a DeviceArray, a NumPy scalar of the parameter's width (np.uint32(...)) or ptxfu.u32(...) "
            "and friends; a Python int or float has no PTX type"
        )

    def __call__(self, grid, block, args=(), shared_mem=0, cluster=None):
        """`cluster`: CTAs per thread-block cluster, (x[, y[, z]]) or an int
        (sm_90 and later); None: the kernel's .reqnctapercluster, or none."""
        if isinstance(grid, int):
            grid = (grid,)
        if isinstance(block, int):
            block = (block,)
        if isinstance(cluster, int):
            cluster = (cluster,)
        a = [self._arg(i, x) for i, x in enumerate(args)]
        c = [] if cluster is None else list(cluster)
        return LaunchResult(self._k.launch(list(grid), list(block), a, shared_mem, c))

    def __repr__(self):
        return f"Kernel({self.name}({', '.join(self.parameters)}))"


class Module:
    """A loaded PTX module: get_function(name), and its module variables
    (__constant__ and __device__) by set_global / get_global."""

    def __init__(self, m):
        self._m = m

    @property
    def entries(self):
        return self._m.entries()

    def get_function(self, name):
        return Kernel(self._m.get_function(name))

    def set_global(self, name, array):
        a = np.ascontiguousarray(array)
        self._m.set_global(name, a.reshape(-1).view(np.uint8))

    def get_global(self, name, dtype=np.uint8):
        return np.frombuffer(self._m.get_global(name), dtype=dtype).copy()


# ---------------------------------------------------------------- compiling


def compile_cuda(source, arch="sm_80", options=(), nvcc=None):
    """PTX text from CUDA source, by NVIDIA's nvcc (`nvcc -ptx -arch=ARCH`):
    $PTXFU_NVCC, nvcc on PATH, or /usr/local/cuda/bin/nvcc. Raises
    ptxfu.Error with nvcc's messages when it fails or is not installed."""
    nvcc = nvcc or os.environ.get("PTXFU_NVCC") or shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    if not os.path.exists(nvcc):
        raise _error_type()(f"compile_cuda: no nvcc ({nvcc}); set PTXFU_NVCC or load a .ptx file")
    with tempfile.TemporaryDirectory() as d:
        src, out = os.path.join(d, "kernel.cu"), os.path.join(d, "kernel.ptx")
        with open(src, "w") as f:
            f.write(source)
        r = subprocess.run([nvcc, "-ptx", f"-arch={arch}", *options, src, "-o", out], capture_output=True, text=True)
        if r.returncode != 0:
            raise _error_type()(f"compile_cuda: nvcc failed:\n{r.stderr.strip()}")
        with open(out) as f:
            return f.read()


# ---------------------------------------------------------------- device


class Device:
    """A modelled GPU (one SM of a config) with its memory: Device("sm_80")
    or Device("my_arch.yaml")."""

    def __init__(self, config="sm_80"):
        self._dev = _ptxfu._Device(config)

    @property
    def config(self):
        return self._dev.config_name

    def __repr__(self):
        return f"Device({self.config!r})"

    def load_module(self, path):
        return Module(self._dev.load_module(str(path)))

    def load_module_text(self, text, name="<module>"):
        return Module(self._dev.load_module_text(text, name))

    def empty(self, shape, dtype=np.float32):
        """A new array (zero-filled, as every allocation is)."""
        shape = (shape,) if np.isscalar(shape) else tuple(shape)
        dtype = np.dtype(dtype)
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        return DeviceArray(self, self._dev.malloc(max(nbytes, 1)).slice(0, nbytes), shape, dtype)

    zeros = empty

    def empty_like(self, a):
        return self.empty(a.shape, a.dtype)

    zeros_like = empty_like

    def to_device(self, array):
        a = np.ascontiguousarray(array)
        if not a.nbytes:
            return self.empty(a.shape, a.dtype)
        return DeviceArray(self, self._dev.malloc_copy(a.reshape(-1).view(np.uint8)), a.shape, a.dtype)

    def copy_from_host(self, dst, array):
        dst.set(array)

    def copy_to_host(self, src):
        return src.get()

    def memset(self, a, value):
        self._dev.memset(a._buffer, int(value))

    def free(self, a):
        self._dev.free(a._buffer)

    @property
    def allocated_bytes(self):
        return self._dev.allocated_bytes()

    def timeline(self):
        """Each launch with the cycles it started and ended at, one after another as on one stream."""
        return [TimelineEntry(e.kernel, e.start_cycle, e.end_cycle, e.ok) for e in self._dev.timeline()]

    def plot_timeline(self, ax=None):
        """The launches as bars over cycles (matplotlib)."""
        import matplotlib.pyplot as plt

        t = self.timeline()
        ax = ax or plt.figure(figsize=(10, 1 + 0.3 * len(t))).gca()
        for i, e in enumerate(t):
            ax.barh(i, e.end_cycle - e.start_cycle, left=e.start_cycle, color="C0" if e.ok else "C3")
        ax.set_yticks(range(len(t)), [e.kernel for e in t])
        ax.invert_yaxis()
        ax.set_xlabel("cycle")
        return ax
