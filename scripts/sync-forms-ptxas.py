#!/usr/bin/env python3
"""Candidate synchronisation statements and ptxas's verdict on each, per target.

Writes tb/unit/isa/data/sync_forms.ptxas in the format of tensor_forms.ptxas (the same
module header, columns and message numbers), which tb/unit/isa/sync_agreement_test.cc
reads. The families: fence (with .sem and scope, .mbarrier_init, .proxy), membar,
elect.sync, setmaxnreg, griddepcontrol, barrier.cluster and cp.async (the copy,
commit_group, wait_group, wait_all, mbarrier.arrive). The candidates are the forms
PTX documents and near misses (qualifiers missing, foreign, in another order; operands
of the wrong kind); which are legal is ptxas's word alone.

Usage: scripts/sync-forms-ptxas.py [--ptxas PATH] [--out FILE] [--list-candidates]
Rerun it when ptxas changes; commit the file it writes.
"""
import sys

import ptxas_forms

# (target, PTX version): the targets of the tensor rows, and the versions where
# these families begin (7.8: cluster scope, griddepcontrol, barrier.cluster;
# 8.0: elect, setmaxnreg, fence.proxy.async, .mbarrier_init; 8.3: tensormap).
TARGETS = ptxas_forms.EVERY_TARGET_AT_9_0 + [
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


MB_SEMS = ["", ".release", ".relaxed", ".acquire"]
MB_SCOPES = ["", ".cta", ".cluster"]
MB_SPACES = ["", ".shared", ".shared::cta", ".shared::cluster", ".global"]


def mbarrier_candidates():
    out = []
    for sp in MB_SPACES:
        for t in [".b64", ".b32", ""]:
            out.append(f"mbarrier.init{sp}{t} [%r1], %r2")
    out += [
        "mbarrier.init.shared.b64 [%rd1], %r2",
        "mbarrier.init.shared.b64 [bar0], 1",
        "mbarrier.init.shared.b64 [%r1], %rd2",
        "mbarrier.init.shared.b64 [%r1]",
        "mbarrier.init.shared.b64 %r1, %r2",
        "mbarrier.init.release.cta.shared.b64 [%r1], %r2",
        "mbarrier.b64.shared.init [%r1], %r2",
    ]
    for op in ["arrive", "arrive_drop"]:
        for sem in MB_SEMS:
            for scope in MB_SCOPES:
                for sp in [".shared", ".shared::cta", ".shared::cluster"]:
                    out.append(f"mbarrier.{op}{sem}{scope}{sp}.b64 %rd2, [%r1]")
                    out.append(f"mbarrier.{op}{sem}{scope}{sp}.b64 _, [%r1]")
        for mid in ["", ".expect_tx", ".noComplete"]:
            for ops in [
                "%rd2, [%r1]",
                "%rd2, [%r1], %r3",
                "%rd2, [%r1], 2",
                "%r2, [%r1]",
                "[%r1]",
                "%rd2, %r1",
                "%rd2, [%rd1], %r3",
            ]:
                out.append(f"mbarrier.{op}{mid}.shared.b64 {ops}")
                out.append(f"mbarrier.{op}{mid}.release.cta.shared::cta.b64 {ops}")
        out.append(f"mbarrier.{op}.shared.b32 %rd2, [%r1]")
        out.append(f"mbarrier.{op}.b64 %rd2, [%rd1]")
        out.append(f"mbarrier.{op}.shared.b64.release.cta %rd2, [%r1]")
    for op in ["expect_tx", "complete_tx"]:
        for sem in MB_SEMS:
            for scope in MB_SCOPES:
                for sp in ["", ".shared", ".shared::cta", ".shared::cluster"]:
                    out.append(f"mbarrier.{op}{sem}{scope}{sp}.b64 [%r1], %r3")
        for ops in ["[%r1], 16", "[%r1], %rd3", "[%r1]", "%r1, %r3"]:
            out.append(f"mbarrier.{op}.relaxed.cta.shared.b64 {ops}")
        out.append(f"mbarrier.{op}.relaxed.cta.shared.b32 [%r1], %r3")
    for op in ["test_wait", "try_wait"]:
        for par in ["", ".parity"]:
            for sem in ["", ".acquire", ".relaxed", ".release"]:
                for scope in MB_SCOPES:
                    out.append(f"mbarrier.{op}{par}{sem}{scope}.shared::cta.b64 %p1, [%r1], %r2")
                    out.append(f"mbarrier.{op}{par}{sem}{scope}.shared.b64 %p1, [%r1], %rd2")
            for sp in ["", ".shared::cluster", ".global"]:
                out.append(f"mbarrier.{op}{par}{sp}.b64 %p1, [%r1], %rd2")
            for ops in [
                "%p1, [%r1], %r2",
                "%p1, [%r1], %rd2",
                "%p1, [%r1], 0",
                "%p1, [%r1], %rd2, %r3",
                "%p1, [%r1], %r2, 100",
                "%r1, [%r1], %rd2",
                "%p1, %r1, %rd2",
                "%p1, [%r1]",
            ]:
                out.append(f"mbarrier.{op}{par}.shared.b64 {ops}")
            out.append(f"mbarrier.{op}{par}.shared.b32 %p1, [%r1], %rd2")
    for t in [".b64", ".b32", ""]:
        for ops in ["%r1, %rd2", "%rd1, %rd2", "%r1, %r2", "%r1, [%r2]"]:
            out.append(f"mbarrier.pending_count{t} {ops}")
    out.append("mbarrier.pending_count.shared.b64 %r1, %rd2")
    for sp in MB_SPACES:
        for t in [".b64", ".b32", ""]:
            out.append(f"mbarrier.inval{sp}{t} [%r1]")
    out += [
        "mbarrier.inval.shared.b64 %r1",
        "mbarrier.inval.shared.b64 [%r1], %r2",
        "mbarrier.foo.shared.b64 [%r1]",
    ]
    out += ["mbarrier.shared.b64 [%r1]", "mbarrier"]
    return out


CTX = ".mbarrier::complete_tx::bytes"


def bulk_candidates():
    out = []
    dsts = [
        ".shared::cluster.global",
        ".shared::cta.global",
        ".global.shared::cluster",
        ".shared.global",
        ".global",
    ]
    for d in dsts:
        for c in [CTX, ""]:
            for extra, ops in [
                ("", ""),
                (".multicast::cluster", ", %h1"),
                (".L2::cache_hint", ", %rd3"),
                (".multicast::cluster.L2::cache_hint", ", %h1, %rd3"),
                ("", ", %h1"),
            ]:
                out.append(f"cp.async.bulk{d}{c}{extra} [%r1], [%rd1], %r2, [%r3]{ops}")
    out += [
        f"cp.async.bulk.shared::cluster.global{CTX} [%r1], [%rd1], 16, [%r3]",
        f"cp.async.bulk.global.shared::cluster{CTX} [%r1], [%rd1], %r2, [%r3]",
        f"cp.async.bulk{CTX}.shared::cluster.global [%r1], [%rd1], %r2, [%r3]",
        f"cp.async.bulk.shared::cluster.global{CTX} [%r1], [%rd1], %r2",
        f"cp.async.bulk.shared::cluster.global{CTX} [%r1], [%rd1], %rd2, [%r3]",
        f"cp.async.bulk.shared::cluster.global{CTX} %r1, [%rd1], %r2, [%r3]",
        f"cp.async.bulk.shared::cluster.shared::cta{CTX} [%r1], [%r2], %r3, [%r4]",
        f"cp.async.bulk.shared::cluster.shared::cta{CTX}.multicast::cluster [%r1], [%r2], %r3, [%r4], %h1",
        f"cp.async.bulk.shared::cta.shared::cluster{CTX} [%r1], [%r2], %r3, [%r4]",
    ]
    for g in [".bulk_group", ""]:
        for extra, ops in [
            ("", ""),
            (".L2::cache_hint", ", %rd3"),
            ("", ", %rd3"),
            (".cp_mask", ", %h1"),
        ]:
            for sp in [
                ".global.shared::cta",
                ".global.shared",
                ".global.shared::cluster",
            ]:
                out.append(f"cp.async.bulk{sp}{g}{extra} [%rd1], [%r1], %r2{ops}")
    out.append("cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%r1], 16")
    out.append("cp.async.bulk.bulk_group.global.shared::cta [%rd1], [%r1], %r2")
    for sp in [".L2.global", ".L2", ".global", ".L1.global", ".global.L2"]:
        for extra, ops in [("", ""), (".L2::cache_hint", ", %rd3"), ("", ", %rd3")]:
            out.append(f"cp.async.bulk.prefetch{sp}{extra} [%rd1], %r2{ops}")
    out.append("cp.async.bulk.prefetch.L2.global %rd1, %r2")
    for w in [
        ".commit_group",
        ".wait_group",
        ".wait_group.read",
        ".wait_group.write",
        ".wait_all",
    ]:
        for ops in ["", " 0", " 3", " %r1"]:
            out.append(f"cp.async.bulk{w}{ops}")
    out.append("cp.async.bulk.read.wait_group 0")
    return out


def coords(n, base=2):
    return "{" + ", ".join(f"%r{base + i}" for i in range(n)) + "}"


def tensor_candidates():
    out = []
    for dim in range(1, 6):
        for mode in [".tile", ".im2col", ""]:
            c = coords(dim)
            out.append(f"cp.async.bulk.tensor.{dim}d.shared::cluster.global{mode}{CTX} [%r1], [%rd1, {c}], [%r7]")
            out.append(f"cp.async.bulk.tensor.{dim}d.global.shared::cta{mode}.bulk_group [%rd1, {c}], [%r1]")
            out.append(f"cp.async.bulk.prefetch.tensor.{dim}d.L2.global{mode} [%rd1, {c}]")
        c = coords(dim)
        h = "{" + ", ".join(f"%h{i + 1}" for i in range(max(dim - 2, 1))) + "}"
        out.append(f"cp.async.bulk.tensor.{dim}d.shared::cluster.global.im2col{CTX} [%r1], [%rd1, {c}], [%r7], {h}")
        out.append(f"cp.async.bulk.prefetch.tensor.{dim}d.L2.global.im2col [%rd1, {c}], {h}")
        out.append(f"cp.async.bulk.tensor.{dim}d.shared::cluster.global{CTX} [%r1], [%rd1, {coords(dim + 1)}], [%r7]")
    c = coords(2)
    base = f"cp.async.bulk.tensor.2d.shared::cluster.global.tile{CTX}"
    for extra, ops in [
        (".multicast::cluster", ", %h1"),
        (".L2::cache_hint", ", %rd3"),
        (".multicast::cluster.L2::cache_hint", ", %h1, %rd3"),
        ("", ", %h1"),
        (".multicast::cluster", ""),
    ]:
        out.append(f"{base}{extra} [%r1], [%rd1, {c}], [%r7]{ops}")
    out += [
        f"cp.async.bulk.tensor.2d.shared::cluster.global.tile{CTX} [%r1], [%rd1, {{%rd2, %rd3}}], [%r7]",
        f"cp.async.bulk.tensor.2d.shared::cluster.global.tile{CTX} [%r1], [%rd1], [%r7]",
        f"cp.async.bulk.tensor.2d.shared::cluster.global.tile{CTX} [%r1], [%rd1, {c}]",
        f"cp.async.bulk.tensor.2d.shared::cta.global.tile{CTX} [%r1], [%rd1, {c}], [%r7]",
        f"cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group.L2::cache_hint [%rd1, {c}], [%r1], %rd3",
        f"cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%r1], [%rd1, {c}]",
        f"cp.async.bulk.tensor.2d.shared::cluster.global.tile [%r1], [%rd1, {c}], [%r7]",
        f"cp.async.bulk.tensor.shared::cluster.global.tile{CTX} [%r1], [%rd1, {c}], [%r7]",
        f"cp.async.bulk.tensor.6d.shared::cluster.global.tile{CTX} [%r1], [%rd1, {coords(6)}], [%r9]",
        f"cp.async.bulk.prefetch.tensor.2d.L2.global.tile.L2::cache_hint [%rd1, {c}], %rd3",
        f"cp.async.bulk.tensor.2d.shared::cluster.global.tile.cta_group::2{CTX} [%r1], [%rd1, {c}], [%r7]",
    ]
    return out


def reduce_candidates():
    out = []
    ops = [".add", ".min", ".max", ".inc", ".dec", ".and", ".or", ".xor"]
    types = [
        ".u32",
        ".s32",
        ".u64",
        ".b32",
        ".b64",
        ".f32",
        ".f16",
        ".bf16",
        ".s64",
        ".f64",
    ]
    for op in ops:
        for t in types:
            out.append(f"cp.reduce.async.bulk.global.shared::cta.bulk_group{op}{t} [%rd1], [%r1], %r2")
            out.append(f"cp.reduce.async.bulk.shared::cluster.shared::cta{CTX}{op}{t} [%r1], [%r2], %r3, [%r4]")
    for op in [".add", ".min"]:
        out.append(f"cp.reduce.async.bulk.global.shared::cta.bulk_group{op}.noftz.f16 [%rd1], [%r1], %r2")
        out.append(f"cp.reduce.async.bulk.global.shared::cta.bulk_group{op}.noftz.bf16 [%rd1], [%r1], %r2")
    out += [
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.add.u32 [%rd1], [%r1], %r2, %rd3",
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1], [%r1], %r2, %rd3",
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.u32 [%rd1], [%r1], %r2",
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.add [%rd1], [%r1], %r2",
        "cp.reduce.async.bulk.global.shared::cta.add.u32 [%rd1], [%r1], %r2",
        "cp.reduce.async.bulk.shared::cta.global.bulk_group.add.u32 [%rd1], [%r1], %r2",
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1], [%r1]",
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 %rd1, [%r1], %r2",
    ]
    for dim in [1, 2, 3, 5]:
        for mode in [".tile", ".im2col_no_offs", ""]:
            for op in [".add", ".min", ".and"]:
                c = coords(dim)
                out.append(
                    f"cp.reduce.async.bulk.tensor.{dim}d.global.shared::cta{op}{mode}.bulk_group [%rd1, {c}], [%r1]"
                )
    c = coords(2)
    out += [
        f"cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group.L2::cache_hint [%rd1, {c}], [%r1], %rd3",
        f"cp.reduce.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd1, {c}], [%r1]",
        f"cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.u32.tile.bulk_group [%rd1, {c}], [%r1]",
        f"cp.reduce.async.bulk.tensor.2d.shared::cta.global.add.tile.bulk_group [%rd1, {c}], [%r1]",
    ]
    return out


def ld_st_candidates():
    out = []
    caches = ["", ".ca", ".cg", ".cs", ".lu", ".cv", ".wb", ".wt"]
    spaces = [
        "",
        ".global",
        ".shared",
        ".local",
        ".const",
        ".param",
        ".shared::cta",
        ".shared::cluster",
    ]
    addr = {
        "": "%rd1",
        ".global": "%rd1",
        ".local": "%rd1",
        ".const": "%rd1",
        ".param": "%rd1",
    }
    for sp in spaces:
        a = addr.get(sp, "%r1")
        for c in caches:
            out.append(f"ld{sp}{c}.b32 %r1, [{a}]")
            out.append(f"st{sp}{c}.b32 [{a}], %r1")
    evict = [
        ".L1::evict_normal",
        ".L1::evict_unchanged",
        ".L1::evict_first",
        ".L1::evict_last",
        ".L1::no_allocate",
        ".L2::evict_first",
        ".L2::evict_last",
        ".L2::evict_normal",
        ".L2::64B",
        ".L2::128B",
        ".L2::256B",
        ".L2::32B",
        ".L1::evict_foo",
    ]
    for e in evict:
        for sp in [".global", ".shared", ""]:
            a = "%r1" if sp == ".shared" else "%rd1"
            out.append(f"ld{sp}{e}.b32 %r1, [{a}]")
            out.append(f"st{sp}{e}.b32 [{a}], %r1")
        out.append(f"ld.global.nc{e}.b32 %r1, [%rd1]")
        out.append(f"ld.global.ca{e}.b32 %r1, [%rd1]")
        out.append(f"ld.global{e}.L2::cache_hint.b32 %r1, [%rd1], %rd2")
    for c in caches:
        out.append(f"ld.global.nc{c}.b32 %r1, [%rd1]")
    out += [
        "ld.nc.b32 %r1, [%rd1]",
        "ld.shared.nc.b32 %r1, [%r1]",
        "ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1]",
        "ld.global.nc.L1::evict_last.L2::evict_first.b32 %r1, [%rd1]",
        "ld.global.L1::evict_last.L1::evict_first.b32 %r1, [%rd1]",
        "ld.global.L2::cache_hint.L2::128B.b32 %r1, [%rd1], %rd2",
        "ld.global.L2::cache_hint.b32 %r1, [%rd1]",
        "ld.global.b32 %r1, [%rd1], %rd2",
        "ld.global.L2::cache_hint.b32 %r1, [%rd1], %r2",
        "st.global.L2::cache_hint.b32 [%rd1], %r1, %rd2",
        "st.global.L2::cache_hint.b32 [%rd1], %r1",
        "st.global.L1::no_allocate.L2::cache_hint.v2.b32 [%rd1], {%r1, %r2}, %rd2",
        "ld.global.b32.L2::128B %r1, [%rd1]",
        "ld.b32.global %r1, [%rd1]",
        "ld.global.v2.ca.b32 {%r1, %r2}, [%rd1]",
    ]
    sems = [
        "",
        ".relaxed",
        ".acquire",
        ".release",
        ".volatile",
        ".weak",
        ".mmio",
        ".mmio.relaxed",
    ]
    for sem in sems:
        for scope in ["", ".cta", ".cluster", ".gpu", ".sys"]:
            for sp in [".global", ".shared", ""]:
                a = "%r1" if sp == ".shared" else "%rd1"
                out.append(f"ld{sem}{scope}{sp}.b32 %r1, [{a}]")
                out.append(f"st{sem}{scope}{sp}.b32 [{a}], %r1")
    out += [
        "ld.relaxed.gpu.global.ca.b32 %r1, [%rd1]",
        "ld.relaxed.gpu.global.L1::evict_last.b32 %r1, [%rd1]",
        "ld.acquire.gpu.global.L2::cache_hint.b32 %r1, [%rd1], %rd2",
        "ld.volatile.global.ca.b32 %r1, [%rd1]",
        "ld.volatile.global.nc.b32 %r1, [%rd1]",
        "ld.global.relaxed.gpu.b32 %r1, [%rd1]",
        "ld.gpu.relaxed.global.b32 %r1, [%rd1]",
        "ld.relaxed.gpu.global.nc.b32 %r1, [%rd1]",
        "ld.weak.global.cg.b32 %r1, [%rd1]",
        "st.release.gpu.global.wb.b32 [%rd1], %r1",
        "ld.relaxed.gpu.global.v2.b32 {%r1, %r2}, [%rd1]",
        "ld.relaxed.sys.local.b32 %r1, [%rd1]",
        "ld.relaxed.sys.param.b32 %r1, [%rd1]",
        "ld.relaxed.sys.const.b32 %r1, [%rd1]",
        "ld.volatile.local.b32 %r1, [%rd1]",
        "ld.volatile.param.b32 %r1, [%rd1]",
        "ld.mmio.relaxed.sys.global.b64 %rd2, [%rd1]",
        "ld.mmio.relaxed.sys.global.v2.b32 {%r1, %r2}, [%rd1]",
        "st.mmio.relaxed.sys.global.b16 [%rd1], %h1",
        "ld.global.b32 %r1, %rd1",
        "st.global.b32 %r1, [%rd1]",
        "ld.global.b32 [%rd1], %r1",
    ]
    for t in [
        ".b8",
        ".u8",
        ".s8",
        ".b16",
        ".b32",
        ".b64",
        ".f16",
        ".f32",
        ".f64",
        ".b128",
        ".pred",
        ".f16x2",
    ]:
        reg = {
            ".b64": "%rd2",
            ".f64": "%fd1",
            ".f32": "%f1",
            ".b16": "%h1",
            ".f16": "%h1",
            ".pred": "%p1",
        }.get(t, "%r2")
        out.append(f"ld.global.nc{t} {reg}, [%rd1]")
        out.append(f"ld.relaxed.gpu.global{t} {reg}, [%rd1]")
        out.append(f"st.release.gpu.global{t} [%rd1], {reg}")
    return out


def misc_candidates():
    out = []
    for prim in [
        ".L2::evict_last",
        ".L2::evict_normal",
        ".L2::evict_first",
        ".L2::evict_unchanged",
        ".L1::evict_last",
    ]:
        for sec in ["", ".L2::evict_unchanged", ".L2::evict_first", ".L2::evict_last"]:
            out.append(f"createpolicy.fractional{prim}{sec}.b64 %rd1, 1.0")
            out.append(f"createpolicy.range{prim}{sec}.b64 %rd1, [%rd2], %r1, %r2")
    for ops in ["%rd1", "%rd1, 0.5", "%rd1, %f1", "%rd1, 2", "%r1, 0.5", "%rd1, 1.5"]:
        out.append(f"createpolicy.fractional.L2::evict_last.b64 {ops}")
    for ops in [
        "%rd1, [%rd2], %r1, %r2",
        "%rd1, [%rd2], %r1",
        "%rd1, %rd2, %r1, %r2",
        "%rd1, [%rd2], 64, 128",
    ]:
        out.append(f"createpolicy.range.global.L2::evict_last.b64 {ops}")
    for t in [".b64", ".b32", ""]:
        out.append(f"createpolicy.fractional.L2::evict_last{t} %rd1, 1.0")
        out.append(f"createpolicy.cvt.L2{t} %rd1, %rd2")
    out += [
        "createpolicy.cvt.L2.b64 %rd1, %r2",
        "createpolicy.cvt.b64 %rd1, %rd2",
        "createpolicy.L2::evict_last.b64 %rd1, 1.0",
    ]
    out += [
        "createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 %rd1, 0.25",
        "createpolicy.cvt.L1.b64 %rd1, %rd2",
    ]
    for sp in ["", ".global", ".local", ".shared", ".const", ".param", ".shared::cta"]:
        a = "%r1" if sp.startswith(".shared") else "%rd1"
        for lvl in [
            ".L1",
            ".L2",
            "",
            ".L3",
            ".L2::evict_last",
            ".L2::evict_normal",
            ".L2::evict_first",
        ]:
            out.append(f"prefetch{sp}{lvl} [{a}]")
    for extra in [".L1", ".L2", ""]:
        out.append(f"prefetchu{extra} [%rd1]")
        out.append(f"prefetchu.global{extra} [%rd1]")
    out += [
        "prefetch.tensormap [%rd1]",
        "prefetch.const.tensormap [%rd1]",
        "prefetch.param.tensormap [%rd1]",
        "prefetch.global.tensormap [%rd1]",
        "prefetch.tensormap.L2 [%rd1]",
        "prefetch.L2 %rd1",
        "prefetch.L2 [%rd1], 4",
        "prefetch.L1.global [%rd1]",
    ]
    for sp in ["", ".global", ".shared"]:
        for lvl in [".L2::evict_normal", ".L2::evict_last", ".L2", ""]:
            for size in ["128", "64", "%r1"]:
                out.append(f"applypriority{sp}{lvl} [%rd1], {size}")
        for lvl in [".L2", ".L1", "", ".L2::evict_normal"]:
            for size in ["128", "256", "%r1"]:
                out.append(f"discard{sp}{lvl} [%rd1], {size}")
    out += [
        "applypriority.global.L2::evict_normal [%rd1]",
        "discard.global.L2 [%rd1]",
        "discard.global.L2 %rd1, 128",
    ]
    return out


def multimem_candidates():
    out = []
    sems = ["", ".weak", ".relaxed", ".acquire", ".release", ".acq_rel", ".sc"]
    scopes = ["", ".cta", ".cluster", ".gpu", ".sys"]
    for sem in sems:
        for scope in scopes:
            out.append(f"multimem.ld_reduce{sem}{scope}.global.add.u32 %r1, [%rd1]")
            out.append(f"multimem.st{sem}{scope}.global.b32 [%rd1], %r1")
            out.append(f"multimem.red{sem}{scope}.global.add.u32 [%rd1], %r1")
    for op in [".add", ".min", ".max", ".and", ".or", ".xor", ".inc", ""]:
        for t in [
            ".u32",
            ".s32",
            ".u64",
            ".b32",
            ".b64",
            ".f32",
            ".f16",
            ".bf16",
            ".f16x2",
            ".bf16x2",
            ".f64",
            ".e4m3",
        ]:
            reg = {
                ".u64": "%rd2",
                ".b64": "%rd2",
                ".f64": "%fd1",
                ".f32": "%f1",
                ".f16": "%h1",
                ".bf16": "%h1",
            }.get(t, "%r2")
            out.append(f"multimem.ld_reduce.relaxed.gpu.global{op}{t} {reg}, [%rd1]")
            out.append(f"multimem.red.relaxed.gpu.global{op}{t} [%rd1], {reg}")
    for t in [".b32", ".b64", ".u32", ".f32", ".f16", ".f16x2", ".b16", ".b8"]:
        reg = {
            ".b64": "%rd2",
            ".f32": "%f1",
            ".f16": "%h1",
            ".b16": "%h1",
            ".b8": "%h1",
        }.get(t, "%r2")
        out.append(f"multimem.st.relaxed.gpu.global{t} [%rd1], {reg}")
    out += [
        "multimem.ld_reduce.relaxed.gpu.global.add.acc::f32.f16 %h1, [%rd1]",
        "multimem.ld_reduce.relaxed.gpu.global.add.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1]",
        "multimem.ld_reduce.relaxed.gpu.global.add.v2.f16x2 {%r1, %r2}, [%rd1]",
        "multimem.ld_reduce.relaxed.gpu.global.add.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1]",
        "multimem.st.relaxed.gpu.global.v4.f32 [%rd1], {%f1, %f2, %f3, %f4}",
        "multimem.red.relaxed.gpu.global.add.v2.f32 [%rd1], {%f1, %f2}",
        "multimem.ld_reduce.relaxed.gpu.add.u32 %r1, [%rd1]",
        "multimem.ld_reduce.relaxed.gpu.shared.add.u32 %r1, [%r1]",
        "multimem.ld_reduce.relaxed.gpu.global.add.u32 %r1, %rd1",
        "multimem.st.relaxed.gpu.global.b32 [%rd1]",
        "multimem.red.relaxed.gpu.global.add.u32 %r1, [%rd1]",
        "multimem.foo.relaxed.gpu.global.b32 [%rd1], %r1",
        "multimem.cp.async.bulk.global.shared::cta [%rd1], [%r1], %r2",
        "multimem.ld_reduce.gpu.relaxed.global.add.u32 %r1, [%rd1]",
        "multimem.red.global.relaxed.gpu.add.u32 [%rd1], %r1",
    ]
    return out


def async_candidates():
    out = []
    ops = [
        ".inc",
        ".dec",
        ".min",
        ".max",
        ".add",
        ".and",
        ".or",
        ".xor",
        ".exch",
        ".cas",
    ]
    for op in ops:
        for t in [".u32", ".s32", ".u64", ".b32", ".b64", ".f32", ".s64"]:
            reg = "%rd2" if "64" in t else "%r2"
            out.append(f"red.async.relaxed.cluster.shared::cluster{CTX}{op}{t} [%r1], {reg}, [%r3]")
    base = f"red.async.relaxed.cluster.shared::cluster{CTX}.add.u32"
    pre = "red.async"
    for sem in ["", ".relaxed", ".release"]:
        for scope in ["", ".cluster", ".gpu", ".cta"]:
            for sp in ["", ".shared::cluster", ".shared::cta", ".global"]:
                out.append(f"{pre}{sem}{scope}{sp}{CTX}.add.u32 [%r1], %r2, [%r3]")
        out.append(f"{pre}{sem}.cluster.shared::cluster.add.u32 [%r1], %r2, [%r3]")
    out += [
        f"{base} [%r1], %r2",
        f"{base} [%r1], 1, [%r3]",
        f"{base} %r1, %r2, [%r3]",
        f"{base} [%r1], %rd2, [%r3]",
        f"red.async.release.gpu.global.add.u32 [%rd1], %r2",
        f"red.async.relaxed.cluster.shared::cluster{CTX}.add.noftz.f16 [%r1], %h2, [%r3]",
    ]
    st = "st.async"
    for sem in ["", ".weak", ".relaxed", ".release"]:
        for scope in ["", ".cluster", ".sys"]:
            for sp in ["", ".shared::cluster", ".shared::cta", ".global"]:
                for c in [CTX, ""]:
                    out.append(f"{st}{sem}{scope}{sp}{c}.b32 [%r1], %r2, [%r3]")
    for vec, t, val in [
        ("", ".b32", "%r2"),
        ("", ".b64", "%rd2"),
        ("", ".u32", "%r2"),
        ("", ".s32", "%r2"),
        ("", ".f32", "%f2"),
        ("", ".f64", "%fd2"),
        ("", ".u64", "%rd2"),
        ("", ".s64", "%rd2"),
        ("", ".b16", "%h2"),
        ("", ".b8", "%h2"),
        (".v2", ".b32", "{%r2, %r3}"),
        (".v4", ".b32", "{%r2, %r3, %r4, %r5}"),
        (".v2", ".b64", "{%rd2, %rd3}"),
        (".v4", ".b64", "{%rd2, %rd3, %rd4, %rd5}"),
        (".v2", ".f32", "{%f2, %f3}"),
        (".v4", ".f32", "{%f2, %f3, %f4, %f5}"),
        (".v4", ".b16", "{%h2, %h3, %h4, %h5}"),
        (".v8", ".b32", "{%r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9}"),
    ]:
        out.append(f"st.async.shared::cluster{CTX}{vec}{t} [%r1], {val}, [%r3]")
    out += [
        f"st.async.shared::cluster{CTX}.b32 [%r1], %r2",
        f"st.async.shared::cluster{CTX}.b32 [%r1], 5, [%r3]",
        f"st.async.shared::cluster{CTX}.b32 %r1, %r2, [%r3]",
        f"st.async{CTX}.shared::cluster.b32 [%r1], %r2, [%r3]",
        f"st.async.shared::cluster{CTX}.b32 [%rd1], %r2, [%r3]",
        "st.async.mmio.release.sys.global.b32 [%rd1], %r2",
        "st.async.release.sys.global.b32 [%rd1], %r2",
    ]
    return out


def tensormap_candidates():
    out = []
    fields = [
        (".global_address", ".b64", "", "%rd2"),
        (".rank", ".b32", "", "%r2"),
        (".box_dim", ".b32", "1, ", "%r2"),
        (".global_dim", ".b32", "1, ", "%r2"),
        (".global_stride", ".b64", "1, ", "%rd2"),
        (".element_stride", ".b32", "1, ", "%r2"),
        (".elemtype", ".b32", "", "1"),
        (".interleave_layout", ".b32", "", "0"),
        (".swizzle_mode", ".b32", "", "1"),
        (".swizzle_atomicity", ".b32", "", "1"),
        (".fill_mode", ".b32", "", "0"),
    ]
    for f, t, ord_, v in fields:
        for sp, a in [(".global", "%rd1"), (".shared::cta", "%r1"), ("", "%rd1")]:
            out.append(f"tensormap.replace.tile{f}{sp}.b1024{t} [{a}], {ord_}{v}")
        other = ".b32" if t == ".b64" else ".b64"
        out.append(f"tensormap.replace.tile{f}.global.b1024{other} [%rd1], {ord_}{v}")
    out += [
        "tensormap.replace.tile.box_dim.global.b1024.b32 [%rd1], %r3, %r2",
        "tensormap.replace.tile.box_dim.global.b1024.b32 [%rd1], %r2",
        "tensormap.replace.tile.box_dim.global.b1024.b32 [%rd1], 7, %r2",
        "tensormap.replace.tile.rank.global.b1024.b32 [%rd1], 1, %r2",
        "tensormap.replace.tile.global_address.global.b64 [%rd1], %rd2",
        "tensormap.replace.global_address.global.b1024.b64 [%rd1], %rd2",
        "tensormap.replace.im2col.global_address.global.b1024.b64 [%rd1], %rd2",
        "tensormap.replace.tile.foo.global.b1024.b64 [%rd1], %rd2",
        "tensormap.replace.tile.global_address.global.b1024.b64 %rd1, %rd2",
        "tensormap.replace.tile.global_address.global.b1024.b64 [%rd1], %r2",
        "tensormap.replace.tile.elemtype.global.b1024.b32 [%rd1], 16",
        "tensormap.replace.tile.swizzle_mode.global.b1024.b32 [%rd1], %r2",
    ]
    return out


SREGS = [
    "%clusterid.x",
    "%clusterid.y",
    "%clusterid.z",
    "%nclusterid.x",
    "%nclusterid.z",
    "%cluster_ctaid.x",
    "%cluster_ctaid.y",
    "%cluster_nctaid.x",
    "%cluster_nctaid.z",
    "%cluster_ctarank",
    "%cluster_nctarank",
]


def sreg_candidates():
    out = []
    for r in SREGS:
        out += [f"mov.u32 %r1, {r}", f"mov.u64 %rd1, {r}", f"add.u32 %r1, {r}, 1"]
    for r in ["%clusterid", "%cluster_ctaid", "%nclusterid", "%cluster_nctaid"]:
        out += [
            f"mov.u32 %r1, {r}",
            f"mov.v4.u32 {{%r1, %r2, %r3, %r4}}, {r}",
            f"mov.u32 %r1, {r}.w",
        ]
    out += [
        "mov.pred %p1, %is_explicit_cluster",
        "mov.u32 %r1, %is_explicit_cluster",
        "mov.b32 %r1, %cluster_ctarank",
    ]
    out += [
        "mov.u32 %r1, %cluster_ctarank.x",
        "mov.u16 %h1, %cluster_ctarank",
        "cvt.u64.u32 %rd1, %cluster_ctarank",
    ]
    return out


def texture_candidates():
    out = []
    geoms = [
        (".1d", 1),
        (".2d", 2),
        (".3d", 4),
        (".a1d", 2),
        (".a2d", 4),
        (".cube", 4),
        (".acube", 4),
        (".2dms", 4),
    ]
    for g, n in geoms:
        for dt, ct in [
            (".f32", ".s32"),
            (".f32", ".f32"),
            (".s32", ".s32"),
            (".u32", ".f32"),
            (".f16", ".f32"),
        ]:
            d = "{%f1, %f2, %f3, %f4}" if dt == ".f32" else "{%r11, %r12, %r13, %r14}"
            cc = coords(n, 2) if ct == ".s32" else "{" + ", ".join(f"%f{5 + i}" for i in range(n)) + "}"
            out.append(f"tex{g}.v4{dt}{ct} {d}, [tex0, {cc}]")
        out.append(f"tex{g}.v4.f32.s32 {{%f1, %f2, %f3, %f4}}, [%rd1, {coords(n)}]")
    out += [
        "tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [tex0, {%r1, %r2}]",
        "tex.2d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [tex0, {%r1}]",
        "tex.1d.v2.f32.s32 {%f1, %f2}, [tex0, {%r1}]",
        "tex.1d.f32.s32 %f1, [tex0, {%r1}]",
        "tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [tex0]",
        "tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [tex0, samp0, {%r1}]",
        "tex.v4.f32.s32.1d {%f1, %f2, %f3, %f4}, [tex0, {%r1}]",
        "tex.1d.v4.s32.f32 {%f1, %f2, %f3, %f4}, [tex0, {%f5}]",
        "tex.level.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex0, {%f5, %f6}], %f7",
        "tex.grad.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex0, {%f5, %f6}], {%f7, %f8}, {%f9, %f10}",
        "tex.base.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex0, {%f5, %f6}]",
        "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}|%p1, [tex0, {%f5, %f6}]",
        "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}|%r1, [tex0, {%f5, %f6}]",
        "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex0, {%f5, %f6}], {%r1, %r2}",
        "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex0, {%f5, %f6}], {%r1, %r2}, %f7",
        "tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%r1, {%r1}]",
    ]
    for comp in [".r", ".g", ".b", ".a", ""]:
        for g in [".2d", ".a2d", ".cube", ".1d"]:
            cc = "{%f5, %f6}" if g == ".2d" else "{%f5, %f6, %f7, %f8}" if g != ".1d" else "{%f5}"
            out.append(f"tld4{comp}{g}.v4.f32.f32 {{%f1, %f2, %f3, %f4}}, [tex0, {cc}]")
    out += [
        "tld4.r.2d.v4.s32.f32 {%r1, %r2, %r3, %r4}, [tex0, {%f5, %f6}]",
        "tld4.r.2d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [tex0, {%r5, %r6}]",
        "tld4.r.2d.v2.f32.f32 {%f1, %f2}, [tex0, {%f5, %f6}]",
        "tld4.r.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}]",
    ]
    for q in [
        ".width",
        ".height",
        ".depth",
        ".channel_data_type",
        ".channel_order",
        ".normalized_coords",
        ".filter_mode",
        ".addr_mode_0",
        ".samples",
        ".array_size",
        ".num_mipmap_levels",
        ".foo",
        "",
    ]:
        out.append(f"txq{q}.b32 %r1, [tex0]")
        out.append(f"suq{q}.b32 %r1, [surf0]")
    out += [
        "txq.width.b32 %r1, [%rd1]",
        "txq.width.b64 %rd2, [tex0]",
        "txq.width.u32 %r1, [tex0]",
        "txq.level.width.b32 %r1, [tex0], %r2",
        "suq.width.b32 %r1, [%rd1]",
        "suq.width.b64 %rd2, [surf0]",
    ]
    sgeoms = [
        (".1d", 1),
        (".2d", 2),
        (".3d", 4),
        (".a1d", 2),
        (".a2d", 4),
        (".cube", 4),
    ]
    for g, n in sgeoms:
        c = coords(n, 2)
        for clamp in [".trap", ".clamp", ".zero", ""]:
            out.append(f"suld.b{g}.b32{clamp} %r1, [surf0, {c}]")
            out.append(f"sust.b{g}.b32{clamp} [surf0, {c}], %r1")
            out.append(f"sust.p{g}.b32{clamp} [surf0, {c}], %r1")
    for vt, d in [
        (".b8", "%h1"),
        (".b16", "%h1"),
        (".b64", "%rd2"),
        (".v2.b32", "{%r11, %r12}"),
        (".v4.b32", "{%r11, %r12, %r13, %r14}"),
        (".v4.b64", "{%rd2, %rd3, %rd4, %rd5}"),
        (".v2.b64", "{%rd2, %rd3}"),
        (".b32", "%f1"),
        (".f32", "%f1"),
        (".v8.b32", "{%r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18}"),
    ]:
        out.append(f"suld.b.2d{vt}.trap {d}, [surf0, {{%r2, %r3}}]")
        out.append(f"sust.b.2d{vt}.trap [surf0, {{%r2, %r3}}], {d}")
    out += [
        "suld.b.1d.b32.trap %r1, [%rd1, {%r2}]",
        "suld.p.1d.b32.trap %r1, [surf0, {%r2}]",
        "suld.1d.b32.trap %r1, [surf0, {%r2}]",
        "suld.b.1d.b32.trap %r1, [surf0, {%f2}]",
        "suld.b.1d.b32.trap %r1, [surf0, {%r2, %r3}]",
        "suld.b.1d.b32.trap %r1, [surf0]",
        "suld.b.b32.1d.trap %r1, [surf0, {%r2}]",
        "suld.b.1d.trap.b32 %r1, [surf0, {%r2}]",
        "sust.b.1d.b32.trap [surf0, {%r2}], 5",
        "sust.b.1d.b32.trap [%rd1, {%r2}], %r1",
        "sust.1d.b32.trap [surf0, {%r2}], %r1",
    ]
    for op in [".add", ".min", ".max", ".and", ".or", ".inc", ".xor"]:
        for t in [".u32", ".s32", ".b32", ".u64", ".s64", ".b64", ".f32"]:
            v = "%rd2" if "64" in t else "%r1"
            out.append(f"sured.b{op}.1d.trap{t} [surf0, {{%r2}}], {v}")
    for g, n in sgeoms:
        out.append(f"sured.b.add.{g[1:]}.trap.u32 [surf0, {coords(n)}], %r1")
        out.append(f"sured.p.add{g}.trap.b32 [surf0, {coords(n)}], %r1")
    out += [
        "sured.b.add.1d.clamp.u32 [surf0, {%r2}], %r1",
        "sured.b.add.1d.zero.u32 [surf0, {%r2}], %r1",
        "sured.b.add.1d.u32 [surf0, {%r2}], %r1",
        "sured.add.1d.trap.u32 [surf0, {%r2}], %r1",
        "sured.b.add.1d.trap.u32 [%rd1, {%r2}], %r1",
    ]
    return out


def short_candidates():
    """Statements of each family with operands missing (none, or all but the first)."""
    heads = [
        "txq.width.b32",
        "suq.width.b32",
        "tex.2d.v4.f32.f32",
        "tld4.r.2d.v4.f32.f32",
        "suld.b.1d.b32.trap",
        "sust.b.1d.b32.trap",
        "sured.b.add.1d.trap.u32",
        "tensormap.replace.tile.box_dim.global.b1024.b32",
        "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32",
        "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32",
        "mbarrier.arrive.shared.b64",
        "createpolicy.fractional.L2::evict_last.b64",
        "applypriority.global.L2::evict_normal",
        "discard.global.L2",
        "multimem.red.relaxed.gpu.global.add.u32",
        f"cp.async.bulk.tensor.2d.shared::cluster.global.tile{CTX}",
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32",
        "ld.global.b32",
        "st.global.b32",
    ]
    firsts = [
        "%r1",
        "%r1",
        "{%f1, %f2, %f3, %f4}",
        "{%f1, %f2, %f3, %f4}",
        "%r1",
        "[surf0, {%r2}]",
        "[surf0, {%r2}]",
        "[%rd1]",
        "[%r1]",
        "[%r1]",
        "%rd2",
        "%rd1",
        "[%rd1]",
        "[%rd1]",
        "[%rd1]",
        "[%r1]",
        "[%rd1]",
        "%r1",
        "[%rd1]",
    ]
    return [h for h in heads] + [f"{h} {a}" for h, a in zip(heads, firsts)]


NEW_FAMILIES = [
    short_candidates,
    mbarrier_candidates,
    bulk_candidates,
    tensor_candidates,
    reduce_candidates,
    ld_st_candidates,
    misc_candidates,
    multimem_candidates,
    async_candidates,
    tensormap_candidates,
    sreg_candidates,
    texture_candidates,
]


def candidates():
    return ptxas_forms.unique(
        fence_candidates() + other_candidates() + cp_async_candidates() + [c for f in NEW_FAMILIES for c in f()]
    )


# Module-scope names the candidates use: a texture, a surface, a barrier.
DECLARES = [".global .texref tex0;", ".global .surfref surf0;", ".shared .b64 bar0;"]


def main():
    args = ptxas_forms.parse_args(__doc__, "tb/unit/isa/data/sync_forms.ptxas")
    if args.list_candidates:
        print("".join(c + "\n" for c in candidates()), end="")
        return 0
    version = ptxas_forms.ptxas_version(args.ptxas)
    cands, verdicts = ptxas_forms.verdicts_dropping_fatal(args.ptxas, candidates(), TARGETS, DECLARES, crash_ok=True)
    comments = [
        "ptxas's verdicts on synchronisation candidate statements: scripts/sync-forms-ptxas.py",
        f"ptxas: {version}",
        "The format of tensor_forms.ptxas: '.' where ptxas accepts, else its first message's number;",
        "'N*V' stands for N columns of V.",
    ]
    messages = ptxas_forms.write_new(args.out, comments, cands, verdicts, TARGETS, DECLARES, compress=True)
    print(f"{len(cands)} candidates x {len(TARGETS)} targets, {len(messages)} messages -> {args.out}")


if __name__ == "__main__":
    sys.exit(main())
