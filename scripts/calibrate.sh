#!/usr/bin/env bash
# Measures the local GPU with the calibration suite (tb/hw/latency_bench.cu)
# and prints what a config needs from it.
#
#   scripts/calibrate.sh [--arch sm_XY] [--device N] [--out FILE.csv]
#
# 1. Compiles the suite with nvcc ($CUDA_HOME/bin, default /usr/local/cuda,
#    else PATH) for the GPU's target (found with nvidia-smi, else nvcc's
#    device query; --arch overrides), into build/calibration/ ($PTXFU_BUILD
#    instead of build, here and below).
# 2. Runs it: dependent chains (latency) and one-SM streams (throughput) of
#    the forms in tb/hw/calib_forms.h. Writes FILE.csv (default
#    build/calibration/calibration.sm_XY.csv) in the fields of
#    `ptxfu bench --json` plus gpu_name and clock_mhz.
# 3. Prints a block for configs/references.yaml (also written beside
#    the CSV as .yaml).
# 4. When build/ptxfu has `bench --form`, runs it for every measured row on
#    configs/sm_XY.yaml and prints the model beside the GPU; otherwise says
#    so and skips that step.
#
# Exit status: 0 measured; 1 no nvcc, no GPU, or a failed compile or run; 2 usage.
set -euo pipefail
cd "$(dirname "$0")/.."

die() {
  echo "calibrate: $*" >&2
  exit 1
}
usage() {
  echo "usage: scripts/calibrate.sh [--arch sm_XY] [--device N] [--out FILE.csv]" >&2
  exit 2
}

arch=""
device=0
out=""
while [ $# -gt 0 ]; do
  case $1 in
    --arch) [ $# -ge 2 ] || usage; arch=$2; shift 2 ;;
    --device) [ $# -ge 2 ] || usage; device=$2; shift 2 ;;
    --out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
    -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "calibrate: unknown argument '$1'" >&2; usage ;;
  esac
done
[[ $device =~ ^[0-9]+$ ]] || { echo "calibrate: --device takes a device number, not '$device'" >&2; usage; }
if [ -n "$arch" ] && ! [[ $arch =~ ^sm_[0-9]+[af]?$ ]]; then
  echo "calibrate: --arch takes a target like sm_90, not '$arch'" >&2
  usage
fi

cuda_home=${CUDA_HOME:-/usr/local/cuda}
if [ -x "$cuda_home/bin/nvcc" ]; then nvcc=$cuda_home/bin/nvcc
else nvcc=$(command -v nvcc || true)
fi
[ -n "$nvcc" ] || die "nvcc not found (looked in $cuda_home/bin and PATH): install the CUDA toolkit or set CUDA_HOME"

if [ -z "$arch" ]; then
  cap=""
  if command -v nvidia-smi >/dev/null 2>&1; then
    cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i "$device" 2>/dev/null | head -n 1 | tr -d ' .' || true)
  fi
  if ! [[ $cap =~ ^[0-9]+$ ]] && [ -x "$(dirname "$nvcc")/__nvcc_device_query" ]; then
    cap=$("$(dirname "$nvcc")/__nvcc_device_query" 2>/dev/null | grep -oE '[0-9]+' | head -n 1 || true)
  fi
  [[ $cap =~ ^[0-9]+$ ]] || die "no NVIDIA GPU found (nvidia-smi and nvcc's device query see none); give --arch sm_XY to compile anyway"
  arch=sm_$cap
fi

build=${PTXFU_BUILD:-build}
dir=$build/calibration
mkdir -p "$dir"
bin=$dir/latency_bench.$arch
out=${out:-$dir/calibration.$arch.csv}
echo "calibrate: compiling tb/hw/latency_bench.cu for $arch with $nvcc" >&2
"$nvcc" -arch="$arch" -std=c++17 -O2 -o "$bin" tb/hw/latency_bench.cu tb/hw/calib_csv.cc ||
  die "nvcc failed to compile the suite for $arch"

yaml=${out%.csv}.yaml
status=0
"$bin" --device "$device" --out "$out" >"$yaml.partial" || status=$?
if [ "$status" -ne 0 ]; then
  rm -f "$yaml.partial"
  [ "$status" -eq 77 ] && die "no CUDA device visible to the CUDA runtime (driver missing, or CUDA_VISIBLE_DEVICES hides it)"
  die "$bin failed (exit $status); nothing written"
fi
mv "$yaml.partial" "$yaml"
echo "calibrate: wrote $out and $yaml" >&2
echo
echo "# $arch: merge into the $arch: section of configs/references.yaml (a silicon measurement takes precedence over a table)"
cat "$yaml"
echo

# The model beside the GPU.
ptxfu=$build/ptxfu
if ! { [ -x "$ptxfu" ] && "$ptxfu" bench --help 2>&1 | grep -q -- '--form'; }; then
  echo "calibrate: model comparison unavailable: $ptxfu has no 'bench --form' (build it with cmake, or this version predates it); skipped"
  exit 0
fi
config=$(awk -F, 'NR == 2 { print $1 }' "$out")
config_file=configs/$config.yaml
if [ ! -f "$config_file" ]; then
  echo "calibrate: model comparison skipped: there is no $config_file"
  exit 0
fi
compare=$build/tb/hw/calib_compare
if [ ! -x "$compare" ]; then
  cmake --build "$build" --target calib_compare >/dev/null 2>&1 ||
    { echo "calibrate: model comparison skipped: cannot build calib_compare in $build"; exit 0; }
fi
models=()
i=0
# config, form and consumer never hold a comma or a quote: the first three fields split plainly.
while IFS=, read -r _ form consumer _; do
  i=$((i + 1))
  json=$dir/model.$config.$i.json
  args=(bench --form "$form" --config "$config_file" --json)
  [ -n "$consumer" ] && args+=(--consumer "$consumer")
  if "$ptxfu" "${args[@]}" >"$json" 2>"$json.err"; then
    models+=("$json")
  else
    echo "calibrate: ptxfu ${args[*]} failed ($(head -n 1 "$json.err")); that row has no model figure" >&2
  fi
  rm -f "$json.err"
done < <(tail -n +2 "$out")
"$compare" "$out" ${models[@]+"${models[@]}"}
