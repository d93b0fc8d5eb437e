#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make upstream-compare's table: the same scenarios, the same upstream perf,
# our driver (build/interop/ours) beside the 7.3 tree's own (.../upstream),
# summed over the 4 CPUs, from the tables tests/interop/check.sh wrote.
cd "$(dirname "$0")/../.." || exit 1
o=build/interop/ours u=build/interop/upstream
for d in $o $u; do [ -f $d/table.md ] || { echo "compare: $d/table.md missing" >&2; exit 1; }; done
# sum DIR SCENARIO COLUMN: over the CPUs (columns: 4 wrote, 5 report -D, 9 dtltop gaps)
sum() { awk -F'|' -v s="$2" -v k="$3" '$2 == " " s " " { n += $k } END { print n + 0 }' "$1/table.md"; }
pgap() { awk -F'|' -v s="$2" '$2 == " " s " " && $8 ~ /[0-9]/ { print $8 + 0; exit }' "$1/table.md"; }
# the reports' first lines (their traces follow them in the file)
heads() { grep -E 'BUG:|WARNING:|Oops|Kernel panic|memory leak|corruption' "$1/kernel-reports.txt"; }
reports() { heads "$1" | grep -c .; }
echo "| scenario (4 CPUs) | fake HV wrote | ours: decoded | ours: perf's gap warnings | upstream: decoded | upstream: silently lost | upstream: perf's gap warnings |"
echo "|---|---|---|---|---|---|---|"
for s in all lap small full; do
	w=$(sum $o $s 4) od=$(sum $o $s 5) ud=$(sum $u $s 5) uw=$(sum $u $s 4)
	echo "| $s | $w | $od | $(pgap $o $s) | $ud (of $uw written) | $((uw - ud)) | $(pgap $u $s) |"
done
echo
echo "Kernel reports during the run (lockdep's own 7.3 boot report aside): ours $(reports $o), upstream $(reports $u)$( [ "$(reports $u)" -gt 0 ] && echo ": $(heads "$u" | sort | uniq -c | sed 's/^ *//' | tr '\n' ';')")"
