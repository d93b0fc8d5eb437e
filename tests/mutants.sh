#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Mutation testing: small realistic bugs put into a copy of the tree one at a
# time; the fast tests (unit, the verdict's grid, man, cli, truth, report,
# exporter, whopays, triage, tui: the quick and the most telling first, as
# make check-fast runs them, without the sanitizer builds) must fail on
# each. Prints each survivor and the score; exits 1 if any survives.
#
#   tests/mutants.sh [PATTERN]       (make mutants) the hand-made list below,
#                                    or those whose description matches
#   tests/mutants.sh --diff BASE [MAX [SEED]]
#                                    (make mutants-diff) at most MAX (40)
#                                    mutants that tests/mutgen.py makes of the
#                                    lines changed since BASE, sampled with
#                                    SEED; each runs against the fast tests
#                                    that execute its line (gcov, measured
#                                    once per run), and one that does not
#                                    build is dropped, not counted
#
# A line of the list is: file ^ text as it is (it must occur exactly once) ^
# text of the bug ^ what a user would see, ending "(by TEST)" where a test late
# in the order is the one meant to kill it: that one then runs first. '\n' and '\t' stand for a newline
# and a tab; no text may hold a '^'. mutgen.py's lines are file:LINE ^ the
# line ^ the line mutated ^ the operator. The reader's dtl_sanitize() of a
# recording's header is not in the list: the writer sanitises too now, so only
# a hand-built chunk could show it.
set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
B=$PWD/build/mutants
CC=${CC:-cc}
FLAGS="-O1 -g -std=c11 -D_GNU_SOURCE -w ${MUT_CFLAGS:-}"
LIBS=${MUT_LIBS:?run through make mutants}
ONLY="" DIFF=""
if [ "${1:-}" = --diff ]; then
	DIFF=${2:?--diff BASE [MAX [SEED]]}
	MUTANTS=$(python3 tests/mutgen.py "$DIFF" "${3:-40}" "${4:-1}") || exit 1
else
	ONLY=${1:-}
	MUTANTS=$(cat <<'EOF'
src/view/report/scale.c ^ k ? sum / (double)k : NAN ^ k ? sum / (double)(i1 - i0) : NAN ^ report: an unknown interval counted as zero
src/view/report/html.c ^ \t\treturn mx < my ? 1 : -1; ^ \t\treturn mx < my ? -1 : 1; ^ report: the best rows shown as the worst (by report)
src/view/report/collect.c ^ r->s[RP_P99][i] = dtl && a->dispatches ? a->lat_p99_us : NAN; ^ r->s[RP_P99][i] = dtl && a->dispatches ? a->lat_p50_us : NAN; ^ report: p99 drawn from p50 (by report)
src/view/metrics.c ^ \t\t\tcum += h[b];\n\t\tfprintf ^ \t\t\tcum = h[b];\n\t\tfprintf ^ exposition: latency buckets not cumulative
src/stats/counts.h ^ \tc->e2d_raw += r->enqueue_to_dispatch; ^ \tc->e2d_raw += r->ready_to_enqueue; ^ exposition: a wait phase from the wrong field
src/view/metrics.c ^ \t\tif (c[k].kind == kind) ^ \t\tif (c[k].kind == DTL_COL_PREEMPT) ^ exposition: dispatches counted under the preempt reasons
src/view/metrics.c ^ if (om && unit) ^ if (unit) ^ exposition: UNIT lines break the text format
src/stats/cpu/add.c ^ c->bad += r->timebase < v->last_tb; ^ c->bad += r->timebase <= v->last_tb; ^ an equal timebase counted as bad
src/stats/counts.h ^ c->involuntary += (DTL_PREEMPT_INVOLUNTARY_MASK >> p) & 1; ^ c->involuntary += (DTL_PREEMPT_FAULT_MASK >> p) & 1; ^ involuntary counts only faults
src/stats/cpu/add.c ^ s->v[cpu].cur.lost += n; ^ s->v[cpu].cur.lost = n; ^ several lost reports: only the last
src/stats/counts.h ^ \tc->steal_ticks += steal; ^ \tc->steal_ticks += r->enqueue_to_dispatch; ^ steal without ready_to_enqueue
src/stats/counts.h ^ c->hist[dtl_hist__bucket(r->enqueue_to_dispatch)]++; ^ c->hist[dtl_hist__bucket(r->ready_to_enqueue)]++; ^ latency from the wrong field
src/stats/counts.c ^ (q * (double)c->dispatches + 0.999999) ^ (q * (double)c->dispatches + 0.5) ^ percentile rank rounded, not ceiled
src/stats/counts.c ^ return v < c->lat_max ? v : c->lat_max; ^ return v; ^ percentile above the maximum
src/stats/cpu/add.c ^ moved = v->last_proc != UINT32_MAX && v->last_proc != r->processor_id; ^ moved = v->last_proc != r->processor_id; ^ the first dispatch counted as a migration
src/stats/cpu/add.c ^ c->migr_core += moved & ^ c->migr_core += 0 & ^ every migration called another core
src/stats/cpu/interval.c ^ make_row(s, sum, (int)h, interval_s, span, mask, n, 1, &s->vp_last[h]); ^ make_row(s, sum, (int)h, interval_s, span, mask, 1, 1, &s->vp_last[h]); ^ a VP's steal % not of its threads' time (by cli)
src/platform/sys.c ^ f->disp_per_s = (double)(b->dispatches - a->dispatches) / 2.0 / ^ f->disp_per_s = (double)(b->dispatches - a->dispatches) / 1.0 / ^ lparcfg dispatches counted twice per cycle
src/platform/sys.c ^ f->app = (double)(b->pool_idle_time - a->pool_idle_time) / dtb; ^ f->app = (double)(b->pool_idle_time - a->pool_idle_time) / (double)tb_freq; ^ app not per elapsed timebase
src/loop/loop.c ^ \tlpar_row(l);\n ^  ^ physc never reaches the CSV
src/stats/counts.c ^ \tto->lost += c->lost;\n ^  ^ since-start totals drop lost entries
src/stats/counts.c ^ row->preempt_ratio = c->dispatches ? (double)c->involuntary ^ row->preempt_ratio = c->dispatches ? (double)c->faults ^ INVOL% shows faults
src/stats/counts.c ^ * 1e6 *\n\t\t\t (nr_vcpus ? nr_vcpus : 1); ^ * 1e6; ^ partition steal % not divided by vCPUs
src/stats/cpu/add.c ^ \tv->carry_steal += d - g; ^ \tv->carry_steal += d; ^ totals count steal from before the start
src/stats/cpu/interval.c ^ \tif (s->seen_tb > b)\n\t\tb = s->seen_tb;\n ^  ^ late entries do not move the interval's end
src/stats/cpu/interval.c ^ \ts->cur_mask = s->mask; ^ \ts->cur_mask = DTL_MASK_ALL; ^ a narrower mask not carried into the next interval
src/stats/cpu/rows.c ^ (unsigned int)cpu >= s->nr_cpus ||\n\t\t\t\t   !s->v[cpu].online)) ^ (unsigned int)cpu >= s->nr_cpus)) ^ offline CPUs still get rows
src/stats/counts.c ^ \tto->gaps += c->gaps;\n ^  ^ gaps never reach the partition row
src/dtl/counts.h ^ return 8 + (e - 3) * 8 + ((ticks >> (e - 3)) & 7); ^ return 8 + (e - 3) * 8 + ((ticks >> (e - 2)) & 7); ^ histogram sub-buckets wrong
src/stats/cpu/add.c ^ \t\tsplit_wait(v, r, a, o); ^ \t\t(void)o; ^ waits not split at interval edges
src/dtl/dtl.c ^ case 2: case 3: case 7: case 8: ^ case 2: case 3: case 7: ^ hcall_adjunct maps to the preempt bit
src/dtl/dtl.c ^ put_be(p + 8, r->ready_to_enqueue, 4); ^ put_be(p + 8, r->waiting_to_ready, 4); ^ encoder writes the wrong wait
src/dtl/dtl.c ^ if (n == strlen(mask_words[i].word) && ^ if (n <= strlen(mask_words[i].word) && ^ -e accepts a prefix (-e c)
src/dtl/aux.c ^ if (head < tail || head - tail > size) { ^ if (head < tail || head - tail >= size) { ^ an exactly full main ring taken for garbage
src/dtl/aux.c ^ news->partial += !!(flags & AUX_FLAG_PARTIAL); ^ news->partial += !!(flags & AUX_FLAG_TRUNCATED); ^ PARTIAL read as TRUNCATED
src/dtl/aux.c ^ news->collision += !!(flags & AUX_FLAG_COLLISION); ^ news->collision += 0; ^ COLLISION ignored
src/dtl/aux.c ^ if (!a->size || head < a->pos || head - a->pos > a->size) { ^ if (!a->size || head < a->pos || head - a->pos >= a->size) { ^ an exactly full AUX ring dropped as junk
src/format/perfdata.c ^ pd->partial += (flags & AUX_PARTIAL) != 0; ^ pd->partial += (flags & AUX_TRUNCATED) != 0; ^ perf.data PARTIAL not counted
src/format/perfdata.c ^ while (s->have_next && dtl__be64(s->next + 16) < edge) { ^ while (s->have_next && dtl__be64(s->next + 16) <= edge) { ^ an entry on the edge in the earlier interval
src/format/perfdata.c ^ (!s->have_next || s->gap[s->gi] <= s->next_pos) ^ (!s->have_next || s->gap[s->gi] < s->next_pos) ^ a gap one interval late
src/format/perfdata.c ^ s = stream_of(pd, le32(r + 40)); ^ s = stream_of(pd, le32(r + 32)); ^ entries filed by mmap index, not CPU
src/format/perfdata.c ^ for (size_t l = 32; l <= 64; l += 16) ^ for (size_t l = 32; l < 64; l += 16) ^ 64-byte wrap junk misparsed
src/format/perfdata.c ^ pd->mask = (unsigned int)le64(a + 8) & DTL_MASK_ALL; ^ pd->mask = DTL_MASK_ALL; ^ a masked perf.data shown as complete
src/format/perfdata.c ^ double ns = (double)(t0 - pd->boot_tb) ^ double ns = (double)(t0) ^ perf.data times not from boot
src/format/perfdata.c ^ \t\t\t\tgaps += passed_gaps(s);\n\t\t\t\tmemcpy ^ \t\t\t\tmemcpy ^ gaps inside an interval's entries dropped
src/format/v1.c ^ \t\ttb = prev + dtl__be64(e + 16); ^ \t\ttb = dtl__be64(e + 16); ^ replayed timebases are deltas (by cli)
src/format/recmeta.c ^ \t\t\tm->start_tb = strtoull(v, NULL, 10); ^ \t\t\tm->start_tb = 0; ^ a recording's start timebase ignored
src/format/recread.c ^ ev->end_tb = body >= 24 ? get64(p + 16) : 0; ^ ev->end_tb = 0; ^ a recording's interval ends ignored
src/format/recread.c ^ \t\t\tr->complete = true; ^ \t\t\tr->complete = false; ^ every whole recording called cut
src/format/recwrite.c ^ \t\tif (err && !w->job_err)\n\t\t\tw->job_err = err;\n ^  ^ the compressor thread's write errors swallowed
src/source/replay/replay.c ^ \t\tp->released += p->group; ^ \t\tp->released++; ^ replay -d does not group (by cli)
src/source/replay/replay.c ^ \t\tp->interval_s += ev->interval_s; ^ \t\tp->interval_s = ev->interval_s; ^ grouped intervals keep one length (by truth)
src/source/replay/replay.c ^ if (ev.cpu >= src->nr_cpus || !dtl_cpuset__has(&src->cpus, ev.cpu))\n\t\t\t\tcontinue;\n\t\t\tmemset(c, 0, sizeof(*c));\n\t\t\tc->cpu = ev.cpu;\n\t\t\tc->data ^ if (ev.cpu >= src->nr_cpus)\n\t\t\t\tcontinue;\n\t\t\tmemset(c, 0, sizeof(*c));\n\t\t\tc->cpu = ev.cpu;\n\t\t\tc->data ^ replay -C shows and writes every CPU (by truth)
src/source/replay/replay.c ^ \t\t\tsrc->mask = (unsigned int)ev.value & DTL_MASK_ALL; ^ \t\t\t; ^ a recorded mask change ignored (by tui)
src/source/replay/replay.c ^ \t\t\tmemset(c, 0, sizeof(*c));\n\t\t\treturn 1; ^ \t\t\tcontinue; ^ a mask changed and back within an interval lost in replay (by tui)
src/source/replay/replay.c ^ c->gaps = ev.kind == DTL_REC_GAP ? ev.value : 0; ^ c->gaps = 0; ^ recorded gaps dropped (by truth)
src/view/columns.c ^ r->cpu == DTL_ROW_SELECTED ? "selected" : NULL; ^ r->cpu == DTL_ROW_SELECTED ? "all" : NULL; ^ -C aggregate labelled all (by cli)
src/view/table.c ^ \treturn x->cpu - y->cpu; ^ \treturn (x->cpu - y->cpu) * sort_dir; ^ ties follow the sort direction
src/view/columns.c ^ snprintf(buf, len, "0x%x", r->mask); ^ snprintf(buf, len, "%u", r->mask); ^ mask column in decimal (by cli)
src/view/columns.c ^ snprintf(buf, len, "%*s", c->width, "gap"); ^ snprintf(buf, len, "%*s", c->width, "0"); ^ an unknown loss shown as 0 (by truth)
src/opts/table.c ^ if (*v < 0.01) { ^ if (*v <= 0.01) { ^ -d 0.01 refused
src/opts/parse.c ^ if (o->have_mask && replay) { ^ if (0) { ^ -e silently ignored by a replay
src/loop/loop.c ^ \tif (!l->paused) {\n\t\tl->fresh = fresh; ^ \tif (1) {\n\t\tl->fresh = fresh; ^ pause does not freeze the rows (by tui)
src/loop/loop.c ^ \t\tsync_mask(l);\n\t\tloop_rec_chunk(l, &c); ^ \t\tloop_rec_chunk(l, &c); ^ a replay's mask changes reach the stats late (by tui)
src/loop/loop.c ^ \tif (need > 0 && need < cap)\n\t\tcap = need; ^ \t(void)need; ^ a debugfs ring laps while a script sleeps to the interval's end
src/loop/loop.c ^ int cap = v->ops->wait ? POLL_MS : IDLE_MS, ^ int cap = POLL_MS, ^ an idle exporter wakes 50 times a second (by exporter)
src/loop/pace.c ^ l->o.interval_s = dtl_source__recorded_interval(l->src) / (speed > 0 ? speed : 1e6); ^ l->o.interval_s = dtl_source__recorded_interval(l->src); ^ --speed ignored by a replay
src/main.c ^ SIGTERM, SIGHUP, SIGUSR1 ^ SIGTERM, SIGUSR1 ^ SIGHUP loses the -o output (by truth)
src/platform/sys.c ^ if (tb && !dtl_tb_freq__ok(tb)) { ^ if (0) { ^ a 1 Hz timebase accepted (by truth)
src/platform/sys.c ^ if (fstat(fd, &st) || !S_ISREG(st.st_mode)) { ^ if (fstat(fd, &st)) { ^ a device under --root is read as a file (by truth)
src/stats/cpu/add.c ^ r->processor_id) >> core_shift == 0); ^ r->processor_id) >> 4 == 0); ^ SMT8: a move to the adjacent core called a move within the core
src/stats/cpu/interval.c ^ \ts->total_s = 0;\n ^  ^ after r, since-start rates over the time before the reset too
src/loop/loop.c ^ dtl_sys__lpar_figs(&l->lparcfg_prev, &l->lparcfg, tb_freq, &l->lpar); ^ dtl_sys__lpar_figs(&l->lparcfg0, &l->lparcfg, tb_freq, &l->lpar); ^ an interval's physc is the since-start mean
src/loop/loop.c ^ \tif (l->table.selected)\n\t\treturn; ^ \tif (0)\n\t\treturn; ^ -C: the selected row carries the partition's physc
src/view/metrics.c ^ if (*s == '\\' || *s == '"') ^ if (*s == '\\') ^ exposition: a quote in a label value not escaped
src/view/metrics.c ^ g->entc_pct / 100); ^ g->entc_pct); ^ exposition: entitlement used as a percentage, not a ratio
src/loop/smooth.c ^ || !loop_interactive(l) || ^ || ^ --smooth smooths batch output too (by cli)
src/opts/config.c ^ char *eq = strchr(line, '=') ^ char *eq = strrchr(line, '=') ^ dtltoprc: a value holding '=' cut at the wrong '='
src/opts/table.c ^ const char *name = a + (a[0] == '-' || a[0] == '+'); ^ const char *name = a + (a[0] == '-'); ^ -s +timestamp accepted (by cli)
src/format/perfdata.c ^ pd->truncated, pd->aux_records); ^ pd->aux_records, pd->truncated); ^ perf.data: 'lost N times out of M' swapped
src/loop/witness.c ^ w->base[cpu].dtl_idx = reg; ^ (void)reg; ^ debugfs: entries lapped before the first VPA read not counted lost
src/dtl/dtl.c ^ (cp >= 0x7f && cp <= 0x9f) ^ cp == 0x7f ^ a C1 control (U+009B, a CSI) reaches the terminal
src/format/recmeta.c ^ \tdtl_sanitize(m->host);\n ^  ^ a newline in a perf.data host name injects recording header keys
src/loop/loop.c ^ dtl_source__recorded(l->src) ? "" : l->host; ^ l->host; ^ a replay shows this machine's host name (by cli)
src/opts/parse.c ^ (o->batch || o->output || o->have_format || o->report) ^ (o->batch && o->output) ^ --listen swallows --format=csv (by exporter)
src/opts/config.c ^ strcmp(r->name, "listen") == 0 || ^ 0 || ^ listen= in dtltoprc makes every run an exporter
src/opts/save.c ^ if (!f && errno != ENOENT) { ^ if (0) { ^ W writes over a dtltoprc it could not read (by triage)
src/view/exporter.c ^ dtl_metrics__down(f, false); ^ ; ^ after exit the textfile says dtl_up 1 with frozen counters (by exporter)
src/view/http.c ^ q0 = strtod(v + 2, NULL) <= 0; ^ q0 = false; ^ Accept q=0 still gets OpenMetrics
src/source/debugfs.c ^ if (mask == DTL_MASK_ALL)\n\t\t\treturn 1; ^ if (mask == DTL_MASK_ALL)\n\t\t\treturn -1; ^ debugfs under lockdown fails even for the boot mask (by cli)
src/format/recwrite.c ^ return w->len + dtl_rec_v2__bytes(&w->cols) >= FLUSH_AT ? flush(w) : 0; ^ return 0; ^ recording: a long interval's chunk grows past its bound
src/source/replay/set.c ^ if (m->nr_cpus != p->meta.nr_cpus || m->tb_freq != p->meta.tb_freq) ^ if (m->nr_cpus != p->meta.nr_cpus) ^ a rotated set splices another partition's file
src/stats/task/charge.c ^ k->user += (r->srr1 >> 14) & 1; ^ k->user += (r->srr1 >> 15) & 1; ^ payer pane: user space read from MSR[EE], not MSR[PR]
src/format/pdtasks.c ^ return lo < t->ntl && t->tl[lo].pid == pid ? t->tl[lo].name : NONE; ^ return NONE; ^ perf.data: a process named only later in the file stays unnamed
src/tui/payer.c ^ c.samples >= DTL_MIN_SAMPLES ? p50 : "-",\n\t     c.samples >= DTL_MIN_SAMPLES ? p99 : "-"); ^ c.samples >= DTL_MIN_SAMPLES ? p99 : "-",\n\t     c.samples >= DTL_MIN_SAMPLES ? p50 : "-"); ^ payer pane: p50 and p99 swapped (by whopays)
src/loop/nav.c ^ \t\t\tl->table.tasks = t;\n ^  ^ replay: going back leaves the task rows on freed tasks (by whopays)
src/view/verdict.c ^ double wait = wanted > 0 ? 100 * all->steal_pct / wanted : 0; ^ double wait = wanted > 0 ? all->steal_pct : 0; ^ verdict: the wait share of the interval, not of the time wanted
src/view/metrics.c ^ if (k > m->metrics_cgroups) ^ if (k >= m->metrics_cgroups) ^ exposition: an empty cgroup="other" series at exactly the bound
src/view/metrics.c ^ invol += (DTL_PREEMPT_INVOLUNTARY_MASK >> i) & 1 ? r->preempt[i] : 0; ^ invol += r->preempt[i]; ^ exposition: cgroup preempts count cedes and confers
src/platform/perf.c ^ p->nr = dtl_cpuset__end(set) ? dtl_cpuset__end(set) : 1; ^ p->nr = dtl_cpuset__count(set) ? dtl_cpuset__count(set) : 1; ^ perf: -C 1 sizes its slots by the count, a write past them
src/view/json.c ^ else if (c < 0x20) ^ else if (c < 0x1f) ^ json: a control character (0x1f) reaches the output raw
src/source/sim/hv.c ^ ours_claim = p->capped || !p->weight ? 0 : n * (1 - e); ^ ours_claim = p->capped ? 0 : n * (1 - e); ^ simulator: weight 0 borrows above its entitlement (by verdict)
src/source/sim/vp.c ^ \t\t\tif (w)\n\t\t\t\t*w += dt;\n ^  ^ simulator: the partition passes its ceiling, VPs not counted together
src/source/sim/vp.c ^ if (p->state == VP_DISP && p->used >= budget_ticks(s, p)) { ^ if (0) { ^ simulator: a VP never held past its share of a wheel
src/source/sim/vp.c ^ next = s->p.idle ? t + g.w2r : v->arrival + v->burst + g.w2r; ^ next = t + g.w2r; ^ simulator: the guest's work shrinks as the hypervisor delays it
src/view/verdict.c ^ !x.below_ent && x.entc_ok &&\n\t\t   ((x.holds ^ x.entc_ok &&\n\t\t   ((x.holds ^ verdict: starved below its guaranteed entitlement
src/view/verdict.c ^ x->held = cfg->capped || (cfg->have_weight && cfg->weight == 0); ^ x->held = cfg->capped; ^ verdict: weight 0 blamed on the pool (by verdict)
src/opts/table.c ^ (bytes < ROTATE_MIN_BYTES || bytes > ROTATE_MAX_BYTES) ^ (bytes < ROTATE_MIN_BYTES) ^ --rotate 2e10G converted out of range (by cli)
src/platform/sys.c ^ if (line[kl + 1] < '0' || line[kl + 1] > '9') ^ if (line[kl + 1] == ' ') ^ lparcfg: a negative count read as 2^64 less it
src/view/verdict.c ^ if (x.waits && x.held && x.entc_ok && ^ if (x.waits && x.held && ^ verdict: capped at an entitlement lparcfg did not give
src/loop/witness.c ^ due = w->lagged ? w->prev_written[cpu] : written; ^ due = written; ^ witness: entries the PMU has yet to copy counted lost (by unit)
src/stats/task/charge.c ^ if (q->n == DTL_TASKS_QUEUE) { ^ if (q->n == 2 * DTL_TASKS_QUEUE + 1) { ^ who pays: a CPU without entries holds every switch it sees (by unit)
src/stats/task/internal.h ^ return (size_t)(dtl_hash__pid(key, pid) >> (64 - SLOT_BITS)); ^ return ((uint32_t)pid * 2654435761u) % (2u * DTL_TASKS_MAX); ^ who pays: pids 8192 apart share a slot
src/stats/task/table.c ^ size_t h = hash >> (64 - SLOT_BITS); ^ size_t h = hash & 7; ^ who pays: cgroup names crowd a few slots
src/view/http.c ^ if (now - k->since >= HTTP_REQUEST_S) { ^ if (0) { ^ exporter: a trickled request holds its slot for ever (by exporter)
src/dtl/name.c ^ !(cp >= 0x7f && cp <= 0x9f) ^ !(cp >= 0x7f && cp <= 0x7f) ^ names: a C1 control (CSI) passes
src/format/switches.c ^ \tdtl_name__clean(s);\t/* a NUL inside ends it there */ ^  ^ recording: switch names read raw (by unit)
src/source/sim/params.c ^ if (!dtl_name__is_clean(f)) { ^ if (0) { ^ simulator: a tasks= cgroup with ESC accepted (by cli)
src/source/replay/set.c ^ else if ((p->set_id || m->set_id) && (m->set_id != p->set_id || m->set_seq != p->seq + 1)) ^ else if (0) ^ replay: two runs spliced into one set (by cli)
src/loop/rec.c ^ high = dtl_rec_set__highest(l->o.write); ^ high = 0; ^ rotate: a restart collides with an earlier run's files (by cli)
src/tui/tui.c ^ \tif (t->sort_auto && t->last_table)\n ^ \tif (0)\n ^ who pays: v into tasks keeps the CPUs' order (by whopays)
src/dtl/tbmap.c ^ slack = bound_ns + was + m->residual_ns; ^ slack = bound_ns + m->residual_ns; ^ debugfs who pays: a clock check forgets the old anchor's bracket and calls a held map moved
src/dtl/tbmap.c ^ s[i].tb_after - s[i].tb_before < best->tb_after - best->tb_before ^ s[i].tb_after - s[i].tb_before > best->tb_after - best->tb_before ^ debugfs who pays: the calibration anchors on the widest bracket
src/dtl/tbmap.c ^ return d >= m->tb0 ? 0 : m->tb0 - (uint64_t)d; ^ return d >= m->tb0 ? 0 : m->tb0 + (uint64_t)d; ^ debugfs who pays: a switch before the anchor lands after it
src/source/taskfeed.c ^ } else if (tb < after) { ^ } else if (0) { ^ debugfs who pays: after the clock moved, switches placed by the old map still charge
src/dtl/sideband.c ^ uint64_t off = mask ? tail & mask : tail % size; ^ uint64_t off = tail & (size - 1); ^ switch stream: a ring whose size is no power of two walked as if it were
src/source/taskfeed.c ^ if (e->kind == DTL_SB_SWITCH && f->on[cpu] == e->pid + 1) ^ if (0) ^ who pays: the IN record after its OUT queued as a second switch
src/source/taskfeed.c ^ if (k && f->sw[k - 1].tb > tb) ^ if (0) ^ who pays: a loss marked before the switch ahead of it in the ring
src/stats/where.c ^ : strcmp(x->name, y->name); ^ : 0; ^ where: functions of equal counts in address order, not by name
src/loop/rec.c ^ \tl->rec_sym_rewrite = true;\n ^ \n ^ recording: a rotated set's later file carries no symbols of its own (by whopays)
src/source/replay/replay.c ^ \t\t\tsrc->kallsyms = p->syms;\n ^ \n ^ replay: a recording's symbols read and never used (by whopays)
src/view/wherecsv.c ^ if (w.user)\n ^ if (0)\n ^ --format where: user space left out, a row's shares short of 100 (by whopays)
src/view/report/collect.c ^ \tif (slash)\n\t\tsnprintf(buf, len, "of %s", slash + 1); ^ \tif (0)\n\t\tsnprintf(buf, len, "of %s", slash + 1); ^ report: a recording's absolute path on a page that travels
src/view/report/scale.c ^ if (days && !tm.tm_hour ^ if (0 && !tm.tm_hour ^ report: a span past midnight never says which day
src/platform/sys.c ^ cfg->have_partition_id = v && v < 1u << 16; ^ cfg->have_partition_id = v < 1u << 16; ^ identity: lparcfg's partition_id=0 (the device tree had none) taken for partition 0
src/view/metrics.c ^ a->samples < DTL_MIN_SAMPLES || !m->intervals ^ !m->intervals ^ exposition: a p99 of a handful of dispatches exported as if it meant something (by cli)
src/view/model.c ^ \tif (l && l->have_partition_id)\n\t\tfield(out, &n, "partition_id" ^ \tif (l)\n\t\tfield(out, &n, "partition_id" ^ exposition: a partition id lparcfg never gave, as 0 (by cli)
src/stats/task/charge.c ^ slot->task = sw->pid < 0 ? -1 : task_of(t, sw); ^ slot->task = task_of(t, sw); ^ who pays: a switch to nobody makes a task of pid -1
src/stats/task/charge.c ^ \t\t\tif (k >= 0)\n\t\t\t\tcharge(t, &t->task[k], &r); ^ \t\t\tif (k >= 0)\n\t\t\t\t; ^ who pays: entries no known task ran at vanish from the task rows
src/source/debugfs.c ^ more = dtl_taskfeed__take(d->feed, d->stream, d->next_cpu, &d->map, c); ^ more = false; ^ debugfs who pays: the switch stream is opened but never read (by whopays)
src/platform/perf.c ^ \t\tattr.use_clockid = 1; ^ \t\tattr.use_clockid = 0; ^ debugfs who pays: the stream keeps sched_clock, off the calibrated timebase
src/opts/table.c ^ if (b[j]->opts == b[k]->opts)\n\t\t\treturn true; ^ if (b[j]->opts == b[k]->opts)\n\t\t\tbreak; ^ --no-tasks listed twice in --help (perf and debugfs share it) (by man)
src/stats/task/charge.c ^ if (q->wake_from >= 0 && sw->pid != 0 && sw->tb >= q->wake_tb) { ^ if (q->wake_from >= 0 && sw->pid != 0 && sw->tb > q->wake_tb) { ^ who pays: the task switched in at the wake-up's dispatch is not the one woken
src/stats/task/charge.c ^ \t\tq->wake_from = -1;\t/* ceded again before any task ran: no task woke */\n ^ \n ^ who pays: a cede, then another entry before any task ran: the next task is charged the cede's wake-up
src/stats/task/interval.c ^ \t\tsettle_wake(t, q);\n ^ \n ^ who pays: a wake-up at the interval's end stays with idle
src/stats/counts.h ^ steal & -(uint64_t)((DTL_PREEMPT_CEDE_MASK >> p) & 1) ^ steal & -(uint64_t)((DTL_PREEMPT_INVOLUNTARY_MASK >> p) & 1) ^ WAKE counts the involuntary preempts' steal
src/source/sim/guest.c ^ \t\tv->sw[v->nsw - 1].tb = SIM_TB0 + t0;\n ^ \n ^ simulator: a thread stopped before its run began switches its task after the stop (truth and stream disagree)
src/check/run.c ^ \tif (want_tasks && !s->tasks)\n\t\t*works = false; ^ \tif (0)\n\t\t*works = false; ^ --check exits 0 when who pays was asked and does not work (by cli)
src/check/facts.c ^ \tif (c.have_pool_idle)\n ^ \tif (!c.have_pool_idle)\n ^ --check says pool data is off where the partition reads it (by cli)
src/source/sim/hv.c ^ used[i] = w < l[i].ent ? w : l[i].ent; ^ used[i] = l[i].ent; ^ frame: an LPAR's unused entitlement kept from the pool
src/source/sim/frame.c ^ if (q->dedicated || q->pool_id != p->pool_id || p->dedicated) ^ if (q->dedicated || p->dedicated) ^ frame: the LPARs of another pool counted as peers
src/view/webconfig.c ^ return ok && !diff; ^ return ok; ^ --web-config: any password of the hash's length passes
src/loop/window.c ^ return l->win_end_ns && clock_now(l) + half(l) > l->win_end_ns; ^ return l->win_end_ns && clock_now(l) > l->win_end_ns; ^ --end: an interval past the window's end shown (by cli)
src/source/replay/marks.c ^ e->has_comm ? e->comm : NULL, ^ NULL, ^ T from a mark: the task names told before it not restated (by tui)
src/source/replay/marks.c ^ \tsrc->cpus = m->cpus;\n ^ \n ^ a seek from a mark keeps the CPUs online where it was (by unit)
src/source/replay/marks.c ^ if (p->set && m->seq != p->seq) { ^ if (0) { ^ T to a mark in another file of a set reads the wrong file (by tui)
src/source/replay/marks.c ^ \t\tif (c->consumed > p->consumed)\n\t\t\tm = c; ^ \t\tm = c; ^ a seek goes back to a mark behind where the replay is (by unit)
src/format/recwrite.c ^ get16(p + 2) == cpu && ^ 1 && ^ a block of another CPU added to the one before (by unit)
src/format/recread.c ^ q[0] != DTL_REC_ENTRIES || get16(q + 2) != cpu) ^ q[0] != DTL_REC_ENTRIES) ^ an old file's block of another CPU read as the one before's (by cli)
src/format/recread.c ^ \t\twhile (continues(r, ev->cpu, &n, &more)) { ^ \t\twhile (0 && continues(r, ev->cpu, &n, &more)) { ^ an old file's blocks read a drain at a time, twice the CPU (by unit)
src/dtl/sideband.c ^ \t\t\t\tannounced = -1;\n\t\t\t\ttail += len; ^ \t\t\t\ttail += len; ^ switch stream: a CPU-wide IN passed over twice after one OUT (by unit)
src/format/switches.c ^ \t\tif (last && (last_cl || last_gl)) ^ \t\tif (last) ^ a skim hands out every switch, not the named and the last (by unit)
src/platform/topo.c ^ \tdtl_cpuset__for_each(cpu, cpus)\n\t\tthreads[t->vp[cpu]] = 0; ^ \n ^ a VP count left over from the count before (by unit)
src/format/summary.c ^ \tif (c->lat_max > UINT32_MAX || (!c->dispatches && c->lat_max)) ^ \tif (c->lat_max > UINT32_MAX) ^ summary: counts with a latency and no dispatch taken (by unit)
src/format/summary.c ^ \ts[S_W2R] = zz(s[S_W2R] - s[S_IDLE] - s[S_CARRY_IDLE]); ^ \ts[S_W2R] = zz(s[S_W2R] - s[S_IDLE]); ^ summary: waiting_to_ready stored against the wrong base (by unit)
src/format/summary.c ^ \t\tif (k->proc_n[b & 7]) ^ \t\tif (0) ^ summary: two processors in one slot taken (by unit)
src/stats/cpu/keep.c ^ \tk->k.carry_steal = v->carry_steal; ^ \tk->k.carry_steal = 0; ^ summary: the steal carried to the totals not kept (by unit)
src/stats/task/keep.c ^ \tif (fresh)\n\t\t*told = i + 1; ^ \n ^ summary: every task told again each interval (by unit)
src/loop/serve.c ^ v->len - v->off > QUEUE_IVS * len ^ v->len - v->off > 1000 * QUEUE_IVS * len ^ serve: a stopped viewer's queue grows past 64 intervals (by cli)
src/loop/loop.c ^ \t\tif (restarted)\n\t\t\tdtl_stats__restart_at(l->stats, tb); ^ \t\t(void)tb; ^ attach: after drops the window spans the dropped intervals (by cli)
src/loop/incident.c ^ \tif (bad && v.kind != in->last_kind) { ^ \tif (bad && v.kind == in->last_kind) { ^ incidents: the verdict's turn not seen (by cli)
src/loop/incident.c ^ \t\tv->who[v->nwho++] = in->last[c]; ^ \t\tv->who[v->nwho] = in->last[c]; ^ incidents: a file does not say who ran as it begins (by cli)
src/loop/sumiv.c ^ \tloop_feed(v->stats, v->tasks, c); ^ \t(void)c; ^ --summary-interval: the summary's own stats never fed (by cli)
src/loop/sumiv.c ^ \tif (v->secs >= l->o.summary_s * (1 - 1e-9)) ^ \tif (v->secs >= l->o.summary_s * (1 - 1e-9) && 0) ^ --summary-interval: the summary's interval never ends (by cli)
src/source/debugfs.c ^ \tif (dtl_usock__service(root)) { ^ \tif (!dtl_usock__service(root)) { ^ debugfs busy: the service hint given wrongly (by cli)
src/loop/serve.c ^ \tif (*own || (!debugfs && dtl_caps__pid_perfmon(pid))) ^ \tif (*own) ^ attach: a caller holding CAP_PERFMON refused (by cli)
src/source/replay/input.c ^ \tif (dtl_caps__drop_all() && errno != EPERM) { ^ \tif (0) { ^ attach: a viewer keeps its capabilities once let in (by cli)
src/loop/serve.c ^ \tbool debugfs = !strcmp(dtl_source__name(l->src), "debugfs"); ^ \tbool debugfs = false; ^ attach: a debugfs service lets in CAP_PERFMON (by cli)
src/format/marker.c ^ \tif (!n || cpu >= k->nr_cpus || !dtl_cpuset__has(&k->m.online, cpu)) ^ \tif (!n || cpu >= k->nr_cpus) ^ marks: the names of a CPU a replay holds offline counted (by unit)
src/source/replay/marks.c ^ \t\treplay__marks_load(src, k); ^ \t\t(void)k; ^ marks: the recording's own never loaded (by unit)
src/format/recwrite.c ^ \trc |= write_mark(w, true); ^ \t(void)0; ^ marks: no final mark at a file's end (by cli)
src/source/replay/filemarks.c ^ \twhile (p->sym_records < m->sym_pos && p->sym_records < k->nsyms) { ^ \twhile (0) { ^ marks: the symbols told before a file's mark not added (by unit)
EOF
	)
fi

mkdir -p "$B/obj" "$B/tree"
# A copy of the tree to mutate, and every object built once.
copy_tree() {
	rsync -a --delete --exclude build --exclude .git ./ "$1/" 2>/dev/null ||
		{ rm -rf "$1" && mkdir -p "$1" && tar cf - --exclude=./build --exclude=./.git . |
			tar xf - -C "$1"; }
	mkdir -p "$1/build"
	rm -rf "$1/build/libperf" && cp -r build/libperf "$1/build/libperf"  # its own: a rebuild here must not pull it away
}
copy_tree "$B/tree"
cd "$B/tree" || exit 1
APP=$(ls src/*.c src/*/*.c src/*/*/*.c)
UNIT=$(ls tests/unit/*.c)
GRID=tests/verdict/grid.c
obj() { echo "$B/obj/$(echo "$1" | tr / _).o"; }
# each object's headers as the compiler saw them (-MMD): a header's mutant must
# reach the files that include it through another header too
for f in $APP $UNIT $GRID; do
	$CC $FLAGS -Isrc -MMD -MF "$(obj "$f").d" -c -o "$(obj "$f")" "$f" ||
		{ echo "mutants.sh: cannot build $f" >&2; exit 1; }
done
# includers HEADER: the sources whose objects depend on HEADER
includers() {
	local f h
	h=$(realpath "$1")
	for f in $APP $UNIT $GRID; do
		tr ' \\' '\n\n' <"$(obj "$f").d" | sed -n 's/^\(.*\.h\)$/\1/p' | xargs -r realpath 2>/dev/null |
			grep -qx -- "$h" && echo "$f"
	done
}
# link [OBJDIR [EXTRA FLAGS]]: ./dtltop and build/unit of the objects in OBJDIR
link() {
	local d=${1:-$B/obj} app=() unit=() core=() o
	for f in $APP; do app+=("$d/$(echo "$f" | tr / _).o"); done
	for f in $UNIT; do unit+=("$d/$(echo "$f" | tr / _).o"); done
	for o in "${app[@]}"; do
		case $o in *src_main.c.o | *src_info.c.o | *src_tui_*) ;; *) core+=("$o") ;; esac
	done
	# through new names: a test's leftover process may still run the old binaries
	$CC ${2:-} -o dtltop.new "${app[@]}" $LIBS && $CC ${2:-} -o build/unit.new "${core[@]}" "${unit[@]}" $LIBS &&
		$CC ${2:-} -o build/verdict.new "${core[@]}" "$d/$(echo $GRID | tr / _).o" $LIBS &&
		mv -f dtltop.new dtltop && mv -f build/unit.new build/unit && mv -f build/verdict.new build/verdict
}
link || exit 1
TESTS="unit verdict man cli truth report exporter whopays triage tui"
# run_test NAME: one fast test, quietly, as make check-fast runs it, but ending
# at its first failure (DTL_FAILFAST: a mutant needs one); whatever it left
# running (an exporter on its port) dies with its process group, which timeout
# makes, so that it cannot fail the next mutant's test in its stead
run_test() {
	(
		exec >/dev/null 2>&1 </dev/null
		export DTL_FAILFAST=1 DTLTOP=./dtltop
		case $1 in
		unit) exec timeout -k 5 120 build/unit ;;
		verdict) exec timeout -k 5 120 build/verdict ;;
		man) exec timeout -k 5 120 tests/man.sh ./dtltop man/dtltop.1 ;;
		report) REPORT_BIG=0 REPORT_BROWSER=0 exec timeout -k 5 300 tests/report.sh ;;
		*) exec timeout -k 5 300 "tests/$1.sh" ;;
		esac
	) &
	local pid=$! rc
	wait "$pid"
	rc=$?
	kill -KILL -- "-$pid" 2>/dev/null
	return $rc
}
# run_tests NAME...: 0 if every one passes; stops at the first that fails, named in $killer
run_tests() {
	local t
	for t in "$@"; do run_test "$t" || { killer=$t; return 1; }; done
}

# --diff: which fast tests execute each line, from a --coverage build of the same tree
# (-O0, so lines map one to one); the run doubles as the check of the unmutated tree
if [ -n "$DIFF" ]; then
	C=$B/cov
	mkdir -p "$C/obj" && copy_tree "$C/tree" && cd "$C/tree" || exit 1
	for f in $APP $UNIT $GRID; do
		$CC ${FLAGS/-O1/-O0} --coverage -Isrc -c -o "$C/obj/$(echo "$f" | tr / _).o" "$f" ||
			{ echo "mutants.sh: cannot build $f with --coverage" >&2; exit 1; }
	done
	link "$C/obj" --coverage || exit 1
	# tests run dtltop as nobody too: its counts must be writable (and libgcov silent) there
	chmod 0777 "$C/obj"
	for t in $TESTS; do
		find "$C/obj" -name '*.gcda' -delete
		(umask 0 && run_test "$t") || { echo "mutants.sh: $t fails on the unmutated tree" >&2; exit 1; }
		(cd "$C/obj" && gcov -j -t ./*.o 2>/dev/null) | python3 "$ROOT/tests/mutgen.py" --lines \
			"$C/tree" >"$C/$t.lines" || exit 1
	done
	cd "$B/tree" || exit 1
else
	run_tests $TESTS || { echo "mutants.sh: the tests fail on the unmutated tree" >&2; exit 1; }
fi

total=0 killed=0 dropped=0 survivors=()
while IFS='^' read -r file from to what; do
	file=${file% } from=${from# } from=${from% } to=${to# } to=${to% } what=${what# }
	[ -z "$file" ] && continue
	[ -n "$ONLY" ] && ! grep -q -- "$ONLY" <<<"$what" && continue
	line=""
	: >"$B/build.err"
	case $file in *:[0-9]*) line=${file##*:} file=${file%:*} ;; esac
	cp "$file" "$file.orig"
	if [ -n "$line" ]; then
		python3 "$ROOT/tests/mutgen.py" --apply "$file" "$line" "$from" "$to" || { mv "$file.orig" "$file"; continue; }
		what="$file:$line: $what"
	else
		n=$(FROM="$from" perl -0ne '$f = $ENV{FROM}; $f =~ s/\\n/\n/g; $f =~ s/\\t/\t/g;
			$c = () = /\Q$f\E/g; print $c' "$file")
		if [ "$n" != 1 ]; then
			echo "BROKEN ($n matches): $file: $what"
			total=$((total + 1))
			survivors+=("broken: $what")
			rm -f "$file.orig"
			continue
		fi
		FROM="$from" TO="$to" perl -0pi -e '$f = $ENV{FROM}; $t = $ENV{TO};
			for ($f, $t) { s/\\n/\n/g; s/\\t/\t/g }
			s/\Q$f\E/$t/' "$file"
	fi
	# a header's mutant goes into every file that includes it
	srcs=$file
	case $file in *.h) srcs=$(includers "$file") ;; esac
	built=1
	[ -z "$srcs" ] && { built=0; echo "no source includes $file" >"$B/build.err"; }
	for f in $srcs; do
		mv "$(obj "$f")" "$(obj "$f").orig"
		$CC $FLAGS -Isrc -c -o "$(obj "$f")" "$f" 2>>"$B/build.err" || built=0
	done
	if [ $built = 0 ] || ! link 2>>"$B/build.err"; then
		if [ -n "$line" ]; then
			dropped=$((dropped + 1))	# an operator's text that is not C here: no bug at all
		else
			total=$((total + 1))
			echo "BROKEN (does not build): $file: $what: $(head -3 "$B/build.err")"
			survivors+=("broken: $what")
		fi
	else
		total=$((total + 1))
		tests=$TESTS
		[ -n "$line" ] && tests=$(python3 "$ROOT/tests/mutgen.py" --tests "$B/cov" "$file" "$line" $TESTS)
		# "(by TEST)" at a description's end: that test first, the rest after
		by=$(sed -n 's/.*(by \([a-z]*\))$/\1/p' <<<"$what")
		[ -n "$by" ] && tests="$by $(tr ' ' '\n' <<<"$tests" | grep -vx "$by" | tr '\n' ' ')"
		if [ -z "$tests" ]; then
			echo "SURVIVED (no fast test runs this line): $what"
			survivors+=("$what (no fast test runs it)")
		elif run_tests $tests; then
			echo "SURVIVED: $what ($(echo $tests))"
			survivors+=("$what: $(sed 's/\\t/ /g' <<<"$to" | tr -s ' ')")
		else
			echo "killed by $killer: $what"
			killed=$((killed + 1))
		fi
	fi
	mv "$file.orig" "$file"
	for f in $srcs; do mv "$(obj "$f").orig" "$(obj "$f")"; done
done <<<"$MUTANTS"
link
echo
pct=0
[ "$total" -gt 0 ] && pct=$((killed * 100 / total))
echo "mutants.sh: $killed of $total mutants killed ($pct %)${DIFF:+; $dropped more did not build (dropped)}"
for s in "${survivors[@]}"; do echo "  survivor: $s"; done
[ "$killed" -eq "$total" ]
