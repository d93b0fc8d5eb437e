#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make qemu-check: our driver and dtltop on an emulated pseries LPAR.
# Builds the test kernel (kernel.sh) and a static ppc64le dtltop, packs them
# with Debian's ppc64el busybox into an initramfs whose /init (init.sh) runs
# the scenarios, boots it under QEMU TCG with a hard timeout, and fails on a
# FAIL line, a missing PASS, or any kernel BUG, WARNING, lockdep report,
# sleep-in-atomic, kmemleak report or oops on the console. KVER=7.3 (the
# default) or 6.12 picks the kernel (tests/kernel/tree.sh). NOPMU=1 builds it
# without our driver, as RHEL, SLES and Ubuntu ship theirs (CONFIG_DTL, no
# vpa_dtl PMU), and runs the scenarios of such a kernel: who pays with debugfs.
# FIXES=1 builds it with the fixes series only (no features).
set -u
cd "$(dirname "$0")/../.."
. tests/qemu/rig.sh
top=$PWD/build/qemu
kver=${KVER:-7.3}
log=$top/console-$kver.log
timeout_s=${QEMU_TIMEOUT:-900}
scenarios="pmu_sysfs counts mask_cede mask_preempt mask_fault mask_all mask_cede,fault
tui_mask_keys busy_while_dtltop_runs dtltop_refused_names_the_holder auto_falls_back_to_the_vpa
vpa_dtl_idx_counts_every_entry debugfs_losses_from_the_vpa cycles_leave_nothing cpu_hotplug
aux_full_recovers who_pays check_with_pmu unprivileged kmemleak"
suffix=""
if [ -n "${NOPMU:-}" ]; then
	scenarios="no_pmu_auto_is_debugfs_with_tasks debugfs_who_pays debugfs_no_tasks_says_so check_without_pmu
kmemleak"
	suffix=-nopmu
	mkdir -p "$top"
	# an empty driver file: the kernel builds, and has no vpa_dtl PMU
	printf '// SPDX-License-Identifier: GPL-2.0-only\n/* test only: no vpa_dtl PMU */\n' >"$top/no-vpa-dtl.c"
	export VPA_DTL_SRC=$top/no-vpa-dtl.c KBUILD_SUFFIX=-nopmu
	log=$top/console-$kver$suffix.log
fi
# FIXES=1: the driver with the fixes series only (kernel/upstream/fixes/), as a
# distribution that takes fixes and not features ships it: dtltop must work
# there and say which driver it found
if [ -n "${FIXES:-}" ]; then
	suffix=-fixes		# every scenario: the VPA counts the losses the driver does not
	scripts/patches.sh write >/dev/null || { echo "qemu-check: make patches failed" >&2; exit 1; }
	mkdir -p "$top" && cp build/patches/vpa-dtl-fixes.c "$top/vpa-dtl-fixes.c"
	export VPA_DTL_SRC=$top/vpa-dtl-fixes.c KBUILD_SUFFIX=-fixes
	log=$top/console-$kver$suffix.log
fi
die() { echo "qemu-check: $*" >&2; exit 1; }
for t in qemu-system-ppc64 powerpc64le-linux-gnu-gcc cpio; do
	command -v $t >/dev/null || die "$t missing (scripts/deps.sh qemu installs it)"
done

vmlinux=$(KVER=$kver timeout -k 5 1500 tests/qemu/kernel.sh) || die "the test kernel did not build (or took over 25 minutes)"
make -s build/ppc64le/dtltop || die "dtltop did not cross-build"
mkdir -p "$top"
powerpc64le-linux-gnu-gcc -O2 -Wall -Wextra -Werror -static -o "$top/cycle" tests/qemu/cycle.c ||
	die "cycle.c did not build"
powerpc64le-linux-gnu-gcc -O2 -Wall -Wextra -Werror -static -o "$top/ttykeys" tests/qemu/ttykeys.c ||
	die "ttykeys.c did not build"

# busybox from Debian's ppc64el package, fetched once
bb=$top/busybox
if [ ! -x "$bb" ]; then
	scripts/ppc64el-sysroot.sh "$top/bbx" busybox-static >/dev/null ||
		die "could not fetch Debian's busybox-static for ppc64el"
	cp "$top/bbx/bin/busybox" "$bb"
fi
root=$top/initramfs
rm -rf "$root" && mkdir -p "$root"/{bin,proc,sys,dev,tmp,etc}
cp "$bb" "$root/bin/busybox"
for a in sh ash awk cat cut dd dmesg echo grep head hexdump kill ls mount poweroff seq su sleep tr wc uname \
	test \[ printf mkfifo mkdir taskset; do
	ln -s busybox "$root/bin/$a"
done
cp build/ppc64le/dtltop "$top/cycle" "$top/ttykeys" "$root/bin/"
# the TUI's terminal description (compiled terminfo is the same on every architecture)
mkdir -p "$root/lib/terminfo/x" && cp /lib/terminfo/x/xterm "$root/lib/terminfo/x/"
cp tests/qemu/init.sh "$root/init"
[ -n "${NOPMU:-}" ] && : >"$root/nopmu"
[ -n "${FIXES:-}" ] && : >"$root/fixes"
[ -n "${QEMU_DIAG:-}" ] && install -m 755 "$QEMU_DIAG" "$root/diag.sh"
echo 'root:x:0:0::/:/bin/sh' >"$root/etc/passwd"
echo 'user:x:1000:1000::/tmp:/bin/sh' >>"$root/etc/passwd"
rig_pack "$root" "$top/initramfs.cpio.gz"

echo "qemu-check: booting $kver (TCG, 4 vCPUs, timeout ${timeout_s}s); console in $log" >&2
rig_boot "$vmlinux" "$top/initramfs.cpio.gz" "$log" "$timeout_s" 1G kmemleak=on
rc=$?
grep -E '^(PASS|FAIL): |^dtltop-qemu: ' "$log.txt"
bad=0
[ $rc -eq 124 ] && { echo "qemu-check: QEMU timed out after ${timeout_s}s" >&2; bad=1; }
grep -q '^FAIL: ' "$log.txt" && bad=1
for s in $scenarios; do
	grep -qx "PASS: $s" "$log.txt" || { echo "qemu-check: no PASS for $s" >&2; bad=1; }
done
rig_reports "$log.txt" "$top/kernel-reports-$kver$suffix.txt" "$(rig_lock "$vmlinux")"
if [ -s "$top/kernel-reports-$kver$suffix.txt" ]; then
	echo "qemu-check: $kver: the kernel reported problems:" >&2
	head -40 "$top/kernel-reports-$kver$suffix.txt" >&2
	bad=1
fi
if grep -q 'DEBUG_LOCKS_WARN_ON' "$log.txt"; then
	echo "qemu-check: $kver: lockdep was off for this run (see above); the 6.12 run checks locking" >&2
fi
[ $bad -eq 0 ] && echo "qemu-check: $kver: all $(echo $scenarios | wc -w) scenarios passed, the kernel log is clean" >&2
exit $bad
