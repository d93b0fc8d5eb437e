#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The shape of the tree: no function in src/ over 100 lines, a main of at most
# 120, and the lists a person reads (--help, --list-*, the man page,
# completions) made from the one table of each kind rather than written again.
set -u
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
bin=${DTLTOP:-./dtltop}

# --- function length: from a line "{" after a signature to the next "}"
long=$(for f in $(find src -name '*.c' | sort); do
	awk -v f="$f" '
		/^\{$/ && prev ~ /\)$/ { start = NR; name = sig }
		/^[A-Za-z]/ { sig = $0 }
		/^\}$/ && start { if (NR - start + 1 > 100) print f ":" start ": " NR - start + 1 " lines: " name; start = 0 }
		{ prev = $0 }' "$f"
done)
[ -z "$long" ] && ok || fail "functions over 100 lines: $long"

# --- a thin main: it wires options, source, loop and view, and does nothing else
n=$(wc -l <src/main.c)
[ "$n" -le 120 ] && ok || fail "src/main.c has $n lines (a thin main: at most 120)"

# --- each list is made from its table
# the help screen's key lines are --list-keys' lines (tui.sh reads the screen);
# --help's option lines are --list-options' lines
diff <("$bin" --list-options | cut -f1 | sed -E 's/^ +//; s/ *$//') \
	<("$bin" --help | grep -E '^  +-' | sed -E 's/^ +//; s/  +.*//; s/ *$//') >/dev/null && ok \
	|| fail "--help and --list-options differ"
# --format's values are the writer registry's, as --help says them
for w in $("$bin" --list-options | cut -f1 | grep -- '^ *--format=' | sed 's/.*=//' | tr '|' ' '); do
	"$bin" --sim=vcpus=2,clock=virtual -b -n 1 --format="$w" >/dev/null && ok || fail "--format=$w"
done
# --source's values are the backend registry's
for s in $("$bin" --list-options | cut -f1 | grep -- '^ *--source=' | sed 's/.*=//' | tr '|' ' '); do
	out=$("$bin" --source="$s" --root /nonexistent -b -n 1 2>&1)
	grep -q "bad --source" <<<"$out" && fail "--source=$s listed but refused" || ok
done
# every hand-made mutant still finds its text exactly once: code moved under one
# would make `make mutants` (CI) fail as BROKEN, found only half an hour in
out=$(python3 - <<'PY'
s = open("tests/mutants.sh").read()
i = s.index("MUTANTS=$(cat <<'EOF'")
for l in s[i:s.index("\nEOF\n", i)].split("\n")[1:]:
    f, frm, to, what = l.split(" ^ ")
    try:
        n = open(f).read().count(frm.replace("\\t", "\t").replace("\\n", "\n"))
    except OSError as e:
        n = "no file (%s)" % e.strerror
    if n != 1:
        print("%s: %s matches: %s" % (f, n, what))
PY
) || out="the check itself failed"
[ -z "$out" ] && ok || fail "hand mutants that no longer match: $out"
finish
