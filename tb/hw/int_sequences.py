#!/usr/bin/env python3
"""What ptxas makes of one PTX integer form: how many SASS instructions, which ones,
and how many of them lie on the longest dependent path from the form's inputs to
its result.

  tb/hw/int_sequences.py [--ptxas PATH] [--ptx FILE] [--out CSV] [--check CSV] [--keep DIR]

Writes tb/hw/int_sequences.ptx (one kernel per form: load the sources from global
memory, the form, store the result), compiles it with ptxas for each target in
TARGETS and reads the cubins. With --out the table goes to CSV (configs/
int_sequences.csv is the committed one); with --check the table is compared with
CSV and the exit status is 1 on any difference. Python's standard library only.

No disassembler is needed (CUDA 13's cuobjdump and nvdisasm are not installed
here): each instruction of sm_70 and later is a 128-bit word, and the fields read
below are those Mesa's NAK encoder writes (src/nouveau/compiler/nak/
sm70_encode.rs, sailfishos-mirror/mesa @001de6d): the opcode in bits 0..11 (for
ALU instructions 0..8 the operation, 9..11 the operand form), the guard
predicate in 12..15, the destination in 16..23, sources in 24..31, 32..39 and
64..71, predicates in 68..70, 77..79, 81..83, 84..86 and 87..89. Names follow
cuobjdump's spelling; an opcode NAK does not encode is printed as OP_0xNNN.

The form's instructions are the backward slice of the stored value (and of the
store's guard predicate) less the loads and what computes their addresses.
Depth: the instructions on the longest dependent path through them, each
weighted by its unit's nominal latency (4 for the FMA and ALU pipes, 8 for a
conversion, 20 for the MUFU pipe) when choosing the path.
"""
import argparse
import csv
import os
import struct
import subprocess
import sys
import tempfile

TARGETS = [75, 80, 86, 89, 90, 100, 120]

# (form, destination type, source types). Types: u32 s32 b32 u64 s64 b64 u16 s16
# and pred for a predicate destination.
FORMS = [
    ("add.s32", "s32", ["s32", "s32"]),
    ("mul.lo.s32", "s32", ["s32", "s32"]),
    ("mad.lo.s32", "s32", ["s32", "s32", "s32"]),
    ("mul.hi.u32", "u32", ["u32", "u32"]),
    ("mul.hi.s32", "s32", ["s32", "s32"]),
    ("mul.wide.u32", "u64", ["u32", "u32"]),
    ("mul.wide.s32", "s64", ["s32", "s32"]),
    ("mad.wide.u32", "u64", ["u32", "u32", "u64"]),
    ("mad.hi.u32", "u32", ["u32", "u32", "u32"]),
    ("mul24.lo.u32", "u32", ["u32", "u32"]),
    ("mul24.hi.u32", "u32", ["u32", "u32"]),
    ("mul.lo.u64", "u64", ["u64", "u64"]),
    ("mul.hi.u64", "u64", ["u64", "u64"]),
    ("mul.hi.s64", "s64", ["s64", "s64"]),
    ("mad.lo.u64", "u64", ["u64", "u64", "u64"]),
    ("add.u64", "u64", ["u64", "u64"]),
    ("sub.s64", "s64", ["s64", "s64"]),
    ("abs.s64", "s64", ["s64"]),
    ("neg.s64", "s64", ["s64"]),
    ("min.s64", "s64", ["s64", "s64"]),
    ("max.u64", "u64", ["u64", "u64"]),
    ("setp.lt.s64", "pred", ["s64", "s64"]),
    ("setp.eq.u64", "pred", ["u64", "u64"]),
    ("shl.b64", "b64", ["b64", "u32"]),
    ("shr.u64", "u64", ["u64", "u32"]),
    ("shr.s64", "s64", ["s64", "u32"]),
    ("bfe.u64", "u64", ["u64", "u32", "u32"]),
    ("bfi.b64", "b64", ["b64", "b64", "u32", "u32"]),
    ("popc.b32", "u32", ["b32"]),
    ("popc.b64", "u32", ["b64"]),
    ("clz.b32", "u32", ["b32"]),
    ("clz.b64", "u32", ["b64"]),
    ("brev.b32", "b32", ["b32"]),
    ("brev.b64", "b64", ["b64"]),
    ("bfind.u32", "u32", ["u32"]),
    ("bfind.u64", "u32", ["u64"]),
    ("bfind.s64", "u32", ["s64"]),
    ("sad.u32", "u32", ["u32", "u32", "u32"]),
    ("dp4a.u32.u32", "u32", ["u32", "u32", "u32"]),
    ("dp4a.s32.s32", "s32", ["s32", "s32", "s32"]),
    ("dp2a.lo.u32.u32", "u32", ["u32", "u32", "u32"]),
    ("dp2a.hi.s32.s32", "s32", ["s32", "s32", "s32"]),
    ("div.u32", "u32", ["u32", "u32"]),
    ("div.s32", "s32", ["s32", "s32"]),
    ("rem.u32", "u32", ["u32", "u32"]),
    ("rem.s32", "s32", ["s32", "s32"]),
    ("div.u64", "u64", ["u64", "u64"]),
    ("rem.s64", "s64", ["s64", "s64"]),
]


def bits_of(t):
    return 1 if t == "pred" else int(t[1:])


def kernel_name(form):
    return "k_" + form.replace(".", "_")


def kernel(form, dst, srcs):
    """One kernel: thread i loads its sources from in[i*32..], stores the result at out[i*8]."""
    name = kernel_name(form)
    lines = [f".visible .entry {name}(.param .u64 out, .param .u64 in)", "{"]
    lines.append("  .reg .b32 %r<8>;")
    lines.append("  .reg .b64 %rd<8>;")
    lines.append("  .reg .b64 %x<6>;")
    lines.append("  .reg .b32 %w<6>;")
    lines.append("  .reg .pred %p<2>;")
    lines.append("  ld.param.u64 %rd1, [in];")
    lines.append("  ld.param.u64 %rd2, [out];")
    lines.append("  cvta.to.global.u64 %rd1, %rd1;")
    lines.append("  cvta.to.global.u64 %rd2, %rd2;")
    lines.append("  mov.u32 %r1, %tid.x;")
    lines.append("  mul.wide.u32 %rd3, %r1, 32;")
    lines.append("  add.s64 %rd1, %rd1, %rd3;")
    lines.append("  mul.wide.u32 %rd4, %r1, 8;")
    lines.append("  add.s64 %rd2, %rd2, %rd4;")
    operands = []
    for i, t in enumerate(srcs):
        reg = f"%x{i}" if bits_of(t) == 64 else f"%w{i}"
        lines.append(f"  ld.global.{'u64' if bits_of(t) == 64 else 'u32'} {reg}, [%rd1+{8 * i}];")
        operands.append(reg)
    if dst == "pred":  # the predicate becomes 0 or 1 (a SEL, not counted)
        lines.append(f"  {form} %p1, {', '.join(operands)};")
        lines.append("  selp.u32 %w5, 1, 0, %p1;")
        lines.append("  st.global.u32 [%rd2], %w5;")
    else:
        d = "%x5" if bits_of(dst) == 64 else "%w5"
        lines.append(f"  {form} {d}, {', '.join(operands)};")
        lines.append(f"  st.global.{'u64' if bits_of(dst) == 64 else 'u32'} [%rd2], {d};")
    lines.append("  ret;")
    lines.append("}")
    return "\n".join(lines)


def ptx_text():
    head = [
        "// One kernel per PTX integer form, for tb/hw/int_sequences.py (which writes this",
        "// file): what ptxas makes of the form, read from the cubin. Do not edit by hand.",
        ".version 7.0",
        ".target sm_75",
        ".address_size 64",
        "",
    ]
    return "\n".join(head) + "\n\n".join(kernel(*f) for f in FORMS) + "\n"


# ---- the cubin


def elf_sections(data):
    """{section name: bytes} of an ELF64 little-endian file."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError("not an ELF64 little-endian file")
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = []
    for i in range(shnum):
        name, _type, _flags, _addr, offset, size = struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize)
        headers.append((name, offset, size))
    strtab = headers[shstrndx]
    out = {}
    for name, offset, size in headers:
        start = strtab[1] + name
        end = data.index(b"\0", start)
        out[data[start:end].decode()] = data[offset : offset + size]
    return out


class Word:
    def __init__(self, raw):
        lo, hi = struct.unpack("<QQ", raw)
        self.v = lo | (hi << 64)

    def field(self, lo, hi):
        return (self.v >> lo) & ((1 << (hi - lo)) - 1)

    def bit(self, b):
        return (self.v >> b) & 1


RZ, PT = 255, 7
# ALU operations (bits 0..8), NAK's SM70 encoder: name, unit, sources used
# ("abc": src0 in 24..31, src1, src2 as the operand form places them).
ALU = {
    0x002: ("MOV", "alu", "b"),
    0x007: ("SEL", "alu", "ab"),
    0x009: ("FMNMX", "alu", "ab"),
    0x00B: ("FSETP", "alu", "ab"),
    0x00C: ("ISETP", "alu", "ab"),
    0x010: ("IADD3", "alu", "abc"),
    0x011: ("LEA", "alu", "abc"),
    0x012: ("LOP3", "alu", "abc"),
    0x013: ("IABS", "alu", "b"),
    0x016: ("PRMT", "alu", "abc"),
    0x017: ("IMNMX", "alu", "ab"),
    0x019: ("SHF", "alu", "abc"),
    0x01A: ("SGXT", "alu", "ab"),
    0x01B: ("BMSK", "alu", "ab"),
    0x01C: ("PLOP3", "alu", ""),
    0x020: ("FMUL", "fma", "ab"),
    0x021: ("FADD", "fma", "abc"),
    0x023: ("FFMA", "fma", "abc"),
    0x024: ("IMAD", "fma", "abc"),
    0x025: ("IMAD.WIDE", "fma", "abc"),
    0x026: ("IDP", "fma", "abc"),
    0x027: ("IMAD.HI", "fma", "abc"),
    0x031: ("HFMA2", "fma", "abc"),
    # Not in NAK's encoder, read as ALU operations: before sm_100, 0x035 is ptxas's constant move
    # (cuobjdump prints HFMA2.MMA R, -RZ, RZ, imm); from sm_100 on, 0x035 adds two 64-bit registers
    # (add.u64 becomes one of it); 0x014 is sad's absolute difference (sm_75 to sm_90) and 0x048
    # a minimum or maximum (sad on sm_100 and later).
    0x035: ("HFMA2.MMA", "fma", "abc"),
    0x014: ("OP_0x014", "alu", "abc"),
    0x048: ("OP_0x048", "alu", "ab"),
    0x036: ("OP_0x036", "alu", "ab"),  # a two-source add (sm_90 and later; IADD3 before)
    0x100: ("FLO", "mufu", "b"),
    0x101: ("BREV", "mufu", "b"),
    0x104: ("F2F", "conv", "b"),
    0x105: ("F2I", "conv", "b"),
    0x106: ("I2F", "conv", "b"),
    0x107: ("FRND", "conv", "b"),
    0x108: ("MUFU", "mufu", "b"),
    0x109: ("POPC", "mufu", "b"),
    0x111: ("F2I.64", "conv", "b"),
    0x112: ("I2F.64", "conv", "b"),
}
# Other instructions, by all twelve opcode bits, and the memory ones by bits 0..8.
# CALL and RET are not in NAK's encoder: 0x944 jumps to code after the kernel's EXIT that ends in 0x950.
OTHER = {
    0x355: "BMOV",
    0x944: "CALL",
    0x950: "RET",
    0x945: "BSSY",
    0x941: "BSYNC",
    0x918: "NOP",
    0x94D: "EXIT",
    0x947: "BRA",
    0x919: "S2R",
    0x9C3: "S2UR",
    0x805: "CS2R",
    0xB82: "LDC",
    0xAB9: "ULDC",
    0x7AC: "ULDC",
    0xC82: "UMOV",
    0x3C2: "R2UR",
    0x2CA: "R2UR",
}
MEMORY = {0x181: "LDG", 0x186: "STG"}
UNIFORM = range(0x080, 0x0C0)  # uniform-datapath ALU operations (UIADD3, ULEA, ...)
MUFU_FUNCS = ["COS", "SIN", "EX2", "LG2", "RCP", "RSQ", "RCP64H", "RSQ64H", "SQRT", "TANH"]
NOMINAL = {"fma": 4, "alu": 4, "conv": 8, "mufu": 20}


class Instr:
    def __init__(self, w, sm):
        self.w = w
        op12, op9, form = w.field(0, 12), w.field(0, 9), w.field(9, 12)
        self.reads, self.writes, self.pred_reads, self.pred_writes = [], [], [], []
        self.unit = None
        self.kind = "other"
        guard = w.field(12, 15)
        if guard != PT:
            self.pred_reads.append(guard)
        if op9 in MEMORY:
            self.name = MEMORY[op9]
            width = {4: 1, 5: 2, 6: 4}.get(w.field(73, 76), 1)
            self.addr = [w.field(24, 32), w.field(24, 32) + 1]
            if self.name == "LDG":
                self.kind = "load"
                self.writes = regs(w.field(16, 24), width)
            else:
                self.kind = "store"
                self.data = regs(w.field(32, 40), width)
            self.name += {1: "", 2: ".64", 4: ".128"}[width]
            return
        if op12 in OTHER:
            self.name = OTHER[op12]
            self.kind = "nop" if self.name == "NOP" else "other"
            if self.name in ("S2R", "LDC", "CS2R"):
                self.writes = regs(w.field(16, 24), 2 if self.name == "CS2R" else 1)
            return
        if op9 in UNIFORM:
            self.name = f"U_0x{op9:03x}"
            return
        if op9 not in ALU:
            self.name = f"OP_0x{op12:03x}"
            return
        name, self.unit, used = ALU[op9]
        if op9 == 0x035 and sm >= 100:
            name, self.unit, used = "OP_0x035", "alu", "ab"
        self.kind = "alu"
        a, b, c = w.field(24, 32), w.field(32, 40), w.field(64, 72)
        src0 = [a] if "a" in used else []
        if used == "b":  # one source, in the src1 slot
            srcs = [b] if form == 1 else []
        elif "c" in used:
            srcs = src0 + ([b] if form == 1 else []) + [c]
        else:
            srcs = src0 + ([b] if form == 1 else [])
        width_out, wide_src = 1, set()
        if name.startswith("IMAD") and w.field(87, 90) != PT:  # carry in: .X
            self.pred_reads.append(w.field(87, 90))
            x_carry = True
        else:
            x_carry = False
        if name == "OP_0x035":  # 64-bit operands and result
            width_out, wide_src = 2, {0, 1}
        elif name == "IMAD.WIDE":
            width_out, wide_src = 2, {len(srcs) - 1}
            name += "" if w.bit(73) else ".U32"
        elif name in ("IMAD", "IMAD.HI"):
            name += "" if w.bit(73) else ".U32"
        elif name == "IADD3":
            if w.bit(74):
                name += ".X"
            for lo in (87, 77):
                if w.field(lo, lo + 3) != PT:
                    self.pred_reads.append(w.field(lo, lo + 3))
        elif name == "LEA":
            name += (".HI" if w.bit(80) else "") + (".X" if w.bit(74) else "")
            if not w.bit(80):
                srcs = srcs[:-1] if "c" in used else srcs
        elif name == "SHF":
            name += (".R" if w.bit(76) else ".L") + [".S64", ".U64", ".S32", ".U32"][w.field(73, 75)]
            name += ".HI" if w.bit(80) else ""
        elif name == "ISETP":
            name += ".EX" if w.bit(72) else ""
            for lo in (68, 87):
                if w.field(lo, lo + 3) != PT:
                    self.pred_reads.append(w.field(lo, lo + 3))
        elif name in ("SEL", "IMNMX", "FMNMX"):
            if w.field(87, 90) != PT:
                self.pred_reads.append(w.field(87, 90))
            if name == "IMNMX" and sm >= 120 and w.bit(74):
                name += ".64"
                width_out, wide_src = 2, {0, 1}
        elif name == "IDP":
            name += ".4A"
        elif name == "FLO":
            name += (".S32" if w.bit(73) else ".U32") + (".SH" if w.bit(74) else "")
        elif name == "MUFU":
            name += "." + MUFU_FUNCS[w.field(74, 80)] if w.field(74, 80) < len(MUFU_FUNCS) else ""
        elif name in ("F2I.64", "I2F.64"):
            if name == "I2F.64" and w.field(84, 86) == 3:
                wide_src = {0}
            if name == "F2I.64" and w.field(75, 77) == 3:
                width_out = 2
        self.name = name + (".X" if x_carry else "")
        for i, r in enumerate(srcs):
            self.reads += regs(r, 2 if i in wide_src else 1)
        if name not in ("ISETP", "ISETP.EX", "PLOP3"):
            self.writes = regs(w.field(16, 24), width_out)
        # Predicate destinations: 81..83, and 84..86 for ISETP and IADD3.
        fields = (
            (81, 84)
            if name.startswith(("ISETP", "IADD3"))
            else (81,)
            if name.startswith(("LOP3", "FLO", "LEA", "IMAD"))
            else ()
        )
        for lo in fields:
            if w.field(lo, lo + 3) != PT:
                self.pred_writes.append(w.field(lo, lo + 3))


def regs(first, count):
    return [] if first == RZ else [first + i for i in range(count)]


CONTROL = ("BRA", "BSSY", "BSYNC", "CALL", "RET", "BMOV")


def rel_target(ins, at, sm):
    """The instruction index a relative CALL or BRA at index `at` goes to."""
    words = ins.w.field(34, 82) if sm < 100 else (ins.w.field(34, 82) << 8) | ins.w.field(16, 24)
    bits = 48 if sm < 100 else 56
    if words >> (bits - 1):
        words -= 1 << bits
    return at + 1 + (words * 4) // 16


def executed(instrs, sm):
    """Indices in the order they run: a CALL is followed by its subroutine up to RET."""
    order, i = [], 0
    while i < len(instrs) and instrs[i].name != "EXIT":
        order.append(i)
        if instrs[i].name == "CALL":
            j = rel_target(instrs[i], i, sm)
            while instrs[j].name != "RET":
                order.append(j)
                j += 1
            order.append(j)
        i += 1
    return order


def sequence(code, sm, pred_result=False):
    """(instructions of the form, in order; the longest dependent path through them).

    Writes inside a BSSY..BSYNC region, or under a guard, may not happen: they add a
    reaching definition instead of replacing the earlier ones."""
    instrs = [Instr(Word(code[i : i + 16]), sm) for i in range(0, len(code), 16)]
    order = executed(instrs, sm)
    deps = {}
    defs, pdefs = {}, {}
    region = 0
    for i in order:
        ins = instrs[i]
        if ins.name == "BSSY":
            region += 1
        elif ins.name == "BSYNC":
            region -= 1
        d = set()
        reads = (
            ins.reads + (ins.addr if ins.kind in ("load", "store") else []) + (ins.data if ins.kind == "store" else [])
        )
        for r in reads:
            d |= defs.get(r, set())
        for p in ins.pred_reads:
            d |= pdefs.get(p, set())
        deps[i] = d
        may = region > 0 or ins.w.field(12, 15) != PT
        for r in ins.writes:
            defs[r] = (defs.get(r, set()) | {i}) if may else {i}
        for p in ins.pred_writes:
            pdefs[p] = (pdefs.get(p, set()) | {i}) if may else {i}
        if ins.kind == "store":
            store_deps = set().union(*(defs.get(r, set()) for r in ins.data))
            store = i

    def backward(roots):
        seen, todo = set(), list(roots)
        while todo:
            j = todo.pop()
            if j not in seen:
                seen.add(j)
                todo.extend(deps[j])
        return seen

    loads = [i for i in order if instrs[i].kind == "load"]
    address = set()
    for i in loads:
        address |= backward(set().union(*(deps_of(instrs, deps, i, r) for r in instrs[i].addr)))
    if pred_result:  # the SEL that turns the predicate into the stored 0 or 1
        store_deps = set().union(*(deps[j] for j in store_deps if instrs[j].name == "SEL"))
    data = backward(store_deps)
    body = data - set(loads) - address - {store}
    pos = {i: n for n, i in enumerate(order)}
    if body:
        first, last = min(pos[i] for i in body), max(pos[i] for i in body)
        body |= {i for i in order[first : last + 1] if instrs[i].name in CONTROL}
        # A BSSY..BSYNC region with an instruction of the form in it is the form's too.
        opened = []
        for n, i in enumerate(order):
            if instrs[i].name == "BSSY":
                opened.append(n)
            elif instrs[i].name == "BSYNC" and opened:
                start = opened.pop()
                if any(first <= k <= last for k in range(start, n + 1)):
                    body |= {order[start], i}
    body = sorted(body, key=lambda i: pos[i])
    # Longest path (nominal cycles) through the form's instructions.
    best = {}
    for j in body:
        prev = [best[k] for k in deps[j] if k in best]
        cycles, path = max(prev, key=lambda p: (p[0], len(p[1]))) if prev else (0, [])
        if instrs[j].name in CONTROL:
            best[j] = (cycles, path)
        else:
            best[j] = (cycles + NOMINAL.get(instrs[j].unit, 4), path + [j])
    path = max(best.values(), key=lambda p: (p[0], len(p[1])))[1] if best else []
    return [instrs[j] for j in body], [instrs[j] for j in path]


def deps_of(instrs, deps, i, reg):
    """The writers instruction i's dependence set holds for register `reg`."""
    return {j for j in deps[i] if reg in instrs[j].writes}


def measure(ptxas, ptx_path, work):
    rows = []
    for sm in TARGETS:
        cubin = os.path.join(work, f"int_sequences.sm_{sm}.cubin")
        subprocess.run([ptxas, f"-arch=sm_{sm}", "-O3", "-o", cubin, ptx_path], check=True)
        with open(cubin, "rb") as f:
            sections = elf_sections(f.read())
        for form, dst, _srcs in FORMS:
            code = sections[".text." + kernel_name(form)]
            body, path = sequence(code, sm, dst == "pred")
            units = {}
            for ins in path:
                units[ins.unit or "other"] = units.get(ins.unit or "other", 0) + 1
            rows.append(
                {
                    "form": form,
                    "sm": f"sm_{sm}",
                    "instructions": len(body),
                    "depth": len(path),
                    "path_units": " ".join(f"{u}:{n}" for u, n in sorted(units.items())),
                    "sass": " ".join(ins.name for ins in body),
                }
            )
    return rows


FIELDS = ["form", "sm", "instructions", "depth", "path_units", "sass"]


def read_table(path):
    with open(path) as f:
        lines = list(f)
    release = lines[0].split("ptxas ")[1].split(":")[0] if lines and lines[0].startswith("# ptxas ") else "?"
    return release, list(csv.DictReader(line for line in lines if not line.startswith("#")))


def yaml_rows(table, sm):
    """The `forms:` rows of a config for target `sm`: every form that is a sequence."""
    release, rows = read_table(table)
    out = []
    for r in rows:
        if r["sm"] != sm or int(r["instructions"]) < 2:
            continue
        ops = []
        for op in r["sass"].split():
            if ops and ops[-1][0] == op:
                ops[-1][1] += 1
            else:
                ops.append([op, 1])
        listing = " + ".join(op + (f" x{n}" if n > 1 else "") for op, n in ops)
        path = {u: int(n) for u, n in (p.split(":") for p in r["path_units"].split())}
        path_text = ", ".join(f"{u}: {n}" for u, n in sorted(path.items()))
        lanes = ", lanes: 16" if r["form"].startswith(("mul", "mad")) else ""  # IMAD: the FMA-heavy half
        source = (
            f"ptxas {release} SASS for {sm}: {r['instructions']} instructions: {listing}; "
            f"{r['depth']} on the longest dependent path (configs/int_sequences.csv)"
        )
        out.append(
            f'  - {{match: "{r["form"]}"{lanes}, sequence: {{instructions: {r["instructions"]}, '
            f'path: {{{path_text}}}}},\n     source: "{source}"}}'
        )
    return "\n".join(out)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ptxas", default=os.environ.get("PTXFU_PTXAS", "/usr/local/cuda/bin/ptxas"))
    ap.add_argument("--ptx", default=os.path.join(here, "int_sequences.ptx"))
    ap.add_argument("--out")
    ap.add_argument("--check")
    ap.add_argument("--keep", help="keep the cubins in this directory")
    ap.add_argument("--yaml", metavar="SM", help="print the forms: rows of a config for SM from --table; no ptxas")
    ap.add_argument("--table", default=os.path.join(here, "..", "..", "configs", "int_sequences.csv"))
    args = ap.parse_args()
    if args.yaml:
        print(yaml_rows(args.table, args.yaml))
        return 0
    with open(args.ptx, "w") as f:
        f.write(ptx_text())
    version = subprocess.run([args.ptxas, "--version"], capture_output=True, text=True, check=True).stdout
    release = next(
        (line.split("release ")[1].split(",")[0] for line in version.splitlines() if "release " in line), "?"
    )
    with tempfile.TemporaryDirectory() as tmp:
        work = args.keep or tmp
        os.makedirs(work, exist_ok=True)
        rows = measure(args.ptxas, args.ptx, work)
    header = f"# ptxas {release}: SASS of one PTX integer form (tb/hw/int_sequences.py; regenerate with it)\n"
    if args.out:
        with open(args.out, "w", newline="") as f:
            f.write(header)
            w = csv.DictWriter(f, fieldnames=FIELDS, lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
    if args.check:
        with open(args.check) as f:
            committed = list(csv.DictReader(line for line in f if not line.startswith("#")))
        got = [{k: str(v) for k, v in r.items()} for r in rows]
        diffs = [(a, b) for a, b in zip(committed, got) if a != b]
        if len(committed) != len(got) or diffs:
            for a, b in diffs[:20]:
                print(f"differs: committed {a} now {b}")
            print(f"{len(diffs)} rows differ; {len(committed)} committed, {len(got)} now")
            return 1
        print(f"{len(got)} rows agree with {args.check}")
    if not args.out and not args.check:
        w = csv.DictWriter(sys.stdout, fieldnames=FIELDS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
