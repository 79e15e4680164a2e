#!/usr/bin/env bash
# The second half of CI (.ci/run runs it after scripts/test.sh, whose Release
# tree it reuses):
#   1. every libFuzzer target for PTXFU_FUZZ_SECONDS (default 20) from its
#      committed seeds, two at a time on two cores (scripts/fuzz.sh all; built
#      in build-fuzz, the fuzz preset's tree: the asan tree that test.sh runs
#      its suites in has no fuzzer instrumentation, which would slow them);
#   2. clang-format, black and clang-tidy on the project's own code
#      (scripts/lint.sh).
# Run alone, it configures and builds what it needs first.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
jobs=$(nproc)
status=0

export PTXFU_JOBS=$jobs
./scripts/fuzz.sh all "${PTXFU_FUZZ_SECONDS:-20}" -seed=1 || status=1  # a fixed seed: CI is reproducible

# clang-tidy reads build/'s compile database and its generated headers (a no-op after test.sh).
cmake --preset default >/dev/null && cmake --build --preset default -j"$jobs" >/dev/null
./scripts/lint.sh build || status=1
exit "$status"
