#!/usr/bin/env bash
# The layers point one way: cli -> models -> core and cli -> cosim -> core,
# models using cosim's RTL plug. The core (src/ except src/cli) must not
# include SystemC or TLM, Verilator's headers or the verilated models, or
# anything of models/ or cosim/; nor may its CMakeLists.txt files use them
# (src/api/install.cmake installs the whole project and is exempt). cosim/
# (the RTL plug and `ptxfu cosim`) may use Verilator but not SystemC, models/
# or the command line.
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
  printf '#include "cosim/scoreboard.h"\n' >"$tree/src/isa/d.h"
  mkdir -p "$tree/cosim"
  printf '#include <verilated.h>\n#include "cosim/unit.h"\n' >"$tree/cosim/ok.h"  # cosim may
  printf '#include <tlm>\n' >"$tree/cosim/e.cc"
  printf '#include "models/warp_op.h"\n' >"$tree/cosim/f.h"
  if out=$("$0" "$tree" 2>&1); then
    echo "check-layers self-test: planted violations passed" >&2
    exit 1
  fi
  found=$(grep -c '^check-layers: src/' <<<"$out")
  found_cosim=$(grep -c '^check-layers: cosim/' <<<"$out")
  if [ "$found" -ne 5 ] || [ "$found_cosim" -ne 2 ] || grep -qE 'src/cli/|cosim/ok' <<<"$out"; then
    echo "check-layers self-test: expected the 5 planted violations in src/ outside src/cli and 2 in cosim/, got:" >&2
    echo "$out" >&2
    exit 1
  fi
  echo "check-layers self-test: the 7 planted violations were found, src/cli and cosim/ok.h were not flagged" >&2
  exit 0
fi
root=${1:-$(dirname "$0")/..}
cd "$root"
status=0

# SystemC: <systemc>, <systemc.h>, <sysc/...>, <tlm>, <tlm.h>, <tlm_utils/...>;
# Verilator: <verilated*.h>, <svdpi.h>, <vltstd/...>, generated "Vtop.h";
# the models: "models/..."; the RTL plug and co-simulation: "cosim/...".
pattern='^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](systemc|sysc/|tlm|verilated|svdpi\.h|vltstd/|V[A-Za-z0-9_]*\.h|models/|cosim/)'
while IFS= read -r hit; do
  echo "check-layers: $hit: the core must not include SystemC, Verilator, models/ or cosim/" >&2
  status=1
done < <(grep -rnE "$pattern" src --include='*.h' --include='*.hpp' --include='*.cc' --include='*.cpp' \
           --include='*.inc' --exclude-dir=cli || true)

while IFS= read -r hit; do
  echo "check-layers: $hit: the core's CMake must not use SystemC, Verilator or the models" >&2
  status=1
done < <(find src -path src/cli -prune -o -name CMakeLists.txt -print0 |
           xargs -0 -r grep -nHiE 'systemc|verilat|ptxfu_models|ptxfu_cli' | grep -vE ':[0-9]+:[[:space:]]*#' || true)

# cosim/: Verilator yes; SystemC/TLM, the models and the command line no.
cosim_pattern='^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](systemc|sysc/|tlm|models/|cli/)'
if [ -d cosim ]; then
  while IFS= read -r hit; do
    echo "check-layers: $hit: cosim/ must not include SystemC, models/ or the command line" >&2
    status=1
  done < <(grep -rnE "$cosim_pattern" cosim --include='*.h' --include='*.hpp' --include='*.cc' --include='*.cpp' \
             --include='*.inc' || true)
fi

[ "$status" -eq 0 ] && echo "check-layers: the core (src/ but src/cli) uses no SystemC, Verilator, models/ or cosim/; cosim/ no SystemC or models/" >&2
exit "$status"
