#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/qemu/boots.sh [N]: boot the test kernel N times (10) to an /init that
# only powers off, and judge each console as qemu-check does (rig_reports):
# how a report that comes now and then is found, and its fix proved by
# repetition. KVER as for run.sh. Exits 1 if any boot's log is not clean.
set -u
cd "$(dirname "$0")/../.."
. tests/qemu/rig.sh
top=$PWD/build/qemu
kver=${KVER:-7.3}
n=${1:-10}
vmlinux=$(KVER=$kver timeout -k 5 1500 tests/qemu/kernel.sh) || { echo "boots.sh: no kernel" >&2; exit 1; }
bb=$top/busybox
if [ ! -x "$bb" ]; then
	scripts/ppc64el-sysroot.sh "$top/bbx" busybox-static >/dev/null || exit 1
	cp "$top/bbx/bin/busybox" "$bb"
fi
root=$top/boots-root
rm -rf "$root" && mkdir -p "$root"/{bin,proc,sys,dev}
cp "$bb" "$root/bin/busybox"
for a in sh echo mount poweroff; do ln -s busybox "$root/bin/$a"; done
printf '#!/bin/sh\nexport PATH=/bin\necho "dtltop-qemu: booted"\npoweroff -f\n' >"$root/init"
chmod +x "$root/init"
rig_pack "$root" "$top/boots.cpio.gz"
bad=0 aside=0
for i in $(seq "$n"); do
	log=$top/boot-$kver-$i.log
	rig_boot "$vmlinux" "$top/boots.cpio.gz" "$log" 300 1G kmemleak=on
	rc=$?
	rig_reports "$log.txt" "$log.reports" 2>"$log.aside"
	grep -q 'set aside' "$log.aside" && aside=$((aside + 1))
	if [ $rc -eq 124 ] || ! grep -q '^dtltop-qemu: booted' "$log.txt" || [ -s "$log.reports" ]; then
		bad=$((bad + 1))
		echo "boots.sh: boot $i of $kver: $([ -s "$log.reports" ] && head -3 "$log.reports" | tr '\n' ' ' ||
			echo "did not reach /init (rc $rc)")" >&2
	fi
done
echo "boots.sh: $kver booted $n times: $((n - bad)) clean, $bad not; the boot-time lockdep report of 7.3 set aside in $aside"
[ $bad -eq 0 ]
