#!/usr/bin/env bash
# Installs a build into a fresh prefix, moves the prefix (an install is
# relocatable), then builds and runs the consumers against it:
#   cxx/  a C++ project through find_package(ptxfu): ptxfu::core, ::core_static, ::models, ::host
#   c/    a C program through pkg-config, shared and static
# and runs the installed ptxfu on an installed example sweep, and the
# installed Python module when the build has it.
#
#   tb/install/consume.sh BUILD_DIR      (ctest: install.consumers)
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/ptxfu-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
jobs=${PTXFU_JOBS:-2}

echo "== cmake --install $build --prefix $work/staged, then moved to $work/prefix"
cmake --install "$build" --prefix "$work/staged" >"$work/install.log"
mv "$work/staged" "$work/prefix"
prefix=$work/prefix
libdir=$(dirname "$(find "$prefix" -name ptxfu.pc -path '*/pkgconfig/*')")/..

echo "== C++ consumer: find_package(ptxfu COMPONENTS models)"
cmake -S "$here/cxx" -B "$work/cxx" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF ${CXX:+-DCMAKE_CXX_COMPILER="$CXX"} >"$work/cxx.log"
found=$(sed -n 's/^ptxfu_DIR:PATH=//p' "$work/cxx/CMakeCache.txt")
case $found in
  "$prefix"/*) ;;
  *) echo "FAIL: find_package found ptxfu in '$found', not in the fresh prefix" >&2; exit 1 ;;
esac
cmake --build "$work/cxx" -j"$jobs" >>"$work/cxx.log" || { cat "$work/cxx.log"; exit 1; }
"$work/cxx/core_consumer"
"$work/cxx/core_static_consumer"
"$work/cxx/models_consumer"
"$work/cxx/host_consumer"

echo "== C consumer: pkg-config ptxfu"
cp -r "$here/c" "$work/c"
PKG_CONFIG_PATH="$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" make -s -C "$work/c"
LD_LIBRARY_PATH="$libdir" "$work/c/c_consumer"
"$work/c/c_static_consumer"
if ldd "$work/c/c_static_consumer" | grep -q libptxfu; then
  echo "FAIL: c_static_consumer loads libptxfu.so" >&2
  exit 1
fi

echo "== the installed ptxfu and its data"
got=$(echo 'fma.rn.f16 0x3c00 0x4000 0x3c00' | "$prefix/bin/ptxfu" eval)  # 1 * 2 + 1 = 3
[ "$got" = 0x4200 ] || { echo "FAIL: installed ptxfu eval printed '$got', want 0x4200" >&2; exit 1; }
"$prefix/bin/ptxfu" sweep "$prefix/share/ptxfu/configs/sweeps/hfma2_lanes_issue.yaml" --dry-run >"$work/sweep.log"
grep -q sim_mix "$work/sweep.log" || { echo "FAIL: the installed sweep does not find its program" >&2; exit 1; }
"$prefix/bin/ptxfu" sweep "$prefix/share/ptxfu/configs/sweeps/scan_program.yaml" --dry-run >"$work/scan.log"
grep -q '^[0-9a-f]*  scan ' "$work/scan.log" || { echo "FAIL: the installed sweep does not find its host program" >&2; exit 1; }
site=$(find "$prefix" -type d -name dist-packages | head -1)
if [ -n "$site" ] && [ -d "$site/ptxfu" ]; then
  echo "== the installed Python module"
  got=$(cd "$work" && PYTHONPATH="$site" "${PTXFU_PYTHON:-/usr/bin/python3}" -c \
    'import ptxfu, numpy as np; print(ptxfu.__file__.startswith("'"$site"'"), ptxfu.eval("mul.wide.u32", np.uint32(0xffffffff), 2))')
  [ "$got" = "True 8589934590" ] || { echo "FAIL: the installed ptxfu module printed '$got'" >&2; exit 1; }
fi
echo "install: all consumers passed"
