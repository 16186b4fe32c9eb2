#!/usr/bin/env bash
# Runs the XCTest suites of the debug build (`swift build --build-tests` first) in several processes
# at once, each test class whole in one of them, the slowest classes first: most tests wait on the
# programs, servers and disks they drive, so one process at a time leaves the cores idle.
#   scripts/xctest.sh [class ...]   (default: every class)
# FOLIO_TEST_JOBS says how many processes run at once (default 3). Each class's output is printed
# whole when it ends; the last line is "xctest: N passed, M failed" (a skipped test counts as
# passed, as swift test's "Executed N tests, with M failures" counts it). A class whose process dies
# counts each of its tests that did not pass as failed. The exit status is 1 if any test failed.
set -euo pipefail
cd "$(dirname "$0")/.."

bundle=.build/debug/FolioPackageTests.xctest
jobs=${FOLIO_TEST_JOBS:-3}
[ -x "$bundle" ] || { echo "error: $bundle is missing: run swift build --build-tests first" >&2; exit 1; }

# The classes that take longest go first, so none of them is left to run alone at the end.
slowest=(
  DiskFaultTests HostileInputTests IncrementalBuildTests ReproducibleBuildTests KillTests PublishTests
  SearchIndexScaleTests MapTests ImagingReferenceDecodeTests BuildTests FullDiskTests PublishCLITests
  TransparencyBuildTests ShardCLITests ExitStatusTests CLITests VideoBuildTests
)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# --list-tests names each test as Module.Class/method.
"$bundle" --list-tests | grep -E '^[A-Za-z0-9_]+\.[A-Za-z0-9_]+/[A-Za-z0-9_]+$' > "$work/tests"
if [ $# -gt 0 ]; then
  wanted=$(printf '%s\n' "$@")
  grep -F -f <(sed 's/.*/.&\//' <<<"$wanted") "$work/tests" > "$work/selected" || true
  mv "$work/selected" "$work/tests"
fi
[ -s "$work/tests" ] || { echo "error: no test to run" >&2; exit 1; }
{
  for name in "${slowest[@]}"; do grep -oE "^[A-Za-z0-9_]+\.$name/" "$work/tests" | head -n 1 || true; done
  cut -d/ -f1 "$work/tests" | sort -u | sed 's/$/\//'
} | awk '!seen[$0]++' | sed 's/\/$//' > "$work/classes"

# One class: its output to a file of its own, then printed whole (one class at a time, under a lock).
run_class() {
  local class=$1 log="$work/$1.log"
  local status=0
  "$bundle" --testing-library xctest "$class" > "$log" 2>&1 || status=$?
  local listed passed failed
  listed=$(grep -c "^$class/" "$work/tests" || true)
  passed=$(grep -cE "^Test Case '[^']+' (passed|skipped) \(" "$log" || true)
  failed=$((listed - passed))
  [ "$status" -eq 0 ] || [ "$failed" -gt 0 ] || failed=1
  echo "$passed $failed" > "$work/$class.count"
  {
    flock 9
    cat "$log"
    [ "$status" -eq 0 ] || echo "error: $class: the test process ended with status $status"
  } 9>"$work/print.lock"
}
export -f run_class
export bundle work

xargs -a "$work/classes" -P "$jobs" -I{} bash -c 'run_class "$1"' _ {}

passed=0
failed=0
while read -r class; do
  read -r p f < "$work/$class.count"
  passed=$((passed + p))
  failed=$((failed + f))
done < "$work/classes"
echo "xctest: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
