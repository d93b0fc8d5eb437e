#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The exposition (--format=prom|openmetrics, --textfile, --listen), checked
# with Prometheus' own tools: promtool on the text, and Debian's prometheus
# server scraping a simulated LPAR, its figures against the CSV of the same run.
. "$(dirname "$0")/lib.sh"
SIM="--sim=vcpus=16,clock=virtual"
PROMETHEUS=${PROMETHEUS:-prometheus}

# metric FILE NAME_REGEX: the sum of the samples whose name and labels match
metric() {
	awk -v re="$2" '$1 ~ "^" re { s += $NF } END { printf "%.9g\n", s }' "$1"
}
# csv_sum FILE COL: the column's sum over the CPU rows (not the "all" row)
csv_sum() {
	csv_cols "$1" cpu,"$2" | awk -F, 'NR > 1 && $1 ~ /^[0-9]+$/ { s += $2 } END { printf "%.9g\n", s }'
}
# close_to A B REL: |A - B| <= REL * max(|B|, 1e-9)
close_to() {
	awk -v a="$1" -v b="$2" -v r="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b;
		if (m < 1e-9) m = 1e-9; exit !(d <= r * m) }'
}

# 1. The text format: promtool's lint, and the same figures as the CSV
"$DTLTOP" $SIM --seed 4 -b -n 3 --format=prom >"$tmp/3.prom" || fail "prom run"
"$DTLTOP" $SIM --seed 4 -b -n 3 --format=csv >"$tmp/3.csv" || fail "csv run"
"$DTLTOP" $SIM --seed 4 -b -n 1 --format=prom >"$tmp/1.prom" || fail "prom run 1"
if promtool check metrics <"$tmp/3.prom" >"$tmp/lint" 2>&1; then ok; else fail "promtool: $(head -5 "$tmp/lint")"; fi
for f in "dtl_dispatches_total:dispatches" "dtl_lost_entries_total:lost" "dtl_gaps_total:gaps" \
	"dtl_bad_entries_total:bad" 'dtl_migrations_total\{[^}]*scope="core":migrations_same_core' \
	'dtl_migrations_total\{[^}]*scope="other":migrations_other_core' \
	'dtl_preempts_total\{[^}]*reason="H_CEDE":preempt_H_CEDE' \
	'dtl_dispatches_total\{[^}]*reason="time_slice":dispatch_time_slice'; do
	m=$(metric "$tmp/3.prom" "${f%:*}") c=$(csv_sum "$tmp/3.csv" "${f##*:}")
	[ "$m" = "$c" ] && ok || fail "${f%:*} sums to $m, the CSV's ${f##*:} to $c"
done
d=$(metric "$tmp/3.prom" "dtl_dispatches_total")
[ "${d%.*}" -gt 100 ] && ok || fail "only $d dispatches: the comparison above proves little"
# steal and idle: the CSV splits waits at interval edges, the counters count them whole
steal=$(metric "$tmp/3.prom" 'dtl_wait_seconds_total\{[^}]*phase="(enqueue_to_dispatch|ready_to_enqueue)"')
idle=$(metric "$tmp/3.prom" 'dtl_wait_seconds_total\{[^}]*phase="waiting_to_ready"')
c=$(csv_sum "$tmp/3.csv" steal_us)
close_to "$steal" "$(awk -v c="$c" 'BEGIN { print c / 1e6 }')" 0.05 && ok ||
	fail "steal seconds $steal, CSV steal_us $c"
c=$(csv_sum "$tmp/3.csv" idle_us)
close_to "$idle" "$(awk -v c="$c" 'BEGIN { print c / 1e6 }')" 0.05 && ok ||
	fail "idle seconds $idle, CSV idle_us $c"
# the histogram: +Inf is the count, buckets never fall, counts add up to the dispatches
h=$(metric "$tmp/3.prom" "dtl_dispatch_latency_seconds_count")
[ "$h" = "$d" ] && ok || fail "histogram counts $h, dispatches $d"
awk '/^dtl_dispatch_latency_seconds_bucket/ { split($1, a, "le=\""); k = a[1]
	if (k == last && $2 < prev) bad = 1; last = k; prev = $2 } END { exit bad }' "$tmp/3.prom" && ok ||
	fail "a histogram's buckets fall"
[ "$(grep -c '^dtl_dispatch_latency_seconds_count{vp=' "$tmp/3.prom")" -eq 2 ] && ok ||
	fail "want a histogram per VP (2 of 8 threads)"
# since-start counters only grow: every series of interval 1 is <= its value at 3
awk 'FNR == NR && !/^#/ { v[$1] = $2; next } !/^#/ && ($1 in v) && v[$1] > $2 && $1 !~ /^lpar_(physc|entitlement|pool_idle_processors|verdict)/ {
	print "fell: " $1 " " v[$1] " -> " $2; bad = 1 } END { exit bad }' "$tmp/1.prom" "$tmp/3.prom" >"$tmp/fell" && ok ||
	fail "a counter fell: $(head -3 "$tmp/fell")"
grep -q '^lpar_entitled_processors 1$' "$tmp/3.prom" && grep -q '^lpar_virtual_processors 2$' "$tmp/3.prom" && ok || fail "lpar gauges: want ent 1, 2 VPs"
# VPs by number, 0..N-1 as lparstat: CPUs 8-15 are the second
grep -q '^dtl_cpu_info{cpu="9",vp="1"} 1$' "$tmp/3.prom" && ok || fail "cpu 9 not in VP 1"
# --metrics-by: per VP (the default) or per CPU, the same sums; the VP's own steal is the
# most of its threads', in both; the series counts the man page gives
"$DTLTOP" $SIM --seed 4 -b -n 3 --format=prom --metrics-by=cpu >"$tmp/3c.prom" || fail "cpu run"
for fam in dtl_dispatches_total dtl_preempts_total dtl_wait_seconds_total dtl_lost_entries_total \
	dtl_gaps_total dtl_bad_entries_total dtl_migrations_total dtl_vp_steal_seconds_total; do
	v=$(metric "$tmp/3.prom" "$fam") c=$(metric "$tmp/3c.prom" "$fam")
	close_to "$v" "$c" 1e-6 && ok || fail "$fam sums to $v per VP, $c per CPU"
done
grep -q '^dtl_preempts_total{vp="1",reason="H_CEDE"}' "$tmp/3.prom" && ! grep -q '^dtl_preempts_total{cpu=' "$tmp/3.prom" &&
	grep -q '^dtl_preempts_total{cpu="9",reason="H_CEDE"}' "$tmp/3c.prom" && ok || fail "--metrics-by labels"
awk '/^dtl_wait_seconds_total\{cpu="(8|9|1[0-5])",phase="(enqueue_to_dispatch|ready_to_enqueue)"/ {
		split($1, a, "\""); s[a[2]] += $2 }
	/^dtl_vp_steal_seconds_total\{vp="1"\}/ { vp = $2 }
	END { for (c in s) if (s[c] > m) m = s[c]; d = vp - m; exit !(vp > 0 && d * d < 1e-10) }' "$tmp/3c.prom" && ok ||
	fail "VP 1's own steal is not the most of its threads'"
for n in 64 1920; do
	for by in vp cpu; do
		c=$("$DTLTOP" --sim=vcpus=$n,clock=virtual --seed 4 -b -n 1 --format=prom --metrics-by=$by | grep -vc '^#')
		echo "$n $by $c" >>"$tmp/series"
	done
done
awk '$2 == "vp" { v[$1] = $3 } $2 == "cpu" { c[$1] = $3 } END { exit !(c[1920] > 60000 && v[1920] < 16000 && v[64] < 600) }' \
	"$tmp/series" && ok || fail "series counts: $(tr '\n' ' ' <"$tmp/series")"
for n in 1920; do
	grep -q "^$n vp " "$tmp/series" && man_vp=$(awk -v n=$n '$1 == n && $2 == "vp" { print $3 }' "$tmp/series")
	man_cpu=$(awk -v n=$n '$1 == n && $2 == "cpu" { print $3 }' "$tmp/series")
	fmt() { printf '%s' "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta'; }
	grep -q "$(fmt "$man_vp")" "$(dirname "$0")/../man/dtltop.1" && grep -q "$(fmt "$man_cpu")" "$(dirname "$0")/../man/dtltop.1" &&
		ok || fail "man page's series counts at $n CPUs: want $(fmt "$man_vp") and $(fmt "$man_cpu")"
done
expect_error "bad --metrics-by" "bad --metrics-by 'core'" --sim --metrics-by core
"$DTLTOP" $SIM --seed 4 -b -n 1 --format=prom --hist-by=partition >"$tmp/p.prom"
[ "$(grep -c '^dtl_dispatch_latency_seconds_count ' "$tmp/p.prom")" -eq 1 ] && ok || fail "--hist-by=partition"
"$DTLTOP" $SIM --seed 4 -b -n 1 --format=prom --hist-by=cpu >"$tmp/c.prom"
[ "$(grep -c '^dtl_dispatch_latency_seconds_count{cpu=' "$tmp/c.prom")" -eq 16 ] && ok || fail "--hist-by=cpu"

# 2. OpenMetrics: counters named without _total in the metadata, # EOF last
"$DTLTOP" $SIM --seed 4 -b -n 1 --format=openmetrics >"$tmp/1.om" || fail "om run"
[ "$(tail -1 "$tmp/1.om")" = "# EOF" ] && ok || fail "OpenMetrics does not end with # EOF"
grep -q '^# TYPE dtl_dispatches counter$' "$tmp/1.om" && grep -q '^# TYPE dtl_cpu info$' "$tmp/1.om" &&
	grep -q '^# UNIT dtl_wait_seconds seconds$' "$tmp/1.om" && ok || fail "OpenMetrics metadata"
grep -v '^#' "$tmp/1.om" | cmp -s - "$(grep -v '^#' "$tmp/1.prom" >"$tmp/1.s"; echo "$tmp/1.s")" && ok ||
	fail "OpenMetrics samples differ from the text format's"
# every family has HELP and TYPE
awk '/^# TYPE/ { t[$3] = 1 } /^# HELP/ { h[$3] = 1 } END { for (k in t) if (!(k in h)) exit 1 }' "$tmp/1.om" &&
	ok || fail "a family without HELP"

# 3. Bad values and places
expect_error "port out of range" "bad --listen port" --sim --listen 70000
expect_error "port not a number" "bad --listen port" --sim --listen 127.0.0.1:http
expect_error "empty address" "bad --listen address" --sim --listen :9464
expect_error "a name, not an address" "bad --listen address 'host.example'" --sim --listen host.example:9464
expect_error "IPv6 without brackets" "bad --listen address '::1'" --sim --listen ::1:9464
expect_error "bad --hist-by" "bad --hist-by 'core'" --sim --hist-by core
expect_error "textfile dir missing" "$tmp/none" --sim -n 1 --textfile "$tmp/none"
: >"$tmp/plain"
expect_error "textfile at a regular file" "--textfile $tmp/plain: not a directory" --sim -n 1 --textfile "$tmp/plain"
# an exporter has no output of its own: what would be swallowed is refused, and no file appears
expect_error "--listen with -b -o --format" "--listen makes dtltop an exporter" \
	--sim -n 1 --listen 127.0.0.1:9 -b --format=csv -o "$tmp/swallowed.csv"
[ ! -e "$tmp/swallowed.csv" ] && ok || fail "--listen -o wrote $tmp/swallowed.csv"
expect_error "--textfile with --csv" "--textfile makes dtltop an exporter" --sim -n 1 --textfile "$tmp" --csv
expect_error "--listen with --report" "--listen makes dtltop an exporter" \
	--sim -n 1 --listen 127.0.0.1:9 --report "$tmp/r.html"
# what makes dtltop an exporter is never a kept setting: every run would become one
printf 'sort=steal_pct\nlisten=127.0.0.1:9464\n' >"$tmp/rc-listen"
expect_error "listen= in dtltoprc" "rc-listen:2: listen= would make every dtltop an exporter" \
	--config "$tmp/rc-listen" --sim -b -n 1
printf 'textfile=%s\n' "$tmp" >"$tmp/rc-tf"
expect_error "textfile= in dtltoprc" "rc-tf:1: textfile= would make every dtltop an exporter" \
	--config "$tmp/rc-tf" -r /nonexistent -b

# 4. --textfile: the file appears whole, by rename
mkdir "$tmp/tf"
"$DTLTOP" $SIM --seed 4 -n 2 --textfile "$tmp/tf" </dev/null >/dev/null 2>"$tmp/err" || fail "textfile run: $(cat "$tmp/err")"
promtool check metrics <"$tmp/tf/dtltop.prom" >/dev/null 2>&1 && ok || fail "textfile fails promtool"
[ "$(ls -A "$tmp/tf")" = "dtltop.prom" ] && ok || fail "textfile dir holds $(ls -A "$tmp/tf")"

# a collector's outage (here: the directory refuses new files, as a full disk does) is said
# once, counted and retried; HTTP goes on serving; any exit leaves dtl_up 0, not live counters
if [ "$(id -u)" -eq 0 ] && mkdir "$tmp/tf2" && chattr +i "$tmp/tf2" 2>/dev/null && chattr -i "$tmp/tf2"; then
	op=$(free_port)
	"$DTLTOP" --sim -d 0.3 -n 400 --textfile "$tmp/tf2" --listen "127.0.0.1:$op" </dev/null >/dev/null \
		2>"$tmp/tf2.err" &
	tpid=$!
	for i in $(seq 50); do [ -s "$tmp/tf2/dtltop.prom" ] && break; sleep 0.1; done
	chattr +i "$tmp/tf2"
	sleep 1.5
	errs=$(curl -s "http://127.0.0.1:$op/metrics" | awk '$1 == "dtl_textfile_write_errors_total" { print $2 }')
	chattr -i "$tmp/tf2"
	[ -n "$errs" ] && [ "$errs" -ge 2 ] && ok || fail "HTTP during the outage: errors '$errs'"
	kill -0 $tpid 2>/dev/null && ok || fail "the outage ended the exporter: $(cat "$tmp/tf2.err")"
	for i in $(seq 30); do grep -q 'written again' "$tmp/tf2.err" && break; sleep 0.1; done
	[ "$(grep -c 'retried each interval' "$tmp/tf2.err")" = 1 ] && grep -q 'written again, after' "$tmp/tf2.err" &&
		ok || fail "the outage's lines: $(cat "$tmp/tf2.err")"
	grep -q '^dtl_up 1$' "$tmp/tf2/dtltop.prom" && ok || fail "the textfile did not come back"
	kill -TERM $tpid; wait $tpid; rc=$?
	[ $rc = 0 ] && grep -q '^dtl_up 0$' "$tmp/tf2/dtltop.prom" && ! grep -q '^dtl_dispatches_total' "$tmp/tf2/dtltop.prom" &&
		ok || fail "after SIGTERM (rc $rc) the textfile says: $(head -5 "$tmp/tf2/dtltop.prom")"
	promtool check metrics <"$tmp/tf2/dtltop.prom" >/dev/null 2>&1 && ok || fail "the stopped textfile fails promtool"
	# the signals whose default is to end a process end it cleanly too
	for sig in USR1 USR2 ALRM; do
		"$DTLTOP" --sim -d 0.2 -n 400 --textfile "$tmp/tf2" </dev/null >/dev/null 2>&1 &
		spid=$!
		for i in $(seq 50); do grep -q '^dtl_up 1$' "$tmp/tf2/dtltop.prom" 2>/dev/null && break; sleep 0.1; done
		kill -$sig $spid; wait $spid; rc=$?
		[ $rc = 0 ] && grep -q '^dtl_up 0$' "$tmp/tf2/dtltop.prom" && [ "$(ls "$tmp/tf2" | wc -l)" = 1 ] && ok ||
			fail "SIG$sig: rc $rc, the directory holds $(ls "$tmp/tf2")"
	done
	"$DTLTOP" --sim=vcpus=16 -b -n 400 -d 0.2 --csv -o "$tmp/sig.csv" -w "$tmp/sig.dtl" </dev/null 2>/dev/null &
	spid=$!
	sleep 1
	kill -USR1 $spid; wait $spid; rc=$?
	[ $rc = 0 ] && [ -s "$tmp/sig.csv" ] && ! ls "$tmp"/sig.csv.*.tmp >/dev/null 2>&1 &&
		"$DTLTOP" -r "$tmp/sig.dtl" -b --csv 2>"$tmp/sig.err" >/dev/null && ! grep -q 'end marker' "$tmp/sig.err" &&
		ok || fail "SIGUSR1 with -o and -w: rc $rc, $(ls "$tmp" | grep sig), $(cat "$tmp/sig.err")"
fi

# IPv6 where the loopback has it
if grep -q '^00000000000000000000000000000001 ' /proc/net/if_inet6 2>/dev/null; then
	p6=$(free_port)
	"$DTLTOP" --sim -d 0.2 -n 10 --listen "[::1]:$p6" </dev/null >/dev/null 2>&1 &
	for i in $(seq 50); do
		[ "$(curl -sg -o /dev/null -w '%{http_code}' "http://[::1]:$p6/metrics")" = 200 ] && break
		sleep 0.1
	done
	[ "$i" -lt 50 ] && ok || fail "no exposition on [::1]:$p6"
	wait $!
fi

# 5. HTTP by hand: the page, 404, 405, content negotiation, a taken port
port=$(free_port)
"$DTLTOP" --sim=vcpus=16 --seed 4 -d 0.5 -n 20 --listen "127.0.0.1:$port" -w "$tmp/run.dtl" \
	</dev/null >/dev/null 2>"$tmp/exp.err" &
exp=$!
for i in $(seq 50); do curl -sf -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
curl -s "http://127.0.0.1:$port/" | grep -q 'href="/metrics"' && ok || fail "no page at /"
# before the first interval ends there is nothing to say: 503 and when to come back
code=$(curl -s -D "$tmp/h" -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/metrics")
{ [ "$code" = 200 ] || { [ "$code" = 503 ] && grep -qi '^retry-after: 1' "$tmp/h"; }; } && ok ||
	fail "first scrape: $code"
for i in $(seq 50); do
	[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/metrics")" = 200 ] && break
	sleep 0.1
done
[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/nothing")" = 404 ] && ok || fail "want 404"
[ "$(curl -s -o /dev/null -w '%{http_code}' -d x "http://127.0.0.1:$port/metrics")" = 405 ] && ok || fail "want 405"
curl -s -D "$tmp/h" -o "$tmp/s.prom" "http://127.0.0.1:$port/metrics"
grep -qi '^content-type: text/plain; version=0.0.4' "$tmp/h" && ok || fail "plain scrape: $(cat "$tmp/h")"
curl -s -D "$tmp/h" -o "$tmp/s.om" -H 'Accept: application/openmetrics-text;version=1.0.0' \
	"http://127.0.0.1:$port/metrics"
grep -qi '^content-type: application/openmetrics-text; version=1.0.0' "$tmp/h" &&
	[ "$(tail -1 "$tmp/s.om")" = "# EOF" ] && ok || fail "OpenMetrics scrape"
curl -s -D "$tmp/h" -o /dev/null -H 'Accept: application/openmetrics-text; q=0, text/plain' \
	"http://127.0.0.1:$port/metrics"
grep -qi '^content-type: text/plain; version=0.0.4' "$tmp/h" && ok || fail "q=0 refused OpenMetrics: $(cat "$tmp/h")"
"$DTLTOP" --sim -n 1 --listen "127.0.0.1:$port" </dev/null >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "cannot listen on 127.0.0.1:$port" "$tmp/err" && ok ||
	fail "a taken port: $(cat "$tmp/err")"

# 6. Debian's Prometheus scrapes it; its figures are the CSV's of the same run
pport=$(free_port)
mkdir -p "$tmp/prom"
cat >"$tmp/prom/prometheus.yml" <<EOF
global: { scrape_interval: 1s, scrape_timeout: 900ms }
scrape_configs:
  - job_name: dtltop
    static_configs: [ { targets: ["127.0.0.1:$port"] } ]
EOF
"$PROMETHEUS" --config.file="$tmp/prom/prometheus.yml" --storage.tsdb.path="$tmp/prom/data" \
	--web.listen-address="127.0.0.1:$pport" >"$tmp/prom/log" 2>&1 &
pid=$!
wait "$exp" || fail "exporter exited $?: $(cat "$tmp/exp.err")"
sleep 1
q() { curl -s "http://127.0.0.1:$pport/api/v1/query" --data-urlencode "query=$1" | jq -r '.data.result[0].value[1] // "none"'; }
# range selectors skip the staleness markers the exporter's exit left: the last scrape stored
k=$(q 'last_over_time(dtl_intervals_total[10m])')
pd=$(q 'sum(last_over_time(dtl_dispatches_total[10m]))')
ph=$(q 'sum(last_over_time(dtl_dispatch_latency_seconds_count[10m]))')
ps=$(q 'sum(last_over_time(dtl_wait_seconds_total{phase=~"enqueue_to_dispatch|ready_to_enqueue"}[10m]))')
pc=$(q 'sum(last_over_time(dtl_preempts_total{reason="H_CEDE"}[10m]))')
scrapes=$(q 'count_over_time(scrape_samples_scraped[10m])')
up=$(q 'max_over_time(up[10m])')
kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
[ "$up" = 1 ] && ok || fail "Prometheus never scraped it up: $(tail -5 "$tmp/prom/log")"
[ "$scrapes" != none ] && [ "$scrapes" -ge 5 ] && ok || fail "only $scrapes scrapes"
if [ "$k" != none ] && [ "$k" -gt 2 ]; then
	# the recording of the same run, replayed to its k-th interval: the same entries
	"$DTLTOP" -r "$tmp/run.dtl" -b -n "$k" --format=csv >"$tmp/run.csv" 2>"$tmp/err" ||
		fail "replay: $(cat "$tmp/err")"
	c=$(csv_sum "$tmp/run.csv" dispatches)
	[ "$pd" = "$c" ] && ok || fail "Prometheus has $pd dispatches after $k intervals, the CSV $c"
	[ "$ph" = "$c" ] && ok || fail "Prometheus' histogram counts $ph, the CSV $c dispatches"
	c=$(csv_sum "$tmp/run.csv" preempt_H_CEDE)
	[ "$pc" = "$c" ] && ok || fail "Prometheus has $pc H_CEDE preempts, the CSV $c"
	# waits: whole at their dispatch in the counters, split at interval edges in the CSV
	c=$(csv_sum "$tmp/run.csv" steal_us)
	close_to "$ps" "$(awk -v c="$c" 'BEGIN { print c / 1e6 }')" 0.02 && ok ||
		fail "Prometheus has $ps s of steal, the CSV $c us"
else
	fail "no dtl_intervals_total in Prometheus ($k): $(tail -3 "$tmp/prom/log")"
fi

# slow clients trickling a header line every 2 s, 130 of them from one address (127.0.0.2),
# hold no more than their address's share: scrapes from another still get through
sport=$(free_port)
"$DTLTOP" --sim -d 0.3 -n 100 --listen "127.0.0.1:$sport" </dev/null >/dev/null 2>"$tmp/slow.err" &
spid=$!
for i in $(seq 50); do curl -sf -o /dev/null "http://127.0.0.1:$sport/" && break; sleep 0.1; done
timeout -k 5 20 python3 - "$sport" >"$tmp/slow.out" 2>&1 <<'PY' &
import socket, sys, time
socks = []
for i in range(130):
    try:
        s = socket.socket()
        s.bind(("127.0.0.2", 0))
        s.settimeout(1)
        s.connect(("127.0.0.1", int(sys.argv[1])))
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
        socks.append(s)
    except OSError:
        pass
for _ in range(5):
    time.sleep(2)
    for s in socks:
        try:
            s.sendall(b"X-Slow: 1\r\n")
        except OSError:
            pass
print(len(socks), "connected")
PY
slow=$!
sleep 1.5
# scrapes PORT TIMEOUT: of three scrapes a second apart, how many were answered within TIMEOUT s
scrapes() {
	local good=0
	for i in 1 2 3; do
		[ "$(curl -s -m "$2" -o /dev/null -w '%{http_code}' "http://127.0.0.1:$1/metrics")" = 200 ] &&
			good=$((good + 1))
		sleep 1
	done
	echo $good
}
good=$(scrapes "$sport" 3)
[ $good = 3 ] && ok || fail "scrapes beside 130 slow clients: $good of 3 answered"
wait $slow
kill $spid 2>/dev/null; wait $spid 2>/dev/null

# slow clients from 8 addresses, 16 each (every slot there is), trickling a header line every
# second and connecting again when dropped: a request's headers have 5 s in all, so each is dropped
# within 6 s, and a scrape from another address is answered within Prometheus' 10 s timeout
sport=$(free_port)
"$DTLTOP" --sim -d 0.3 -n 100 --listen "127.0.0.1:$sport" </dev/null >/dev/null 2>"$tmp/slow.err" &
spid=$!
for i in $(seq 50); do curl -sf -o /dev/null "http://127.0.0.1:$sport/" && break; sleep 0.1; done
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
cpu0=$(cpu_ticks $spid) t0=$(date +%s.%N)
timeout -k 5 30 python3 - "$sport" >"$tmp/slow8.out" 2>&1 <<'PY' &
import socket, sys, time
port = int(sys.argv[1])
def conn(a):
    s = socket.socket()
    s.bind((a, 0))
    s.settimeout(1)
    s.connect(("127.0.0.1", port))
    s.settimeout(None)  # blocking: a MSG_DONTWAIT peek then says "nothing yet", not a timeout
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
    return [s, a, time.monotonic()]
socks, held = [], 0.0
for k in range(8):
    for i in range(16):
        try:
            socks.append(conn("127.0.0.%d" % (k + 2)))
        except OSError:
            pass
print(len(socks), "connected")
def closed(s):
    try:
        return s.recv(4096, socket.MSG_DONTWAIT | socket.MSG_PEEK) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True
start = time.monotonic()
tick = 0
while time.monotonic() < start + 15:
    time.sleep(0.25)
    tick += 1
    for c in socks:
        if closed(c[0]):
            # dropped: how long it was held, then in again at once
            held = max(held, time.monotonic() - c[2])
            c[0].close()
            try:
                c[:] = conn(c[1])
            except OSError:
                c[2] = time.monotonic()
        elif tick % 4 == 0:
            try:
                c[0].sendall(b"X-Slow: 1\r\n")
            except OSError:
                pass
for c in socks:
    if not closed(c[0]):
        held = max(held, time.monotonic() - c[2])
print("longest held %.1f" % held)
PY
slow=$!
sleep 3
good=$(scrapes "$sport" 10)
[ $good = 3 ] && ok || fail "scrapes beside 8 x 16 trickling clients: $good of 3 answered in 10 s"
wait $slow
# the cuts wait for their deadlines: no thread spins while clients trickle
cpu=$(awk -v a="$cpu0" -v b="$(cpu_ticks $spid)" -v t0="$t0" -v t1="$(date +%s.%N)" \
	'BEGIN { printf "%.2f", (b - a) / 100 / (t1 - t0) }')
awk -v c="$cpu" 'BEGIN { exit !(c < 0.5) }' && ok || fail "the exporter used $cpu of a core beside trickling clients"
held=$(sed -n 's/^longest held //p' "$tmp/slow8.out")
awk -v h="$held" 'BEGIN { exit !(h > 0 && h < 7) }' && ok ||
	fail "a trickling request was held ${held:-?} s (want its headers cut off within 5 s in all): $(cat "$tmp/slow8.out")"
kill $spid 2>/dev/null; wait $spid 2>/dev/null

# 7. between intervals an exporter sleeps (a second at a time at most), yet
# SIGTERM ends it at once: every thread of it, scheduled, counts
iport=$(free_port)
"$DTLTOP" --sim=vcpus=64 -d 30 --listen "127.0.0.1:$iport" </dev/null >/dev/null 2>"$tmp/idle.err" &
idle=$!
sleep 1.5
runs() { cat /proc/"$idle"/task/*/schedstat 2>/dev/null | awk '{ n += $3 } END { print n + 0 }'; }
r0=$(runs)
sleep 4
r1=$(runs)
t0=$(date +%s%N)
kill -TERM "$idle"
wait "$idle"
rc=$? ms=$((($(date +%s%N) - t0) / 1000000))
[ $((r1 - r0)) -le 12 ] && ok || fail "an idle exporter was scheduled $((r1 - r0)) times in 4 s"
[ "$rc" = 0 ] && [ "$ms" -lt 500 ] && ok ||
	fail "SIGTERM to a sleeping exporter: exit $rc after $ms ms: $(cat "$tmp/idle.err")"


# 8. --web-config: TLS and basic authentication (node_exporter's file), with curl and
# with Debian's Prometheus scraping over TLS with a password; the key's mode, bad files
w=$tmp/web
mkdir -p "$w"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=dtltop-test \
	-addext subjectAltName=IP:127.0.0.1 -keyout "$w/server.key" -out "$w/server.crt" >/dev/null 2>&1 ||
	fail "openssl could not make a test certificate"
chmod 600 "$w/server.key"
hash=$(htpasswd -nbBC 5 prom 's3cret:"pw' | sed -n 's/^prom://p')
printf 'tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\nbasic_auth_users:\n  prom: %s\n' \
	"$hash" >"$w/web.yml"
tport=$(free_port)
"$DTLTOP" --sim -d 0.5 -n 60 --listen "127.0.0.1:$tport" --web-config "$w/web.yml" </dev/null \
	>/dev/null 2>"$tmp/tls.err" &
tpid=$!
tc() { curl -s -m 5 --cacert "$w/server.crt" -o "$tmp/tls.body" -w '%{http_code}' "$@"; }
for i in $(seq 50); do [ "$(tc -u 'prom:s3cret:"pw' "https://127.0.0.1:$tport/metrics")" = 200 ] && break; sleep 0.2; done
grep -q '^dtl_up 1$' "$tmp/tls.body" && ok || fail "HTTPS with the password: $(head -3 "$tmp/tls.body") $(cat "$tmp/tls.err")"
grep -q "serving metrics at https://127.0.0.1:$tport/metrics to its --web-config users" "$tmp/tls.err" && ok ||
	fail "the exporter's start line: $(cat "$tmp/tls.err")"
[ "$(tc -u 'prom:s3cret:"pX' "https://127.0.0.1:$tport/metrics")" = 401 ] && ! grep -q dtl_up "$tmp/tls.body" &&
	[ "$(tc -u 'nobody:s3cret:"pw' "https://127.0.0.1:$tport/")" = 401 ] &&
	[ "$(tc "https://127.0.0.1:$tport/metrics")" = 401 ] && ok || fail "a wrong, unknown or missing password got in"
curl -s -m 5 -D "$tmp/tls.h" -o /dev/null --cacert "$w/server.crt" "https://127.0.0.1:$tport/metrics"
grep -qi '^www-authenticate: basic realm="dtltop"' "$tmp/tls.h" && ok || fail "401 without a challenge: $(cat "$tmp/tls.h")"
# plain HTTP to the TLS port: no HTTP answer at all
code=$(curl -s -m 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$tport/metrics")
[ "$code" = 000 ] && ok || fail "plain HTTP to the TLS port answered $code"
# Debian's Prometheus over TLS with the password (and a job with a wrong one is down)
pport=$(free_port)
mkdir -p "$tmp/tprom"
printf 's3cret:"pw' >"$w/pw"
printf 'wrong' >"$w/bad"
cat >"$tmp/tprom/prometheus.yml" <<EOF
global: { scrape_interval: 1s, scrape_timeout: 900ms }
scrape_configs:
  - job_name: tls
    scheme: https
    tls_config: { ca_file: "$w/server.crt" }
    basic_auth: { username: prom, password_file: "$w/pw" }
    static_configs: [ { targets: ["127.0.0.1:$tport"] } ]
  - job_name: wrong
    scheme: https
    tls_config: { ca_file: "$w/server.crt" }
    basic_auth: { username: prom, password_file: "$w/bad" }
    static_configs: [ { targets: ["127.0.0.1:$tport"] } ]
EOF
"$PROMETHEUS" --config.file="$tmp/tprom/prometheus.yml" --storage.tsdb.path="$tmp/tprom/data" \
	--web.listen-address="127.0.0.1:$pport" >"$tmp/tprom/log" 2>&1 &
ppid=$!
tq() { curl -s "http://127.0.0.1:$pport/api/v1/query" --data-urlencode "query=$1" | jq -r '.data.result[0].value[1] // "none"'; }
for i in $(seq 60); do
	[ "$(tq 'max_over_time(dtl_up{job="tls"}[1m])')" = 1 ] && [ "$(tq 'max_over_time(up{job="wrong"}[1m])')" != none ] &&
		break
	sleep 0.5
done
up_tls=$(tq 'max_over_time(up{job="tls"}[1m])') up_bad=$(tq 'max_over_time(up{job="wrong"}[1m])')
err=$(curl -s "http://127.0.0.1:$pport/api/v1/targets" | jq -r '.data.activeTargets[] | select(.labels.job == "wrong") | .lastError')
kill "$ppid" 2>/dev/null; wait "$ppid" 2>/dev/null
[ "$up_tls" = 1 ] && ok || fail "Prometheus over TLS with the password: up $up_tls: $(tail -3 "$tmp/tprom/log")"
[ "$up_bad" = 0 ] && echo "$err" | grep -q 401 && ok || fail "Prometheus with a wrong password: up $up_bad, '$err'"
kill "$tpid" 2>/dev/null; wait "$tpid" 2>/dev/null
# the key open to others, a missing certificate, a bad file, --web-config alone: refused at start
chmod 640 "$w/server.key"
"$DTLTOP" --sim -n 1 --listen "127.0.0.1:$tport" --web-config "$w/web.yml" </dev/null >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "key_file $w/server.key is open to group or others (mode 0640): chmod 600 it" "$tmp/err" &&
	ok || fail "a key others may read: $(cat "$tmp/err")"
chmod 600 "$w/server.key"
sed 's/server.crt/none.crt/' "$w/web.yml" >"$w/nocert.yml"
"$DTLTOP" --sim -n 1 --listen "127.0.0.1:$tport" --web-config "$w/nocert.yml" </dev/null >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "^dtltop: --web-config: $w/none.crt: No such file or directory$" "$tmp/err" && ok ||
	fail "a missing certificate: $(cat "$tmp/err")"
printf 'tls_server_config:\n  client_ca_file: ca.crt\n' >"$w/client.yml"
"$DTLTOP" --sim -n 1 --listen "127.0.0.1:$tport" --web-config "$w/client.yml" </dev/null >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "$w/client.yml:2: tls_server_config: client_ca_file: not served" "$tmp/err" &&
	ok || fail "client certificates asked for: $(cat "$tmp/err")"
"$DTLTOP" --sim -n 1 --web-config "$w/web.yml" </dev/null >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- "--web-config is for --listen" "$tmp/err" && ok || fail "--web-config alone: $(cat "$tmp/err")"

finish
