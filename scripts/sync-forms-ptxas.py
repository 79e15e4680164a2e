#!/usr/bin/env python3
"""Candidate synchronisation statements and ptxas's verdict on each, per target.

Writes tb/unit/isa/data/sync_forms.ptxas in the format of tensor_forms.ptxas (the same
module header, columns and message numbers), which tb/unit/isa/sync_agreement_test.cc
reads. The families: fence (with .sem and scope, .mbarrier_init, .proxy), membar,
elect.sync, setmaxnreg, griddepcontrol, barrier.cluster and cp.async (the copy,
commit_group, wait_group, wait_all, mbarrier.arrive). The candidates are the forms
PTX documents and near misses (qualifiers missing, foreign, in another order; operands
of the wrong kind); which are legal is ptxas's word alone.

Usage: scripts/sync-forms-ptxas.py [--ptxas PATH] [--out FILE]
Rerun it when ptxas changes; commit the file it writes.
"""
import argparse
import importlib.util
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("tensor_forms", os.path.join(HERE, "tensor-forms-ptxas.py"))
tensor = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tensor)

# (target, PTX version): the targets of the tensor rows, and the versions where
# these families begin (7.8: cluster scope, griddepcontrol, barrier.cluster;
# 8.0: elect, setmaxnreg, fence.proxy.async, .mbarrier_init; 8.3: tensormap).
TARGETS = [
    ("sm_75", "9.0"),
    ("sm_80", "9.0"),
    ("sm_86", "9.0"),
    ("sm_89", "9.0"),
    ("sm_90", "9.0"),
    ("sm_90a", "9.0"),
    ("sm_100", "9.0"),
    ("sm_100a", "9.0"),
    ("sm_100f", "9.0"),
    ("sm_103a", "9.0"),
    ("sm_110a", "9.0"),
    ("sm_120", "9.0"),
    ("sm_120a", "9.0"),
    ("sm_121a", "9.0"),
    ("sm_75", "6.4"),
    ("sm_80", "7.0"),
    ("sm_80", "7.3"),
    ("sm_80", "7.4"),
    ("sm_90", "7.8"),
    ("sm_90a", "8.0"),
    ("sm_90", "8.2"),
    ("sm_90", "8.3"),
]

SEMS = ["", ".sc", ".acq_rel", ".release", ".acquire", ".relaxed"]
SCOPES = ["", ".cta", ".cluster", ".gpu", ".sys"]


def fence_candidates():
    out = [f"fence{a}{b}" for a in SEMS for b in SCOPES]
    out += ["fence.gpu.acq_rel", "fence.cta.sc", "fence.sc.acq_rel.gpu", "fence.gl"]
    out += [f"fence.mbarrier_init{a}{b}" for a in ["", ".release", ".acquire"] for b in SCOPES]
    out += ["fence.release.mbarrier_init.cluster"]
    kinds = [
        "",
        ".alias",
        ".async",
        ".async.global",
        ".async.shared::cta",
        ".async.shared::cluster",
    ]
    kinds += [".async.shared", ".foo"]
    out += [f"fence.proxy{k}" for k in kinds]
    out += ["fence.proxy.alias.gpu", "fence.proxy.async.sc.gpu"]
    for sem in [".release", ".acquire", ""]:
        for scope in SCOPES:
            base = f"fence.proxy.tensormap::generic{sem}{scope}"
            out += [base, base + " [%rd1], 128"]
    out += [f"membar{s}" for s in ["", ".cta", ".gl", ".sys", ".gpu", ".cluster"]]
    return out


def other_candidates():
    out = []
    for m in ["elect.sync", "elect", "elect.sync.aligned"]:
        for ops in [
            "%r1|%p1, 0xffffffff",
            "_|%p1, %r2",
            "%r1, %r2",
            "%p1, %r2",
            "%r1|%p1",
        ]:
            out.append(f"{m} {ops}")
    for d in [".inc", ".dec", ""]:
        for mods in [".sync.aligned", ".sync", ".aligned", ".aligned.sync", ""]:
            for t in [".u32", ".u64", ""]:
                out.append(f"setmaxnreg{d}{mods}{t} 240")
        for n in ["24", "256", "241", "%r1"]:
            out.append(f"setmaxnreg{d}.sync.aligned.u32 {n}")
    for w in ["", ".launch_dependents", ".wait", ".foo", ".wait.launch_dependents"]:
        out.append(f"griddepcontrol{w}")
    for op in [".arrive", ".wait", ""]:
        for sem in ["", ".release", ".acquire", ".relaxed"]:
            for al in ["", ".aligned"]:
                out.append(f"barrier.cluster{op}{sem}{al}")
    out += ["barrier.cluster.aligned.arrive", "barrier.cluster.arrive %r1"]
    return out


def cp_async_candidates():
    out = []
    spaces = [".shared.global", ".shared::cta.global", ".global.shared", ".shared", ""]
    for cache in [".ca", ".cg", ""]:
        for sp in spaces:
            for size in ["4", "8", "16", "12"]:
                out.append(f"cp.async{cache}{sp} [%r1], [%rd1], {size}")
    out += [
        "cp.async.shared.global.ca [%r1], [%rd1], 4",
        "cp.async.global.ca.shared [%r1], [%rd1], 8",
        "cp.async.ca.cg.shared.global [%r1], [%rd1], 16",
        "cp.async.ca.shared.global [%r1], [%rd1], 4, 2",
        "cp.async.ca.shared.global [%r1], [%rd1], 4, %r2",
        "cp.async.cg.shared.global [%r1], [%rd1], 16, %r2",
        "cp.async.ca.shared.global [%r1], [%rd1], %r2",
        "cp.async.ca.shared.global %r1, [%rd1], 4",
        "cp.async.ca.shared.global [%r1], %rd1, 4",
        "cp.async.ca.shared.global [%r1], [%rd1]",
        "cp.async.ca.shared.global.ignore_src [%r1], [%rd1], 4, %p1",
    ]
    for hint in [".L2::cache_hint", ".L2::64B", ".L2::128B", ".L2::256B", ".L2::32B"]:
        for ops in ["4", "4, %rd2", "4, 2, %rd2", "4, 2"]:
            out.append(f"cp.async.ca.shared.global{hint} [%r1], [%rd1], {ops}")
    out.append("cp.async.cg.shared.global.L2::cache_hint.L2::128B [%r1], [%rd1], 16, %rd2")
    for w in [".commit_group", ".wait_group", ".wait_all"]:
        for ops in ["", " 0", " 3", " %r1"]:
            out.append(f"cp.async{w}{ops}")
    out += ["cp.async.commit_group.sync", "cp.async.wait_group.noinc 0"]
    for noinc in ["", ".noinc"]:
        for sp in ["", ".shared", ".shared::cta", ".global"]:
            for t in [".b64", ".b32", ""]:
                for a in ["[%rd1]", "[%r1]", "%rd1"]:
                    out.append(f"cp.async.mbarrier.arrive{noinc}{sp}{t} {a}")
    out.append("cp.async.noinc.mbarrier.arrive.b64 [%rd1]")
    return out


def candidates():
    seen, out = set(), []
    for s in fence_candidates() + other_candidates() + cp_async_candidates():
        if s not in seen:
            seen.add(s)
            out.append(s)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ptxas", default=os.environ.get("PTXFU_PTXAS", "/usr/local/cuda/bin/ptxas"))
    ap.add_argument(
        "--out",
        default=os.path.join(os.path.dirname(HERE), "tb/unit/isa/data/sync_forms.ptxas"),
    )
    args = ap.parse_args()
    version = subprocess.run([args.ptxas, "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1]
    cands = candidates()
    verdicts = [tensor.run_ptxas(args.ptxas, cands, t, v) for t, v in TARGETS]
    messages = sorted({m for v in verdicts for m in v.values()})
    index = {m: i for i, m in enumerate(messages)}
    with open(args.out, "w") as f:
        f.write("# ptxas's verdicts on synchronisation candidate statements: scripts/sync-forms-ptxas.py\n")
        f.write(f"# ptxas: {version}\n")
        f.write("# The format of tensor_forms.ptxas: '.' where ptxas accepts, else its first message's number.\n")
        f.write("targets " + " ".join(f"{t}/{v}" for t, v in TARGETS) + "\n")
        for i, m in enumerate(messages):
            f.write(f"message {i} {m}\n")
        for k, s in enumerate(cands):
            cols = " ".join("." if k not in v else str(index[v[k]]) for v in verdicts)
            f.write(f"form {cols}\t{s}\n")
    print(f"{len(cands)} candidates x {len(TARGETS)} targets, {len(messages)} messages -> {args.out}")


if __name__ == "__main__":
    sys.exit(main())
