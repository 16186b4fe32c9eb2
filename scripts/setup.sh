#!/usr/bin/env bash
# Installs everything Folio needs on a fresh Debian machine: the C libraries it links,
# the browser its tests drive, and the Python test tools. Safe to run again.
# The colour tests use real ICC profiles (colord-data, libgs-common) and lcms's own tools
# (liblcms2-utils: jpgicc, transicc) for the reference conversions; heif-enc (libheif-examples)
# writes them an AVIF with a profile.
# scripts/package-deb.sh (and its test) needs dpkg-dev for dpkg-shlibdeps, binutils for readelf and
# strip, and libxml2-dev: FoundationXML, linked in with the Swift runtime, links libxml2.
# The sharded-build test (Tests/Slurm) runs a one-node Slurm cluster of its own: slurmctld, slurmd,
# slurm-client (sbatch, sinfo, scontrol) and munge (its authentication). The packages' own services
# are not needed: the test starts the daemons itself.
# FFmpeg's libraries (libav*-dev) read and write videos; the ffmpeg command makes the tests' clips.
# LibRaw (libraw-dev) reads cameras' RAW files; the tests compare its development with rawpy's (PyPI).
# libarchive (libarchive-dev) reads Google Takeout's .zip and .tgz parts.
set -euo pipefail

packages=(
  pkg-config
  libgd-dev libsqlite3-dev libcurl4-openssl-dev libturbojpeg0-dev libjpeg-dev libexif-dev libtiff-dev
  libgeonames-dev
  libheif-dev libheif-examples libimage-exiftool-perl
  libraw-dev libarchive-dev
  liblcms2-dev zlib1g-dev libwebp-dev libssl-dev
  libcmark-dev
  libavformat-dev libavcodec-dev libswscale-dev libswresample-dev libavutil-dev ffmpeg
  liblcms2-utils colord-data libgs-common
  chromium chromium-driver
  default-jre-headless
  strace
  dpkg-dev binutils libxml2-dev
  slurmctld slurmd slurm-client munge
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
# A current axe-core 4 for the accessibility tests: axe-playwright-python ships one (axe.min.js);
# its Playwright is not needed, the tests drive Chromium through Selenium.
python3 -m pip install -q --disable-pip-version-check --no-deps axe-playwright-python
