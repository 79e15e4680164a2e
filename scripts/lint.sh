#!/usr/bin/env bash
# Static checks of the project's own code; fails on any finding.
#
#   scripts/lint.sh [BUILD_DIR]     (default: build, which must have been configured)
#   scripts/lint.sh --fix           reformats every file in place (C++ and Python), then exits
#
# 1. clang-format (.clang-format) on every C++ file git tracks (.cc .h .c .cu)
#    and black (Debian's, 120 columns, as .clang-format) on every .py file.
# 2. clang-tidy 14 (.clang-tidy: the check set and why) on every .cc of src/,
#    models/, cosim/, sweep/, cli/ and python/ with BUILD_DIR's compile_commands.json, and on
#    tb/fuzz/ with that of $PTXFU_FUZZ_BUILD (default build-fuzz) when it
#    exists. Any warning in the project's own code fails.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${PTXFU_JOBS:-2}
tidy=$(command -v clang-tidy-14 || command -v clang-tidy)
format=$(command -v clang-format-14 || command -v clang-format)
black=(black --line-length 120)
mapfile -t cxx_files < <(git ls-files '*.cc' '*.h' '*.c' '*.cu')
mapfile -t py_files < <(git ls-files '*.py')

if [ "${1:-}" = --fix ]; then
  printf '%s\n' "${cxx_files[@]}" | xargs -P "$jobs" -n 16 "$format" -i
  "${black[@]}" --quiet "${py_files[@]}"
  exit 0
fi
build=${1:-build}
status=0

# 1. Formatting: every tracked source file.
unformatted=$(printf '%s\n' "${cxx_files[@]}" |
  xargs -P "$jobs" -n 1 sh -c '"$0" --dry-run --Werror "$1" >/dev/null 2>&1 || echo "$1"' "$format")
if [ -n "$unformatted" ]; then
  printf 'lint: not clang-formatted: %s\n' $unformatted >&2
  status=1
fi
if ! black_out=$("${black[@]}" --check "${py_files[@]}" 2>&1); then
  sed -n 's/^would reformat /lint: not black-formatted: /p' <<<"$black_out" >&2
  status=1
fi
[ "$status" -eq 0 ] || echo "lint: scripts/lint.sh --fix reformats them" >&2

# 2. clang-tidy, in parallel, one file per run; a run fails on any warning.
[ -f "$build/compile_commands.json" ] || { echo "lint: $build/compile_commands.json missing (configure first)" >&2; exit 2; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
tidy_files() {  # DB FILES...
  local db=$1
  shift
  printf '%s\n' "$@" | xargs -P "$jobs" -n 1 "$tidy" -p "$db" --quiet --warnings-as-errors='*' >>"$log" 2>&1
}
# shellcheck disable=SC2046
tidy_files "$build" $(git ls-files 'src/*.cc' 'models/*.cc' 'cosim/*.cc' 'sweep/*.cc' 'host/*.cc' 'cli/*.cc' 'python/*.cc') || status=1
fuzz_build=${PTXFU_FUZZ_BUILD:-build-fuzz}
if [ -f "$fuzz_build/compile_commands.json" ]; then
  # shellcheck disable=SC2046
  tidy_files "$fuzz_build" $(git ls-files 'tb/fuzz/*.cc') || status=1
fi
if grep -E '(warning|error):' "$log" >&2; then status=1; fi
[ "$status" -eq 0 ] && echo "lint: clang-format, black and clang-tidy clean" >&2
exit "$status"
