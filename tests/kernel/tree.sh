# SPDX-License-Identifier: GPL-2.0-only
# Sourced by cross.sh and tests/qemu/kernel.sh: which Linux tree KVER names
# (7.3, the default, or 6.12), where its tarball comes from, and which of
# kernel/patches it takes (kernel/README, step 1).
#   kver     the version, checked
#   tarball  Debian's linux-source-$kver tarball (7.3 is fetched on first use)
#   patches  the kernel/patches files the tree needs
kver=${KVER:-7.3}
case $kver in
6.12)
	tarball=${LINUX_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
	[ -f "$tarball" ] || { echo "$0: $tarball missing (apt-get install linux-source-6.12)" >&2; exit 1; }
	# before 6.18: boot_tb and the Makefile line; before 6.13: hrtimer_setup()
	patches=$(ls kernel/patches/*.patch) ;;
7.3)
	tarball=${LINUX_TARBALL:-$(scripts/linux-source-7.3.sh)} || exit 1
	# 6.18 and later have all three; our file replaces upstream's
	patches="" ;;
*)
	echo "$0: KVER=$kver: 6.12 or 7.3" >&2; exit 1 ;;
esac

# extract_tree TREE: the tarball's tree at TREE, with the patches of step 1
# (kernel/README) applied; an old TREE is removed first
extract_tree() {
	local x
	x=$(dirname "$1")/x
	echo "$(basename "$0"): extracting $tarball" >&2
	rm -rf "$1" "$x" && mkdir -p "$x" && tar xf "$tarball" -C "$x" && mv "$x"/linux-source-* "$1" &&
		rmdir "$x" || exit 1
	for p in $patches; do patch -s -d "$1" -p1 <"$p" || exit 1; done
}
