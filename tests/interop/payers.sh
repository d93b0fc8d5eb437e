# SPDX-License-Identifier: GPL-2.0-only
# Sourced by tests/interop/check.sh (the rig's fresh file) and tests/truth.sh
# (the committed one, tests/data/switches.*).
# who pays: dtltop's import of a --switch-events file charges each entry to
# the task that ran at its preempt instant (dispatch time less its waits); so
# does this reading of perf script's own listing of the same file, its switch
# records (OUT: the next pid; IN: the incoming tid) and its vpa-dtl samples.
# Upstream perf 7.3 never sets a vpa-dtl sample's pid: perf script shows
# every one as swapper's (pid 0), whoever ran; check.sh says how many, and
# compares dtltop with the attribution perf's own switch records imply.
perf_payers() {
	awk -v freq=512000000 'function cpu_of(   i) { for (i = 1; i <= NF; i++) if ($i ~ /^\[[0-9]+\]$/) return i; return 0 }
		/PERF_RECORD_SWITCH_CPU_WIDE/ { i = cpu_of(); c = substr($i, 2) + 0; t = $(i + 1); sub(/:$/, "", t)
			if ($0 ~ / OUT /) { match($0, /next pid\/tid: *-?[0-9]+/); p = substr($0, RSTART, RLENGTH); sub(/.* /, "", p) }
			else p = $(i - 1)
			k = ++n[c]; st[c, k] = t; sp[c, k] = p + 0; next }
		/vpa-dtl: timebase/ { i = cpu_of(); c = substr($i, 2) + 0; t = $(i + 1); sub(/:$/, "", t); pend = 1; next }
		pend && /enqueue_to_dispatch_time/ { w = 0; s = $0
			while (match(s, /_time: *[0-9]+/)) { v = substr(s, RSTART, RLENGTH); sub(/.*: */, "", v); w += v; s = substr(s, RSTART + RLENGTH) }
			m++; sc[m] = c; si[m] = t - w / freq; pend = 0 }
		END { for (j = 1; j <= m; j++) { c = sc[j]; who = "none"
				for (k = n[c]; k >= 1; k--) if (st[c, k] <= si[j]) { who = sp[c, k]; break }
				cnt[who]++ }
			for (w in cnt) print w, cnt[w] }' "$1" | sort
}
# dtltop's: dispatches per pid of its task rows ("none": of the partition, charged to nobody)
dtltop_payers() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "dispatches") d = i; next }
		$3 == "all" { all += $d; next } { p = $3; sub(/.*\[/, "", p); sub(/\]$/, "", p)
			if ($3 == "idle") p = 0; n[p] += $d; sum += $d }
		END { for (p in n) if (n[p]) print p, n[p]; if (all > sum) print "none", all - sum }' "$1" | sort
}
