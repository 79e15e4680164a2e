#!/usr/bin/env bash
# Static checks of the project's own code; fails on any finding.
#
#   scripts/lint.sh [BUILD_DIR]     (default: build, which must have been configured)
#
# 1. clang-format (.clang-format) on the files listed in .clang-format-files.
#    Existing files are not mass-reformatted: a file joins the list when it
#    is new or once it has been formatted (clang-format -i FILE).
# 2. clang-tidy 14 (.clang-tidy: the check set and why) on every .cc of src/
#    and models/ with BUILD_DIR's compile_commands.json, and on tb/fuzz/ with
#    that of $PTXFU_FUZZ_BUILD (default build-fuzz) when it exists. Any warning
#    in the project's own code fails.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
jobs=${PTXFU_JOBS:-2}
tidy=$(command -v clang-tidy-14 || command -v clang-tidy)
format=$(command -v clang-format-14 || command -v clang-format)
status=0

# 1. Formatting of the listed files.
while read -r f; do
  case $f in '' | '#'*) continue ;; esac
  if ! "$format" --dry-run --Werror "$f" 2>/dev/null; then
    echo "lint: $f is not clang-formatted (run: $format -i $f)" >&2
    status=1
  fi
done < .clang-format-files

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
tidy_files "$build" $(git ls-files 'src/*.cc' 'models/*.cc') || status=1
fuzz_build=${PTXFU_FUZZ_BUILD:-build-fuzz}
if [ -f "$fuzz_build/compile_commands.json" ]; then
  # shellcheck disable=SC2046
  tidy_files "$fuzz_build" $(git ls-files 'tb/fuzz/*.cc') || status=1
fi
if grep -E '(warning|error):' "$log" >&2; then status=1; fi
[ "$status" -eq 0 ] && echo "lint: clang-format and clang-tidy clean" >&2
exit "$status"
