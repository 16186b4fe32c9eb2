#!/usr/bin/env bash
# Installs everything Folio needs on a fresh Debian machine: the C libraries it links,
# the browser its tests drive, and the Python test tools. Safe to run again.
set -euo pipefail

packages=(
  pkg-config
  libgd-dev libsqlite3-dev libcurl4-openssl-dev libturbojpeg0-dev libjpeg-dev libexif-dev
  libgeonames-dev
  libimage-exiftool-perl
  chromium chromium-driver
  default-jre-headless
  strace
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q
  $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

python3 -m pip install -q --disable-pip-version-check -r "$(dirname "$0")/requirements-test.txt"
