# SPDX-License-Identifier: GPL-2.0-only
# Sourced by tests/qemu/run.sh and tests/interop/run.sh: the one way the rig
# packs an initramfs and boots a pseries kernel under QEMU TCG.

# rig_pack ROOT OUT: ROOT as a gzipped newc initramfs, with the guests' shared
# helpers (tests/qemu/fhv.sh as /fhv.sh)
rig_pack() {
	cp tests/qemu/fhv.sh "$1/fhv.sh"
	(cd "$1" && find . | cpio -o -H newc --quiet | gzip -1) >"$2"
}

# rig_boot VMLINUX INITRD LOG TIMEOUT MEMORY [KERNEL ARGS...]: 4 vCPUs, the
# console in LOG and, without CRs, LOG.txt; returns QEMU's status (124: timeout)
rig_boot() {
	local vmlinux=$1 initrd=$2 log=$3 secs=$4 mem=$5 rc
	shift 5
	timeout "$secs" qemu-system-ppc64 -M pseries -cpu POWER9 -m "$mem" -smp 4 -nographic \
		-vga none -nic none -no-reboot -kernel "$vmlinux" -initrd "$initrd" \
		-append "console=hvc0 slab_nomerge slub_debug=FZPU,dtl panic=-1 $*" </dev/null >"$log" 2>&1
	rc=$?
	tr -d '\r' <"$log" >"$log.txt"
	return $rc
}
