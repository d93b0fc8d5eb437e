#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The test kernel: Debian's linux-source-$KVER (7.3 by default, or 6.12) with
# kernel/ put in exactly as kernel/README says, plus the fake hypervisor
# (fake-hv-dtl.patch and .c, test only), configured from tinyconfig +
# kernel.config. Prints the path of the vmlinux. Incremental: a second run
# rebuilds only what changed. VPA_DTL_SRC= builds another driver file
# (make upstream-compare: the tree's own) in a tree of its own.
set -eu
cd "$(dirname "$0")/../.."
. tests/kernel/tree.sh
top=$PWD/build/qemu
tree=$top/linux-source-$kver
out=$top/kbuild-$kver${KBUILD_SUFFIX:-}
cross=${CROSS_COMPILE:-powerpc64le-linux-gnu-}

if [ ! -f "$tree/.dtltop-patched" ]; then
	mkdir -p "$top"
	extract_tree "$tree"	# kernel/README, step 1: the patches the version needs
	# make upstream-compare builds the tree's own driver, kept aside here
	[ -f "$tree/arch/powerpc/perf/vpa-dtl.c" ] && cp "$tree/arch/powerpc/perf/vpa-dtl.c" "$tree/.upstream-vpa-dtl.c"
	# test only: the hook in register_dtl() and the fake's Makefile line
	patch -s -d "$tree" -p1 <tests/qemu/fake-hv-dtl.patch
	touch "$tree/.dtltop-patched"
fi
# kernel/README step 2 (cmp first: an unchanged file keeps its timestamp)
put() { cmp -s "$1" "$2" || cp "$1" "$2"; }
put "${VPA_DTL_SRC:-kernel/vpa-dtl.c}" "$tree/arch/powerpc/perf/vpa-dtl.c"
put tests/qemu/fake-hv-dtl.c "$tree/arch/powerpc/platforms/pseries/fake-hv-dtl.c"
mk() { make -s -C "$tree" O="$out" ARCH=powerpc CROSS_COMPILE="$cross" "$@"; }
mkdir -p "$out"
if ! cmp -s tests/qemu/kernel.config "$out/.dtltop-fragment"; then
	echo "kernel.sh: configuring (tinyconfig + tests/qemu/kernel.config)" >&2
	mk tinyconfig >/dev/null
	"$tree/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" tests/qemu/kernel.config >/dev/null
	mk olddefconfig >/dev/null
	# every =y of the fragment must have survived olddefconfig
	missing=""
	while IFS= read -r l; do
		case "$l" in CONFIG_*=y) grep -qx "$l" "$out/.config" || missing="$missing ${l%=y}";; esac
	done <tests/qemu/kernel.config
	[ -z "$missing" ] || { echo "kernel.sh: not set after olddefconfig:$missing" >&2; exit 1; }
	cp tests/qemu/kernel.config "$out/.dtltop-fragment"
fi
echo "kernel.sh: building vmlinux (about 6 minutes from scratch on 2 cores)" >&2
mk -j"$(nproc)" vmlinux 2>&1 | { grep -v 'shift/reduce\|reduce/reduce\|counterexamples' >&2 || true; }
# make's own word, not timestamps: a reconfigure that changed nothing rebuilds nothing
[ "${PIPESTATUS[0]}" -eq 0 ] && [ -f "$out/vmlinux" ] || { echo "kernel.sh: no vmlinux" >&2; exit 1; }
echo "$out/vmlinux"
