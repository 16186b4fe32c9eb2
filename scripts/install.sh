#!/usr/bin/env bash
# Installs folio and its default theme under a prefix (default /usr/local):
#   <prefix>/bin/folio and <prefix>/share/folio/templates, where folio looks for its theme.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${1:-/usr/local}"

swift build -c release --product folio
install -d "$prefix/bin" "$prefix/share/folio"
install -m 755 .build/release/folio "$prefix/bin/folio"
rm -rf "$prefix/share/folio/templates"
cp -R templates "$prefix/share/folio/templates"
echo "Installed $prefix/bin/folio"
