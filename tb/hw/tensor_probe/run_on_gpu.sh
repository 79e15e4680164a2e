#!/bin/bash
# Runs the committed tensor_probe on the GPU and leaves in OUTDIR (at most
# six files, so a remote runner hands them all back):
#   gpu.txt             nvidia-smi's GPU name, driver, clocks (before and after), the binary's sha256
#   summary.txt         one "summary FORM ..." line per form (host_exact=N/N layout=ok|MISMATCH,
#                       timing=ok, or FAILED with the reason)
#   timing.csv          latency and issue rate of every form, and ldmatrix
#   numerics.tar.xz     numerics_FORM.txt of every form (gzip'd tar if xz is missing)
#   stderr.txt          the probe's messages
#   sass_mma.txt        the SASS matrix instructions of each kernel (where cuobjdump exists)
#   tb/hw/tensor_probe/run_on_gpu.sh OUTDIR [TILES]
set -u
out=${1:?usage: run_on_gpu.sh OUTDIR [TILES]}
tiles=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
bin=$here/tensor_probe
mkdir -p "$out"
raw=$(mktemp -d)
trap 'rm -rf "$raw"' EXIT
start=$(date +%s)

[ -x "$bin" ] || chmod +x "$bin" 2>/dev/null || { cp "$bin" "$raw/tensor_probe" && chmod +x "$raw/tensor_probe" && bin=$raw/tensor_probe; }
if ! "$bin" --list >/dev/null 2>>"$out/stderr.txt"; then
  echo "run_on_gpu: the committed binary does not start here; rebuilding with nvcc" | tee -a "$out/stderr.txt"
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  "$nvcc" -arch=sm_90a -std=c++17 -O2 -o "$raw/tensor_probe" "$here/tensor_probe.cu" 2>>"$out/stderr.txt" || exit 1
  bin=$raw/tensor_probe
fi

{
  echo "# nvidia-smi before the probe"
  nvidia-smi --query-gpu=name,driver_version,pci.bus_id,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu \
    --format=csv 2>&1
  nvidia-smi -q -d CLOCK,PERFORMANCE 2>&1 | grep -v "^$"
  echo "# binary"
  sha256sum "$bin"
  "$bin" --selftest | grep -c "formulas ok" | sed 's/^/layout self-test, forms agreeing with the ISA formulas: /'
  (cd "$here" && git rev-parse HEAD 2>/dev/null) || echo "no git"
} >"$out/gpu.txt"

tile_args=()
[ -n "$tiles" ] && tile_args=(--tiles "$tiles")
for form in $("$bin" --list); do
  timeout 120 "$bin" "$raw" --form "$form" ${tile_args[@]+"${tile_args[@]}"} 2>>"$out/stderr.txt"
  rc=$?
  [ $rc -ne 0 ] && echo "summary $form FAILED exit=$rc"
done | grep "^summary" | tee "$out/summary.txt"

first=1
for f in "$raw"/timing_*.csv; do
  [ -e "$f" ] || continue
  if [ $first = 1 ]; then cat "$f"; first=0; else tail -n +2 "$f"; fi
done >"$out/timing.csv"

if command -v xz >/dev/null; then
  tar -C "$raw" -cJf "$out/numerics.tar.xz" $(cd "$raw" && ls numerics_*.txt)
else
  tar -C "$raw" -czf "$out/numerics.tar.gz" $(cd "$raw" && ls numerics_*.txt)
fi

if command -v cuobjdump >/dev/null; then
  cuobjdump -sass "$bin" 2>&1 | grep -E "Function :|MMA|HGMMA|BMMA|LDSM" >"$out/sass_mma.txt"
fi

{
  echo "# nvidia-smi after the probe"
  nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv 2>&1
  echo "# probe wall time: $(( $(date +%s) - start )) s"
} >>"$out/gpu.txt"
fails=$(grep -c "FAILED\|MISMATCH" "$out/summary.txt")
echo "run_on_gpu: $(wc -l <"$out/summary.txt") forms, $fails failed or mismatched; files in $out:"
ls -l "$out"
