#!/usr/bin/env bash
# Installs the Debian 12 packages ptxfu builds and tests with. Idempotent and
# quiet when everything is already there. Run as root (or with sudo available).
set -euo pipefail

packages=(
  build-essential cmake pkg-config ninja-build
  libsystemc-dev verilator yosys
  libgtest-dev libgmock-dev libbenchmark-dev
  libyaml-cpp-dev libcli11-dev libfmt-dev nlohmann-json3-dev
  libmpfr-dev libgmp-dev
  clang gnuplot-nox
  libclang-rt-14-dev clang-tidy clang-format cppcheck black
  slurm-wlm munge
  python3-dev pybind11-dev python3-numpy python3-pytest python3-gmpy2 python3-matplotlib
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
