#!/usr/bin/env bash
# The corpus's wgmma GEMMs on a GPU against ptxfu sim, byte for byte.
#   tb/hw/wgmma_check/check.sh gpu DIR      on a machine with an sm_90a GPU and nvcc: runs the
#                                           kernels, writes inputs and D to DIR (and DIR/cases.txt)
#   tb/hw/wgmma_check/check.sh compare DIR  with build/ptxfu: the same inputs through `ptxfu sim
#                                           --config sm_90`, D compared with the GPU's
# Exit 0 when every D matches; the first differing byte is cmp's report.
set -euo pipefail
cd "$(dirname "$0")/../../.."
mode=${1:?gpu or compare}
dir=${2:?directory}
mkdir -p "$dir"
if [ "$mode" = gpu ]; then
  nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
  "$nvcc" -gencode arch=compute_90a,code=sm_90a -O2 -o "$dir/wgmma_check" tb/hw/wgmma_check/wgmma_check.cu
  "$dir/wgmma_check" "$dir" | tee "$dir/cases.txt"
  exit 0
fi
ptxfu=${PTXFU:-build/ptxfu}
status=0
while read -r entry gx gy m n k d_arg; do
  args=(--arg "buf:$dir/$entry.a.bin" --arg "buf:$dir/$entry.b.bin")
  [ "$d_arg" = 3 ] && args+=(--arg "buf:$dir/$entry.c.bin")
  args+=(--arg "buf:zeros:$(stat -c %s "$dir/$entry.d.bin")" --arg "s32:$m" --arg "s32:$n" --arg "s32:$k")
  out="$dir/ptxfu_$entry"
  "$ptxfu" sim tb/corpus/ptx/wgmma_gemm.sm_90a.ptx --entry "$entry" --grid "$gx,$gy" --block 128 "${args[@]}" \
    --config sm_90 --out-dir "$out" > /dev/null
  if cmp "$out/arg$d_arg.bin" "$dir/$entry.d.bin"; then
    echo "$entry ${m}x${n}x${k}: D matches the GPU's"
  else
    echo "$entry ${m}x${n}x${k}: D differs from the GPU's" && status=1
  fi
done < "$dir/cases.txt"
exit $status
