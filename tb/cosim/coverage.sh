#!/bin/sh
# Line/toggle coverage of rtl_ref/ from passing co-simulation runs.
#   cmake -S . -B build-cov -DPTXFU_COSIM_COVERAGE=ON
#   cmake --build build-cov -j2 --target ptxfu_cosim_cli
#   tb/cosim/coverage.sh build-cov/cosim/ptxfu_cosim OUTDIR [VECTORS]
# Each run writes OUTDIR/<n>.dat only if it passed; the merged, annotated
# sources land in OUTDIR/annotated and the summary is printed at the end.
set -eu
cosim=$1
out=$2
n=${3:-100000}
mkdir -p "$out"
rm -f "$out"/*.dat
i=0
run() {
  i=$((i + 1))
  "$cosim" --vectors "$n" --coverage "$out/$i.dat" "$@" | tail -1 | sed "s|^|$* : |"
}
for st in 4 0 6; do
  for op in fma.rn.f16x2 fma.rn.bf16x2 fma.rn.ftz.sat.f16x2 fma.rn.relu.bf16x2 fma.rn.oob.relu.f16x2 \
            fma.rn.oob.bf16x2 fma.rn.ftz.relu.f16x2 add.rn.ftz.f16x2 sub.rn.sat.f16x2 mul.rn.bf16x2 add.bf16x2; do
    run --op "$op" --stages "$st"
  done
  run --op fma.rn.f16x2 --stages "$st" --stall-rate 0.3
done
for st in 1 0 2; do
  for op in min.f16x2 max.NaN.bf16x2 min.ftz.NaN.xorsign.abs.f16x2 max.xorsign.abs.bf16x2 \
            neg.ftz.f16x2 abs.bf16x2; do
    run --op "$op" --stages "$st"
  done
  run --op max.f16x2 --stages "$st" --stall-rate 0.3
done
verilator_coverage --annotate "$out/annotated" --annotate-min 1 "$out"/*.dat
