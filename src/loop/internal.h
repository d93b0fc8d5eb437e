/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * internal.h - the loop's state, shared by the files of src/loop/ only.
 */
#ifndef DTL_LOOP_INTERNAL_H
#define DTL_LOOP_INTERNAL_H

#include "../format/record.h"
#include "../platform/sys.h"
#include "../stats/stats.h"
#include "../stats/task.h"
#include "../view/table.h"
#include "loop.h"

struct dtl_loop {
	struct dtl_opts o;
	struct dtl_source *src;
	struct dtl_stats *stats;
	struct dtl_tasks *tasks;	/* who pays: fed where the source has a switch stream */
	struct dtl_syms *syms;		/* the kernel's symbols, for the views and the recording */
	struct dtl_table table;
	struct dtl_model model;
	struct dtl_clock clock;
	const volatile sig_atomic_t *stop;
	struct dtl_view *view;		/* while running */
	struct dtl_lparcfg lparcfg;
	unsigned int nr_vps, smt;	/* of the CPUs online; nr_vps 0: unknown */
	struct dtl_lparcfg lparcfg0, lparcfg_prev;	/* the first read, the one before */
	struct dtl_lpar_figs lpar, lpar_total;	/* over the interval, since the start */
	/* what the rows on show were made with: paused, the header holds still too */
	struct dtl_lparcfg shown_lparcfg;
	struct dtl_lpar_figs shown_lpar, shown_lpar_total;
	bool paused, since_start;
	char status[512];
	struct dtl_rec_writer *rec;
	double rec_s;		/* data seconds recorded, for the rate -w writes at */
	double rec_file_s;	/* of them, in the file being written (--rotate) */
	uint64_t rec_bytes_done;	/* bytes of the files --rotate closed */
	unsigned int rec_seq;	/* --rotate: the N of FILE.N being written */
	unsigned int rec_first_seq;	/* this run's first N: after what an earlier run left */
	uint64_t rec_set_id;	/* this run's set identity, in every FILE.N it writes */
	char rec_rate[80];
	size_t rec_told;		/* a summary's tasks named in its file so far */
	struct incidents *incidents;	/* --incidents: the raw ring (incident.c) */
	struct sumiv *sumiv;		/* --summary-interval: the summary's own stats (sumiv.c) */
	uint64_t rec_ts, rec_tb;		/* the last live interval's end: a cut summary's */
	char incident[600];
	struct serve *serve;		/* --serve: the viewers attached (serve.c) */
	uint64_t dropped_seen;		/* --attach: the service's drops told so far */
	bool gone_said;			/* --attach: "the service went away" is on stderr */
	char lparcfg_text[4096];	/* the last lparcfg read, for a viewer's summary */		/* the interval's incident, for the views: "why\tFILE", or "" */
	struct dtl_cpuset recorded_cpus;	/* what the recording knows is online */
	/* the kernel symbols the recording carries (recsyms.c) */
	uint64_t *rec_sym_seen;		/* functions' addresses + 1, open addressing */
	size_t rec_sym_nseen, rec_sym_cap;
	char *rec_sym_all;		/* every line written, for a rotated set's next file */
	size_t rec_sym_len, rec_sym_allcap;
	bool rec_sym_rewrite;		/* a new file: all of them again */
	struct dtl_rec_marker *rec_marker;	/* a raw recording's marks, across its set */
	int exit_code;
	bool quit;			/* q typed while an interval was read */
	uint64_t shown;			/* intervals ended since the start or a rewind */
	uint64_t replay_start_ns;	/* a replay's clock before its first interval */
	struct witness *witness;	/* the VPA's, where readable (witness.c) */
	struct statw *statw;		/* /proc/stat's steal, for live sources */
	char host[256];			/* this machine's name */
	double smooth_s;		/* the TUI's smoothing, 0 off */
	bool fresh;			/* the refill is a new interval's */
	bool fresh_model;		/* the model being shown is a new interval's */
	struct smooth *smooth;		/* smooth.c */
	/* --begin, --end (window.c): by time (0 none), or by interval number (0 none) */
	uint64_t win_begin_ns, win_end_ns, win_begin_iv, win_end_iv;
	uint64_t win_first;	/* the window's first interval's number; 0: 1 */
	uint64_t totals_from_ns;	/* where the totals since start begin (r, a window, a seek); 0 the start */
};

static inline uint64_t loop_now(const struct dtl_loop *l, clockid_t clk)
{
	return l->clock.now(l->clock.ctx, clk);
}

static inline bool loop_stopped(const struct dtl_loop *l)
{
	return l->quit || (l->stop && *l->stop);
}

static inline bool loop_interactive(const struct dtl_loop *l)
{
	return l->view && l->view->ops->interactive;
}

/* loop.c */
void loop_start_stats(struct dtl_loop *l);
void loop_sync_online(struct dtl_loop *l);
void loop_refill(struct dtl_loop *l, uint64_t ts);
void loop_redraw(struct dtl_loop *l);
bool loop_step(struct dtl_loop *l, uint64_t interval_ns, uint64_t started, uint64_t *ts);
void loop_end_status(struct dtl_loop *l, const char *warning);

/* window.c: a replay's --begin and --end */
int loop_window_init(struct dtl_loop *l, char *err, size_t errlen);
bool loop_window_skip(struct dtl_loop *l, uint64_t interval_ns);
/*
 * A replay read on, skimmed (its entries passed over) but for the last
 * interval, up to the one before interval iv (1 the first) or before the one
 * that starts at ns; where entries were passed over, the totals restart
 * there. False: the recording ended first, or the loop was stopped.
 */
bool loop_skim_to(struct dtl_loop *l, uint64_t interval_ns, uint64_t iv, uint64_t ns,
		  const char *to);
/* The totals since start begin again where the replay or the run stands. */
void loop_totals_restart(struct dtl_loop *l);
bool loop_window_over(struct dtl_loop *l);
/* nav.c: a replay's moves */
void loop_seek(struct dtl_loop *l, uint64_t target, uint64_t at_ns);
void loop_step_by(struct dtl_loop *l, int step);
void loop_jump(struct dtl_loop *l, const char *when);

/* pace.c */
struct dtl_pace {
	bool virt;		/* no sleeping: intervals follow the source's own clock */
	uint64_t start;		/* the current interval began here (monotonic ns) */
};
void loop_pace_begin(struct dtl_loop *l, struct dtl_pace *p);
/* After an interval: where the next begins. */
void loop_pace_next(struct dtl_loop *l, struct dtl_pace *p, uint64_t interval_ns,
		    uint64_t deadline);

/* smooth.c: decayed averages of the rows for the TUI; fresh adds an interval */
void loop_smooth(struct dtl_loop *l, bool fresh);
void loop_smooth_free(struct dtl_loop *l);

/* witness.c: the VPA as a second witness */
/* The host the figures are of: the source's, or for a live one this machine's. */
const char *loop_host(const struct dtl_loop *l);
void loop_witness_open(struct dtl_loop *l);
void loop_witness_close(struct dtl_loop *l);
void loop_witness_chunk(struct dtl_loop *l, const struct dtl_chunk *c);
void loop_witness_read(struct dtl_loop *l);
void loop_witness_settle(struct dtl_loop *l);
void loop_statw_open(struct dtl_loop *l);
void loop_statw_close(struct dtl_loop *l);
void loop_statw_settle(struct dtl_loop *l);

/* rec.c: the recording (-w) follows what the loop sees */
int loop_rec_open(struct dtl_loop *l, char *err, size_t errlen);
/* The run's header as a recording says it, where the source stands now. */
void loop_rec_meta(struct dtl_loop *l, struct dtl_rec_meta *m);
/*
 * A summary's interval as the stats and the task table kept it, into w:
 * each CPU's counts, each task new to w's reader (*told) or that paid.
 */
int loop_summary_write(struct dtl_loop *l, struct dtl_rec_writer *w, size_t *told);
void loop_rec_failed(struct dtl_loop *l);
void loop_rec_chunk(struct dtl_loop *l, const struct dtl_chunk *c);
void loop_rec_cpu(struct dtl_loop *l, unsigned int cpu, bool on);
/* --rotate: the file begun at the last interval's end, closed with none in it, goes. */
void loop_rec_drop_empty(struct dtl_loop *l);
void loop_rec_tick(struct dtl_loop *l, uint64_t ts, double secs, uint64_t end_tb);
/* recsyms.c: the symbols of the srr0s new since the last tick, into the recording */
int loop_recsyms_tick(struct dtl_loop *l);
void loop_recsyms_free(struct dtl_loop *l);
void loop_rec_mask(struct dtl_loop *l, unsigned int mask);
/* The run ends: a summary's interval it was inside is written, shorter (sumiv.c). */
void loop_rec_finish(struct dtl_loop *l);
void loop_rec_lparcfg(struct dtl_loop *l, const char *text);
void loop_rec_rate(const struct dtl_loop *l, char *buf, size_t len);
void loop_rec_vpa_steal(struct dtl_loop *l, unsigned int cpu, uint64_t ticks);
/* A chunk into a stats and task table (loop.c): the live ones, or a summary's own. */
void loop_feed(struct dtl_stats *s, struct dtl_tasks *t, const struct dtl_chunk *c);
/*
 * --summary-interval (sumiv.c): a summary's own stats and task table, fed
 * as the live ones, ending an interval every N live ones. Without one,
 * the summary's stats and tasks are the live ones and every interval is due.
 */
int loop_sumiv_open(struct dtl_loop *l);
void loop_sumiv_close(struct dtl_loop *l);
struct dtl_stats *loop_sumiv_stats(const struct dtl_loop *l);
struct dtl_tasks *loop_sumiv_tasks(const struct dtl_loop *l);
void loop_sumiv_sync(struct dtl_loop *l);
void loop_sumiv_online(struct dtl_loop *l, unsigned int cpu, bool on);
void loop_sumiv_chunk(struct dtl_loop *l, const struct dtl_chunk *c, const uint64_t *restart_tb);
void loop_sumiv_vpa_steal(struct dtl_loop *l, unsigned int cpu, uint64_t ticks);
void loop_sumiv_lost(struct dtl_loop *l, unsigned int cpu, uint64_t n);
void loop_sumiv_stat_steal(struct dtl_loop *l, unsigned int cpu, uint64_t ticks);
void loop_sumiv_end(struct dtl_loop *l, uint64_t end_tb, double secs);
bool loop_sumiv_cut(struct dtl_loop *l, uint64_t end_tb);
bool loop_sumiv_due(const struct dtl_loop *l);
/* The summary's interval that ended last: its own, or the live one of live_secs. */
double loop_sumiv_secs(const struct dtl_loop *l, double live_secs);
/* --incidents (incident.c): the ring of raw entries beside a summary, written out as things turn. */
int loop_incident_open(struct dtl_loop *l, const struct dtl_rec_meta *m, char *err, size_t errlen);
struct dtl_rec_writer *loop_incident_writer(const struct dtl_loop *l);
/* A chunk's switches went into the ring: who runs on cpu now, for a file beginning later. */
void loop_incident_switches(struct dtl_loop *l, unsigned int cpu, const struct dtl_switch *sw,
			    size_t n);
int loop_incident_tick(struct dtl_loop *l, uint64_t ts, double secs, uint64_t end_tb);
void loop_incident_close(struct dtl_loop *l);
void loop_lpar_fill(struct dtl_row *r, const struct dtl_lpar_figs *f);
/* The event mask, as the c/p/f/a keys set it (act.c); attached, asked of the service. */
void loop_set_mask(struct dtl_loop *l, unsigned int mask);
/* --serve (serve.c): each interval as a summary to the viewers attached to its socket. */
int loop_serve_open(struct dtl_loop *l, char *err, size_t errlen);
void loop_serve_tick(struct dtl_loop *l, uint64_t ts, double secs);
void loop_serve_poll(struct dtl_loop *l);
void loop_serve_mask(struct dtl_loop *l, unsigned int mask);
void loop_serve_cpu(struct dtl_loop *l, unsigned int cpu, bool on);
void loop_serve_close(struct dtl_loop *l);
void loop_rec_stat_steal(struct dtl_loop *l, unsigned int cpu, uint64_t ticks);

#endif
