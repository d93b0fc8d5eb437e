#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# /init of make interop-check (tests/interop/run.sh): upstream perf 7.3 against
# the driver in the rig. Each scenario records with the fake hypervisor
# writing a known number of entries, then has perf decode its own file
# (report -D, script). Files go to the host as base64 between BEGIN/END
# lines; the host compares them with the hypervisor's counts and dtltop's
# import. With UPSTREAM=1 in /etc/interop (make upstream-compare) only the
# count and AUX-full scenarios run.
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs dev /dev 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmp /tmp
cd /tmp
# the kernel's messages would cut into the base64: the host gets dmesg at the end
dmesg -n 1
. /fhv.sh
UPSTREAM=0
[ -r /etc/interop ] && . /etc/interop
# ship NAME FILE: the file, compressed, to the host
ship() {
	echo "BEGIN $1"
	gzip -c "$2" | base64
	echo "END $1"
}
# rec NAME 'perf options' 'hypervisor steps': record while the steps run
rec() {
	name=$1 opts=$2 steps=$3
	rm -f /tmp/$name.data
	# shellcheck disable=SC2086
	case $opts in
	*"-o -"*) perf record $opts -- sleep 60 >/tmp/$name.data 2>/tmp/$name.err & ;;
	*) perf record -o /tmp/$name.data $opts -- sleep 60 2>/tmp/$name.err & ;;
	esac
	pid=$!
	if ! wait_reg "$NCPU"; then
		echo "FAIL: $name: perf never registered the DTLs: $(cat /tmp/$name.err)"
		kill -INT $pid; wait $pid; return 1
	fi
	ctl reset
	eval "$steps"
	sleep 0.5		# the driver's last poll
	# perf's own Ctrl-C: it disables the events, flushes and writes the header
	kill -INT $pid
	wait $pid
	echo "RECORDED $name rc $? $(tr '\n' ' ' <$FHV/stats)"
	ship "$name.err" /tmp/$name.err
	ship "$name.data" /tmp/$name.data
	perf report -D -i /tmp/$name.data >/tmp/$name.dump 2>/tmp/$name.dump.err
	ship "$name.dump" /tmp/$name.dump
	ship "$name.dump.err" /tmp/$name.dump.err
	perf script -i /tmp/$name.data >/tmp/$name.script 2>/tmp/$name.script.err
	ship "$name.script" /tmp/$name.script
	ship "$name.script.err" /tmp/$name.script.err
}
# bursts N SIZE: N bursts of SIZE entries per CPU, 0.1 s apart (under the ring)
bursts() { for _ in $(seq "$1"); do ctl burst "$2"; sleep 0.1; done; }

echo "interop: $NCPU CPUs, $(uname -r), upstream driver $UPSTREAM"
ctl rate 0
perf --version
if [ "$UPSTREAM" = 0 ]; then
	perf list pmu >/tmp/list 2>&1
	ship list /tmp/list
fi
rec all '-a -e vpa_dtl/dtl_all/ -c 1000000' 'bursts 22 50'
rec lap '-a -e vpa_dtl/dtl_all/ -c 1000000' 'ctl burst 60; sleep 0.5; ctl burst 250; sleep 0.5'
rec small '-a -e vpa_dtl/dtl_all/ -c 1000000 -m ,8K' 'bursts 10 80'
# AUX full: a one-page AUX area, 80 entries every 5 ms, faster than perf drains it
rec full '-a -e vpa_dtl/dtl_all/ -c 1000000 -m ,4K' 'for _ in $(seq 40); do ctl burst 80; sleep 0.005; done'
if [ "$UPSTREAM" = 0 ]; then
	for m in cede preempt fault; do
		rec $m "-a -e vpa_dtl/dtl_$m/ -c 1000000" 'ctl burst 30'
	done
	rec freq '-a -e vpa_dtl/dtl_all/' 'bursts 2 20'
	rec mixed '-a -e cpu-clock,vpa_dtl/dtl_all/ -c 1000000' 'bursts 22 50; ctl burst 30'
	rec pipe '-a -e vpa_dtl/dtl_all/ -c 1000000 -o -' 'bursts 23 50'
	# who pays: a busy 'yes' pinned to CPU 1 under a steady stream of entries,
	# recorded with perf's switch records; perf's own listing of them
	# (--show-switch-events) is what check.sh attributes dtltop's import against
	taskset -c 1 yes >/dev/null &
	ypid=$!
	rec switches '-a --switch-events -e vpa_dtl/dtl_all/ -c 1000000' 'ctl rate 200; sleep 3; ctl rate 0'
	kill $ypid
	echo "BUSY switches yes $ypid"
	perf script --ns --show-switch-events -i /tmp/switches.data >/tmp/switches.sw 2>&1
	ship switches.sw /tmp/switches.sw
fi
if [ "$UPSTREAM" = 0 ]; then
	# kernel/powervm-test.sh as a tester runs it, the fake hypervisor logging
	# 300 entries a second a CPU: a 1 s poll laps the 85-entry DTL
	ctl rate 300
	sh /bin/powervm-test.sh -s 2 --crash-checks >/tmp/powervm-test.out 2>&1
	echo "POWERVM-TEST rc $?"
	ctl rate 0
	ship powervm-test.out /tmp/powervm-test.out
fi
dmesg >/tmp/dmesg
ship dmesg /tmp/dmesg
echo "interop: done"
poweroff -f
