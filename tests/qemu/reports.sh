#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# rig_reports (tests/qemu/rig.sh) on a real 7.3 console (tests/data/
# console-7.3-boot.txt, from tests/qemu/boots.sh): the boot-time lockdep
# report of 7.3 itself is set aside by what it is, whichever code unmasked
# the replayed timer interrupt; the same report anywhere else, twice, or on
# another CPU or task, and every other report, still fail the run. And
# upstream's dtl_access_lock released by another task, on that lock only.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
. tests/qemu/rig.sh
log=tests/data/console-7.3-boot.txt
reports() { rig_reports "$1" "$tmp/out" 2>"$tmp/aside"; [ -s "$tmp/out" ]; }

reports "$log" && fail "the boot-time report was not set aside: $(head -3 "$tmp/out")" || ok
grep -q 'set aside: the boot-time lockdep report of 7.3' "$tmp/aside" && ok || fail "setting aside was not said"
# another caller of the unmask (the issue's rest_init path): the same report
sed 's/start_kernel+/rest_init+/; s/vfs_caches_init/rcu_scheduler_starting/' "$log" >"$tmp/path.txt"
reports "$tmp/path.txt" && fail "another call path to the same report failed the run" || ok
# the same report after the secondary CPUs came up (initcalls may have run): fails
awk '/cut here/ { b = 1 } b { blk = blk $0 "\n" } !b { print } /end trace/ { b = 0 }
	/^smp: Brought up/ { printf "%s", blk }' "$log" >"$tmp/late.txt"
reports "$tmp/late.txt" && ok || fail "the report after 'smp: Brought up' was set aside"
# twice: lockdep turns off after the first, so a second is something else
awk '{ print } /cut here/ { b = 1 } b { blk = blk $0 "\n" } /end trace/ { b = 0; if (!n++) printf "%s", blk }' \
	"$log" >"$tmp/twice.txt"
reports "$tmp/twice.txt" && ok || fail "a second report was set aside"
# on another CPU, in another task, or another check of lockdep's
sed 's,CPU#0: swapper/0/0,CPU#1: swapper/1/0,' "$log" >"$tmp/cpu.txt"
reports "$tmp/cpu.txt" && ok || fail "the report on CPU 1 was set aside"
sed 's/lockdep_hardirq_context()/!lockdep_enabled()/' "$log" >"$tmp/check.txt"
reports "$tmp/check.txt" && ok || fail "another lockdep check was set aside"
sed '/\] timer_interrupt+/d' "$log" >"$tmp/irq.txt"
reports "$tmp/irq.txt" && ok || fail "a report not from a timer interrupt's exit was set aside"
# upstream's dtl_access_lock released by another task (tests/data/console-7.3-rwsem.txt,
# a forked child closing the last event): set aside on that lock, by what it is
rw=tests/data/console-7.3-rwsem.txt
lock=c0000000007fc080
rig_reports "$rw" "$tmp/out" $lock 2>"$tmp/aside"
[ ! -s "$tmp/out" ] && grep -q 'set aside: 1 up_write() of dtl_access_lock' "$tmp/aside" && ok ||
	fail "the dtl_access_lock warning was not set aside: $(head -3 "$tmp/out")"
cat "$rw" "$rw" >"$tmp/rw2.txt"
rig_reports "$tmp/rw2.txt" "$tmp/out" $lock 2>"$tmp/aside"
[ ! -s "$tmp/out" ] && grep -q 'set aside: 2 up_write()' "$tmp/aside" && ok || fail "a second one was not counted"
sed 's/\] __free_event+/] perf_event_exit_task+/' "$rw" >"$tmp/rwpath.txt"
rig_reports "$tmp/rwpath.txt" "$tmp/out" $lock 2>/dev/null
[ ! -s "$tmp/out" ] && ok || fail "another call path to the same warning failed the run"
rig_reports "$rw" "$tmp/out" c0000000007fc088 2>/dev/null
[ -s "$tmp/out" ] && ok || fail "the warning on another rwsem was set aside"
rig_reports "$rw" "$tmp/out" 2>/dev/null
[ -s "$tmp/out" ] && ok || fail "the warning was set aside with no lock address"
sed 's/at up_write+/at down_write+/' "$rw" >"$tmp/rwdown.txt"
rig_reports "$tmp/rwdown.txt" "$tmp/out" $lock 2>/dev/null
[ -s "$tmp/out" ] && ok || fail "another rwsem check was set aside"
# 6.12 words its WARNING line otherwise ("WARNING: CPU: 2 PID: 405 at FILE:LINE up_write+")
rig_reports tests/data/console-6.12-rwsem.txt "$tmp/out" c0000000007867b8 2>"$tmp/aside"
[ ! -s "$tmp/out" ] && grep -q 'set aside: 1 up_write()' "$tmp/aside" && ok ||
	fail "6.12's dtl_access_lock warning was not set aside: $(head -3 "$tmp/out")"
# and lockdep's report of the same close where lockdep runs (6.12), by the lock it names
ub=tests/data/console-6.12-unlock.txt
rig_reports "$ub" "$tmp/out" 2>"$tmp/aside"
[ ! -s "$tmp/out" ] && grep -q "set aside: lockdep's bad unlock balance of dtl_access_lock" "$tmp/aside" && ok ||
	fail "lockdep's dtl_access_lock report was not set aside: $(head -3 "$tmp/out")"
sed 's/release lock (dtl_access_lock)/release lock (dtl_global_lock)/' "$ub" >"$tmp/ub2.txt"
rig_reports "$tmp/ub2.txt" "$tmp/out" 2>/dev/null
[ -s "$tmp/out" ] && grep -q 'bad unlock balance' "$tmp/out" && ok || fail "another lock's unlock imbalance was set aside"
sed '/^Call Trace:/,$d' "$ub" >"$tmp/ub3.txt"
rig_reports "$tmp/ub3.txt" "$tmp/out" 2>/dev/null
[ -s "$tmp/out" ] && ok || fail "a report cut before its trace was set aside"
# any other report, anywhere
printf 'BUG: sleeping function called from invalid context at mm/slub.c:1\n' >>"$tmp/path.txt"
reports "$tmp/path.txt" && grep -q 'sleeping function' "$tmp/out" && ok || fail "another report was lost"
finish
