#!/usr/bin/env bash
# Sets up this machine and runs every test: unit, integration and CLI (swift test), then the
# browser tests (pytest over Tests/Browser, driving headless Chromium against the built folio), the
# Debian package's (Tests/Package: made, unpacked and run where the toolchain is hidden) and the
# sharded build's on a one-node Slurm cluster the test starts (Tests/Slurm).
# The last line adds both up: "total: N passed, M failed".
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

# XCTest only: Swift Testing would close the run with a "0 tests" line of its own.
results=$(mktemp)
set +e
swift test --skip-build --disable-swift-testing 2>&1 | tee "$results"
swift_status=${PIPESTATUS[0]}
set -e
total=$(grep -E "^\s*Executed [0-9]+ tests?" "$results" | tail -n 1 | sed -E 's/^\s*Executed ([0-9]+) tests?, with ([0-9]+) failures?.*/\1 \2/')
if [ -n "$total" ]; then
  read -r ran swift_failed <<<"$total"
  echo "swift test: $((ran - swift_failed)) passed, $swift_failed failed"
  passed=$((passed + ran - swift_failed))
  failed=$((failed + swift_failed))
elif [ "$swift_status" -ne 0 ]; then
  failed=$((failed + 1))  # it died before saying how many ran: count the run as one failure
fi

# The browser tests use the folio just built (.build/debug/folio) unless FOLIO_BINARY says otherwise.
# The package tests make the Debian package (a release build in .build-release, reused by the next
# run) and run it with the toolchain hidden; FOLIO_SKIP_PACKAGE_TEST=1 skips them, and pytest says so.
browser=$(mktemp)
set +e
PYTHONDONTWRITEBYTECODE=1 python3 -m pytest Tests/Browser Tests/Package Tests/Slurm -q -p no:cacheprovider 2>&1 | tee "$browser"
pytest_status=${PIPESTATUS[0]}
set -e
summary=$(grep -E "^=*\s*[0-9]+ (passed|failed|errors?|skipped)" "$browser" | tail -n 1 || true)
browser_passed=$(grep -oE "[0-9]+ passed" <<<"$summary" | grep -oE "[0-9]+" || echo 0)
browser_failed=$(( $(grep -oE "[0-9]+ failed" <<<"$summary" | grep -oE "[0-9]+" || echo 0) + $(grep -oE "[0-9]+ errors?" <<<"$summary" | grep -oE "[0-9]+" || echo 0) ))
if [ "$pytest_status" -ne 0 ] && [ "$browser_failed" -eq 0 ]; then
  browser_failed=1  # no test ran, or pytest itself failed
fi
echo "browser and package tests: $browser_passed passed, $browser_failed failed"
passed=$((passed + browser_passed))
failed=$((failed + browser_failed))

echo "total: $passed passed, $failed failed"
if [ "$swift_status" -ne 0 ] || [ "$pytest_status" -ne 0 ]; then
  exit 1
fi
