#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Finding the worst of many CPUs in the TUI, as a person would: colours that
# carry meaning, the header's words, the filter, the detail pane against the
# CSV of the same run, dtltoprc written by W and read back, layouts that
# never cut a token.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
command -v tmux >/dev/null || { echo "triage.sh: tmux missing"; exit 1; }
. tests/tmux.sh

ESC=$(printf '\033')
# the row lines of the screen with their colour codes (capture-pane -e)
colour_rows() { T capture-pane -e -p -t t | grep -E "^($ESC\\[[0-9;]*m)* +[0-9]+ " | head -30; }

# 1. colours per cell, from the thresholds; none under --no-color
mkdir -p "$tmp/cfg/dtltop"
T new-session -d -s t -x 120 -y 40 "XDG_CONFIG_HOME=$tmp/cfg LC_ALL=C $DTLTOP --sim=vcpus=64,load=0.7 -d 0.5 2>$tmp/err1; sleep 30"
expect '^ +0 +[0-9]' "first run up"
sleep 0.6
rows=$(colour_rows)
grep -q "$ESC\\[31m" <<<"$rows" && grep -q "$ESC\\[32m" <<<"$rows" && ok ||
	fail "no red and green cells: $(head -2 <<<"$rows" | cat -v)"
# the red is on STEAL% cells at or past 25 (and bold: the worst), never on the CPU number
grep -qE "$ESC\\[1m$ESC\\[31m +(2[5-9]|[3-9][0-9])\\.[0-9]|$ESC\\[31m$ESC\\[1m +(2[5-9]|[3-9][0-9])\\.[0-9]" <<<"$rows" && ok ||
	fail "no bold red steal cell >= 25: $(grep -m1 31m <<<"$rows" | cat -v)"
grep -qE "^($ESC\\[[0-9;]*m)*$ESC\\[3[123]m +[0-9]+ " <<<"$rows" && fail "the CPU number is coloured" || ok

# monochrome (NO_COLOR): no colour at all, the worst cells bold
sock="$sock-mono"
T new-session -d -s t -x 120 -y 40 "NO_COLOR=1 $DTLTOP --sim=vcpus=64,load=0.7 -d 0.5 2>/dev/null; sleep 30"
expect '^ +0 +[0-9]' "monochrome run up"
sleep 0.6
rows=$(colour_rows)
grep -q "$ESC\\[3[0-7]m" <<<"$rows" && fail "NO_COLOR still colours: $(grep -m1 3.m <<<"$rows" | cat -v)" || ok
grep -q "$ESC\\[1m" <<<"$rows" && ok || fail "NO_COLOR: no bold cell"
T kill-server 2>/dev/null
sock="${sock%-mono}"

# 2. the header in words, and the spread
expect '^waiting [0-9]+% of wanted CPU time; p99 dispatch wait [0-9.]+(us|ms|s)' "the judgement line"
expect '^64 CPUs: steal% min/p50/p90/max [0-9.]+/[0-9.]+/[0-9.]+/[0-9.]+  p99 min/p50/p90/max ' "the spread line"
expect '[0-9]{2}:[0-9]{2}:[0-9]{2} [A-Z]+  [a-z]+.*  mask' "a clock in the title"

# 3. the filter: every row shown passes it; the status line says so; empty clears
keys / 'steal_pct>25' Enter
expect 'filter steal_pct>25 \([0-9]+ of 64\)' "the status line names the filter"
# a capture can fall mid-redraw: a few looks, one whole
for i in 1 2 3 4 5; do
	sleep 0.6
	st=$(screen | awk '/^ +\*?CPU/ { for (i = 1; i <= NF; i++) if ($i ~ /STEAL%/) k = i } k && /^ +[0-9]+ / { print $k }')
	[ -n "$st" ] && awk '$1 <= 25 { bad = 1 } END { exit bad }' <<<"$st" && break
done
[ -n "$st" ] && awk '$1 <= 25 { bad = 1 } END { exit bad }' <<<"$st" && ok || fail "rows <= 25% steal pass steal_pct>25: $st"
keys / C-u Enter
expect 'rows 1-[0-9]+ of 64  sort cpu  h help' "an empty filter clears it"
keys / C-u 'cpu=8-15' Enter
expect 'filter cpu=8-15 \(8 of 64\)' "cpu=LIST picks 8 rows"
expect 'rows 1-8 of 8' "eight rows shown"
keys / C-u 'nosuch>1' Enter
expect "no field 'nosuch' to filter by" "a bad filter is refused, naming it"
keys o
expect 'active only' "o: only rows that dispatched"
keys o

# 4. unknown keys, and the mask keys say what the figures now leave out
keys x
expect 'unknown key x: h for help' "an unknown key is answered"
keys c
expect 'figures from the next interval are partial: cede not traced' "c says what is left out"
keys a
expect 'figures complete from the next interval' "a says the figures are whole again"

# 5. sorting reaches fields that have no column on screen, and names them
keys / C-u Enter
for i in $(seq 30); do keys '>'; done
expect 'sort (preempt|dispatch)_[a-zA-Z_]+ ' "> reaches fields with no column on screen"
keys Home
for i in $(seq 40); do keys '<'; done
expect 'sort cpu ' "< comes back to cpu"

# 6. W writes dtltoprc (keeping its other lines), and a new run reads it back
printf '# mine\nfavourite=blue\ndelay=3\n' >"$tmp/cfg/dtltop/dtltoprc"
keys v '>' W
expect "settings written to $tmp/cfg/dtltop/dtltoprc" "W says where"
cfg=$(cat "$tmp/cfg/dtltop/dtltoprc")
grep -qx '# mine' <<<"$cfg" && grep -qx 'favourite=blue' <<<"$cfg" && grep -qx 'delay=0.5' <<<"$cfg" &&
	grep -qx 'group=vp' <<<"$cfg" && grep -qx 'sort=dispatch_per_s' <<<"$cfg" &&
	grep -q '^thresholds=steal_pct=10:25,' <<<"$cfg" && [ "$(grep -c '^delay=' <<<"$cfg")" -eq 1 ] && ok ||
	fail "dtltoprc after W: $cfg"
keys q
T kill-server 2>/dev/null
sock="$sock-2"	# a fresh server: the old one may still be going
T new-session -d -s t -x 120 -y 40 "XDG_CONFIG_HOME=$tmp/cfg $DTLTOP --sim=vcpus=64 2>$tmp/err2; sleep 30"
expect 'every 0\.5s' "the interval comes back from dtltoprc"
expect '^ +VP +\*DISP/s' "grouping and sort come back"
grep -q "unknown key 'favourite'" "$tmp/err2" && ok || fail "the unknown key is not warned about: $(cat "$tmp/err2")"
T kill-server 2>/dev/null
sock="$sock-3"

# 7. the detail pane against the CSV of the same deterministic run
"$DTLTOP" --sim=vcpus=8,clock=virtual --seed 5 -b -n 8 -d 1 -w "$tmp/r8.dtl" --csv >"$tmp/r8.csv" || fail "recording"
col() { csv_cols "$tmp/r8.csv" cpu,"$1" | awk -F, -v n="$2" '$1 == "0" && ++k == n { print $2 }'; }
T new-session -d -s t -x 150 -y 60 "LC_ALL=C $DTLTOP -r $tmp/r8.dtl --no-color 2>$tmp/err3; sleep 30"
expect 'end of the recording after interval 8' "the replay reaches its end" 20
keys Enter
expect 'CPU 0 in detail' "Enter opens the detail of the row under the cursor"
expect "^$(col dispatches 8) disp " "the detail's dispatches are the CSV's"
expect "^  H_CEDE +$(col preempt_H_CEDE 8) " "the detail's H_CEDE count is the CSV's"
total=$(csv_cols "$tmp/r8.csv" cpu,dispatches | awk -F, '$1 == "0" { s += $2 } END { print s }')
expect "^Dispatch latency since start \\($total samples\\)" "the histogram holds every sample since start"
expect '^Physical processors since start \(1 dispatch in 8\): [0-9]+ [0-9]+%' "the processors it ran on"
# 8 intervals shown: 8 points in each sparkline (ASCII under LC_ALL=C)
line=$(screen | grep -E '^  steal% ')
pts=$(sed -E 's/^  steal% +//; s/  max .*//' <<<"$line")
[ "${#pts}" -eq 8 ] && ok || fail "sparkline of ${#pts} points after 8 intervals: '$line'"
keys Escape
expect '^ +\*CPU' "Esc closes the detail"
T kill-server 2>/dev/null

# 8. smoothing: S toggles it; averaged over 1000 s, a row's rate holds still
sock="$sock-s"
T new-session -d -s t -x 120 -y 30 "$DTLTOP --sim=vcpus=16 -d 0.3 --smooth 1000 --no-color 2>/dev/null; sleep 30"
expect '\[smoothed 1000s\]' "--smooth marks the header"
sleep 1
r1=$(screen | awk '/^ +\*?CPU/ { h = 1; next } h && $1 == "0" { print $2; exit }')
sleep 1.5
r2=$(screen | awk '/^ +\*?CPU/ { h = 1; next } h && $1 == "0" { print $2; exit }')
awk -v a="$r1" -v b="$r2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 0 && d <= a * 0.02) }' && ok ||
	fail "smoothed over 1000 s, CPU 0's rate went $r1 -> $r2"
keys S
expect 'rows as measured' "S turns smoothing off"
screen | grep -q 'smoothed' && fail "the header still says smoothed" || ok
keys S
expect 'rows smoothed over 1000s' "S turns it on again"
T kill-server 2>/dev/null

# 9. the setup screen: hide a column, move one, set a threshold; W keeps them
sock="$sock-f2"
mkdir -p "$tmp/cfg2/dtltop"
T new-session -d -s t -x 160 -y 50 "XDG_CONFIG_HOME=$tmp/cfg2 $DTLTOP --sim=vcpus=16 -d 0.5 --no-color 2>/dev/null; sleep 30"
expect '^ +\*CPU +DISP +DISP/s +INVOL%' "setup run up"
keys F2
expect '^Setup: Up/Down choose' "F2 opens the setup screen"
expect '^  \[x\] DISP/s +dispatch_per_s' "columns listed with their state"
keys Down Down Space	# the third: DISP/s
expect '^  \[ \] DISP/s' "Space hides a column"
keys Down '-'	# INVOL% moves before DISP/s
expect '^  \[x\] INVOL% .*' "the moved column keeps its state"
for i in $(seq 18); do keys Down; done	# past the screen columns below INVOL% (WAKE made 18) to steal_pct
keys Enter C-u 'steal_pct=50:90' Enter
expect '^  steal_pct +50:90' "a threshold edited on the setup screen"
keys Escape
expect '^ +\*CPU +DISP +INVOL% +STEAL ' "the table follows the setup: DISP/s gone, INVOL% moved"
keys W
expect 'settings written to' "W after the setup"
grep -q '^columns=cpu,dispatches,preempt_ratio,steal_us,' "$tmp/cfg2/dtltop/dtltoprc" &&
	grep -q '^thresholds=steal_pct=50:90,' "$tmp/cfg2/dtltop/dtltoprc" && ok ||
	fail "dtltoprc after the setup: $(cat "$tmp/cfg2/dtltop/dtltoprc")"
T kill-server 2>/dev/null
expect_error "a column with no place on screen" "bad --columns: 'idle_pct'" --sim --columns cpu,idle_pct

# 9b. W never writes over a dtltoprc it could not read (one a sudo dtltop left root's)
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	sock="$sock-ro"
	ro=$(mktemp -d /tmp/dtltop-ro.XXXXXX)
	mkdir -p "$ro/cfg/dtltop" && chmod 0755 "$ro" && chmod 0777 "$ro/cfg" "$ro/cfg/dtltop"
	printf '# kept by hand\nsort=-steal_pct\n' >"$ro/cfg/dtltop/dtltoprc" && chmod 0600 "$ro/cfg/dtltop/dtltoprc"
	T new-session -d -s t -x 160 -y 40 "setpriv --reuid=65534 --regid=65534 --clear-groups env XDG_CONFIG_HOME=$ro/cfg $DTLTOP --sim=vcpus=16 -d 0.5 2>/dev/null; sleep 30"
	expect '^ +\*?CPU +DISP' "a TUI as nobody"
	keys W
	expect 'cannot read .*dtltoprc: Permission denied: not written' "W refuses a file it cannot read"
	[ "$(cat "$ro/cfg/dtltop/dtltoprc")" = "$(printf '# kept by hand\nsort=-steal_pct')" ] &&
		[ "$(stat -c %u "$ro/cfg/dtltop/dtltoprc")" = 0 ] && ok ||
		fail "W wrote over root's dtltoprc: $(ls -l "$ro/cfg/dtltop")"
	T kill-server 2>/dev/null
	rm -rf "$ro"
fi

# 10. the help wraps to the width instead of cutting
sock="$sock-h"
T new-session -d -s t -x 80 -y 60 "$DTLTOP --sim=vcpus=16 -d 0.5 2>/dev/null; sleep 30"
expect '^ +\*CPU' "help run up"
keys h
expect '^  e, E +export the table shown to dtltop-YYYYMMDD-HHMMSS\.csv here$' "a long key line wraps"
expect '^ {16}\(--export-format\)$' "its rest continues under its text"
w=$(screen | awk '{ if (length($0) > m) m = length($0) } END { print m }')
[ "$w" -le 80 ] && ok || fail "help lines of $w columns at 80"
T kill-server 2>/dev/null

# 11. layouts: at 80x24 and 200x60 no header token is cut; at 80x24 the header
# keeps 7 lines, the lower ones (the spread, the source's details) give way whole
for size in 80x24 200x60; do
	sock="$sock-$size"
	T new-session -d -s t -x "${size%x*}" -y "${size#*x}" "$DTLTOP --sim=vcpus=1920 -d 0.5 2>/dev/null; sleep 30"
	expect '^ +0 +[0-9]' "$size up" 20
	sleep 0.6
	head=$(screen | awk '/^ +\*CPU/ { exit } { print }')
	# columns, not bytes: the trend's blocks are one character of three bytes
	w=$(LC_ALL=C sed 's/[\x80-\xbf]//g' <<<"$head" | awk '{ if (length($0) > m) m = length($0) } END { print m }')
	[ "$w" -le "${size%x*}" ] && ok || fail "$size: a line of $w columns"
	# each known token whole: the verdict, the wait triple; the source's detail and the spread
	# whole where shown, and shown where there is room
	grep -q '^why: ' <<<"$head" && ok || fail "$size: no verdict: $head"
	grep -qE 'wait p50/p99/max [0-9.]+(us|ms|s|-)/[0-9.]+(us|ms|s)/[0-9.]+(us|ms|s)( |$)' <<<"$head" && ok ||
		fail "$size: the latency token cut: $head"
	if [ "$size" = 80x24 ]; then
		[ "$(wc -l <<<"$head")" -le 7 ] && ok || fail "$size: header of $(wc -l <<<"$head") lines"
		grep -q 'vcpus=\|min/p50' <<<"$head" && fail "$size: the detail or spread cut in: $head" || ok
	else
		grep -qE '(^|  )sim vcpus=1920 [^ ]+ .*seed=1( |$)' <<<"$head" && ok || fail "$size: the source's detail cut: $head"
		grep -qE 'p99 min/p50/p90/max [^ ]+/[^ ]+/[^ ]+/[0-9.]+(us|ms|s)$' <<<"$head" && ok || fail "$size: the spread cut: $head"
	fi
	T kill-server 2>/dev/null
done
finish
