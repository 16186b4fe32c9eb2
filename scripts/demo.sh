#!/usr/bin/env bash
# Sets up this machine, builds Folio and builds the demo gallery (content/) into public/.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
swift build -c release --product folio
.build/release/folio build --site .
echo
echo "The demo gallery is in public/. Open it straight from disk:"
echo "  file://$PWD/public/index.html"
