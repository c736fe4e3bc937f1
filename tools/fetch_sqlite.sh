#!/usr/bin/env bash
# fetch_sqlite.sh: puts SQLite's header and shared library in .deps/sqlite (git-ignored), for
# machines whose image has no libsqlite3-dev (the GPU machine); tools/device_run.sh builds against
# them (the harness finds the library through its build-tree rpath). Run it here, then name .deps
# in the device tool's `carry`.
set -euo pipefail
cd "$(dirname "$0")/.."
target=.deps/sqlite
[[ -f "$target/include/sqlite3.h" && -f "$target/lib/libsqlite3.so.0" ]] &&
  { echo "already there: $target"; exit 0; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download libsqlite3-dev libsqlite3-0 >/dev/null) ||
  { echo "fetch_sqlite: apt-get download libsqlite3-dev libsqlite3-0 failed (see above)" >&2; exit 1; }
for deb in "$work"/*.deb; do dpkg -x "$deb" "$work/root"; done
mkdir -p "$target/include" "$target/lib"
cp "$work"/root/usr/include/sqlite3*.h "$target/include/"
# A plain file under the soname: the library is found at run time through the rpath.
cp -L "$work"/root/usr/lib/x86_64-linux-gnu/libsqlite3.so.0 "$target/lib/"
echo "SQLite $(sed -n 's/#define SQLITE_VERSION *"\(.*\)"/\1/p' "$target/include/sqlite3.h") in $target"
