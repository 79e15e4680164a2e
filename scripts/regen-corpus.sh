#!/usr/bin/env bash
# Regenerates the real-code PTX corpus (tb/corpus/ptx/) from the CUDA sources
# in tb/corpus/src/ with nvcc, and checks every file with ptxas so the corpus
# only ever holds PTX that NVIDIA's own assembler accepts.
#
#   scripts/regen-corpus.sh
#
# Output: tb/corpus/ptx/NAME.sm_XX.ptx for each source and arch (-O3
# -lineinfo, so .file/.loc appear), plus device_call.sm_90.debug.ptx built
# with -G for the .section .debug_* blocks. Without nvcc it says so and
# exits 0, so machines without CUDA can run it harmlessly.
set -euo pipefail
cd "$(dirname "$0")/.."

archs=(75 80 86 89 90 100 120)
# Sources that only some targets can compile, and those targets (wgmma is
# sm_90a's alone: no other target has it, and nvcc refuses it elsewhere; the
# bulk copies and tensor maps are sm_90 on).
declare -A only_archs=([wgmma_gemm]="90a" [tma_pipeline]="90 100 120" [bulk_copy]="90 100 120")
src_dir=tb/corpus/src
out_dir=tb/corpus/ptx

find_tool() {  # CUDA_HOME first, so an explicit toolkit wins over PATH
  local cuda_home=${CUDA_HOME:-/usr/local/cuda}
  if [ -x "$cuda_home/bin/$1" ]; then echo "$cuda_home/bin/$1"
  else command -v "$1" || true
  fi
}
nvcc=$(find_tool nvcc)
ptxas=$(find_tool ptxas)
if [ -z "$nvcc" ]; then
  echo "regen-corpus: nvcc not found (looked in \${CUDA_HOME:-/usr/local/cuda}/bin and PATH); corpus left as committed"
  exit 0
fi
if [ -z "$ptxas" ]; then
  echo "regen-corpus: nvcc found but ptxas is missing; cannot validate, refusing to regenerate" >&2
  exit 1
fi
echo "regen-corpus: $("$nvcc" --version | grep -o 'release.*')"

# nvcc writes the source's absolute path into .file and the debug info, and
# hashes it into the names of internal functions (_ZN45_INTERNAL_<hash>_...).
# Compiling from one fixed directory keeps the output identical whichever
# checkout runs this, so a regeneration with the same nvcc gives no diff.
stage=/tmp/ptxfu-corpus
exec 9> "$stage.lock"
flock 9  # two runs at once would share $stage
rm -rf "$stage"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/src"
cp "$src_dir"/*.cu "$stage/src/"
repo=$PWD

mkdir -p "$out_dir"
rm -f "$out_dir"/*.ptx  # a removed source or arch must not leave stale files behind

# Compiles one source for one arch and validates the result with ptxas for
# the same arch. The nvcc flags follow the output path.
generate() {
  local src=$1 arch=$2 out=$3
  shift 3
  if ! (cd "$stage" && "$nvcc" -ptx -arch="sm_$arch" "$@" "$src" -o "$repo/$out"); then
    echo "regen-corpus: nvcc failed on $src_dir/${src#src/} for sm_$arch" >&2
    # Before sm_89 there are no fp8 conversion instructions and cuda_fp8.h
    # emulates them with integer code. Should a toolkit stop doing that, say
    # so plainly: the arch loses its fp8 file, it must not vanish quietly.
    case $src in *fp8*) [ "${arch%a}" -lt 89 ] &&
      echo "regen-corpus: (sm_$arch has no native fp8 conversions; this nvcc no longer emulates them?)" >&2 ;;
    esac
    return 1
  fi
  if ! "$ptxas" -arch="sm_$arch" "$out" -o /dev/null; then
    echo "regen-corpus: ptxas rejected $out" >&2
    return 1
  fi
  echo "  $out ($(wc -c < "$out") bytes)"
}

for path in "$src_dir"/*.cu; do
  name=$(basename "$path" .cu)
  read -r -a these <<< "${only_archs[$name]:-${archs[*]}}"
  for arch in "${these[@]}"; do
    generate "src/$name.cu" "$arch" "$out_dir/$name.sm_$arch.ptx" -O3 -lineinfo
  done
done

# The block-scaled fp4 GEMM needs the architecture-specific sm_120a (its
# other files hold a trap).
generate src/fp4_mma_gemm.cu 120a "$out_dir/fp4_mma_gemm.sm_120a.ptx" -O3 -lineinfo

# -G: no optimisation, full debug info (.section .debug_info etc.); it
# implies line info, and nvcc warns if -lineinfo is given as well.
generate src/device_call.cu 90 "$out_dir/device_call.sm_90.debug.ptx" -G

echo "regen-corpus: $(ls "$out_dir"/*.ptx | wc -l) files, $(du -sh "$out_dir" | cut -f1)"
