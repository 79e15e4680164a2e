#!/usr/bin/env bash
# Runs `ptxfu cosim --op mma.block` on every shipped block-FMA parameter set
# (one architecture, family and type pair per set of cosim/CMakeLists.txt;
# e2m1's set has no architecture row and is run by the tests) with VECTORS
# blocks each (default 10^7), one thread per set, and prints one line per set.
# Exit status 1 if any set reports a mismatch or an error.
# Usage: scripts/cosim-block-sets.sh [VECTORS]
set -euo pipefail
cd "$(dirname "$0")/.."
vectors=${1:-10000000}
exe=./build/ptxfu
[ -x "$exe" ] || { echo "build first: scripts/test.sh or cmake --build --preset default" >&2; exit 2; }
status=0
while read -r arch family in out; do
  line=$("$exe" cosim --op mma.block --arch "$arch" --family "$family" --in "$in" --out "$out" \
    --vectors "$vectors" --jobs 1 2>&1 | tail -n 1) || status=1
  echo "$arch $family $in -> $out: $line"
  case $line in *" mismatches=0 "*) ;; *) status=1 ;; esac
done <<'SETS'
sm_70 mma f16 f32
sm_70 mma f16 f16
sm_80 mma f16 f32
sm_80 mma f16 f16
sm_80 mma bf16 f32
sm_80 mma tf32 f32
sm_89 mma e4m3 f32
sm_89 mma e5m2 f32
sm_89 mma e4m3 f16
sm_89 mma e5m2 f16
sm_90 mma f16 f32
sm_90 mma f16 f16
sm_90 mma bf16 f32
sm_90 mma tf32 f32
sm_90 wgmma e4m3 f32
sm_90 wgmma e5m2 f32
sm_90 wgmma e4m3 f16
sm_90 wgmma e5m2 f16
sm_100 mma f16 f32
SETS
exit "$status"
