#!/usr/bin/env bash
# Builds ptxfu and runs the main job on the embedded configs: the model's
# microbenchmarks beside the published reference numbers of every
# architecture (the README's first command).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default -j"$(nproc)" --target ptxfu
./build/ptxfu bench --all
