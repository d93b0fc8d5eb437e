# SPDX-License-Identifier: GPL-2.0-only
# Sourced by both /init scripts of the rig (tests/qemu/init.sh and
# tests/interop/init.sh), as /fhv.sh: the fake hypervisor's debugfs controls.
FHV=/sys/kernel/debug/fake_hv_dtl
NCPU=$(grep -c '^processor' /proc/cpuinfo)
ctl() { echo "$*" >$FHV/ctl; }
# stat CPU FIELD: the fake hypervisor's counter
stat() { awk -v c="cpu$1" -v f="$2" '$1 == c { for (i = 2; i < NF; i += 2) if ($i == f) print $(i + 1) }' $FHV/stats; }
# wait_reg N: until N CPUs have a DTL registered (10 s)
wait_reg() {
	for _ in $(seq 100); do
		[ "$(grep -c 'registered 1' $FHV/stats)" -ge "$1" ] && return 0
		sleep 0.1
	done
	return 1
}
