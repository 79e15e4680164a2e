#!/bin/sh
# Builds tb/hw/tensor_probe/tensor_probe (committed) from tensor_probe.cu:
# sm_90a SASS only, the CUDA runtime linked statically (nvcc's default), so
# the binary runs on an H100 with nothing but the driver.
#   tb/hw/tensor_probe/build.sh [NVCC]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
nvcc=${1:-${NVCC:-/usr/local/cuda/bin/nvcc}}
"$nvcc" -arch=sm_90a -std=c++17 -O2 -cudart static -Xptxas -warn-spills \
  -o "$here/tensor_probe.tmp" "$here/tensor_probe.cu"
mv "$here/tensor_probe.tmp" "$here/tensor_probe"
ls -l "$here/tensor_probe"
