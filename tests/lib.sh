# SPDX-License-Identifier: GPL-2.0-only
# Shared helpers for the shell tests: fail() records, check_* assert.
: "${DTLTOP:=./dtltop}"
DTLTOP=$(cd "$(dirname "$DTLTOP")" && pwd)/$(basename "$DTLTOP")
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# No command of a test may spin for ever (LeakSanitizer's exit scan of a huge heap once
# did, 10 minutes): past 240 s of CPU the kernel ends it, and the test fails.
ulimit -t 240
failures=0
pass=0
# DTL_FAILFAST (tests/mutants.sh): the first failure ends the test; a mutant needs no more
fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
	[ -z "${DTL_FAILFAST:-}" ] || exit 1
}
ok() { pass=$((pass + 1)); }
tmp=$(mktemp -d /tmp/dtltop-sh.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# expect_error "description" "substring" args... : exit 2, one stderr line naming it
expect_error() {
	desc=$1 want=$2
	shift 2
	out=$("$DTLTOP" "$@" 2>"$tmp/err" </dev/null)
	rc=$?
	lines=$(wc -l <"$tmp/err")
	if [ "$rc" -ne 2 ]; then fail "$desc: exit $rc, want 2 ($(cat "$tmp/err"))"; return; fi
	if [ "$lines" -ne 1 ]; then fail "$desc: $lines lines on stderr, want 1: $(cat "$tmp/err")"; return; fi
	grep -qF -- "$want" "$tmp/err" || { fail "$desc: '$(cat "$tmp/err")' lacks '$want'"; return; }
	[ -z "$out" ] || { fail "$desc: printed to stdout: $out"; return; }
	ok
}

finish() {
	echo "$(basename "$0"): $pass passed, $failures failed"
	[ "$failures" -eq 0 ]
}

# csv_cols FILE col1,col2,... : those columns of a CSV, by header name, in that order
csv_cols() {
	awk -F, -v want="$2" 'NR == 1 { n = split(want, w, ","); for (i = 1; i <= NF; i++) idx[$i] = i
		for (j = 1; j <= n; j++) if (!(w[j] in idx)) { print "no column " w[j] > "/dev/stderr"; exit 1 } }
		{ line = ""; for (j = 1; j <= n; j++) line = line (j > 1 ? "," : "") $(idx[w[j]]); print line }' "$1"
}

# free_port: a TCP port nobody listens on now
free_port() {
	while :; do
		p=$(( $(od -An -N2 -tu2 /dev/urandom) % 20000 + 30000 ))
		ss -Htln "sport = :$p" 2>/dev/null | grep -q . || { echo "$p"; return; }
	done
}
