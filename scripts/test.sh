#!/usr/bin/env bash
# Builds ptxfu and runs the whole test suite (the README's test command):
#   1. the Release build and every test (preset default), among them the Python
#      module's pytest suites (python.*) and the install test (install.consumers);
#   2. the unit and model suites again under AddressSanitizer + UBSan (preset asan,
#      clang; docs/reliability.md says which suites);
#   3. a short run of every libFuzzer target (scripts/fuzz.sh; built by step 2);
#   4. clang-format and clang-tidy on the project's own code (scripts/lint.sh).
# PTXFU_FUZZ_SECONDS sets the fuzz time per target (default 20).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
jobs=$(nproc)

cmake --preset default >/dev/null
cmake --build --preset default -j"$jobs"
ctest --preset default -j"$jobs"

cmake --preset asan >/dev/null
cmake --build --preset asan -j"$jobs"
ctest --preset asan -j"$jobs"

export PTXFU_JOBS=$jobs PTXFU_FUZZ_BUILD=build-asan
./scripts/fuzz.sh all "${PTXFU_FUZZ_SECONDS:-20}" -seed=1  # a fixed seed: CI is reproducible
./scripts/lint.sh build
