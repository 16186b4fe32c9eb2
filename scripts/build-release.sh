#!/usr/bin/env bash
# Builds folio for installing: release, the Swift runtime linked in (--static-swift-stdlib), so it
# runs where there is no Swift toolchain, and `folio --version` naming the commit and the day.
# Prints the binary's path. Kept in .build-release, so building again costs only what changed.
# Used by scripts/package-deb.sh and scripts/install.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

# Which build this is (Package.swift gives it to Sources/CBuildIdentity).
commit=$(git rev-parse --short=7 HEAD)
[ -z "$(git status --porcelain --untracked-files=no)" ] || commit="$commit-modified"
export FOLIO_BUILD_IDENTITY="git $commit, built $(date -u +%Y-%m-%d)"

build=(swift build -c release --static-swift-stdlib --scratch-path "$PWD/.build-release" --product folio)
# The toolchain's static Foundation calls mktemp, which makes the linker say so on every build:
# that line is not about Folio, and is left out so a warning of Folio's own stands out.
"${build[@]}" 2>&1 | { grep -v "warning: the use of \`mktemp' is dangerous" || true; } >&2
binary="$("${build[@]}" --show-bin-path)/folio"

# It must need nothing from the toolchain: no search path into it, no Swift library.
toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swiftc)")")")
if readelf -d "$binary" | grep -E 'RUNPATH|RPATH' | grep -F "$toolchain" >&2; then
  echo "error: $binary looks for libraries in the toolchain ($toolchain)" >&2
  exit 1
fi
if ldd "$binary" | grep -E "libswift|libFoundation|libdispatch|libBlocksRuntime|$toolchain" >&2; then
  echo "error: $binary links the Swift runtime dynamically" >&2
  exit 1
fi
echo "$binary"
