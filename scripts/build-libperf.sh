#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Build libperf (tools/lib/perf) from Debian's kernel source package into DIR,
# once: DIR/include/perf/*.h, DIR/libperf.a and DIR/libapi.a (static linking
# needs both). Only the nine paths libperf's build reads are extracted.
set -eu
dir=$1
tarball=${LINUX_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
[ -f "$tarball" ] || { echo "build-libperf.sh: $tarball missing (apt-get install linux-source-6.12)" >&2; exit 1; }
rm -rf "$dir" && mkdir -p "$dir/src"
top=$(basename "$tarball" .tar.xz)
tar xf "$tarball" -C "$dir/src" \
	"$top/tools/lib/perf" "$top/tools/lib/api" "$top/tools/include" "$top/tools/build" \
	"$top/tools/scripts" "$top/tools/lib/str_error_r.c" "$top/tools/lib/zalloc.c" \
	"$top/tools/arch/x86/include" "$top/tools/arch/powerpc/include"
abs=$(cd "$dir" && pwd)
make -s -C "$dir/src/$top/tools/lib/perf" prefix="$abs/inst" install_lib install_headers >/dev/null
cp -r "$abs/inst/include" "$abs/include"
cp "$abs"/inst/lib*/libperf.a "$abs/libperf.a"
cp "$dir/src/$top/tools/lib/api/libapi.a" "$abs/libapi.a"
rm -rf "$dir/src" "$abs/inst"
touch "$abs/.built"
echo "build-libperf.sh: libperf from $tarball in $dir"
