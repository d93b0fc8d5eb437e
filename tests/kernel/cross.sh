#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# kernel/vpa-dtl.c in a real Linux tree: Debian's linux-source-6.12, with
# kernel/README's steps, cross-built for ppc64le with W=1, then checkpatch
# --strict (and sparse when installed). The tree is cached in build/ktree.
set -eu
cd "$(dirname "$0")/../.."
tarball=${LINUX_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
top=$PWD/build/ktree
tree=$top/linux-source-6.12
out=$top/out
cross=${CROSS_COMPILE:-powerpc64le-linux-gnu-}
[ -f "$tarball" ] || { echo "cross.sh: $tarball missing (apt-get install linux-source-6.12)"; exit 1; }
command -v "${cross}gcc" >/dev/null || { echo "cross.sh: ${cross}gcc missing (gcc-powerpc64le-linux-gnu)"; exit 1; }

if [ ! -f "$tree/.dtltop-patched" ]; then
	rm -rf "$top" && mkdir -p "$top"
	echo "cross.sh: extracting $tarball"
	tar xf "$tarball" -C "$top"
	# kernel/README, step 2: the three patches, for a tree before 6.13.
	for p in kernel/patches/*.patch; do patch -s -d "$tree" -p1 <"$p"; done
	touch "$tree/.dtltop-patched"
fi
cp kernel/vpa-dtl.c "$tree/arch/powerpc/perf/vpa-dtl.c"
mk() { make -s -C "$tree" O="$out" ARCH=powerpc CROSS_COMPILE="$cross" "$@"; }
if [ ! -f "$out/.config" ]; then
	mk pseries_le_defconfig
	mk -j"$(nproc)" prepare
fi
grep -q '^CONFIG_HV_PERF_CTRS=y' "$out/.config" && grep -q '^CONFIG_PPC_SPLPAR=y' "$out/.config"
sparse=""
command -v sparse >/dev/null && sparse="C=1"
rm -f "$out/arch/powerpc/perf/vpa-dtl.o"
mk W=1 $sparse arch/powerpc/perf/vpa-dtl.o 2>&1 | grep -v 'genksyms\|shift/reduce\|reduce/reduce\|counterexamples' | tee "$top/build.log"
[ -s "$top/build.log" ] && { echo "cross.sh: the build printed warnings"; exit 1; }
[ -f "$out/arch/powerpc/perf/vpa-dtl.o" ]
# The patched Makefile builds it as part of the tree, too.
grep -q 'vpa-dtl.o' "$tree/arch/powerpc/perf/Makefile"
perl "$tree/scripts/checkpatch.pl" --no-tree --strict -q -f kernel/vpa-dtl.c
echo "cross.sh: vpa-dtl.o builds for ppc64le with W=1${sparse:+ and sparse}; checkpatch --strict is clean"
