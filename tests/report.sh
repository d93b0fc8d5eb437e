#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# --report: the page parses, its series carry the CSV's numbers, it fetches
# nothing, it stays small at 1920 CPUs, and a real browser draws it.
. "$(dirname "$0")/lib.sh"
SIM="--sim=vcpus=16,clock=virtual"
CHROMIUM=${CHROMIUM:-chromium}

# series FILE NAME: the data-values of the series named NAME, one per line
series() {
	python3 - "$1" "$2" <<'EOF'
import re, sys
html = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r'data-series="%s" data-values="([^"]*)"' % re.escape(sys.argv[2]), html)
print("\n".join(m.group(1).split()) if m else "none")
EOF
}
# all_col CSV COL: the "all" row's column, one interval per line
all_col() {
	csv_cols "$1" cpu,"$2" | awk -F, '$1 == "all" { print $2 }'
}
# agree A B TOL: two columns of numbers, line for line, within TOL (absolute or 0.1 %)
agree() {
	paste "$1" "$2" | awk -v t="$3" 'NF != 2 { bad = 1 } { d = $1 - $2; if (d < 0) d = -d
		m = $2 < 0 ? -$2 : $2; if (d > t && d > m * 0.001) bad = 1; n++ } END { exit bad || n == 0 }'
}

# 1. a recording, its CSV, its report
"$DTLTOP" $SIM --seed 3 -b -n 40 -w "$tmp/rec.dtl" -o /dev/null || fail "recording"
"$DTLTOP" -r "$tmp/rec.dtl" -b --format=csv >"$tmp/rec.csv" || fail "replay to CSV"
"$DTLTOP" -r "$tmp/rec.dtl" --report "$tmp/r.html" 2>"$tmp/err" && [ ! -s "$tmp/err" ] && ok ||
	fail "report: $(cat "$tmp/err")"
python3 - "$tmp/r.html" >"$tmp/parse" 2>&1 <<'EOF' && ok || fail "HTML: $(cat "$tmp/parse")"
import sys
from html.parser import HTMLParser
VOID = {"meta", "br", "img", "hr", "input", "link", "area", "base", "col", "source", "wbr"}
class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.errors, self.svgs = [], [], 0
    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append(tag)
        self.svgs += tag == "svg"
    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else 'nothing'}> at {self.getpos()}")
        else:
            self.stack.pop()
p = P()
p.feed(open(sys.argv[1], encoding="utf-8").read())
p.close()
if p.errors or p.stack or p.svgs < 8:
    sys.exit(f"errors {p.errors[:3]}, unclosed {p.stack}, {p.svgs} svg")
EOF
# nothing from the network: the only URL is SVG's namespace
urls=$(grep -oE '(https?|ftp)://[^" )]*' "$tmp/r.html" | sort -u | tr '\n' ' ')
[ "$urls" = "http://www.w3.org/2000/svg " ] && ok || fail "URLs in the report: $urls"
grep -qE '<script|<link|@import|url\(http' "$tmp/r.html" && fail "the report loads something" || ok
# the partition's facts are the recorded lparcfg's, in the batch header's figures
want=$("$DTLTOP" -r "$tmp/rec.dtl" -b -n 1 | sed -n 's/^LPAR ent \([0-9.]*\)  shared \([a-z]*\).*  VPs \([0-9]*\)  pool \([0-9.]*\).*/shared \2, entitlement \1, \3 VPs, pool \4/p')
[ -n "$want" ] && grep -qF "<tr><td>Partition</td><td>$want</td>" "$tmp/r.html" && ok ||
	fail "the report's partition facts are not the recording's ($want): $(grep -o '<tr><td>Partition</td><td>[^<]*' "$tmp/r.html")"
# the series are the CSV's numbers, interval for interval (40 intervals: no downsampling)
for pair in "steal %:steal_pct" "idle % (ceded):idle_pct" "dispatches/s:dispatch_per_s" \
	"p99:lat_p99_us" "max:lat_max_us"; do
	series "$tmp/r.html" "${pair%%:*}" >"$tmp/s"
	all_col "$tmp/rec.csv" "${pair##*:}" >"$tmp/c"
	[ "$(wc -l <"$tmp/s")" -eq 40 ] && agree "$tmp/s" "$tmp/c" 0.006 && ok ||
		fail "series '${pair%%:*}' differs from the CSV's ${pair##*:}: $(paste "$tmp/s" "$tmp/c" | head -3 | tr '\n\t' '| ')"
done
series "$tmp/r.html" "H_CEDE" >"$tmp/s"
all_col "$tmp/rec.csv" preempt_H_CEDE >"$tmp/c"
agree "$tmp/s" "$tmp/c" 0.5 && ok || fail "H_CEDE per second differs from the CSV"
grep -q 'downsampled' "$tmp/r.html" && fail "40 intervals said to be downsampled" || ok
grep -q '<li>waiting: [0-9.]* % of wanted CPU time' "$tmp/r.html" && ok || fail "no judgement line"
# the worst VP named first is the one whose steal, by the CSV, was highest on average
"$DTLTOP" -r "$tmp/rec.dtl" -b --format=csv --group=vp >"$tmp/vp.csv"
worst=$(csv_cols "$tmp/vp.csv" vp,steal_pct | awk -F, 'NR > 1 && $1 ~ /^[0-9]+$/ { s[$1] += $2; n[$1]++ }
	END { for (v in s) if (!best || s[v] / n[v] > m) { m = s[v] / n[v]; best = v } print best }')
grep -q "the worst: VP $worst (" "$tmp/r.html" && ok || fail "worst VP by the CSV is $worst: $(grep -o 'the worst: [^<]*' "$tmp/r.html")"
grep -q 'VPs x SMT8 = 16 CPUs' "$tmp/r.html" && grep -q '>VP 1<' "$tmp/r.html" && ! grep -q '>VP 8<' "$tmp/r.html" && ok ||
	fail "the report does not group by VP"

# 2. more intervals than pixels: downsampled, and said so
"$DTLTOP" $SIM --seed 3 -d 0.1 -n 1000 --report "$tmp/d.html" || fail "long report"
n=$(series "$tmp/d.html" "steal %" | wc -l)
[ "$n" -lt 1000 ] && [ "$n" -ge 500 ] && grep -q 'downsampled: each point is the mean of 1-2 intervals' "$tmp/d.html" &&
	ok || fail "1000 intervals: $n points"

# 3. bad places and nothing to show
expect_error "report into a missing directory" "$tmp/none/r.html" --sim -n 1 --report "$tmp/none/r.html"
printf 'garbage' >"$tmp/bad.dtl"
"$DTLTOP" -r "$tmp/bad.dtl" --report "$tmp/b.html" >/dev/null 2>"$tmp/err"
[ $? -ne 0 ] && [ ! -e "$tmp/b.html" ] && grep -q "bad.dtl" "$tmp/err" && ok || fail "garbage recording: $(cat "$tmp/err")"

# 4. size: 1920 CPUs with no VP grouping, more intervals than pixels, stays under 2 MB
if [ "${REPORT_BIG:-1}" = 1 ]; then
	"$DTLTOP" --sim=vcpus=1920,smt=1,clock=virtual,load=0.01,busy=50 -n 900 --report "$tmp/big.html" ||
		fail "1920-CPU report"
	size=$(stat -c %s "$tmp/big.html")
	[ "$size" -le 2000000 ] && ok || fail "1920 CPUs x 900 intervals: $size bytes"
	grep -q 'the other</text>' "$tmp/big.html" && ok || fail "1920 rows not folded below the worst 20"
fi

# 5. a real browser: it draws the page (many colours, not blank) and logs no error of the page's
if [ "${REPORT_BROWSER:-1}" = 0 ]; then
	:	# the mutants' quick run
elif command -v "$CHROMIUM" >/dev/null 2>&1; then
	timeout -k 5 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--enable-logging=stderr --v=0 --screenshot="$tmp/r.png" --window-size=1400,2400 \
		"file://$tmp/r.html" >/dev/null 2>"$tmp/chromium.log"
	python3 - "$tmp/r.png" >"$tmp/png" 2>&1 <<'EOF' && ok || fail "screenshot: $(cat "$tmp/png")"
import struct, sys, zlib
d = open(sys.argv[1], "rb").read()
assert d[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, w = 8, b"", 0
while pos < len(d):
    n, t = struct.unpack(">I4s", d[pos:pos + 8])
    if t == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", d[pos + 8:pos + 18])
    if t == b"IDAT":
        idat += d[pos + 8:pos + 8 + n]
    pos += 12 + n
bpp = {2: 3, 6: 4}[ctype]
raw, stride, prev, colours = zlib.decompress(idat), w * bpp, bytearray(w * bpp), set()
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        p = a + b - c
        pred = [0, a, b, (a + b) // 2, a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else b if abs(p - b) <= abs(p - c) else c][f]
        line[i] = (line[i] + pred) & 255
    if y % 4 == 0:
        colours.update(bytes(line[i:i + 3]) for i in range(0, stride, bpp * 2))
    prev = line
print(f"{w}x{h}, {len(colours)} colours")
sys.exit(0 if len(colours) >= 50 else 1)
EOF
	# the page's own complaints (console messages, failed loads), not the headless shell's
	if grep -E 'CONSOLE|Failed to load|net::ERR' "$tmp/chromium.log" >"$tmp/errs"; then
		fail "the browser logged: $(head -3 "$tmp/errs")"
	else
		ok
	fi
else
	fail "no $CHROMIUM to look at the report with"
fi
finish
