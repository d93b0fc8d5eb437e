#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# What a fleet loads beside the exporter, each checked by its own tool:
# contrib/prometheus/dtltop.rules.yml by promtool and by Debian's Prometheus
# evaluating it against simulated LPARs, contrib/grafana/dtltop.json's every
# query by the same Prometheus, and contrib/pcp/dtltop.url by PCP's own pmcd
# and pmdaopenmetrics, started here in a private directory (never the system's
# pmcd service).
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
RULES=$top/contrib/prometheus/dtltop.rules.yml
DASH=$top/contrib/grafana/dtltop.json
PROMETHEUS=${PROMETHEUS:-prometheus}

pids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
}
trap 'cleanup; rm -rf "$tmp"' EXIT

# 1. The rules: promtool's lint and its unit tests (each alert's case, and a healthy LPAR)
promtool check rules "$RULES" >"$tmp/lint" 2>&1 && ok || fail "promtool check rules: $(cat "$tmp/lint")"
(cd "$top/tests/fleet" && promtool test rules rules.test.yml) >"$tmp/unit" 2>&1 && ok ||
	fail "promtool test rules: $(head -20 "$tmp/unit")"

# 2. The thresholds are dtltop's own: each number of the source stands in the rules
num() { awk -v n="$2" '$1 == "#define" && $2 == n { print $3 + 0 }' "$top/$1"; }
judge() { awk -F'[{},]' -v f="\"$1\"" '$2 ~ f { gsub(/ /, "", $3); gsub(/ /, "", $4); print $3 "," $4; exit }' \
	"$top/src/view/judge.c"; }
entc=$(awk -v p="$(num src/view/verdict.h DTL_VERDICT_ENTC_PCT)" 'BEGIN { printf "%.2f", p / 100 }')
pool=$(awk -v p="$(num src/view/verdict.h DTL_VERDICT_POOL_PCT)" 'BEGIN { printf "%.2f", p / 100 }')
wait=$(awk -v p="$(num src/view/verdict.h DTL_VERDICT_WAIT_PCT)" 'BEGIN { printf "%.2f", p / 100 }')
p99=$(judge lat_p99_us)
warn=$(awk -v p="${p99%,*}" 'BEGIN { printf "%.3f", p / 1e6 }')
crit=$(awk -v p="${p99#*,}" 'BEGIN { printf "%.3f", p / 1e6 }')
for want in "lpar_entitlement_used_ratio >= $entc" "lpar_pool_idle_processors < $pool \* lpar_pool_processors" \
	"ratio_rate1m >= $wait" "dtl_dispatch_wait_p99_seconds > $warn" "dtl_dispatch_wait_p99_seconds > $crit"; do
	grep -q "$want" "$RULES" && ok || fail "the rules lack '$want' (dtltop's own threshold)"
done
[ "$warn" = 0.005 ] && [ "$crit" = 0.010 ] && [ "$entc" = 0.95 ] && ok ||
	fail "thresholds read from the source: p99 $warn/$crit, entc $entc"

# 3. The dashboard: what Grafana's import requires of the JSON
python3 - "$DASH" >"$tmp/dash" 2>&1 <<'PY' && ok || fail "dashboard: $(cat "$tmp/dash")"
import json, sys
d = json.load(open(sys.argv[1]))
err = []
for k, t in (("title", str), ("uid", str), ("schemaVersion", int), ("panels", list), ("templating", dict)):
    if not isinstance(d.get(k), t):
        err.append("top-level %s missing or not %s" % (k, t.__name__))
var = {v.get("name"): v for v in d.get("templating", {}).get("list", [])}
if var.get("datasource", {}).get("type") != "datasource" or var["datasource"].get("query") != "prometheus":
    err.append("no datasource variable of type datasource/prometheus")
ids = set()
for p in d.get("panels", []):
    name = p.get("title", "?")
    if not isinstance(p.get("id"), int) or p["id"] in ids:
        err.append("%s: id missing or repeated" % name)
    ids.add(p.get("id"))
    if p.get("type") not in ("timeseries", "stat", "heatmap", "gauge", "table", "bargauge", "row"):
        err.append("%s: unknown type %s" % (name, p.get("type")))
    g = p.get("gridPos", {})
    if not all(isinstance(g.get(k), int) for k in "hwxy") or g["x"] + g["w"] > 24:
        err.append("%s: gridPos %s" % (name, g))
    refs = [t.get("refId") for t in p.get("targets", [])]
    if not refs or len(set(refs)) != len(refs) or not all(t.get("expr") for t in p["targets"]):
        err.append("%s: targets need an expr and distinct refIds" % name)
    for o in [p] + p.get("targets", []):
        if o.get("datasource", {}).get("uid") != "${datasource}":
            err.append("%s: datasource is not the variable" % name)
print("\n".join(err))
sys.exit(1 if err else 0)
PY

# 4. Three LPARs, each a verdict, in both exposition modes, scraped by a real Prometheus
# running the rules: capped (per VP), starved by the pool (per CPU), light (per VP).
# The rules' rates span a minute, as a fleet's scrapes need: until a minute of samples
# is in, rate() spreads what it has over the whole minute, so the test waits for one.
pa=$(free_port) pb=$(free_port) pc=$(free_port) pport=$(free_port)
"$DTLTOP" --sim=vps=8,ent=4,capped=1,load=0.7,pool=32,other=4 -d 1 -n 200 \
	--listen "127.0.0.1:$pa" </dev/null >/dev/null 2>"$tmp/a.err" &
pids="$pids $!"
"$DTLTOP" --sim=vps=8,ent=4,load=0.7,pool=8,oent=4,other=8 -d 1 -n 200 --metrics-by=cpu \
	--listen "127.0.0.1:$pb" </dev/null >/dev/null 2>"$tmp/b.err" &
pids="$pids $!"
"$DTLTOP" --sim=vps=4,ent=4,load=0.1,pool=32,other=4 -d 1 -n 200 --listen "127.0.0.1:$pc" </dev/null >/dev/null 2>"$tmp/c.err" &
pids="$pids $!"
# and a frame's five LPARs on two pools (contrib/sim/frame.conf): pool 1's greedy
# LPAR must top the dashboard's pool view
FRAME=$top/contrib/sim/frame.conf frame_targets=""
for n in greedy web db dev test; do
	p=$(free_port)
	"$DTLTOP" --no-config --sim=frame="$FRAME",name=$n -d 1 -n 200 --listen "127.0.0.1:$p" </dev/null \
		>/dev/null 2>"$tmp/frame-$n.err" &
	pids="$pids $!"
	frame_targets="$frame_targets, \"127.0.0.1:$p\""
done
mkdir -p "$tmp/prom"
cat >"$tmp/prom/prometheus.yml" <<EOF
global: { scrape_interval: 1s, scrape_timeout: 900ms, evaluation_interval: 1s }
rule_files: [ "$RULES" ]
scrape_configs:
  - job_name: dtltop
    static_configs: [ { targets: ["127.0.0.1:$pa", "127.0.0.1:$pb", "127.0.0.1:$pc"$frame_targets] } ]
EOF
"$PROMETHEUS" --config.file="$tmp/prom/prometheus.yml" --storage.tsdb.path="$tmp/prom/data" \
	--web.listen-address="127.0.0.1:$pport" >"$tmp/prom/log" 2>&1 &
pids="$pids $!"
api="http://127.0.0.1:$pport/api/v1"
q() { curl -s "$api/query" --data-urlencode "query=$1"; }
# until each LPAR has a minute of figures, and the rules a few evaluations over it
for i in $(seq 120); do
	n=$(q 'count(count_over_time(lpar_physc[70s]) >= 62)' | jq -r '.data.result[0].value[1] // 0')
	[ "$n" = 8 ] && break
	sleep 1
done
sleep 3
[ "$n" = 8 ] && ok || fail "Prometheus has a minute of figures of $n LPARs of 8 after 120 s: $(tail -3 "$tmp/prom/log") $(cat "$tmp"/frame-*.err)"
q 'ALERTS' >"$tmp/alerts"
for t in "$pa" "$pb" "$pc"; do
	v=$(q "lpar_verdict{instance=\"127.0.0.1:$t\"} == 1" | jq -r '.data.result[0].metric.verdict // "none"')
	a=$(jq -r --arg i "127.0.0.1:$t" '[.data.result[] | select(.metric.instance == $i) | .metric.alertname] |
		map(select(test("Capped|Starved"))) | sort | join(",")' "$tmp/alerts")
	case $v in
	capped) want=DtltopLparCappedAtEntitlement ;;
	starved) want=DtltopLparStarvedByPool ;;
	*) want="" ;;
	esac
	[ "$a" = "$want" ] && ok || fail "LPAR on :$t: dtltop's verdict $v, the rules' alerts '$a'"
	echo "$v" >>"$tmp/verdicts"
done
[ "$(sort "$tmp/verdicts" | tr '\n' ' ')" = "capped not_limited starved " ] && ok ||
	fail "the three scenarios gave verdicts $(cat "$tmp/verdicts" | tr '\n' ' ')"
for r in instance:dtltop_steal_cores:rate1m instance:dtltop_wait_share:ratio_rate1m \
	instance:dtltop_dispatch_wait_p99_seconds:rate5m instance:dtltop_physc:rate1m; do
	[ "$(q "$r" | jq '.data.result | length')" = 8 ] && ok || fail "recording rule $r: not one series per LPAR"
done
# the same rule in both modes: cores stolen of the starved LPAR (per CPU) is its VPs' own
s=$(q "instance:dtltop_steal_cores:rate1m{instance=\"127.0.0.1:$pb\"}" | jq -r '.data.result[0].value[1]')
awk -v s="$s" 'BEGIN { exit !(s > 1 && s <= 8) }' && ok || fail "starved LPAR: $s cores stolen of 8 VPs"

# every query of every panel returns data, on an LPAR of each mode, and the heatmap
# has a row per CPU (64) or per VP (8)
now=$(date +%s)
jq -r '.panels[] | .title as $t | .targets[] | [$t, .expr] | @tsv' "$DASH" >"$tmp/exprs"
[ "$(wc -l <"$tmp/exprs")" -ge 12 ] && ok || fail "only $(wc -l <"$tmp/exprs") queries in the dashboard"
# (the pool panels on pool 1 with the first LPAR, pool 2 with the second)
for t in "$pa" "$pb"; do
	pool=1
	[ "$t" = "$pb" ] && pool=2
	while IFS="$(printf '\t')" read -r title expr; do
		e=$(printf '%s' "$expr" | sed -e 's/\$job/dtltop/g' -e "s/\\\$instance/127.0.0.1:$t/g" \
			-e 's/\$__rate_interval/5s/g' -e 's/\$frame/7800F1X/g' -e "s/\\\$pool/$pool/g")
		curl -s "$api/query_range" --data-urlencode "query=$e" --data-urlencode "start=$((now - 30))" \
			--data-urlencode "end=$now" --data-urlencode "step=1" >"$tmp/r"
		st=$(jq -r .status "$tmp/r") n=$(jq '[.data.result[].values | length] | add // 0' "$tmp/r")
		[ "$st" = success ] && [ "$n" -gt 0 ] && ok ||
			fail "panel '$title' on :$t: $st, $n points: $(jq -r '.error // ""' "$tmp/r") ($e)"
		case $title in Steal\ by\ CPU*)
			jq -r '.data.result[].metric.row' "$tmp/r" | sort -u >"$tmp/rows.$t" ;;
		esac
	done <"$tmp/exprs"
done
[ "$(grep -c '^vp [0-7]$' "$tmp/rows.$pa")" = 8 ] && [ "$(wc -l <"$tmp/rows.$pa")" = 8 ] && ok ||
	fail "heatmap rows per VP: $(tr '\n' ' ' <"$tmp/rows.$pa")"
[ "$(grep -c '^cpu [0-9]*$' "$tmp/rows.$pb")" = 64 ] && ok || fail "heatmap rows per CPU: $(wc -l <"$tmp/rows.$pb")"

# The pool view (issue: which LPARs take the pool): the variables list the frame and its
# pools; pool 1's top taker is the LPAR the frame made greedy, its neighbours are starved
# by it, and no pool's LPARs together pass its processors
lv() { curl -sG "$api/label/$1/values" --data-urlencode "match[]=$2" | jq -r '.data | join(" ")'; }
[ "$(lv frame_serial 'dtl_lpar_info')" = "7800F1X SIM" ] && [ "$(lv pool_id 'dtl_lpar_info{frame_serial="7800F1X"}')" = "1 2" ] &&
	ok || fail "pool view variables: frames '$(lv frame_serial dtl_lpar_info)', pools '$(lv pool_id 'dtl_lpar_info{frame_serial="7800F1X"}')'"
pexpr() { jq -r --argjson id "$1" --arg r "$2" '.panels[] | select(.id == $id) | .targets[] | select(.refId == $r) | .expr' "$DASH" |
	sed -e 's/\$job/dtltop/g' -e 's/\$__rate_interval/20s/g' -e 's/\$frame/7800F1X/g' -e "s/\\\$pool/$3/g"; }
taker=$(q "topk(1, $(pexpr 11 A 1))" | jq -r '.data.result[0].metric.partition_name')
above=$(q "topk(1, $(pexpr 12 A 1))" | jq -r '.data.result[0].metric.partition_name')
[ "$taker" = greedy ] && [ "$above" = greedy ] && ok ||
	fail "pool 1's top taker '$taker', most above its entitlement '$above': not the greedy LPAR"
starved=$(q 'lpar_verdict{verdict="starved"} == 1 and on (job, instance) dtl_lpar_info{frame_serial="7800F1X"}' |
	jq -r '.data.result[].metric.instance' | while read -r i; do
		q "dtl_lpar_info{instance=\"$i\"}" | jq -r '.data.result[0].metric.partition_name'; done | sort | tr '\n' ' ')
[ "$starved" = "db web " ] && ok || fail "the greedy LPAR's neighbours starved: '$starved', want 'db web '"
q 'max_over_time((sum by (pool_id) (lpar_physc * on (job, instance) group_left (pool_id) dtl_lpar_info{frame_serial="7800F1X"}))[30s:1s])' |
	jq -r '.data.result[] | [.metric.pool_id, .value[1]] | @tsv' >"$tmp/pools"
awk '$1 == 1 && $2 <= 8.02 && $2 > 7 { a++ } $1 == 2 && $2 <= 4.02 { b++ } END { exit !(a == 1 && b == 1) }' "$tmp/pools" && ok ||
	fail "a pool's LPARs pass its processors (pool 1: 8, 2: 4): $(tr '\n\t' '; ' <"$tmp/pools")"

# 5. PCP: the stock pmdaopenmetrics under a pmcd of this test's own, from Debian's pcp
# package unpacked (its postinst enables and starts system services: not here)
pcpdeb=$(ls "$top"/build/fleet/pcp_*.deb 2>/dev/null | head -1)
if [ -z "$pcpdeb" ]; then
	mkdir -p "$top/build/fleet"
	(cd "$top/build/fleet" && apt-get download pcp >/dev/null 2>"$tmp/dl") || fail "apt-get download pcp: $(cat "$tmp/dl")"
	pcpdeb=$(ls "$top"/build/fleet/pcp_*.deb 2>/dev/null | head -1)
fi
if [ -n "$pcpdeb" ] && dpkg-deb -x "$pcpdeb" "$tmp/pcp"; then
	R=$tmp/pcp W=$tmp/pcpw pp=$(free_port) pm=$(free_port)
	mkdir -p "$W/config.d" "$W/run" "$W/log" "$W/tmp"
	sed -e "s|=/var/lib/pcp|=$R/var/lib/pcp|; s|=/usr/lib/pcp|=$R/usr/lib/pcp|" \
		-e "s|=/usr/share/pcp|=$R/usr/share/pcp|; s|^PCP_RUN_DIR=.*|PCP_RUN_DIR=$W/run|" \
		-e "s|^PCP_LOG_DIR=.*|PCP_LOG_DIR=$W/log|; s|^PCP_TMP_DIR=.*|PCP_TMP_DIR=$W/tmp|" \
		-e "s|^PCP_USER=.*|PCP_USER=$(id -un)|; s|^PCP_GROUP=.*|PCP_GROUP=$(id -gn)|" \
		-e "s|^PCP_SYSCONF_DIR=.*|PCP_SYSCONF_DIR=$R/etc/pcp|" /etc/pcp.conf >"$W/pcp.conf"
	printf 'root {\n\topenmetrics\t144:*:*\n}\n' >"$W/root.pmns"
	printf 'openmetrics\t144\tpipe\tbinary notready\t/usr/bin/python3 %s -c %s -l %s/om.log\n[access]\nallow hosts localhost : all;\n' \
		"$R/usr/lib/pcp/pmdas/openmetrics/pmdaopenmetrics.python" "$W/config.d" "$W/log" >"$W/pmcd.conf"
	# the shipped .url, pointed at this test's exporter
	sed "s|127.0.0.1:9464|127.0.0.1:$pp|" "$top/contrib/pcp/dtltop.url" >"$W/config.d/dtltop.url"
	grep -q "^http://127.0.0.1:$pp/metrics" "$W/config.d/dtltop.url" && ok || fail "contrib/pcp/dtltop.url: $(cat "$W/config.d/dtltop.url")"
	"$DTLTOP" --sim -d 0.5 -n 60 --listen "127.0.0.1:$pp" </dev/null >/dev/null 2>"$tmp/p.err" &
	pids="$pids $!"
	export PCP_CONF="$W/pcp.conf" PMCD_PORT="$pm"
	"$R/usr/lib/pcp/bin/pmcd" -f -c "$W/pmcd.conf" -n "$W/root.pmns" -p "$pm" -s "$W/run/pmcd.socket" \
		-l "$W/log/pmcd.log" -x "$W/log/pmcd.err" -U "$(id -un)" >"$W/log/fg" 2>&1 &
	pmcd=$!
	pids="$pids $pmcd"
	pminfo() { "$R/usr/bin/pminfo" -h localhost "$@"; }
	for i in $(seq 40); do
		pminfo -f openmetrics.dtltop.lpar_physc 2>/dev/null | grep -q 'value [0-9]' && break
		sleep 0.5
	done
	pminfo -f openmetrics.dtltop.lpar_physc openmetrics.dtltop.lpar_entitled_processors >"$tmp/pcp1" 2>&1
	grep -A1 '^openmetrics.dtltop.lpar_physc' "$tmp/pcp1" | grep -q 'value [0-9]' &&
		grep -A1 '^openmetrics.dtltop.lpar_entitled_processors' "$tmp/pcp1" | grep -q 'value 1$' && ok ||
		fail "pminfo of the partition: $(cat "$tmp/pcp1") $(tail -3 "$W/log/om.log")"
	sum() { pminfo -f openmetrics.dtltop.dtl_dispatches_total | awk '/value/ { s += $NF } END { print s + 0 }'; }
	pminfo -d openmetrics.dtltop.dtl_dispatches_total | grep -q 'Semantics: counter' && ok ||
		fail "PCP does not see dtl_dispatches_total as a counter"
	d1=$(sum)
	sleep 2
	d2=$(sum)
	[ "$d1" -gt 0 ] && [ "$d2" -gt "$d1" ] && ok || fail "PCP's dtl_dispatches_total: $d1 then $d2"
	kill "$pmcd"
	wait "$pmcd" 2>/dev/null
	sleep 0.5
	! pgrep -f "$W/pmcd.conf" >/dev/null && ! pgrep -f "$W/config.d" >/dev/null && ok ||
		fail "pmcd or its PMDA outlived the test: $(pgrep -af "$W")"
else
	fail "no pcp package to unpack ($pcpdeb)"
fi

finish
