#!/usr/bin/env bash
# Sets up this machine and runs every test: unit, integration and CLI (swift test).
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

# XCTest only: Swift Testing would close the run with a "0 tests" line of its own.
results=$(mktemp)
set +e
swift test --skip-build --disable-swift-testing 2>&1 | tee "$results"
status=${PIPESTATUS[0]}
set -e
total=$(grep -E "^\s*Executed [0-9]+ tests?" "$results" | tail -n 1 | sed -E 's/^\s*Executed ([0-9]+) tests?, with ([0-9]+) failures?.*/\1 \2/')
if [ -n "$total" ]; then
  read -r ran failed <<<"$total"
  echo "swift test: $((ran - failed)) passed, $failed failed"
fi
exit "$status"
