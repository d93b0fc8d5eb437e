#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The README's performance table, made from `make bench` output (never typed):
# every figure line of every section becomes a row, in the bench's order.
#   scripts/perf-table.sh BENCH.txt >table.md      (make readme-perf does it all)
set -eu
[ $# -eq 1 ] || { echo "usage: perf-table.sh BENCH-OUTPUT" >&2; exit 2; }
awk '
	function cell(s) { gsub(/\|/, "\\|", s); return s }
	BEGIN { print "| figure | measured, with its baseline and target |"; print "|---|---|" }
	# a section: a line of its own (a skipped bench says why in it)
	/^[^ ]/ { section = $0; sub(/:$/, "", section); if (section ~ /skipped|failed/) print "| " cell(section) " | |"; next }
	/^  +[^ ]/ && section != "" {
		line = $0; sub(/^ +/, "", line)
		# the label is what comes before the first run of two or more spaces
		if (match(line, /  +/)) {
			label = substr(line, 1, RSTART - 1); value = substr(line, RSTART + RLENGTH)
		} else { label = line; value = "" }
		print "| " cell(section) ": " cell(label) " | " cell(value) " |"
	}
' "$1"
