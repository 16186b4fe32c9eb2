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
# The libraries folio opens itself when it needs them (FFmpeg's, at the first video) are named in
# its dlopen note, not among what it links. dpkg-shlibdeps is given beside it a stub that links
# them and calls the functions folio forwards to them (its own hidden functions of those names),
# so they are depended on too, at the versions those functions need; the stub is not packaged.
sonames=$(objcopy -O binary --only-section=.note.dlopen "$binary" /dev/stdout | tr -c '[:print:]' '\n' |
  grep -oE '"soname":\[[^]]*\]' | grep -oE '"lib[^"]+"' | tr -d '"' || true)
extra=()
if [ -n "$sonames" ]; then
  libraries=()
  for soname in $sonames; do
    # awk reads to the end: leaving early would kill ldconfig by SIGPIPE, and pipefail with it
    library=$(ldconfig -p | awk -v soname="$soname" '$1 == soname && !found { print $NF; found = 1 }')
    [ -n "$library" ] || { echo "error: $binary opens $soname, which is not installed here" >&2; exit 1; }
    libraries+=("$library")
  done
  functions=$(comm -12 <(readelf -Ws --wide "$binary" | awk '$4 == "FUNC" && $6 == "HIDDEN" { print $8 }' | sort -u) \
                       <(nm -D --defined-only "${libraries[@]}" | awk 'NF == 3 { sub(/@.*/, "", $3); print $3 }' | sort -u))
  stub="$root/usr/bin/folio-opens"
  { for function in $functions; do echo "void $function(void);"; done
    echo "void *const used[] = {"; for function in $functions; do echo "  (void *)$function,"; done; echo "};"
    echo "int main(void) { return used[0] == 0; }"; } > "$stage/opens.c"
  ${CC:-clang} -o "$stub" "$stage/opens.c" -Wl,--no-as-needed $(printf -- '-l:%s ' $sonames)
  extra=(-e"$stub")
fi
depends=$(cd "$stage/source" && dpkg-shlibdeps -O -e"$root/usr/bin/folio" "${extra[@]}" | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "error: dpkg-shlibdeps found no libraries in $binary" >&2; exit 1; }
rm -f "$root/usr/bin/folio-opens"

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
