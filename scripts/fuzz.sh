#!/usr/bin/env bash
# Runs one libFuzzer target of tb/fuzz for a given time.
#
#   scripts/fuzz.sh TARGET SECONDS [LIBFUZZER_ARGS...]
#   scripts/fuzz.sh all SECONDS        # every target, PTXFU_JOBS (default 2) at a time (the CI smoke run)
#
# TARGET is fuzz_statement, fuzz_check, fuzz_module, fuzz_eval, fuzz_eval_diff, fuzz_config or fuzz_sweep_spec.
# Builds the target with the "fuzz" preset (clang, ASan + UBSan + libFuzzer)
# in build-fuzz/ (PTXFU_FUZZ_BUILD=DIR uses another tree configured with
# PTXFU_FUZZ=ON), starts from the committed seeds in tb/fuzz/corpus/TARGET/
# and keeps what it learns in BUILD/corpus/TARGET/ (not committed). A
# crash, sanitizer report, timeout or failed property stops the run with a
# non-zero status and leaves the input in BUILD/artifacts/TARGET/.
# The last lines printed give the number of executions (stat::number_of_executed_units).
set -euo pipefail
cd "$(dirname "$0")/.."

targets=(fuzz_statement fuzz_check fuzz_module fuzz_eval fuzz_eval_diff fuzz_config fuzz_sweep_spec)
if [ $# -lt 2 ]; then
  echo "usage: $0 TARGET|all SECONDS [LIBFUZZER_ARGS...]  (targets: ${targets[*]})" >&2
  exit 2
fi
target=$1 seconds=$2
shift 2
jobs=${PTXFU_JOBS:-2}
build=${PTXFU_FUZZ_BUILD:-build-fuzz}
if [ "$target" = all ]; then
  # Built together first (one build of the shared libraries), then run
  # PTXFU_JOBS at a time: each keeps its SECONDS on a core of its own.
  [ -f "$build/CMakeCache.txt" ] || cmake --preset fuzz >/dev/null
  cmake --build "$build" -j"$jobs" --target "${targets[@]}" >/dev/null
  printf '%s\n' "${targets[@]}" |
    PTXFU_FUZZ_BUILT=1 xargs -P "$jobs" -I{} "$0" {} "$seconds" "$@"
  exit
fi
case " ${targets[*]} " in *" $target "*) ;; *) echo "$0: unknown target '$target' (${targets[*]})" >&2; exit 2 ;; esac

if [ -z "${PTXFU_FUZZ_BUILT:-}" ]; then
  [ -f "$build/CMakeCache.txt" ] || cmake --preset fuzz >/dev/null
  cmake --build "$build" -j"$jobs" --target "$target" >/dev/null
fi

dict=()
case $target in fuzz_statement|fuzz_check|fuzz_module|fuzz_eval) dict=(-dict=tb/fuzz/ptx.dict) ;; esac
# Whole modules (fuzz_module, seeded with nvcc files of up to 36 KB) get room up to its 64 KiB cap.
max_len=4096
[ "$target" = fuzz_module ] && max_len=65536
mkdir -p "$build/corpus/$target" "$build/artifacts/$target"
echo "fuzz: $target for ${seconds}s" >&2
# Leaks are checked (detect_leaks); a single input may take at most 10 s and 2 GiB.
log="$build/fuzz-$target.log"
status=0
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
  "$build/fuzz/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" \
  -print_final_stats=1 -artifact_prefix="$build/artifacts/$target/" "${dict[@]}" "$@" \
  "$build/corpus/$target" "tb/fuzz/corpus/$target" >"$log" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
  tail -n 60 "$log" >&2
  echo "fuzz: $target FAILED (status $status); the input is in $build/artifacts/$target/, the log in $log" >&2
  exit "$status"
fi
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
echo "fuzz: $target ok: $runs executions in ${seconds}s, corpus $(ls "$build/corpus/$target" | wc -l) inputs" >&2
