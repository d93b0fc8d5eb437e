#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# powervm-test.sh - evidence for the vpa_dtl fixes (kernel/upstream/) from a
# PowerVM shared-processor LPAR, to paste with a Tested-by:.
#
#   sh powervm-test.sh [-s SECONDS] [-o DIR] [--crash-checks]
#
# Run as root on a kernel with the series, with perf installed; about a minute
# at the default -s 10. Each check prints PASS, FAIL, INFO or SKIP with its
# figures, then the report ends with the lines to paste. What it checks:
#
#   splat     no "sleeping function called from invalid context" (or other
#             BUG/WARNING/Oops) in the kernel log while it records
#   steal     steal time advances after a recording as before it (under
#             VIRT_CPU_ACCOUNTING_NATIVE 7.3.4 stops it until reboot), with
#             every CPU busy so that the LPAR asks for more than its share
#   exclusion vcpudispatch_stats is refused while recording and taken after
#   header    the boot timebase record's padding is zero (7.3.4 copies 24
#             bytes of kernel stack there)
#   losses    a 1 ms and a 1 s poll period over the same load: what the slow
#             one lost (an 85-entry DTL laps) is flagged in its AUX records
#             where the kernel has the features series, and perf says so
#   features  whether the driver takes mask 0x3 (the features series)
#
# --crash-checks adds what would crash (or corrupt) a kernel without the
# fixes: a task-bound event, which must be refused. Off by default.
#
# Nothing is left changed: vcpudispatch_stats is switched back off, the load
# is stopped, the recordings are removed unless -o keeps them.
set -u
secs=10
keep=""
crash=0
while [ $# -gt 0 ]; do
	case $1 in
	-s) secs=${2:?-s SECONDS}; shift ;;
	-o) keep=${2:?-o DIR}; shift ;;
	--crash-checks) crash=1 ;;
	-h | --help) sed -n '2,30p' "$0"; exit 0 ;;
	*) echo "powervm-test.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
	esac
	shift
done
case $secs in '' | *[!0-9]*) echo "powervm-test.sh: -s wants whole seconds, not '$secs'" >&2; exit 2 ;; esac

die() { echo "powervm-test.sh: $*" >&2; exit 2; }
[ "$(id -u)" = 0 ] || die "run it as root (perf opens CPU-wide events; vcpudispatch_stats is root's)"
command -v perf >/dev/null || die "perf is not installed"
PMU=/sys/bus/event_source/devices/vpa_dtl
[ -r $PMU/type ] || die "no $PMU: this kernel has no vpa_dtl PMU (6.18 or later, CONFIG_PPC_SPLPAR)"
work=$(mktemp -d /tmp/powervm-test.XXXXXX) || die "no temporary directory"
load_pids=""
stop_load() {
	for p in $load_pids; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	load_pids=""
}
cleanup() {
	stop_load
	[ -w /proc/powerpc/vcpudispatch_stats ] && echo 0 >/proc/powerpc/vcpudispatch_stats 2>/dev/null
	if [ -n "$keep" ]; then mkdir -p "$keep" && cp "$work"/* "$keep"/ 2>/dev/null; fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ncpu=$(grep -c '^processor' /proc/cpuinfo)
results=""
say() {	# STATE CHECK TEXT
	printf '%-5s %-9s %s\n' "$1" "$2" "$3"
	results="$results$1 $2
"
}
# busy on every CPU for the LPAR to want more than its entitlement
start_load() {
	i=0
	while [ $i -lt "$ncpu" ]; do
		(while :; do :; done) &
		load_pids="$load_pids $!"
		i=$((i + 1))
	done
}
# steal: the sum over CPUs of /proc/stat's 8th field, in USER_HZ ticks
steal() { awk '/^cpu[0-9]/ { s += $9 } END { print s + 0 }' /proc/stat; }
klog_lines() { dmesg 2>/dev/null | wc -l; }
# rec FILE SECONDS PERF-OPTIONS...: record CPU-wide for SECONDS
rec() {
	f=$1 t=$2
	shift 2
	perf record -q -a -o "$f" "$@" -- sleep "$t" >"$f.out" 2>&1
}
# dump FILE: perf report -D of FILE into FILE.dump (stderr FILE.dump.err), once
dump() { [ -e "$1.dump" ] || perf report -D -i "$1" >"$1.dump" 2>"$1.dump.err"; }
# entries FILE: the DTL entries perf decodes from FILE
entries() { dump "$1"; grep -c 'dispatch_reason:' "$1.dump"; }
# gaps FILE: perf's "AUX data had gaps in it N times"
gaps() {
	dump "$1"
	grep -o 'gaps in it [0-9]* times' "$1.dump.err" | awk '{ print $4 } END { if (!NR) print 0 }' | head -n1
}

echo "# vpa_dtl on PowerVM: powervm-test.sh report"
echo "kernel    $(uname -r) $(uname -v)"
echo "perf      $(perf --version 2>&1)"
lpar=/proc/powerpc/lparcfg
if [ -r $lpar ]; then
	for k in shared_processor_mode capped partition_entitled_capacity partition_active_processors \
		 shared_processor_pool_id pool_capacity; do
		v=$(awk -F= -v k=$k '$1 == k { print $2 }' $lpar)
		[ -n "$v" ] && printf '%-9.9s %s=%s\n' lparcfg "$k" "$v"
	done
	[ "$(awk -F= '$1 == "shared_processor_mode" { print $2 }' $lpar)" = 1 ] ||
		echo "note      not a shared-processor LPAR: the hypervisor logs few dispatches here"
fi
cfg=""
[ -r "/boot/config-$(uname -r)" ] && cfg="/boot/config-$(uname -r)"
acct=unknown
if [ -n "$cfg" ]; then
	grep -q '^CONFIG_VIRT_CPU_ACCOUNTING_NATIVE=y' "$cfg" && acct=NATIVE
	grep -q '^CONFIG_VIRT_CPU_ACCOUNTING_GEN=y' "$cfg" && acct=GEN
elif [ -r /proc/config.gz ]; then
	zcat /proc/config.gz | grep -q '^CONFIG_VIRT_CPU_ACCOUNTING_NATIVE=y' && acct=NATIVE
	zcat /proc/config.gz | grep -q '^CONFIG_VIRT_CPU_ACCOUNTING_GEN=y' && acct=GEN
fi
echo "cputime   CONFIG_VIRT_CPU_ACCOUNTING_$acct, $ncpu CPUs"
echo

# --- features: mask 0x3 is refused before anything is allocated where they are not
features=no
if rec "$work/mask3.data" 0 -e vpa_dtl/event=0x3/; then
	features=yes
	say INFO features "the driver takes mask 0x3: the features series is there"
else
	say INFO features "mask 0x3 refused: the fixes alone (or 7.3.4): $(tail -n1 "$work/mask3.data.out")"
fi

# --- splat and steal: busy CPUs, steal before, a recording, steal after
k0=$(klog_lines)
start_load
sleep 1
s0=$(steal); sleep "$secs"; s1=$(steal)
rec "$work/busy.data" "$secs" -e vpa_dtl/dtl_all/ -c 1000000 -m ,64K
rc=$?
s2=$(steal); sleep "$secs"; s3=$(steal)
stop_load
before=$((s1 - s0)) after=$((s3 - s2))
if [ $rc -ne 0 ]; then
	say FAIL steal "perf record failed: $(tail -n2 "$work/busy.data.out" | tr '\n' ' ')"
elif [ $before -eq 0 ]; then
	say SKIP steal "no steal in ${secs}s of every CPU busy before recording (an idle pool?): before 0, after $after ticks"
elif [ $after -eq 0 ]; then
	say FAIL steal "steal stopped after the recording: $before ticks in ${secs}s before, 0 after ($acct)"
else
	say PASS steal "$before ticks of steal in ${secs}s before the recording, $after after ($acct)"
fi
new=$(dmesg 2>/dev/null | tail -n +"$((k0 + 1))" |
	grep -E 'sleeping function called from invalid context|BUG:|WARNING:|Oops|lock held when returning|DEBUG_RWSEMS' |
	head -n3)
if [ -n "$new" ]; then
	say FAIL splat "the kernel reported: $(echo "$new" | tr '\n' ' ')"
else
	say PASS splat "no BUG, WARNING or Oops in the kernel log while recording"
fi

# --- header: bytes 16..47 of the first record of each CPU's stream are 0
# perf report -D: "CPU TIME FILE-OFFSET [SIZE]: PERF_RECORD_AUXTRACE size: .. offset: 0 .."
dump "$work/busy.data"
off=$(awk '/PERF_RECORD_AUXTRACE / && / offset: 0 / {
		for (i = 1; i < NF; i++) if ($(i + 1) ~ /^\[0x/) { print $i; exit } }' "$work/busy.data.dump")
if [ -z "$off" ] || ! command -v od >/dev/null; then
	say SKIP header "no AUXTRACE record at offset 0 found (or no od)"
else
	# the AUXTRACE record's own header is 48 bytes; the boot timebase record follows
	pad=$(od -A n -t x1 -j $((off + 48 + 16)) -N 32 "$work/busy.data" | tr -d ' \n')
	case $pad in
	*[1-9a-f]*) say FAIL header "the boot timebase record's padding is not zero: $pad" ;;
	'') say SKIP header "could not read the record" ;;
	*) say PASS header "the boot timebase record's padding is zero" ;;
	esac
fi

# --- exclusion: vcpudispatch_stats refused while a recording runs, taken after
v=/proc/powerpc/vcpudispatch_stats
if [ ! -w $v ]; then
	say SKIP exclusion "no $v"
else
	perf record -q -a -o "$work/hold.data" -e vpa_dtl/dtl_all/ -- sleep 4 >/dev/null 2>&1 &
	hold=$!
	sleep 2
	if echo 1 >$v 2>/dev/null; then during=taken; echo 0 >$v; else during=refused; fi
	wait $hold
	if echo 1 >$v 2>/dev/null; then afterw=taken; echo 0 >$v; else afterw=refused; fi
	if [ $during = refused ] && [ $afterw = taken ]; then
		say PASS exclusion "vcpudispatch_stats refused while recording, taken after"
	else
		say FAIL exclusion "vcpudispatch_stats $during while recording, $afterw after"
	fi
fi

# --- losses: the same busy load polled every 1 ms and every second
start_load
sleep 1
rec "$work/fast.data" "$secs" -e vpa_dtl/dtl_all/ -c 1000000 -m ,1M
rec "$work/slow.data" "$secs" -e vpa_dtl/dtl_all/ -c 1000000000 -m ,1M
stop_load
nf=$(entries "$work/fast.data") ns=$(entries "$work/slow.data") gs=$(gaps "$work/slow.data")
rf=$((nf / secs)) rs=$((ns / secs))
if [ "$nf" -eq 0 ]; then
	say FAIL losses "the 1 ms recording decoded no entry: $(tail -n1 "$work/fast.data.out")"
elif [ $((rf / ncpu)) -le 85 ]; then
	say SKIP losses "$rf entries/s over $ncpu CPUs at 1 ms: no CPU is dispatched over 85 times a second, so a 1 s poll loses nothing"
elif [ "$features" = yes ] && [ "$rs" -lt "$rf" ] && [ "$gs" -eq 0 ]; then
	say FAIL losses "1 s poll: $rs entries/s against $rf at 1 ms, and perf saw no gap: lost silently"
elif [ "$features" = yes ]; then
	say PASS losses "1 ms poll: $rf entries/s; 1 s poll: $rs entries/s, perf warned of $gs gaps"
else
	say INFO losses "1 ms poll: $rf entries/s; 1 s poll: $rs entries/s, $gs gaps (without the features a lapped DTL is not flagged)"
fi

# --- crash checks, opt-in: a task-bound event must be refused, not indexed with cpu -1
if [ $crash = 1 ]; then
	if perf record -q -e vpa_dtl/dtl_all/ --per-thread -o "$work/task.data" -- true >"$work/task.out" 2>&1; then
		say FAIL task "a task-bound vpa_dtl event was accepted"
	else
		say PASS task "a task-bound vpa_dtl event is refused: $(grep -m1 'returned with' "$work/task.out" | cut -c1-120)"
	fi
fi

echo
fails=$(printf '%s' "$results" | grep -c '^FAIL')
passes=$(printf '%s' "$results" | grep -c '^PASS')
echo "# $passes passed, $fails failed; paste this report and, if none failed:"
echo "Tested-by: Your Name <you@example.com>  # PowerVM, $(uname -m), $(uname -r), $acct accounting"
[ "$fails" -eq 0 ]
