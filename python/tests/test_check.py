"""ptxfu.check gives the verdicts `ptxfu check` prints, with line, column and message."""
import os
import pathlib
import subprocess

import pytest
from conftest import BINARY, SOURCE_DIR

import ptxfu


def cli_check(text, *args):
    r = subprocess.run([BINARY, "check", *args], input=text, capture_output=True, text=True)
    return r.stdout.splitlines(), r.stderr, r.returncode


LOOSE = """fma.rn.oob.relu.f16x2 %r1, %r2, %r3, %r4;
add.sat.u32 %r1, %r2, %r3;
add.s32 %r1, %r2, %r3;

  fma.rn.f32 %f1, %f2, %f3, %f4;
mul.lo.u32 %r1, %r2;
"""


@pytest.mark.parametrize("target", ["sm_80", "sm_90", "sm_100a"])
def test_loose_statements_match_the_command_line(target):
    r = ptxfu.check(LOOSE, target=target)
    assert not r.module
    out, _, rc = cli_check(LOOSE, "--target", target)
    assert [str(v) for v in r] == out
    assert r.ok == (rc == 0)
    assert r[3] == ptxfu.Verdict(5, 3, True, "ok")


def test_verdicts_have_line_column_and_ptxas_words():
    r = ptxfu.check(LOOSE, target="sm_80")
    assert r[0] == ptxfu.Verdict(1, 1, False, "Modifier '.oob' requires .target sm_90 or higher")
    assert r[1] == ptxfu.Verdict(2, 1, False, "Modifier '.sat' does not apply to '.u32' type")
    assert r[2].ok and len(r) == 5 and not r.ok


def corpus_files():
    d = os.path.join(SOURCE_DIR, "tb", "corpus", "ptx")
    return sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".ptx"))[:12]


@pytest.mark.parametrize("path", corpus_files(), ids=os.path.basename)
@pytest.mark.parametrize("target", [None, "sm_75"])
def test_modules_match_the_command_line(path, target):
    text = pathlib.Path(path).read_text()
    args = ["--target", target] if target else []
    r = ptxfu.check(pathlib.Path(path), target=target)  # a Path is read as a file
    assert r.module
    out, _, rc = cli_check(text, *args)
    assert ["<stdin>:%d:%d: error: %s" % (v.line, v.column, v.message) for v in r] == out
    assert r.ok == (rc == 0) and all(not v.ok for v in r)


def test_examples_kernel_is_rejected_where_the_readme_says():
    r = ptxfu.check(pathlib.Path(SOURCE_DIR, "examples", "kernel.ptx"))
    assert [(v.line, v.column, v.message) for v in r] == [
        (29, 3, "Feature 'fma.f32.f16' requires .target sm_100 or higher"),
        (31, 3, "Illegal rounding modifier for instruction 'add'"),
    ]


def test_feature_overrides_and_errors():
    stmt = "fma.rn.oob.f16 %h1, %h2, %h3, %h4;"
    assert not ptxfu.check(stmt, target="sm_80").ok
    assert ptxfu.check(stmt, target="sm_80", add_features=["oob"]).ok
    for kwargs, cli in [
        ({"target": "sm_999"}, ["--target", "sm_999"]),
        ({"target": "sm_80", "ptx_version": "x"}, ["--target", "sm_80", "--ptx-version", "x"]),
        ({}, []),
    ]:
        with pytest.raises(ptxfu.Error) as e:
            ptxfu.check(stmt, **kwargs)
        _, err, rc = cli_check(stmt, *cli)
        assert rc == 2 and err == "ptxfu check: %s\n" % e.value
    bad = ptxfu.check("\x01bad\n", target="sm_80")
    assert not bad.ok and bad[0].line == 1


def test_a_file_with_bytes_that_are_not_text(tmp_path):
    f = tmp_path / "bin.ptx"
    f.write_bytes(b"add.s32 %r1, %r2, %r3;\nadd.s32 %r1, %r2, \xff%r3;\n")
    r = ptxfu.check(f, target="sm_80")
    out = subprocess.run([BINARY, "check", "--target", "sm_80", str(f)], capture_output=True).stdout
    assert [str(v) for v in r] == out.decode().splitlines()
    assert not r.ok and any("invalid byte 0xff" in v.message for v in r)
