#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Command-line behaviour: batch output, determinism, the debugfs source on a
# fake root, and one-line errors with exit status 2 for bad input.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

SIM="--sim=vcpus=8,clock=virtual"

# --- deterministic simulator, batch text and CSV
"$DTLTOP" $SIM --seed 5 -b -n 3 --format=csv >"$tmp/a.csv" || fail "csv run"
"$DTLTOP" $SIM --seed 5 -b -n 3 --format=csv >"$tmp/b.csv" || fail "csv run 2"
cmp -s "$tmp/a.csv" "$tmp/b.csv" && ok || fail "same command, different CSV"
"$DTLTOP" $SIM --seed 6 -b -n 3 --format=csv >"$tmp/c.csv"
cmp -s "$tmp/a.csv" "$tmp/c.csv" && fail "another seed gave the same CSV" || ok
for bad in 12x x12 -5 ''; do
	expect_error "--seed '$bad'" "bad --seed '$bad'" --no-config $SIM -b -n 1 --seed "$bad"
done
[ "$(grep -c '^timestamp,' "$tmp/a.csv")" -eq 1 ] && ok || fail "CSV header not exactly once"
[ "$(wc -l <"$tmp/a.csv")" -eq $((1 + 3 * 9)) ] && ok || fail "CSV rows: $(wc -l <"$tmp/a.csv"), want 28"
[ "$(grep -c ',all,' "$tmp/a.csv")" -eq 3 ] && ok || fail "one all row per interval"
head -1 "$tmp/a.csv" | grep -q '^timestamp,interval_s,cpu,dispatches,dispatch_per_s,preempt_ratio,steal_us,steal_pct,idle_us,lat_p50_us,lat_p99_us,lat_max_us,migrations,faults,lost,idle_pct,gaps,mask,preempt_' \
	&& ok || fail "CSV header: $(head -1 "$tmp/a.csv" | cut -c1-200)"
grep -q '^2025-01-01T00:00:03.000Z,1.000,7,' "$tmp/a.csv" && ok || fail "virtual clock stamps"
# columns per row equal the header's
awk -F, 'NR==1{n=NF} NF!=n{bad=1} END{exit bad}' "$tmp/a.csv" && ok || fail "ragged CSV"
# the all row's dispatches are the sum of the vCPU rows'
awk -F, 'NR>1 && $3!="all"{s[$1]+=$4} $3=="all"{if (s[$1]!=$4) bad=1} END{exit bad}' "$tmp/a.csv" \
	&& ok || fail "all row is not the sum"

# -d fractions: rates scale with the interval
"$DTLTOP" $SIM -b -n 1 -d 0.25 --csv | grep -q '^2025-01-01T00:00:00.250Z,0.250,' && ok || fail "-d 0.25"

"$DTLTOP" $SIM -b -n 2 >"$tmp/a.txt" || fail "text run"
grep -q $'\033' "$tmp/a.txt" && fail "escape codes in batch text" || ok
grep -q 'DISP/s' "$tmp/a.txt" && grep -q '^  all ' "$tmp/a.txt" && ok || fail "text table"

# -o writes the file (via a temporary name), and only that
(cd "$tmp" && "$DTLTOP" $SIM -b -n 2 --csv -o out.csv) || fail "-o run"
[ -s "$tmp/out.csv" ] && cmp -s "$tmp/out.csv" <("$DTLTOP" $SIM -b -n 2 --csv) && ok \
	|| fail "-o file missing or unlike standard output"
ls "$tmp" | grep -q '\.tmp$' && fail "temporary file left behind" || ok

# the mask reaches the simulator: cede only logs no time slices
"$DTLTOP" $SIM -e cede -b -n 2 --csv >"$tmp/cede.csv"
col=$(head -1 "$tmp/cede.csv" | tr , '\n' | grep -n '^preempt_time_slice$' | cut -d: -f1)
awk -F, -v c="$col" 'NR>1 && $c!=0{bad=1} END{exit bad}' "$tmp/cede.csv" && ok || fail "-e cede logged time slices"
col2=$(head -1 "$tmp/a.csv" | tr , '\n' | grep -n '^preempt_H_CEDE$' | cut -d: -f1)
awk -F, -v c="$col2" 'NR>1 && $c>0{n++} END{exit n==0}' "$tmp/cede.csv" && ok || fail "-e cede logged no cedes"

# -C selects CPUs
"$DTLTOP" $SIM -C 1,3-4 -b -n 1 --csv | awk -F, 'NR>1{print $3}' | tr '\n' ' ' | grep -qx '1 3 4 selected ' \
	&& ok || fail "-C 1,3-4"

# 1920 vCPUs work
"$DTLTOP" --sim=vcpus=1920,clock=virtual -b -n 1 --csv | grep -c '^2025' | grep -qx 1921 && ok || fail "1920 vCPUs"

# --list-fields, --help, --version
"$DTLTOP" --list-fields | grep -q '^steal_pct ' && ok || fail "--list-fields"
[ "$("$DTLTOP" --list-fields | wc -l)" -eq "$(head -1 "$tmp/a.csv" | tr , '\n' | wc -l)" ] && ok \
	|| fail "--list-fields and the CSV header disagree"
"$DTLTOP" --help | grep -q -- '--sim' && ok || fail "--help"
"$DTLTOP" -V | grep -q '^dtltop [0-9]' && ok || fail "-V"

# --- the debugfs source on a fake root
root=$tmp/root
mkdir -p "$root/sys/kernel/debug/powerpc/dtl" "$root/sys/devices/system/cpu" "$root/proc/powerpc"
echo "0-1" >"$root/sys/devices/system/cpu/online"
printf 'processor\t: 0\ntimebase\t: 512000000\n' >"$root/proc/cpuinfo"
printf 'partition_entitled_capacity=200\nshared_processor_mode=1\ncapped=0\npartition_active_processors=2\npool_capacity=400\ndispatches=100\n' \
	>"$root/proc/powerpc/lparcfg"
echo 0x7 >"$root/sys/kernel/debug/powerpc/dtl/dtl_event_mask"
# entry: dispatch 3, preempt 4 (time_slice), proc 9, e2d 512 ticks (1 us), r2e 0, w2r 0, timebase i
entry() { printf "\x03\x04\x00\x09\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x$(printf %02x "$1")"; head -c 24 /dev/zero; }
for i in 1 2 3; do entry $i; done >"$root/sys/kernel/debug/powerpc/dtl/cpu-0"
{ entry 1; entry 2; head -c 7 /dev/zero; } >"$root/sys/kernel/debug/powerpc/dtl/cpu-1"
"$DTLTOP" --root "$root" -e preempt -b -n 1 -d 0.05 --csv >"$tmp/dbg.csv" 2>"$tmp/dbg.err" || fail "debugfs run: $(cat "$tmp/dbg.err")"
grep -q '^0x2$' "$root/sys/kernel/debug/powerpc/dtl/dtl_event_mask" && ok || fail "mask not written"
awk -F, '$3=="0"{exit !($4==3)}' "$tmp/dbg.csv" && ok || fail "cpu 0 dispatches: $(cat "$tmp/dbg.csv")"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } $3=="1"{exit !($4==2 && $c["bad"]==1)}' "$tmp/dbg.csv" && ok || fail "cpu 1: 2 entries, 1 bad"
awk -F, '$3=="all"{exit !($7=="5.0" && $6=="1.0000")}' "$tmp/dbg.csv" && ok || fail "debugfs steal/ratio: $(grep all "$tmp/dbg.csv")"
"$DTLTOP" --root "$root" -b -n 2 -d 0.05 | grep -q '^LPAR ent 2.00  shared uncapped  VPs 2  pool 4.00  physc -  entc -  app -  disp/s -$' \
	&& ok || fail "batch text shows the lparcfg facts"
# --- which partition, pool and frame: as lparcfg and the device tree say, absent where they do not
"$DTLTOP" --root "$root" -b -n 1 -d 0.05 --format prom 2>/dev/null | grep -q '^dtl_lpar_info{} 1$' &&
	ok || fail "no identity in lparcfg: dtl_lpar_info has labels it cannot know"
"$DTLTOP" --root "$root" -b -n 1 -d 0.05 --format json 2>/dev/null | grep '"cpu":"all"' |
	grep -q 'partition_id\|pool_id\|frame_' && fail "JSON invents an identity" || ok
idroot=$tmp/idroot
cp -r "$root" "$idroot"
printf 'lparcfg 1.9\nserial_number=IBM,"02\\x\nsystem_type=IBM,9080-HEX\npartition_id=7\npool=2\n' |
	cat - "$root/proc/powerpc/lparcfg" >"$idroot/proc/powerpc/lparcfg"
mkdir -p "$idroot/proc/device-tree" && printf 'db "prod"\0' >"$idroot/proc/device-tree/ibm,partition-name"
"$DTLTOP" --root "$idroot" -b -n 1 -d 0.05 --format prom 2>/dev/null | grep -qF \
	'dtl_lpar_info{partition_id="7",partition_name="db \"prod\"",pool_id="2",frame_serial="IBM,\"02\\x",frame_type="IBM,9080-HEX"} 1' &&
	ok || fail "dtl_lpar_info: $("$DTLTOP" --root "$idroot" -b -n 1 -d 0.05 --format prom 2>&1 | grep lpar_info)"
"$DTLTOP" --root "$idroot" -b -n 1 -d 0.05 --format json 2>/dev/null | grep '"cpu":"all"' | grep -qF \
	'"partition_id":7,"partition_name":"db \"prod\"","pool_id":2,"frame_serial":"IBM,\"02\\x","frame_type":"IBM,9080-HEX"' &&
	ok || fail "JSON identity"
"$DTLTOP" --root "$idroot" -b -n 1 -d 0.05 --format influx 2>/dev/null | head -1 | grep -qF \
	',partition_id=7,partition_name=db\ "prod",pool_id=2,frame_serial=IBM\,"02\\x,frame_type=IBM\,9080-HEX,' &&
	ok || fail "Influx identity tags: $("$DTLTOP" --root "$idroot" -b -n 1 -d 0.05 --format influx 2>&1 | head -1)"
"$DTLTOP" --root "$idroot" -b -n 1 -d 0.05 2>/dev/null | grep -qxF 'partition db "prod" (id 7), pool 2 of frame IBM,9080-HEX IBM,"02\x' &&
	ok || fail "batch text: no identity line"
# the simulator's own, and a recording keeps the name (lparcfg keeps the rest)
"$DTLTOP" --sim=vcpus=4,clock=virtual,lpar_id=12,pool_id=3,serial=F1,name=web-1 -b -n 2 -o /dev/null \
	-w "$tmp/id.dtl" --report "$tmp/id.html" 2>/dev/null
"$DTLTOP" -r "$tmp/id.dtl" -b --format prom 2>/dev/null | grep -qF \
	'dtl_lpar_info{partition_id="12",partition_name="web-1",pool_id="3",frame_serial="F1",frame_type="IBM,9080-SIM"} 1' &&
	ok || fail "a replay's identity: $("$DTLTOP" -r "$tmp/id.dtl" -b --format prom 2>&1 | grep lpar_info)"
grep -qF '<tr><td>Which partition</td><td>web-1 (id 12), pool 3 of frame IBM,9080-SIM F1</td></tr>' "$tmp/id.html" &&
	ok || fail "the report does not say which partition"
# the p99 the alerts read is the one the CSV (and the screen) shows, not a bucket's interpolation
p99p=$("$DTLTOP" --sim=vcpus=4,clock=virtual -b -n 1 --format prom 2>/dev/null |
	awk '$1 == "dtl_dispatch_wait_p99_seconds" { printf "%.2f", $2 * 1e6 }')
p99c=$("$DTLTOP" --sim=vcpus=4,clock=virtual -b -n 1 --csv 2>/dev/null |
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } $3 == "all" { print $c["lat_p99_us"] }')
[ -n "$p99p" ] && [ "$p99p" = "$p99c" ] && ok || fail "dtl_dispatch_wait_p99_seconds ($p99p us) is not the CSV's p99 ($p99c us)"
"$DTLTOP" --sim=vcpus=1,clock=virtual,load=0.01 -b -n 1 -d 0.05 --format prom 2>/dev/null |
	grep -q '^dtl_dispatch_wait_p99_seconds' && fail "a p99 of too few dispatches exported" || ok
out=$("$DTLTOP" --sim=name='a"b' -b -n 1 2>&1); rc=$?
[ $rc -ne 0 ] && grep -q "bad --sim value 'name=a\"b'" <<<"$out" && ok || fail "--sim name with a quote: rc $rc: $out"
# figures lparcfg does not give in range read as unknown, never 0 or 2^64 / 100
cp "$root/proc/powerpc/lparcfg" "$tmp/lparcfg.good"
printf 'partition_entitled_capacity=-50\nshared_processor_mode=1\ncapped=0\npartition_active_processors=4294967296\npool_capacity=-400\n' \
	>"$root/proc/powerpc/lparcfg"
"$DTLTOP" --root "$root" -b -n 2 -d 0.05 | grep -q '^LPAR ent -  shared uncapped  VPs -  pool -  physc' \
	&& ok || fail "hostile lparcfg figures: $("$DTLTOP" --root "$root" -b -n 2 -d 0.05 2>&1 | grep LPAR)"
"$DTLTOP" --root "$root" -b -n 2 -d 0.05 --format=prom | grep -q 'entitled\|virtual_processors\|pool_processors' \
	&& fail "hostile lparcfg figures exported" || ok
cp "$tmp/lparcfg.good" "$root/proc/powerpc/lparcfg"

# --- --check: one line per fact, what works and why not; exit 0 only when what was asked works
croot=$tmp/croot
mkdir -p "$croot/sys/kernel/debug/powerpc/dtl" "$croot/sys/kernel/debug/powerpc/vpa" "$croot/sys/devices/system/cpu" \
	"$croot/proc/powerpc" "$croot/proc/sys/kernel" "$croot/boot" "$croot/sys/kernel/security"
echo 0 >"$croot/sys/devices/system/cpu/online"
printf 'processor\t: 0\ntimebase\t: 512000000\n' >"$croot/proc/cpuinfo"
echo 0x7 >"$croot/sys/kernel/debug/powerpc/dtl/dtl_event_mask"
: >"$croot/sys/kernel/debug/powerpc/dtl/cpu-0"
echo 6.12.0-55.el10.ppc64le >"$croot/proc/sys/kernel/osrelease"
printf '# CONFIG_FOO is not set\nCONFIG_DTL=y\n' >"$croot/boot/config-6.12.0-55.el10.ppc64le"
echo 'none [integrity] confidentiality' >"$croot/sys/kernel/security/lockdown"
echo 1 >"$croot/proc/powerpc/vcpudispatch_stats"
echo 2 >"$croot/proc/sys/kernel/perf_event_paranoid"
printf 'partition_entitled_capacity=150\nshared_processor_mode=1\ncapped=0\npartition_active_processors=4\npool_capacity=800\n' \
	>"$croot/proc/powerpc/lparcfg"
"$DTLTOP" --check --root "$croot" --no-tasks -d 0.05 >"$tmp/ck.out" 2>"$tmp/ck.err"; rc=$?
[ $rc -eq 0 ] && [ ! -s "$tmp/ck.err" ] && ok || fail "--check on a debugfs root: exit $rc: $(cat "$tmp/ck.err" "$tmp/ck.out")"
for want in '^--  kernel     Linux 6.12.0-55.el10.ppc64le under --root ' \
	'^NO  pmu        no vpa_dtl PMU at .*6.18' \
	'^ok  debugfs    .*/sys/kernel/debug/powerpc/dtl (CONFIG_DTL=y)$' \
	'^--  lockdown   integrity: .*event mask stays all' \
	'^NO  holder     /proc/powerpc/vcpudispatch_stats is on and holds the DTL' \
	'^..  privilege  uid [0-9]*, CAP_PERFMON [a-z ]*held, perf_event_paranoid 2; the PMU' \
	'^ok  lparcfg    shared uncapped, ent 1.50, VPs 4, pool 8.00$' \
	'^NO  pool data  no pool_idle_time: the HMC.s "Allow performance information collection" is off' \
	'^ok  source     debugfs: .*no task switches (--no-tasks); 0 dispatches in 3 intervals$' \
	'^--  who pays   no task switches (--no-tasks)$' \
	'^dtltop --check: what was asked works here$'; do
	grep -q -- "$want" "$tmp/ck.out" && ok || fail "--check lacks /$want/: $(cat "$tmp/ck.out")"
done
# asked for who pays without a stream: NO, exit 1
"$DTLTOP" --check --root "$croot" --no-tasks --group=task -d 0.05 >"$tmp/ck.out" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q '^NO  who pays   no task switches (--no-tasks)$' "$tmp/ck.out" &&
	grep -q 'does not work here (the NO lines above say why)$' "$tmp/ck.out" && ok ||
	fail "--check --group=task without a stream: exit $rc: $(cat "$tmp/ck.out")"
# the partition may read pool data; garbage where the facts are; no kernel config
printf 'shared_processor_mode=1\npool_idle_time=123456\n' >"$croot/proc/powerpc/lparcfg"
head -c 300 /dev/urandom | tr -d '[]\n' >"$croot/sys/kernel/security/lockdown"
head -c 100 /dev/urandom >"$croot/proc/sys/kernel/osrelease"
rm "$croot/boot/config-6.12.0-55.el10.ppc64le"
"$DTLTOP" --check --root "$croot" --no-tasks -d 0.05 >"$tmp/ck.out" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q '^ok  pool data  pool_idle_time readable' "$tmp/ck.out" &&
	grep -q '^ok  lparcfg    shared uncapped, ent -, VPs -, pool -$' "$tmp/ck.out" &&
	grep -q '^--  lockdown   unknown (' "$tmp/ck.out" && grep -q '(CONFIG_DTL unknown: no /boot/config' "$tmp/ck.out" &&
	[ "$(grep -c '' "$tmp/ck.out")" -eq 14 ] && ok || fail "--check on garbage facts: exit $rc: $(cat -v "$tmp/ck.out")"
# nothing to read: the source's one-line reason, exit 1
mkdir -p "$tmp/ck-empty"
"$DTLTOP" --check --root "$tmp/ck-empty" -d 0.05 >"$tmp/ck.out" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q '^NO  source     .*vpa_dtl' "$tmp/ck.out" && grep -q '^NO  debugfs    no ' "$tmp/ck.out" &&
	ok || fail "--check with no source: exit $rc: $(cat "$tmp/ck.out")"
# the simulator works wherever dtltop runs
"$DTLTOP" --check --sim=clock=virtual -d 0.05 >"$tmp/ck.out" 2>&1 && grep -q '^ok  source     sim: .*[1-9][0-9]* dispatches in 3 intervals$' "$tmp/ck.out" &&
	grep -q '^ok  steal      the DTL.s [0-9.]* ms over 3 intervals against the VPA.s [0-9.]* ms ([+-][0-9.]*%) and /proc/stat.s unknown$' "$tmp/ck.out" &&
	ok || fail "--check --sim: $(cat "$tmp/ck.out")"

# --- kernel lockdown: debugfs refuses the writable dtl_event_mask even to root (EPERM), not
# the read-only cpu-N files; the boot mask, all, is in force. An immutable file refuses the
# same way (root, on a file system with chattr).
m=$root/sys/kernel/debug/powerpc/dtl/dtl_event_mask
echo 0x7 >"$m"
if [ "$(id -u)" -eq 0 ] && chattr +i "$m" 2>/dev/null; then
	out=$("$DTLTOP" --root "$root" -b -n 1 -d 0.05 --csv 2>&1 >"$tmp/lock.csv"); rc=$?
	[ $rc -eq 0 ] && awk -F, '$3=="0"{exit !($4==3)}' "$tmp/lock.csv" && ok ||
		fail "lockdown, mask all: rc $rc: $out"
	expect_error "lockdown, -e preempt" "Operation not permitted (kernel lockdown? it keeps the boot mask, all: leave -e out)" \
		--root "$root" -e preempt -b -n 1 -d 0.05
	chattr -i "$m"
fi

# --- a replay's host is the recorded machine's, or none: never this one's, and -w keeps it
zcat tests/data/pipe.perf.data.gz >"$tmp/pipe.pd"	# pipe mode: no HEADER_HOSTNAME
zcat tests/data/all.perf.data.gz >"$tmp/all.pd"	# recorded on "(none)"
[ "$("$DTLTOP" -r "$tmp/pipe.pd" -b --format=json 2>/dev/null | head -1 | jq -r .host)" = "" ] && ok ||
	fail "a perf.data without a host name shows one"
"$DTLTOP" -r "$tmp/pipe.pd" -b --format=influx 2>/dev/null | head -1 | grep -q '^dtl,host=unknown,' && ok ||
	fail "influx rows of a host-less replay"
for f in pipe all; do
	"$DTLTOP" -r "$tmp/$f.pd" -b --csv -w "$tmp/$f.dtl" >/dev/null 2>&1 || fail "-r $f.pd -w"
	a=$("$DTLTOP" -r "$tmp/$f.pd" -b --format=json 2>/dev/null | head -1 | jq -r .host)
	b=$("$DTLTOP" -r "$tmp/$f.dtl" -b --format=json 2>/dev/null | head -1 | jq -r .host)
	[ "$a" = "$b" ] && [ "$b" != "$(hostname)" ] && ok || fail "-r $f.pd -w: host '$a' became '$b'"
done
[ "$("$DTLTOP" -r "$tmp/all.dtl" -b --format=json 2>/dev/null | head -1 | jq -r .host)" = "(none)" ] && ok ||
	fail "the recorded host name"

# --- a hostile HEADER_HOSTNAME (a newline, U+009B, a byte that is not UTF-8, a quote, a
# comma) in a real perf.data: every output stays valid for its format's strict parser
python3 - "$tmp/hostile.pd" <<'PY'
import gzip, sys
d = gzip.open("tests/data/all.perf.data.gz").read()
i = d.find(b"(none)")
open(sys.argv[1], "wb").write(d[:i] + b'\n\xc2\x9b\xff",' + d[i + 6:])
PY
for f in text csv json influx prom openmetrics; do
	"$DTLTOP" -r "$tmp/hostile.pd" -b --format=$f -o "$tmp/h.$f" 2>/dev/null || fail "hostile host: --format=$f"
done
python3 - "$tmp" <<'PY' && ok || fail "a hostile host name broke an output"
import csv, json, re, sys
t = sys.argv[1]
for f in ("text", "csv", "json", "influx", "prom", "openmetrics"):
    s = open(f"{t}/h.{f}", encoding="utf-8", errors="strict").read()
    assert not re.search(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]", s), f
assert all(json.loads(l)["host"] == '???",' for l in open(f"{t}/h.json"))
list(csv.reader(open(f"{t}/h.csv")))
tag = r'(?:[^ ,=\\]|\\[ ,=])+'
for l in open(f"{t}/h.influx"):
    assert re.match(rf"^dtl,host={tag},cpu=[0-9a-z]+ \S+ [0-9]+$", l), l
PY
if command -v promtool >/dev/null; then
	promtool check metrics <"$tmp/h.prom" >/dev/null 2>&1 && ok || fail "hostile host: promtool"
fi

# --- -s as ps --sort: -FIELD descending, +FIELD ascending, FIELD its own order (a
# figure highest first, as top); headings as on screen (the CSV's rows come in the
# table's order; one interval, so one run of rows)
order() { "$DTLTOP" --sim=vcpus=16,clock=virtual --no-config -b -n 1 --csv "$@" | awk -F, 'NR > 1 && $3 != "all" { print $3 "," $8 }'; }
order -s -steal_pct >"$tmp/minus"
cmp -s "$tmp/minus" <(order -s steal_pct) && ok || fail "-s -steal_pct is not -s steal_pct"
sort -t, -k2,2gr -c "$tmp/minus" && ok || fail "-s -steal_pct not highest first: $(head -3 "$tmp/minus")"
order -s +steal_pct | sort -t, -k2,2g -c && ok || fail "-s +steal_pct not ascending"
cmp -s "$tmp/minus" <(order -s -STEAL%) && ok || fail "-s -STEAL% is not -s -steal_pct"
order -s -cpu | sort -t, -k1,1nr -c && ok || fail "-s -cpu not descending"
order -s P99 | cut -d, -f1 | cmp -s - <(order -s lat_p99_us | cut -d, -f1) && ok || fail "-s P99"
# every row of an interval has the same timestamp: no sort by it, with or without its sign
for t in timestamp +timestamp -timestamp; do
	expect_error "-s $t" "bad --sort field '$t'" --no-config --sim=vcpus=2,clock=virtual -b -n 1 -s "$t"
done
# --- --smooth is the TUI's: batch output is the interval's own figures, byte for byte
cmp -s <("$DTLTOP" $SIM -b -n 3 --csv) <("$DTLTOP" $SIM -b -n 3 --csv --smooth 30) && ok ||
	fail "--smooth changed batch output"

# --- -o into a FIFO writes through it, never replaces it
mkfifo "$tmp/fifo"
cat "$tmp/fifo" >"$tmp/fifo.out" &
"$DTLTOP" $SIM -b -n 2 --csv -o "$tmp/fifo" || fail "-o FIFO run"
wait
[ -p "$tmp/fifo" ] && ok || fail "-o replaced the FIFO"
cmp -s "$tmp/fifo.out" <("$DTLTOP" $SIM -b -n 2 --csv) && ok || fail "-o FIFO content"

# --- virtual processors: --group=vp folds a VP's threads; the same run per CPU adds up to it
"$DTLTOP" --sim=vps=3,smt=4,clock=virtual --seed 4 -b -n 2 --csv >"$tmp/cpu.csv" || fail "sim per cpu"
"$DTLTOP" --sim=vps=3,smt=4,clock=virtual --seed 4 -b -n 2 --csv --group=vp >"$tmp/vp.csv" \
	|| fail "sim per vp"
head -1 "$tmp/vp.csv" | grep -q '^timestamp,interval_s,vp,dispatches,' && ok || fail "--group=vp names the column vp"
[ "$(grep -c '^2025' "$tmp/vp.csv")" -eq 8 ] && ok || fail "--group=vp: 3 VP rows and all, twice"
# VPs numbered 0..N-1 as lparstat does; counts are their threads' sums, times the
# core's: its most-stolen thread's steal, at most the interval, not the threads' sum
awk -F, 'NR == FNR && FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	NR == FNR { if ($3 != "all") { k = $1 "," int($3 / 4); sum[k] += $4
		if ($c["steal_us"] > mx[k]) mx[k] = $c["steal_us"] }; next }
	FNR == 1 { for (i = 1; i <= NF; i++) v[$i] = i; next }
	$3 != "all" { n++; k = $1 "," $3; if (sum[k] != $4 || $v["threads"] != 4) bad++
		if ($v["steal_us"] != mx[k] || $v["steal_us"] > $2 * 1e6) bad++ }
	END { exit !(n == 6 && !bad) }' "$tmp/cpu.csv" "$tmp/vp.csv" && ok \
	|| fail "VP rows: counts not the sums of their threads, or steal not the core's"
cut -d, -f3 "$tmp/vp.csv" | grep -v all | tail -n +2 | sort -u | tr '\n' ' ' | grep -qx '0 1 2 ' && ok \
	|| fail "VPs not numbered 0..2"
"$DTLTOP" --sim=vps=3,smt=4,clock=virtual -b -n 1 | head -1 | grep -q 'mask all  3 VPs x SMT4 = 12 CPUs$' && ok \
	|| fail "the header counts VPs"
"$DTLTOP" --sim=vps=2,smt=4,clock=virtual -b -n 1 | grep -qE '^LPAR ent 1\.00  shared uncapped weight 128  VPs 2  pool 2\.00  physc [0-9]+\.[0-9]{2}  entc [0-9.]+%  app [0-9.]+  disp/s [0-9]+$' \
	&& ok || fail "the simulator's lparcfg figures in batch text"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $3 == "all" { k += $c["physc"] != "" }
	$3 != "all" { e += $c["physc"] != "" } END { exit !(k == 2 && e == 0) }' "$tmp/cpu.csv" && ok \
	|| fail "physc only on the partition row"
# the simulator's own VPA witnesses its DTL: equal with every event traced and nothing lost
"$DTLTOP" --sim=vps=2,smt=4,clock=virtual,poll=1 -b -n 2 --csv | awk -F, '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ n++; if ($c["steal_vpa_diff_pct"] != "0.0") bad++ } END { exit !(n == 18 && !bad) }' && ok \
	|| fail "the simulator's VPA and DTL steal differ"
"$DTLTOP" --sim=vps=2,smt=4,clock=virtual,poll=1 -b -n 1 -e preempt,fault | grep -q 'cede not traced  steal -[0-9.]*% off the VPA.s (the mask leaves the rest out)$' \
	&& ok || fail "a partial mask's steal shortfall is not explained by the mask"
expect_error "bad --group" "'core'" --sim --group=core -b -n 1
expect_error "sim vps and vcpus disagree" "vps=2" --sim=vps=2,vcpus=9 -b -n 1
# a live source's VPs come from thread_siblings_list
for c in 0 1; do mkdir -p "$root/sys/devices/system/cpu/cpu$c/topology"
	echo 0-1 >"$root/sys/devices/system/cpu/cpu$c/topology/thread_siblings_list"; done
"$DTLTOP" --root "$root" -b -n 1 -d 0.05 --csv --group=vp 2>/dev/null | awk -F, '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$3 == "0" { n++; t = $c["threads"] } $3 == "1" { one++ }
	END { exit !(n == 1 && !one && t == 2) }' && ok || fail "debugfs root: cpus 0-1 one VP"
rm -r "$root/sys/devices/system/cpu/cpu0/topology" "$root/sys/devices/system/cpu/cpu1/topology"

# --- --source=vpa: no DTL, each thread's VPA counters; what needs the DTL stays blank
mkdir -p "$tmp/vr/sys/devices/system/cpu" "$tmp/vr/proc" "$tmp/vr/sys/kernel/debug/powerpc/vpa"
echo 0-1 >"$tmp/vr/sys/devices/system/cpu/online"
printf 'timebase\t: 512000000\n' >"$tmp/vr/proc/cpuinfo"
expect_error "vpa source without VPA files" "no VPA to read" --source=vpa --root "$tmp/vr" -b -n 1
for c in 0 1; do head -c 640 /dev/zero >"$tmp/vr/sys/kernel/debug/powerpc/vpa/cpu-$c"; done
"$DTLTOP" --source=vpa --root "$tmp/vr" -b -n 1 -d 0.05 >"$tmp/vpa.txt" 2>&1 || fail "vpa source run: $(cat "$tmp/vpa.txt")"
grep -q '^all: 0 dispatch cycles .*(VPA counters, no DTL: latency, reasons and faults unknown)$' "$tmp/vpa.txt" \
	&& ok || fail "vpa source: the all line says what it cannot know: $(sed -n 2p "$tmp/vpa.txt")"
"$DTLTOP" --source=vpa --root "$tmp/vr" -b -n 1 -d 0.05 --csv | awk -F, '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ n++; if ($c["lat_p99_us"] != "" || $c["steal_pct"] == "") bad++ }
	END { exit !(n == 3 && !bad) }' && ok || fail "vpa source CSV: latency blank, steal known"
# --check: the VPA alone works where --source=vpa asked for it (auto takes it only when the DTL
# is held: tests/qemu's auto_falls_back_to_the_vpa); auto finds no DTL here and says so
"$DTLTOP" --check --source=vpa --root "$tmp/vr" -d 0.05 >"$tmp/ck.out" 2>&1 && grep -q '^ok  source     vpa: ' "$tmp/ck.out" &&
	ok || fail "--check --source=vpa: $(cat "$tmp/ck.out")"
"$DTLTOP" --check --root "$tmp/vr" -d 0.05 >"$tmp/ck.out" 2>&1 && fail "--check: no DTL source passes" ||
	{ grep -q '^NO  source     no DTL source: ' "$tmp/ck.out" && ok || fail "--check auto on a VPA root: $(cat "$tmp/ck.out")"; }

# --- JSON Lines and InfluxDB line protocol: the CSV's figures, field for field
"$DTLTOP" --sim=vps=2,smt=2,clock=virtual -b -n 2 --csv >"$tmp/f.csv" || fail "csv for the formats"
"$DTLTOP" --sim=vps=2,smt=2,clock=virtual -b -n 2 --format=json >"$tmp/f.json" || fail "json"
jq -e . "$tmp/f.json" >/dev/null && ok || fail "json: not JSON Lines"
[ "$(wc -l <"$tmp/f.json")" -eq "$(($(wc -l <"$tmp/f.csv") - 1))" ] && ok || fail "json: a line per CSV row"
# every field equal to the CSV's (numbers as numbers, null where the CSV is empty)
jq -r '[to_entries[] | select(.key != "host" and .key != "verdict" and .key != "why" and
	(.key | test("^(partition_|pool_id|frame_)") | not)) | .value // ""] | @tsv' "$tmp/f.json" |
	paste -d'\t' - <(tail -n +2 "$tmp/f.csv" | tr ',' '\t') | awk -F'\t' '
	# the CSV writes the mask in hex, JSON as a number: read the hex by hand (mawk and gawk alike)
	function hex(s,  v, k) { v = 0; s = tolower(substr(s, 3))
		for (k = 1; k <= length(s); k++) v = v * 16 + index("0123456789abcdef", substr(s, k, 1)) - 1
		return v }
	{ h = NF / 2; for (i = 1; i <= h; i++) { a = $i; b = $(i + h)
		if (b ~ /^0x[0-9a-fA-F]+$/) b = hex(b)
		if (a == b || (a ~ /^-?[0-9.]+$/ && b ~ /^-?[0-9.]+$/ && a - b < 1e-9 && b - a < 1e-9)) continue
		print NR ": field " i ": json " a ", csv " b; bad++ } }
	END { exit bad > 0 }' && ok || fail "json differs from the CSV"
jq -e 'select(.cpu == "all") | .physc != null and .host != "" and (.steal_stat_diff_pct == null)' \
	"$tmp/f.json" | grep -qv false && ok || fail "json: host, partition figures, nulls"
"$DTLTOP" --sim=vps=2,smt=2,clock=virtual -b -n 2 --format=influx >"$tmp/f.influx" || fail "influx"
# the line protocol: measurement,tags fields timestamp; integers with i; no empty fields
[ "$(grep -Evc '^dtl,host=[^ ,]+(,(partition_id|partition_name|pool_id|frame_serial|frame_type)=([^ ,\\]|\\.)+)*,cpu=[0-9a-z]+ [a-zA-Z0-9_]+=[-0-9.]+i?(,[a-zA-Z0-9_]+=[-0-9.]+i?)* [0-9]{19}$' "$tmp/f.influx")" -eq 0 ] \
	&& [ "$(wc -l <"$tmp/f.influx")" -eq 10 ] && ok \
	|| fail "influx: not line protocol: $(head -c 300 "$tmp/f.influx")"
grep -q '^dtl,host=[^ ]*,cpu=all .*dispatches=[0-9]*i,.*physc=[0-9.]*,.* 1735689602000000000$' "$tmp/f.influx" && ok \
	|| fail "influx: the partition line of the second interval"

# --- record and replay
"$DTLTOP" --sim=vcpus=16,clock=virtual --seed 3 -b -n 12 -d 0.5 --csv -o "$tmp/live.csv" -w "$tmp/rec.dtl" \
	|| fail "recording run"
"$DTLTOP" -r "$tmp/rec.dtl" -b --format csv -o "$tmp/replay.csv" || fail "replay run"
cmp -s "$tmp/live.csv" "$tmp/replay.csv" && ok || fail "replayed CSV differs from the live run"
"$DTLTOP" -r "$tmp/rec.dtl" -b -n 1 | head -1 | grep -q "2 VPs x SMT8 = 16 CPUs$" && ok \
	|| fail "a replay knows the recorded VPs"
"$DTLTOP" -r "$tmp/rec.dtl" -b -n 1 | head -1 | grep -q "replay of $tmp/rec.dtl: sim on [^,]*, 2025-01-01 00:00:00Z " && ok \
	|| fail "replay header names the recording and when it began"
"$DTLTOP" -r "$tmp/rec.dtl" -b --speed 1000 --csv | cmp -s - "$tmp/live.csv" && ok || fail "--speed 1000"
# cut off mid-file: a warning, then every whole interval
size=$(stat -c %s "$tmp/rec.dtl")
head -c $((size * 2 / 3)) "$tmp/rec.dtl" >"$tmp/cut.dtl"
"$DTLTOP" -r "$tmp/cut.dtl" -b --csv >"$tmp/cut.csv" 2>"$tmp/cut.err"
rc=$?
[ $rc -eq 0 ] && grep -q "warning: $tmp/cut.dtl: offset [0-9]*: cut off" "$tmp/cut.err" && ok \
	|| fail "cut-off replay: rc $rc, $(cat "$tmp/cut.err")"
n=$(grep -c ',all,' "$tmp/cut.csv")
[ "$n" -ge 4 ] && [ "$n" -lt 12 ] && head -n "$(wc -l <"$tmp/cut.csv")" "$tmp/live.csv" | cmp -s - "$tmp/cut.csv" \
	&& ok || fail "cut-off replay is not a prefix of the live run ($n intervals)"
# a file written by dtltop 0.1.0 (format 1.0) and its live CSV, committed: every later
# dtltop must replay it to the same figures. Steal and idle are not compared: 0.1.0 booked a
# whole wait into the interval it ended in (above 100 %); now it is split at interval edges.
same="timestamp,interval_s,cpu,dispatches,dispatch_per_s,preempt_ratio,lat_p50_us,lat_p99_us"
same="$same,lat_max_us,migrations,faults,lost,preempt_H_CEDE,preempt_time_slice,dispatch_other,bad"
"$DTLTOP" -r tests/data/v1.0-sim.dtl -b --csv >"$tmp/v10.csv" || fail "format 1.0 replay"
cmp -s <(csv_cols tests/data/v1.0-sim.csv "$same") <(csv_cols "$tmp/v10.csv" "$same") && ok \
	|| fail "a format 1.0 recording no longer replays to its recorded CSV"
awk -F, 'NR > 1 && ($8 > 100 || $8 < 0) { bad = 1 } END { exit bad }' "$tmp/v10.csv" && ok \
	|| fail "format 1.0 replay: steal_pct outside 0-100"
# every recording committed replays to the CSV committed beside it, byte for byte, and
# -r OLD -w NEW converts it to today's format, which replays to the same bytes
# (v2.2-sim.dtl: a record a drain, as written before a CPU's blocks in a row were merged; the
# reader merges them as it reads)
for f in v1.0-sim:replay v1.3-sim:cpu v1.3-sim:vp v1.3-sim:task v1.3-sim:cgroup v2.2-sim:cpu v2.2-sim:vp; do
	rec=${f%%:*} g=${f#*:}
	grp=--group=$g; [ "$g" = replay ] && grp=
	"$DTLTOP" --no-config -r "tests/data/$rec.dtl" -b --csv $grp | cmp -s - "tests/data/$rec.$g.csv" \
		&& ok || fail "$rec.dtl no longer replays to $rec.$g.csv"
	[ -e "$tmp/conv-$rec.dtl" ] || "$DTLTOP" --no-config -r "tests/data/$rec.dtl" -b -o /dev/null \
		-w "$tmp/conv-$rec.dtl" || fail "-r $rec.dtl -w: converting failed"
	[ "$(od -An -tu2 -j8 -N2 "$tmp/conv-$rec.dtl" | tr -d ' ')" = 2 ] && ok \
		|| fail "-r $rec.dtl -w wrote format $(od -An -tu2 -j8 -N2 "$tmp/conv-$rec.dtl"), not 2"
	"$DTLTOP" --no-config -r "$tmp/conv-$rec.dtl" -b --csv $grp | cmp -s - "tests/data/$rec.$g.csv" \
		&& ok || fail "$rec.dtl converted to format 2 replays other figures ($g)"
done
# recording to an existing file refuses; never clobbers
expect_error "-w over an existing file" "$tmp/rec.dtl" --sim -b -n 1 -w "$tmp/rec.dtl"
expect_error "-r not a recording" "$tmp/live.csv: offset 0: not a dtltop recording" -r "$tmp/live.csv" -b
expect_error "-r missing" "$tmp/nope.dtl" -r "$tmp/nope.dtl" -b
head -c 10 "$tmp/rec.dtl" >"$tmp/short.dtl"
expect_error "-r 10 bytes" "offset 0" -r "$tmp/short.dtl" -b
expect_error "bad --speed" "'fast'" -r "$tmp/rec.dtl" --speed fast -b
expect_error "--speed with a tail" "bad --speed '2x'" -r "$tmp/rec.dtl" --speed 2x -b
expect_error "--speed without -r" "--speed needs -r" --sim --speed 2 -b -n 1

# --- perf.data import
# built to perf.data-file-format.txt: two CPUs, a header record each
for f in spec pipe junk; do
	"$DTLTOP" -r tests/corpus/perfdata/$f -b --csv -o "$tmp/pd-$f.csv" || fail "perf.data $f: exit $?"
	[ "$(grep -c ',all,' "$tmp/pd-$f.csv")" -ge 2 ] && ok || fail "perf.data $f: intervals"
done
"$DTLTOP" -r tests/corpus/perfdata/spec -b -n 1 | head -1 | grep -q "replay of tests/corpus/perfdata/spec: perf.data" \
	&& ok || fail "perf.data replay header"
# cpu 0's chunk ends in the 32-byte junk at a wrap: 5 entries and 1 bad fragment
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } $3 == "0" { d += $4; b += $c["bad"] } END { exit !(d == 5 && b == 1) }' "$tmp/pd-junk.csv" && ok \
	|| fail "perf.data junk: cpu 0 counts"
# a real perf.data from Debian's perf, with no vpa_dtl data: a named error, exit 2
expect_error "perf.data without vpa_dtl" "no vpa_dtl AUX data" -r tests/data/cpu-clock.perf.data -b
if perf record -q -e cpu-clock -a -o "$tmp/live.perf.data" -- sleep 0.2 >/dev/null 2>&1; then
	expect_error "perf.data recorded now" "$tmp/live.perf.data: no vpa_dtl AUX data" -r "$tmp/live.perf.data" -b
else
	echo "cli.sh: perf record unavailable here; the committed tests/data/cpu-clock.perf.data stands in" >&2
fi
head -c 60 tests/data/cpu-clock.perf.data >"$tmp/short.perf.data"
expect_error "perf.data cut in its header" "offset 8" -r "$tmp/short.perf.data" -b

# --- the perf source on a fake root (no vpa_dtl PMU exists on x86)
pmu=$tmp/pmu/sys/bus/event_source/devices/vpa_dtl
mkdir -p "$pmu/events" "$tmp/pmu/sys/devices/system/cpu"
echo 0 >"$tmp/pmu/sys/devices/system/cpu/online"
echo "event=0x07" >"$pmu/events/dtl_all"
echo zz >"$pmu/type"
expect_error "perf: garbage PMU type" "vpa_dtl/type: not a PMU type: 'zz'" --root "$tmp/pmu" -b -n 1
echo 9999 >"$pmu/type"
expect_error "perf: auto picks the PMU when present" "vpa_dtl on CPU 0" --root "$tmp/pmu" -b -n 1
rm "$pmu/events/dtl_all"
expect_error "perf: events missing" "events/dtl_all" --source=perf --root "$tmp/pmu" -b -n 1
echo "event=0x07" >"$pmu/events/dtl_all"
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	chmod -R a+rX "$tmp"
	out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all \
		"$DTLTOP" --root "$tmp/pmu" -b -n 1 2>&1 </dev/null)
	rc=$?
	if [ $rc -eq 2 ] && grep -q "CAP_PERFMON" <<<"$out" && grep -q "setcap cap_perfmon+ep" <<<"$out" \
		&& grep -q perf_event_paranoid <<<"$out" && [ "$(wc -l <<<"$out")" -eq 1 ]; then ok
	else fail "unprivileged perf: rc $rc: $out"; fi
else
	echo "SKIP unprivileged perf test: not root or no setpriv"
fi
expect_error "perf: no PMU at all" "no vpa_dtl PMU" --source=perf --root "$tmp/empty" -b -n 1

# --- bad input: one line, exit 2, the value named
expect_error "unknown option" "--frobnicate" --frobnicate
expect_error "zero interval" "'0'" -d 0
expect_error "negative interval" "'-2'" -d -2
expect_error "bad count" "'zero'" -n zero
expect_error "bad cpu list" "3-1" --sim -C 3-1
expect_error "bad sim key" "warp=9" --sim=warp=9
expect_error "bad sim value" "vcpus=0" --sim=vcpus=0
expect_error "bad events" "bogus" -e cede,bogus
expect_error "bad format" "yaml" --format=yaml
expect_error "no source" "--sim" --root "$tmp/empty" -b -n 1
expect_error "debugfs missing" "powerpc/dtl" --source=debugfs --root "$tmp/empty" -b -n 1
expect_error "cpu filter empty" "-C" --sim=vcpus=4 -C 8 -b -n 1
mkdir -p "$tmp/g/sys/kernel/debug/powerpc/dtl" "$tmp/g/sys/devices/system/cpu"
echo "zz" >"$tmp/g/sys/devices/system/cpu/online"
expect_error "garbage online file" "online" --source=debugfs --root "$tmp/g" -b -n 1
expect_error "unwritable -o" "/nonexistent/x.csv" --sim -b -n 1 -o /nonexistent/x.csv

# --- dtltoprc: kept settings, the command line over them, bad lines named
mkdir -p "$tmp/xdg/dtltop"
printf '# mine\nformat = csv\nsort=-dispatches\nbogus=1\n' >"$tmp/xdg/dtltop/dtltoprc"
out=$(XDG_CONFIG_HOME=$tmp/xdg "$DTLTOP" $SIM -b -n 1 2>"$tmp/rc.err")
head -1 <<<"$out" | grep -q '^timestamp,interval_s,cpu,' && ok || fail "dtltoprc format=csv not used"
grep -q "warning: $tmp/xdg/dtltop/dtltoprc:4: unknown key 'bogus'" "$tmp/rc.err" && ok \
	|| fail "unknown dtltoprc key not warned about: $(cat "$tmp/rc.err")"
XDG_CONFIG_HOME=$tmp/xdg "$DTLTOP" $SIM -b -n 1 --format=text 2>/dev/null | grep -q '^  CPU ' && ok \
	|| fail "--format on the command line does not override dtltoprc"
XDG_CONFIG_HOME=$tmp/xdg "$DTLTOP" $SIM -b -n 1 --no-config 2>/dev/null | grep -q '^  CPU ' && ok \
	|| fail "--no-config still reads dtltoprc"
printf 'delay=0\n' >"$tmp/bad.rc"
expect_error "bad dtltoprc value" "$tmp/bad.rc:1: " --config "$tmp/bad.rc" $SIM -b -n 1
expect_error "missing --config file" "$tmp/none.rc" --config "$tmp/none.rc" $SIM -b -n 1

# --- the verdict in words, against the simulator's ground truth: each
# scenario's cause in the JSON field, the text's "why:" line and the exposition
verdict() {
	local want=$1 words=$2 sim=$3 got
	got=$("$DTLTOP" --sim="$sim,clock=virtual" --no-config -b -n 3 --format=json | tail -1)
	grep -q "\"verdict\":\"$want\"" <<<"$got" && grep -q "$words" <<<"$got" && ok \
		|| fail "--sim=$sim: want $want ($words), got $(grep -o '"verdict.*' <<<"$got")"
	"$DTLTOP" --sim="$sim,clock=virtual" --no-config -b -n 3 | grep "^why: " | tail -1 \
		| grep -q "$words" && ok || fail "--sim=$sim: no 'why: $words' in the text"
	"$DTLTOP" --sim="$sim,clock=virtual" --no-config -b -n 2 --format=prom \
		| grep -qx "lpar_verdict{verdict=\"$want\"} 1" && ok || fail "--sim=$sim: exposition"
}
verdict capped "capped at its entitlement (4.00, entc 100%): .* Raise the entitlement, or uncap it." \
	vps=8,ent=4,capped=1,load=0.7,pool=32,other=4
verdict capped "held at its entitlement (2.00, entc 100%): uncapped with weight 0 .* Give it a weight" \
	vps=4,ent=2,weight=0,load=0.9,pool=16,other=2
verdict starved "starved by the pool: at its entitlement (entc 100%), the pool has 0.00 of 8 idle" \
	vps=8,ent=4,load=0.7,pool=8,oent=4,other=8
verdict not_limited "not limited by the hypervisor.* Nothing to do at the hypervisor." vps=8,ent=4,load=0.05,pool=32,other=4
# the admin's LPAR: a quarter of its entitlement used, the pool full: guaranteed, so not starved
verdict not_limited "not limited by the hypervisor" vps=4,smt=8,ent=3,pool=4,other=4,load=0.1
verdict dispatch_latency "below its entitlement (entc [0-9]*%), which PowerVM guarantees: the waits .* are dispatch latency" \
	vps=8,smt=1,ent=8,pool=8,oent=0,other=16,load=0.5,busy=2
verdict borrowing "borrowing 2.[67][0-9] above its entitlement (2.00)" vps=8,ent=2,load=0.1,pool=32,other=4
verdict vp_limited "uses 4.00 of 4 (entitlement 2.00); waits 0%. Add virtual processors." \
	vps=4,ent=2,load=0.9,pool=32,other=4
verdict dedicated "dedicated processors, no pool" vps=2,dedicated=1
verdict donating "donating idle cycles" vps=2,donating=1
"$DTLTOP" --sim=dedicated=1,clock=virtual --no-config -b -n 2 | grep -q "^LPAR dedicated  procs 2" \
	&& ok || fail "a dedicated LPAR's line"
# -C picks the rows shown, not the simulated world: the partition's lparcfg is the same
lpar() { "$DTLTOP" --sim=vps=4,ent=2,load=0.6,pool=6,other=2,clock=virtual --no-config -b -n 2 "$@" | grep '^LPAR' | tail -1; }
[ -n "$(lpar)" ] && [ "$(lpar)" = "$(lpar -C 8-23)" ] && ok || fail "-C changed the simulated partition: $(lpar) / $(lpar -C 8-23)"
# a replay's -d of several intervals shows the trailing partial group for its own length
"$DTLTOP" --sim=clock=virtual --no-config -b -n 5 -w "$tmp/five.dtl" -o /dev/null || fail "five intervals"
groups=$("$DTLTOP" -r "$tmp/five.dtl" -b -d 2 --csv | awk -F, '$3 == "all" { printf "%s,%s ", $2, $4 }')
total=$("$DTLTOP" -r "$tmp/five.dtl" -b --csv | awk -F, '$3 == "all" { s += $4 } END { print s }')
awk -v g="$groups" -v t="$total" 'BEGIN { n = split(g, a, " "); for (i = 1; i <= n; i++) { split(a[i], f, ","); s += f[2] }
	split(a[3], f, ","); exit !(n == 3 && f[1] == "1.000" && s == t) }' && ok \
	|| fail "-d 2 over 5 intervals: $groups (total $total)"
expect_error "pool with dedicated" "pool= is for shared processors" --sim=dedicated=1,pool=4 -b -n 1

# --- --rotate: FILE.1, FILE.2, ... each a whole recording; -r FILE replays the set as one
rot() { rm -f "$tmp"/rot.dtl*; "$DTLTOP" --no-config --sim=vcpus=8,clock=virtual -b -n 20 --csv -o "$tmp/rot.csv" \
	-w "$tmp/rot.dtl" --rotate "$1"; }
rot 5s || fail "--rotate 5s"
[ "$(ls "$tmp"/rot.dtl.* | wc -l)" = 4 ] && [ ! -e "$tmp/rot.dtl" ] && ok || fail "--rotate 5s: $(ls "$tmp"/rot.dtl*)"
"$DTLTOP" --no-config -r "$tmp/rot.dtl" -b --csv 2>"$tmp/rot.err" | cmp -s - "$tmp/rot.csv" && [ ! -s "$tmp/rot.err" ] \
	&& ok || fail "the replay of a rotated set differs from the live run: $(cat "$tmp/rot.err")"
# KEEP: the newest two stay, and replay as the live run's last ten intervals
rot 5s,2 || fail "--rotate 5s,2"
[ "$(cd "$tmp" && ls rot.dtl.* | tr '\n' ' ')" = "rot.dtl.3 rot.dtl.4 " ] && ok || fail "KEEP 2: $(ls "$tmp"/rot.dtl*)"
{ head -1 "$tmp/rot.csv"; awk -F, 'NR > 1 && $1 > "2025-01-01T00:00:10.999Z"' "$tmp/rot.csv"; } >"$tmp/tail.csv"
"$DTLTOP" --no-config -r "$tmp/rot.dtl" -b --csv | cmp -s - "$tmp/tail.csv" && ok || fail "KEEP 2: the set's replay is not the live tail"
# by size: a new file past it (checked at each interval's end), the whole still replays as one
rot 30k || fail "--rotate 30k"
[ "$(ls "$tmp"/rot.dtl.* | wc -l)" -ge 3 ] && ok || fail "--rotate 30k: $(ls -l "$tmp"/rot.dtl*)"
"$DTLTOP" --no-config -r "$tmp/rot.dtl" -b --csv | cmp -s - "$tmp/rot.csv" && ok || fail "--rotate 30k: replay differs"
# a hole in the set is said, not skipped silently
rot 5s; rm "$tmp/rot.dtl.3"
"$DTLTOP" --no-config -r "$tmp/rot.dtl" -b --csv 2>&1 >/dev/null | grep -q 'rot.dtl.3: No such file.*ends at .*rot.dtl.2' \
	&& ok || fail "a hole in a rotated set went unsaid"
rot 5s; rm "$tmp/rot.dtl.2"
"$DTLTOP" --no-config -r "$tmp/rot.dtl" -b --csv 2>&1 >/dev/null | grep -q 'rot.dtl.2: No such file.*ends at .*rot.dtl.1,' \
	&& ok || fail "a hole after the first file is said with the wrong file"
# a run started again onto what an earlier run left numbers on after it, never "File exists",
# under an identity of its own: with KEEP the earlier run's files go, and the set replays as
# the new run's tail
rot 5s,2 && rot2() { "$DTLTOP" --no-config --sim=vcpus=8,clock=virtual --seed 2 -b -n "$1" --csv \
	-o "$tmp/rot2.csv" -w "$tmp/rot.dtl" --rotate "$2" 2>"$tmp/rot2.err"; }
rot2 20 5s,2 && grep -q 'rot.dtl.4 and below are an earlier recording.s; this one begins at .*rot.dtl.5' "$tmp/rot2.err" \
	&& ok || fail "a restart onto a KEEP set: rc $?: $(cat "$tmp/rot2.err")"
[ "$(cd "$tmp" && ls rot.dtl.* | tr '\n' ' ')" = "rot.dtl.7 rot.dtl.8 " ] && ok || fail "restart, KEEP 2: $(ls "$tmp"/rot.dtl*)"
{ head -1 "$tmp/rot2.csv"; awk -F, 'NR > 1 && $1 > "2025-01-01T00:00:10.999Z"' "$tmp/rot2.csv"; } >"$tmp/tail2.csv"
"$DTLTOP" --no-config -r "$tmp/rot.dtl" -b --csv 2>"$tmp/rot.err" | cmp -s - "$tmp/tail2.csv" && [ ! -s "$tmp/rot.err" ] \
	&& ok || fail "restart, KEEP 2: the set's replay is not the new run's tail: $(cat "$tmp/rot.err")"
# without KEEP both runs stay: -r FILE plays the first and stops, naming where the second begins;
# -r FILE.5 plays the second
rot 5s && rot2 10 5s || fail "two runs onto one set"
"$DTLTOP" --no-config -r "$tmp/rot.dtl" -b --csv 2>"$tmp/rot.err" | cmp -s - "$tmp/rot.csv" && ok ||
	fail "two runs: -r FILE does not play the first run alone"
grep -q 'rot.dtl.5: another recording (set [0-9a-f]* file 5, not set [0-9a-f]* file 5); the replay ends at .*rot.dtl.4' "$tmp/rot.err" \
	&& ok || fail "two runs: the splice went unsaid: $(cat "$tmp/rot.err")"
"$DTLTOP" --no-config -r "$tmp/rot.dtl.5" -b --csv 2>"$tmp/rot.err" | cmp -s - "$tmp/rot2.csv" && [ ! -s "$tmp/rot.err" ] \
	&& ok || fail "-r FILE.5 does not play the second run: $(cat "$tmp/rot.err")"
# a member duplicated into the set is no continuation either
rot 5s && cp "$tmp/rot.dtl.2" "$tmp/rot.dtl.5"
"$DTLTOP" --no-config -r "$tmp/rot.dtl" -b --csv 2>&1 >/dev/null | grep -q 'rot.dtl.5: another recording (set [0-9a-f]* file 2, not' \
	&& ok || fail "a duplicated member went unsaid"
# files without an identity (before format 2.1): time going back ends the set
rm -f "$tmp"/old.dtl*; cp "$(dirname "$0")/data/v1.3-sim.dtl" "$tmp/old.dtl.1"; cp "$tmp/old.dtl.1" "$tmp/old.dtl.2"
"$DTLTOP" --no-config -r "$tmp/old.dtl" -b --csv 2>&1 >/dev/null | grep -q 'old.dtl.2: it begins before the file before it ended' \
	&& ok || fail "an older set going back in time went unsaid"
expect_error "rotate without -w" "--rotate needs -w FILE" --sim=vcpus=2 -b -n 1 --rotate 1h
expect_error "rotate bad unit" "bad --rotate '5x'" --sim=vcpus=2 -b -n 1 -w "$tmp/x.dtl" --rotate 5x
expect_error "rotate too small" "bad --rotate '1k'" --sim=vcpus=2 -b -n 1 -w "$tmp/x.dtl" --rotate 1k
expect_error "rotate keep 0" "bad --rotate '1h,0'" --sim=vcpus=2 -b -n 1 -w "$tmp/x.dtl" --rotate 1h,0
# the floor the help states is accepted (4k is 4000 bytes); past the ceilings a value is refused,
# not converted out of range into "no rotation"
rot 4k && [ "$(ls "$tmp"/rot.dtl.* | wc -l)" -ge 10 ] && ok || fail "--rotate 4k: $(ls "$tmp"/rot.dtl* 2>&1 | head -3)"
expect_error "rotate below 4k" "bad --rotate '3.999k'" --sim=vcpus=2 -b -n 1 -w "$tmp/x.dtl" --rotate 3.999k
expect_error "rotate 2e10G" "bad --rotate '2e10G'" --sim=vcpus=2 -b -n 1 -w "$tmp/x.dtl" --rotate 2e10G
expect_error "rotate 1e30G" "bad --rotate '1e30G'" --sim=vcpus=2 -b -n 1 -w "$tmp/x.dtl" --rotate 1e30G
expect_error "rotate 1e30d" "bad --rotate '1e30d'" --sim=vcpus=2 -b -n 1 -w "$tmp/x.dtl" --rotate 1e30d
# the ceilings the message states are accepted themselves
for r in 1000000000G 36500d; do
	rm -f "$tmp"/edge.dtl*
	"$DTLTOP" --no-config --sim=vcpus=2,clock=virtual -b -n 1 -o /dev/null -w "$tmp/edge.dtl" --rotate $r \
		2>"$tmp/edge.err" && ok || fail "--rotate $r (a stated ceiling) refused: $(cat "$tmp/edge.err")"
done

# --- --follow: a recording played as it is written, as tail -f does: the same intervals as
# a replay of the finished file, without the "killed?" warning; across a rotated set; a
# writer killed mid-run is waited for, not called killed; refused where it cannot follow
f=$tmp/follow
mkdir -p "$f"
follow_pair() {	# follow_pair NAME WRITER-OPTIONS...: writer and follower at once
	local name=$1 wpid
	shift
	rm -f "$f/$name".dtl*
	"$DTLTOP" --no-config --sim=vcpus=8 -d 0.3 -b --csv -o /dev/null -w "$f/$name.dtl" "$@" 2>"$f/$name.w.err" &
	wpid=$!
	for i in $(seq 50); do ls "$f/$name".dtl* >/dev/null 2>&1 && break; sleep 0.1; done
	timeout 30 "$DTLTOP" --no-config -r "$f/$name.dtl" --follow -b --csv >"$f/$name.fol.csv" 2>"$f/$name.fol.err"
	echo $? >"$f/$name.rc"
	wait "$wpid"
	"$DTLTOP" --no-config -r "$f/$name.dtl" -b --csv >"$f/$name.csv" 2>/dev/null
}
follow_pair one -n 10
[ "$(cat "$f/one.rc")" = 0 ] && [ "$(grep -c ',all,' "$f/one.fol.csv")" = 10 ] && cmp -s "$f/one.fol.csv" "$f/one.csv" &&
	[ ! -s "$f/one.fol.err" ] && ok ||
	fail "--follow: exit $(cat "$f/one.rc"), $(grep -c ',all,' "$f/one.fol.csv") intervals, $(cat "$f/one.fol.err")"
follow_pair set -n 12 --rotate 1s
[ "$(cat "$f/set.rc")" = 0 ] && [ "$(ls "$f"/set.dtl.* | wc -l)" -ge 3 ] && [ "$(grep -c ',all,' "$f/set.fol.csv")" = 12 ] &&
	cmp -s "$f/set.fol.csv" "$f/set.csv" && [ ! -s "$f/set.fol.err" ] && ok ||
	fail "--follow across a rotated set: exit $(cat "$f/set.rc"), $(grep -c ',all,' "$f/set.fol.csv") intervals, $(cat "$f/set.fol.err")"
# a writer killed: the follower has every whole interval and waits on, saying nothing
"$DTLTOP" --no-config --sim=vcpus=8 -d 0.3 -b --csv -o /dev/null -w "$f/kill.dtl" 2>/dev/null &
wpid=$!
sleep 1.6
kill -9 "$wpid"
wait "$wpid" 2>/dev/null
timeout 2 "$DTLTOP" --no-config -r "$f/kill.dtl" --follow -b --csv >"$f/kill.fol.csv" 2>"$f/kill.fol.err"
rc=$?
"$DTLTOP" --no-config -r "$f/kill.dtl" -b --csv >"$f/kill.csv" 2>"$f/kill.err"
[ $rc = 124 ] && [ "$(grep -c ',all,' "$f/kill.fol.csv")" -ge 3 ] && cmp -s "$f/kill.fol.csv" "$f/kill.csv" &&
	[ ! -s "$f/kill.fol.err" ] && grep -q 'writer was killed' "$f/kill.err" && ok ||
	fail "--follow of a killed writer: exit $rc, $(grep -c ',all,' "$f/kill.fol.csv") intervals, '$(cat "$f/kill.fol.err")'"
# a window that begins past what is written yet: waited for, not "ends before --begin"
rm -f "$f/late.dtl"
"$DTLTOP" --no-config --sim=vcpus=2,smt=2 -d 0.3 -n 12 -b --csv -o /dev/null -w "$f/late.dtl" 2>/dev/null &
wpid=$!
for i in $(seq 50); do [ -s "$f/late.dtl" ] && break; sleep 0.1; done
n=$(timeout 20 "$DTLTOP" --no-config -r "$f/late.dtl" --follow --begin '#8' -b --csv 2>"$f/late.err" | grep -c ',all,')
wait "$wpid"
[ "$n" = 5 ] && [ ! -s "$f/late.err" ] && ok || fail "--follow --begin #8 of 12: $n intervals, $(cat "$f/late.err")"
# what cannot be followed
expect_error "--follow with -d" "--follow plays a dtltop recording file as it is written, each interval as recorded: no -d" \
	--no-config -r "$f/one.dtl" --follow -d 0.6 -b
out=$(cat "$f/one.dtl" | "$DTLTOP" --no-config -r /dev/stdin --follow -b 2>&1 >/dev/null)
[ $? = 2 ] && grep -q -- '--follow plays .*: not a pipe' <<<"$out" && ok || fail "--follow of a pipe: $out"

# --- --begin/--end: a replay's window is the same rows as the whole replay's, by a time of
# day, an ISO 8601 time, back from the end (read from the last chunks: a cut file's last
# whole interval), an interval number, over a rotated set; what cannot be a window is refused
w=$tmp/win
mkdir -p "$w"
"$DTLTOP" --no-config --sim=vcpus=2,smt=2,busy=50,clock=virtual -d 30 -n 120 -b --csv -o "$w/all.csv" -w "$w/day.dtl" ||
	fail "an hour's recording"
slice() { { head -1 "$w/all.csv"; awk -F, -v a="$1" -v b="$2" 'NR > 1 && $1 > a && $1 <= b' "$w/all.csv"; }; }
win() { "$DTLTOP" --no-config -r "$w/day.dtl" -b --csv "$@" 2>"$w/err"; }
win --begin 00:20 --end 00:30 | cmp -s - <(slice 2025-01-01T00:20:00.000Z 2025-01-01T00:30:00.000Z) &&
	[ ! -s "$w/err" ] && ok || fail "--begin 00:20 --end 00:30: $(cat "$w/err")"
win --begin 2025-01-01T00:45:00Z | cmp -s - <(slice 2025-01-01T00:45:00.000Z 9) && ok || fail "--begin ISO 8601"
win --begin -10m | cmp -s - <(slice 2025-01-01T00:50:00.000Z 9) && ok || fail "--begin -10m: $(cat "$w/err")"
win --begin +20m --end -25m | cmp -s - <(slice 2025-01-01T00:20:00.000Z 2025-01-01T00:35:00.000Z) && ok ||
	fail "--begin +20m --end -25m: $(cat "$w/err")"
win --begin '#11' --end '#12' | cmp -s - <(slice 2025-01-01T00:05:00.000Z 2025-01-01T00:06:00.000Z) && ok ||
	fail "--begin #11 --end #12"
# a file cut mid-chunk: -10m counts back from its last whole interval
head -c $(($(stat -c %s "$w/day.dtl") * 3 / 4)) "$w/day.dtl" >"$w/cut.dtl"
last=$("$DTLTOP" --no-config -r "$w/cut.dtl" -b --csv 2>/dev/null | awk -F, 'NR > 1 { t = $1 } END { print t }')
first=$("$DTLTOP" --no-config -r "$w/cut.dtl" -b --csv --begin -3m 2>/dev/null | awk -F, 'NR == 2 { print $1 }')
[ -n "$last" ] && [ "$(date -u -d "${last%.000Z}Z" +%s)" = $(($(date -u -d "${first%.000Z}Z" +%s) + 150)) ] && ok ||
	fail "--begin -3m of a cut file: first $first, last $last"
# a rotated set: the window spans its files
"$DTLTOP" --no-config --sim=vcpus=2,smt=2,busy=50,clock=virtual -d 30 -n 60 -b --csv -o "$w/set.csv" -w "$w/set.dtl" --rotate 10m ||
	fail "a rotated recording"
"$DTLTOP" --no-config -r "$w/set.dtl" -b --csv --begin 00:08 --end 00:22 |
	cmp -s - <({ head -1 "$w/set.csv"; awk -F, 'NR > 1 && $1 > "2025-01-01T00:08:00.000Z" && $1 <= "2025-01-01T00:22:00.000Z"' "$w/set.csv"; }) &&
	ok || fail "--begin/--end over a rotated set"
# back from a set's end: its last file's, not its first's
"$DTLTOP" --no-config -r "$w/set.dtl" -b --csv --begin -5m |
	cmp -s - <({ head -1 "$w/set.csv"; awk -F, 'NR > 1 && $1 > "2025-01-01T00:25:00.000Z"' "$w/set.csv"; }) &&
	ok || fail "--begin -5m over a rotated set"
# the intervals before a window are read without their entries, but for the last: a VP's
# processor (its migrations) and who runs (task rows) carry over as in the whole replay
"$DTLTOP" --no-config --sim=vcpus=16,clock=virtual,tasks=db:3:/db.slice+web:2:/web.slice+batch -d 10 \
	-n 12 -b -o /dev/null -w "$w/mig.dtl" || fail "a migrating recording"
for g in cpu task cgroup; do
	"$DTLTOP" --no-config -r "$w/mig.dtl" -b --csv --group=$g -o "$w/mig-all.csv"
	"$DTLTOP" --no-config -r "$w/mig.dtl" -b --csv --group=$g --begin '#9' -o "$w/mig-win.csv"
	at=$(awk -F, 'NR == 2 { print $1 }' "$w/mig-win.csv")
	{ head -1 "$w/mig-all.csv"; awk -F, -v a="$at" 'NR > 1 && $1 >= a' "$w/mig-all.csv"; } |
		cmp -s - "$w/mig-win.csv" && [ "$at" = 2025-01-01T00:01:30.000Z ] &&
		awk -F, 'NR > 1 && $13 > 0 { m = 1 } END { exit !m }' "$w/mig-win.csv" && ok ||
		fail "--begin #9, --group=$g: not the whole replay's rows from $at"
done
# a recording's own marks (format 2.3, every 32 intervals and at each file's end): a window far
# into a set with who pays starts from the last one before it, the rows the whole replay's
"$DTLTOP" --no-config --sim=vcpus=4,clock=virtual,tasks=db:3:/db.slice+web:2:/web.slice+batch -d 10 \
	-n 110 -b -o /dev/null -w "$w/mk.dtl" --rotate 7m || fail "a marked recording"
for g in cpu task cgroup; do
	"$DTLTOP" --no-config -r "$w/mk.dtl" -b --csv --group=$g -o "$w/mk-all.csv"
	for at in '#70' '#100' -3m; do
		"$DTLTOP" --no-config -r "$w/mk.dtl" -b --csv --group=$g --begin "$at" -o "$w/mk-win.csv"
		from=$(awk -F, 'NR == 2 { print $1 }' "$w/mk-win.csv")
		{ head -1 "$w/mk-all.csv"; awk -F, -v a="$from" 'NR > 1 && $1 >= a' "$w/mk-all.csv"; } |
			cmp -s - "$w/mk-win.csv" && [ -n "$from" ] && ok ||
			fail "--begin $at over a marked set, --group=$g: not the whole replay's rows from $from"
	done
done
n=$(python3 -c '
import struct, sys, glob
n = 0
for f in sorted(glob.glob(sys.argv[1] + ".*")):
    d = open(f, "rb").read(); o = 16
    while o + 24 <= len(d):
        n += d[o + 4] == 3; o += 24 + struct.unpack("<I", d[o + 8:o + 12])[0]
print(n)' "$w/mk.dtl")
# 110 intervals, 42 a file: marks at 32 in each whole file, and every file's end
[ "$n" = 5 ] && ok || fail "a marked set holds $n marks, not 5"
# a mark damaged (its checksum): the marks after it do not add up; none is used, the rows stand
python3 -c '
import struct, sys
f = sys.argv[1]; d = bytearray(open(f, "rb").read()); o = 16
while d[o + 4] != 3: o += 24 + struct.unpack("<I", d[o + 8:o + 12])[0]
d[o + 30] ^= 0xff; open(f, "wb").write(d)' "$w/mk.dtl.1"
"$DTLTOP" --no-config -r "$w/mk.dtl" -b --csv --group=task -o "$w/mk-all.csv"
"$DTLTOP" --no-config -r "$w/mk.dtl" -b --csv --group=task --begin '#70' -o "$w/mk-win.csv" 2>"$w/mk.err"
from=$(awk -F, 'NR == 2 { print $1 }' "$w/mk-win.csv")
{ head -1 "$w/mk-all.csv"; awk -F, -v a="$from" 'NR > 1 && $1 >= a' "$w/mk-all.csv"; } | cmp -s - "$w/mk-win.csv" &&
	[ "$(cat "$w/mk.err")" = "dtltop: warning: $w/mk.dtl: its marks do not add up (damaged?): not used, windows reached by reading from the start" ] &&
	ok || fail "a damaged mark: $(cat "$w/mk.err")"
expect_error "--begin without -r" "--begin takes a window of a replay (-r FILE)" --no-config --sim --begin 00:10 -b
expect_error "--begin with -w" "not written to a recording" --no-config -r "$w/day.dtl" --begin 00:10 -b -w "$w/x.dtl"
expect_error "a bad --begin" "--begin: bad time 'noon'" --no-config -r "$w/day.dtl" --begin noon -b
expect_error "--end before --begin" "--end 00:10 is not after --begin 00:20" --no-config -r "$w/day.dtl" --begin 00:20 --end 00:10 -b
out=$("$DTLTOP" --no-config -r "$w/day.dtl" -b --begin 03:00 2>&1 >/dev/null)
[ $? = 1 ] && [ "$out" = "dtltop: the recording ends before --begin 03:00" ] && ok || fail "--begin past the end: $out"

# --- --summary: each interval's counts, not its entries; the same rows as the raw recording of
# the same run (CPUs, VPs, tasks, cgroups, where in the kernel, a window), a fraction of the size
s=$tmp/sum
mkdir -p "$s"
simt="--sim=vcpus=8,clock=virtual,tasks=db:3:/db.slice+web:2:/web.slice+batch"
"$DTLTOP" --no-config $simt -d 5 -n 12 -b -o /dev/null -w "$s/raw.dtl" || fail "a raw recording"
"$DTLTOP" --no-config $simt -d 5 -n 12 -b -o /dev/null -w "$s/sum.dtl" --summary || fail "a summary"
"$DTLTOP" --no-config -r "$s/raw.dtl" -b -o /dev/null -w "$s/conv.dtl" --summary || fail "a raw recording made a summary"
for g in cpu vp task cgroup; do
	"$DTLTOP" --no-config -r "$s/raw.dtl" -b --csv --group=$g -o "$s/raw.csv"
	for f in sum conv; do
		"$DTLTOP" --no-config -r "$s/$f.dtl" -b --csv --group=$g -o "$s/$f.csv" 2>"$s/err" &&
			[ ! -s "$s/err" ] && [ "$(wc -l <"$s/raw.csv")" -gt 12 ] && cmp -s "$s/raw.csv" "$s/$f.csv" && ok ||
			fail "--group=$g: the $f summary's CSV is not the raw recording's: $(diff "$s/raw.csv" "$s/$f.csv" | head -3)"
	done
done
for o in "--format=where" "--format=json --group=task" "--begin #7 --csv --group=cgroup" "-N 3 --csv"; do
	"$DTLTOP" --no-config -r "$s/raw.dtl" -b $o >"$s/a" 2>&1
	"$DTLTOP" --no-config -r "$s/sum.dtl" -b $o >"$s/b" 2>&1
	[ -s "$s/a" ] && cmp -s "$s/a" "$s/b" && ok || fail "$o: the summary differs: $(diff "$s/a" "$s/b" | head -3)"
done
[ $(($(stat -c %s "$s/sum.dtl") * 8)) -lt "$(stat -c %s "$s/raw.dtl")" ] && ok ||
	fail "a summary of $(stat -c %s "$s/sum.dtl") bytes for $(stat -c %s "$s/raw.dtl") raw"
"$DTLTOP" --no-config -r "$s/sum.dtl" -b -n 1 | head -1 | grep -q "replay of the summary $s/sum.dtl" && ok ||
	fail "a summary's replay does not say it is one"
# at a multiple of its interval, a summary says what it cannot split again
"$DTLTOP" --no-config -r "$s/sum.dtl" -d 10 -b -o /dev/null 2>"$s/err"
grep -q "^dtltop: note: a summary at -d 10: the parts of waits across its recorded 5 s edges" "$s/err" && ok ||
	fail "a summary at -d 10 does not say what it leaves out: $(cat "$s/err")"
expect_error "--summary without -w" "--summary needs -w FILE" --no-config --sim -b --summary
out=$("$DTLTOP" --no-config -r "$s/sum.dtl" -b -o /dev/null -w "$s/x.dtl" 2>&1)
[ $? = 2 ] && grep -q "a summary holds no entries to record (add --summary)" <<<"$out" && [ ! -e "$s/x.dtl" ] && ok ||
	fail "a summary recorded raw: $out"
# cut anywhere: the whole intervals before the cut, with a warning; damage likewise, never a crash
head -c $(($(stat -c %s "$s/sum.dtl") * 2 / 3)) "$s/sum.dtl" >"$s/cut.dtl"
"$DTLTOP" --no-config -r "$s/raw.dtl" -b --csv -o "$s/raw.csv"
"$DTLTOP" --no-config -r "$s/cut.dtl" -b --csv -o "$s/cut.csv" 2>"$s/err"
n=$(($(wc -l <"$s/cut.csv") - 1))
[ "$n" -ge 36 ] && [ "$n" -lt 108 ] && grep -q "cut off" "$s/err" && head -$((n + 1)) "$s/raw.csv" | cmp -s - "$s/cut.csv" &&
	ok || fail "a cut summary: $n rows, not the raw's first: $(cat "$s/err")"
for at in 900 2000 3000; do
	cp "$s/sum.dtl" "$s/bad.dtl"
	printf '\377\377\377\377' | dd of="$s/bad.dtl" bs=1 seek=$at conv=notrunc 2>/dev/null
	"$DTLTOP" --no-config -r "$s/bad.dtl" -b --csv >/dev/null 2>"$s/err"
	rc=$?
	{ [ $rc = 0 ] && grep -q "replayed what came before" "$s/err"; } || { [ $rc = 1 ] && [ "$(wc -l <"$s/err")" = 1 ]; } &&
		ok || fail "a summary damaged at $at: exit $rc, $(cat "$s/err")"
done

# --summary-interval: a summary at 10 s of a 1 s run is what the raw recording of the run shows
# replayed at -d 10 (not sums of 1 s intervals), its last interval cut where the run ended; made
# live or from the raw recording
"$DTLTOP" --no-config $simt -d 1 -n 35 -b -o /dev/null -w "$s/r1.dtl" || fail "a 1 s raw recording"
"$DTLTOP" --no-config $simt -d 1 -n 35 -b -o /dev/null -w "$s/s10.dtl" --summary --summary-interval 10 ||
	fail "a summary at 10 s"
"$DTLTOP" --no-config -r "$s/r1.dtl" -b -o /dev/null -w "$s/c10.dtl" --summary --summary-interval 10 ||
	fail "a summary at 10 s of a raw recording"
for g in cpu task cgroup; do
	"$DTLTOP" --no-config -r "$s/r1.dtl" -d 10 -b --csv --group=$g -o "$s/r10.csv"
	for f in s10 c10; do
		"$DTLTOP" --no-config -r "$s/$f.dtl" -b --csv --group=$g -o "$s/$f.csv" 2>"$s/err" &&
			[ ! -s "$s/err" ] && cmp -s "$s/r10.csv" "$s/$f.csv" && ok ||
			fail "--group=$g: the $f summary at 10 s is not the raw at -d 10: $(diff "$s/r10.csv" "$s/$f.csv" | head -3)"
	done
done
# a fraction of the same run's summary at 1 s
"$DTLTOP" --no-config -r "$s/r1.dtl" -b -o /dev/null -w "$s/s1.dtl" --summary
[ "$(awk -F, 'NR > 1 && !seen[$1]++ { printf "%s ", $2 }' "$s/s10.csv")" = "10.000 10.000 10.000 5.000 " ] &&
	[ $(($(stat -c %s "$s/s10.dtl") * 3)) -lt "$(stat -c %s "$s/s1.dtl")" ] && ok ||
	fail "a summary at 10 s: intervals $(awk -F, 'NR > 1 && !seen[$1]++ { printf "%s ", $2 }' "$s/s10.csv"), $(stat -c %s "$s/s10.dtl") bytes against $(stat -c %s "$s/s1.dtl") at 1 s"
# a run that ends on the summary's edge writes no empty interval after it
"$DTLTOP" --no-config $simt -d 1 -n 30 -b -o /dev/null -w "$s/s30.dtl" --summary --summary-interval 10
[ "$("$DTLTOP" --no-config -r "$s/s30.dtl" -b --csv | awk -F, 'NR > 1 && !seen[$1]++ { printf "%s ", $2 }')" = "10.000 10.000 10.000 " ] &&
	ok || fail "a 30 s run's 10 s summary: $("$DTLTOP" --no-config -r "$s/s30.dtl" -b --csv | awk -F, 'NR > 1 && !seen[$1]++ { printf "%s ", $2 }')"
expect_error "--summary-interval not a multiple" "--summary-interval 2.5 is not a multiple of the interval (-d 1)" \
	--no-config --sim -b -w "$s/y.dtl" --summary --summary-interval 2.5
expect_error "--summary-interval without --summary" "--summary-interval is a summary's: it needs -w FILE --summary" \
	--no-config --sim -b --summary-interval 10
expect_error "a bad --summary-interval" "bad --summary-interval 'x' (want seconds, a multiple of -d)" \
	--no-config --sim -b -w "$s/y.dtl" --summary --summary-interval x
out=$("$DTLTOP" --no-config -r "$s/s10.dtl" -b -o /dev/null -w "$s/y.dtl" --summary --summary-interval 20 2>&1)
[ $? = 2 ] && [ "$out" = "dtltop: --summary-interval: a summary's intervals cannot be cut again (replay it with -d 20 instead)" ] &&
	ok || fail "a summary's intervals cut again: $out"

# --incidents: the raw minutes before the partition turned (here capped at once), a recording of
# their own with the raw run's rows, named in the summary and said again by its replay
capd="--sim=capped=1,load=0.9,clock=virtual"
"$DTLTOP" --no-config $capd -d 10 -n 6 -b -o /dev/null -w "$s/i.dtl" --summary --incidents 1m,3 2>"$s/err" &&
	[ "$(cat "$s/err")" = "dtltop: incident: the verdict turned capped: the last 10 s raw in $s/i.dtl.incident.1" ] &&
	[ ! -e "$s/i.dtl.incident.2" ] && ok || fail "an incident: $(cat "$s/err")"
"$DTLTOP" --no-config $capd -d 10 -n 6 -b -o /dev/null -w "$s/c.dtl" || fail "the same run, raw"
"$DTLTOP" --no-config -r "$s/i.dtl.incident.1" -b --csv -o "$s/i.csv" 2>"$s/err" && [ ! -s "$s/err" ] &&
	"$DTLTOP" --no-config -r "$s/c.dtl" -b --csv -n 1 | cmp -s - "$s/i.csv" && ok ||
	fail "an incident's raw entries are not the run's: $(cat "$s/err")"
"$DTLTOP" --no-config -r "$s/i.dtl" -b -o /dev/null 2>"$s/err"
[ "$(cat "$s/err")" = "dtltop: incident at 2025-01-01T00:00:10Z: the verdict turned capped; its raw entries: $s/i.dtl.incident.1" ] &&
	ok || fail "a summary's replay does not say its incident: $(cat "$s/err")"
"$DTLTOP" --no-config -r "$s/i.dtl" -b -o /dev/null --report "$s/i.html" 2>/dev/null
grep -q '<li>1 incident (a red line on the charts)' "$s/i.html" && grep -q '<code>i.dtl.incident.1</code>' "$s/i.html" &&
	[ "$(grep -c '<line class="incident"' "$s/i.html")" -ge 3 ] && ! grep -q "$s" "$s/i.html" && ok ||
	fail "the report does not mark the incident (by the file's name alone)"
# one later in the run: its file names the tasks told before its first interval (not pids
# alone), and its CPU rows are the raw run's for the same intervals (but for the first's
# migrations: no processor before it)
later="--sim=capped=1,load=0.02@00:00+0.02@00:03+0.95@00:04,clock=virtual,tasks=db:3:/db.slice+web:2"
"$DTLTOP" --no-config $later -d 10 -n 30 -b -o /dev/null -w "$s/l.dtl" --summary --incidents 30s,3 2>/dev/null
"$DTLTOP" --no-config $later -d 10 -n 30 -b -o /dev/null -w "$s/lr.dtl"
"$DTLTOP" --no-config -r "$s/l.dtl.incident.1" -b --csv --group=task -o "$s/lt.csv" 2>"$s/err"
"$DTLTOP" --no-config -r "$s/l.dtl.incident.1" -b --csv -o "$s/lc.csv" 2>>"$s/err"
first=$(awk -F, 'NR == 2 { print $1 }' "$s/lc.csv")
grep -q ',db\[1000\],' "$s/lt.csv" && ! grep -q ',?\[' "$s/lt.csv" && [ "$first" != 2025-01-01T00:00:10.000Z ] &&
	"$DTLTOP" --no-config -r "$s/lr.dtl" -b --csv | grep -F -f <(awk -F, -v f="$first" 'NR > 1 && $1 != f { print $1 }' "$s/lc.csv" | sort -u) |
	cmp -s - <(awk -F, -v f="$first" 'NR > 1 && $1 != f' "$s/lc.csv") && [ "$(wc -l <"$s/lc.csv")" -gt 30 ] &&
	[ ! -s "$s/err" ] && ok || fail "a later incident's file: from $first, $(head -3 "$s/lt.csv" | tr '\n' ' ') $(cat "$s/err")"
# who ran on each CPU as the file begins is said in it: its first interval has no (unknown)
# row, and every task's dispatches and steal there are the raw run's (its run time may not be:
# a task's time on the CPU before the file's first instant is charged from its switch)
"$DTLTOP" --no-config -r "$s/lr.dtl" -b --csv --group=task -o "$s/lrt.csv"
pick() { awk -F, -v f="$first" 'NR > 1 && $1 == f { print $3, $4, $7 }' "$1" | sort; }
! grep -q ',(unknown),' "$s/lt.csv" && [ -n "$(pick "$s/lt.csv")" ] && [ "$(pick "$s/lt.csv")" = "$(pick "$s/lrt.csv")" ] &&
	"$DTLTOP" --no-config -r "$s/lr.dtl" -b --csv --group=task | grep -F -f <(awk -F, -v f="$first" 'NR > 1 && $1 != f { print $1 }' "$s/lt.csv" | sort -u) |
	cmp -s - <(awk -F, -v f="$first" 'NR > 1 && $1 != f' "$s/lt.csv") && ok ||
	fail "an incident's first interval does not say who ran: $(pick "$s/lt.csv" | tr '\n' ';') against $(pick "$s/lrt.csv" | tr '\n' ';')"
# the ring holds its TIME (30 s: three 10 s intervals, to the one that turned), and never past
# its SIZE (1M: about one interval of 64 busy vCPUs)
ivs=$(awk -F, 'NR > 1 { print $1 }' "$s/lc.csv" | uniq | tr '\n' ' ')
[ "$ivs" = "2025-01-01T00:02:50.000Z 2025-01-01T00:03:00.000Z 2025-01-01T00:03:10.000Z " ] && ok ||
	fail "a 30 s ring holds $ivs"
big="--sim=vcpus=64,ent=8,capped=1,load=0.1@00:00+0.1@00:03+0.95@00:04,clock=virtual"
"$DTLTOP" --no-config $big -d 10 -n 30 -b -o /dev/null -w "$s/b.dtl" --summary --incidents 5m,3,1M 2>"$s/err"
n=$("$DTLTOP" --no-config -r "$s/b.dtl.incident.1" -b --csv | awk -F, 'NR > 1 { print $1 }' | uniq | wc -l)
[ "$n" -ge 1 ] && [ "$n" -le 2 ] && [ "$(stat -c %s "$s/b.dtl.incident.1")" -lt 1100000 ] &&
	grep -q "the last $((n * 10)) s raw" "$s/err" && ok ||
	fail "a 1M ring kept $n intervals, $(stat -c %s "$s/b.dtl.incident.1") bytes: $(cat "$s/err")"
# run again where its files are: numbered on, never over them, COUNT (1) kept across the runs
rm -f "$s/i.dtl"
"$DTLTOP" --no-config $capd -d 10 -n 6 -b -o /dev/null -w "$s/i.dtl" --summary --incidents 1m,1 2>"$s/err" &&
	grep -q "raw in $s/i.dtl.incident.2$" "$s/err" && [ -e "$s/i.dtl.incident.2" ] && [ ! -e "$s/i.dtl.incident.1" ] &&
	ok || fail "incidents of a second run: $(cat "$s/err"); $(ls "$s" | grep incident | tr '\n' ' ')"
expect_error "--incidents without --summary" "--incidents keeps raw entries beside a summary" --no-config --sim -b -w "$s/y.dtl" --incidents 5m
expect_error "a bad --incidents" "bad --incidents '5x'" --no-config --sim -b -w "$s/y.dtl" --summary --incidents 5x
expect_error "a bad --incidents count" "bad --incidents '5m,0'" --no-config --sim -b -w "$s/y.dtl" --summary --incidents 5m,0

# --- --serve and --attach: one reader of the DTL, viewers on its socket with the rows a direct
# run records for the same intervals (CPUs, tasks), several at once, a slow one dropped from
# but never slowing it, refused to whom may not read the DTL
sv=$(mktemp -d /tmp/dtltop-serve.XXXXXX)
chmod 755 "$sv"
sock=$sv/s.sock
timeout 8 "$DTLTOP" --no-config --sim=vcpus=8,tasks=db:3:/db.slice+web:2 -d 0.25 --serve --socket "$sock" \
	-w "$sv/srv.dtl" --summary 2>"$sv/srv.err" &
srv=$!
for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
"$DTLTOP" --no-config --attach="$sock" -b --csv -n 6 --group=task -o "$sv/task.csv" 2>"$sv/a1.err" &
a1=$!
"$DTLTOP" --no-config --socket "$sock" --attach -b --csv -n 6 -o "$sv/cpu.csv" 2>"$sv/a2.err"
rc2=$?
wait $a1
rc1=$?
out=$(runuser -u nobody -- "$DTLTOP" --no-config --attach="$sock" -b -n 1 2>&1 >/dev/null)
[ $? = 2 ] && [ "$out" = "dtltop: cannot attach to $sock: permission denied (the service serves only those who may read the DTL themselves: root, or CAP_PERFMON)" ] &&
	ok || fail "nobody attached: $out"
# ... but nobody holding CAP_PERFMON (a `make setcap` dtltop) could read the PMU itself: let in,
# and once in, it holds no capability at all
setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=+perfmon --ambient-caps=+perfmon \
	"$DTLTOP" --no-config --attach="$sock" -b --csv -n 8 -o /dev/null 2>"$sv/pm.err" &
pm=$!
capeff=
for _ in $(seq 50); do
	capeff=$(awk '/^CapEff:/ { print $2 }' "/proc/$pm/status" 2>/dev/null)
	[ "$capeff" = 0000000000000000 ] && break
	sleep 0.1
done
wait $pm
rc=$?
[ $rc = 0 ] && [ "$capeff" = 0000000000000000 ] && [ ! -s "$sv/pm.err" ] && ok ||
	fail "nobody with CAP_PERFMON: exit $rc, CapEff $capeff attached, $(cat "$sv/pm.err")"
out=$("$DTLTOP" --no-config --sim -d 0.25 --serve --socket "$sock" 2>&1)
[ $? = 2 ] && grep -q "a dtltop service listens there already" <<<"$out" && ok || fail "a second service: $out"
wait $srv
[ $rc1 = 0 ] && [ $rc2 = 0 ] && [ ! -s "$sv/a1.err" ] && [ ! -s "$sv/a2.err" ] && [ ! -e "$sock" ] && ok ||
	fail "viewers: exit $rc1 $rc2, $(cat "$sv/a1.err" "$sv/a2.err"), socket left: $(ls "$sv")"
for g in task cpu; do
	"$DTLTOP" --no-config -r "$sv/srv.dtl" -b --csv --group=$g -o "$sv/all-$g.csv"
	n=$(($(wc -l <"$sv/$g.csv") - 1))
	tail -n +2 "$sv/$g.csv" | cmp -s - <(grep -F -f <(tail -n +2 "$sv/$g.csv" | cut -d, -f1 | sort -u) "$sv/all-$g.csv") &&
		[ "$n" -ge 6 ] && ok || fail "--group=$g: the attached rows are not the service's recording's ($n rows)"
done
grep -q ',db\[' "$sv/task.csv" && ok || fail "no task rows attached"
# the service goes away: the viewer says so, exit 1
timeout 2 "$DTLTOP" --no-config --sim=vcpus=4 -d 0.25 --serve --socket "$sock" 2>/dev/null &
for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
out=$("$DTLTOP" --no-config --attach="$sock" -b --csv 2>&1 >/dev/null)
[ $? = 1 ] && [ "$out" = "dtltop: the service at $sock went away" ] && ok || fail "a service gone: $out"
wait
# a viewer stopped a while: the service runs on, drops its intervals, counts them and tells it
timeout 14 "$DTLTOP" --no-config --sim=vcpus=64 -d 0.05 --serve --socket "$sock" 2>/dev/null &
srv=$!
for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
"$DTLTOP" --no-config --attach="$sock" -b --csv -o "$sv/slow.csv" 2>"$sv/slow.err" &
a1=$!
sleep 1
kill -STOP $a1
sleep 6
kill -CONT $a1
wait $a1 $srv
grep -q "the service dropped [0-9]* intervals this viewer was too slow to take" "$sv/slow.err" &&
	awk -F, 'NR > 1 && $3 == "all" { n++; if ($8 < 0 || $8 > 100) bad++ } END { exit !(n > 100 && !bad) }' "$sv/slow.csv" &&
	sort -t, -k8,8g <(awk -F, 'NR > 1 && $3 == "all"' "$sv/slow.csv") |
	awk -F, '{ v[NR] = $8 } END { exit !(NR && v[1] > v[int(NR / 2) + 1] / 2) }' &&
	ok || fail "a slow viewer: $(head -3 "$sv/slow.err")"
# a direct run on debugfs that finds the DTL busy (tests/shim/ebusy.c answers EBUSY as the kernel
# does) names a dtltop service holding it, else the other candidates
broot=$sv/root
mkdir -p "$broot/sys/kernel/debug/powerpc/dtl" "$broot/sys/devices/system/cpu" "$broot/proc/powerpc" "$broot/run/dtltop"
echo 0-1 >"$broot/sys/devices/system/cpu/online"
printf 'processor\t: 0\ntimebase\t: 512000000\n' >"$broot/proc/cpuinfo"
printf 'partition_entitled_capacity=200\nshared_processor_mode=1\n' >"$broot/proc/powerpc/lparcfg"
echo 0x7 >"$broot/sys/kernel/debug/powerpc/dtl/dtl_event_mask"
: >"$broot/sys/kernel/debug/powerpc/dtl/cpu-0"
: >"$broot/sys/kernel/debug/powerpc/dtl/cpu-1"
echo off >"$broot/proc/powerpc/vcpudispatch_stats"
${CC:-cc} -shared -fPIC -o "$sv/ebusy.so" tests/shim/ebusy.c -ldl
busy_run() {
	LD_PRELOAD="$sv/ebusy.so" ASAN_OPTIONS="$ASAN_OPTIONS:verify_asan_link_order=0" \
		"$DTLTOP" --no-config --root "$broot" -b -n 1 -d 0.05 2>&1 >/dev/null
}
out=$(busy_run)
[ $? = 2 ] && [ "$out" = "dtltop: $broot/sys/kernel/debug/powerpc/dtl/cpu-0: busy: another DTL user holds it (candidates: /proc/powerpc/vcpudispatch_stats [off], a perf session on vpa_dtl [no PMU], another reader of this file)" ] &&
	ok || fail "debugfs busy: $out"
timeout 4 "$DTLTOP" --no-config --sim=vcpus=2 -d 0.25 --serve --socket "$broot/run/dtltop/dtltop.sock" 2>/dev/null &
srv=$!
for _ in $(seq 50); do [ -S "$broot/run/dtltop/dtltop.sock" ] && break; sleep 0.1; done
out=$(busy_run)
rc=$?
kill $srv
wait $srv
[ $rc = 2 ] && [ "$out" = "dtltop: $broot/sys/kernel/debug/powerpc/dtl/cpu-0: busy: a dtltop service holds it: attach with dtltop --attach" ] &&
	ok || fail "debugfs busy under a service: $out"
# a service that reads debugfs serves root only: CAP_PERFMON does not open root's files
timeout 4 "$DTLTOP" --no-config --root "$broot" -d 0.25 --serve --socket "$sv/dbg.sock" 2>"$sv/dbg.err" &
srv=$!
for _ in $(seq 50); do [ -S "$sv/dbg.sock" ] && break; sleep 0.1; done
out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=+perfmon --ambient-caps=+perfmon \
	"$DTLTOP" --no-config --attach="$sv/dbg.sock" -b -n 1 2>&1 >/dev/null)
rc=$?
n=$("$DTLTOP" --no-config --attach="$sv/dbg.sock" -b --csv -n 2 2>&1 | grep -c ',all,')
kill $srv
wait $srv
[ $rc = 2 ] && [ "$out" = "dtltop: cannot attach to $sv/dbg.sock: permission denied (the service serves only those who may read the DTL themselves: root, as it reads debugfs)" ] &&
	[ "$n" = 2 ] && ok || fail "a debugfs service: CAP_PERFMON caller exit $rc: $out; root's viewer $n intervals; $(cat "$sv/dbg.err")"
expect_error "--attach nowhere" "cannot attach to $sv/none.sock: no dtltop service there" --no-config --attach="$sv/none.sock" -b -n 1
expect_error "--serve with -b" "--serve has no output of its own" --no-config --sim --serve --socket "$sock" -b
expect_error "--socket alone" "--socket is --serve's or --attach's" --no-config --sim --socket "$sock" -b
rm -rf "$sv"

# --- hostile names (tests/data/hostile-names.dtl: ESC, OSC, C1, bytes that are not UTF-8, quotes,
# backslashes, newlines, beside valid UTF-8) come out cleaned through every output, each passing
# its strict parser
hn=$(dirname "$0")/data/hostile-names.dtl
names_ok() {  # FILE KIND: strict UTF-8, no control character but newline, parsed as KIND
	python3 - "$1" "$2" <<'PY'
import csv, io, json, re, sys
raw = open(sys.argv[1], "rb").read()
text = raw.decode("utf-8")              # strict: a byte that is not UTF-8 raises
bad = [c for c in text if (ord(c) < 0x20 and c != "\n") or 0x7f <= ord(c) <= 0x9f]
assert not bad, "control characters: %r" % bad[:5]
kind = sys.argv[2]
if kind == "json":
    for line in text.splitlines():
        if line.strip():
            json.loads(line)
elif kind == "csv":
    rows = list(csv.reader(io.StringIO(text)))
    assert len({len(r) for r in rows}) == 1, "ragged CSV"
assert "/a?]0;pwn?/b??" in text or "ev?[31mil?" in text, "the cleaned names are missing"
assert "/k\u00e4se.slice/\u20ac.service" in text or "caf\u00e9" in text, "valid UTF-8 was not kept"
PY
}
for g in cgroup task; do
	for f in text csv json influx; do
		"$DTLTOP" --no-config -r "$hn" -b --group=$g --format=$f >"$tmp/hn.out" 2>"$tmp/hn.err" &&
			names_ok "$tmp/hn.out" $f 2>>"$tmp/hn.err" && ok || fail "hostile names, --group=$g --format=$f: $(tail -2 "$tmp/hn.err")"
	done
done
"$DTLTOP" --no-config -r "$hn" -b --format=prom >"$tmp/hn.prom" && names_ok "$tmp/hn.prom" prom && ok || fail "hostile names in the exposition"
if command -v promtool >/dev/null; then
	promtool check metrics <"$tmp/hn.prom" >"$tmp/hn.err" 2>&1 && ok || fail "promtool refuses the exposition: $(cat "$tmp/hn.err")"
fi
"$DTLTOP" --no-config -r "$hn" -b --report="$tmp/hn.html" >/dev/null && names_ok "$tmp/hn.html" html && ok ||
	fail "hostile names in the report"
# the simulator refuses such a cgroup, in one line that does not carry it raw
expect_error "a --sim cgroup with ESC" "bad --sim task cgroup '/a?[31m'" --sim="tasks=db:1:/a$(printf '\033')[31m" -b -n 1
expect_error "a --sim cgroup not UTF-8" "bad --sim task cgroup '/a??'" --sim="tasks=db:1:/a$(printf '\377\376')" -b -n 1

finish
