#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Every figure true or visibly marked, every loss visible: steal within the
# interval, masks, gaps from real perf.data files, replay re-aggregation, and
# the bad input that used to hang, crash or mislead. Expected values come from
# the spec or from what upstream perf 7.3.4 decoded (../shared/data/perf-7.3).
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

col() { head -1 "$1" | tr , '\n' | grep -nx "$2" | cut -d: -f1; }
# col_sum CSV FIELD ROW: the field summed over the rows named ROW (third field)
col_sum() { awk -F, -v k="$(col "$1" "$2")" -v r="$3" 'NR > 1 && $3 == r { s += $k } END { print s + 0 }' "$1"; }

# --- steal and idle are shares of the interval: never above 100 (0.1.0 printed up to 423)
"$DTLTOP" --sim=vcpus=64,ent=2,pool=4,oent=2,load=0.99,other=4,clock=virtual -b -n 20 -d 0.2 --format=csv \
	>"$tmp/over.csv" || fail "overcommitted run"
s=$(col "$tmp/over.csv" steal_pct) i=$(col "$tmp/over.csv" idle_pct)
awk -F, -v s="$s" -v i="$i" 'NR > 1 { n++; if ($s > 100.0001 || $s < 0 || $s + $i > 100.0001) bad++ }
	END { exit !(n == 20 * 65 && !bad) }' "$tmp/over.csv" && ok || fail "steal_pct or steal+idle above 100"
# and a partition wanting four times its entitlement from a full pool waits: steal is
# high, not clipped to nothing
awk -F, -v s="$s" '$3 == "all" && $s > 50 { n++ } END { exit !(n >= 15) }' "$tmp/over.csv" && ok \
	|| fail "overcommitted partition shows little steal"

# --- a frame (frame=): the LPARs of a pool, each its own dtltop, take at most the pool
# together; the greedy one (weight 255) is not limited and takes the most above its
# entitlement, its neighbours of weight 32 are starved by it, the other pool has room
frame=contrib/sim/frame.conf
for n in greedy web db dev test; do
	"$DTLTOP" --no-config --sim=frame=$frame,name=$n,clock=virtual -d 10 -n 3 --format=json |
		tail -1 | jq -r --arg n "$n" '[$n, .pool_id, .physc, .physc - .physc * 100 / .entc_pct,
			.verdict] | @tsv' >>"$tmp/frame.tsv" 2>"$tmp/frame.err"
done
awk -F'\t' '{ use[$2] += $3 } END { exit !(NR == 5 && use[1] <= 8 && use[1] > 7.5 && use[2] <= 4) }' \
	"$tmp/frame.tsv" && ok || fail "a frame's pools overcommitted: $(tr '\n\t' '; ' <"$tmp/frame.tsv")"
[ "$(sort -t"$(printf '\t')" -k4,4gr "$tmp/frame.tsv" | head -1 | cut -f1)" = greedy ] &&
	[ "$(awk -F'\t' '{ printf "%s=%s ", $1, $5 }' "$tmp/frame.tsv")" = \
	  "greedy=borrowing web=starved db=starved dev=borrowing test=borrowing " ] && ok ||
	fail "a frame's verdicts: $(tr '\n\t' '; ' <"$tmp/frame.tsv") $(cat "$tmp/frame.err")"

# --- the mask: a column on every row, and the text says what is left out
"$DTLTOP" --sim=vcpus=4,clock=virtual -e cede -b -n 2 --csv >"$tmp/cede.csv"
m=$(col "$tmp/cede.csv" mask)
awk -F, -v m="$m" 'NR > 1 && $m != "0x1" { bad = 1 } END { exit bad }' "$tmp/cede.csv" && ok \
	|| fail "-e cede rows lack mask 0x1"
"$DTLTOP" --sim=vcpus=4,clock=virtual -e cede -b -n 1 | grep -q 'partial: preempt, fault not traced' && ok \
	|| fail "batch text does not mark the partial mask"
"$DTLTOP" --sim=vcpus=4,clock=virtual -b -n 1 | grep -q 'partial' && fail "full mask marked partial" || ok

# --- the aggregate of -C is not the partition
"$DTLTOP" --sim=vcpus=8,clock=virtual -C 0-3 -b -n 1 | grep -q '^selected: ' && ok || fail "text: -C row not 'selected'"

# --- -s takes what the screen shows
"$DTLTOP" --sim=vcpus=8,clock=virtual -b -n 1 -s STEAL% --csv >"$tmp/s1.csv" || fail "-s STEAL% refused"
"$DTLTOP" --sim=vcpus=8,clock=virtual -b -n 1 -s steal_pct --csv | cmp -s - "$tmp/s1.csv" && ok \
	|| fail "-s STEAL% sorts unlike -s steal_pct"
"$DTLTOP" --sim=vcpus=8,clock=virtual -b -n 1 -s -disp/s --csv >/dev/null && ok || fail "-s -disp/s refused"

# --- -o without -b off a terminal: batch is implied
"$DTLTOP" --sim=vcpus=4,clock=virtual -n 1 --csv -o "$tmp/nob.csv" </dev/null >/dev/null && [ -s "$tmp/nob.csv" ] \
	&& ok || fail "-o without -b off a terminal"
expect_error "-o ''" "-o needs a file name" --sim -b -n 1 -o ''

# --- replay: -d re-aggregates a multiple of the recorded interval
"$DTLTOP" --sim=vcpus=4,clock=virtual -b -n 12 -d 0.5 --csv -o "$tmp/half.csv" -w "$tmp/half.dtl" || fail "rec"
"$DTLTOP" -r "$tmp/half.dtl" -b -d 1.5 --csv >"$tmp/r15.csv" || fail "replay -d 1.5"
d=$(col "$tmp/half.csv" dispatches) l=$(col "$tmp/half.csv" lost)
# live: add up rows in threes per CPU; the replay's rows must be those sums
awk -F, -v d="$d" 'NR > 1 { k = int((NR - 2) / 5 / 3); s[k "," $3] += $d } END { for (x in s) print x, s[x] }' \
	"$tmp/half.csv" | sort >"$tmp/want"
awk -F, -v d="$d" 'NR > 1 { k = int((NR - 2) / 5); print k "," $3, $d }' "$tmp/r15.csv" | sort >"$tmp/got"
[ "$(wc -l <"$tmp/got")" -eq 20 ] && cmp -s "$tmp/want" "$tmp/got" && ok || fail "replay -d 1.5: $(diff "$tmp/want" "$tmp/got" | head -3)"
grep -q '^2025-01-01T00:00:01.500Z,1.500,0,' "$tmp/r15.csv" && ok || fail "replay -d 1.5: interval and time"
expect_error "replay -d not a multiple" "-d 0.7 is not a multiple of the 0.5 s interval" -r "$tmp/half.dtl" -b -d 0.7
expect_error "replay -C of no recorded CPU" "-C selects no CPU of $tmp/half.dtl (it has 0-3)" -r "$tmp/half.dtl" -b -C 100
expect_error "-e with -r" "-e does not apply to -r" -r "$tmp/half.dtl" -b -e cede

# --- replay with -C and -w keeps only the selected CPUs, as a recording of its own
"$DTLTOP" -r "$tmp/half.dtl" -b -C 1,2 --csv -w "$tmp/sub.dtl" -o "$tmp/sub.csv" || fail "replay -C -w"
"$DTLTOP" -r "$tmp/sub.dtl" -b --csv >"$tmp/sub2.csv" || fail "replay of the -C recording"
[ "$(awk -F, 'NR > 1 { print $3 }' "$tmp/sub2.csv" | sort -u | tr '\n' ' ')" = "1 2 all " ] && ok \
	|| fail "replay -C -w wrote other CPUs: $(awk -F, 'NR > 1 { print $3 }' "$tmp/sub2.csv" | sort -u | tr '\n' ' ')"
# and it holds only their entries: about half the bytes of the four CPUs'
[ "$(stat -c %s "$tmp/sub.dtl")" -lt $(($(stat -c %s "$tmp/half.dtl") * 3 / 4)) ] && ok \
	|| fail "replay -C -w recorded other CPUs' entries too"
# the selected CPUs' rows are the original recording's rows
cmp -s <(grep -E '^[^,]*,[^,]*,[12],' "$tmp/half.csv") <(grep -E '^[^,]*,[^,]*,[12],' "$tmp/sub2.csv") && ok \
	|| fail "replay -C -w changed the selected CPUs' rows"

# --- a recording with lost entries (rings lapped between 200 ms polls) replays them exactly
"$DTLTOP" --sim=vcpus=4,busy=0.01,slice=0.1,poll=200,clock=virtual -b -n 3 --csv -w "$tmp/lost.dtl" \
	-o "$tmp/lost.csv" || fail "lost run"
awk -F, -v l="$(col "$tmp/lost.csv" lost)" '$3 == "all" { s += $l } END { exit !(s > 1000) }' "$tmp/lost.csv" \
	&& ok || fail "the lapped simulator lost nothing"
"$DTLTOP" -r "$tmp/lost.dtl" -b --csv | cmp -s - "$tmp/lost.csv" && ok || fail "replay of lost entries differs"

# --- a debugfs recording: its intervals are what the clock measured, not the header's
# 0.1 s to the digit; the replay shows the recorded ones, rates and all
w=$tmp/wall
mkdir -p "$w/sys/kernel/debug/powerpc/dtl" "$w/sys/devices/system/cpu" "$w/proc"
echo 0 >"$w/sys/devices/system/cpu/online"
echo 0x7 >"$w/sys/kernel/debug/powerpc/dtl/dtl_event_mask"
printf 'processor\t: 0\ntimebase\t: 512000000\n' >"$w/proc/cpuinfo"
# one entry: dispatch 3, preempt 4, proc 1, e2d 512 ticks, timebase 9
{ printf '\x03\x04\x00\x01\x00\x00\x02\x00'; head -c 15 /dev/zero; printf '\x09'; head -c 24 /dev/zero; } \
	>"$w/sys/kernel/debug/powerpc/dtl/cpu-0"
"$DTLTOP" --source=debugfs --root "$w" -b -n 3 -d 0.1 --csv -w "$tmp/wall.dtl" -o "$tmp/wall.csv" \
	2>/dev/null || fail "debugfs recording"
awk -F, 'NR > 1 && $2 != "0.100" { n++ } END { exit !n }' "$tmp/wall.csv" && ok \
	|| echo "truth.sh: every measured interval was 0.100 s to the ms; the check below still holds"
"$DTLTOP" -r "$tmp/wall.dtl" -b --csv | cmp -s - "$tmp/wall.csv" && ok || fail "replay of a debugfs recording differs"

# --- replay from a pipe, a FIFO or <(...)
cat "$tmp/half.dtl" | "$DTLTOP" -r /dev/stdin -b --csv | cmp -s - "$tmp/half.csv" && ok || fail "recording through a pipe"
"$DTLTOP" -r <(cat "$tmp/half.dtl") -b --csv | cmp -s - "$tmp/half.csv" && ok || fail "recording through <(...)"

# --- a recording cut where kill -9 leaves it (between chunks) says so (format 2's last chunk,
# the end marker, is about 150 bytes: its stream table is 100)
size=$(stat -c %s "$tmp/half.dtl")
silent=0 marker=0
for cut in $(seq $((size - 200)) $((size - 1))); do
	head -c "$cut" "$tmp/half.dtl" >"$tmp/cut.dtl"
	"$DTLTOP" -r "$tmp/cut.dtl" -b --csv >/dev/null 2>"$tmp/cut.err"
	grep -q warning "$tmp/cut.err" || silent=$((silent + 1))
	grep -q 'ends without its end marker' "$tmp/cut.err" && marker=$((marker + 1))
done
[ "$silent" -eq 0 ] && [ "$marker" -ge 1 ] && ok || fail "cut recordings: $silent silent, $marker with the marker warning"
"$DTLTOP" -r "$tmp/half.dtl" -b --csv 2>&1 >/dev/null | grep -q . && fail "a whole recording warns" || ok

# --- 1920 and 8192 CPUs replay whole (the header's CPU list was cut at 8191 bytes)
for n in 1920 8192; do
	"$DTLTOP" --sim=vcpus=$n,clock=virtual -b -n 1 --csv -w "$tmp/big$n.dtl" -o "$tmp/big$n.csv" || fail "big $n"
	"$DTLTOP" -r "$tmp/big$n.dtl" -b --csv | cmp -s - "$tmp/big$n.csv" && ok || fail "$n CPUs: replay differs"
	[ "$(grep -c ',all,' "$tmp/big$n.csv")" -eq 1 ] && [ "$(wc -l <"$tmp/big$n.csv")" -eq $((n + 2)) ] && ok \
		|| fail "$n CPUs: rows"
done

# --- real perf.data from upstream perf 7.3.4 (per-CPU counts from its README)
pdcheck() { # file want-per-cpu want-gaps-per-cpu want-mask
	local f=$1 csv=$tmp/$1.csv
	zcat "tests/data/$f.perf.data.gz" >"$tmp/$f.perf.data"
	"$DTLTOP" -r "$tmp/$f.perf.data" -b --csv -o "$csv" 2>"$tmp/$f.err" || { fail "$f: exit $?"; return; }
	local d g m
	d=$(col "$csv" dispatches) g=$(col "$csv" gaps) m=$(col "$csv" mask)
	awk -F, -v d="$d" -v g="$g" -v m="$m" -v want="$2" -v gaps="$3" -v mask="$4" \
		'NR > 1 && $3 != "all" { n[$3] += $d; G[$3] += $g; if ($m != mask) bad = 1 }
		 END { if (length(n) != 4) exit 1; for (c in n) if (n[c] != want || G[c] != gaps) exit 1; exit bad }' \
		"$csv" && ok || fail "$f: per-CPU dispatches/gaps/mask differ from perf's"
}
pdcheck all 1100 0 0x7
pdcheck lap 144 1 0x7
pdcheck cede 10 0 0x1
pdcheck preempt 10 0 0x2
pdcheck fault 10 0 0x4
pdcheck freq 40 0 0x7
pdcheck mixed 1130 0 0x7
pdcheck pipe 1150 0 0x7
grep -qx "dtltop: warning: $tmp/lap.perf.data: AUX data had gaps in it 4 times out of 8!" "$tmp/lap.err" && ok \
	|| fail "lap: no gap summary like perf's: $(cat "$tmp/lap.err")"
[ ! -s "$tmp/all.err" ] && ok || fail "all: unexpected stderr: $(cat "$tmp/all.err")"
"$DTLTOP" -r "$tmp/lap.perf.data" -b -n 10 2>/dev/null | grep -qE '^ +[0-3] .* gap ' && ok || fail "lap: LOST does not read gap"
"$DTLTOP" -r "$tmp/cede.perf.data" -b -n 1 | grep -q 'partial: preempt, fault not traced' && ok \
	|| fail "cede.perf.data: not marked partial"
cat "$tmp/pipe.perf.data" | "$DTLTOP" -r /dev/stdin -b --csv 2>/dev/null | cmp -s - "$tmp/pipe.csv" && ok \
	|| fail "pipe-mode perf.data through a pipe"
gzip -dc tests/data/all.perf.data.gz | "$DTLTOP" -r /dev/stdin -b --csv 2>/dev/null | cmp -s - "$tmp/all.csv" && ok \
	|| fail "perf.data through a pipe"

# --- who pays from a perf.data: upstream perf 7.3 recorded switches.perf.data
# in the QEMU rig (perf record -a --switch-events -e vpa_dtl/dtl_all/, a busy
# 'yes' pinned to CPU 1; tests/interop/init.sh) and listed it with perf script
# --ns --show-switch-events: dtltop's import charges every entry to the pid
# that perf's own switch records say ran at its preempt instant
. tests/interop/payers.sh
zcat tests/data/switches.perf.data.gz >"$tmp/switches.perf.data"
zcat tests/data/switches.perf-script.txt.gz >"$tmp/switches.sw"
if "$DTLTOP" -r "$tmp/switches.perf.data" -b --group=task --csv -o "$tmp/sw-task.csv" 2>"$tmp/sw.err"; then
	P=$(perf_payers "$tmp/switches.sw") T=$(dtltop_payers "$tmp/sw-task.csv")
	[ -n "$P" ] && [ "$P" = "$T" ] && ok || fail "switches.perf.data: per pid, perf [$(echo $P)], dtltop [$(echo $T)]"
	# and the busy task is named as perf names it, with all of CPU 1's entries
	grep -q ',yes\[451\],' "$tmp/sw-task.csv" && ok || fail "switches.perf.data: no row yes[451]"
	[ "$(awk '$1 == 451 { print $2 }' <<<"$T")" = 604 ] && ok || fail "switches.perf.data: yes[451] not charged CPU 1's 604"
	[ ! -s "$tmp/sw.err" ] && ok || fail "switches.perf.data: stderr: $(cat "$tmp/sw.err")"
else
	fail "switches.perf.data: exit $?: $(cat "$tmp/sw.err")"
fi
# the same file with its switch records damaged: counted, said, the entries all kept
python3 - "$tmp/switches.perf.data" "$tmp/sw-bad.perf.data" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
off, size = struct.unpack_from('<QQ', d, 40)
end, n = off + size, 0
while off + 8 <= end:
    t, misc, sz = struct.unpack_from('<IHH', d, off)
    if sz < 8:
        break
    if t == 15 and misc & 0x2000 and n < 5:	# OUT, to a pid of -5
        struct.pack_into('<i', d, off + 8, -5)
        n += 1
    off += sz
open(sys.argv[2], 'wb').write(d)
PY
"$DTLTOP" -r "$tmp/sw-bad.perf.data" -b --group=task --csv -o "$tmp/swb.csv" 2>"$tmp/swb.err" && ok || fail "damaged switches: exit"
grep -q "warning: .*sw-bad.perf.data: task records (switch, comm, fork): 5 damaged, 0 switches not kept" "$tmp/swb.err" && ok \
	|| fail "damaged switches: not said: $(cat "$tmp/swb.err")"
[ "$(col_sum "$tmp/swb.csv" dispatches all)" = "$(col_sum "$tmp/sw-task.csv" dispatches all)" ] && ok \
	|| fail "damaged switches: entries lost with them"
"$DTLTOP" -r "$tmp/switches.perf.data" -b -n 1 | grep -q 'task switches' && ok || fail "switches.perf.data: header does not say it has task switches"
"$DTLTOP" -r "$tmp/all.perf.data" -b -n 1 --group=task 2>&1 | grep -q 'no task data' && ok \
	|| fail "a perf.data without switch records: rows not said to be no task data"

# --- a replay shows what was recorded, never this machine's lparcfg
mkdir -p "$tmp/lr/proc/powerpc"
printf 'partition_entitled_capacity=200\nshared_processor_mode=1\n' >"$tmp/lr/proc/powerpc/lparcfg"
"$DTLTOP" -r "$tmp/half.dtl" --root "$tmp/lr" -b -n 1 | grep -q '^LPAR ent 2.00' && fail "replay shows the local lparcfg" || ok

# --- a timebase no machine has is refused (1 Hz gave steal 1002352 %)
dbg=$tmp/tb
mkdir -p "$dbg/sys/kernel/debug/powerpc/dtl" "$dbg/sys/devices/system/cpu" "$dbg/proc"
echo 0 >"$dbg/sys/devices/system/cpu/online"
echo 0x7 >"$dbg/sys/kernel/debug/powerpc/dtl/dtl_event_mask"
: >"$dbg/sys/kernel/debug/powerpc/dtl/cpu-0"
printf 'processor\t: 0\ntimebase\t: 1\n' >"$dbg/proc/cpuinfo"
expect_error "1 Hz timebase" "timebase 1 Hz is not a timebase" --source=debugfs --root "$dbg" -b -n 1
printf 'processor\t: 0\ntimebase\t: 512000000\n' >"$dbg/proc/cpuinfo"

# --- files that never end, and FIFOs, under --root do not hang dtltop
ln -sf /dev/zero "$dbg/sys/kernel/debug/powerpc/dtl/cpu-0"
timeout -k 5 20 "$DTLTOP" --source=debugfs --root "$dbg" -b -n 2 -d 0.1 --csv >"$tmp/zero.csv" 2>&1
rc=$?
[ $rc -eq 0 ] && awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } $3 == "0" && $c["bad"] > 0 { n++ } END { exit !n }' "$tmp/zero.csv" && ok \
	|| fail "debugfs cpu-0 -> /dev/zero: exit $rc"
timeout -k 5 20 "$DTLTOP" --source=debugfs --root "$dbg" -b -d 1 >/dev/null 2>&1 &
pid=$!
sleep 1.5
kill -TERM $pid
wait $pid
rc=$?
[ $rc -ne 124 ] && ok || fail "debugfs /dev/zero: SIGTERM ignored"
rm "$dbg/sys/kernel/debug/powerpc/dtl/cpu-0"
: >"$dbg/sys/kernel/debug/powerpc/dtl/cpu-0"
for f in proc/cpuinfo proc/powerpc/lparcfg sys/devices/system/cpu/online; do
	mkdir -p "$(dirname "$dbg/$f")"
	mv "$dbg/$f" "$dbg/$f.keep" 2>/dev/null
	mkfifo "$dbg/$f"
	timeout -k 5 10 "$DTLTOP" --source=debugfs --root "$dbg" -b -n 1 -d 0.1 >/dev/null 2>&1
	[ $? -ne 124 ] && ok || fail "a FIFO at $f hangs dtltop"
	rm "$dbg/$f"
	mv "$dbg/$f.keep" "$dbg/$f" 2>/dev/null
done

# a device is not a file: lparcfg pointing at /dev/urandom is refused, not parsed
mkdir -p "$dbg/proc/powerpc"
ln -sf /dev/urandom "$dbg/proc/powerpc/lparcfg"
timeout -k 5 10 "$DTLTOP" --source=debugfs --root "$dbg" -b -n 1 -d 0.1 2>/dev/null | grep -q '^LPAR' \
	&& fail "a device at proc/powerpc/lparcfg was parsed" || ok
rm "$dbg/proc/powerpc/lparcfg"

# --- every signal whose default ends the process, during -b -o FILE: what was written is
# kept (renamed into place), no temporary is left, and the exit is clean
for sig in INT TERM HUP USR1 USR2 ALRM; do
	(cd "$tmp" && exec "$DTLTOP" --sim=vcpus=4 -b -d 0.1 --csv -o "$sig.csv") &
	pid=$!
	for _ in $(seq 50); do [ -e "$tmp/$sig.csv" ] || ls "$tmp" | grep -q "$sig.csv.*tmp" && break; sleep 0.1; done
	sleep 0.3
	kill -"$sig" $pid
	wait $pid
	rc=$?
	[ $rc -eq 0 ] && [ -s "$tmp/$sig.csv" ] && ! ls "$tmp" | grep -q "$sig.csv.*tmp" && ok ||
		fail "SIG$sig lost the output (rc $rc): $(ls "$tmp" | grep "$sig" | tr '\n' ' ')"
done

# --- a slow simulated interval (about 20 s) still stops at once on a signal
start=$SECONDS
timeout -s INT 1 "$DTLTOP" --sim=vcpus=8192,busy=0.01,slice=0.1,poll=0.1 -b -n 1 >/dev/null 2>&1
[ $((SECONDS - start)) -le 3 ] && ok || fail "SIGINT waited for a slow interval ($((SECONDS - start)) s)"

finish
