#!/usr/bin/env bash
# Sets up this machine, builds Folio and builds the demo gallery (content/) into public/.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
swift build -c release --product folio
# The demo's photos without a date of their own are dated by the last commit, not by the moment
# this checkout wrote their files: every checkout of one commit builds the same site.
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || true)} .build/release/folio build --site .
echo
echo "The demo gallery is in public/. Open it straight from disk:"
echo "  file://$PWD/public/index.html"
