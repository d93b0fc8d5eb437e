#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The exporter under load, as a fleet would load it: 50 scrapers at once for
10 s against 1920 simulated CPUs, plus a client that connects and says
nothing and one that sends 1 MiB of headers. Every response must be whole
and parse; capture must keep its pace (no interval late, nothing lost); the
exporter's memory must stay bounded. Usage: exporter-load.py DTLTOP"""
import http.client
import os
import re
import socket
import subprocess
import sys
import threading
import time

DTLTOP = sys.argv[1] if len(sys.argv) > 1 else "./dtltop"
SCRAPERS, SECONDS, INTERVALS = 50, 10, 14
RSS_LIMIT_KIB = 256 * 1024
# a sample or a metadata line, nothing else (both formats)
LINE = re.compile(rb"(?:#[^\n]*|[a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^}\n]*\})? "
                  rb"(?:-?[0-9][0-9.e+-]*|\+Inf|NaN))\n")
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, file=sys.stderr)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def parses(body, om):
    """Every line a sample or metadata; OpenMetrics ends with # EOF."""
    if not body.endswith(b"\n") or (om and not body.endswith(b"# EOF\n")):
        return False
    pos = 0
    while pos < len(body):
        m = LINE.match(body, pos)
        if not m:
            return False
        pos = m.end()
    return True


def intervals_of(body):
    m = re.search(rb"^dtl_intervals_total (\d+)$", body, re.M)
    return int(m.group(1)) if m else -1


def scraper(port, n, stop, stats):
    om = n % 2 == 0
    hdr = {"Accept": "application/openmetrics-text;version=1.0.0"} if om else {}
    # each scraper a machine of the fleet: its own address (all of 127/8 is loopback),
    # as the exporter allows one address only 16 of its 128 connections
    src = ("127.0.%d.%d" % (1 + n // 200, 2 + n % 200), 0)

    def connect():
        return http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=src)
    conn = connect()
    reused = False
    while not stop.is_set():
        sent = time.monotonic()
        try:
            conn.request("GET", "/metrics", headers=hdr)
            r = conn.getresponse()
            body = r.read()
            length = int(r.getheader("Content-Length", "-1"))
            reused = True
        except http.client.RemoteDisconnected:
            # a keep-alive connection the server closed as idle (5 s) just as this
            # starved thread reused it: HTTP lets a client retry that, and so do we
            conn.close()
            conn = connect()
            if not reused:
                stats["errors"].append("closed a fresh connection without response")
            reused = False
            continue
        except (OSError, http.client.HTTPException) as e:
            stats["errors"].append(repr(e))
            conn.close()
            conn = connect()
            reused = False
            continue
        if r.status == 503:     # before the first interval's end: nothing to say yet
            time.sleep(0.1)
            continue
        ok = r.status == 200 and length == len(body) and parses(body, om)
        with stats["lock"]:
            stats["n"] += 1
            if not ok:
                stats["bad"] += 1
            stats["seen"].append((sent, time.monotonic(), intervals_of(body)))
    conn.close()


def silent_client(port, out):
    """Connects, sends nothing: the exporter must hang up on its own."""
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(20)
    t0 = time.monotonic()
    try:
        out["silent_eof"] = s.recv(1) == b""
    except OSError:
        out["silent_eof"] = True       # reset counts as cut off too
    out["silent_s"] = time.monotonic() - t0
    s.close()


def big_client(port, out):
    """1 MiB of headers: answered with an error and closed, never read whole."""
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(20)
    sent = 0
    try:
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
        chunk = b"X-Big: " + b"a" * 1016 + b"\r\n"
        for _ in range(1024):
            s.sendall(chunk)
            sent += len(chunk)
        s.sendall(b"\r\n")
    except OSError:
        pass
    try:
        reply = s.recv(256)
    except OSError:
        reply = b""
    out["big_reply"] = reply.split(b"\r\n")[0].decode("latin-1")
    out["big_sent"] = sent
    s.close()


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def main():
    port = free_port()
    t0 = time.monotonic()
    p = subprocess.Popen([DTLTOP, "--sim=vcpus=1920", "--seed", "7", "-d", "1",
                          "-n", str(INTERVALS), "--listen", f"127.0.0.1:{port}"],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port)).close()
            break
        except OSError:
            time.sleep(0.05)
    stats = {"lock": threading.Lock(), "n": 0, "bad": 0, "seen": [], "errors": []}
    stop, side = threading.Event(), {}
    threads = [threading.Thread(target=scraper, args=(port, i, stop, stats))
               for i in range(SCRAPERS)]
    threads += [threading.Thread(target=silent_client, args=(port, side)),
                threading.Thread(target=big_client, args=(port, side))]
    for t in threads:
        t.start()
    peak, end = 0, time.monotonic() + SECONDS
    while time.monotonic() < end:
        peak = max(peak, rss_kib(p.pid))
        time.sleep(0.2)
    stop.set()
    # a final scrape of the totals, before capture ends
    final = b""
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        c.request("GET", "/metrics")
        final = c.getresponse().read()
    except (OSError, http.client.HTTPException) as e:
        fail(f"final scrape: {e!r}")
    for t in threads:
        t.join(30)
    err = p.communicate(timeout=60)[1].decode(errors="replace")
    wall = time.monotonic() - t0

    print(f"exporter-load: {stats['n']} scrapes by {SCRAPERS} clients in {SECONDS} s "
          f"({len(final)} bytes each), peak RSS {peak // 1024} MiB, "
          f"{INTERVALS} intervals in {wall:.2f} s")
    if p.returncode != 0:
        fail(f"dtltop exited {p.returncode}: {err.strip()}")
    if stats["bad"] or stats["errors"]:
        fail(f"{stats['bad']} responses incomplete or unparseable, "
             f"{len(stats['errors'])} errors: {stats['errors'][:3]}")
    if stats["n"] < SCRAPERS:
        fail(f"only {stats['n']} scrapes")
    if peak > RSS_LIMIT_KIB:
        fail(f"peak RSS {peak} KiB over {RSS_LIMIT_KIB}")
    # capture kept its pace: the last interval ended on time, the counters moved each second
    if wall > INTERVALS + 2.5:
        fail(f"{INTERVALS} intervals took {wall:.2f} s: capture fell behind")
    # The exposition a scrape gets is the one current when the server handles it: no
    # older than at the request's sending, no newer than at the response's arrival.
    # So between the first arrival and the last sending, capture at its 1 s pace must
    # have moved the counter by that span, less one for the phase. A response's own
    # age (2-3 s for 3.7 MB to a starved Python thread) is not capture falling behind.
    seen = stats["seen"]
    if seen:
        first = min(seen, key=lambda s: s[1])
        last = max(seen, key=lambda s: s[0])
        span = last[0] - first[1]
        moved = last[2] - first[2]
        print(f"exporter-load: counter moved {first[2]} -> {last[2]} in the {span:.1f} s "
              f"from the first response to the last request")
        if span < SECONDS / 3:
            fail(f"scrapes too slow to judge the pace: {span:.1f} s between the first "
                 f"response and the last request")
        elif moved < span - 2:
            fail(f"intervals went {first[2]} -> {last[2]} in {span:.1f} s of scraping")
    lost = sum(float(v) for v in re.findall(rb"^dtl_lost_entries_total\{[^}]*\} (\S+)$", final, re.M))
    if not final or lost:
        fail(f"lost entries under load: {lost}")
    if not side.get("silent_eof") or side.get("silent_s", 99) > 8:
        fail(f"a silent client was kept {side.get('silent_s')} s (eof {side.get('silent_eof')})")
    # socket buffers may take it all before the server has read 32 KiB: what counts is
    # the answer (a 4xx, or the connection reset) and that the exporter went on serving
    if not (side.get("big_reply", "").startswith("HTTP/1.1 4") or side.get("big_reply") == ""):
        fail(f"1 MiB of headers: sent {side.get('big_sent')}, reply '{side.get('big_reply')}'")
    print(f"exporter-load: silent client cut off after {side.get('silent_s', 0):.1f} s; "
          f"1 MiB of headers answered '{side.get('big_reply')}' after {side.get('big_sent')} bytes")
    print(f"exporter-load: {'FAILED' if failures else 'passed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
