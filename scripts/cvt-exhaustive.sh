#!/bin/sh
# Every one of the 2^32 f32 inputs through cvt to f16, bf16 (rn) and e4m3,
# e5m2 (.rn.satfinite), each against its independent reference
# (tb/unit/fp/cvt_test.cc, Cvt.DISABLED_EveryF32).
#   scripts/cvt-exhaustive.sh [f16|bf16|e4m3|e5m2]   (default: all four)
# PTXFU_CVT_COUNT=N checks the first N encodings only. Needs a build of
# ptxfu_fp_cvt_test in build/ (cmake --build build --target ptxfu_fp_cvt_test).
set -eu
cd "$(dirname "$0")/.."
[ $# -ge 1 ] && export PTXFU_CVT_DEST="$1"
exec ./build/tb/unit/fp/ptxfu_fp_cvt_test --gtest_also_run_disabled_tests --gtest_filter='Cvt.DISABLED_EveryF32'
