#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Each upstream defect, put back into a copy of kernel/vpa-dtl.c the way the
# 6.18 driver has it: the harness must fail for every one. This proves the
# tests test something, defect by defect.
cd "$(dirname "$0")/../.." || exit 1
CC=${CC:-cc}
out=build/mutants
mkdir -p "$out"
fails=0

mutant() {
	local name=$1 expr=$2 src=$out/vpa-dtl-$1.c
	sed -z "$expr" kernel/vpa-dtl.c >"$src"
	if cmp -s "$src" kernel/vpa-dtl.c; then
		echo "FAIL: mutant '$name' did not apply"; fails=$((fails + 1)); return
	fi
	if ! $CC -std=gnu11 -D_GNU_SOURCE -DCONFIG_PPC_SPLPAR -g -w -pthread -O1 \
		-Itests/kernel/include -c -o "$out/$name.o" "$src" ||
	   ! $CC -std=gnu11 -D_GNU_SOURCE -g -w -pthread -Itests/kernel -Isrc -o "$out/$name" "$out/$name.o" \
		tests/kernel/fake_kernel.c tests/kernel/harness.c tests/kernel/test_vpa_dtl.c \
		tests/unit/main.c src/dtl/aux.c; then
		echo "FAIL: mutant '$name' does not build"; fails=$((fails + 1)); return
	fi
	if timeout -k 5 60 "$out/$name" >"$out/$name.log" 2>&1; then
		echo "FAIL: upstream defect '$name' survives the harness"; fails=$((fails + 1))
	else
		echo "ok: upstream defect '$name' is caught ($(grep -c '^FAIL' "$out/$name.log") tests fail)"
	fi
}

mutant aux-free-space 's/space = aux->overwrite ? aux->size : handle.size;/space = aux->size;/'
mutant alloc-under-spinlock 's/\tev = kzalloc_node(sizeof(\*ev), GFP_KERNEL, cpu_to_node(cpu));/\tfake_atomic++;\n&\n\tfake_atomic--;/'
mutant lock-leak-on-enomem 's/\tret = vpa_dtl_get_access();\n\tif (ret)\n\t\tgoto free_own;/\tret = vpa_dtl_get_access();\n\tif (ret)\n\t\tgoto free_own;\n\tif (!ev->own \&\& !kernel_dtl(cpu)) {\n\t\tkfree(ev);\n\t\treturn -ENOMEM;\n\t}/;s/\tif (!kernel_dtl(cpu)) {\n\t\tret = -ENOMEM;\n\t\tif (!dtl_cache)\n\t\t\tgoto free_ev;/\tif (!kernel_dtl(cpu)) {\n\t\tret = -ENOMEM;\n\t\tif (!dtl_cache) {\n\t\t\tvpa_dtl_get_access();\n\t\t\tgoto free_ev;\n\t\t}/'
mutant buffer-freed-in-del 's/\t\tunregister_dtl(get_hard_smp_processor_id(cpu));\n/&\t\tkmem_cache_free(dtl_cache, ev->own);\n\t\tev->own = NULL;\n/'
mutant buffer-leaked-if-never-added 's/\tif (ev->own)\n\t\tkmem_cache_free(dtl_cache, ev->own);\n\tkfree(ev);\n\tvpa_dtl_put_access/\tkfree(ev);\n\tvpa_dtl_put_access/'
mutant second-open-clobbers 's/\tev = kzalloc_node(sizeof(\*ev), GFP_KERNEL, cpu_to_node(cpu));\n\tif (!ev)\n\t\treturn -ENOMEM;/\tstatic struct vpa_dtl_event *percpu_ev[64];\n\tev = kzalloc_node(sizeof(*ev), GFP_KERNEL, cpu_to_node(cpu));\n\tif (!ev)\n\t\treturn -ENOMEM;\n\tif (percpu_ev[cpu] \&\& percpu_ev[cpu]->registered)\n\t\tpercpu_ev[cpu]->ring = ev->stage;\n\tpercpu_ev[cpu] = ev;/'
mutant task-mode-not-rejected 's/\tif (cpu < 0 || cpu >= nr_cpu_ids || (event->attach_state \& PERF_ATTACH_TASK))\n\t\treturn -EINVAL;\n//'
mutant no-start-stop 's/\t.start\t\t= vpa_dtl_event_start,\n\t.stop\t\t= vpa_dtl_event_stop,\n//'
mutant header-stack-leak 's/\t\t\t.tb_freq = tb_ticks_per_sec,\n\t\t};/\t\t\t.tb_freq = tb_ticks_per_sec,\n\t\t};\n\t\tmemset(tb.padded, 0xcc, sizeof(tb.padded));/'
mutant silent-ring-overflow 's/\t\tev->lost += cur - ev->last_idx - (N_DISPATCH_LOG - 1);\n//'
mutant silent-no-aux 's/\tif (!aux) {\n\t\tev->lost += n;/\tif (!aux) {/'
mutant no-partial-flag 's/\t\tperf_aux_output_flag(\&handle, PERF_AUX_FLAG_PARTIAL);\n//'
mutant no-flush-on-del 's/\tvpa_dtl_event_stop(event, PERF_EF_UPDATE);\n\tif (!ev->registered)/\tvpa_dtl_event_stop(event, 0);\n\tif (!ev->registered)/'
mutant no-copy-recheck 's/\t\t\*first = min_t(u64, n, now - N_DISPATCH_LOG + 1 - from);/\t\t*first = 0;/'
mutant native-dtl-clobbered 's/\tif (!kernel_dtl(cpu)) {\n\t\tret = -ENOMEM;/\tif (1) {\n\t\tret = -ENOMEM;/'
mutant only-upstream-masks 's/\tif (!config || (config \& ~(u64)DTL_LOG_ALL))/\tif (config != 1 \&\& config != 2 \&\& config != 4 \&\& config != 7)/'
mutant lock-held-by-caller 's/\tif (!vpa_dtl_users \&\& !lockd_call(LOCKD_TAKE))/\tif (!vpa_dtl_users \&\& !down_write_trylock(\&dtl_access_lock))/;s/\t\tlockd_call(LOCKD_DROP);/\t\tup_write(\&dtl_access_lock);/'

[ "$fails" -eq 0 ] && echo "mutants.sh: every upstream defect is caught" || echo "mutants.sh: $fails failed"
[ "$fails" -eq 0 ]
