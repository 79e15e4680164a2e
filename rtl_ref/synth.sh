#!/bin/sh
# Synthesises each unit with Yosys (generic gates, `synth -flatten`) for a
# few pipeline configurations and prints a cell-count table.
#   rtl_ref/synth.sh [OUTDIR]      (default OUTDIR: build/synth)
# Each configuration's full `stat` report is left in OUTDIR/<unit>_s<N>.log.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-build/synth}
mkdir -p "$out"
srcs=$(sed "s|^|$here/|" "$here/sources.f")  # the one file list (also read by cosim/rtl.cmake)

printf '%-8s %-7s %8s %8s %10s\n' unit stages cells flops 'other cells'
for cfg in hfma2:0 hfma2:2 hfma2:4 hfma2:6 hmnmx2:0 hmnmx2:1 hmnmx2:2; do
  unit=${cfg%%:*}
  n=${cfg##*:}
  log="$out/${unit}_s$n.log"
  yosys -q -l "$log" -p "read_verilog -sv -I$here $(echo $srcs);
    hierarchy -check -top ptxfu_$unit -chparam NUM_STAGES $n;
    synth -flatten -top ptxfu_$unit; opt_clean -purge; tee -o $out/${unit}_s$n.stat stat" >/dev/null
  cells=$(awk '/Number of cells:/ {print $4}' "$out/${unit}_s$n.stat" | tail -1)
  flops=$(awk '/\$_(S)?DFFE?_/ {s += $2} END {print s + 0}' "$out/${unit}_s$n.stat")
  printf '%-8s %-7s %8s %8s %10s\n' "$unit" "$n" "$cells" "$flops" "$((cells - flops))"
done
