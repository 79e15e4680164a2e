#!/usr/bin/env bash
# Measures simulation speed (warp-instructions simulated per host second) of
# `ptxfu sim`: a straight-line mix in both timing styles with 1 and 32 warps,
# a straight-line stream of independent FFMAs (32 warps, loosely timed), then
# two real kernels; from the command's own report (host_seconds covers the
# simulation, not loading). Wall-clock: run it on a quiet machine.
# Usage: scripts/bench-sim.sh [INSTRUCTIONS_PER_WARP]   (default 20000)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-20000}
exe=./build/ptxfu
[ -x "$exe" ] || { echo "build first: scripts/test.sh or cmake --build --preset default" >&2; exit 2; }
prog=$(mktemp --suffix=.ptx)
ffma=$(mktemp --suffix=.ptx)
trap 'rm -f "$prog" "$ffma"' EXIT
# A mix of every unit with short dependencies: f32 fma, f16x2 fma, integer
# mad and add, f64 fma, MUFU ex2, 32 lanes of exact arithmetic each.
{
  echo ".reg .f32 %f<8>;"; echo ".reg .b32 %r<8>;"; echo ".reg .f64 %d<4>;"
  for i in 0 1 2 3 4 5 6 7; do echo "mov.u32 %r$i, %tid.x;"; echo "mov.f32 %f$i, 0f3f8${i}0000;"; done
  for i in 0 1 2 3; do echo "mov.f64 %d$i, 0d3ff${i}000000000000;"; done
  for ((k = 0; k < n / 8; k++)); do
    a=$((k % 4)); b=$(((k + 1) % 4)); c=$(((k + 4) % 8))
    echo "fma.rn.f32 %f$a, %f$b, %f$c, %f$a;"
    echo "fma.rn.f32 %f$c, %f$a, %f$b, %f$c;"
    echo "fma.rn.f16x2 %r$a, %r$b, %r$c, %r$a;"
    echo "mad.lo.s32 %r$c, %r$a, %r$b, %r$c;"
    echo "add.s32 %r$b, %r$c, %r$a;"
    echo "fma.rn.f64 %d$a, %d$b, %d$a, %d$b;"
    echo "ex2.approx.ftz.f32 %f$b, %f$a;"
    echo "min.f32 %f$c, %f$a, %f$b;"
  done
} > "$prog"
# Eight independent chains of f32 fma, every lane of every warp active.
{
  echo ".reg .f32 %f<8>;"
  for i in 0 1 2 3 4 5 6 7; do echo "mov.f32 %f$i, 0f3f8${i}0000;"; done
  for ((k = 0; k < n / 8; k++)); do
    for i in 0 1 2 3 4 5 6 7; do echo "fma.rn.f32 %f$i, %f$(((i + 1) % 8)), %f$(((i + 2) % 8)), %f$i;"; done
  done
} > "$ffma"
row() {
  local label=$1
  shift
  out=$("$exe" sim --json "$@")
  wi=$(sed -n 's/^  "warp_instructions": \([0-9]*\),*$/\1/p' <<<"$out")
  hs=$(sed -n 's/^  "host_seconds": \([0-9.e+-]*\),*$/\1/p' <<<"$out")
  printf '%-22s %14s %12.3f %16.0f\n' "$label" "$wi" "$hs" "$(awk -v a="$wi" -v b="$hs" 'BEGIN { print a / b }')"
}
printf '%-22s %14s %12s %16s\n' style/warps warp-instr host-seconds warp-instr/s
for style in lt at; do
  for warps in 1 32; do row "$style/$warps" --mode "$style" --warps "$warps" "$prog"; done
done
row "ffma lt/32" --mode lt --warps 32 "$ffma"

# Real kernels (nvcc's PTX from tb/corpus): a softmax with warp shuffles and
# a shared-memory tiled matmul, loosely timed on sm_90.
corpus=tb/corpus/ptx
printf '\n%-22s %14s %12s %16s\n' kernel warp-instr host-seconds warp-instr/s
row softmax "$corpus/softmax.sm_90.ptx" --entry softmax_warp_per_row --grid 512 --block 128 \
  --arg buf:random:2097152:1 --arg buf:zeros:2097152 --arg s32:2048 --arg s32:256
row matmul "$corpus/matmul_tiled.sm_90.ptx" --entry matmul_tiled_static --grid 16,16 --block 16,16 \
  --arg buf:random:262144:1 --arg buf:random:262144:2 --arg buf:zeros:262144 --arg s32:256 --arg s32:256 --arg s32:256
