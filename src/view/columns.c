/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * columns.c - build the column table once: fixed figures, then one column
 * per distinct reason name (dispatch code 5 shares code 1's name, so both
 * count in one column).
 */
#include "columns.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define MAX_COLS 64

static struct dtl_col cols[MAX_COLS];
static size_t nr_cols;

#define F(f) offsetof(struct dtl_row, f)

static const struct dtl_col fixed[] = {
	{ "timestamp", "", "ISO-8601 UTC", "end of the interval", DTL_COL_TIMESTAMP, 0, 0, 0, 0, 99, 1 },
	{ "interval_s", "", "s", "length of the interval", DTL_COL_INTERVAL, 0, 0, 3, 0, 99, 1 },
	{ "cpu", "CPU", "", "logical CPU; \"all\" is the partition, \"selected\" the CPUs of -C",
	  DTL_COL_CPU, 0, 0, 0, 5, 0, 1 },
	{ "dispatches", "DISP", "count", "dispatches logged in the interval",
	  DTL_COL_U64, F(dispatches), 0, 0, 8, 5, 1 },
	{ "dispatch_per_s", "DISP/s", "1/s", "dispatches per second",
	  DTL_COL_DOUBLE, F(dispatch_per_s), 0, 1, 9, 0, 1 },
	{ "preempt_ratio", "INVOL%", "ratio (TUI: %)",
	  "involuntary preempts (time_slice, firmware, faults, HDEC) / dispatches",
	  DTL_COL_DOUBLE, F(preempt_ratio), 0, 4, 7, 0, 100 },
	{ "steal_us", "STEALus", "us", "time lost to the hypervisor: enqueue_to_dispatch + ready_to_enqueue",
	  DTL_COL_DOUBLE, F(steal_us), 0, 1, 10, 2, 1 },
	{ "steal_pct", "STEAL%", "%", "steal within the interval as a share of it (all: of every vCPU's)",
	  DTL_COL_DOUBLE, F(steal_pct), 0, 2, 7, 0, 1 },
	{ "idle_us", "IDLEus", "us", "ceded (idle) wait within the interval: waiting_to_ready",
	  DTL_COL_DOUBLE, F(idle_us), 0, 1, 11, 4, 1 },
	{ "lat_p50_us", "P50us", "us", "median dispatch latency (enqueue_to_dispatch)",
	  DTL_COL_DOUBLE, F(lat_p50_us), 0, 2, 8, 1, 1 },
	{ "lat_p99_us", "P99us", "us", "99th percentile dispatch latency",
	  DTL_COL_DOUBLE, F(lat_p99_us), 0, 2, 9, 1, 1 },
	{ "lat_max_us", "MAXus", "us", "longest dispatch latency",
	  DTL_COL_DOUBLE, F(lat_max_us), 0, 2, 10, 3, 1 },
	{ "migrations", "MIGR", "count", "dispatches on another physical processor than the last",
	  DTL_COL_U64, F(migrations), 0, 0, 6, 3, 1 },
	{ "faults", "FAULT", "count", "page-fault preempts (virtual memory, migration/hibernation)",
	  DTL_COL_U64, F(faults), 0, 0, 6, 3, 1 },
	{ "lost", "LOST", "count", "entries lost to ring overflow (TUI: \"gap\" or N+ when gaps add an "
	  "unknown number)", DTL_COL_LOST, F(lost), 0, 0, 6, 0, 1 },
	{ "idle_pct", "", "%", "idle_us as a share of the interval (all: of every vCPU's)",
	  DTL_COL_DOUBLE, F(idle_pct), 0, 2, 7, 99, 1 },
	{ "gaps", "", "count", "flagged perf AUX records (TRUNCATED, PARTIAL, COLLISION): entries lost, "
	  "count unknown", DTL_COL_U64, F(gaps), 0, 0, 6, 99, 1 },
	{ "mask", "", "hex", "DTL event mask traced throughout the interval (0x7 all; less: partial)",
	  DTL_COL_MASK, 0, 0, 0, 4, 99, 1 },
};

/* Added in 0.3, after the reasons, so older CSV readers find their columns where they were. */
static const struct dtl_col later[] = {
	{ "threads", "", "count", "CPUs in the row: a VP's online threads (--group=vp), 1 for a CPU, "
	  "all online for the partition", DTL_COL_U64, F(threads), 0, 0, 3, 99, 1 },
	{ "run_pct", "RUN%", "%", "100 - steal_pct - idle_pct: the share running, as far as the mask "
	  "traces waits", DTL_COL_DOUBLE, F(run_pct), 0, 2, 6, 6, 1 },
	{ "migrations_same_core", "", "count", "migrations to another thread of the same physical core",
	  DTL_COL_U64, F(migr_core), 0, 0, 6, 99, 1 },
	{ "migrations_other_core", "XCORE", "count", "migrations to another physical core (chip and "
	  "node distance need the hypervisor's associativity)", DTL_COL_U64, F(migr_other), 0, 0, 6,
	  6, 1 },
	{ "physc", "", "processors", "partition: physical processors consumed, lparcfg dPURR/dtimebase "
	  "(empty where unknown)", DTL_COL_KNOWN, F(physc), DTL_KNOWN_PHYSC, 2, 6, 99, 1 },
	{ "entc_pct", "", "%", "partition: physc as a share of the entitled capacity (empty where "
	  "unknown)", DTL_COL_KNOWN, F(entc_pct), DTL_KNOWN_ENTC, 1, 6, 99, 1 },
	{ "app", "", "processors", "partition: idle processors of the shared pool (empty where "
	  "the partition may not read pool data)", DTL_COL_KNOWN, F(app),
	  DTL_KNOWN_APP, 2, 6, 99, 1 },
	{ "steal_vpa_diff_pct", "", "%", "steal_us against the VPA's own steal counters, (DTL - VPA) / "
	  "VPA; empty without VPA", DTL_COL_KNOWN, F(steal_vpa_diff_pct), DTL_KNOWN_VPA, 1, 6, 99, 1 },
	{ "steal_stat_diff_pct", "", "%", "steal_us against /proc/stat's per-CPU steal (USER_HZ "
	  "ticks); empty where it does not move", DTL_COL_KNOWN, F(steal_stat_diff_pct),
	  DTL_KNOWN_STAT, 1, 6, 99, 1 },
	{ "samples", "", "count", "latency samples behind lat_p50_us and lat_p99_us (the TUI shows "
	  "'-' below 20)", DTL_COL_U64, F(samples), 0, 0, 6, 99, 1 },
	/* 0.4 */
	{ "wake_us", "WAKEus", "us", "of steal_us, the wait after a cede (a wake-up); a task's: "
	  "the first to run after it", DTL_COL_DOUBLE, F(wake_us), 0, 1, 10, 5, 1 },
};

/* Short TUI headings for the reason columns worth a glance. */
static const struct {
	int preempt;
	const char *name, *head;
	int width, prio;
} shown[] = {
	{ 1, "H_CEDE", "CEDE", 7, 2 },
	{ 1, "time_slice", "TSLICE", 7, 2 },
	{ 1, "H_CONFER", "CONFER", 7, 4 },
};

static void add_reason(int preempt, const char *name, uint32_t codes)
{
	struct dtl_col *c = &cols[nr_cols++];

	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s_%s", preempt ? "preempt" : "dispatch", name);
	c->unit = "count";
	snprintf(c->legend, sizeof(c->legend), "%s reason %s", preempt ? "preempts with" :
		 "dispatches with", name);
	c->kind = preempt ? DTL_COL_PREEMPT : DTL_COL_DISPATCH;
	c->codes = codes;
	c->prio = 99;
	c->scale = 1;
	for (size_t i = 0; i < sizeof(shown) / sizeof(shown[0]); i++)
		if (shown[i].preempt == preempt && strcmp(shown[i].name, name) == 0) {
			snprintf(c->head, sizeof(c->head), "%s", shown[i].head);
			c->width = shown[i].width;
			c->prio = shown[i].prio;
		}
}

static void add_reasons(int preempt, const char *const *names, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		uint32_t codes = 0;
		unsigned int j;

		for (j = 0; j < i; j++)
			if (strcmp(names[j], names[i]) == 0)
				break;
		if (j < i)
			continue;	/* already has a column */
		for (j = i; j < n; j++)
			if (strcmp(names[j], names[i]) == 0)
				codes |= 1u << j;
		add_reason(preempt, names[i], codes);
	}
	add_reason(preempt, "other", 1u << n);
}

static void build(void)
{
	memcpy(cols, fixed, sizeof(fixed));
	nr_cols = sizeof(fixed) / sizeof(fixed[0]);
	add_reasons(1, dtl_preempt_names, DTL_N_PREEMPT);
	add_reasons(0, dtl_dispatch_names, DTL_N_DISPATCH);
	{
		struct dtl_col *c = &cols[nr_cols++];

		*c = (struct dtl_col){ "bad", "BAD", "count",
			"malformed entries: zero timebase (dropped), timebase going backwards, "
			"partial reads", DTL_COL_U64, F(bad), 0, 0, 5, 5, 1 };
	}
	memcpy(cols + nr_cols, later, sizeof(later));
	nr_cols += sizeof(later) / sizeof(later[0]);
}

const struct dtl_col *dtl_cols(size_t *n)
{
	if (!nr_cols)
		build();
	*n = nr_cols;
	return cols;
}

int dtl_cols__find(const char *name)
{
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);

	for (size_t i = 0; i < n; i++)
		if (strcmp(c[i].name, name) == 0)
			return (int)i;
	/* The headings on screen work too, in any case: -s STEAL% as -s steal_pct. */
	for (size_t i = 0; i < n; i++) {
		char h[16];

		if (c[i].head[0] && (strcasecmp(c[i].head, name) == 0 ||
				     strcasecmp(dtl_col__screen_head(&c[i], false, h, sizeof(h)), name) == 0 ||
				     (c[i].kind == DTL_COL_CPU && strcasecmp(name, "VP") == 0)))
			return (int)i;
	}
	return -1;
}

const char *dtl_col__screen_head(const struct dtl_col *c, bool by_vp, char *buf, size_t len)
{
	const char *h = dtl_col__heading(c, by_vp);
	size_t n = strlen(h);

	if (strcmp(c->unit, "us") == 0 && n > 2 && strcmp(h + n - 2, "us") == 0)
		snprintf(buf, len, "%.*s", (int)(n - 2), h);
	else
		snprintf(buf, len, "%s", h);
	return buf;
}

const char *dtl_col__heading(const struct dtl_col *c, bool by_vp)
{
	return by_vp && c->kind == DTL_COL_CPU ? "VP" : c->head;
}

const char *dtl_row__label(const struct dtl_row *r)
{
	if (r->name)
		return r->name;	/* a task's or a cgroup's */
	return r->cpu == DTL_ROW_ALL ? "all" : r->cpu == DTL_ROW_SELECTED ? "selected" : NULL;
}

/* Figures only DTL entries give: blank where a row was told by counters alone. */
static bool dtl_only(const struct dtl_col *c)
{
	return c->kind == DTL_COL_PREEMPT || c->kind == DTL_COL_DISPATCH || c->kind == DTL_COL_LOST ||
	       ((c->kind == DTL_COL_U64 || c->kind == DTL_COL_DOUBLE) &&
		(c->off == F(preempt_ratio) || c->off == F(lat_p50_us) || c->off == F(lat_p99_us) ||
		 c->off == F(lat_max_us) || c->off == F(faults) || c->off == F(bad) ||
		 c->off == F(migr_core) || c->off == F(migr_other) || c->off == F(gaps) ||
		 c->off == F(samples)));
}

/* A task's or cgroup's row: the CPU's own figures (where it ran, what it lost) are no task's. */
static bool cpu_only(const struct dtl_col *c)
{
	return c->kind == DTL_COL_LOST ||
	       ((c->kind == DTL_COL_U64 || c->kind == DTL_COL_DOUBLE) &&
		(c->off == F(migrations) || c->off == F(migr_core) || c->off == F(migr_other) ||
		 c->off == F(gaps) || c->off == F(bad) || c->off == F(threads)));
}

bool dtl_col__known(const struct dtl_col *c, const struct dtl_row *r)
{
	if (r->group != DTL_ROW_CPU_VP && cpu_only(c))
		return false;
	if (c->kind == DTL_COL_KNOWN)
		return (r->known & c->codes) == c->codes;
	return !dtl_only(c) || (r->known & DTL_KNOWN_DTL);
}

double dtl_col__value(const struct dtl_col *c, const struct dtl_row *r)
{
	const char *base = (const char *)r;
	uint64_t sum = 0;

	switch (c->kind) {
	case DTL_COL_TIMESTAMP:
		return 0;
	case DTL_COL_INTERVAL:
		return r->interval_s;
	case DTL_COL_CPU:
		return r->is_vp ? r->vp : r->cpu;	/* a VP by its number */
	case DTL_COL_MASK:
		return r->mask;
	case DTL_COL_U64:
	case DTL_COL_LOST:
		return (double)*(const uint64_t *)(const void *)(base + c->off);
	case DTL_COL_DOUBLE:
	case DTL_COL_KNOWN:
		return *(const double *)(const void *)(base + c->off);
	case DTL_COL_PREEMPT:
		for (int i = 0; i <= DTL_N_PREEMPT; i++)
			sum += (c->codes >> i & 1) ? r->preempt[i] : 0;
		return (double)sum;
	case DTL_COL_DISPATCH:
		for (int i = 0; i <= DTL_N_DISPATCH; i++)
			sum += (c->codes >> i & 1) ? r->dispatch[i] : 0;
		return (double)sum;
	}
	return 0;
}

void dtl_col__csv(const struct dtl_col *c, const struct dtl_row *r, const char *timestamp,
		  char *buf, size_t len)
{
	if (!dtl_col__known(c, r)) {
		buf[0] = '\0';	/* unknown, not 0 */
		return;
	}
	switch (c->kind) {
	case DTL_COL_TIMESTAMP:
		snprintf(buf, len, "%s", timestamp);
		break;
	case DTL_COL_CPU:
		if (dtl_row__label(r))
			snprintf(buf, len, "%s", dtl_row__label(r));
		else
			snprintf(buf, len, "%d", r->is_vp ? r->vp : r->cpu);
		break;
	case DTL_COL_MASK:
		snprintf(buf, len, "0x%x", r->mask);
		break;
	case DTL_COL_KNOWN:
		snprintf(buf, len, "%.*f", c->prec, dtl_col__value(c, r));
		break;
	case DTL_COL_U64:
	case DTL_COL_LOST:
	case DTL_COL_PREEMPT:
	case DTL_COL_DISPATCH:
		snprintf(buf, len, "%.0f", dtl_col__value(c, r));
		break;
	default:
		snprintf(buf, len, "%.*f", c->prec, dtl_col__value(c, r));
		break;
	}
}

void dtl_col__text(const struct dtl_col *c, const struct dtl_row *r, char *buf, size_t len)
{
	int prec = c->kind == DTL_COL_DOUBLE ? (c->scale != 1 ? 1 : c->prec > 1 ? 1 : c->prec) : 0;

	if (c->kind == DTL_COL_CPU && dtl_row__label(r))
		snprintf(buf, len, "%*s", c->width, dtl_row__label(r));
	else if (c->kind == DTL_COL_MASK)
		snprintf(buf, len, "%*s", c->width, "");
	else if (!dtl_col__known(c, r))
		snprintf(buf, len, "%*s", c->width, "-");
	else if (c->kind == DTL_COL_LOST && r->gaps && !r->lost)
		snprintf(buf, len, "%*s", c->width, "gap");	/* lost, count unknown */
	else if (c->kind == DTL_COL_LOST && r->gaps)
		snprintf(buf, len, "%*llu+", c->width - 1, (unsigned long long)r->lost);
	else
		snprintf(buf, len, "%*.*f", c->width, prec, dtl_col__value(c, r) * c->scale);
}

void dtl_timestamp(uint64_t ns, char *buf, size_t len)
{
	time_t s = (time_t)(ns / 1000000000ull);
	struct tm tm;

	gmtime_r(&s, &tm);
	snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%03uZ", tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
		 (unsigned int)(ns / 1000000ull % 1000));
}
