#!/usr/bin/env bash
# Reruns the hardware measurements of tb/data/hw/<gpu>/README.md on the local
# GPU and writes them, in the same files, to OUTDIR:
#   scripts/gpu-probe.sh OUTDIR
# Needs nvcc (CUDA_HOME/bin, default /usr/local/cuda) and a GPU of sm_90 or
# newer (the bf16 MUFU forms). Exit status: 0 written, 1 a step failed, 2 usage.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 1 ] || { echo "usage: scripts/gpu-probe.sh OUTDIR" >&2; exit 2; }
out=$1
nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
[ -x "$nvcc" ] || nvcc=$(command -v nvcc) || { echo "gpu-probe: nvcc not found" >&2; exit 1; }
arch=sm_$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n 1 | tr -d .)
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
mkdir -p "$out/tables"
for p in mufu_dump approx_probe approx_table_probe texture_probe; do
  "$nvcc" -arch="$arch" -std=c++17 -O2 -o "$bin/$p" "tb/hw/$p.cu"
done
"$nvcc" -arch="$arch" -std=c++17 -O2 -o "$bin/latency_bench" tb/hw/latency_bench.cu tb/hw/calib_csv.cc
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,driver_version,power.limit --format=csv >"$out/gpu.csv"
"$bin/mufu_dump" "$out/tables"
"$bin/approx_probe" "$out/approx.txt"
"$bin/texture_probe" "$out/texture.txt"
mkdir -p "$out/tables" && "$bin/approx_table_probe" "$out/tables"
"$bin/latency_bench" --out "$out/calibration.$arch.csv" >"$out/calibration.$arch.yaml"
echo "gpu-probe: wrote $out"
