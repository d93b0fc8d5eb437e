/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * main.c - build one source, one stats, one view, and run the interval loop:
 * drain the source until the interval ends, fold entries, show the interval.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <ncurses.h>
#include <zlib.h>
#include <zstd.h>

#include "dtl/dtl.h"
#include "format/record.h"
#include "source/source.h"
#include "platform/sys.h"
#include "opts.h"
#include "stats/stats.h"
#include "tui/keys.h"
#include "tui/tui.h"
#include "version.h"
#include "view/columns.h"
#include "view/table.h"

/* Poll at 50 Hz at least: an 85-entry ring laps in ~17 ms at 5k dispatches/s. */
#define POLL_MS 20

struct app {
	struct dtl_opts o;
	struct dtl_source *src;
	struct dtl_stats *stats;
	struct dtl_table table;
	struct dtl_tui *tui;
	FILE *out;
	char out_tmp[4096];
	bool out_direct;		/* -o names a device or FIFO */
	struct dtl_lparcfg lparcfg;
	long long lpar_delta;
	bool paused, since_start;
	char status[512];
	struct dtl_rec_writer *rec;
	struct dtl_cpuset recorded_cpus;	/* what the recording knows is online */
	int exit_code;
	uint64_t shown;			/* intervals ended since the start or a rewind */
	uint64_t replay_start_ns;	/* a replay's clock before its first interval */
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void record_failed(struct app *a)
{
	char err[4096];

	dtl_rec_writer__close(a->rec, err, sizeof(err));
	a->rec = NULL;
	snprintf(a->status, sizeof(a->status), "recording stopped: %.400s", err);
	if (!a->tui)
		fprintf(stderr, "dtltop: recording stopped: %s\n", err);
	a->exit_code = 1;
}

/*
 * A replay's mask changes as its records come; the stats must know when.
 * Telling them the mask in force again changes nothing.
 */
static void sync_mask(struct app *a)
{
	dtl_stats__set_mask(a->stats, dtl_source__mask(a->src));
}

/* A fresh stats starts where the source's clock stands. */
static void start_stats(struct app *a)
{
	uint64_t tb;

	sync_mask(a);
	if (dtl_source__tb(a->src, &tb))
		dtl_stats__start_at(a->stats, tb);
}

/*
 * A slow source (a huge simulated pool) can take seconds to drain: look at
 * the keyboard between chunks, every 50 ms, so q is honoured at once.
 */
static void check_quit(struct app *a, unsigned long *chunks, uint64_t *last)
{
	uint64_t now;

	if (!a->tui || ++*chunks % 64)
		return;
	now = now_ns(CLOCK_MONOTONIC);
	if (now - *last < 50000000ull)
		return;
	*last = now;
	if (dtl_tui__quit_pending(a->tui))
		stop = 1;
}

static void drain(struct app *a)
{
	struct dtl_chunk c;
	unsigned long chunks = 0;
	uint64_t last = now_ns(CLOCK_MONOTONIC);

	while (!stop && dtl_source__read(a->src, &c) > 0) {
		check_quit(a, &chunks, &last);
		sync_mask(a);
		if (a->rec && (dtl_rec_writer__entries(a->rec, c.cpu, c.data, c.n, c.lost, c.bad) ||
			       dtl_rec_writer__gaps(a->rec, c.cpu, c.gaps)))
			record_failed(a);
		if (c.gaps)
			dtl_stats__add_gaps(a->stats, c.cpu, c.gaps);
		dtl_stats__add_entries(a->stats, c.cpu, c.data, c.n);
		if (c.lost)
			dtl_stats__add_lost(a->stats, c.cpu, c.lost);
		if (c.bad)
			dtl_stats__add_bad(a->stats, c.cpu, c.bad);
	}
}

static void sync_online(struct app *a)
{
	const struct dtl_cpuset *cpus = dtl_source__cpus(a->src);
	unsigned int nr = dtl_stats__nr_cpus(a->stats);

	for (unsigned int cpu = 0; cpu < nr; cpu++) {
		bool on = dtl_cpuset__has(cpus, cpu);

		dtl_stats__set_online(a->stats, cpu, on);
		if (a->rec && on != dtl_cpuset__has(&a->recorded_cpus, cpu)) {
			if (dtl_rec_writer__cpu(a->rec, cpu, on))
				record_failed(a);
			if (on)
				dtl_cpuset__set(&a->recorded_cpus, cpu);
			else
				dtl_cpuset__unset(&a->recorded_cpus, cpu);
		}
	}
}

static void read_lparcfg(struct app *a)
{
	uint64_t before = a->lparcfg.dispatches;
	bool had = a->lparcfg.have_dispatches;

	if (dtl_source__lparcfg(a->src))
		dtl_sys__parse_lparcfg(dtl_source__lparcfg(a->src), &a->lparcfg);
	else if (!dtl_source__recorded(a->src))
		dtl_sys__lparcfg(a->o.src.root, &a->lparcfg);	/* a replay shows only its own */
	a->lpar_delta = had && a->lparcfg.have_dispatches && a->lparcfg.dispatches >= before ?
			(long long)(a->lparcfg.dispatches - before) : -1;
}

static void model(struct app *a, struct dtl_model *m)
{
	memset(m, 0, sizeof(*m));
	m->table = &a->table;
	m->source = dtl_source__name(a->src);
	m->detail = dtl_source__detail(a->src);
	m->mask = dtl_source__mask(a->src);
	m->interval_s = a->o.interval_s;
	m->nr_vcpus = dtl_stats__nr_online(a->stats);
	m->paused = a->paused;
	m->since_start = a->since_start;
	m->lparcfg = &a->lparcfg;
	m->lpar_dispatches = a->lpar_delta;
	m->status = a->status;
}

static void refill(struct app *a, uint64_t ts)
{
	int col;
	bool rev;

	dtl_table__fill(&a->table, a->stats, a->since_start ? DTL_SPAN_TOTAL : DTL_SPAN_INTERVAL, ts);
	if (a->tui)
		dtl_tui__sort(a->tui, &col, &rev);
	else
		col = a->o.sort_col, rev = a->o.sort_reverse;
	dtl_table__sort(&a->table, col, rev);
}

/*
 * Paused, the rows on screen stay as they were (capture goes on behind
 * them) and 'e' exports exactly those; only their order follows the keys.
 */
static void redraw(struct app *a)
{
	struct dtl_model m;
	int col;
	bool rev;

	if (!a->paused) {
		refill(a, a->table.ts_ns);
	} else {
		dtl_tui__sort(a->tui, &col, &rev);
		dtl_table__sort(&a->table, col, rev);
	}
	model(a, &m);
	dtl_tui__draw(a->tui, &m);
}

static void set_mask(struct app *a, unsigned int mask)
{
	char err[512], text[32];

	if (!mask) {
		snprintf(a->status, sizeof(a->status), "the event mask cannot be empty; 'a' selects all");
		return;
	}
	if (dtl_source__set_mask(a->src, mask, err, sizeof(err))) {
		snprintf(a->status, sizeof(a->status), "mask not changed: %.400s", err);
		return;
	}
	sync_mask(a);
	dtl_mask__format(mask, text, sizeof(text));
	snprintf(a->status, sizeof(a->status), "event mask now %s (0x%x)", text, mask);
	if (a->rec && dtl_rec_writer__mask(a->rec, mask))
		record_failed(a);
}

static void export(struct app *a)
{
	char path[4096], err[4096];

	if (dtl_snapshot__write(".", &a->table, time(NULL), path, sizeof(path), err, sizeof(err)))
		snprintf(a->status, sizeof(a->status), "export failed: %.400s", err);
	else
		snprintf(a->status, sizeof(a->status), "exported %zu rows to %.400s", a->table.n, path);
}

/*
 * One interval: tick the source, fold what it gives, end the interval.
 * False when a recording has no more intervals (the stats are untouched).
 */
static bool step(struct app *a, uint64_t interval_ns, uint64_t started, uint64_t *ts)
{
	const char *warning;
	uint64_t clk_ns, end_tb = 0;
	double secs;

	dtl_source__tick(a->src, interval_ns);
	drain(a);
	if (stop)
		return false;	/* a cut interval is not shown */
	if (dtl_source__ended(a->src, &warning))
		return false;
	sync_mask(a);
	if (dtl_source__tb(a->src, &end_tb))
		dtl_stats__end_at(a->stats, end_tb);
	/* Sources that know the interval (simulator, replay) say; else what elapsed. */
	secs = dtl_source__interval(a->src);
	if (secs <= 0)
		secs = (double)(now_ns(CLOCK_MONOTONIC) - started) / 1e9;
	dtl_stats__end_interval(a->stats, secs);
	sync_online(a);
	read_lparcfg(a);
	*ts = dtl_source__clock(a->src, &clk_ns) ? clk_ns : now_ns(CLOCK_REALTIME);
	if (a->rec && dtl_rec_writer__tick(a->rec, *ts, secs, end_tb))
		record_failed(a);
	a->shown++;
	return true;
}

static void end_status(struct app *a, const char *warning)
{
	snprintf(a->status, sizeof(a->status), "end of the recording after interval %llu%s%.400s",
		 (unsigned long long)a->shown, warning ? ": " : "", warning ? warning : "");
}

/*
 * A replay to interval `target` (1 is the first) or, when target is 0, to
 * the first interval ending at or after at_ns. Back means from the start
 * again, with fresh stats, so totals since start stay true.
 */
static void seek(struct app *a, uint64_t target, uint64_t at_ns)
{
	uint64_t ts = a->table.ts_ns, interval_ns = (uint64_t)(a->o.interval_s * 1e9);
	const char *warning;
	char err[512], when[32];
	time_t t;
	struct tm tm;

	if (!dtl_source__recorded(a->src) || a->rec) {
		snprintf(a->status, sizeof(a->status), "%s",
			 a->rec ? "t, T and b are off while writing a recording (-w)" :
			 "t, T and b move through a replay (-r FILE)");
		return;
	}
	if (target ? target <= a->shown : at_ns < ts) {
		struct dtl_stats *fresh = dtl_stats__new(dtl_source__nr_cpus(a->src),
							 dtl_source__tb_freq(a->src));

		if (!fresh || dtl_source__rewind(a->src, err, sizeof(err))) {
			dtl_stats__delete(fresh);
			snprintf(a->status, sizeof(a->status), "cannot go back: %.400s",
				 fresh ? err : "out of memory");
			return;
		}
		dtl_stats__delete(a->stats);
		a->stats = fresh;
		a->shown = 0;
		start_stats(a);
		sync_online(a);
		ts = a->replay_start_ns;
	}
	while (target ? a->shown < target : ts < at_ns) {
		if (!step(a, interval_ns, now_ns(CLOCK_MONOTONIC), &ts)) {
			dtl_source__ended(a->src, &warning);
			end_status(a, warning);
			break;
		}
		a->status[0] = '\0';
	}
	if (!a->status[0]) {
		t = (time_t)(ts / 1000000000ull);
		gmtime_r(&t, &tm);
		strftime(when, sizeof(when), "%H:%M:%S", &tm);
		snprintf(a->status, sizeof(a->status), "interval %llu, ending %s UTC (paused; space "
			 "resumes)", (unsigned long long)a->shown, when);
	}
	a->paused = true;
	refill(a, ts);
	a->table.ts_ns = ts;
}

/* Returns false to quit. */
static bool handle(struct app *a, struct dtl_act act)
{
	switch (act.what) {
	case DTL_ACT_NONE:
		return true;
	case DTL_ACT_QUIT:
		return false;
	case DTL_ACT_MASK_TOGGLE:
		set_mask(a, dtl_source__mask(a->src) ^ act.bit);
		break;
	case DTL_ACT_MASK_ALL:
		set_mask(a, DTL_MASK_ALL);
		break;
	case DTL_ACT_EXPORT:
		export(a);
		break;
	case DTL_ACT_RESET:
		dtl_stats__reset_totals(a->stats);
		snprintf(a->status, sizeof(a->status), "totals reset");
		break;
	case DTL_ACT_PAUSE:
		a->paused = !a->paused;
		a->status[0] = '\0';
		break;
	case DTL_ACT_SPAN:
		a->since_start = !a->since_start;
		refill(a, a->table.ts_ns);	/* asked for: new rows even when paused */
		break;
	case DTL_ACT_INTERVAL:
		a->o.interval_s = act.interval_s;
		snprintf(a->status, sizeof(a->status), "interval now %.2fs (from the next one)",
			 act.interval_s);
		break;
	case DTL_ACT_REDRAW:
		a->status[0] = '\0';	/* a message lasts until the next key */
		break;
	case DTL_ACT_STEP:
		a->status[0] = '\0';
		if (act.step < 0 && a->shown <= 1)
			snprintf(a->status, sizeof(a->status), "already at the first interval");
		else
			seek(a, act.step < 0 ? a->shown - 1 : a->shown + 1, 0);
		break;
	case DTL_ACT_JUMP: {
		uint64_t at_ns, target;
		char err[256];

		a->status[0] = '\0';
		if (dtl_opts__parse_when(act.text, a->replay_start_ns, &at_ns, &target, err,
					 sizeof(err)))
			snprintf(a->status, sizeof(a->status), "%s", err);
		else
			seek(a, target, at_ns);
		break;
	}
	}
	redraw(a);
	return true;
}

static void emit_batch(struct app *a, bool first)
{
	char title[512], mask[32];

	if (a->o.format == DTL_FORMAT_CSV) {
		if (first)
			dtl_csv__header(a->out);
		dtl_csv__rows(a->out, &a->table);
	} else {
		dtl_mask__format(dtl_source__mask(a->src), mask, sizeof(mask));
		int len = snprintf(title, sizeof(title), "%s %s  mask %s  %u vCPUs",
				   dtl_source__name(a->src), dtl_source__detail(a->src), mask,
				   dtl_stats__nr_online(a->stats));

		if (a->lparcfg.present && len > 0 && (size_t)len < sizeof(title))
			snprintf(title + len, sizeof(title) - (size_t)len,
				 "\nLPAR ent %.2f  %s %s  VPs %u  pool %.2f  lparcfg dispatches %s%lld",
				 a->lparcfg.entitlement, a->lparcfg.shared ? "shared" : "dedicated",
				 a->lparcfg.capped ? "capped" : "uncapped", a->lparcfg.active_vps,
				 a->lparcfg.pool_capacity, a->lpar_delta >= 0 ? "+" : "",
				 a->lpar_delta);
		dtl_text__table(a->out, &a->table, title);
	}
	fflush(a->out);
}

/* A replay runs at its recorded pace times --speed; max (batch's default) never sleeps. */
static void pace(struct app *a, bool *virt)
{
	double speed = a->o.have_speed ? a->o.speed : a->tui ? 1.0 : 0;

	if (!dtl_source__recorded(a->src))
		return;
	*virt = speed == 0 && !a->tui;
	/* The recorded interval, times -d's grouping: the pace of what is shown. */
	a->o.interval_s = dtl_source__recorded_interval(a->src) / (speed > 0 ? speed : 1e6);
}

static int run(struct app *a)
{
	uint64_t clk_ns;
	bool virt = a->o.batch && dtl_source__clock(a->src, &clk_ns);
	uint64_t start = now_ns(CLOCK_MONOTONIC), deadline;
	long done = 0;

	pace(a, &virt);
	for (;;) {
		uint64_t interval_ns = (uint64_t)(a->o.interval_s * 1e9), ts;
		const char *warning;

		deadline = start + interval_ns;
		while (!virt && !stop) {
			uint64_t now = now_ns(CLOCK_MONOTONIC);
			int ms;

			if (now >= deadline)
				break;
			ms = (int)((deadline - now + 999999) / 1000000);
			if (ms > POLL_MS)
				ms = POLL_MS;
			if (a->tui) {
				if (!handle(a, dtl_tui__wait(a->tui, ms)))
					return 0;
				dtl_source__poll(a->src, 0);
			} else {
				dtl_source__poll(a->src, ms);
			}
			drain(a);
		}
		if (stop)
			return 0;
		if (a->paused && dtl_source__recorded(a->src)) {
			start = deadline;	/* a paused replay stands still */
			continue;
		}
		if (!step(a, interval_ns, start, &ts)) {
			dtl_source__ended(a->src, &warning);
			if (warning && !a->tui)
				fprintf(stderr, "dtltop: warning: %s\n", warning);
			if (!a->tui)
				return 0;
			/* The last interval stays up, paused: t, T and b still move. */
			end_status(a, warning);
			a->paused = true;
			redraw(a);
			start = deadline;
			continue;
		}
		if (a->tui) {
			if (!a->paused) {
				refill(a, ts);
				a->table.ts_ns = ts;
			}
			redraw(a);
		} else {
			refill(a, ts);
			emit_batch(a, done == 0);
			if (ferror(a->out) && errno == EPIPE)
				return 0;	/* the reader left, as with `| head` */
			if (ferror(a->out)) {
				fprintf(stderr, "dtltop: writing %s: %s\n",
					a->o.output ? a->o.output : "stdout", strerror(errno));
				return 1;
			}
		}
		done++;
		if (a->o.iterations && done >= a->o.iterations)
			return 0;
		start = virt ? start + interval_ns : deadline;
		if (!virt && now_ns(CLOCK_MONOTONIC) > start + interval_ns)
			start = now_ns(CLOCK_MONOTONIC);	/* fell behind: don't burst */
	}
}

static int open_recording(struct app *a, char *err, size_t errlen)
{
	struct dtl_rec_meta m;
	uint64_t clk;

	memset(&m, 0, sizeof(m));
	snprintf(m.dtltop_version, sizeof(m.dtltop_version), "%s", DTLTOP_VERSION);
	gethostname(m.host, sizeof(m.host) - 1);
	snprintf(m.source, sizeof(m.source), "%s", dtl_source__name(a->src));
	snprintf(m.detail, sizeof(m.detail), "%s", dtl_source__detail(a->src));
	m.tb_freq = dtl_source__tb_freq(a->src);
	m.start_ns = dtl_source__clock(a->src, &clk) ? clk : now_ns(CLOCK_REALTIME);
	m.interval_s = a->o.interval_s;
	m.mask = dtl_source__mask(a->src);
	if (!dtl_source__tb(a->src, &m.start_tb))
		m.start_tb = 0;
	m.nr_cpus = dtl_source__nr_cpus(a->src);
	m.cpus = *dtl_source__cpus(a->src);
	if (dtl_source__lparcfg(a->src))
		snprintf(m.lparcfg, sizeof(m.lparcfg), "%s", dtl_source__lparcfg(a->src));
	else if (dtl_sys__read(a->o.src.root, "proc/powerpc/lparcfg", m.lparcfg,
			       sizeof(m.lparcfg)) < 0)
		m.lparcfg[0] = '\0';
	a->recorded_cpus = m.cpus;
	a->rec = dtl_rec_writer__open(a->o.write, &m, err, errlen);
	return a->rec ? 0 : -1;
}

static int open_output(struct app *a)
{
	const char *path = a->o.output;
	struct stat st;
	int fd;

	if (!path || strcmp(path, "-") == 0) {
		a->out = stdout;
		return 0;
	}
	/* A device or FIFO (/dev/null, a pipe) is written in place, never replaced. */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		a->out = fopen(path, "w");
		if (!a->out) {
			fprintf(stderr, "dtltop: cannot open %s: %s\n", path, strerror(errno));
			return -1;
		}
		a->out_direct = true;
		return 0;
	}
	if (snprintf(a->out_tmp, sizeof(a->out_tmp), "%s.%ld.tmp", path, (long)getpid()) >=
	    (int)sizeof(a->out_tmp)) {
		fprintf(stderr, "dtltop: output path too long: %s\n", path);
		return -1;
	}
	fd = open(a->out_tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 || !(a->out = fdopen(fd, "w"))) {
		fprintf(stderr, "dtltop: cannot create %s: %s\n", a->out_tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return 0;
}

static int close_output(struct app *a, int rc)
{
	if (a->out == stdout || !a->out)
		return fflush(stdout) && errno != EPIPE ? 1 : rc;
	if (a->out_direct)
		return fclose(a->out) ? 1 : rc;
	if (fclose(a->out) && !rc) {
		fprintf(stderr, "dtltop: writing %s: %s\n", a->out_tmp, strerror(errno));
		rc = 1;
	}
	if (!rc && rename(a->out_tmp, a->o.output)) {
		fprintf(stderr, "dtltop: cannot rename %s to %s: %s\n", a->out_tmp, a->o.output,
			strerror(errno));
		rc = 1;
	}
	if (rc)
		unlink(a->out_tmp);
	return rc;
}

/* What a bug report needs: the version, where libperf came from, what it was built with. */
static void print_version(void)
{
	printf("dtltop %s\n%s; ncursesw %s, zstd %s, zlib %s, libcap\nbuilt with cc %s%s\n",
	       DTLTOP_VERSION, DTLTOP_LIBPERF, NCURSES_VERSION, ZSTD_VERSION_STRING, ZLIB_VERSION,
	       __VERSION__,
#ifdef __OPTIMIZE__
	       ", optimised"
#else
	       ""
#endif
	       );
}

static void list_keys(void)
{
	size_t n;
	const struct dtl_key *k = dtl_keys(&n);

	for (size_t i = 0; i < n; i++)
		printf("%-13s %s\n", k[i].names, k[i].help);
}

static void list_fields(void)
{
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);

	for (size_t i = 0; i < n; i++)
		printf("%-40s %-14s %s\n", c[i].name, c[i].unit[0] ? c[i].unit : "-", c[i].legend);
}

int main(int argc, char **argv)
{
	struct app a;
	char err[8192];
	int rc;

	memset(&a, 0, sizeof(a));
	if (dtl_opts__parse(&a.o, argc, argv, err, sizeof(err))) {
		fprintf(stderr, "dtltop: %s\n", err);
		return 2;
	}
	if (a.o.help) {
		dtl_opts__usage(stdout);
		return 0;
	}
	if (a.o.version) {
		print_version();
		return 0;
	}
	if (a.o.list_fields) {
		list_fields();
		return 0;
	}
	if (a.o.list_keys) {
		list_keys();
		return 0;
	}
	if (a.o.list_options) {
		dtl_opts__list(stdout);
		return 0;
	}
	if (!a.o.batch && (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO)))
		a.o.batch = true;	/* as atop: a pipe gets plain text */
	if (a.o.output && !a.o.batch) {
		fprintf(stderr, "dtltop: -o needs -b (in the TUI, 'e' exports a snapshot)\n");
		return 2;
	}

	if (a.o.have_interval)
		a.o.src.replay_interval_s = a.o.interval_s;
	a.src = dtl_source__open(&a.o.src, err, sizeof(err));
	if (!a.src) {
		fprintf(stderr, "dtltop: %s\n", err);
		return 2;
	}
	a.stats = dtl_stats__new(dtl_source__nr_cpus(a.src), dtl_source__tb_freq(a.src));
	if (!a.stats) {
		fprintf(stderr, "dtltop: out of memory for %u CPUs\n", dtl_source__nr_cpus(a.src));
		dtl_source__close(a.src);
		return 1;
	}
	if (a.o.write && open_recording(&a, err, sizeof(err))) {
		fprintf(stderr, "dtltop: %s\n", err);
		rc = 2;
		goto out;
	}
	start_stats(&a);
	sync_online(&a);
	read_lparcfg(&a);
	if (!dtl_source__clock(a.src, &a.replay_start_ns))
		a.replay_start_ns = 0;
	a.table.selected = a.o.src.have_cpus;
	dtl_table__fill(&a.table, a.stats, DTL_SPAN_INTERVAL, now_ns(CLOCK_REALTIME));

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	signal(SIGPIPE, SIG_IGN);
	if (a.o.batch) {
		if (open_output(&a)) {
			rc = 2;
			goto out;
		}
		rc = close_output(&a, run(&a));
	} else {
		a.tui = dtl_tui__new(!a.o.no_color && !getenv("NO_COLOR"), a.o.sort_col,
				     a.o.sort_reverse);
		if (!a.tui) {
			fprintf(stderr, "dtltop: cannot start the terminal UI (TERM=%s); try -b\n",
				getenv("TERM") ? getenv("TERM") : "");
			rc = 2;
			goto out;
		}
		redraw(&a);
		rc = run(&a);
		dtl_tui__delete(a.tui);
	}
out:
	if (a.rec && dtl_rec_writer__close(a.rec, err, sizeof(err))) {
		fprintf(stderr, "dtltop: %s\n", err);
		rc = rc ? rc : 1;
	}
	if (!rc)
		rc = a.exit_code;
	dtl_table__free(&a.table);
	dtl_stats__delete(a.stats);
	dtl_source__close(a.src);
	return rc;
}
