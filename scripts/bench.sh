#!/usr/bin/env bash
# The benchmark: makes its own photo corpus (in bench/, git-ignored) and times folio build on it,
# beside sigal. Arguments go to folio-bench (see --help), e.g. --small --photos 10000.
# The folio timed is the one the package installs (scripts/build-release.sh: release, the Swift
# runtime linked in, whose calls into it are direct rather than through the PLT), unless --folio
# names another.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
python3 -m pip install -q --disable-pip-version-check sigal || echo "sigal could not be installed; folio runs alone" >&2
swift build -c release --product folio-bench
folio=()
[[ " $* " == *" --folio "* || " $* " == *" --folio="* ]] || folio=(--folio "$(bash scripts/build-release.sh)")
exec .build/release/folio-bench "${folio[@]}" "$@"
