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

# Not here: 5.12, dtl_access_lock held by the opening task, which the driver
# keeps as upstream has it (kernel/upstream/fixes/cover-letter.txt: a fix
# belongs to all three users of the lock; rig_reports sets its DEBUG_RWSEMS
# warning aside on that lock only).
# 5.2: a sleeping allocation where perf calls add (IRQs off)
mutant sleeping-alloc-in-add 'sleeping function called from invalid context' \
	's/\tstruct vpa_dtl \*dtl = event->pmu_private;\n\n\tif (!dtl->own) {\n/\tstruct vpa_dtl *dtl = event->pmu_private;\n\n\tkfree(kzalloc(64, GFP_KERNEL));\n\tif (!dtl->own) {\n/'
# 5.9: a lapped ring's entries vanish without a count
mutant silent-ring-overflow 'FAIL: counts' \
	's/\t\tdtl->lost += cur_idx - N_DISPATCH_LOG + 1 - last_idx;\n//'
# 5.4: the buffer freed in del, used again on the next add
mutant buffer-freed-in-del 'FAIL: cycles_leave_nothing|Oops|BUG' \
	's/\tunregister_dtl(hwcpu);\n/&\tkmem_cache_free(dtl_cache, dtl->own);\n\tdtl->own = NULL;\n/'
# 5.1: AUX free space ignored: writes run over what the reader has not read
mutant ignores-aux-free-space 'FAIL: aux_full_recovers' \
	's/\tspace = aux_buf->snapshot ? aux_buf->size : vpa_ctx->handle.size;\n/\tspace = aux_buf->size;\n/'

# put the real driver back into the test tree
tests/qemu/kernel.sh >/dev/null 2>&1
[ "$fails" -eq 0 ] && echo "qemu mutants: every defect is caught" || echo "qemu mutants: $fails failed"
[ "$fails" -eq 0 ]
