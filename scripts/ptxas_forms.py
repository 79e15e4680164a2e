"""Asking ptxas about candidate PTX statements: the code the *-forms-ptxas.py scripts share.

A script lists candidate statements and (target, PTX version) columns; this module wraps
the candidates in one kernel per column, runs ptxas on it, maps each message's line
number back to its candidate, and writes or extends the verdict file the agreement
tests read ('targets', 'message N TEXT' and 'form COLS<tab>STATEMENT' lines).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The kernel's registers: enough of each kind for every candidate's operands.
REGISTERS = (
    ".reg .b16 %h<48>;\n.reg .b32 %r<136>;\n.reg .b64 %rd<48>;\n"
    ".reg .f32 %f<136>;\n.reg .f64 %fd<48>;\n.reg .pred %p<8>;\n"
)

# Every target family ptxfu knows from sm_75 on (ptxas 13.0 assembles nothing older),
# at PTX 9.0: the first columns of every verdict file.
EVERY_TARGET_AT_9_0 = [
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
]

MESSAGE = re.compile(r"line (\d+); (error|fatal)\s*: (.*)")

# A candidate that is this word ends the kernel and opens the next: ptxas judges
# some rules per function (a kernel may not use both .cta_group::1 and ::2).
KERNEL_BREAK = "kernel"


def unique(statements):
    """The statements in order, each once (kernel breaks kept where they stand)."""
    seen, out = set(), []
    for s in statements:
        if s == KERNEL_BREAK or s not in seen:
            out.append(s)
            seen.add(s)
    return out


def module_header(target, version, declares=()):
    """The module text before the first candidate: version, target, declarations, kernel."""
    return (
        f".version {version}\n.target {target}\n.address_size 64\n"
        + "".join(d + "\n" for d in declares)
        + ".visible .entry k() {\n"
        + REGISTERS
    )


def module_text(cands, target, version, declares=()):
    """The module and, per candidate, its line number (a kernel break has none)."""
    text = module_header(target, version, declares)
    lines, kernels = [], 0
    for s in cands:
        if s == KERNEL_BREAK:
            kernels += 1
            text += f"ret;\n}}\n.visible .entry k{kernels}() {{\n" + REGISTERS
            lines.append(None)
        else:
            lines.append(text.count("\n") + 1)
            text += s + ";\n"
    return text + "ret;\n}\n", lines


def run_ptxas(ptxas, cands, target, version, declares=(), crash_ok=False):
    """ptxas's first message per candidate index, or ('fatal', index) where ptxas stopped at one.
    crash_ok keeps the messages of a ptxas that died of a signal (the sync file was made so).
    """
    text, lines = module_text(cands, target, version, declares)
    index_of = {n: k for k, n in enumerate(lines) if n is not None}
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "forms.ptx")
        with open(path, "w") as f:
            f.write(text)
        r = subprocess.run(
            [ptxas, "-arch=" + target, path, "-o", os.devnull],
            capture_output=True,
            text=True,
        )
    if r.returncode < 0 and not crash_ok:
        tail = (r.stdout + r.stderr)[-300:]
        raise SystemExit(f"{target} {version}: ptxas died of signal {-r.returncode}: {tail}")
    out = {}
    for line in (r.stdout + r.stderr).splitlines():
        m = MESSAGE.search(line)
        if not m:
            if "error" in line and "aborted" not in line:
                raise SystemExit(f"{target} {version}: ptxas: {line}")
            continue
        index = index_of.get(int(m.group(1)))
        if index is None:
            raise SystemExit(f"{target} {version}: ptxas: {line}")
        if m.group(2) == "fatal":
            return ("fatal", index)
        out.setdefault(index, m.group(3))
    return out


def verdicts_or_stop(ptxas, cands, targets, declares=()):
    """Every column's verdicts; a fatal error on any column stops the run."""
    verdicts = []
    for t, v in targets:
        got = run_ptxas(ptxas, cands, t, v, declares)
        if isinstance(got, tuple):
            raise SystemExit(f"{t} {v}: ptxas stopped (fatal) at: {cands[got[1]]}")
        verdicts.append(got)
    return verdicts


def verdicts_dropping_fatal(ptxas, cands, targets, declares=(), crash_ok=False):
    """Every column's verdicts; a candidate that stops ptxas (a fatal error) on
    some column is left out, since the statements after it go unjudged there."""
    while True:
        verdicts = []
        for t, v in targets:
            got = run_ptxas(ptxas, cands, t, v, declares, crash_ok)
            if isinstance(got, tuple):
                print(f"left out (fatal on {t} {v}): {cands[got[1]]}", file=sys.stderr)
                cands = cands[: got[1]] + cands[got[1] + 1 :]
                break
            verdicts.append(got)
        else:
            return cands, verdicts


def run_length(cols):
    """Columns with runs of one verdict written once: 'N*V' stands for V repeated N times."""
    out, k = [], 0
    while k < len(cols):
        n = 1
        while k + n < len(cols) and cols[k + n] == cols[k]:
            n += 1
        out.append(cols[k] if n == 1 else f"{n}*{cols[k]}")
        k += n
    return out


def form_lines(cands, verdicts, index, compress):
    """One 'form' line per candidate: per column '.' (accepted) or its message's number."""
    lines = []
    for k, s in enumerate(cands):
        if s == KERNEL_BREAK:
            lines.append(KERNEL_BREAK)
            continue
        cols = ["." if k not in v else str(index[v[k]]) for v in verdicts]
        lines.append(f"form {' '.join(run_length(cols) if compress else cols)}\t{s}")
    return lines


def ptxas_version(ptxas):
    r = subprocess.run([ptxas, "--version"], capture_output=True, text=True)
    return r.stdout.strip().splitlines()[-1]


def read_verdicts(path):
    """A verdict file: its header lines, message list and form lines, in order."""
    head, messages, forms = [], [], []
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("message "):
                messages.append(line.split(" ", 2)[2])
            elif line.startswith("form ") or line == KERNEL_BREAK:
                forms.append(line)
            else:
                head.append(line)
    return head, messages, forms


def write_verdicts(path, head, messages, forms):
    with open(path, "w") as f:
        f.write("".join(h + "\n" for h in head))
        f.write("".join(f"message {i} {m}\n" for i, m in enumerate(messages)))
        f.write("".join(x + "\n" for x in forms))


def write_new(path, comments, cands, verdicts, targets, declares=(), compress=False):
    """The whole file from scratch: comments, declarations, columns, messages, forms."""
    messages = sorted({m for v in verdicts for m in v.values()})
    index = {m: i for i, m in enumerate(messages)}
    head = ["# " + c for c in comments] + [f"declare {d}" for d in declares]
    head.append("targets " + " ".join(f"{t}/{v}" for t, v in targets))
    forms = form_lines(cands, verdicts, index, compress)
    write_verdicts(path, head, messages, forms)
    return messages


def append_new(ptxas, path, cands, targets, declares=(), compress=False):
    """Asks ptxas about the candidates the file lacks; keeps its lines and numbers."""
    head, messages, forms = read_verdicts(path)
    have = [x.split("\t", 1)[1] if x != KERNEL_BREAK else x for x in forms]
    if cands[: len(have)] != have:
        raise SystemExit("the committed forms are not the first candidates: regenerate the whole file")
    new = cands[len(have) :]
    verdicts = verdicts_or_stop(ptxas, new, targets, declares)
    for m in sorted({m for v in verdicts for m in v.values()} - set(messages)):
        messages.append(m)
    index = {m: i for i, m in enumerate(messages)}
    forms += form_lines(new, verdicts, index, compress)
    write_verdicts(path, head, messages, forms)
    print(f"{len(new)} new candidates x {len(targets)} targets, " f"{len(messages)} messages in all -> {path}")


def parse_args(doc, default_out, append=False, tcgen05=False):
    """The options every forms script takes (--append only where it has it)."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ptxas", default=os.environ.get("PTXFU_PTXAS", "/usr/local/cuda/bin/ptxas"))
    ap.add_argument("--out", default=os.path.join(ROOT, default_out))
    ap.add_argument(
        "--list-candidates",
        action="store_true",
        help="print the candidate statements, one a line, and run nothing",
    )
    if append:
        ap.add_argument(
            "--append",
            action="store_true",
            help="ask ptxas only about candidates the file lacks " "(added at the end of the list), keeping its lines",
        )
    if tcgen05:
        ap.add_argument(
            "--tcgen05",
            action="store_true",
            help="the tcgen05 candidates and columns (tcgen05_forms.ptxas beside --out)",
        )
    return ap.parse_args()
