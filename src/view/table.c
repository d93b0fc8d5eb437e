/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * table.c - turn stats into sorted rows, and write rows as CSV or text.
 */
#include "table.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "columns.h"
#include "../dtl/dtl.h"

int dtl_table__fill(struct dtl_table *t, const struct dtl_stats *s, enum dtl_span span,
		    uint64_t ts_ns)
{
	unsigned int nr = dtl_stats__nr_cpus(s);

	if (t->cap < nr) {
		struct dtl_row *r = realloc(t->rows, sizeof(*r) * nr);

		if (!r)
			return -1;
		t->rows = r;
		t->cap = nr;
	}
	t->n = 0;
	for (unsigned int cpu = 0; cpu < nr; cpu++)
		if (dtl_stats__row(s, (int)cpu, span, &t->rows[t->n]) == 0)
			t->n++;
	t->ts_ns = ts_ns;
	if (dtl_stats__row(s, DTL_ROW_ALL, span, &t->all))
		return -1;
	if (t->selected)
		t->all.cpu = DTL_ROW_SELECTED;
	return 0;
}

static const struct dtl_col *sort_col;
static int sort_dir;

static int cmp(const void *a, const void *b)
{
	const struct dtl_row *x = a, *y = b;
	double vx = dtl_col__value(sort_col, x), vy = dtl_col__value(sort_col, y);

	if (vx != vy)
		return (vx < vy ? -1 : 1) * sort_dir;
	return x->cpu - y->cpu;
}

void dtl_table__sort(struct dtl_table *t, int col, bool reverse)
{
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);

	if (col < 0 || (size_t)col >= n)
		return;
	sort_col = &c[col];
	sort_dir = sort_col->kind == DTL_COL_CPU ? 1 : -1;
	if (reverse)
		sort_dir = -sort_dir;
	if (t->n)
		qsort(t->rows, t->n, sizeof(*t->rows), cmp);
}

void dtl_table__free(struct dtl_table *t)
{
	free(t->rows);
	memset(t, 0, sizeof(*t));
}

void dtl_csv__header(FILE *f)
{
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);

	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? "," : "", c[i].name);
	fputc('\n', f);
}

static void csv_row(FILE *f, const struct dtl_row *r, const char *ts)
{
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);
	char cell[64];

	for (size_t i = 0; i < n; i++) {
		dtl_col__csv(&c[i], r, ts, cell, sizeof(cell));
		fprintf(f, "%s%s", i ? "," : "", cell);
	}
	fputc('\n', f);
}

void dtl_csv__rows(FILE *f, const struct dtl_table *t)
{
	char ts[40];

	dtl_timestamp(t->ts_ns, ts, sizeof(ts));
	for (size_t i = 0; i < t->n; i++)
		csv_row(f, &t->rows[i], ts);
	csv_row(f, &t->all, ts);
}

static void text_row(FILE *f, const struct dtl_row *r)
{
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);
	char cell[64];
	bool first = true;

	for (size_t i = 0; i < n; i++) {
		if (!c[i].head[0])
			continue;
		dtl_col__text(&c[i], r, cell, sizeof(cell));
		fprintf(f, "%s%s", first ? "" : " ", cell);
		first = false;
	}
	fputc('\n', f);
}

void dtl_text__table(FILE *f, const struct dtl_table *t, const char *title)
{
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);
	char ts[40], partial[64];
	bool first = true;

	dtl_timestamp(t->ts_ns, ts, sizeof(ts));
	fprintf(f, "%s  interval %.3fs  %s\n", ts, t->all.interval_s, title);
	fprintf(f, "%s: %llu dispatches (%.1f/s)  involuntary %.1f%%  steal %.2f%%  "
		"latency p50 %.2fus p99 %.2fus max %.2fus  lost %llu%s",
		dtl_row__label(&t->all), (unsigned long long)t->all.dispatches,
		t->all.dispatch_per_s, t->all.preempt_ratio * 100, t->all.steal_pct,
		t->all.lat_p50_us, t->all.lat_p99_us, t->all.lat_max_us,
		(unsigned long long)t->all.lost, t->all.gaps ? "+" : "");
	if (t->all.gaps)
		fprintf(f, "  gaps %llu (entries lost, count unknown)",
			(unsigned long long)t->all.gaps);
	if (dtl_mask__partial(t->all.mask, partial, sizeof(partial)))
		fprintf(f, "  %s", partial);
	fputc('\n', f);
	for (size_t i = 0; i < n; i++) {
		if (!c[i].head[0])
			continue;
		fprintf(f, "%s%*s", first ? "" : " ", c[i].width, c[i].head);
		first = false;
	}
	fputc('\n', f);
	for (size_t i = 0; i < t->n; i++)
		text_row(f, &t->rows[i]);
	text_row(f, &t->all);
	fputc('\n', f);
}

int dtl_snapshot__write(const char *dir, const struct dtl_table *t, time_t now,
			char *path, size_t pathlen, char *err, size_t errlen)
{
	char tmp[4096], stamp[32];
	struct tm tm;
	FILE *f;
	int fd, werr;

	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(tmp, sizeof(tmp), "%s/.dtltop-%s.%ld.tmp", dir, stamp, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, errlen, "cannot create %s: %s", tmp, strerror(errno));
		return -1;
	}
	f = fdopen(fd, "w");
	if (!f) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		close(fd);
		unlink(tmp);
		return -1;
	}
	dtl_csv__header(f);
	dtl_csv__rows(f, t);
	werr = ferror(f) | fflush(f) | fsync(fd);
	if (fclose(f) || werr) {
		snprintf(err, errlen, "writing %s: %s", tmp, strerror(errno));
		unlink(tmp);
		return -1;
	}
	/* link() fails on an existing name, unlike rename(): never clobber. */
	for (int i = 0; i < 100; i++) {
		if (i)
			snprintf(path, pathlen, "%s/dtltop-%s-%d.csv", dir, stamp, i);
		else
			snprintf(path, pathlen, "%s/dtltop-%s.csv", dir, stamp);
		if (link(tmp, path) == 0) {
			unlink(tmp);
			return 0;
		}
		if (errno != EEXIST)
			break;
	}
	snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
	unlink(tmp);
	return -1;
}
