#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make interop-check: upstream perf 7.3 (built statically for ppc64le from
# Debian's linux-source-7.3) against kernel/vpa-dtl.c in the QEMU rig, then
# the same files through dtltop on this host (tests/interop/check.sh).
# UPSTREAM=1 (make upstream-compare) boots the 7.3 tree's own vpa-dtl.c
# instead and runs only the count and AUX-full scenarios. INTEROP_DRIVER=FILE
# with INTEROP_NAME=NAME does the same for another driver file, in a kernel
# build of its own (make patches-boot: each step of the upstream series).
set -u
cd "$(dirname "$0")/../.."
. tests/qemu/rig.sh
upstream=${UPSTREAM:-0}
driver=${INTEROP_DRIVER:-}
[ -n "$driver" ] && upstream=1
top=$PWD/build/interop
name=$([ "$upstream" = 1 ] && echo upstream || echo ours)
[ -n "$driver" ] && name=${INTEROP_NAME:-series}
out=$top/$name
log=$top/console-$name.log
die() { echo "interop: $*" >&2; exit 1; }
for t in qemu-system-ppc64 powerpc64le-linux-gnu-gcc cpio base64; do
	command -v $t >/dev/null || die "$t missing (scripts/deps.sh interop installs it)"
done
perf=$(tests/interop/perf-build.sh) || die "upstream perf did not build"
if [ -n "$driver" ]; then
	KVER=7.3 tests/qemu/kernel.sh >/dev/null || die "the 7.3 tree did not build"
	vmlinux=$(KVER=7.3 KBUILD_SUFFIX=-series VPA_DTL_SRC="$driver" \
		timeout -k 5 1500 tests/qemu/kernel.sh) || die "the kernel with $driver did not build"
	KVER=7.3 tests/qemu/kernel.sh >/dev/null 2>&1
elif [ "$upstream" = 1 ]; then
	KVER=7.3 tests/qemu/kernel.sh >/dev/null || die "the 7.3 tree did not build"
	vmlinux=$(KVER=7.3 KBUILD_SUFFIX=-upstream VPA_DTL_SRC=build/qemu/linux-source-7.3/.upstream-vpa-dtl.c \
		timeout -k 5 1500 tests/qemu/kernel.sh) || die "the kernel with upstream's driver did not build"
	# the tree is shared: put our driver back for the next build
	KVER=7.3 tests/qemu/kernel.sh >/dev/null 2>&1
else
	vmlinux=$(KVER=7.3 timeout -k 5 1500 tests/qemu/kernel.sh) || die "the 7.3 test kernel did not build"
fi
make -s build/ppc64le/dtltop || die "dtltop did not cross-build"
bb=build/qemu/busybox
[ -x "$bb" ] || die "$bb missing: run make qemu-check once (it fetches busybox-static:ppc64el)"

root=$top/initramfs-$name
rm -rf "$root" && mkdir -p "$root"/{bin,proc,sys,dev,tmp,etc}
cp "$bb" "$root/bin/busybox"
for a in sh awk base64 cat dmesg echo grep gzip head kill mount poweroff seq sleep tail taskset tr wc yes \
	id mktemp od rm cp mkdir zcat uname printf test [ sed; do
	ln -s busybox "$root/bin/$a"
done
cp "$perf" "$root/bin/perf"
# the testers' script of the fixes' cover letter, run as a tester would
cp kernel/powervm-test.sh "$root/bin/powervm-test.sh"
cp tests/interop/init.sh "$root/init"
echo "UPSTREAM=$upstream" >"$root/etc/interop"
echo 'root:x:0:0::/:/bin/sh' >"$root/etc/passwd"
rig_pack "$root" "$top/initramfs-$name.cpio.gz"

echo "interop: booting 7.3 with $name driver (TCG, 4 vCPUs); console in $log" >&2
rig_boot "$vmlinux" "$top/initramfs-$name.cpio.gz" "$log" "${QEMU_TIMEOUT:-1200}" 2G
[ $? -eq 124 ] && die "QEMU timed out"
grep -q '^interop: done' "$log.txt" || die "the guest did not finish (see $log.txt)"
# the shipped files: base64 between BEGIN/END lines
rm -rf "$out" && mkdir -p "$out"
awk -v dir="$out" '/^BEGIN / { f = dir "/" $2 ".b64"; printf "" >f; next }
	/^END / { close(f); f = ""; next } f { print >>f }' "$log.txt"
for b in "$out"/*.b64; do
	base64 -d "$b" | gunzip >"${b%.b64}" || die "$(basename "$b"): damaged on the console"
	rm -f "$b"
done
grep -E '^(RECORDED|BUSY|FAIL|POWERVM-TEST|interop:|perf version)' "$log.txt" >"$out/guest.txt"
tests/interop/check.sh "$out" "$upstream"
