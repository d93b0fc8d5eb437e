#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The TUI as a person uses it: tmux runs dtltop, send-keys types, capture-pane
# reads the screen. Each step waits for what it expects (up to a deadline).
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
command -v tmux >/dev/null || { echo "tui.sh: tmux missing (scripts/deps.sh installs it)"; exit 1; }

. tests/tmux.sh

mkdir -p "$tmp/run" "$tmp/root/proc/powerpc"
printf 'partition_entitled_capacity=1600\nshared_processor_mode=1\ncapped=0\npartition_active_processors=64\npool_capacity=3200\ndispatches=5\n' \
	>"$tmp/root/proc/powerpc/lparcfg"
T new-session -d -s t -x 120 -y 40 -c "$tmp/run" \
	"$DTLTOP --sim=vcpus=64 --root $tmp/root -d 0.3 2>$tmp/stderr; echo EXITED \$? >$tmp/exit; sleep 30"
expect '^dtltop .*mask all \(0x7\).*8 VPs x SMT8 = 64 CPUs' "header with mask, VPs and source"
expect '^sim vcpus=64' "the source's detail, on a line of its own where the title has no room"
expect '^ +\*CPU +DISP/s' "column heading, sorted by CPU"
expect '^ +0 +[0-9]' "first vCPU row"
expect 'rows 1-[0-9]+ of 64' "status line with the row range"
# the simulator's own lparcfg (it stands for the partition; --root's is for real sources)
expect '^LPAR ent 4\.00  shared uncapped weight 128  VPs 8  pool 8\.00  physc [0-9.]+  entc [0-9.]+%  app [0-9.]+  disp/s [0-9]+$' "lparcfg facts in the header"

# v folds the threads into virtual processors, as top's 1 folds CPUs, and back
keys v
expect 'a row per virtual processor' "v says rows are VPs"
expect '^ +\*VP +DISP' "v renames the column VP"
keys C-l	# the message gives way to the row range
expect 'rows 1-8 of 8' "v: eight VP rows"
expect '^ +1 +[0-9]' "v: VPs numbered 0..N-1, the second is 1"
expect 'v CPUs' "v's hint says where it goes back to"
keys Enter
expect 'VP 0 \(CPUs 0-7\) in detail' "the detail pane names a VP by number and CPUs"
keys Escape
keys v
expect 'a row per CPU' "v again says rows are CPUs"
keys C-l
expect 'rows 1-[0-9]+ of 64' "v again: a row per CPU"
expect '^ +\*CPU +DISP' "v again: the column is CPU"

# since-start totals and their reset
keys i
expect '\[since start\]' "i shows totals since start"
keys r
expect 'totals reset' "r resets the totals"
keys i
if wait_for '\[since start\]' 1; then sleep 0.5; screen | grep -q '\[since start\]' && fail "i did not switch back" || ok; else ok; fi

# mask toggles take effect at once and show in the header, and in the figures: with
# cede off, the CEDE column of every row is 0 once an interval has passed
cede_col() { screen | awk '/^ +\*?CPU/ { for (i = 1; i <= NF; i++) if ($i == "CEDE" || $i == "*CEDE") print i }'; }
cedes() { local k; k=$(cede_col); screen | awk -v k="$k" '/^ +[0-9]+ +[0-9.]+ / { print $k }' | head -20; }
keys c
expect 'mask preempt,fault \(0x6\)' "c clears the cede bit"
sleep 0.8
v=$(cedes)
[ -n "$v" ] && [ -z "$(grep -v '^0$' <<<"$v")" ] && ok || fail "cede off, yet CEDE counts: $(echo $v)"
keys a
sleep 0.8
v=$(cedes)
[ -n "$(grep -v '^0$' <<<"$v")" ] && ok || fail "cede back on, yet no CEDE counted: $(echo $v)"
keys c
expect 'mask preempt,fault \(0x6\)' "c clears the cede bit again"
keys p
expect 'mask fault \(0x4\)' "p clears the preempt bit"
keys f
expect 'mask fault \(0x4\)' "f refuses to clear the last bit"
expect 'cannot be empty' "status says why"
keys a
expect 'mask all \(0x7\)' "a selects all"
keys f
expect 'mask cede,preempt \(0x3\)' "f toggles the fault bit"
keys a

# export a snapshot: the status line names the file, the file is CSV
keys e
expect 'exported 64 rows to \./dtltop-[0-9]{8}-[0-9]{6}\.csv' "export names the file"
f=$(ls "$tmp"/run/dtltop-*.csv 2>/dev/null | head -1)
if [ -n "$f" ] && head -1 "$f" | grep -q '^timestamp,interval_s,cpu,dispatches,' && [ "$(wc -l <"$f")" -eq 66 ]; then ok
else fail "exported CSV: ${f:-none}"; fi

# sorting: > moves to DISP/s (descending), R reverses
keys '>'
expect '^ +CPU +\*DISP/s' "> moves the sort column"
# a capture can fall mid-redraw on a loaded machine: a few looks, one must be whole and sorted
for i in 1 2 3 4 5; do
	sleep 0.7
	rates=$(screen | awk '/^ +[0-9]+ +[0-9.]+ /{print $2}' | head -20)
	sorted=$(echo "$rates" | sort -rn)
	[ -n "$rates" ] && [ "$rates" = "$sorted" ] && break
done
[ -n "$rates" ] && [ "$rates" = "$sorted" ] && ok || fail "rows not sorted by DISP/s descending: $rates"
keys R
sleep 0.7
rates=$(screen | awk '/^ +[0-9]+ +[0-9.]+ /{print $2}' | head -20)
[ -n "$rates" ] && [ "$rates" = "$(echo "$rates" | sort -n)" ] && [ "$rates" != "$sorted" ] && ok \
	|| fail "R did not reverse: $rates"
keys '<' R
# P: steal, the worst first, as top's P; again: CPUs
keys P
expect 'sort steal_pct' "P sorts by steal"
expect '^ +CPU +DISP/s +INVOL% +STEAL +\*STEAL%' "P marks STEAL%"
keys P
expect 'sort cpu ' "P again: back to CPUs"
# F6: a field by its heading, ps's signs
keys F6
expect 'Sort by a heading or CSV field' "F6 prompts for a field"
keys '+P99' Enter
expect 'sort \+lat_p99_us' "F6 +P99 sorts by p99 ascending"
keys F6 cpu Enter
expect 'sort cpu ' "F6 cpu: back to CPUs"
# the filter takes the headings and the units on screen
keys F4
expect 'Filter, e.g. STEAL%>20 P99>10ms' "F4 prompts for a filter"
keys 'P99>=0us' Enter
expect 'filter P99>=0us' "a filter by heading with a unit"
keys / C-u Enter
# b on a live run says at once that it only jumps in a replay, and q still quits after it
keys b
expect 'b jumps in a replay \(-r\); this run is live' "b refused at once when live"
screen | grep -q 'Jump to' && fail "b opened the jump prompt on a live run" || ok

# scrolling
keys End
expect '^ +63 ' "End shows the last vCPU"
expect 'rows [0-9]+-64 of 64' "status after End"
keys Home
expect '^ +0 ' "Home shows the first"

# interval prompt: bad value is refused on the status line, good one applied
keys d
expect 'Interval in seconds' "d prompts"
keys 'x' Enter
expect "bad interval 'x'" "bad interval refused"
keys d '0.5' Enter
expect 'every 0\.5s' "interval set to 0.5"

# pause freezes the table (the rows, not only the label), 'e' exports what is shown,
# space resumes
keys Space
expect '\[PAUSED\]' "space pauses"
sleep 0.3
rows() { screen | grep -E '^ +[0-9]+ +[0-9]' | head -20; }
head_lines() { screen | grep -E '^(LPAR|all|why|trend) '; }
before=$(rows)
hbefore=$(head_lines)
sleep 1.2	# four intervals of 0.3 s go by behind the paused screen
after=$(rows)
[ -n "$before" ] && [ "$before" = "$after" ] && ok || fail "paused rows changed: $before / $after"
# and the header with them: lparcfg's figures and the trend hold still too
[ -n "$hbefore" ] && [ "$hbefore" = "$(head_lines)" ] && ok \
	|| fail "paused header changed: $hbefore / $(head_lines)"
keys e
expect 'exported 64 rows to' "e while paused exports"
snap=$(ls -t "$tmp"/run/dtltop-*.csv | head -1)
# the shown rows' DISP/s (the 5th CSV field) equal the export's, CPU for CPU
shown=$(awk '{print $1, $2}' <<<"$before" | sort -n)
exported=$(awk -F, -v cpus="$(awk '{printf "%s ", $1}' <<<"$before")" \
	'BEGIN { n = split(cpus, c, " "); for (i = 1; i <= n; i++) want[c[i]] = 1 }
	 $3 in want { printf "%s %.1f\n", $3, $5 }' "$snap" | sort -n)
[ "$shown" = "$exported" ] && ok || fail "paused export differs from the screen: $shown / $exported"
keys Space
if wait_for '\[PAUSED\]' 1; then
	sleep 0.5; screen | grep -q '\[PAUSED\]' && fail "still paused" || ok
else ok; fi

# help: every key and the column legend with units
keys h
expect '^Keys' "help opens"
# the help screen's keys are --list-keys's, line for line: one table feeds both
sleep 0.3
missing=$("$DTLTOP" --list-keys | while IFS= read -r l; do screen | grep -qF -- "  $l" || echo "$l"; done)
[ -z "$missing" ] && ok || fail "keys of --list-keys not on the help screen: $missing"
keys NPage	# the legend follows the keys and the colours
expect 'STEAL% +steal_pct .*\[%\]' "legend names column, CSV field and unit"
keys q
expect '^ +\*CPU' "any key closes help"

# resize to 80x24: still usable, low-priority columns dropped
T resize-window -t t -x 80 -y 24
expect '^ +\*CPU +DISP/s +INVOL% .*LOST' "80x24 keeps the key columns"
# columns, not bytes: a sparkline's block is one character of three bytes
w=$(screen | LC_ALL=C sed 's/[\x80-\xbf]//g' | awk '{ if (length($0) > m) m = length($0) } END { print m }')
[ "$w" -le 80 ] && ok || fail "lines wider than 80 ($w)"
screen | grep -qE ' IDLE( |$)' && fail "80 columns still show IDLE" || ok
T resize-window -t t -x 160 -y 40
expect ' IDLE ' "wider terminal brings columns back"

# export into a directory that no longer exists: status error, TUI keeps running
T kill-server 2>/dev/null
sock="$sock-2"
mkdir -p "$tmp/gone"
T new-session -d -s t -x 120 -y 30 -c "$tmp/gone" \
	"$DTLTOP --sim -d 0.3 --no-color 2>$tmp/stderr2; echo EXITED \$? >$tmp/exit2; sleep 30"
expect '^ +\*CPU' "second run up"
rmdir "$tmp/gone"
keys e
expect 'export failed: cannot create' "unwritable directory reported"
expect '^ +0 +[0-9]' "TUI still running after a failed export"
keys q
for _ in $(seq 50); do [ -f "$tmp/exit2" ] && break; sleep 0.1; done
grep -q 'EXITED 0' "$tmp/exit2" 2>/dev/null && ok || fail "q did not exit 0: $(cat "$tmp/exit2" 2>/dev/null)"
[ ! -s "$tmp/stderr2" ] && ok || fail "stderr: $(cat "$tmp/stderr2")"

# --follow: a recording shown as it is written, each interval as it comes, to the writer's end
T kill-server 2>/dev/null
sock="$sock-f"
"$DTLTOP" --no-config --sim=vcpus=8 -d 0.5 -n 16 -b --csv -o /dev/null -w "$tmp/fol.dtl" 2>/dev/null &
fw=$!
for i in $(seq 50); do [ -s "$tmp/fol.dtl" ] && break; sleep 0.1; done
T new-session -d -s t -x 150 -y 30 "$DTLTOP --no-config -r $tmp/fol.dtl --follow --no-color 2>$tmp/stderrf; sleep 30"
expect '^all [0-9]+ disp/s' "--follow shows the first interval while the writer writes"
c1=$(screen | sed -n 's/^dtltop [^ ]*  \([0-9:]*\) UTC (recorded).*/\1/p')
sleep 1.5
c2=$(screen | sed -n 's/^dtltop [^ ]*  \([0-9:]*\) UTC (recorded).*/\1/p')
[ -n "$c1" ] && [ "$c1" != "$c2" ] && ! screen | grep -q 'end of the recording' && ok ||
	fail "--follow: the recorded clock went $c1 -> $c2 while the writer wrote"
expect 'end of the recording after interval 16$' "--follow ends with the writer's end marker" 25
! screen | grep -q 'killed' && ok || fail "--follow called a closed recording killed"
wait "$fw"

# --begin/--end in the TUI: the header says the recorded interval and the speed, T stays in
# the window, and the replay pauses at the window's end
T kill-server 2>/dev/null
sock="$sock-w"
"$DTLTOP" --no-config --sim=vcpus=2,smt=2,busy=50,clock=virtual -d 30 -n 40 -b -w "$tmp/win.dtl" >/dev/null ||
	fail "a recording for the window"
T new-session -d -s t -x 150 -y 30 "$DTLTOP --no-config -r $tmp/win.dtl --begin 00:05 --end 00:08 --speed 60 --no-color 2>$tmp/stderrw; sleep 30"
expect '30s intervals at 60x' "the header says the recorded interval and the speed"
expect 'end of the window \(--end 00:08\) after interval 16$' "the replay pauses at the window's end"
keys b '#11' Enter
expect 'interval 11, ending 00:05:30 UTC' "b jumps within the window"
keys T
expect 'already at the first interval of the window \(--begin\)' "T stays in the window"

# replay: t / T step, b jumps; what is shown is what the batch CSV has for that interval
T kill-server 2>/dev/null
sock="$sock-3"
"$DTLTOP" --sim=vcpus=8,clock=virtual --seed 5 -b -n 8 -d 1 -w "$tmp/r8.dtl" --csv >"$tmp/r8.csv" \
	|| fail "recording for the replay TUI"
disp() { awk -F, -v n="$1" '$3 == "0" && ++k == n { print $4 }' "$tmp/r8.csv"; }
T new-session -d -s t -x 150 -y 40 "$DTLTOP -r $tmp/r8.dtl --no-color 2>$tmp/stderr3; sleep 30"
expect 'replay of .*r8\.dtl: sim on' "replay header names the recording"
keys b
expect 'Jump to HH:MM' "b prompts for a time"
keys '#5' Enter
expect 'interval 5, ending 00:00:05 UTC \(paused' "b #5 jumps to interval 5"
expect "^ +0 +$(disp 5) " "cpu 0 shows interval 5's dispatches"
# skimmed to interval 4, read whole from there: the totals begin at 4's end, and say so
keys i
expect '\[since 00:00:04\]' "the totals after a jump say since when"
keys i
keys T
expect 'interval 4, ending 00:00:04 UTC' "T steps back"
expect "^ +0 +$(disp 4) " "cpu 0 shows interval 4's dispatches"
keys r i
expect '\[since 00:00:04\]' "r: totals since the interval shown"
keys Enter
expect 'CPU 0 in detail \(since 00:00:04\)' "the detail pane says since when too"
expect '^Dispatch latency since 00:00:04 \(' "and its histogram"
keys Escape
keys i
keys t t
expect 'interval 6, ending' "t steps forward"
expect "^ +0 +$(disp 6) " "cpu 0 shows interval 6's dispatches"
keys b '+2' Enter
expect 'interval 2, ending 00:00:02 UTC' "b +2 jumps back to 2 s after the start"
expect "^ +0 +$(disp 2) " "cpu 0 shows interval 2's dispatches"
keys i
expect '\[since start\]' "nothing passed over on the way to interval 2: the totals are since start"
keys i
keys b; keys -- '-3s' Enter
expect 'interval 5, ending 00:00:05 UTC' "b -3s counts back from the recording's end"
keys b '00:00:07' Enter
expect 'interval 7, ending 00:00:07' "b HH:MM:SS"
keys b 'zz' Enter
expect "bad time 'zz'" "a bad time is refused on the status line"
keys t t t
expect 'end of the recording after interval 8' "stepping past the end says so"
expect "^ +0 +$(disp 8) " "the last interval stays up"
keys T
expect 'interval 7, ending' "T works after the end"
keys q
[ ! -s "$tmp/stderr3" ] && ok || fail "replay stderr: $(cat "$tmp/stderr3")"

# T across a rotated set: from its third file back into its second, the rows the batch CSV has
T kill-server 2>/dev/null
sock="$sock-set"
"$DTLTOP" --no-config --sim=vcpus=2,clock=virtual -d 1 -n 9 -b --csv -o "$tmp/set.csv" -w "$tmp/set.dtl" \
	--rotate=3s || fail "a rotated set for T"
sdisp() { awk -F, -v n="$1" '$3 == "0" && ++k == n { print $4 }' "$tmp/set.csv"; }
T new-session -d -s t -x 150 -y 40 "$DTLTOP --no-config -r $tmp/set.dtl --no-color 2>$tmp/stderr-set; sleep 30"
keys b '#8' Enter
expect 'interval 8, ending 00:00:08 UTC' "b #8 in a set's third file"
keys T T T
expect 'interval 5, ending 00:00:05 UTC' "T back into the set's second file"
expect "^ +0 +$(sdisp 5) " "cpu 0 shows interval 5's dispatches"
keys q
[ ! -s "$tmp/stderr-set" ] && ok || fail "T across a set: $(cat "$tmp/stderr-set")"

# T from a mark: a replay read to interval 75 goes back to 74 from the mark at 64 (marks every
# 32 intervals), its task table restated there: who runs and the names told at interval 1; b to
# 66 goes back to the mark at 32, in the set's second file (30 intervals a file), into its third
T kill-server 2>/dev/null
sock="$sock-marks"
"$DTLTOP" --no-config --sim=vcpus=4,clock=virtual,tasks=postgres:3:/db.service+nginx:2 -d 1 -n 80 \
	-b --csv --group task -o "$tmp/marks.csv" -w "$tmp/marks.dtl" --rotate=30s || fail "a recording with tasks for T"
tdisp() { awk -F, -v n="$1" -v t="$2" '$3 == t && ++k == n { print $4 }' "$tmp/marks.csv"; }
T new-session -d -s t -x 150 -y 40 "$DTLTOP --no-config -r $tmp/marks.dtl --no-color 2>$tmp/stderr-marks; sleep 30"
keys b '#75' Enter
expect 'interval 75, ending 00:01:15 UTC' "b #75"
keys T
expect 'interval 74, ending 00:01:14 UTC' "T from interval 75"
keys v v
expect "^postgres\\[1000\\] +$(tdisp 74 'postgres[1000]') " "T from a mark: postgres named, interval 74's dispatches"
expect "^nginx\\[1100\\] +$(tdisp 74 'nginx[1100]') " "T from a mark: nginx named, interval 74's dispatches"
keys b '#66' Enter
expect 'interval 66, ending 00:01:06 UTC' "b #66, from a mark in the set's second file"
expect "^postgres\\[1000\\] +$(tdisp 66 'postgres[1000]') " "from a mark into the next file: interval 66's dispatches"
keys q
[ ! -s "$tmp/stderr-marks" ] && ok || fail "T from a mark: $(cat "$tmp/stderr-marks")"

# --attach: the TUI on a service's intervals; v reaches the task rows; c asks the service for
# the mask (root may set it directly), which its next intervals say; going back is refused with
# its reason; the service gone, the viewer says so, exit 1
T kill-server 2>/dev/null
sock="$sock-attach"
asock=$tmp/attach.sock
"$DTLTOP" --no-config --sim=vcpus=4,tasks=postgres:3:/db.service+nginx:2 -d 0.3 --serve --socket "$asock" \
	2>"$tmp/serve.err" &
srv=$!
for _ in $(seq 50); do [ -S "$asock" ] && break; sleep 0.1; done
T new-session -d -s t -x 150 -y 40 "$DTLTOP --no-config --attach=$asock --no-color 2>$tmp/stderr-att; echo exit \$?; sleep 30"
expect '^ +0 +[0-9]' "attached: rows come"
expect "replay of the summary $asock" "attached: the header names the socket"
keys v v
expect '^postgres\[[0-9]+\] +[0-9]' "attached: v reaches the tasks"
keys Down Enter
expect '^Who pays: process ' "attached: Enter on a task row: no payer pane"
expect '^  (copy_page|__memcpy_power7|tcp_sendmsg|ext4_file_write_iter|_raw_spin_lock|clear_user_page|memset) ' \
	"attached: the payer pane names no function of the service's (simulated) kernel"
keys Escape
keys c
expect "asked the service for the event mask preempt,fault \\(0x6\\)" "attached: c asks the service"
expect 'partial: cede not traced' "attached: the service's next intervals say its new mask"
keys T
expect "attached: the service's intervals go by as they come" "attached: T refused with the reason"
kill $srv
wait $srv
expect '^exit 1' "the service gone: the viewer ends, exit 1"
grep -q "the service at $asock went away" "$tmp/stderr-att" && ok || fail "the viewer did not say: $(cat "$tmp/stderr-att")"
[ ! -s "$tmp/serve.err" ] && ok || fail "the service: $(cat "$tmp/serve.err")"

# a mask change while recording: the screen says what is left out, and the
# recording keeps the mask per interval, so its replay says it too
T kill-server 2>/dev/null
sock="$sock-4"
T new-session -d -s t -x 150 -y 30 "$DTLTOP --sim=vcpus=8 -d 0.3 -w $tmp/mask.dtl --no-color 2>$tmp/stderr4; sleep 30"
expect '^ +0 +[0-9]' "mask run up"
expect ' -w [0-9.]+ [kMG]?B/s \([0-9.]+ [kMGT]?B/h\), [0-9.]+ [kMG]?B ' "-w's rate on the status line"
sleep 0.7
screen | grep -q 'partial' && fail "full mask marked partial on screen" || ok
keys c a
expect 'event mask now all' "c then a at once"
sleep 0.7
keys c
expect 'partial: cede not traced' "c marks the figures partial on screen"
sleep 1
keys q
for _ in $(seq 50); do T capture-pane -p -t t | grep -q '^dtltop' || break; sleep 0.1; done
"$DTLTOP" -r "$tmp/mask.dtl" -b --csv >"$tmp/mask.csv" 2>/dev/null || fail "mask replay"
m=$(head -1 "$tmp/mask.csv" | tr , '\n' | grep -nx mask | cut -d: -f1)
masks=$(awk -F, -v m="$m" '$3 == "all" { print $m }' "$tmp/mask.csv" | uniq | tr '\n' ' ')
# 0x6 twice: the interval of c-and-back-a, then the one from the last c on
[ "$masks" = "0x7 0x6 0x7 0x6 " ] && ok || fail "replayed masks per interval: $masks"
"$DTLTOP" -r "$tmp/mask.dtl" -b 2>/dev/null | grep -q 'partial: cede not traced' && ok || fail "replay text not partial"
# its report says which intervals traced less and shades them on every chart
"$DTLTOP" -r "$tmp/mask.dtl" --report "$tmp/mask.html" 2>/dev/null || fail "mask report"
grep -q 'the event mask changed: [0-9]* of [0-9]* intervals traced only preempt,fault' "$tmp/mask.html" \
	&& ok || fail "the report does not say the mask changed"
grep -q 'missing from every figure' "$tmp/mask.html" && fail "report: a partial mask called whole-run" || ok
[ "$(grep -c 'class="narrow"' "$tmp/mask.html")" -ge 8 ] && ok || fail "narrow intervals not shaded"

# a slow simulated interval (about 20 s to compute) still quits on q at once
T kill-server 2>/dev/null
sock="$sock-5"
rm -f "$tmp/exit5"
T new-session -d -s t -x 120 -y 30 "$DTLTOP --sim=vcpus=8192,busy=0.01,slice=0.1,poll=0.1; echo EXITED >$tmp/exit5; sleep 30"
sleep 2
keys q
for i in $(seq 20); do [ -f "$tmp/exit5" ] && break; sleep 0.05; done
[ -f "$tmp/exit5" ] && ok || fail "q took more than a second during a slow interval"

# --- the first screen and the header's budget: before the first interval only
# that it waits; after it, at 80x24 and 100x30, at most 7 header lines, the
# verdict and the trend among them, no line cut inside a token
for size in 80x24 100x30; do
	T kill-server 2>/dev/null
	sock="$sock-h$size"
	T new-session -d -s t -x "${size%x*}" -y "${size#*x}" \
		"$DTLTOP --no-config --sim=vps=8,ent=4,capped=1,load=0.7,pool=32,other=4 -d 2; sleep 30"
	expect 'waiting for the first interval to end \(2s\)' "$size: the first screen says it waits"
	screen | grep -qE 'partial:|VPA counters|not traced|DISP/s' && fail "$size: figures before the first interval" || ok
	expect '^ +\*CPU' "$size: the first interval" 6
	head=$(screen | awk '/^ +\*CPU/ { exit } { print }')
	[ "$(wc -l <<<"$head")" -le 7 ] && ok || fail "$size: header of $(wc -l <<<"$head") lines"
	tr '\n' ' ' <<<"$head" | grep -q 'why: capped at its entitlement (4.00, entc 100%): waits [0-9]*% of wanted CPU time; the pool has 2[0-9].[0-9]* of 32 idle. Raise the entitlement, or uncap it.' && ok \
		|| fail "$size: no verdict line: $head"
	grep -q '^trend [0-9]*s: steal ' <<<"$head" && ok || fail "$size: no trend line"
	# every line ends at a token's end: a wrapped line starts with a word, never mid-number
	grep -qE '^[0-9.]+[a-z%]*$|^[a-z]{1,3}$' <<<"$head" && fail "$size: a token split: $head" || ok
	# the status line's hints end whole
	screen | tail -1 | grep -qE '(  [^ ]+ [^ ]+|\+)$' && ok || fail "$size: status cut: $(screen | tail -1)"
	# the detail pane: every reason's name and share whole, cut by columns, not bytes
	keys Enter
	expect 'CPU 0 in detail' "$size: the detail pane opens"
	reasons=$(screen | grep -E '^  [A-Za-z_]+ +[0-9]+ ')
	[ -n "$reasons" ] && ! grep -vqE ' [0-9]+\.[0-9]%( +<p[0-9]+)*$' <<<"$reasons" && ok \
		|| fail "$size: detail lines cut: $reasons"
	keys Escape
	# the help screen: each key's text whole, wrapped between words
	keys h
	expect '^Keys' "$size: help opens"
	page=""
	for _ in 1 2 3 4; do page+=$(screen | sed '$d'; echo); keys NPage; sleep 0.3; done
	flat=$(tr -s ' \n' '  ' <<<"$page")
	missing=$("$DTLTOP" --list-keys | cut -c15- | tr -s ' ' | while IFS= read -r l; do
		grep -qF -- "$l" <<<"$flat" || echo "$l"; done)
	[ -z "$missing" ] && ok || fail "$size: help text cut: $missing"
	keys q
done

# the README's screen is what dtltop shows now (scripts/readme-screen.sh makes it)
awk '/^<!-- screen:/ { on = 1; next } on && /^```$/ { n++; if (n == 2) exit; next } on && n == 1' README.md \
	>"$tmp/readme-screen"
DTLTOP=$DTLTOP scripts/readme-screen.sh >"$tmp/screen-now" || fail "readme-screen.sh"
[ "$(wc -l <"$tmp/readme-screen")" -eq 24 ] && cmp -s "$tmp/readme-screen" "$tmp/screen-now" && ok \
	|| fail "README's screen is stale (make readme-screen): $(diff "$tmp/readme-screen" "$tmp/screen-now" | head -4)"
# and so is the man page's SCREEN, the same capture in roff
scripts/man-screen.sh "$tmp/screen-now" >"$tmp/man-screen"
awk '/^\.\\" screen: made/ { on = 1 } on { print } /^\.\\" screen: end/ { exit }' man/dtltop.1 \
	>"$tmp/man-screen-now"
[ -s "$tmp/man-screen-now" ] && cmp -s "$tmp/man-screen" "$tmp/man-screen-now" && ok \
	|| fail "man page's SCREEN is stale (make readme-screen)"

# the first session, quit with q
T kill-server 2>/dev/null
finish
