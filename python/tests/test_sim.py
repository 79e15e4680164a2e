"""ptxfu.sim and ptxfu.bench return the dicts `ptxfu sim/bench --json` print."""
import json
import os
import subprocess

import numpy as np
import pytest
from conftest import BINARY, SOURCE_DIR

import ptxfu

MIX = os.path.join(SOURCE_DIR, "examples", "sim_mix.ptx")


def cli_json(*args):
    r = subprocess.run([BINARY, *args, "--json"], capture_output=True, text=True, check=True)
    return json.loads(r.stdout)


def without_host_time(d):
    return {k: v for k, v in d.items() if k != "host_seconds"}


@pytest.mark.parametrize("warps,mode", [(1, "lt"), (32, "lt"), (8, "at")])
def test_sim_returns_the_json_the_command_line_prints(warps, mode):
    got = ptxfu.sim(MIX, warps=warps, mode=mode)
    want = cli_json("sim", "--warps", str(warps), "--mode", mode, MIX)
    assert without_host_time(got) == without_host_time(want)
    assert got["host_seconds"] > 0


def test_sim_with_the_rtl_in_the_loop():
    got = ptxfu.sim(MIX, warps=4, rtl_half=True)  # implies mode "at", as --rtl-half does
    want = cli_json("sim", "--warps", "4", "--rtl-half", MIX)
    assert got["mode"] == "at" and without_host_time(got) == without_host_time(want)
    assert got["rtl_cosim"]["lanes_checked"] > 0 and got["rtl_cosim"]["mismatches"] == 0


def test_sim_configs_by_file_or_by_name():
    by_name = ptxfu.sim(MIX, config="sm_80", warps=4)
    by_file = ptxfu.sim(MIX, config=os.path.join(SOURCE_DIR, "configs", "sm_80.yaml"), warps=4)
    assert by_name["config"] == "sm_80" and without_host_time(by_name) == without_host_time(by_file)
    assert "sm_90" in ptxfu.embedded_configs()


def test_sim_registers_agree_with_eval():
    """The model runs the exact core: warp 0's f16x2 fma equals ptxfu.eval's."""
    regs = ptxfu.sim(MIX, warps=1)["registers"]
    h2 = ptxfu.eval("fma.rn.f16x2", 0x3C003C00, 0x40003800, 0x40003800)
    assert regs["%h2"] == ["0x%08x" % h2] * 32
    lanes = np.arange(32, dtype=np.uint32)
    r1 = ptxfu.eval("mad.lo.u32", lanes, 0x9E3779B9, 0x7F4A7C15)
    assert regs["%r1"] == ["0x%08x" % v for v in r1]


def test_sim_errors_carry_the_command_line_messages(tmp_path):
    bad = tmp_path / "bad.ptx"
    bad.write_text(".reg .b32 %r<2>;\nld.global.u32 %r1, [%r0];\n")
    for path, kwargs, cli in [
        (str(bad), {}, []),
        (MIX, {"config": "sm_70"}, ["--config", os.path.join(SOURCE_DIR, "configs", "sm_70.yaml")]),
        (MIX, {"mode": "xt"}, ["--mode", "xt"]),
        ("/nonexistent.ptx", {}, []),
    ]:
        with pytest.raises(ptxfu.Error) as e:
            ptxfu.sim(path, **kwargs)
        r = subprocess.run([BINARY, "sim", *cli, path], capture_output=True, text=True)
        assert r.returncode != 0 and str(e.value) in r.stderr and str(e.value), (str(e.value), r.stderr)


def test_bench_returns_the_json_the_command_line_prints():
    got = ptxfu.bench(config="sm_80")
    assert got == cli_json("bench", "--config", os.path.join(SOURCE_DIR, "configs", "sm_80.yaml"))
    assert {d["bench"] for d in got} == {"ffma", "hfma2", "dfma", "imad", "iadd3", "mufu_ex2"}
    every = ptxfu.bench(all=True)
    assert every == cli_json("bench", "--all")
    with pytest.raises(ptxfu.Error, match="no embedded config .* and no file"):
        ptxfu.bench(config="/nonexistent.yaml")


def test_many_simulations_of_several_configs_in_one_process(tmp_path):
    # No worker process: every call is a simulation of its own in this
    # process, and none is changed by the ones before it.
    prog = os.path.join(SOURCE_DIR, "examples", "sim_mix.ptx")
    first = {cfg: without_host_time(ptxfu.sim(prog, config=cfg, warps=4)) for cfg in ("sm_80", "sm_90", "sm_120")}
    assert len({d["cycles"] for d in first.values()}) > 1  # the configs time it differently
    threads_before = len(os.listdir("/proc/self/task"))  # none is left behind
    for _ in range(5):
        for cfg, want in first.items():
            assert without_host_time(ptxfu.sim(prog, config=cfg, warps=4)) == want
    assert len(os.listdir("/proc/self/task")) == threads_before
    assert (
        without_host_time(ptxfu.sim(prog, config="sm_90", warps=4, rtl_half=True))["registers"]
        == first["sm_90"]["registers"]
    )
