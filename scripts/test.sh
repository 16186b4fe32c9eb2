#!/usr/bin/env bash
# Sets up this machine and runs every test: unit, integration and CLI (XCTest, several test classes
# at once: scripts/xctest.sh), then the browser tests (pytest over Tests/Browser, driving headless
# Chromium against the built folio) and the sharded build's on a one-node Slurm cluster the test
# starts (Tests/Slurm), then the Debian package's (Tests/Package: made, unpacked and run where the
# toolchain is hidden). The package's release build starts as soon as the debug build is done, at a
# low priority, so it takes only the time the tests leave the cores idle.
# The last line adds it all up: "total: N passed, M failed".
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh

# A warning is a defect: the build must print none.
log=$(mktemp)
swift build --build-tests 2>&1 | tee "$log"
if grep -E '(^|[^A-Za-z])warning:' "$log" >/dev/null; then
  echo "error: the build printed warnings (above)" >&2
  exit 1
fi

passed=0
failed=0

# The release build scripts/package-deb.sh makes (kept in .build-release), started now at the lowest
# priority; the package tests wait for it, and build it again (showing its errors) if it failed.
release_log=$(mktemp)
release=""
if [ "${FOLIO_SKIP_PACKAGE_TEST:-}" != "1" ]; then
  nice -n 19 bash scripts/build-release.sh >"$release_log" 2>&1 &
  release=$!
fi

# XCTest only, in several processes (FOLIO_TEST_JOBS, default 3): it ends with "xctest: N passed, M failed".
results=$(mktemp)
set +e
bash scripts/xctest.sh 2>&1 | tee "$results"
swift_status=${PIPESTATUS[0]}
set -e
total=$(grep -E "^xctest: [0-9]+ passed, [0-9]+ failed$" "$results" | tail -n 1 | sed -E 's/^xctest: ([0-9]+) passed, ([0-9]+) failed$/\1 \2/')
if [ -n "$total" ]; then
  read -r swift_passed swift_failed <<<"$total"
  echo "swift test: $swift_passed passed, $swift_failed failed"
  passed=$((passed + swift_passed))
  failed=$((failed + swift_failed))
elif [ "$swift_status" -ne 0 ]; then
  failed=$((failed + 1))  # it died before saying how many ran: count the run as one failure
fi

# pytest over `folders`; adds what it says to the totals. A status other than 0 with no failure
# counted (no test ran, or pytest itself failed) counts as one failure.
pytest_status=0
run_pytest() {
  local label=$1 out status summary suite_passed suite_failed
  shift
  out=$(mktemp)
  set +e
  PYTHONDONTWRITEBYTECODE=1 python3 -m pytest "$@" -q -p no:cacheprovider 2>&1 | tee "$out"
  status=${PIPESTATUS[0]}
  set -e
  summary=$(grep -E "^=*\s*[0-9]+ (passed|failed|errors?|skipped)" "$out" | tail -n 1 || true)
  suite_passed=$(grep -oE "[0-9]+ passed" <<<"$summary" | grep -oE "[0-9]+" || echo 0)
  suite_failed=$(( $(grep -oE "[0-9]+ failed" <<<"$summary" | grep -oE "[0-9]+" || echo 0) + $(grep -oE "[0-9]+ errors?" <<<"$summary" | grep -oE "[0-9]+" || echo 0) ))
  if [ "$status" -ne 0 ] && [ "$suite_failed" -eq 0 ]; then
    suite_failed=1
  fi
  echo "$label: $suite_passed passed, $suite_failed failed"
  passed=$((passed + suite_passed))
  failed=$((failed + suite_failed))
  [ "$status" -eq 0 ] || pytest_status=$status
}

# The browser and Slurm tests use the folio just built (.build/debug/folio) unless FOLIO_BINARY says otherwise.
run_pytest "browser and Slurm tests" Tests/Browser Tests/Slurm

# The package tests make the Debian package from the release build above and run it with the toolchain
# hidden; FOLIO_SKIP_PACKAGE_TEST=1 skips them, and pytest says so.
if [ -n "$release" ]; then
  wait "$release" || { echo "the release build failed; the package tests build it again:"; cat "$release_log"; }
fi
run_pytest "package tests" Tests/Package

echo "total: $passed passed, $failed failed"
if [ "$swift_status" -ne 0 ] || [ "$pytest_status" -ne 0 ]; then
  exit 1
fi
