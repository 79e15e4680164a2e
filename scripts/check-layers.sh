#!/usr/bin/env bash
# The layers point one way: cli -> sweep -> host -> models -> core and cli -> cosim
# -> core, models using cosim's RTL plug. The core (src/) must not include
# SystemC or TLM, Verilator's headers or the verilated models, or anything of
# models/, cosim/, sweep/ or cli/; nor may its CMakeLists.txt files use them
# (src/api/install.cmake installs the whole project and is exempt). cosim/
# (the RTL plug and `ptxfu cosim`) may use Verilator but not SystemC, models/,
# the sweep or the command line. models/ may not include sweep/, host/ or cli/;
# host/ not sweep/ or cli/; sweep/ not cli/ (a sweep's program may be a host
# program, run through the host API).
#
#   scripts/check-layers.sh [ROOT]       (default: the repository)
#   scripts/check-layers.sh --self-test  (the check finds planted violations)
#
# Exit 0 when clean; 1 with one line per offending include or CMake line.
set -euo pipefail
if [ "${1:-}" = --self-test ]; then
  tree=$(mktemp -d)
  trap 'rm -rf "$tree"' EXIT
  mkdir -p "$tree/src/fp" "$tree/src/isa" "$tree/cli" "$tree/cosim" "$tree/models" "$tree/sweep"
  printf '#include <cstdint>\n#include <systemc>\n' >"$tree/src/fp/a.cc"
  printf '#include "models/config.h"\n' >"$tree/src/isa/b.h"
  printf '  #include "verilated.h"\n' >"$tree/src/isa/c.cc"
  printf 'target_link_libraries(ptxfu_core PUBLIC PkgConfig::SYSTEMC)\n' >"$tree/src/CMakeLists.txt"
  printf '#include "sweep/spec.h"\n' >"$tree/src/isa/e.h"
  printf '#include <systemc>\n#include "models/simulator.h"\n#include "sweep/run.h"\n' >"$tree/cli/ok.cc"  # the CLI may
  printf '#include "cosim/scoreboard.h"\n' >"$tree/src/isa/d.h"
  printf '#include <verilated.h>\n#include "cosim/unit.h"\n' >"$tree/cosim/ok.h"  # cosim may
  printf '#include <tlm>\n' >"$tree/cosim/e.cc"
  printf '#include "models/warp_op.h"\n' >"$tree/cosim/f.h"
  printf '#include "sweep/run.h"\n' >"$tree/models/g.h"
  printf '#include "models/simulator.h"\n#include "cli/sweep_cmd.h"\n' >"$tree/sweep/h.cc"  # models yes, cli no
  if out=$("$0" "$tree" 2>&1); then
    echo "check-layers self-test: planted violations passed" >&2
    exit 1
  fi
  found=$(grep -c '^check-layers: src/' <<<"$out")
  found_cosim=$(grep -c '^check-layers: cosim/' <<<"$out")
  found_upper=$(grep -cE '^check-layers: (models|sweep)/' <<<"$out")
  if [ "$found" -ne 6 ] || [ "$found_cosim" -ne 2 ] || [ "$found_upper" -ne 2 ] ||
    grep -qE 'cli/ok|cosim/ok|sweep/h.cc:1:' <<<"$out"; then
    echo "check-layers self-test: expected 6 planted violations in src/, 2 in cosim/, 2 in models/ and sweep/, got:" >&2
    echo "$out" >&2
    exit 1
  fi
  echo "check-layers self-test: the 10 planted violations were found, cli/ok.cc, cosim/ok.h and sweep's models include were not flagged" >&2
  exit 0
fi
root=${1:-$(dirname "$0")/..}
cd "$root"
status=0

# SystemC: <systemc>, <systemc.h>, <sysc/...>, <tlm>, <tlm.h>, <tlm_utils/...>;
# Verilator: <verilated*.h>, <svdpi.h>, <vltstd/...>, generated "Vtop.h";
# the models: "models/..."; the RTL plug and co-simulation: "cosim/...".
pattern='^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](systemc|sysc/|tlm|verilated|svdpi\.h|vltstd/|V[A-Za-z0-9_]*\.h|models/|cosim/|sweep/|cli/|host/)'
while IFS= read -r hit; do
  echo "check-layers: $hit: the core must not include SystemC, Verilator, models/, cosim/, sweep/, host/ or cli/" >&2
  status=1
done < <(grep -rnE "$pattern" src --include='*.h' --include='*.hpp' --include='*.cc' --include='*.cpp' \
           --include='*.inc' || true)

while IFS= read -r hit; do
  echo "check-layers: $hit: the core's CMake must not use SystemC, Verilator or the models" >&2
  status=1
done < <(find src -name CMakeLists.txt -print0 |
           xargs -0 -r grep -nHiE 'systemc|verilat|ptxfu_models|ptxfu_sweep|ptxfu_host|ptxfu_cli' | grep -vE ':[0-9]+:[[:space:]]*#' || true)

# cosim/: Verilator yes; SystemC/TLM, the models and the command line no.
cosim_pattern='^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](systemc|sysc/|tlm|models/|sweep/|host/|cli/)'
if [ -d cosim ]; then
  while IFS= read -r hit; do
    echo "check-layers: $hit: cosim/ must not include SystemC, models/, the sweep or the command line" >&2
    status=1
  done < <(grep -rnE "$cosim_pattern" cosim --include='*.h' --include='*.hpp' --include='*.cc' --include='*.cpp' \
             --include='*.inc' || true)
fi

# models/ and sweep/: nothing of the layers above them.
upper() {  # DIR PATTERN WHAT
  [ -d "$1" ] || return 0
  while IFS= read -r hit; do
    echo "check-layers: $hit: $1/ must not include $3" >&2
    status=1
  done < <(grep -rnE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]($2)" "$1" --include='*.h' --include='*.cc' || true)
}
upper models 'sweep/|host/|cli/' 'the sweep, the host API or the command line'
upper sweep 'cli/' 'the command line'
upper host 'sweep/|cli/' 'the sweep or the command line'

[ "$status" -eq 0 ] && echo "check-layers: the core (src/) uses no SystemC, Verilator or layer above it; cosim/ no SystemC or models/; models/, sweep/ and host/ nothing above them" >&2
exit "$status"
