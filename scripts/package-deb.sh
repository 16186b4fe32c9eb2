#!/usr/bin/env bash
# Makes a Debian package of folio that installs without a compiler:
#   scripts/package-deb.sh [output folder, default .build-release]
# prints the path of folio_<version>_<arch>.deb. The Swift runtime is linked in
# (scripts/build-release.sh); the C libraries folio links stay shared, and the package's Depends
# names their Debian packages as dpkg-shlibdeps finds them from the binary itself, so apt installs
# them (apt install ./folio_0.9.0_amd64.deb). The theme goes to /usr/share/folio/templates, where
# folio looks beside its executable. Needs the Swift toolchain and what scripts/setup.sh installs
# (the libraries' -dev packages, dpkg-dev, binutils).
set -euo pipefail
cd "$(dirname "$0")/.."
output=$(mkdir -p "${1:-.build-release}" && cd "${1:-.build-release}" && pwd)

binary=$(bash scripts/build-release.sh)
version=$("$binary" --version | awk '{ print $2 }')
identity=$("$binary" --version | sed -E 's/^[^(]*\((.*)\)$/\1/')
arch=$(dpkg --print-architecture)
name="folio_${version}_${arch}"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root="$stage/$name"
install -d "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/folio" "$root/usr/share/doc/folio"
# Debug information would be most of the file; Swift's own metadata is not in what strip removes.
install -m 755 "$binary" "$root/usr/bin/folio"
strip --strip-debug "$root/usr/bin/folio"
cp -R templates "$root/usr/share/folio/templates"
chmod -R u=rwX,go=rX "$root/usr/share/folio/templates"
install -m 644 README.md "$root/usr/share/doc/folio/README.md"

# The libraries' packages, at the versions their symbols need, from dpkg's own records
# (dpkg-shlibdeps reads a debian/control, so it is given a minimal one).
mkdir -p "$stage/source/debian"
printf 'Source: folio\n\nPackage: folio\nArchitecture: any\n' > "$stage/source/debian/control"
depends=$(cd "$stage/source" && dpkg-shlibdeps -O -e"$root/usr/bin/folio" | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "error: dpkg-shlibdeps found no libraries in $binary" >&2; exit 1; }

cat > "$root/DEBIAN/control" <<CONTROL
Package: folio
Version: $version
Architecture: $arch
Maintainer: Folio developers <folio@localhost>
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: $depends
Section: graphics
Priority: optional
Description: static site generator for photo galleries
 Folio keeps a gallery's model in SQLite (people, photos, places, regions,
 favorites), fed from a content/ folder of photos and catalogs, and renders
 a fast, browsable static website with thumbnails and a page per photo.
 This build: $identity.
CONTROL

dpkg-deb --build --root-owner-group "$root" "$output/$name.deb" >&2
echo "$output/$name.deb"
