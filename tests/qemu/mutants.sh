#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Upstream defects put back into a copy of kernel/vpa-dtl.c, each run through
# the whole QEMU test: every one must fail it, and for its own reason (the
# checker or scenario named). Proves the real-kernel test tests something.
# About 2 minutes per mutant; not part of make check. ONLY="a b" runs some;
# KVER=6.12 runs them on that kernel (7.3 by default).
cd "$(dirname "$0")/../.." || exit 1
out=build/qemu/mutants
mkdir -p "$out"
fails=0

mutant() {
	local name=$1 want=$2 expr=$3 src=$out/vpa-dtl-$1.c
	[ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $name "* ]] && return
	sed -z "$expr" kernel/vpa-dtl.c >"$src"
	if cmp -s "$src" kernel/vpa-dtl.c; then
		echo "FAIL: mutant '$name' did not apply"; fails=$((fails + 1)); return
	fi
	if VPA_DTL_SRC=$src tests/qemu/run.sh >"$out/$name.log" 2>&1; then
		echo "FAIL: upstream defect '$name' survives the QEMU test"; fails=$((fails + 1))
	elif ! grep -qE "$want" "$out/$name.log" "build/qemu/console-${KVER:-7.3}.log.txt"; then
		echo "FAIL: '$name' failed, but not with /$want/ (see $out/$name.log)"; fails=$((fails + 1))
	else
		echo "ok: upstream defect '$name' is caught: $(grep -hE "$want" "$out/$name.log" "build/qemu/console-${KVER:-7.3}.log.txt" | head -1)"
	fi
}

# Not here: 5.12, dtl_access_lock held by the opening task. powerpc 6.12 has no
# lockdep_sys_exit(), and a close by a forked child (cycle handoff) drew no
# report from lockdep or DEBUG_RWSEMS in our runs; tests/kernel/mutants.sh
# catches it in the harness, whose locks record their owner task.
# 5.2: a sleeping allocation where perf calls add (IRQs off)
mutant sleeping-alloc-in-add 'sleeping function called from invalid context' \
	's/\tint cpu = event->cpu;\n\tlong rc;\n/&\n\tkfree(kzalloc(64, GFP_KERNEL));\n/'
# 5.9: a lapped ring's entries vanish without a count
mutant silent-ring-overflow 'FAIL: counts' \
	's/\t\tev->lost += cur - ev->last_idx - (N_DISPATCH_LOG - 1);\n//'
# 5.4: the buffer freed in del, used again on the next add
mutant buffer-freed-in-del 'FAIL: cycles_leave_nothing|Oops|BUG' \
	's/\t\tunregister_dtl(get_hard_smp_processor_id(cpu));\n/&\t\tkmem_cache_free(dtl_cache, ev->own);\n\t\tev->own = NULL;\n/'
# 5.1: AUX free space ignored: writes run over what the reader has not read
mutant ignores-aux-free-space 'FAIL: aux_full_recovers' \
	's/\tspace = aux->overwrite ? aux->size : handle.size;\n/\tspace = aux->size;\n/'

# put the real driver back into the test tree
tests/qemu/kernel.sh >/dev/null 2>&1
[ "$fails" -eq 0 ] && echo "qemu mutants: every defect is caught" || echo "qemu mutants: $fails failed"
[ "$fails" -eq 0 ]
