#!/usr/bin/env bash
# Installs folio and its default theme under a prefix (default /usr/local):
#   <prefix>/bin/folio and <prefix>/share/folio/templates, where folio looks for its theme.
# Built as the Debian package's is (scripts/build-release.sh: the Swift runtime linked in), so it
# keeps working without the toolchain; the C libraries it links stay shared (see the README).
# On Debian, scripts/package-deb.sh and apt install do the same and track the libraries.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${1:-/usr/local}"

binary=$(bash scripts/build-release.sh)
install -d "$prefix/bin" "$prefix/share/folio"
install -m 755 "$binary" "$prefix/bin/folio"
strip --strip-debug "$prefix/bin/folio"
rm -rf "$prefix/share/folio/templates"
cp -R templates "$prefix/share/folio/templates"
echo "Installed $prefix/bin/folio ($("$prefix/bin/folio" --version))"
