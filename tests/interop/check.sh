#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The host half of make interop-check / upstream-compare: what the guest
# shipped (tests/interop/init.sh) against the fake hypervisor's counts, and
# dtltop's import of the same perf.data files against upstream perf's own
# decoding (report -D, script), per CPU and per interval. Writes the table
# of tests/interop/README-style figures to DIR/table.md.
#   check.sh DIR UPSTREAM(0|1)
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/rig.sh
dir=$1 upstream=${2:-0}
DTLTOP=${DTLTOP:-./dtltop}
fails=0
ok() { :; }
fail() { echo "interop: FAIL: $*"; fails=$((fails + 1)); }

# written SCEN CPU: what the fake hypervisor wrote on CPU during SCEN
written() {
	awk -v s="$1" -v c="cpu$2" '$1 == "RECORDED" && $2 == s {
		for (i = 1; i < NF; i++) if ($i == c) { print $(i + 4); exit } }' "$dir/guest.txt"
}
# per-CPU entry counts of perf report -D: each AUX buffer belongs to the CPU of its AUXTRACE record
dump_counts() {
	awk '/PERF_RECORD_AUXTRACE / { match($0, /cpu: *-?[0-9]+/); c = substr($0, RSTART + 5) + 0 }
		/dispatch_reason:/ { n[c]++ } END { for (c in n) print c, n[c] }' "$1"
}
# per-CPU entry counts of perf script
script_counts() {
	awk '/vpa-dtl: timebase/ { match($0, /\[[0-9]+\]/); n[substr($0, RSTART + 1, RLENGTH - 2) + 0]++ }
		END { for (c in n) print c, n[c] }' "$1"
}
# per-CPU counts of dtltop's CSV import: dispatches, gaps, lost
csv_sum() {
	awk -F, -v f="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == f) k = i; next }
		$3 != "all" { n[$3] += $k } END { for (c in n) print c, n[c] }' "$1"
}
get() { awk -v c="$2" '$1 == c { print $2; f = 1 } END { if (!f) print 0 }' <<<"$1"; }
# the N of perf's "AUX data had gaps in it N times out of M!"
perf_gaps() { grep -ho 'gaps in it [0-9]* times' "$@" 2>/dev/null | head -n1 | awk '{ print $4 + 0 } END { if (!NR) print 0 }'; }
# per interval: by each of dtltop's interval ends (CSV timestamps, in the
# recording's seconds, to the millisecond), dtltop has folded as many entries
# of a CPU as perf script times at or before that end, give or take entries
# within the millisecond the timestamp rounds away (times as numbers: as text,
# 9.7 sorts after 10.2, and a recording that crosses 10 s failed)
per_interval() {
	awk -F, 'FNR == NR { if (FNR > 1 && $3 != "all") { split($1, t, "T"); split(t[2], h, ":")
			end = h[1] * 3600 + h[2] * 60 + h[3]; cum[$3] += $4; row[++rows] = $3 " " end " " cum[$3] } next }
		/vpa-dtl: timebase/ { match($0, /\[[0-9]+\]/); c = substr($0, RSTART + 1, RLENGTH - 2) + 0
			s = substr($0, RSTART + RLENGTH); sub(/^ +/, "", s); sub(/:.*/, "", s); ts[c, ++nt[c]] = s + 0 }
		END { for (r = 1; r <= rows; r++) { split(row[r], x, " "); lo = hi = 0
				for (i = 1; i <= nt[x[1]]; i++) { lo += ts[x[1], i] <= x[2] - 0.001; hi += ts[x[1], i] <= x[2] + 0.001 }
				if (x[3] < lo || x[3] > hi) { printf "cpu %s by %s: perf %d..%d, dtltop %d\n", x[1], x[2], lo, hi, x[3]; bad++ } }
			exit bad > 0 }' "$1" "$2"
}

table=$dir/table.md
printf '| scenario | CPU | fake HV wrote | perf report -D | perf script | dtltop | perf: AUX gaps | dtltop gaps |\n|---|---|---|---|---|---|---|---|\n' >"$table"
for data in "$dir"/*.data; do
	s=$(basename "$data" .data)
	csv=$dir/$s.csv
	"$DTLTOP" -r "$data" -b --csv -o "$csv" 2>"$dir/$s.dtltop.err" || { fail "$s: dtltop -r: $(head -n1 "$dir/$s.dtltop.err")"; continue; }
	D=$(dump_counts "$dir/$s.dump") S=$(script_counts "$dir/$s.script")
	T=$(csv_sum "$csv" dispatches) G=$(csv_sum "$csv" gaps)
	pg=$(perf_gaps "$dir/$s.dump.err" "$dir/$s.script.err")
	dg=0
	for c in 0 1 2 3; do
		w=$(written "$s" $c) d=$(get "$D" $c) sc=$(get "$S" $c) t=$(get "$T" $c) g=$(get "$G" $c)
		dg=$((dg + g))
		[ "$s" = pipe ] && sc="($(get "$S" $c): upstream perf script fails on pipe files)"
		echo "| $s | $c | $w | $d | $sc | $t | $([ $c = 0 ] && echo "$pg") | $g |" >>"$table"
		[ "$upstream" = 1 ] && continue
		[ "$d" = "$t" ] || fail "$s cpu$c: perf report -D decodes $d entries, dtltop $t"
		[ "$s" = pipe ] || [ "$sc" = "$d" ] || fail "$s cpu$c: perf script $sc, report -D $d"
		case $s in
		lap) [ "$d" -ge 144 ] && [ "$d" -lt "$w" ] || fail "$s cpu$c: $d of $w kept (a lapped ring keeps 60 + 84 or more)" ;;
		full) [ "$d" -le "$w" ] || fail "$s cpu$c: $d decoded, more than the $w written" ;;
		*) [ "$d" = "$w" ] || fail "$s cpu$c: the hypervisor wrote $w, perf has $d" ;;
		esac
	done
	[ "$upstream" = 1 ] && continue
	[ "$dg" = "$pg" ] || fail "$s: dtltop counts $dg gaps, perf warns of $pg"
	case $s in lap) [ "$pg" -gt 0 ] || fail "lap: no gap flagged" ;; esac
	[ "$s" = pipe ] || why=$(per_interval "$csv" "$dir/$s.script") || fail "$s: per interval: $why"
done
. tests/interop/payers.sh
if [ -f "$dir/switches.sw" ] && [ -f "$dir/switches.data" ]; then
	"$DTLTOP" -r "$dir/switches.data" -b --group=task --csv -o "$dir/switches-task.csv" 2>"$dir/switches-task.err" ||
		fail "switches: dtltop --group=task: $(head -n1 "$dir/switches-task.err")"
	P=$(perf_payers "$dir/switches.sw") T=$(dtltop_payers "$dir/switches-task.csv")
	printf '%s\n' "$P" >"$dir/switches-perf.txt"
	printf '%s\n' "$T" >"$dir/switches-dtltop.txt"
	[ "$P" = "$T" ] || fail "switches: per pid, perf's switch records give [$(echo $P)], dtltop [$(echo $T)]"
	ypid=$(awk '$1 == "BUSY" && $2 == "switches" { print $4 }' "$dir/guest.txt")
	y=$(awk -v p="$ypid" '$1 == p { print $2 }' <<<"$T")
	c1=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "dispatches") d = i; next } $3 == 1 { s += $d } END { print s + 0 }' "$dir/switches.csv")
	# the busy task on CPU 1 pays for nearly all of CPU 1's entries, under its own name
	[ -n "$ypid" ] && [ "$((100 * ${y:-0}))" -ge "$((90 * c1))" ] ||
		fail "switches: yes[$ypid] was charged ${y:-0} of CPU 1's $c1 entries"
	grep -q "^[^,]*,[^,]*,yes\[$ypid\]," "$dir/switches-task.csv" || fail "switches: no row yes[$ypid]"
	# what upstream perf itself prints on the vpa-dtl lines: the pid before [cpu]
	U=$(awk '/vpa-dtl: timebase/ { for (i = 1; i <= NF; i++) if ($i ~ /^\[[0-9]+\]$/) { n[$(i - 1)]++; break } }
		END { for (p in n) print p, n[p] }' "$dir/switches.sw" | sort)
	echo "| who pays (switches) | per pid | | upstream perf script's own: $(echo $U) | from perf's switch records: $(echo $P) | dtltop: $(echo $T) | | |" >>"$table"
fi
if [ "$upstream" = 0 ]; then
	for e in dtl_all dtl_cede dtl_fault dtl_preempt; do
		grep -q "vpa_dtl/$e/ .*Kernel PMU event" "$dir/list" || fail "perf list: no vpa_dtl/$e/"
	done
fi
# kernel/powervm-test.sh in the guest: what the fake hypervisor lets it see
# (no steal: it preempts nobody), each line as the fixes and features make it
if [ "$upstream" = 0 ]; then
	pvt=$dir/powervm-test.out
	rc=$(awk '$1 == "POWERVM-TEST" { print $3 }' "$dir/guest.txt")
	[ "$rc" = 0 ] || fail "powervm-test.sh exited ${rc:-nothing}: $(grep -E '^FAIL' "$pvt" | head -n3 | tr '\n' ' ')"
	for want in '^INFO  features  the driver takes mask 0x3' '^PASS  splat ' '^PASS  header ' \
		'^PASS  exclusion ' '^PASS  losses .*perf warned of [1-9][0-9]* gaps' '^PASS  task ' \
		'^SKIP  steal .*no steal' '^# [0-9]* passed, 0 failed'; do
		grep -q "$want" "$pvt" || fail "powervm-test.sh: no line /$want/ in its report"
	done
	echo "| powervm-test.sh | all | | $(grep -c '^PASS' "$pvt") PASS, $(grep -c '^FAIL' "$pvt") FAIL, $(grep -c '^SKIP' "$pvt") SKIP | | | | |" >>"$table"
fi
# the guest's kernel log, as qemu-check judges it
rig_reports "$dir/dmesg" "$dir/kernel-reports.txt"
if [ "$upstream" = 0 ] && [ -s "$dir/kernel-reports.txt" ]; then
	fail "the kernel reported: $(head -n3 "$dir/kernel-reports.txt" | tr '\n' ' ')"
fi
cat "$table"
[ "$upstream" = 1 ] && { echo "interop: upstream driver: kernel reports: $(wc -l <"$dir/kernel-reports.txt")"; exit 0; }
[ "$fails" -eq 0 ] && echo "interop: upstream perf 7.3 and dtltop agree on every file, per CPU and per interval"
[ "$fails" -eq 0 ]
