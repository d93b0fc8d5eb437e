#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Upstream perf (tools/perf of Debian's linux-source-7.3), built statically for
# ppc64le so that it runs in the QEMU rig's busybox initramfs. Optional features
# off; libelf, zlib and zstd from the ppc64el -dev packages in build/ppc64el/sysroot. Prints
# the path of the binary. About 8 minutes from scratch on 2 cores.
set -eu
cd "$(dirname "$0")/../.."
KVER=7.3
. tests/kernel/tree.sh
top=$PWD/build/interop
src=$top/linux-source-$kver
out=$top/perf
cross=${CROSS_COMPILE:-powerpc64le-linux-gnu-}
die() { echo "perf-build.sh: $*" >&2; exit 1; }
sysroot=$PWD/build/ppc64el/sysroot
make -s build/ppc64el/sysroot/.done || die "no ppc64el sysroot (scripts/ppc64el-sysroot.sh)"
multi=$sysroot/usr/lib/powerpc64le-linux-gnu
for f in libelf.a libz.a libzstd.a; do
	[ -f "$multi/$f" ] || die "$multi/$f missing (the Makefile's PPC_PKGS lists the ppc64el -dev packages)"
done
[ -x "$out/perf" ] && { echo "$out/perf"; exit 0; }
if [ ! -d "$src/tools/perf" ]; then
	echo "perf-build.sh: extracting tools/ of $tarball" >&2
	rm -rf "$src" "$top/x" && mkdir -p "$top/x"
	# perf needs tools/, scripts/ and a few headers of the tree, not the drivers
	tar xf "$tarball" -C "$top/x" --wildcards '*/tools/*' '*/scripts/*' '*/include/*' \
		'*/arch/powerpc/*' '*/arch/x86/*' '*/Makefile' '*/lib/*'
	mv "$top"/x/linux-source-* "$src"
fi
# perf's static feature tests link -lelf alone; libelf.a needs zlib and zstd,
# so a linker script of that name, first on the path, pulls them in
mkdir -p "$top/lib"
echo "GROUP($multi/libelf.a $multi/libz.a $multi/libzstd.a)" >"$top/lib/libelf.a"
mkdir -p "$out"
make -s -C "$src/tools/perf" O="$out" ARCH=powerpc CROSS_COMPILE="$cross" \
	LDFLAGS="-static -L$top/lib" EXTRA_CFLAGS="-Wno-error -I$sysroot/usr/include" WERROR=0 \
	NO_LIBPYTHON=1 NO_LIBPERL=1 NO_LIBBPF=1 BUILD_BPF_SKEL=0 NO_SLANG=1 NO_GTK2=1 \
	NO_LIBDW=1 NO_LIBUNWIND=1 NO_LIBNUMA=1 NO_LIBTRACEEVENT=1 NO_JVMTI=1 NO_LIBPFM4=1 \
	NO_LIBDEBUGINFOD=1 NO_CAPSTONE=1 NO_LZMA=1 NO_BABELTRACE2=1 NO_SDT=1 NO_SHELLCHECK=1 \
	NO_LIBCRYPTO=1 NO_DEMANGLE=1 NO_BACKTRACE=1 NO_LIBLLVM=1 NO_LIBBFD=1 NO_RUST=1 \
	-j"$(nproc)" perf >"$top/build.log" 2>&1 || { tail -n 30 "$top/build.log" >&2; die "the build failed (log: $top/build.log)"; }
file "$out/perf" 2>/dev/null | grep -q 'statically linked' || die "$out/perf is not static"
echo "$out/perf"
