"""ptxfu.load_sweep reads what `ptxfu sweep` wrote."""
import csv
import os
import subprocess

import numpy as np
import pytest
from conftest import BINARY, SOURCE_DIR

import ptxfu

SPEC = """name: tiny
base: sm_90
parameters:
  units.fma.latency: [4, 8]
  warps: [1, 8]
  features.remove: [[], [oob]]
programs: [ffma.chain, {file: %s, name: oob}]
metrics: [cycles, ipc, pipes.fma.utilisation]
"""

OOB_PROGRAM = """.reg .b32 %r<4>;
mov.b32 %r0, 0x3c003c00;
fma.rn.oob.f16x2 %r1, %r0, %r0, %r0;
"""


@pytest.fixture(scope="module")
def sweep_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("sweep")
    (d / "oob.ptx").write_text(OOB_PROGRAM)
    (d / "tiny.yaml").write_text(SPEC % "oob.ptx")
    out = d / "out"
    r = subprocess.run(
        [BINARY, "sweep", str(d / "tiny.yaml"), "--out", str(out), "--jobs", "2", "--quiet", "--no-plots"],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 1, r.stderr  # the oob program fails where oob is removed: recorded, not a spec error
    return out


def test_columns_are_numpy_arrays_and_lists(sweep_dir):
    s = ptxfu.load_sweep(sweep_dir)
    assert s.name == "tiny" and len(s) == 16
    with open(sweep_dir / "results.csv", newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    assert s.header == header and list(s.columns) == header
    assert s.columns["key"] == [r[0] for r in body] and isinstance(s["status"], list)
    cycles = s["cycles"]
    ok = np.array([st == "ok" for st in s["status"]])
    assert ok.sum() == 12  # 4 oob points fail
    assert cycles.dtype == np.float64 and np.isnan(cycles[~ok]).all()  # failed points: NaN
    assert np.array_equal(cycles[ok], [float(r[header.index("cycles")]) for r, k in zip(body, ok) if k])
    assert s["warps"].dtype == np.int64 and sorted(set(s["warps"].tolist())) == [1, 8]
    assert s["ipc"].dtype == np.float64
    assert all(e.startswith("") for e in s["error"]) and any("oob" in e for e in s["error"])
    assert s.manifest["metrics"] == ["cycles", "ipc", "pipes.fma.utilisation"]
    assert s.rows[0]["key"] == body[0][0]


def test_plain_lists(sweep_dir):
    s = ptxfu.load_sweep(str(sweep_dir), numpy=False)
    assert isinstance(s["cycles"], list) and None in s["cycles"]
    assert all(isinstance(v, int) for v in s["warps"])


def test_a_directory_without_a_sweep_raises(tmp_path):
    with pytest.raises(ptxfu.Error):
        ptxfu.load_sweep(tmp_path)


def test_a_swept_base_is_a_text_column(tmp_path):
    (tmp_path / "bases.yaml").write_text(
        "base: [sm_80, sm_90]\nparameters:\n  warps: [1, 4]\nprograms: [ffma.stream]\n"
    )
    out = tmp_path / "out"
    r = subprocess.run(
        [BINARY, "sweep", str(tmp_path / "bases.yaml"), "--out", str(out), "--jobs", "2", "--quiet", "--no-plots"],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    s = ptxfu.load_sweep(out)
    assert s.header[:4] == ["key", "program", "base", "warps"]
    assert sorted(s["base"]) == ["sm_80", "sm_80", "sm_90", "sm_90"]
    assert s.manifest["parameters"][0] == {"key": "base", "values": ["sm_80", "sm_90"]}
    # sm_80's FP32 pipe has half of sm_90's lanes: the stream takes longer there.
    cycles = {(b, w): c for b, w, c in zip(s["base"], s["warps"].tolist(), s["cycles"].tolist())}
    assert cycles[("sm_80", 4)] > cycles[("sm_90", 4)]
