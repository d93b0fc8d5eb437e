#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# kernel/vpa-dtl.c in a real Linux tree: Debian's linux-source-$KVER (7.3, or
# 6.12), with kernel/README's steps, cross-built for ppc64le with W=1, then
# checkpatch --strict (and sparse when installed). Trees cached in build/ktree.
set -eu
cd "$(dirname "$0")/../.."
. tests/kernel/tree.sh
top=$PWD/build/ktree/$kver
tree=$top/linux-source-$kver
out=$top/out
cross=${CROSS_COMPILE:-powerpc64le-linux-gnu-}
command -v "${cross}gcc" >/dev/null || { echo "cross.sh: ${cross}gcc missing (gcc-powerpc64le-linux-gnu)"; exit 1; }

if [ ! -f "$tree/.dtltop-patched" ]; then
	rm -rf "$top" && mkdir -p "$top"
	extract_tree "$tree"	# kernel/README, step 1: the patches (none from 6.18 on)
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
# 7.x wants a sparse that knows __typeof_unqual__; Debian 12's 0.6.4 does not
if [ -n "$sparse" ] && [ -x "$tree/scripts/checker-valid.sh" ] &&
	[ "$("$tree/scripts/checker-valid.sh" sparse -m64 2>/dev/null)" != 1 ]; then
	echo "cross.sh: $kver: sparse $(sparse --version) is too old for this tree; W=1 and checkpatch only"
	sparse=""
fi
rm -f "$out/arch/powerpc/perf/vpa-dtl.o"
mk W=1 $sparse arch/powerpc/perf/vpa-dtl.o 2>&1 | grep -v 'genksyms\|shift/reduce\|reduce/reduce\|counterexamples' | tee "$top/build.log"
[ -s "$top/build.log" ] && { echo "cross.sh: the build printed warnings"; exit 1; }
[ -f "$out/arch/powerpc/perf/vpa-dtl.o" ]
# The tree's Makefile (patched before 6.18) builds it as part of the tree, too.
grep -q 'vpa-dtl.o' "$tree/arch/powerpc/perf/Makefile"
# checkpatch --strict on the file: nothing that 7.3's own vpa-dtl.c does not
# have (the series keeps upstream's code where no fix touches it; each patch
# is checked on its own by scripts/patches.sh)
up=$PWD/build/ktree/upstream-7.3-vpa-dtl.c
[ -s "$up" ] || tar xOf "$(scripts/linux-source-7.3.sh)" --wildcards '*/arch/powerpc/perf/vpa-dtl.c' >"$up"
issues() {
	perl "$tree/scripts/checkpatch.pl" --no-tree --strict -q -f "$1" |
		awk '/^(CHECK|WARNING|ERROR):/ { m = $0; getline; getline; sub(/^\+/, ""); print m " | " $0 }' |
		sort
}
new=$(comm -23 <(issues kernel/vpa-dtl.c) <(issues "$up"))
[ -z "$new" ] || { printf 'cross.sh: checkpatch --strict: issues 7.3'"'"'s vpa-dtl.c does not have:\n%s\n' "$new"; exit 1; }
echo "cross.sh: $kver: vpa-dtl.o builds for ppc64le with W=1${sparse:+ and sparse}; checkpatch --strict adds nothing to 7.3's file"
