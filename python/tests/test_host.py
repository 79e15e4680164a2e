"""The host API from Python: ptxfu.Device, DeviceArray, Module, Kernel,
LaunchResult. Oracles: NumPy (cumsum on wrapping integers, float arithmetic
where it is exact), the PTX text (the line a fault names), and `ptxfu sim`
on the same launch."""
import importlib.util
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest
from conftest import BINARY, SOURCE_DIR

import ptxfu

KERNELS = os.path.join(SOURCE_DIR, "tb", "host", "host_kernels.ptx")
SCAN_PTX = os.path.join(SOURCE_DIR, "examples", "scan.ptx")


def load_example(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(SOURCE_DIR, "examples", name + ".py"))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


@pytest.fixture(scope="module")
def dev():
    return ptxfu.Device("sm_80")


@pytest.fixture(scope="module")
def mod(dev):
    return dev.load_module(KERNELS)


def ptx_line(what):
    with open(KERNELS) as f:
        for n, line in enumerate(f, 1):
            if what in line:
                return n
    return 0


@pytest.mark.parametrize("n", [1, 255, 256, 1000, 1 << 14, 256 * 1024])
def test_scan_matches_numpy_cumsum(dev, n):
    scan = load_example("scan")
    m = dev.load_module(SCAN_PTX)
    data = np.random.default_rng(n).integers(0, 1 << 32, n, dtype=np.uint32)
    before = len(dev.timeline())
    out, runs = scan.scan(dev, m, dev.to_device(data))
    np.testing.assert_array_equal(out.get(), np.cumsum(data, dtype=np.uint32))
    assert [r.kernel for r in runs] == ["scan_blocks", "scan_sums", "add_offsets"]
    t = dev.timeline()[before:]
    assert [e.kernel for e in t] == ["scan_blocks", "scan_sums", "add_offsets"]
    assert t[1].start_cycle == t[0].end_cycle and t[2].start_cycle == t[1].end_cycle
    assert all(r.end_cycle - r.start_cycle == r.cycles > 0 for r in runs)


def test_the_scan_example_runs_as_written():
    r = subprocess.run(
        [sys.executable, os.path.join(SOURCE_DIR, "examples", "scan.py"), "3000"],
        capture_output=True,
        text=True,
        env=dict(os.environ),
    )
    assert r.returncode == 0, r.stderr
    assert "matches numpy.cumsum" in r.stdout


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.float16, np.float32, np.float64, np.uint64])
def test_arrays_round_trip_bit_exact(dev, dtype):
    a = np.random.default_rng(3).integers(0, 255, (37, 5), dtype=np.uint8).view(np.uint8)
    a = np.frombuffer(np.random.default_rng(3).bytes(37 * 8 * np.dtype(dtype).itemsize), dtype=dtype).reshape(37, 8)
    d = dev.to_device(a)
    assert d.shape == (37, 8) and d.dtype == np.dtype(dtype) and d.nbytes == a.nbytes
    assert d.get().tobytes() == a.tobytes()
    assert d[10:20].get().tobytes() == a[10:20].tobytes()
    z = dev.zeros((4, 3), dtype)
    assert not z.get().any()
    assert dev.empty_like(d).shape == d.shape


def test_a_slice_is_a_pointer_into_its_buffer(dev, mod):
    x = dev.to_device(np.arange(2048, dtype=np.uint32))
    tail = x[1024:]
    assert tail.ptr == x.ptr + 1024 * 4 and tail.size == 1024
    mod.get_function("add_one")(grid=(4,), block=(256,), args=(tail, np.uint32(tail.size)))
    want = np.arange(2048, dtype=np.uint32)
    want[1024:] += 1
    np.testing.assert_array_equal(x.get(), want)
    assert x[-1:].get()[0] == 2048 and x[5].get() == 5


def test_bad_slices_and_buffers_are_errors_naming_them(dev, mod):
    x = dev.zeros(100, np.uint32)
    with pytest.raises(ptxfu.Error, match="slice start 101 is out of the 100 rows"):
        x[101:]
    with pytest.raises(ptxfu.Error, match="step 1 only"):
        x[::2]
    other = ptxfu.Device("sm_90")
    y = other.zeros(16, np.uint32)
    with pytest.raises(
        ptxfu.Error, match=r"add_one: argument 0: device buffer #\d+ \(64 bytes at 0x[0-9a-f]+\) belongs"
    ):
        mod.get_function("add_one")(grid=1, block=32, args=(y, np.uint32(1)))
    dev.free(x)
    with pytest.raises(ptxfu.Error, match="was freed"):
        x.get()
    with pytest.raises(ptxfu.Error, match="was freed"):
        mod.get_function("add_one")(grid=1, block=32, args=(x, np.uint32(1)))


def test_scalars_need_a_ptx_width(dev, mod):
    x = dev.zeros(64, np.uint32)
    k = mod.get_function("add_one")
    assert k.parameters == ["u64 add_one_param_0", "u32 add_one_param_1"]
    with pytest.raises(ptxfu.Error, match=r"argument 1 \(float 4.0\) for parameter '.u32 add_one_param_1'"):
        k(grid=1, block=32, args=(x, 4.0))
    with pytest.raises(ptxfu.Error, match=r"argument 1 \(int 4\)"):
        k(grid=1, block=32, args=(x, 4))
    with pytest.raises(ptxfu.Error, match="the argument is a 8-byte scalar"):
        k(grid=1, block=32, args=(x, np.uint64(4)))
    with pytest.raises(ptxfu.Error, match="takes 2 parameters"):
        k(grid=1, block=32, args=(x,))
    with pytest.raises(ptxfu.Error, match="a device pointer needs a 64-bit integer parameter"):
        k(grid=1, block=32, args=(x, x))
    k(grid=1, block=64, args=(x, ptxfu.u32(64)))
    k(grid=1, block=64, args=(x, np.uint32(64)))
    np.testing.assert_array_equal(x.get(), np.full(64, 2, np.uint32))
    with pytest.raises(ptxfu.Error, match="no kernel \\(.entry\\) named 'nope'; the module has add_one, read_table"):
        mod.get_function("nope")


def test_saxpy_is_exact_where_numpy_is(dev, mod):
    n = 1000
    x = np.arange(n, dtype=np.float32) - 500
    y = np.arange(n, dtype=np.float32) * 3
    dx, dy = dev.to_device(x), dev.to_device(y)
    r = mod.get_function("saxpy")(grid=(4,), block=(256,), args=(dy, dx, np.float32(0.5), np.int32(n)))
    np.testing.assert_array_equal(dy.get(), np.float32(0.5) * x + y)  # every value exact in f32
    assert r.units["fma"].warp_instructions > 0
    assert 0 < r.units["fma"].utilisation <= 1


def test_a_launch_takes_a_cluster_shape():
    """cluster_neighbour (the corpus's) records each CTA's rank, x fastest as the
    PTX ISA's %cluster_ctarank, and its cluster's size."""
    dev = ptxfu.Device("sm_90")
    m = dev.load_module(os.path.join(SOURCE_DIR, "tb", "corpus", "ptx", "cluster_dsmem.sm_90.ptx"))
    k = m.get_function("cluster_neighbour")
    out, where, x = dev.zeros(256, np.float32), dev.zeros(32, np.uint32), dev.zeros(256, np.float32)
    k((4, 2), 32, [out, where, x, np.float32(1.0)], cluster=(2, 2))
    got = where.get().reshape(8, 4)
    for b in range(8):
        bx, by = b % 4, b // 4
        assert got[b][0] == (by % 2) * 2 + bx % 2
        assert got[b][1] == 4
    with pytest.raises(ptxfu.Error, match="cluster"):
        k((4, 2), 32, [out, where, x, np.float32(1.0)], cluster=3)


def test_module_variables(dev):
    m = dev.load_module(KERNELS)
    m.set_global("c_table", np.array([2, -3, 5, 7], np.int32))
    np.testing.assert_array_equal(m.get_global("c_table", np.int32), [2, -3, 5, 7])
    out = dev.zeros(50, np.int32)
    k = m.get_function("read_table")
    k(grid=1, block=64, args=(out, np.uint32(50)))
    k(grid=2, block=32, args=(out, np.uint32(50)))
    i = np.arange(50)
    np.testing.assert_array_equal(out.get(), np.array([2, -3, 5, 7])[i % 4] * i)
    assert m.get_global("d_counter", np.uint32)[0] == 64 + 64
    with pytest.raises(ptxfu.Error, match="no module variable"):
        m.set_global("c_tables", np.zeros(4, np.int32))


def test_a_fault_raises_kernel_fault_with_thread_block_and_line(dev, mod):
    x = dev.zeros(100, np.uint32)
    with pytest.raises(ptxfu.KernelFault, match="Invalid __global__ read of size 4 bytes") as e:
        mod.get_function("add_one")(grid=2, block=128, args=(x, np.uint32(256)))
    f = e.value
    assert f.line == ptx_line("ld.global.u32")
    assert f.block[0] * 128 + f.thread[0] >= 100 and f.thread[1:] == (0, 0)
    assert not f.result.ok
    assert not dev.timeline()[-1].ok


def test_result_fields_and_json(dev, mod):
    x = dev.zeros(1024, np.uint32)
    r = mod.get_function("add_one")(grid=4, block=256, args=(x, np.uint32(1024)))
    d = json.loads(r.to_json())
    assert d["cycles"] == r.cycles and d["kernel"] == "add_one"
    assert set(d["units"]) == set(r.units) >= {"fma", "alu", "lsu"}
    assert d["stalls"] == r.stalls
    p = r.profile
    assert p["warp_instructions"].sum() == r.warp_instructions
    assert set(p["line"]) <= set(range(1, 200)) and "memory" in p.dtype.names
    assert r.residency["ctas"] >= 1


def test_the_launch_reports_what_ptxfu_sim_reports(dev, mod, tmp_path):
    if not os.path.exists(BINARY):
        pytest.skip("no ptxfu binary")
    r = subprocess.run(
        [BINARY, "sim", KERNELS, "--entry", "add_one", "--grid", "4", "--block", "256"]
        + ["--arg", "buf:zeros:4096", "--arg", "u32:1024", "--config", "sm_80", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    want = json.loads(r.stdout)
    got = mod.get_function("add_one")(grid=4, block=256, args=(dev.zeros(1024, np.uint32), np.uint32(1024)))
    assert got.cycles == want["cycles"]
    assert got.warp_instructions == want["warp_instructions"]
    assert got.stalls == want["stalls"]
    assert {n: u._asdict() for n, u in got.units.items()} == want["pipes"]
    assert got.residency["ctas"] == want["residency"]["ctas"]


def test_devices_of_different_configs_in_one_process():
    cycles = {}
    for config in ["sm_70", "sm_80", "sm_90", "sm_80"]:
        d = ptxfu.Device(config)
        m = d.load_module(KERNELS)
        x = d.to_device(np.ones(512, np.uint32))
        cycles.setdefault(config, []).append(
            m.get_function("add_one")(grid=2, block=256, args=(x, np.uint32(512))).cycles
        )
        np.testing.assert_array_equal(x.get(), np.full(512, 2, np.uint32))
    assert cycles["sm_80"][0] == cycles["sm_80"][1]  # deterministic


def test_allocations_go_with_their_last_array(dev):
    before = dev.allocated_bytes
    x = dev.zeros(1 << 16, np.uint8)
    y = x[100:]
    assert dev.allocated_bytes == before + (1 << 16)
    del x
    assert dev.allocated_bytes == before + (1 << 16)  # y still points into it
    del y
    assert dev.allocated_bytes == before


@pytest.mark.parametrize("log2_n", [1, 5, 8, 12])
def test_bitonic_sort_by_chained_launches_matches_numpy_sort(log2_n):
    bitonic = load_example("bitonic")
    dev = ptxfu.Device("sm_80")
    mod = dev.load_module(os.path.join(SOURCE_DIR, "examples", "bitonic.ptx"))
    data = np.random.default_rng(log2_n).integers(0, 1 << 32, 1 << log2_n, dtype=np.uint32)
    data[: len(data) // 4] = data[-1]  # repeated keys
    a = dev.to_device(data)
    runs = bitonic.bitonic_sort(dev, mod, a)
    np.testing.assert_array_equal(a.get(), np.sort(data))
    assert len(runs) == len(dev.timeline()) == log2_n * (log2_n + 1) // 2  # the network's steps
    assert all(t.start_cycle == p.end_cycle for p, t in zip(dev.timeline(), dev.timeline()[1:]))


def test_plots_draw_the_profile_and_the_timeline(tmp_path):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    dev = ptxfu.Device("sm_80")
    mod = dev.load_module(KERNELS)
    x = dev.zeros(1024, np.uint32)
    r = mod.get_function("add_one")(grid=4, block=256, args=(x, np.uint32(1024)))
    mod.get_function("empty")(grid=1, block=32)
    ax = r.plot_profile()
    bars = sum(c.datavalues.sum() for c in ax.containers)
    p = r.profile
    assert bars == sum(p[n].sum() for n in p.dtype.names[5:])  # every stall cycle of every line
    ax.figure.savefig(tmp_path / "profile.png")
    ax = dev.plot_timeline()
    assert [t.get_text() for t in ax.get_yticklabels()] == ["add_one", "empty"]
    ax.figure.savefig(tmp_path / "timeline.png")
    assert (tmp_path / "profile.png").stat().st_size > 0 and (tmp_path / "timeline.png").stat().st_size > 0


NVCC = os.environ.get("PTXFU_NVCC") or shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"


@pytest.mark.skipif(not os.path.exists(NVCC), reason="no nvcc")
def test_compile_cuda_then_launch():
    src = 'extern "C" __global__ void twice(int* x) { x[threadIdx.x] *= 2; }'
    dev = ptxfu.Device("sm_80")
    mod = dev.load_module_text(ptxfu.compile_cuda(src, "sm_80"), "twice.cu")
    x = dev.to_device(np.arange(-16, 16, dtype=np.int32))
    mod.get_function("twice")(grid=1, block=32, args=(x,))
    np.testing.assert_array_equal(x.get(), np.arange(-16, 16) * 2)
    with pytest.raises(ptxfu.Error, match="nvcc failed"):
        ptxfu.compile_cuda("this is not CUDA", "sm_80")


@pytest.mark.parametrize("n,d", [(16, 8), (64, 32), (128, 64)])
def test_attention_forward_within_its_derived_bound(n, d):
    attention = load_example("attention")
    rng = np.random.default_rng(n + d)
    q, k, v = (rng.uniform(-1, 1, (n, d)).astype(np.float32) for _ in range(3))
    dev = ptxfu.Device("sm_80")
    mod = dev.load_module(os.path.join(SOURCE_DIR, "examples", "attention.ptx"))
    out, p, runs = attention.attention(dev, mod, *(dev.to_device(x) for x in (q, k, v)))
    want_out, want_p = attention.reference(q, k, v)
    p_rel, out_abs = attention.bounds(n, d)
    assert np.max(np.abs(p.get() - want_p) / want_p) <= p_rel
    assert np.max(np.abs(out.get() - want_out)) <= out_abs
    np.testing.assert_allclose(p.get().sum(axis=1), 1, rtol=p_rel + n * 2.0**-24)
    assert [r.kernel for r in runs] == ["scores", "softmax_rows", "weighted_sum"]


PRINTF_PTX = os.path.join(SOURCE_DIR, "tb", "corpus", "ptx", "printf_const.sm_80.ptx")
NAMES = ["alpha", "beta", "gamma"]  # the kernel's string table (tb/corpus/src/printf_const.cu)
TABLE = [1, 2, 3, 4]


def printf_reference(i, block, v, n):
    """What thread i of printf_formats prints, by Python's % formatting (which
    ignores C's length modifiers: they are dropped here)."""
    v = np.float32(v)
    big = i * -1000000007
    # C's '#' adds no 0X to a zero; Python's always does
    first = "t%03d b%d: %-6s|%5.2f|%e|%g|%c|%x|%s|%o|%+i|%u\n" % (
        i,
        block,
        NAMES[i % 3],
        float(v),
        float(np.float32(v * np.float32(1e10))),
        float(v) / 3.0,
        ord("a") + i % 26,
        (i * 2654435761) % 2**32,
        "%#X" % i if i else "0",
        i,
        i - 5,
        i,
    )
    second = "  %d %d %d %d %% %08.3f %-8d| %.3s %*d\n" % (
        big,
        big % 2**64,
        i,
        n,
        -float(v),
        i,
        NAMES[(i + 1) % 3],
        4,
        TABLE[(i & 1) * 2],
    )
    return first + second


def test_printf_text_is_what_python_formats(dev):
    m = dev.load_module(PRINTF_PTX)
    x = np.random.default_rng(5).uniform(-500, 500, 24).astype(np.float32)
    x[:3] = [0.0, -0.0, 2.5e7]
    n = 21
    r = m.get_function("_Z14printf_formatsPKfi")(grid=3, block=8, args=(dev.to_device(x), np.int32(n)))
    assert r.printf == "".join(printf_reference(i, i // 8, x[i], n) for i in range(n))
    assert json.loads(r.to_json())["printf"] == r.printf
