/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rec.c - -w: the recording follows what the loop sees, and a failed write
 * stops the recording, not the monitor (the exit status says so).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../dtl/hash.h"
#include "../format/marker.h"
#include "../format/recset.h"
#include "../format/summary.h"
#include "../version.h"
#include "internal.h"

/* --rotate: a set of files FILE.N, not FILE */
static bool rotating(const struct dtl_loop *l)
{
	return l->o.rotate_bytes || l->o.rotate_s;
}

/* FILE, or with --rotate FILE.N */
static void rec_path(const struct dtl_loop *l, unsigned int seq, char *buf, size_t len)
{
	if (rotating(l))
		dtl_rec_set__path(l->o.write, seq, buf, len);
	else
		snprintf(buf, len, "%s", l->o.write);
}

/*
 * A run's first file. Rotating, it numbers on after what an earlier run
 * left (never "File exists", never a file of that run overwritten), under
 * an identity of its own, so a replay never splices the two runs.
 */
static void rec_set_start(struct dtl_loop *l)
{
	unsigned int high = 0;

	if (rotating(l)) {
		high = dtl_rec_set__highest(l->o.write);
		do
			l->rec_set_id = dtl_hash__key(l);
		while (!l->rec_set_id);
		if (high && !loop_interactive(l))
			fprintf(stderr, "dtltop: %s.%u and below are an earlier recording's; this one "
				"begins at %s.%u\n", l->o.write, high, l->o.write, high + 1);
	}
	l->rec_seq = l->rec_first_seq = high + 1;
}

void loop_rec_meta(struct dtl_loop *l, struct dtl_rec_meta *m)
{
	uint64_t clk;

	memset(m, 0, sizeof(*m));
	snprintf(m->dtltop_version, sizeof(m->dtltop_version), "%s", DTLTOP_VERSION);
	/* -r X -w Y: Y names the machine X was recorded on (or none), not this one */
	snprintf(m->host, sizeof(m->host), "%s", loop_host(l));
	snprintf(m->source, sizeof(m->source), "%s", dtl_source__name(l->src));
	snprintf(m->detail, sizeof(m->detail), "%s", dtl_source__detail(l->src));
	if (dtl_source__partition_name(l->src))
		snprintf(m->partition_name, sizeof(m->partition_name), "%s",
			 dtl_source__partition_name(l->src));
	m->tb_freq = dtl_source__tb_freq(l->src);
	m->start_ns = dtl_source__clock(l->src, &clk) ? clk : loop_now(l, CLOCK_REALTIME);
	m->interval_s = l->o.interval_s;
	m->summary = l->o.summary;
	m->mask = dtl_source__mask(l->src);
	if (!dtl_source__tb(l->src, &m->start_tb))
		m->start_tb = 0;
	m->nr_cpus = dtl_source__nr_cpus(l->src);
	m->cpus = *dtl_source__cpus(l->src);
	m->topo = *dtl_source__topo(l->src);
	m->core_threads = dtl_source__core_threads(l->src);
	if (dtl_source__lparcfg(l->src))
		snprintf(m->lparcfg, sizeof(m->lparcfg), "%s", dtl_source__lparcfg(l->src));
	else if (dtl_sys__read(l->o.src.root, "proc/powerpc/lparcfg", m->lparcfg,
			       sizeof(m->lparcfg)) < 0)
		m->lparcfg[0] = '\0';
}

int loop_rec_open(struct dtl_loop *l, char *err, size_t errlen)
{
	struct dtl_rec_meta m;
	char path[4200];

	loop_rec_meta(l, &m);
	if (dtl_source__summary(l->src) && !m.summary) {
		snprintf(err, errlen, "-w: a summary holds no entries to record (add --summary)");
		return -1;
	}
	if (m.summary && l->o.summary_s > l->o.interval_s && dtl_source__summary(l->src)) {
		snprintf(err, errlen, "--summary-interval: a summary's intervals cannot be cut again "
			 "(replay it with -d %g instead)", l->o.summary_s);
		return -1;
	}
	l->rec_told = 0;	/* a new file names every task again, so it replays on its own */
	if (m.summary && l->tasks)
		dtl_tasks__keep(l->tasks);
	if (m.summary && (dtl_stats__keep(l->stats) || loop_sumiv_open(l))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	l->recorded_cpus = m.cpus;
	if (!l->rec_seq)
		rec_set_start(l);
	if (rotating(l)) {
		m.set_id = l->rec_set_id;
		m.set_seq = l->rec_seq;
	}
	rec_path(l, l->rec_seq, path, sizeof(path));
	if (m.summary && !l->incidents && loop_incident_open(l, &m, err, errlen))
		return -1;
	l->rec = dtl_rec_writer__open(path, &m, err, errlen);
	if (l->rec && !m.summary) {
		/* marks: a replay opens the end of a day of raw entries without reading the day */
		if (!l->rec_marker)
			l->rec_marker = dtl_rec_marker__new(m.nr_cpus, &m.cpus, m.mask);
		else
			dtl_rec_marker__file(l->rec_marker, &m.cpus, m.mask);
		if (l->rec_marker)
			dtl_rec_writer__use_marker(l->rec, l->rec_marker);
	}
	l->rec_file_s = 0;
	/* a file of a set names on its own what it holds: every function so far again */
	l->rec_sym_rewrite = true;
	if (l->tasks)
		dtl_tasks__log_pcs(l->tasks);
	return l->rec ? 0 : -1;
}

void loop_rec_drop_empty(struct dtl_loop *l)
{
	char path[4200];

	if (rotating(l) && l->rec_seq > l->rec_first_seq && l->rec_file_s <= 0) {
		rec_path(l, l->rec_seq, path, sizeof(path));
		unlink(path);
	}
}

/* The recording is over, the monitor goes on: said once, and in the exit status. */
static void rec_stopped(struct dtl_loop *l, const char *err)
{
	snprintf(l->status, sizeof(l->status), "recording stopped: %.400s", err);
	if (!loop_interactive(l))
		fprintf(stderr, "dtltop: recording stopped: %s\n", err);
	l->exit_code = 1;
}

/*
 * --rotate: past the size or the time, the file is closed whole (with its
 * end marker) at an interval's end and FILE.N+1 begins, a recording of its
 * own that starts where this one ended; past KEEP files the oldest goes.
 */
static void rotate(struct dtl_loop *l)
{
	char err[4096];
	uint64_t bytes = dtl_rec_writer__bytes(l->rec);

	if (!(l->o.rotate_bytes && bytes >= l->o.rotate_bytes) &&
	    !(l->o.rotate_s > 0 && l->rec_file_s >= l->o.rotate_s - 1e-9))
		return;
	if (dtl_rec_writer__close(l->rec, err, sizeof(err))) {
		l->rec = NULL;
		rec_stopped(l, err);
		return;
	}
	l->rec = NULL;
	l->rec_bytes_done += bytes;
	l->rec_seq++;
	if (loop_rec_open(l, err, sizeof(err)))
		rec_stopped(l, err);
}

/* Past KEEP files the oldest goes, once the newest holds an interval (an empty one may not stay). */
static void prune(struct dtl_loop *l)
{
	char old[4200];

	if (!l->o.rotate_keep || l->rec_seq <= l->o.rotate_keep)
		return;
	rec_path(l, l->rec_seq - l->o.rotate_keep, old, sizeof(old));
	if (unlink(old) && errno != ENOENT && !loop_interactive(l))
		fprintf(stderr, "dtltop: warning: %s: %s\n", old, strerror(errno));
}

void loop_rec_failed(struct dtl_loop *l)
{
	char err[4096];

	dtl_rec_writer__close(l->rec, err, sizeof(err));
	l->rec = NULL;
	rec_stopped(l, err);
}

/*
 * Where raw records go: the recording, or beside a summary (whose CPUs are
 * written at the tick, as the stats added them up) the incidents' ring.
 */
static struct dtl_rec_writer *raw_writer(const struct dtl_loop *l)
{
	return l->o.summary ? loop_incident_writer(l) : l->rec;
}

/* A raw write failed: the recording stops, or the ring goes (the summary goes on). */
static void raw_failed(struct dtl_loop *l)
{
	if (!l->o.summary) {
		loop_rec_failed(l);
		return;
	}
	loop_incident_close(l);
	snprintf(l->status, sizeof(l->status), "--incidents stopped: out of memory");
}

void loop_rec_chunk(struct dtl_loop *l, const struct dtl_chunk *c)
{
	struct dtl_rec_writer *w = raw_writer(l);

	/* switches first: a replay feeds them before the entries, as the loop did live */
	if (w && ((c->nswitches && dtl_rec_writer__switches(w, c->cpu, c->switches, c->nswitches)) ||
		  dtl_rec_writer__entries(w, c->cpu, c->data, c->n, c->lost, c->bad) ||
		  dtl_rec_writer__gaps(w, c->cpu, c->gaps) ||
		  (c->have_vpa_steal && dtl_rec_writer__vpa_steal(w, c->cpu, c->vpa_steal)) ||
		  (c->have_stat_steal && dtl_rec_writer__stat_steal(w, c->cpu, c->stat_steal))))
		raw_failed(l);
	else if (w && l->o.summary)
		loop_incident_switches(l, c->cpu, c->switches, c->nswitches);
}

void loop_rec_cpu(struct dtl_loop *l, unsigned int cpu, bool on)
{
	if (!l->rec || on == dtl_cpuset__has(&l->recorded_cpus, cpu))
		return;
	if (dtl_rec_writer__cpu(l->rec, cpu, on))
		loop_rec_failed(l);
	if (loop_incident_writer(l) && dtl_rec_writer__cpu(loop_incident_writer(l), cpu, on))
		raw_failed(l);
	if (on)
		dtl_cpuset__set(&l->recorded_cpus, cpu);
	else
		dtl_cpuset__unset(&l->recorded_cpus, cpu);
}

/* An interval's counts from s (and t, where who pays is known), each CPU's and each task's. */
static int write_counts(struct dtl_stats *s, struct dtl_tasks *t, struct dtl_rec_writer *w,
			size_t *told)
{
	unsigned int flags = dtl_stats__told(s) ? DTL_SUM_TOLD : 0;
	struct dtl_task_interval ti;

	for (unsigned int cpu = 0; cpu < dtl_stats__nr_cpus(s); cpu++)
		if (dtl_rec_writer__counts(w, cpu, dtl_stats__kept(s, cpu), flags))
			return -1;
	for (size_t i = 0; t && i < dtl_tasks__count(t, DTL_TASKS_BY_TASK); i++)
		if (dtl_tasks__kept(t, i, told, &ti) && dtl_rec_writer__task(w, &ti))
			return -1;
	return 0;
}

/*
 * A summary's interval: each CPU's counts as the stats ended it, and the
 * window's end, which a replay ends its interval at (the source's clock,
 * or a later entry's). A viewer's (serve.c) is the live interval.
 */
int loop_summary_write(struct dtl_loop *l, struct dtl_rec_writer *w, size_t *told)
{
	return write_counts(l->stats, l->tasks, w, told);
}

/* The file's: its own interval's (--summary-interval), once every N live ones. */
static int summary_tick(struct dtl_loop *l, uint64_t *end_tb)
{
	struct dtl_stats *s = loop_sumiv_stats(l);

	if (!l->o.summary)
		return 0;
	*end_tb = dtl_stats__ended_at(s);
	return write_counts(s, loop_sumiv_tasks(l), l->rec, &l->rec_told);
}

void loop_rec_tick(struct dtl_loop *l, uint64_t ts, double secs, uint64_t end_tb)
{
	bool due = loop_sumiv_due(l);
	double file_secs = loop_sumiv_secs(l, secs);

	if (!l->rec)
		return;
	/* the raw ring and the symbols every live interval; the file's tick at its own */
	if (loop_recsyms_tick(l) || (due && summary_tick(l, &end_tb)) ||
	    loop_incident_tick(l, ts, secs, end_tb) ||
	    (due && dtl_rec_writer__tick(l->rec, ts, file_secs, end_tb))) {
		loop_rec_failed(l);
		return;
	}
	l->rec_s += secs;
	l->rec_ts = ts;
	l->rec_tb = end_tb;
	if (!due)
		return;
	{
		bool first = l->rec_file_s <= 0;

		l->rec_file_s += file_secs;
		if (first && l->rec_seq > 1)
			prune(l);
		if (rotating(l))
			rotate(l);
	}
}

void loop_rec_finish(struct dtl_loop *l)
{
	uint64_t end_tb = l->rec_tb;

	if (!l->rec || !loop_sumiv_cut(l, l->rec_tb))
		return;
	if ((l->lparcfg_text[0] && dtl_rec_writer__lparcfg(l->rec, l->lparcfg_text)) ||
	    summary_tick(l, &end_tb) || dtl_rec_writer__tick(l->rec, l->rec_ts, loop_sumiv_secs(l, 0), end_tb))
		loop_rec_failed(l);
}

/* "-w 1.2 MB/s (4.3 GB/h), 36 MB": the rate a recording grows at, for the status line. */
void loop_rec_rate(const struct dtl_loop *l, char *buf, size_t len)
{
	static const char *const units[] = { "B", "kB", "MB", "GB", "TB" };
	double bytes, rate, hour;
	int a = 0, b = 0, c = 0;

	buf[0] = '\0';
	if (!l->rec || l->rec_s <= 0)
		return;
	bytes = (double)(l->rec_bytes_done + dtl_rec_writer__bytes(l->rec));
	rate = bytes / l->rec_s;
	hour = rate * 3600;
	for (; rate >= 1000 && a < 4; a++)
		rate /= 1000;
	for (; hour >= 1000 && b < 4; b++)
		hour /= 1000;
	for (; bytes >= 1000 && c < 4; c++)
		bytes /= 1000;
	snprintf(buf, len, "-w %.3g %s/s (%.3g %s/h), %.3g %s", rate, units[a], hour, units[b],
		 bytes, units[c]);
}

void loop_rec_lparcfg(struct dtl_loop *l, const char *text)
{
	/* a summary's at its own interval's end: what a replay measures its interval by */
	if (l->rec && loop_sumiv_due(l) && dtl_rec_writer__lparcfg(l->rec, text))
		loop_rec_failed(l);
	if (loop_incident_writer(l) && dtl_rec_writer__lparcfg(loop_incident_writer(l), text))
		raw_failed(l);
}

void loop_rec_stat_steal(struct dtl_loop *l, unsigned int cpu, uint64_t ticks)
{
	if (raw_writer(l) && dtl_rec_writer__stat_steal(raw_writer(l), cpu, ticks))
		raw_failed(l);
}

void loop_rec_vpa_steal(struct dtl_loop *l, unsigned int cpu, uint64_t ticks)
{
	if (raw_writer(l) && dtl_rec_writer__vpa_steal(raw_writer(l), cpu, ticks))
		raw_failed(l);
}

void loop_rec_mask(struct dtl_loop *l, unsigned int mask)
{
	if (l->rec && dtl_rec_writer__mask(l->rec, mask))
		loop_rec_failed(l);
	if (loop_incident_writer(l) && dtl_rec_writer__mask(loop_incident_writer(l), mask))
		raw_failed(l);
}
