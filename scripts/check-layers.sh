#!/usr/bin/env bash
# The layers point one way: cli -> models -> core. The core (src/ except
# src/cli) must not include SystemC or TLM, Verilator's headers or the
# verilated models, or anything of models/; nor may its CMakeLists.txt files
# use them (src/api/install.cmake installs the whole project and is exempt).
#
#   scripts/check-layers.sh [ROOT]       (default: the repository)
#   scripts/check-layers.sh --self-test  (the check finds planted violations)
#
# Exit 0 when clean; 1 with one line per offending include or CMake line.
set -euo pipefail
if [ "${1:-}" = --self-test ]; then
  tree=$(mktemp -d)
  trap 'rm -rf "$tree"' EXIT
  mkdir -p "$tree/src/fp" "$tree/src/isa" "$tree/src/cli"
  printf '#include <cstdint>\n#include <systemc>\n' >"$tree/src/fp/a.cc"
  printf '#include "models/config.h"\n' >"$tree/src/isa/b.h"
  printf '  #include "verilated.h"\n' >"$tree/src/isa/c.cc"
  printf 'target_link_libraries(ptxfu_core PUBLIC PkgConfig::SYSTEMC)\n' >"$tree/src/CMakeLists.txt"
  printf '#include <systemc>\n#include "models/simulator.h"\n' >"$tree/src/cli/ok.cc"  # the CLI may
  if out=$("$0" "$tree" 2>&1); then
    echo "check-layers self-test: planted violations passed" >&2
    exit 1
  fi
  found=$(grep -c '^check-layers: src/' <<<"$out")
  if [ "$found" -ne 4 ] || grep -q 'src/cli/' <<<"$out"; then
    echo "check-layers self-test: expected the 4 planted violations outside src/cli, got:" >&2
    echo "$out" >&2
    exit 1
  fi
  echo "check-layers self-test: the 4 planted violations were found, src/cli was not flagged" >&2
  exit 0
fi
root=${1:-$(dirname "$0")/..}
cd "$root"
status=0

# SystemC: <systemc>, <systemc.h>, <sysc/...>, <tlm>, <tlm.h>, <tlm_utils/...>;
# Verilator: <verilated*.h>, <svdpi.h>, <vltstd/...>, generated "Vtop.h";
# the models: "models/...".
pattern='^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](systemc|sysc/|tlm|verilated|svdpi\.h|vltstd/|V[A-Za-z0-9_]*\.h|models/)'
while IFS= read -r hit; do
  echo "check-layers: $hit: the core must not include SystemC, Verilator or models/" >&2
  status=1
done < <(grep -rnE "$pattern" src --include='*.h' --include='*.hpp' --include='*.cc' --include='*.cpp' \
           --include='*.inc' --exclude-dir=cli || true)

while IFS= read -r hit; do
  echo "check-layers: $hit: the core's CMake must not use SystemC, Verilator or the models" >&2
  status=1
done < <(find src -path src/cli -prune -o -name CMakeLists.txt -print0 |
           xargs -0 -r grep -nHiE 'systemc|verilat|ptxfu_models|ptxfu_cli' | grep -vE ':[0-9]+:[[:space:]]*#' || true)

[ "$status" -eq 0 ] && echo "check-layers: the core (src/ but src/cli) uses no SystemC, Verilator or models/" >&2
exit "$status"
