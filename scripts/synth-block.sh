#!/bin/sh
# Yosys synthesis (generic gates: `synth -flatten`, ABC's cell library) of the
# tensor-core block FMA for every parameter set the build verilates
# (PTXFU_COSIM_BLOCK_SETS in cosim/CMakeLists.txt, the one list) at NUM_STAGES
# 0 and 3, written as CSV:
#   in,out,W,B,carry,sum_frac,round,stages,cells,flops,logic_depth
# cells: every generic cell (gates, muxes, flops); logic_depth: Yosys `ltp
# -noff`, the longest path of cells between registers or ports. These are
# generic-cell proxies for comparing parameter sets with each other, not
# silicon area or timing: no technology library, no wire load, no sizing.
#   scripts/synth-block.sh [OUT.csv] [STAGES...]   (default docs/block_fma_synth.csv, stages 0 3)
#   PTXFU_SYNTH_SETS=REGEX scripts/synth-block.sh ...   only the sets whose line matches (grep -E)
#   PTXFU_SYNTH_LIST='bf16 f32 8 26 6 63 rz;...' scripts/synth-block.sh ...   these sets instead of the
#     build's (sets no row ships: the numerics sweep's, docs/sweep.md)
# About 1 to 4 minutes of CPU a set and stage count (W = 4 to 32).
# Each run's full `stat` and `ltp` reports are left in build/synth-block/.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/docs/block_fma_synth.csv}
[ $# -gt 0 ] && shift
stages=${*:-0 3}
logs=$root/build/synth-block
mkdir -p "$logs"
srcs=$(sed "s|^|$root/rtl_ref/|" "$root/rtl_ref/sources.f" | tr '\n' ' ')
tmp=$logs/synth.csv.tmp   # the CSV appears whole or not at all
echo "in,out,W,B,carry,sum_frac,round,stages,cells,flops,logic_depth" >"$tmp"
# The sets: the quoted lines of PTXFU_COSIM_BLOCK_SETS.
sets() {
  if [ -n "${PTXFU_SYNTH_LIST:-}" ]; then echo "$PTXFU_SYNTH_LIST" | tr ';' '\n'; return; fi
  sed -n '/^set(PTXFU_COSIM_BLOCK_SETS/,/CACHE INTERNAL/p' "$root/cosim/CMakeLists.txt" |
    sed -n 's/^ *"\([^"]*\)".*/\1/p'
}
sets | grep -E "${PTXFU_SYNTH_SETS:-.}" | while read -r in o w b carry sum rnd; do
  # The -G arguments come from the same check the build runs (block_params.cmake).
  params=$(cmake -DIN="$in" -DOUT="$o" -DWIDTH="$w" -DKEPT="$b" -DCARRY="$carry" -DSUM_FRAC="$sum" \
    -DROUND="$rnd" -P "$root/cosim/block_params.cmake" | sed 's/^-- block FMA parameters: //')
  chparam=$(echo "$params" | tr ';' '\n' | sed 's/^-G\([A-Z_]*\)=\(.*\)$/-chparam \1 \2/' | tr '\n' ' ')
  for s in $stages; do
    name=${in}_${o}_w${w}_b${b}_s$s
    yosys -q -l "$logs/$name.log" -p "read_verilog -sv -I$root/rtl_ref $srcs;
      hierarchy -check -top ptxfu_block_fma $chparam -chparam NUM_STAGES $s;
      synth -flatten -top ptxfu_block_fma; opt_clean -purge;
      tee -q -o $logs/$name.stat stat; tee -q -o $logs/$name.ltp ltp -noff" >/dev/null
    cells=$(awk '/Number of cells:/ {n = $4} END {print n}' "$logs/$name.stat")
    flops=$(awk '/\$_(S)?DFFE?_/ {s += $2} END {print s + 0}' "$logs/$name.stat")
    depth=$(sed -n 's/.*(length=\([0-9]*\)).*/\1/p' "$logs/$name.ltp" | tail -1)
    echo "$in,$o,$w,$b,$carry,$sum,$rnd,$s,$cells,$flops,$depth" | tee -a "$tmp"
  done
done
mv "$tmp" "$out"
