#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Build libperf (tools/lib/perf) into DIR, once: DIR/include/perf/*.h,
# DIR/libperf.a and DIR/libapi.a (static linking needs both). LINUX_SRC is
# a kernel source tree or its tarball (.tar.xz, .tar.bz2, .tar.gz), any 6.x;
# from a tarball only the nine paths libperf's build reads are extracted.
set -eu
dir=$1
src=${LINUX_SRC:-${LINUX_TARBALL:-}}
if [ -z "$src" ] || [ ! -e "$src" ]; then
	cat >&2 <<'MSG'
build-libperf.sh: no libperf and no kernel source to build it from. Either
  install libperf:        Fedora, RHEL: dnf install libperf-devel
  or a kernel source:     Debian: apt-get install linux-source-6.12
                          Ubuntu: apt-get install linux-source
                          SLES:   zypper install kernel-source
  or point at a tree:     make LINUX_SRC=/path/to/linux (or its .tar.xz)
MSG
	exit 1
fi
rm -rf "$dir" && mkdir -p "$dir/src"
abs=$(cd "$dir" && pwd)
paths="tools/lib/perf tools/lib/api tools/include tools/build tools/scripts
	tools/lib/str_error_r.c tools/lib/zalloc.c tools/arch/x86/include tools/arch/powerpc/include"
if [ -d "$src" ]; then
	[ -d "$src/tools/lib/perf" ] || { echo "build-libperf.sh: $src has no tools/lib/perf" >&2; exit 1; }
	for p in $paths; do
		mkdir -p "$dir/src/linux/$(dirname "$p")"
		cp -r "$src/$p" "$dir/src/linux/$p"
	done
	top=linux
else
	case $src in
	*.tar.xz) z=J ;; *.tar.bz2) z=j ;; *.tar.gz | *.tgz) z=z ;; *) z= ;;
	esac
	top=$(tar t${z}f "$src" | head -1 | cut -d/ -f1)
	# shellcheck disable=SC2086
	tar x${z}f "$src" -C "$dir/src" $(for p in $paths; do printf '%s/%s ' "$top" "$p"; done)
fi
# Its own flags and paths: dtltop's (-std=c11, -Werror, DESTDIR) or a packager's must not reach it.
env -u CFLAGS -u CPPFLAGS -u LDFLAGS -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u DESTDIR -u PREFIX \
	make -s -C "$dir/src/$top/tools/lib/perf" prefix="$abs/inst" install_lib install_headers >/dev/null
cp -r "$abs/inst/include" "$abs/include"
cp "$abs"/inst/lib*/libperf.a "$abs/libperf.a"
cp "$dir/src/$top/tools/lib/api/libapi.a" "$abs/libapi.a"
rm -rf "$dir/src" "$abs/inst"
touch "$abs/.built"
echo "build-libperf.sh: libperf from $src in $dir"
