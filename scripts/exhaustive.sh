#!/bin/sh
# Every pair of f16 and bf16 operands (2^32 per form) through each form of
# OP the table allows (add, sub, mul: .rn .rz .rm .rp; min, max: plain and
# .NaN), against a separately written oracle (tb/exhaustive/half_oracle.cc),
# on all cores. Mismatches print as `ptxfu eval` lines.
#   scripts/exhaustive.sh OP|FORM [--shard K/N] [--threads T]
# e.g. scripts/exhaustive.sh add; scripts/exhaustive.sh mul.rz.bf16 --shard 0/4
set -eu
cd "$(dirname "$0")/.."
if [ $# -lt 1 ]; then
  echo "usage: $0 add|sub|mul|min|max|FORM [--shard K/N] [--threads T]" >&2
  exit 2
fi
[ -f build/CMakeCache.txt ] || cmake --preset default >/dev/null
cmake --build build --target ptxfu_exhaustive -j"$(nproc)" >/dev/null
exec ./build/tb/exhaustive/ptxfu_exhaustive "$@"
