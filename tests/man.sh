#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The man page is lint-clean and documents every option, column and key.
cd "$(dirname "$0")/.." || exit 1
bin=${1:-./dtltop} man=${2:-man/dtltop.1}
. tests/lib.sh

if command -v mandoc >/dev/null; then
	out=$(mandoc -Tlint -W warning "$man" 2>&1) && [ -z "$out" ] && ok || fail "mandoc: $out"
fi
out=$(groff -ww -z -man "$man" 2>&1) && [ -z "$out" ] && ok || fail "groff: $out"
fmt=man/dtltop-format.5
if command -v mandoc >/dev/null; then
	out=$(mandoc -Tlint -W warning "$fmt" 2>&1) && [ -z "$out" ] && ok || fail "mandoc $fmt: $out"
fi
out=$(groff -ww -z -t -man "$fmt" 2>&1) && [ -z "$out" ] && ok || fail "groff $fmt: $out"
# the format page names every record kind and header key the code writes
for k in entries lost bad mask cpu tick; do
	grep -q "^\.B [0-9] $k\$" "$fmt" && ok || fail "record kind $k not in $fmt"
done
for k in $(grep -o '\\n[a-z_]*=' src/format/recmeta.c | sed 's/^..//; s/=$//' | sort -u) format; do
	grep -q -- "$k" "$fmt" && ok || fail "header key $k not in $fmt"
done

# the page as text, with roff escapes for '-' undone
text=$(sed 's/\\-/-/g; s/\\(en/-/g' "$man")
# every option of the one option table (--list-options): in the man page and in --help
help=$("$bin" --help)
for o in $("$bin" --list-options | cut -f1 | grep -o -- '--[a-z][a-z-]*'); do
	grep -qF -- "$o" <<<"$text" || grep -qF -- "${o#--}" <<<"$text" && ok || fail "option $o not in $man"
	grep -qF -- "$o" <<<"$help" && ok || fail "option $o not in --help"
done
[ "$("$bin" --list-options | wc -l)" -ge 20 ] && ok || fail "--list-options lists too few"
# an option two backends share (--no-tasks: perf and debugfs) is one row, not one per backend
dup=$("$bin" --list-options | cut -f1 | grep -o -- '--[a-z][a-z-]*' | sort | uniq -d)
[ -z "$dup" ] && ok || fail "--list-options lists twice: $dup"
for f in $("$bin" --list-fields | awk '{print $1}'); do
	grep -qw -- "$f" <<<"$text" && ok || fail "column $f not in $man"
done
# every key, as the one key table lists it (--list-keys)
for k in $("$bin" --list-keys | cut -c1-13 | tr ',' ' '); do
	grep -qF -- "$k" <<<"$text" && ok || fail "key $k not in $man"
done
# every setting dtltoprc takes, in the man page's FILES section
files=$(sed -n '/^\.SH FILES/,/^\.SH /p' "$man")
for k in $("$bin" --list-options | awk -F'\t' '$3 ~ /^setting / { sub(/^setting /, "", $3); print $3 }'); do
	grep -qE "^\.B[IR]? ${k//-/\\\\-}( |$)" <<<"$files" && ok || fail "setting $k not in FILES of $man"
done
# every simulator parameter, as the simulator's own key table lists it (--sim=help)
keys=$("$bin" --sim=help | awk 'NF == 0 { exit } { print $1 }' | tr '\n' ' ')
for k in vcpus vps ent pool capped weight load other oent smt clock tasks; do
	grep -qw -- "$k" <<<"$keys" && ok || fail "--sim=help does not list the key $k: $keys"
done
for p in $("$bin" --sim=help | awk 'NF == 0 { exit } { print $1 }'); do
	grep -qE "^\.B[IR]? $p=" "$man" && ok || fail "--sim key $p not in $man"
done
# "which of my LPARs can run this": every distribution of README's table is in WHERE IT RUNS too
where=$(sed -n '/^\.SH WHERE IT RUNS/,/^\.SH /p' "$man")
rows=$(sed -n '/^| distribution | kernel | PMU/,/^$/p' README.md | awk -F'|' 'NR > 2 && $2 !~ /any/ { gsub(/^ +| +$/, "", $2); print $2 }')
[ "$(wc -l <<<"$rows")" -ge 8 ] && ok || fail "README's LPAR table has too few rows: $rows"
while read -r d; do
	grep -qF "$d" <<<"$where" && ok || fail "README's LPAR table names $d; WHERE IT RUNS does not"
done <<<"$rows"
# where who pays works is one sentence: what dtltop says without task data, README and man say too
why=$("$bin" --no-config --sim=vcpus=2,clock=virtual -b -n 1 --group=task | sed -n 's/^(no task data: \(.*\))$/\1/p')
[ -n "$why" ] && grep -qF "$why" README.md && ok || fail "README does not say where who pays works as dtltop does: $why"
grep -qF "$why" <<<"$(sed 's/\\-/-/g' "$man")" && ok || fail "$man does not say where who pays works as dtltop does"
# the choices an option takes are the man page's, from the tables --help prints them from
choices() { "$bin" --help | grep -oE -- "--$1=[a-z|]+" | head -1 | cut -d= -f2; }
for o in source format export-format; do
	line=$(grep -E "^\.BR \\\\-\\\\-${o//-/\\\\-} =" "$man" | grep '|' | head -1 | sed 's/\\f[IR]//g; s/\\-/-/g')
	for c in $(choices "$o" | tr '|' ' '); do
		grep -qF "|$c|" <<<"|${line#*=}|" && ok || fail "--$o=$c not on the man page's --$o line: $line"
	done
done
# each key is described once: a key listed under two .TP tags is a stale copy
dups=$(grep -A1 '^\.TP' "$man" | grep -E '^\.BR? (Up|Home|PgUp|[a-zA-Z/<>]) ' | sort | uniq -d)
[ -z "$dups" ] && ok || fail "keys described twice: $dups"
# the key the page names for the since-start totals is the one --list-keys has
since=$("$bin" --list-keys | awk '/totals since start/ && /show/ { print $1 }')
grep -A3 'since-start totals' "$man" | grep -q "^\.BR $since )" && ok \
	|| fail "the since-start key is '$since' but the page says $(grep -A3 'since-start totals' "$man" | grep '^\.BR')"
finish
