/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * loop.c - one source, one stats, one view: the interval loop.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../format/marker.h"
#include "internal.h"

/* A person's keys and the screen's clock answer within this. */
#define POLL_MS 20
/*
 * A view without keys sleeps to the interval's end, or as its source asks,
 * but no longer than this: a signal that lands between the stop check and
 * the sleep would otherwise wait for a whole -d.
 */
#define IDLE_MS 1000
/* How often a followed recording is looked at for its next interval. */
#define FOLLOW_POLL_NS 200000000ull

static uint64_t real_now(void *ctx, clockid_t clk)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

const struct dtl_clock dtl_clock_real = { real_now, NULL };

/*
 * A replay's mask changes as its records come; the stats must know when.
 * Telling them the mask in force again changes nothing.
 */
static void sync_mask(struct dtl_loop *l)
{
	dtl_stats__set_mask(l->stats, dtl_source__mask(l->src));
}

/* A fresh stats starts where the source's clock stands. */
void loop_start_stats(struct dtl_loop *l)
{
	const struct dtl_topo *t = dtl_source__topo(l->src);
	uint64_t tb;

	if (t->known && dtl_stats__set_vps(l->stats, t->vp, dtl_source__core_threads(l->src)))
		l->table.by_vp = false;	/* out of memory: CPU rows still work */
	sync_mask(l);
	if (dtl_source__tb(l->src, &tb))
		dtl_stats__start_at(l->stats, tb);
}

/*
 * A slow source (a huge simulated pool) can take seconds to drain: look at
 * the keyboard between chunks, every 50 ms, so q is honoured at once.
 */
static void check_quit(struct dtl_loop *l, unsigned long *chunks, uint64_t *last)
{
	uint64_t now;

	if (!l->view || !l->view->ops->quit_pending || ++*chunks % 64)
		return;
	now = loop_now(l, CLOCK_MONOTONIC);
	if (now - *last < 50000000ull)
		return;
	*last = now;
	if (l->view->ops->quit_pending(l->view))
		l->quit = true;
}

/* A chunk into a stats and task table: the live ones, or a summary's own (sumiv.c). */
void loop_feed(struct dtl_stats *s, struct dtl_tasks *t, const struct dtl_chunk *c)
{
	if (c->have_vpa_steal)
		dtl_stats__add_witness(s, c->cpu, c->vpa_steal);
	if (c->have_stat_steal)
		dtl_stats__add_stat_steal(s, c->cpu, c->stat_steal);
	if (c->summary)
		dtl_stats__add_summary(s, c->cpu, c->summary->dispatches, c->summary->steal_ticks,
				       c->summary->idle_ticks, c->summary->dispersions);
	if (c->counts)
		dtl_stats__add_interval(s, c->cpu, c->counts, c->told);
	if (c->task && t)
		dtl_tasks__add_interval(t, c->task);
	if (c->gaps)
		dtl_stats__add_gaps(s, c->cpu, c->gaps);
	dtl_stats__add_entries(s, c->cpu, c->data, c->n);
	/* the switches up to these entries first: each is charged to who ran then */
	for (size_t i = 0; t && i < c->nswitches; i++)
		dtl_tasks__switch(t, c->cpu, &c->switches[i]);
	if (dtl_tasks__known(t))
		dtl_tasks__add_entries(t, c->cpu, c->data, c->n);
	if (c->lost)
		dtl_stats__add_lost(s, c->cpu, c->lost);
	if (c->bad)
		dtl_stats__add_bad(s, c->cpu, c->bad);
}

static void drain(struct dtl_loop *l)
{
	struct dtl_chunk c;
	unsigned long chunks = 0;
	uint64_t last = loop_now(l, CLOCK_MONOTONIC);

	while (!loop_stopped(l) && dtl_source__read(l->src, &c) > 0) {
		uint64_t tb;
		bool restarted;

		check_quit(l, &chunks, &last);
		restarted = dtl_source__restart(l->src, &tb);
		if (restarted)
			dtl_stats__restart_at(l->stats, tb);
		sync_mask(l);
		loop_rec_chunk(l, &c);
		loop_witness_chunk(l, &c);
		loop_feed(l->stats, l->tasks, &c);
		loop_sumiv_chunk(l, &c, restarted ? &tb : NULL);
	}
}

void loop_sync_online(struct dtl_loop *l)
{
	const struct dtl_cpuset *cpus = dtl_source__cpus(l->src);
	unsigned int nr = dtl_stats__nr_cpus(l->stats);

	for (unsigned int cpu = 0; cpu < nr; cpu++) {
		bool on = dtl_cpuset__has(cpus, cpu);

		dtl_stats__set_online(l->stats, cpu, on);
		loop_sumiv_online(l, cpu, on);
		loop_rec_cpu(l, cpu, on);
		loop_serve_cpu(l, cpu, on);
	}
	/* the VPs change only with the CPUs: counted here, not at every frame */
	l->nr_vps = dtl_source__topo(l->src)->known ?
		    dtl_topo__count(dtl_source__topo(l->src), cpus, &l->smt) : 0;
}

/* The source's lparcfg (the simulator's, a recording's), else the machine's; NULL: none. */
static const char *lparcfg_text(struct dtl_loop *l)
{
	static char buf[1 << 16];

	if (dtl_source__lparcfg(l->src))
		return dtl_source__lparcfg(l->src);
	if (dtl_source__recorded(l->src) ||	/* a replay shows only its own */
	    dtl_sys__read(l->o.src.root, "proc/powerpc/lparcfg", buf, sizeof(buf)) < 0)
		return NULL;
	return buf;
}

static void read_lparcfg(struct dtl_loop *l, bool record)
{
	uint64_t tb_freq = dtl_source__tb_freq(l->src);
	const char *text = lparcfg_text(l);

	l->lparcfg_prev = l->lparcfg;
	if (text) {
		snprintf(l->lparcfg_text, sizeof(l->lparcfg_text), "%.4095s", text);
		dtl_sys__parse_lparcfg(text, &l->lparcfg);
		if (record)
			loop_rec_lparcfg(l, text);
	}
	if (!l->lparcfg0.present)
		l->lparcfg0 = l->lparcfg;
	dtl_sys__lpar_figs(&l->lparcfg_prev, &l->lparcfg, tb_freq, &l->lpar);
	dtl_sys__lpar_figs(&l->lparcfg0, &l->lparcfg, tb_freq, &l->lpar_total);
}

/* lparstat's figures f on the partition's row r. */
void loop_lpar_fill(struct dtl_row *r, const struct dtl_lpar_figs *f)
{
	r->known &= ~(DTL_KNOWN_PHYSC | DTL_KNOWN_ENTC | DTL_KNOWN_APP);
	r->known |= (f->known & DTL_LPARF_PHYSC ? DTL_KNOWN_PHYSC : 0) |
		  (f->known & DTL_LPARF_ENTC ? DTL_KNOWN_ENTC : 0) |
		  (f->known & DTL_LPARF_APP ? DTL_KNOWN_APP : 0);
	r->physc = f->physc;
	r->entc_pct = f->entc_pct;
	r->app = f->app;
}

/* The partition's lparcfg figures on the aggregate row, over the span it shows. */
static void lpar_row(struct dtl_loop *l)
{
	if (l->table.selected)
		return;		/* -C: the row is not the partition */
	loop_lpar_fill(&l->table.all, l->since_start ? &l->shown_lpar_total : &l->shown_lpar);
}

/* A replay's host is the recorded machine's, or unknown: never this one's. */
const char *loop_host(const struct dtl_loop *l)
{
	if (dtl_source__host(l->src))
		return dtl_source__host(l->src);
	return dtl_source__recorded(l->src) ? "" : l->host;
}

static void build_model(struct dtl_loop *l)
{
	struct dtl_model *m = &l->model;

	memset(m, 0, sizeof(*m));
	m->table = &l->table;
	m->stats = l->stats;
	m->root = l->o.src.root;
	{
		const char *none, *text = dtl_source__kallsyms(l->src, &none);

		dtl_syms__from(l->syms, text, none, l->o.src.root);
		m->syms = l->syms;
	}
	m->intervals = dtl_stats__intervals(l->stats);
	m->hist_by = l->o.hist_by;
	m->metrics_by = l->o.metrics_by;
	m->metrics_cgroups = l->o.metrics_cgroups;
	m->host = loop_host(l);
	m->partition_name = dtl_source__partition_name(l->src);
	m->source = dtl_source__name(l->src);
	m->detail = dtl_source__detail(l->src);
	m->mask = dtl_source__mask(l->src);
	m->interval_s = l->o.interval_s;
	m->nr_vcpus = dtl_stats__nr_online(l->stats);
	m->nr_vps = l->nr_vps;
	m->smt = l->smt;
	m->paused = l->paused;
	m->since_start = l->since_start;
	m->totals_from_ns = l->totals_from_ns;
	m->smooth_s = l->smooth_s > 0 && !l->since_start ? l->smooth_s : 0;
	m->recorded = dtl_source__recorded(l->src);
	m->recorded_interval_s = m->recorded ? dtl_source__recorded_interval(l->src) : 0;
	m->lparcfg = &l->shown_lparcfg;
	m->lpar = l->since_start ? &l->shown_lpar_total : &l->shown_lpar;
	m->status = l->status;
	m->incident = l->incident[0] && l->fresh_model ? l->incident : NULL;
	loop_rec_rate(l, l->rec_rate, sizeof(l->rec_rate));
	m->rec_rate = l->rec_rate;
}

static void sort_rows(struct dtl_loop *l)
{
	int col = l->o.sort_col;
	bool rev = l->o.sort_reverse;

	if (l->view && l->view->ops->sort)
		l->view->ops->sort(l->view, &col, &rev);
	dtl_table__sort(&l->table, col, rev);
}

void loop_refill(struct dtl_loop *l, uint64_t ts)
{
	dtl_table__fill(&l->table, l->stats, l->since_start ? DTL_SPAN_TOTAL : DTL_SPAN_INTERVAL,
			ts);
	l->table.ts_ns = ts;
	l->shown_lparcfg = l->lparcfg;
	l->shown_lpar = l->lpar;
	l->shown_lpar_total = l->lpar_total;
	lpar_row(l);
	loop_smooth(l, l->fresh);
	l->fresh = false;
	sort_rows(l);
}

/*
 * The interval ending at ts to the view (fresh), or the one shown again.
 * Paused, the rows on screen stay as they were (capture goes on behind
 * them) and 'e' exports exactly those; only their order follows the keys.
 */
static int present(struct dtl_loop *l, uint64_t ts, bool fresh)
{
	int rc;

	if (!l->paused) {
		l->fresh = fresh;
		loop_refill(l, ts);
	} else
		sort_rows(l);
	l->fresh_model = fresh && !l->paused;
	build_model(l);
	rc = l->view->ops->show(l->view, &l->model, fresh);
	if (l->fresh_model)
		l->incident[0] = '\0';	/* told once, with its interval */
	l->fresh_model = false;
	return rc;
}

void loop_redraw(struct dtl_loop *l)
{
	present(l, l->table.ts_ns, false);
}

/* Attached, and too slow for the service a while: it dropped intervals of this viewer's. */
static void say_dropped(struct dtl_loop *l)
{
	uint64_t n = dtl_source__dropped(l->src);

	if (n == l->dropped_seen)
		return;
	l->dropped_seen = n;
	snprintf(l->status, sizeof(l->status), "the service dropped %llu interval%s this viewer was "
		 "too slow to take", (unsigned long long)n, n == 1 ? "" : "s");
	if (!loop_interactive(l))
		fprintf(stderr, "dtltop: %s\n", l->status);
}

/* A summary's incident, replayed: the status line says what and where its raw entries are. */
static void say_incident(struct dtl_loop *l, uint64_t ts)
{
	char buf[600], when[32];
	const char *inc = dtl_source__incident(l->src, buf, sizeof(buf));
	char *tab = inc ? strchr(buf, '\t') : NULL;
	time_t t = (time_t)(ts / 1000000000ull);
	struct tm tm;

	if (!inc)
		return;
	snprintf(l->incident, sizeof(l->incident), "%s", buf);
	if (tab)
		*tab++ = '\0';
	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(l->status, sizeof(l->status), "incident at %s: %.200s; its raw entries: %.240s",
		 when, buf, tab && *tab ? tab : "(not written)");
	if (!loop_interactive(l))
		fprintf(stderr, "dtltop: %s\n", l->status);
}

/*
 * One interval: tick the source, fold what it gives, end the interval.
 * False when a recording has no more intervals (the stats are untouched).
 */
bool loop_step(struct dtl_loop *l, uint64_t interval_ns, uint64_t started, uint64_t *ts)
{
	const char *warning;
	uint64_t clk_ns, end_tb = 0;
	double secs;

	dtl_source__tick(l->src, interval_ns);
	loop_witness_read(l);
	drain(l);
	if (loop_stopped(l))
		return false;	/* a cut interval is not shown */
	loop_witness_settle(l);
	loop_statw_settle(l);
	if (dtl_source__ended(l->src, &warning))
		return false;
	sync_mask(l);
	if (dtl_source__tb(l->src, &end_tb))
		dtl_stats__end_at(l->stats, end_tb);
	/* Sources that know the interval (simulator, replay) say; else what elapsed. */
	secs = dtl_source__interval(l->src);
	if (secs <= 0)
		secs = (double)(loop_now(l, CLOCK_MONOTONIC) - started) / 1e9;
	dtl_stats__end_interval(l->stats, secs);
	if (l->tasks)
		dtl_tasks__end_interval(l->tasks, secs, dtl_source__mask(l->src));
	loop_sumiv_end(l, end_tb, secs);
	loop_sync_online(l);
	read_lparcfg(l, true);
	*ts = dtl_source__clock(l->src, &clk_ns) ? clk_ns : loop_now(l, CLOCK_REALTIME);
	say_incident(l, *ts);
	say_dropped(l);
	loop_rec_tick(l, *ts, secs, end_tb);
	loop_serve_tick(l, *ts, secs);
	l->shown++;
	return true;
}

void loop_end_status(struct dtl_loop *l, const char *warning)
{
	snprintf(l->status, sizeof(l->status), "end of the recording after interval %llu%s%.400s",
		 (unsigned long long)l->shown, warning ? ": " : "", warning ? warning : "");
}

/*
 * Until the interval's deadline: the view's keys (or the source's poll when
 * the view takes none), draining as entries come. False to quit.
 */
static bool wait_interval(struct dtl_loop *l, uint64_t deadline)
{
	struct dtl_view *v = l->view;
	int cap = v->ops->wait ? POLL_MS : IDLE_MS, need = dtl_source__drain_ms(l->src);

	if (need > 0 && need < cap)
		cap = need;
	while (!loop_stopped(l)) {
		uint64_t now = loop_now(l, CLOCK_MONOTONIC);
		int ms;

		if (now >= deadline)
			break;
		ms = (int)((deadline - now + 999999) / 1000000);
		if (ms > cap)
			ms = cap;
		if (v->ops->wait) {
			if (!dtl_loop__act(l, v, v->ops->wait(v, ms)))
				return false;
			dtl_source__poll(l->src, 0);
		} else {
			dtl_source__poll(l->src, ms);
		}
		loop_serve_poll(l);
		drain(l);
	}
	return !loop_stopped(l);
}

/* A recording ran out: a script is done; a person keeps the last interval, paused. */
static bool ended(struct dtl_loop *l)
{
	const char *warning;

	dtl_source__ended(l->src, &warning);
	if (l->o.src.attach) {
		/* not a recording's end: the service stopped (or dropped this viewer) */
		snprintf(l->status, sizeof(l->status), "the service at %.400s went away", l->o.src.replay);
		if (!loop_interactive(l))
			fprintf(stderr, "dtltop: %s\n", l->status);
		l->gone_said = !loop_interactive(l);
		l->exit_code = 1;
		return true;
	}
	if (!loop_interactive(l)) {
		if (warning)
			fprintf(stderr, "dtltop: warning: %s\n", warning);
		return true;
	}
	loop_end_status(l, warning);	/* t, T and b still move */
	l->paused = true;
	loop_redraw(l);
	return false;
}

int dtl_loop__run(struct dtl_loop *l, struct dtl_view *v)
{
	struct dtl_pace pace;
	long done = 0;
	int rc;

	l->view = v;
	if (loop_interactive(l))
		loop_redraw(l);
	else if (l->status[0])
		fprintf(stderr, "dtltop: note: %s\n", l->status);	/* a script's log says it */
	loop_pace_begin(l, &pace);
	if (!loop_window_skip(l, (uint64_t)(l->o.interval_s * 1e9))) {
		if (loop_stopped(l))
			return 0;
		snprintf(l->status, sizeof(l->status), "the recording ends before --begin %.400s",
			 l->o.begin);
		if (!loop_interactive(l)) {
			fprintf(stderr, "dtltop: %s\n", l->status);
			return 1;
		}
		l->paused = true;
		loop_redraw(l);
	}
	/* a replay shows its first interval at once, not a recorded interval later */
	if (dtl_source__recorded(l->src) && !pace.virt) {
		uint64_t first = (uint64_t)(l->o.interval_s * 1e9);

		pace.start = pace.start > first ? pace.start - first : 0;
	}
	for (;;) {
		uint64_t interval_ns = (uint64_t)(l->o.interval_s * 1e9), ts;
		uint64_t deadline = pace.start + interval_ns;
		/* followed, an interval is shown as soon as it is written, not at a pace */
		bool follow = l->o.src.replay_follow && !l->paused;

		if (!pace.virt && !follow && !wait_interval(l, deadline))
			return 0;
		if (loop_stopped(l))
			return 0;
		if (l->paused && dtl_source__recorded(l->src)) {
			pace.start = deadline;	/* a paused replay stands still */
			continue;
		}
		if (loop_window_over(l) && !l->paused) {
			/* the window's end: as a recording's end */
			if (!loop_interactive(l))
				return 0;
			snprintf(l->status, sizeof(l->status), "end of the window (--end %.400s) after "
				 "interval %llu", l->o.end, (unsigned long long)l->shown);
			l->paused = true;
			loop_redraw(l);
			continue;
		}
		if (!dtl_source__ready(l->src)) {
			/* a recording followed as it grows: its writer has not ended the interval */
			uint64_t now = loop_now(l, CLOCK_MONOTONIC);

			if (!wait_interval(l, now + FOLLOW_POLL_NS))
				return 0;
			pace.start = loop_now(l, CLOCK_MONOTONIC);
			continue;
		}
		if (!loop_step(l, interval_ns, pace.start, &ts)) {
			if (loop_stopped(l) || ended(l))
				return 0;
			pace.start = deadline;
			continue;
		}
		rc = present(l, ts, true);
		if (rc)
			return rc < 0 ? 1 : 0;	/* an error, or the reader left */
		if (l->o.iterations && ++done >= l->o.iterations)
			return 0;
		loop_pace_next(l, &pace, interval_ns, deadline);
	}
}

struct dtl_loop *dtl_loop__new(const struct dtl_opts *o, struct dtl_source *src,
			       const struct dtl_clock *clock, const volatile sig_atomic_t *stop,
			       char *err, size_t errlen)
{
	struct dtl_loop *l = calloc(1, sizeof(*l));

	if (!l) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	l->o = *o;
	l->smooth_s = o->smooth_s;
	l->src = src;
	l->clock = clock ? *clock : dtl_clock_real;
	l->stop = stop;
	if (gethostname(l->host, sizeof(l->host) - 1))
		l->host[0] = '\0';
	dtl_sanitize(l->host);
	l->stats = dtl_stats__new(dtl_source__nr_cpus(src), dtl_source__tb_freq(src));
	if (!l->stats) {
		snprintf(err, errlen, "out of memory for %u CPUs", dtl_source__nr_cpus(src));
		goto fail_loop;
	}
	l->tasks = dtl_tasks__new(dtl_source__nr_cpus(src), dtl_source__tb_freq(src));
	l->table.tasks = l->tasks;
	l->syms = dtl_syms__new();
	if (!l->syms) {
		snprintf(err, errlen, "out of memory");
		goto fail_stats;
	}
	/* the socket first: a service refused leaves no recording behind */
	if (loop_serve_open(l, err, errlen) || (o->write && loop_rec_open(l, err, errlen)))
		goto fail_stats;
	loop_start_stats(l);
	loop_sync_online(l);
	loop_witness_open(l);
	loop_statw_open(l);
	read_lparcfg(l, false);	/* the recording has the first in its header */
	if (!dtl_source__clock(src, &l->replay_start_ns))
		l->replay_start_ns = 0;
	if (loop_window_init(l, err, errlen)) {
		dtl_loop__delete(l, 0);	/* takes the source down too, as the failures above */
		return NULL;
	}
	if (dtl_source__note(src))
		snprintf(l->status, sizeof(l->status), "%s", dtl_source__note(src));
	l->table.selected = o->src.have_cpus;
	l->table.by_vp = o->by_vp && dtl_source__topo(src)->known;
	l->table.group = o->group;
	dtl_table__fill(&l->table, l->stats, DTL_SPAN_INTERVAL, loop_now(l, CLOCK_REALTIME));
	build_model(l);
	return l;

fail_stats:
	loop_incident_close(l);
	loop_serve_close(l);
	loop_sumiv_close(l);
	dtl_syms__delete(l->syms);
	dtl_tasks__delete(l->tasks);
	dtl_stats__delete(l->stats);
fail_loop:
	free(l);
fail:
	dtl_source__close(src);
	return NULL;
}

const struct dtl_model *dtl_loop__model(struct dtl_loop *l)
{
	return &l->model;
}

uint64_t dtl_loop__shown(const struct dtl_loop *l)
{
	return l->shown;
}

int dtl_loop__delete(struct dtl_loop *l, int rc)
{
	char err[4096];

	if (!l)
		return rc;
	loop_rec_finish(l);
	if (l->rec && dtl_rec_writer__close(l->rec, err, sizeof(err))) {
		fprintf(stderr, "dtltop: %s\n", err);
		rc = rc ? rc : 1;
	} else if (l->rec)
		loop_rec_drop_empty(l);
	if (!rc)
		rc = l->exit_code;
	if (l->o.src.attach && l->exit_code && !l->gone_said)
		fprintf(stderr, "dtltop: %s\n", l->status);	/* the TUI has ended: said where it stays */
	dtl_rec_marker__delete(l->rec_marker);
	loop_incident_close(l);
	loop_serve_close(l);
	loop_witness_close(l);
	loop_statw_close(l);
	loop_smooth_free(l);
	dtl_table__free(&l->table);
	loop_recsyms_free(l);
	loop_sumiv_close(l);
	dtl_syms__delete(l->syms);
	dtl_tasks__delete(l->tasks);
	dtl_stats__delete(l->stats);
	dtl_source__close(l->src);
	free(l);
	return rc;
}
