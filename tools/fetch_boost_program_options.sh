#!/usr/bin/env bash
# fetch_boost_program_options.sh: puts Boost.Program_options' sources in .deps/ (git-ignored), for
# machines whose image has Boost's headers but not this library (the GPU machine). Run it here,
# then name .deps in the device tool's `carry`; tools/device_run.sh builds the library from them.
# Uses Debian's source package of the Boost version the GPU machine has (1.83).
set -euo pipefail
cd "$(dirname "$0")/.."
version="${1:-1.83}"
target=.deps/boost_program_options
[[ -d "$target/src" ]] && { echo "already there: $target/src"; exit 0; }
list=/etc/apt/sources.list.d/plugbench-boost-src.sources
if ! apt-get source --print-uris "boost$version" >/dev/null 2>&1; then
  printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm trixie\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' >"$list"
  apt-get update -qq
fi
work="$(mktemp -d)"
(cd "$work" && apt-get source --download-only "boost$version" >/dev/null)
tar -xJf "$work"/boost"$version"_*.orig.tar.xz -C "$work" --wildcards '*/libs/program_options/src/*'
mkdir -p "$target"
cp -r "$work"/*/libs/program_options/src "$target/"
rm -rf "$work"
echo "Boost.Program_options $version sources in $target/src"
