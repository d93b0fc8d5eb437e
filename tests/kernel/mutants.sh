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

mutant aux-free-space 's/space = aux_buf->snapshot ? aux_buf->size : vpa_ctx->handle.size;/space = aux_buf->size;/'
mutant alloc-under-spinlock 's/\tdtl = kzalloc_node(sizeof(\*dtl), GFP_KERNEL, cpu_to_node(cpu));/\tfake_atomic++;\n&\n\tfake_atomic--;/'
mutant lock-leak-on-enomem 's/\tif (!dtl) {\n\t\tvpa_dtl_reset_global_refc(event);\n\t\treturn -ENOMEM;/\tif (!dtl) {\n\t\treturn -ENOMEM;/'
mutant buffer-freed-in-del 's/\tunregister_dtl(hwcpu);\n/&\tkmem_cache_free(dtl_cache, dtl->own);\n\tdtl->own = NULL;\n/'
mutant buffer-leaked-if-never-added 's/\tif (dtl->own)\n\t\tkmem_cache_free(dtl_cache, dtl->own);\n\tkfree(dtl);/\tkfree(dtl);/'
mutant second-open-clobbers 's/\tdtl = kzalloc_node(sizeof(\*dtl), GFP_KERNEL, cpu_to_node(cpu));\n\tif (!dtl)\n\t\treturn NULL;/\tstatic struct vpa_dtl *percpu_dtl[64];\n\tdtl = kzalloc_node(sizeof(*dtl), GFP_KERNEL, cpu_to_node(cpu));\n\tif (!dtl)\n\t\treturn NULL;\n\tif (percpu_dtl[cpu] \&\& percpu_dtl[cpu]->registered)\n\t\tpercpu_dtl[cpu]->buf = dtl->stage;\n\tpercpu_dtl[cpu] = dtl;/'
mutant task-mode-not-rejected 's/\tif (event->cpu < 0 || event->cpu >= nr_cpu_ids ||\n\t    (event->attach_state \& PERF_ATTACH_TASK))\n\t\treturn -EINVAL;\n//'
mutant no-start-stop 's/\t.start       = vpa_dtl_event_start,\n\t.stop        = vpa_dtl_event_stop,\n//'
mutant header-stack-leak 's/\t\tboottb_freq.tb_freq = tb_ticks_per_sec;\n/&\t\tmemset(boottb_freq.padded, 0xcc, sizeof(boottb_freq.padded));\n/'
mutant silent-ring-overflow 's/\t\tdtl->lost += cur_idx - N_DISPATCH_LOG + 1 - last_idx;\n//'
mutant silent-no-aux 's/\t\tdtl->lost += n;\n//'
mutant no-partial-flag 's/\t\tperf_aux_output_flag(\&vpa_ctx->handle, PERF_AUX_FLAG_PARTIAL);\n//'
mutant no-flush-on-del 's/\tvpa_dtl_event_stop(event, PERF_EF_UPDATE);\n\tif (!dtl->registered)/\tvpa_dtl_event_stop(event, 0);\n\tif (!dtl->registered)/'
mutant no-copy-recheck 's/\t\t\*first = min_t(u64, n, now - N_DISPATCH_LOG + 1 - from);/\t\t*first = 0;/'
mutant native-dtl-clobbered 's/\tif (kernel_dtl(cpu))\n\t\treturn dtl;\n//'
mutant only-upstream-masks 's/\tif (!event->attr.config || (event->attr.config \& ~(u64)DTL_LOG_ALL))/\tif (event->attr.config != 1 \&\& event->attr.config != 2 \&\& event->attr.config != 4 \&\& event->attr.config != 7)/'
mutant no-restart-on-index-reset 's/\tif (cur_idx < last_idx)\n\t\tlast_idx = 0;\n//'

[ "$fails" -eq 0 ] && echo "mutants.sh: every upstream defect is caught" || echo "mutants.sh: $fails failed"
[ "$fails" -eq 0 ]
