#!/usr/bin/env bash
# scripts/calibrate.sh end to end, without a GPU: stand-ins for nvidia-smi,
# nvcc (whose "program" writes a known CSV and reference block) and ptxfu
# (which answers `bench --form`); the real calib_compare prints the table.
#
#   calibrate_test.sh SOURCE_DIR CALIB_COMPARE WORK_DIR
set -euo pipefail
src=$1
compare=$2
work=$3
rm -rf "$work"
mkdir -p "$work/cuda/bin" "$work/path" "$work/build/tb/hw"
ln -s "$compare" "$work/build/tb/hw/calib_compare"
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

cat >"$work/path/nvidia-smi" <<'EOF'
#!/bin/sh
echo "9.0"
EOF
# The stand-in nvcc records its arguments and writes a program that behaves
# like latency_bench: --out FILE gets the CSV, stdout the reference block,
# exit status $FAKE_RC (77: no device).
cat >"$work/cuda/bin/nvcc" <<'EOF'
#!/bin/sh
echo "$@" > "$(dirname "$0")/args"
out=""
while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
cat > "$out" <<'PROGRAM'
#!/bin/sh
[ "${FAKE_RC:-0}" -eq 0 ] || exit "$FAKE_RC"
while [ $# -gt 0 ]; do [ "$1" = --out ] && csv=$2; shift; done
printf '%s\n' 'config,form,consumer,latency,throughput,unit,ref_latency,ref_throughput,ref_source,gpu_name,clock_mhz' \
  'sm_90,fma.rn.f32,,4.5,120,,,,,"Fake GPU, rev ""B""",1500' \
  'sm_90,fma.rn.f32,add.s32,5.25,,,,,,"Fake GPU, rev ""B""",1500' > "$csv"
echo 'sm_90:  # latency: cycles of a dependent chain; throughput: thread-instructions/clk/SM'
echo '  ffma: {latency: 4.5, throughput: 120, source: "measured on Fake GPU by tb/hw, 2025-01-02"}'
PROGRAM
chmod +x "$out"
EOF
cat >"$work/build/ptxfu" <<'EOF'
#!/bin/sh
case "$*" in
  "bench --help") echo "  --form FORM   any form of the table" ;;
  *"--consumer add.s32"*)
    echo '[{"config": "sm_90", "form": "fma.rn.f32", "consumer": "add.s32", "latency": 5, "throughput": null, "unit": "fma"}]' ;;
  *) echo '[{"config": "sm_90", "form": "fma.rn.f32", "consumer": null, "latency": 4, "throughput": 128, "unit": "fma"}]' ;;
esac
EOF
chmod +x "$work/path/nvidia-smi" "$work/cuda/bin/nvcc" "$work/build/ptxfu"

run() {  # the script with the stand-ins; output in $work/out, status in $rc
  rc=0
  CUDA_HOME=$work/cuda PTXFU_BUILD=$work/build PATH="$work/path:$PATH" "$src/scripts/calibrate.sh" "$@" >"$work/out" 2>&1 ||
    rc=$?
}

# The whole path: target from nvidia-smi, CSV, block, comparison.
run
cat "$work/out"
[ "$rc" -eq 0 ] || fail "exit $rc"
grep -q -- "-arch=sm_90 " "$work/cuda/bin/args" || fail "nvcc was not asked for sm_90: $(cat "$work/cuda/bin/args")"
[ -f "$work/build/calibration/calibration.sm_90.csv" ] || fail "no CSV"
[ -f "$work/build/calibration/calibration.sm_90.yaml" ] || fail "no YAML beside it"
grep -qxF '  ffma: {latency: 4.5, throughput: 120, source: "measured on Fake GPU by tb/hw, 2025-01-02"}' "$work/out" ||
  fail "no reference block"
grep -qF 'Model vs Fake GPU, rev "B" (sm_90, SM clock 1500 MHz)' "$work/out" || fail "no comparison title"
grep -qxF 'sm_90   fma.rn.f32             -                  4.00      4.50   0.89    128.00    120.00   1.07' \
  "$work/out" || fail "no fma.rn.f32 line"
grep -qxF 'sm_90   fma.rn.f32             add.s32            5.00      5.25   0.95         -         -      -' \
  "$work/out" || fail "no pair line"

# --arch wins over nvidia-smi.
run --arch sm_86
[ "$rc" -eq 0 ] || fail "--arch sm_86: exit $rc"
grep -q -- "-arch=sm_86 " "$work/cuda/bin/args" || fail "--arch sm_86 was not passed to nvcc"

# A ptxfu without bench --form: the measurement stands, the comparison is skipped.
printf '#!/bin/sh\necho "usage: ptxfu bench [--config FILE | --all] [--json]"\n' >"$work/build/ptxfu"
run
[ "$rc" -eq 0 ] || fail "without bench --form: exit $rc"
grep -q "model comparison unavailable" "$work/out" || fail "no 'unavailable' message"

# No device: exit 1, a message, no block.
FAKE_RC=77 run
[ "$rc" -eq 1 ] || fail "no device: exit $rc"
grep -q "no CUDA device visible" "$work/out" || fail "no 'no CUDA device' message"
[ ! -f "$work/build/calibration/calibration.sm_90.yaml.partial" ] || fail "a partial block was left"

# A usage error.
run --arch 90
[ "$rc" -eq 2 ] || fail "--arch 90: exit $rc"

# No GPU to find and no --arch.
printf '#!/bin/sh\nexit 9\n' >"$work/path/nvidia-smi"
run
[ "$rc" -eq 1 ] || fail "no GPU: exit $rc"
grep -q "no NVIDIA GPU found" "$work/out" || fail "no 'no NVIDIA GPU' message"

# No nvcc (when the system has none outside CUDA_HOME).
rm "$work/cuda/bin/nvcc"
if PATH="$work/path:/usr/bin:/bin" command -v nvcc >/dev/null; then
  echo "calibrate_test: ok (the no-nvcc case skipped: $(PATH=/usr/bin:/bin command -v nvcc) exists)"
  exit 0
fi
rc=0
CUDA_HOME=$work/cuda PTXFU_BUILD=$work/build PATH="$work/path:/usr/bin:/bin" "$src/scripts/calibrate.sh" >"$work/out" 2>&1 ||
  rc=$?
[ "$rc" -eq 1 ] || fail "no nvcc: exit $rc"
grep -q "nvcc not found" "$work/out" || fail "no 'nvcc not found' message"

echo "calibrate_test: ok"
