#!/usr/bin/env bash
# Builds ptxfu and runs the whole test suite (the README's test command): the
# Release build and every test, all labels (preset default): unit, model,
# rtl, slow (ptxas agreement, exhaustive conversions and operand pairs, the
# install test; started first) and hw, among them the Python module's pytest
# suites (python.*).
# The deep tier, scripts/test-deep.sh, runs the suites of the core, the kernel
# executor, the models and the parsers again under ASan + UBSan, then the fuzz
# targets and lint; CI (.ci/run) runs this script, then that one.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
jobs=$(nproc)

cmake --preset default >/dev/null
cmake --build --preset default -j"$jobs"
ctest --preset default -j"$jobs"
