#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Who pays (--group=task|cgroup): rows that add up to the partition, sorted by
# steal, names quoted where a file needs it, the "no task data" line where the
# source has no switch stream, bad tasks= refused in one line, and the v key
# cycling through the groupings in the TUI. Attribution itself is checked
# entry for entry against the simulator's ground truth in tests/unit/test_task.c.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
. tests/tmux.sh

sim='--sim=vcpus=16,ent=2,pool=4,other=3,clock=virtual,tasks=db:3:/system.slice/db.service+web:2:/system.slice/nginx.service+batch:1:/batch.slice:cpu1'
col() { head -1 "$1" | tr , '\n' | grep -nx "$2" | cut -d: -f1; }

# --- task rows: the first field says whose, they add up to the partition, worst first
"$DTLTOP" "$sim" --no-config -b -n 3 --group=task --format=csv >"$tmp/t.csv" || fail "--group=task"
[ "$(head -1 "$tmp/t.csv" | cut -d, -f3)" = task ] && ok || fail "first field not 'task': $(head -1 "$tmp/t.csv")"
d=$(col "$tmp/t.csv" dispatches) s=$(col "$tmp/t.csv" steal_us)
awk -F, -v d="$d" 'NR > 1 { if ($3 == "all") { all[$1] = $d } else { sum[$1] += $d; n[$1]++ } }
	END { for (t in all) { k++; if (sum[t] != all[t] || n[t] < 3) bad++ } exit !(k == 3 && !bad) }' "$tmp/t.csv" \
	&& ok || fail "task rows do not add up to the partition's dispatches"
grep -q '^[^,]*,[^,]*,idle,' "$tmp/t.csv" && grep -q ',db\[1000\],' "$tmp/t.csv" && grep -q ',batch\[1200\],' "$tmp/t.csv" \
	&& ok || fail "idle, db[1000] or batch[1200] missing"
awk -F, -v s="$s" 'NR > 1 && $3 != "all" { if ($1 == ts && $s > prev + 1e-9) bad = 1; ts = $1; prev = $s }
	END { exit bad }' "$tmp/t.csv" && ok || fail "task rows not sorted by steal, most first"
# the CPU's own figures are no task's: blank, not 0
m=$(col "$tmp/t.csv" migrations)
awk -F, -v m="$m" 'NR > 1 && $3 != "all" && $m != "" { bad = 1 } END { exit bad }' "$tmp/t.csv" \
	&& ok || fail "a task row has a migration count"
# -s still rules
"$DTLTOP" "$sim" --no-config -b -n 1 --group=task -s cpu --csv | awk -F, 'NR > 1 && $3 != "all" { print $3 }' |
	head -1 | grep -qx idle && ok || fail "-s cpu: the idle task (pid 0) not first"

# --- where in the kernel, everywhere: --format where, JSON, the report, and a
# replay that names what the run named from the symbols its recording carries
"$DTLTOP" "$sim" --no-config -b -n 3 --group=task --format where -o "$tmp/wh-live.csv" \
	-w "$tmp/wh.dtl" 2>"$tmp/wh.err" || fail "--format where: $(cat "$tmp/wh.err")"
head -1 "$tmp/wh-live.csv" | grep -qx 'timestamp,group,id,name,function,preempts,share_pct' &&
	ok || fail "--format where header: $(head -1 "$tmp/wh-live.csv")"
# functions by name (the simulator's kernel), user space apart, each row's shares add up to 100
grep -q ',db\[1000\],(user space),' "$tmp/wh-live.csv" && grep -q ',db\[1000\],copy_page,' "$tmp/wh-live.csv" &&
	! grep -q ',0xc0' "$tmp/wh-live.csv" && ok || fail "--format where: no named function for db"
awk -F, 'NR > 1 { s[$1 "/" $3] += $7 } END { for (k in s) if (s[k] < 99.7 || s[k] > 100.3) bad++; exit bad }' \
	"$tmp/wh-live.csv" && ok || fail "--format where: a row's shares do not add up to 100"
"$DTLTOP" -r "$tmp/wh.dtl" --no-config -b --group=task --format where -o "$tmp/wh-replay.csv" 2>"$tmp/wh.err" &&
	cmp -s "$tmp/wh-live.csv" "$tmp/wh-replay.csv" && ok ||
	fail "a replay names other functions than its run: $(diff "$tmp/wh-live.csv" "$tmp/wh-replay.csv" | head -3)"
# a rotated set's later file names them on its own
"$DTLTOP" "$sim" --no-config -b -n 4 --group=task --format where -o /dev/null -w "$tmp/whr.dtl" --rotate 2s \
	2>"$tmp/wh.err" || fail "--rotate with where: $(cat "$tmp/wh.err")"
"$DTLTOP" -r "$tmp/whr.dtl.2" --no-config -b --group=task --format where 2>&1 | grep -q ',copy_page,' &&
	ok || fail "a rotated set's second file carries no symbols of its own"
# JSON: a task's row says where, a CPU's does not
"$DTLTOP" "$sim" --no-config -b -n 1 --group=cgroup --format json |
	grep '"cgroup":"/system.slice/db.service"' | grep -q '"where":{"preempts":[0-9]*,"user":[0-9]*,"functions":\[{"name":"' &&
	ok || fail "JSON cgroup row without where"
"$DTLTOP" "$sim" --no-config -b -n 1 --format json | grep -q '"where"' && fail "a CPU row in JSON has where" || ok
# the report: a table per top payer, named
"$DTLTOP" -r "$tmp/wh.dtl" --no-config -b --report "$tmp/wh.html" -o /dev/null 2>"$tmp/wh.err" &&
	grep -q "<h3>Where the top processes' involuntary preempts hit" "$tmp/wh.html" &&
	grep -q '<tr><th>db\[1000\]</th><th>preempts</th>' "$tmp/wh.html" && grep -q '<td>copy_page</td>' "$tmp/wh.html" &&
	ok || fail "the report has no where table for db: $(cat "$tmp/wh.err")"
# a recording from before 2.2 carries none: addresses, said why, never this machine's names
"$DTLTOP" -r tests/data/v1.3-sim.dtl --no-config -b --group=task --format where >"$tmp/wh-old.csv" 2>&1
grep -q ',0xc0000000' "$tmp/wh-old.csv" && ok || fail "an old recording's where: $(head -3 "$tmp/wh-old.csv")"
"$DTLTOP" -r tests/data/v1.3-sim.dtl --no-config -b --report "$tmp/wh-old.html" -o /dev/null 2>/dev/null
grep -q 'Kernel functions unknown: the recording carries none (written before format 2.2' "$tmp/wh-old.html" &&
	ok || fail "the report does not say why an old recording names no function"
# --kallsyms names them: a file as /proc/kallsyms has it, its function just below the address
a=$(awk -F, 'NR > 1 && $5 ~ /^0x/ { print substr($5, 3); exit }' "$tmp/wh-old.csv")
printf '%016x T crafted_fn\n' "$((0x$a - 16))" >"$tmp/kallsyms"
"$DTLTOP" -r tests/data/v1.3-sim.dtl --no-config -b --group=task --format where --kallsyms "$tmp/kallsyms" |
	grep -q ',crafted_fn,' && ok || fail "--kallsyms: 0x$a not named crafted_fn"
zcat tests/data/switches.perf.data.gz >"$tmp/sw.perf.data"
printf 'c000000000095100 T plpar_hcall_norets_notrace\nc0000000000951f0 T next_fn\n' >"$tmp/ks2"
"$DTLTOP" -r "$tmp/sw.perf.data" --no-config -b --group=task --format where --kallsyms "$tmp/ks2" 2>/dev/null |
	grep -q ',yes\[451\],plpar_hcall_norets_notrace,' && ok || fail "perf.data --kallsyms: no name for yes[451]"
# refused in one line: no file, no symbol in it, no -r, no grouping
out=$("$DTLTOP" -r tests/data/v1.3-sim.dtl -b --kallsyms "$tmp/none" 2>&1); rc=$?
[ $rc -ne 0 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q "kallsyms $tmp/none: No such file" <<<"$out" &&
	ok || fail "--kallsyms of no file: rc $rc: $out"
echo garbage >"$tmp/ks3"
out=$("$DTLTOP" -r tests/data/v1.3-sim.dtl -b --kallsyms "$tmp/ks3" 2>&1); rc=$?
[ $rc -ne 0 ] && grep -q "kallsyms $tmp/ks3: no text symbol in it" <<<"$out" && ok || fail "--kallsyms garbage: rc $rc: $out"
out=$("$DTLTOP" "$sim" -b -n 1 --kallsyms "$tmp/ks2" 2>&1); rc=$?
[ $rc -ne 0 ] && grep -q -- "--kallsyms needs -r FILE" <<<"$out" && ok || fail "--kallsyms live: rc $rc: $out"
out=$("$DTLTOP" "$sim" -b -n 1 --group=vp --format where 2>&1); rc=$?
[ $rc -ne 0 ] && grep -q -- "--group=task or --group=cgroup" <<<"$out" && ok || fail "--format where --group=vp: rc $rc: $out"
"$DTLTOP" "$sim" --no-config -b -n 1 --format where | grep -q '^[^,]*,task,1000,db\[1000\],' &&
	ok || fail "--format where without --group: not per process"

# --- cgroup rows: the cgroups, the idle task apart, the same sum
"$DTLTOP" "$sim" --no-config -b -n 2 --group=cgroup --format=csv >"$tmp/c.csv" || fail "--group=cgroup"
[ "$(head -1 "$tmp/c.csv" | cut -d, -f3)" = cgroup ] && ok || fail "first field not 'cgroup'"
for g in /system.slice/db.service /system.slice/nginx.service /batch.slice idle; do
	grep -q ",$g," "$tmp/c.csv" && ok || fail "cgroup $g missing"
done
awk -F, -v d="$d" 'NR > 1 { if ($3 == "all") all[$1] = $d; else sum[$1] += $d }
	END { for (t in all) { k++; if (sum[t] != all[t]) bad++ } exit !(k == 2 && !bad) }' "$tmp/c.csv" \
	&& ok || fail "cgroup rows do not add up to the partition's dispatches"
# the text view names the column and keeps the names whole
"$DTLTOP" "$sim" --no-config -b -n 1 --group=cgroup | grep -q '^CGROUP  ' && ok || fail "text heading"
"$DTLTOP" "$sim" --no-config -b -n 1 --group=cgroup | grep -q '^/system.slice/nginx.service ' && ok \
	|| fail "text: a cgroup name cut or misaligned"
# JSON: the key is the grouping's, the name a string
"$DTLTOP" "$sim" --no-config -b -n 1 --group=task --format=json | head -1 | grep -q '"task":"' && ok \
	|| fail "json: no task key"

# influx: the tag is the grouping's, a space in a name escaped
"$DTLTOP" --no-config '--sim=vcpus=4,clock=virtual,tasks=a+c:1:/x y' --group=cgroup -b -n 1 --format=influx |
	grep -q '^dtl,host=[^ ]*,cgroup=/x\\ y interval_s=' && ok || fail "influx: cgroup tag"

# --- the exposition: the top N cgroups by steal, the rest as other, idle apart; it all adds up
cg='--sim=vcpus=8,clock=virtual,tasks=a:1:/a+b:2:/b+c:3:/c+d:4:/d'
"$DTLTOP" --no-config "$cg" --metrics-cgroups 2 --metrics-by=cpu -b -n 3 --format=prom >"$tmp/m.prom" || fail "prom"
[ "$(grep -c '^dtl_cgroup_steal_seconds_total{' "$tmp/m.prom")" = 4 ] && grep -q 'cgroup="other"' "$tmp/m.prom" &&
	grep -q '^dtl_cgroup_cpu_seconds_total{cgroup="idle"}' "$tmp/m.prom" && ok \
	|| fail "--metrics-cgroups 2: not 2 named + other + idle: $(grep '^dtl_cgroup_steal' "$tmp/m.prom")"
awk '/^dtl_cgroup_steal_seconds_total\{/ { c += $2 }
	/^dtl_wait_seconds_total\{.*phase="(enqueue_to_dispatch|ready_to_enqueue)"/ { w += $2 }
	/^dtl_cgroup_steal_seconds_total\{cgroup="\/[a-d]"/ { named[++n] = $2 }
	END { exit !(w > 0 && (c - w) / w < 1e-6 && (w - c) / w < 1e-6 && n == 2 && named[1] >= named[2]) }' "$tmp/m.prom" \
	&& ok || fail "cgroup steal does not add up to the CPUs' steal, or not the top by steal"
promtool check metrics <"$tmp/m.prom" >"$tmp/lint" 2>&1; grep -q 'cgroup' "$tmp/lint" && fail "promtool: $(cat "$tmp/lint")" || ok
"$DTLTOP" --no-config "$cg" --metrics-cgroups 0 -b -n 1 --format=prom | grep -q dtl_cgroup && fail "--metrics-cgroups 0 wrote them" || ok
"$DTLTOP" --no-config --sim=vcpus=8,clock=virtual -b -n 1 --format=prom | grep -q dtl_cgroup && fail "cgroups without task data" || ok
expect_error "bad --metrics-cgroups" "bad --metrics-cgroups 'x'" --metrics-cgroups x -b -n 1

# --- a name a file must quote
"$DTLTOP" '--sim=vcpus=2,clock=virtual,tasks=we"ird' --no-config -b -n 1 --group=task --csv >"$tmp/q.csv"
python3 -c 'import csv,sys; rows = list(csv.reader(open(sys.argv[1]))); sys.exit(not any(r[2] == "we\"ird[1000]" for r in rows))' \
	"$tmp/q.csv" && ok || fail "a quote in a task name breaks the CSV: $(grep ird "$tmp/q.csv" | cut -c1-60)"

# --- a recording keeps the switches: its replay's rows are the live run's, byte for byte
"$DTLTOP" "$sim" --no-config -b -n 4 --group=task --csv -o "$tmp/live.csv" -w "$tmp/t.dtl" || fail "-w with tasks"
"$DTLTOP" --no-config -r "$tmp/t.dtl" -b --group=task --csv | cmp -s - "$tmp/live.csv" && ok \
	|| fail "the replay's task rows differ from the live run's"
"$DTLTOP" --no-config -r "$tmp/t.dtl" -b --group=cgroup --csv | grep -q ',/batch.slice,' && ok || fail "replay: cgroups"
# a recording of format 1.0 has none, and says so
"$DTLTOP" --no-config -r tests/data/v1.0-sim.dtl -b -n 1 --group=task | grep -q '^(no task data: ' && ok \
	|| fail "an old recording does not say it has no task data"
# a cut switch record: the whole switches before the cut, a warning, no crash
size=$(stat -c %s "$tmp/t.dtl")
for cut in $((size / 3)) $((size / 2)) $((size - 100)); do
	head -c "$cut" "$tmp/t.dtl" >"$tmp/tc.dtl"
	"$DTLTOP" --no-config -r "$tmp/tc.dtl" -b --group=task --csv >/dev/null 2>"$tmp/tc.err"
	rc=$?
	[ "$rc" -lt 128 ] && grep -q warning "$tmp/tc.err" && ok || fail "cut at $cut: rc $rc, $(cat "$tmp/tc.err")"
done

# --- the report: who pays over time, its table's figures the CSV's
"$DTLTOP" "$sim" --no-config -b -n 20 --group=task --csv -o "$tmp/r.csv" --report "$tmp/r.html" || fail "--report"
want=$(awk -F, -v s="$s" '$3 == "db[1000]" { t += $s } END { printf "%.3f", t / 1e6 / 20 }' "$tmp/r.csv")
got=$(grep -o '<tr><td>db\[1000\]</td><td>[0-9.]*' "$tmp/r.html" | sed 's/.*<td>//')
[ -n "$got" ] && [ "$got" = "$want" ] && ok || fail "report: db[1000] steal $got cores, the CSV says $want"
grep -q '<tr><td>/system.slice/db.service</td>' "$tmp/r.html" && grep -c '<svg' "$tmp/r.html" | grep -qv '^0$' \
	&& ok || fail "report: no cgroup table or no chart"
"$DTLTOP" --no-config -r tests/data/v1.0-sim.dtl -b -o /dev/null --report "$tmp/old.html" &&
	grep -q 'No task data in this source' "$tmp/old.html" && ok || fail "report of an old recording: no 'no task data'"

# --- no switch stream: every view says so, the partition's row stays
out=$("$DTLTOP" --sim=vcpus=4,clock=virtual --no-config -b -n 1 --group=task)
grep -q '^(no task data: ' <<<"$out" && grep -qE '^ *all ' <<<"$out" && ok || fail "no task data not said: $out"
# --- who pays without the PMU: debugfs entries (a fake root) beside perf's real switch stream
# on this machine, its raw clock calibrated to the timebase. The writer, pinned to CPU 1, stamps
# each entry with the instant it runs (the stand-in timebase off POWER: CLOCK_MONOTONIC_RAW at
# the root's frequency), so each must be charged to the writer itself: every one, not most.
if [ "$(id -u)" -ne 0 ] || [ "$(nproc)" -lt 2 ]; then
	echo "whopays.sh: the debugfs switch stream needs root and 2 CPUs: skipped" >&2
else
	droot=$tmp/droot
	mkdir -p "$droot/sys/kernel/debug/powerpc/dtl" "$droot/sys/devices/system/cpu"
	echo "0-1" >"$droot/sys/devices/system/cpu/online"
	# the machine's /proc: its pids are the switch stream's (and its cpuinfo no timebase: 512 MHz)
	ln -s /proc "$droot/proc"
	echo 0x7 >"$droot/sys/kernel/debug/powerpc/dtl/dtl_event_mask"
	: >"$droot/sys/kernel/debug/powerpc/dtl/cpu-0"
	: >"$droot/sys/kernel/debug/powerpc/dtl/cpu-1"
	# the writer is up first; it writes once dtltop's first interval is out, so its stream is open
	python3 - "$droot/sys/kernel/debug/powerpc/dtl/cpu-1" "$tmp/dw.go" >"$tmp/dw.pid" <<'PY' &
import os, struct, sys, time
os.sched_setaffinity(0, {1})
print(os.getpid(), flush=True)
while not os.path.exists(sys.argv[2]):
    time.sleep(0.01)
with open(sys.argv[1], "ab", buffering=0) as f:
    for i in range(150):
        tb = time.clock_gettime_ns(time.CLOCK_MONOTONIC_RAW) * 512 // 1000
        # dispatch 3, preempt 4 (time slice), CPU 1, no waits: preempted at tb, while running
        f.write(struct.pack(">BBHIIIQQQQ", 3, 4, 1, 0, 0, 0, tb, 0, 0xc000000000123450, 0))
        time.sleep(0.003)
os.unlink(sys.argv[2])
PY
	wpid=$!
	# stdout, not -o: -o's file is renamed into place only at the end
	"$DTLTOP" --root "$droot" --source=debugfs -C 1 -b -n 100 -d 0.25 --group=task --format=csv \
		>"$tmp/dw.csv" 2>"$tmp/dw.err" &
	dpid=$!
	for _ in $(seq 200); do [ "$(grep -c ',selected,' "$tmp/dw.csv")" -ge 1 ] && break; sleep 0.05; done
	touch "$tmp/dw.go"
	# the writer is done when it took the flag away; dtltop when an interval showed its last entry
	# (a loaded machine may lag by seconds: an interval cut by the signal is not shown)
	for _ in $(seq 400); do [ -e "$tmp/dw.go" ] || break; sleep 0.05; done
	ts=$(col "$tmp/dw.csv" preempt_time_slice)
	for _ in $(seq 300); do
		[ "$(awk -F, -v c="$ts" '$3 == "selected" { s += $c } END { print s + 0 }' "$tmp/dw.csv")" -ge 150 ] && break
		sleep 0.1
	done
	kill -INT $dpid
	wait $wpid
	wait $dpid || fail "debugfs with the switch stream: $(cat "$tmp/dw.err")"
	w=$(head -1 "$tmp/dw.pid")
	# by pid: with -C 1 the writer's exec (on another CPU) may leave it its shell's name
	got=$(awk -F, -v c="$ts" -v w="[$w]" 'substr($3, length($3) - length(w) + 1) == w { s += $c }
		END { print s + 0 }' "$tmp/dw.csv")
	all=$(awk -F, -v c="$ts" '$3 == "selected" { s += $c } END { print s + 0 }' "$tmp/dw.csv")
	[ "$all" -eq 150 ] && [ "$got" -eq "$all" ] && ok ||
		fail "the writer [$w] was charged $got of the $all time-slice preempts it was preempted in: $(grep -v ',0,0\.0,' "$tmp/dw.csv" | cut -d, -f1-8 | head -8)"
	"$DTLTOP" --root "$droot" --source=debugfs -C 1 -b -n 2 -d 0.1 >"$tmp/dw.txt" 2>&1
	grep -q 'debugfs [^ ]*/droot/sys/kernel/debug/powerpc/dtl; .*, task switches on the stand-in clock to +-[0-9]* ns (off -\?[0-9]* ns at the last of [0-9]* checks; 0 past 20 us)' \
		"$tmp/dw.txt" && ok || fail "the header does not give the calibration: $(head -1 "$tmp/dw.txt")"
	"$DTLTOP" --root "$droot" --source=debugfs --no-tasks -C 1 -b -n 1 -d 0.1 | head -1 |
		grep -q 'no task switches (--no-tasks)' && ok || fail "--no-tasks with debugfs"
	# without the privilege (and perf_event_paranoid above 0) the stream is refused in words, the DTL read
	bin=$(readlink -f "$DTLTOP")
	if [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 1 ] && su nobody -s /bin/sh -c "test -x '$bin'" 2>/dev/null; then
		cp -a "$droot" "$tmp/nroot" && rm -f "$tmp/nroot/proc" && ln -s /proc "$tmp/nroot/proc" &&
			chmod -R a+rwX "$tmp/nroot" && chmod a+x "$tmp"
		su nobody -s /bin/sh -c "'$bin' --root '$tmp/nroot' --source=debugfs -C 1 -b -n 1 -d 0.1" >"$tmp/nw.txt" 2>&1
		grep -q 'no task switches (the switch stream on CPU 1: permission denied: it needs CAP_PERFMON, root, or perf_event_paranoid 0 or below)' \
			"$tmp/nw.txt" && grep -q '^selected: [0-9]* dispatches' "$tmp/nw.txt" && ok ||
			fail "unprivileged debugfs: $(head -3 "$tmp/nw.txt")"
	else
		echo "whopays.sh: nobody cannot run $bin here (or perf_event_paranoid <= 0): the unprivileged stream is not checked" >&2
	fi
fi

# --- the embedded default (make run's --sim) runs a workload: who pays has rows; a chosen LPAR has none
"$DTLTOP" --sim --no-config -b -n 1 --group=task --format=csv >"$tmp/def.csv" 2>&1 || fail "--sim --group=task"
for r in 'postgres\[1000\]' 'nginx\[1100\]' 'batch\[1200\]' 'idle'; do
	grep -q ",$r," "$tmp/def.csv" && ok || fail "make run's simulator has no $r row: $(head -3 "$tmp/def.csv")"
done
"$DTLTOP" --sim --no-config -b -n 1 --group=cgroup --format=csv | grep -q ',/system.slice/postgresql.service,' &&
	ok || fail "make run's simulator: no postgresql.service cgroup"
"$DTLTOP" --sim=vcpus=16 --no-config -b -n 1 --group=task 2>&1 | grep -q 'no task data' &&
	ok || fail "a --sim with keys but no tasks= runs tasks"

# --- the simulator's CPUs are the same with and without tasks=
a=$("$DTLTOP" --sim=vcpus=8,clock=virtual --no-config -b -n 3 --csv | md5sum)
b=$("$DTLTOP" --sim=vcpus=8,clock=virtual,tasks=a+b:2 --no-config -b -n 3 --csv | md5sum)
[ "$a" = "$b" ] && ok || fail "tasks= changed the CPUs' figures"

# --- bad input: one line, exit 2
expect_error "empty tasks" "tasks= names no task" --sim=tasks= -b -n 1
expect_error "zero weight" "bad --sim task 'x:0'" --sim=tasks=x:0 -b -n 1
expect_error "pin past the CPUs" "pinned to cpu99 of 16" --sim=tasks=x:cpu99 -b -n 1
expect_error "long name" "bad --sim task" --sim=tasks=aaaaaaaaaaaaaaaaaaaa -b -n 1
expect_error "bad field" "bad --sim task" --sim=tasks=x:cpu -b -n 1
expect_error "seventeen" "more than 16 tasks" --sim=tasks=a+b+c+d+e+f+g+h+i+j+k+l+m+n+o+p+q -b -n 1
expect_error "bad group" "want cpu, vp, task or cgroup" --group=proc -b -n 1

# --- the TUI: v goes CPU, VP, task, cgroup, CPU
T new-session -d -s t -x 150 -y 30 "$DTLTOP --no-config ${sim/clock=virtual,/}"
expect '^ +\*?CPU +DISP' "the TUI did not start"
keys v; expect '^ +\*?VP +DISP' "v: no VP rows"
expect 'v: per task' "the status does not say v goes to tasks"
keys v; expect '^\*?TASK +DISP' "v: no task rows"
expect '^db\[1000\] ' "task rows lack db[1000]"
# entered with v and no sort chosen: the payers by the seconds they paid, the most first
expect '^TASK +DISP.* \*STEAL ' "v into tasks does not sort by the seconds paid"
expect 'of [0-9]+ tasks above 50% steal' "the header's summary does not count tasks"
steal_order() { screen | awk '/^\*?TASK +DISP/ { for (i = 1; i <= NF; i++) if ($i ~ /^\*?STEAL$/) k = i; on = 1; next }
	on && /^all / { exit } on && NF > 5 { v = $k; m = v ~ /us$/ ? 1e-6 : v ~ /ms$/ ? 1e-3 : 1; sub(/[a-z]+$/, "", v)
	print v * m }'; }
o=$(steal_order); [ -n "$o" ] && [ "$o" = "$(sort -gr <<<"$o")" ] && ok || fail "task rows not in steal order: $(echo $o)"

# Enter on a process: what it paid, why, and where in the (simulated) kernel it was hit
keys Down Enter; expect '^Who pays: process ' "Enter on a task row: no payer pane"
expect '^  (copy_page|__memcpy_power7|tcp_sendmsg|ext4_file_write_iter|_raw_spin_lock|clear_user_page|memset) ' \
	"the pane names no kernel function of the simulator's kallsyms"
expect 'in user space \(MSR\[PR\] in srr1\): [0-9]+ of [0-9]+' "no user-space share"
# one span for the first figures, said; user space once (its line), never as a function
expect '^This interval: [0-9]+ preempts charged' "the payer pane does not say its figures' span"
screen | grep -q '^  (user space) ' && fail "user space listed as a function too" || ok
keys NPage; expect 'copy_page|__memcpy_power7|tcp_sendmsg' "PgDn scrolled the payer pane off its end"
keys Home
keys Escape; expect '^\*?TASK +DISP' "Esc did not close the payer pane"
keys v; expect '^\*?CGROUP +DISP' "v: no cgroup rows"
expect 'v: per CPU' "the status does not say where v goes"
keys Enter; expect '^Who pays: cgroup ' "Enter on a cgroup row: no payer pane"
keys Escape
keys v; expect '^ +\*?CPU +DISP' "v: not back to CPUs"
expect '^ +\*CPU +DISP' "back in the CPU view, no sort chosen: not by number"
# P in the task view: seconds, then pid order; a sort chosen stays through v
keys v v; expect '^\*?TASK +DISP' "v v: no task rows"
expect '^TASK +DISP.* \*STEAL ' "v into tasks again: not by seconds"
keys P; expect '^\*TASK +DISP' "P on the seconds does not go back to pid order"
keys P; expect '^TASK +DISP.* \*STEAL ' "P in the task view does not sort by seconds"
keys v v; expect '^ +\*?CPU +DISP' "v v: not back to CPUs"
expect '^ +CPU +DISP.* \*STEAL ' "a sort chosen with P did not stay"
keys q

# --- a cgroup too long for its column (a container's scope): elided in the middle, its end
# (the hash) kept, in the rows and in the payer pane's title, which fits an 80-column screen
T kill-server 2>/dev/null
sock="$sock-long"
long=/system.slice/docker-0123456789abcdef0123456789abcdef0123456789abcdef.scope
T new-session -d -s t -x 80 -y 30 "$DTLTOP --no-config --sim=vcpus=4,tasks=app:1:$long --group=cgroup"
expect '^/system\.s….*abcdef\.scope +[0-9]' "a long cgroup's row is not elided in the middle"
keys Enter; expect '^Who pays: cgroup /system\.slice/doc.*….*abcdef\.scope$' "the payer pane's title does not fit the screen, elided"
expect '^Where its involuntary preempts hit' "the payer pane does not say where preempts hit"
keys q

# --- a replay with task data: going back (b, T) shows the task rows of the interval gone
# to (the stats and the tasks start over: under the sanitizers a row left pointing into the
# old tasks fails here), and the payer pane's p50 and p99 are the row's, each in its place
T kill-server 2>/dev/null
sock="$sock-2"
"$DTLTOP" "$sim" --no-config -b -n 8 --group=task --csv -w "$tmp/w8.dtl" >"$tmp/w8.csv" || fail "recording with tasks"
disp() { awk -F, -v n="$1" -v t="$2" '$3 == t && ++k == n { print $4 }' "$tmp/w8.csv"; }
rows_at() { for t in idle 'db[1000]' 'web[1100]' 'batch[1200]'; do printf '%s %s\n' "$t" "$(disp "$1" "$t")"; done; }
shown() { screen | awk '$1 ~ /^(idle|db\[1000\]|web\[1100\]|batch\[1200\])$/ { print $1, $2 }' | sort; }
T new-session -d -s t -x 150 -y 30 "$DTLTOP --no-config -r $tmp/w8.dtl --group=task --no-color 2>$tmp/w8.err; sleep 30"
expect '^TASK +DISP' "task replay: no task rows"
keys b; expect 'Jump to HH:MM' "task replay: b prompts"
keys '#5' Enter; expect 'interval 5, ending' "task replay: b #5"
expect "^db\[1000\] +$(disp 5 'db[1000]') " "task replay: db's interval 5"
keys T; expect 'interval 4, ending' "task replay: T steps back"
expect "^db\[1000\] +$(disp 4 'db[1000]') " "task replay: db's interval 4 after going back"
[ "$(shown)" = "$(rows_at 4 | sort)" ] && ok || fail "task rows after T are not interval 4's: $(shown | tr '\n' ' ')"
keys b '+2' Enter; expect 'interval 2, ending' "task replay: b +2 back to 2 s"
expect "^web\[1100\] +$(disp 2 'web[1100]') " "task replay: web's interval 2"
[ "$(shown)" = "$(rows_at 2 | sort)" ] && ok || fail "task rows after b +2 are not interval 2's: $(shown | tr '\n' ' ')"
# the payer pane of the second row: the row's own P50 and P99 cells
row=$(screen | awk '/^TASK +DISP/ { getline; getline; print; exit }')
hdr=$(screen | grep -m1 -E '^TASK +DISP')
cell() { awk -v h="$hdr" -v r="$row" -v c="$1" 'BEGIN { n = split(h, a, " +"); split(r, b, " +")
	for (i = 1; i <= n; i++) if (a[i] == c || a[i] == "*" c) print b[i] }'; }
p50=$(cell P50) p99=$(cell P99)
keys Down Enter
expect "^Who pays: process $(awk '{ print $1 }' <<<"$row" | sed 's/[][]/\\&/g')" "task replay: Enter opens no payer pane"
[ -n "$p50" ] && [ "$p50" != "$p99" ] && expect "dispatch wait p50 $p50 p99 $p99\$" \
	"the payer pane's p50/p99 are not the row's ($p50, $p99)" || fail "no distinct P50/P99 cells: $row"
keys q
[ ! -s "$tmp/w8.err" ] && ok || fail "task replay stderr: $(cat "$tmp/w8.err")"
finish
