#!/usr/bin/env bash
# The deep tier (CI, .ci/run, runs it after scripts/test.sh):
#   1. the suites of the core, the kernel executor, the models and the
#      parsers again under AddressSanitizer + UBSan + LeakSanitizer (preset
#      asan, clang; exhaustive loops sampled; docs/reliability.md says which
#      suites and why);
#   2. every libFuzzer target for PTXFU_FUZZ_SECONDS (default 20) from its
#      committed seeds, two at a time on two cores (scripts/fuzz.sh all; built
#      in build-fuzz, the fuzz preset's tree: the asan tree has no fuzzer
#      instrumentation, which would slow its suites);
#   3. clang-format, black and clang-tidy on the project's own code
#      (scripts/lint.sh).
# Each step runs even when one before it failed; the exit status says whether
# any did. Run alone, it configures and builds what it needs first.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
jobs=$(nproc)
status=0

cmake --preset asan >/dev/null
cmake --build --preset asan -j"$jobs"
ctest --preset asan -j"$jobs" || status=1

export PTXFU_JOBS=$jobs
./scripts/fuzz.sh all "${PTXFU_FUZZ_SECONDS:-20}" -seed=1 || status=1  # a fixed seed: CI is reproducible

# clang-tidy reads build/'s compile database and its generated headers (a no-op after test.sh).
cmake --preset default >/dev/null && cmake --build --preset default -j"$jobs" >/dev/null
./scripts/lint.sh build || status=1
exit "$status"
