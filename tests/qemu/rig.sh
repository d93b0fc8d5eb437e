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

# rig_reports LOG OUT: the kernel's reports in LOG (lockdep's and the others',
# all carrying one of these words) into OUT, empty when the log is clean.
# One is Linux 7.3's own, on every boot: with GENERIC_ENTRY, powerpc replays a
# timer interrupt that came while interrupts were soft-masked, and the replay's
# irqentry_exit calls trace_hardirqs_on while lockdep still counts the CPU in
# hardirq context, so lockdep warns and turns itself off. Which code unmasked
# interrupts varies (a slab unlock in start_kernel, an RCU self test in
# rest_init), so it is recognised by what it is, not by one call path: that
# check (DEBUG_LOCKS_WARN_ON(lockdep_hardirq_context()) in
# lockdep_hardirqs_on_prepare), reached from irqentry_exit of timer_interrupt,
# in the boot CPU's idle task (CPU#0: swapper/0/0), before "smp: Brought up"
# (kernel_init_freeable brings the other CPUs up before do_initcalls: no
# initcall of ours, nor any driver's, has run then). Only that report is set
# aside, once, and said on stderr; any other report, or that one later in
# the boot, fails the run.
# The other is upstream's, kept on purpose (kernel/upstream/fixes/
# cover-letter.txt): dtl_access_lock, an rwsem, is released by whichever
# task closes the last vpa_dtl event, and CONFIG_DEBUG_RWSEMS warns when that
# is not the task that took it. With LOCK, the lock's address (the booted
# vmlinux's dtl_access_lock), that warning is recognised by what it is, on
# any call path: DEBUG_RWSEMS's owner check in up_write, on that very rwsem.
# Every one is set aside and counted on stderr. Where lockdep runs (6.12) the
# same close draws its "bad unlock balance detected!" report, recognised the
# same way (lockdep names the lock: "trying to release lock
# (dtl_access_lock)"), set aside and said, with what it costs: lockdep is off
# from there on, which is why that scenario runs last.
rig_reports() {
	local kern='BUG:|WARNING:|INFO: (possible|inconsistent|suspicious|task)|DEBUG_LOCKS_WARN_ON|lockdep is turned off|sleeping function called|suspected memory leak|Oops|Kernel panic|Call Trace|list_(add|del) corruption'

	awk -v lock="${3:-}" '/^smp: Brought up / { smp = 1 }
		/^WARNING: bad unlock balance detected!$/ { ub = $0 "\n"; inub = 1; next }
		inub { ub = ub $0 "\n"; if ($0 ~ /^Call Trace:/) { inub = 0
			if (index(ub, "is trying to release lock (dtl_access_lock) at:")) unbal++
			else printf "%s", ub }
			next }
		/------------\[ cut here \]------------/ { blk = $0 "\n"; inblk = 1; next }
		inblk { blk = blk $0 "\n"; if ($0 ~ /---\[ end trace/) { inblk = 0
			if (!smp && !own && blk ~ /DEBUG_LOCKS_WARN_ON\(lockdep_hardirq_context\(\)\)/ &&
			    blk ~ /WARNING: [^\n]* at lockdep_hardirqs_on_prepare\+[^\n]*, CPU#0: swapper\/0\/0/ &&
			    blk ~ /\] irqentry_exit\+/ && blk ~ /\] timer_interrupt\+/) { own++ }
			else if (lock != "" && index(blk, "DEBUG_RWSEMS_WARN_ON((rwsem_owner(sem) != current)") &&
			    index(blk, "magic = 0x" lock ",") && blk ~ /WARNING: [^\n]* (at )?up_write\+/) { rw++ }
			else printf "%s", blk }
			next }
		{ print } END { if (own) print "set aside: the boot-time lockdep report of 7.3 itself (a replayed " \
			"timer interrupt in the boot CPU'"'"'s idle task, before any initcall)" > "/dev/stderr"
			if (rw) print "set aside: " rw " up_write() of dtl_access_lock by a task that did not " \
			"take it (upstream'"'"'s ownership, left out of the fixes: their cover letter)" > "/dev/stderr"
			if (unbal) print "set aside: lockdep'"'"'s bad unlock balance of dtl_access_lock (the same; " \
			"lockdep is off after it)" > "/dev/stderr"
			if (inub) printf "%s", ub }' \
		"$1" | grep -E "$kern" | grep -v '^FAIL: \|^PASS: ' >"$2"
}
# rig_lock VMLINUX: dtl_access_lock's address in it, for rig_reports
rig_lock() {
	"${CROSS_COMPILE:-powerpc64le-linux-gnu-}nm" "$1" 2>/dev/null | awk '$3 == "dtl_access_lock" { print $1; exit }'
}
