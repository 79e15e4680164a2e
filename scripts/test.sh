#!/usr/bin/env bash
# Builds ptxfu and runs the whole test suite (the README's test command):
#   1. the Release build and every test, all labels (preset default): unit,
#      model, rtl, slow (ptxas agreement, exhaustive conversions and operand
#      pairs, the install test; started first) and hw, among them the Python
#      module's pytest suites (python.*);
#   2. the suites of the core, the kernel executor, the models and the parsers
#      again under AddressSanitizer + UBSan (preset asan, clang; exhaustive
#      loops sampled; docs/reliability.md says which suites and why).
# scripts/test-deep.sh runs the fuzz targets and lint after it; CI (.ci/run)
# runs both.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
jobs=$(nproc)

cmake --preset default >/dev/null
cmake --build --preset default -j"$jobs"
ctest --preset default -j"$jobs"

cmake --preset asan >/dev/null
cmake --build --preset asan -j"$jobs"  # the test suites; the fuzz targets are built by test-deep.sh
ctest --preset asan -j"$jobs"
