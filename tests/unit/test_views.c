/* SPDX-License-Identifier: GPL-2.0-only */
/* The column table, CSV and text output, snapshots, and option parsing. */
#include "t.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "opts/opts.h"
#include "view/columns.h"
#include "view/table.h"
#include "fakeroot.h"

static const char *const required[] = {
	"timestamp", "interval_s", "cpu", "dispatches", "dispatch_per_s", "preempt_ratio",
	"steal_us", "steal_pct", "idle_us", "lat_p50_us", "lat_p99_us", "lat_max_us",
	"migrations", "faults", "lost",
};

TEST(csv_schema_starts_with_the_required_columns_in_order)
{
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);

	CHECK(n > sizeof(required) / sizeof(required[0]));
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		CHECK_STR(c[i].name, required[i]);
	for (size_t i = 0; i < n; i++) {
		for (size_t j = i + 1; j < n; j++)
			if (!strcmp(c[i].name, c[j].name))
				T_FAIL("column %s twice", c[i].name);
		CHECK(c[i].unit != NULL && c[i].legend[0]);
	}
}

TEST(csv_has_a_column_per_reason_name_plus_other)
{
	char name[64];

	for (unsigned int i = 0; i < DTL_N_PREEMPT; i++) {
		snprintf(name, sizeof(name), "preempt_%s", dtl_preempt_names[i]);
		CHECK(dtl_cols__find(name) >= 0);
	}
	for (unsigned int i = 0; i < DTL_N_DISPATCH; i++) {
		snprintf(name, sizeof(name), "dispatch_%s", dtl_dispatch_names[i]);
		CHECK(dtl_cols__find(name) >= 0);
	}
	CHECK(dtl_cols__find("preempt_other") > dtl_cols__find("preempt_HDEC_adjunct"));
	CHECK(dtl_cols__find("dispatch_other") > dtl_cols__find("dispatch_priv_doorbell"));
	CHECK(dtl_cols__find("preempt_H_CEDE") > dtl_cols__find("lost"));
}

TEST(csv_dispatch_codes_sharing_a_name_share_a_column)
{
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);
	struct dtl_row r = { 0 };
	int col = dtl_cols__find("dispatch_firmware_internal_event");

	r.dispatch[1] = 3;
	r.dispatch[5] = 4;
	r.dispatch[DTL_N_DISPATCH] = 9;
	CHECK(col >= 0);
	if (col >= 0)
		CHECK_NEAR(dtl_col__value(&c[col], &r), 7, 0);
	CHECK_NEAR(dtl_col__value(&c[dtl_cols__find("dispatch_other")], &r), 9, 0);
}

static void fill(struct dtl_table *t)
{
	struct dtl_stats *s = dtl_stats__new(3, 1000000);
	struct dtl_rec r = { 0 };

	for (unsigned int cpu = 0; cpu < 3; cpu++)
		dtl_stats__set_online(s, cpu, true);
	r.timebase = 5;
	r.preempt_reason = 4;
	r.enqueue_to_dispatch = 10;
	for (unsigned int cpu = 0; cpu < 3; cpu++)
		for (unsigned int i = 0; i <= cpu * 2; i++)
			dtl_stats__add(s, cpu, &r);
	dtl_stats__end_interval(s, 0.5);
	memset(t, 0, sizeof(*t));
	dtl_table__fill(t, s, DTL_SPAN_INTERVAL, 1735689601500000000ull);
	dtl_stats__delete(s);
}

TEST(csv_rows_carry_timestamp_interval_and_an_all_row)
{
	struct dtl_table t;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fill(&t);
	dtl_csv__header(f);
	dtl_csv__rows(f, &t);
	fclose(f);
	CHECK(strncmp(buf, "timestamp,interval_s,cpu,dispatches,dispatch_per_s,", 51) == 0);
	CHECK_CONTAINS(buf, "\n2025-01-01T00:00:01.500Z,0.500,0,1,2.0,1.0000,10.0,");
	CHECK_CONTAINS(buf, "\n2025-01-01T00:00:01.500Z,0.500,2,5,10.0,");
	CHECK_CONTAINS(buf, "\n2025-01-01T00:00:01.500Z,0.500,all,9,18.0,1.0000,90.0,");
	{
		int lines = 0;

		for (char *p = buf; *p; p++)
			lines += *p == '\n';
		CHECK_EQ(lines, 1 + 3 + 1);
	}
	free(buf);
	dtl_table__free(&t);
}

TEST(text_output_has_no_escape_codes)
{
	struct dtl_table t;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fill(&t);
	dtl_text__table(f, &t, "test");
	fclose(f);
	CHECK(strchr(buf, '\033') == NULL);
	CHECK_CONTAINS(buf, "DISP/s");
	CHECK_CONTAINS(buf, "  all");
	free(buf);
	dtl_table__free(&t);
}

TEST(table_sorts_figures_descending_and_cpu_ascending)
{
	struct dtl_table t;

	fill(&t);
	dtl_table__sort(&t, dtl_cols__find("dispatches"), false);
	CHECK_EQ(t.rows[0].cpu, 2);
	CHECK_EQ(t.rows[2].cpu, 0);
	dtl_table__sort(&t, dtl_cols__find("dispatches"), true);
	CHECK_EQ(t.rows[0].cpu, 0);
	dtl_table__sort(&t, dtl_cols__find("cpu"), false);
	CHECK_EQ(t.rows[0].cpu, 0);
	CHECK_EQ(t.rows[2].cpu, 2);
	dtl_table__free(&t);
}

TEST(snapshot_is_created_new_and_never_clobbers)
{
	const char *root = fakeroot_new();
	struct dtl_table t;
	char p1[4096], p2[4096], err[4096], buf[8192];
	time_t now = 1735689600;

	fill(&t);
	CHECK_EQ(dtl_snapshot__write(root, &t, now, p1, sizeof(p1), err, sizeof(err)), 0);
	CHECK_EQ(dtl_snapshot__write(root, &t, now, p2, sizeof(p2), err, sizeof(err)), 0);
	CHECK(strcmp(p1, p2) != 0);
	CHECK_CONTAINS(p1, "/dtltop-2025");
	CHECK_CONTAINS(p2, "-1.csv");
	CHECK(fakeroot_read("/", p1, buf, sizeof(buf)) > 0);
	CHECK(strncmp(buf, "timestamp,", 10) == 0);
	fakeroot_free(root);
	dtl_table__free(&t);
}

TEST(snapshot_into_an_unwritable_directory_reports_why)
{
	struct dtl_table t;
	char p[4096], err[4096];

	fill(&t);
	CHECK_EQ(dtl_snapshot__write("/nonexistent-dir", &t, 0, p, sizeof(p), err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "/nonexistent-dir");
	dtl_table__free(&t);
}

/* Shared with test_opts.c: a command line split at spaces, through the parser. */
int t_parse_opts(const char *line, struct dtl_opts *o, char *err, size_t len);

int t_parse_opts(const char *line, struct dtl_opts *o, char *err, size_t len)
{
	char copy[512], *argv[32];
	int argc = 0;

	snprintf(copy, sizeof(copy), "%s", line);
	for (char *tok = strtok(copy, " "); tok && argc < 31; tok = strtok(NULL, " "))
		argv[argc++] = tok;
	argv[argc] = NULL;
	return dtl_opts__parse(o, argc, argv, err, len);
}

TEST(options_parse_the_documented_forms)
{
	struct dtl_opts o;
	char err[512];

	CHECK_EQ(t_parse_opts("dtltop --sim=vcpus=64,clock=virtual -b -n 3 -d 0.5 --format=csv -o x.csv "
		       "-e cede,fault -C 0-7,16 --seed 9", &o, err, sizeof(err)), 0);
	CHECK(o.batch);
	CHECK_EQ(o.iterations, 3);
	CHECK_NEAR(o.interval_s, 0.5, 1e-12);
	CHECK(o.format == DTL_FORMAT_CSV);
	CHECK_STR(o.output, "x.csv");
	CHECK_EQ(o.src.mask, 5);
	CHECK(o.src.have_cpus);
	CHECK_EQ(dtl_cpuset__count(&o.src.cpus), 9);
	CHECK_EQ(o.src.seed, 9);
	CHECK(strcmp(o.src.backend, "sim") == 0);
	CHECK_EQ(t_parse_opts("dtltop --sim -b 2 5", &o, err, sizeof(err)), 0);
	CHECK_NEAR(o.interval_s, 2, 0);
	CHECK_EQ(o.iterations, 5);
	/* as ps: -FIELD descending, +FIELD ascending, FIELD its own order */
	CHECK_EQ(t_parse_opts("dtltop -s -steal_pct", &o, err, sizeof(err)), 0);
	CHECK(!o.sort_reverse);
	CHECK_EQ(o.sort_col, dtl_cols__find("steal_pct"));
	CHECK_EQ(t_parse_opts("dtltop -s +steal_pct", &o, err, sizeof(err)), 0);
	CHECK(o.sort_reverse);
	CHECK_EQ(t_parse_opts("dtltop -s -cpu", &o, err, sizeof(err)), 0);
	CHECK(o.sort_reverse);
	CHECK_EQ(t_parse_opts("dtltop -s +CPU", &o, err, sizeof(err)), 0);
	CHECK(!o.sort_reverse);
	CHECK_EQ(t_parse_opts("dtltop -s P99", &o, err, sizeof(err)), 0);
	CHECK_EQ(o.sort_col, dtl_cols__find("lat_p99_us"));
}

TEST(options_reject_bad_values_naming_them)
{
	static const struct {
		const char *line, *named;
	} bad[] = {
		{ "dtltop --bogus", "--bogus" },
		{ "dtltop -d 0", "'0'" },
		{ "dtltop -d -1", "'-1'" },
		{ "dtltop -d abc", "'abc'" },
		{ "dtltop -d inf", "'inf'" },
		{ "dtltop -n 0", "'0'" },
		{ "dtltop -n x", "'x'" },
		{ "dtltop -C 5-2", "5-2" },
		{ "dtltop -e cede,nope", "nope" },
		{ "dtltop --sim=vcpus=0", "vcpus=0" },
		{ "dtltop --source=magic", "magic" },
		{ "dtltop --format=xml", "xml" },
		{ "dtltop --seed -4", "-4" },
		{ "dtltop -s nosuch", "nosuch" },
		{ "dtltop -r x.dtl -e cede", "-e" },
		{ "dtltop -e c", "'c'" },
		{ "dtltop -e cede,,fault", "cede,,fault" },
		{ "dtltop 1 2 3", "'3'" },
		{ "dtltop -d", "-d" },
	};
	struct dtl_opts o;
	char err[512];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (t_parse_opts(bad[i].line, &o, err, sizeof(err)) != -1)
			T_FAIL("'%s' accepted", bad[i].line);
		else if (!strstr(err, bad[i].named))
			T_FAIL("'%s': message \"%s\" does not name %s", bad[i].line, err, bad[i].named);
		CHECK(strchr(err, '\n') == NULL);
	}
}

/* Values with spaces or empty, which a space-split line cannot carry. */
TEST(options_refuse_empty_output_and_signed_seed)
{
	char *empty_o[] = { "dtltop", "-b", "-o", "", NULL };
	char *seed[] = { "dtltop", "--seed", " -1", NULL };
	char *seed_plus[] = { "dtltop", "--seed", "+5", NULL };
	struct dtl_opts o;
	char err[512];

	err[0] = '\0';
	CHECK_EQ(dtl_opts__parse(&o, 4, empty_o, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "-o");
	err[0] = '\0';
	CHECK_EQ(dtl_opts__parse(&o, 3, seed, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, " -1");
	CHECK_EQ(dtl_opts__parse(&o, 3, seed_plus, err, sizeof(err)), -1);
}

TEST(replay_jump_times_parse_or_are_refused)
{
	const uint64_t day = 20089ull * 86400 * 1000000000ull, start = day + 3600ull * 1000000000ull;
	uint64_t at, n;
	char err[128];

	CHECK_EQ(dtl_opts__parse_when("#12", start, &at, &n, err, sizeof(err)), 0);
	CHECK_EQ(n, 12);
	CHECK_EQ(dtl_opts__parse_when("+2.5", start, &at, &n, err, sizeof(err)), 0);
	CHECK_EQ(at, start + 2500000000ull);
	CHECK_EQ(n, 0);
	CHECK_EQ(dtl_opts__parse_when("30", start, &at, &n, err, sizeof(err)), 0);
	CHECK_EQ(at, start + 30000000000ull);
	CHECK_EQ(dtl_opts__parse_when("01:30", start, &at, &n, err, sizeof(err)), 0);
	CHECK_EQ(at, day + 5400ull * 1000000000ull);
	CHECK_EQ(dtl_opts__parse_when("00:10:05", start, &at, &n, err, sizeof(err)), 0);
	CHECK_EQ(at, day + 86400000000000ull + 605ull * 1000000000ull);	/* before the start: next day */
	const char *bad[] = { "", "#", "#0", "#-1", "#x", "24:00", "1:60", "12:00:00x", "+",
			      "1e99", "abc", "12:3a", "2025-13-01", "2025-02-30", "2025-01-01T25:00",
			      "2025-01-01+02:00", "1x", "1hh", "-", "--1h", "-1y", ".5", "1969-12-31",
			      "2025-00-10", "2025-01-00", "2025-01-32", "2025-01-01T10:60",
			      "2025-01-01T10:00:60" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		CHECK_EQ(dtl_opts__parse_when(bad[i], start, &at, &n, err, sizeof(err)), -1);
		if (!strstr(err, "bad time '"))
			T_FAIL("'%s': '%s'", bad[i], err);
	}
	/* back from the end: only where the end is known */
	CHECK_EQ(dtl_opts__parse_when("-3", start, &at, &n, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "counts back from the recording's end");
}

/* --begin and --end: dates, ISO 8601, units, and back from the recording's end. */
TEST(replay_window_times)
{
	const uint64_t s = 1000000000ull, day = 20089ull * 86400 * s, start = day + 3600 * s;
	uint64_t at, n, end = start + 86400 * s;
	char err[128];

	CHECK_EQ(dtl_opts__parse_time("2025-01-01", start, end, &at, &n, err, sizeof(err)), 0);
	CHECK_EQ(at, 1735689600ull * s);
	CHECK_EQ(dtl_opts__parse_time("2025-01-01T12:30:05Z", start, end, &at, &n, err,
				      sizeof(err)), 0);
	CHECK_EQ(at, (1735689600ull + 12 * 3600 + 30 * 60 + 5) * s);
	CHECK_EQ(dtl_opts__parse_time("2025-01-01 12:30", start, end, &at, &n, err, sizeof(err)), 0);
	CHECK_EQ(at, (1735689600ull + 12 * 3600 + 30 * 60) * s);
	CHECK_EQ(dtl_opts__parse_time("-1h", start, end, &at, &n, err, sizeof(err)), 0);
	CHECK_EQ(at, end - 3600 * s);
	CHECK_EQ(dtl_opts__parse_time("-90m", start, end, &at, &n, err, sizeof(err)), 0);
	CHECK_EQ(at, end - 5400 * s);
	CHECK_EQ(dtl_opts__parse_time("+2d", start, end, &at, &n, err, sizeof(err)), 0);
	CHECK_EQ(at, start + 2 * 86400 * s);
	CHECK_EQ(dtl_opts__parse_time("+1.5h", start, end, &at, &n, err, sizeof(err)), 0);
	CHECK_EQ(at, start + 5400 * s);
	CHECK_EQ(dtl_opts__parse_time("-2d", start, end, &at, &n, err, sizeof(err)), 0);
	CHECK_EQ(at, end - 2 * 86400 * s);
	CHECK_EQ(dtl_opts__parse_time("-1h", start, 1000 * s, &at, &n, err, sizeof(err)), 0);
	CHECK_EQ(at, 0);	/* before the epoch: the start of everything */
}

/* What the writers named (NULL-ended) make of one interval whose host is host. */
static char *written(const char *host, const char *const *writers)
{
	struct dtl_table t;
	struct dtl_model m = { .source = "", .detail = "" };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fill(&t);
	m.table = &t;
	m.host = host;
	for (; *writers; writers++)
		dtl_writers__find(*writers)->interval(f, &m);
	fclose(f);
	dtl_table__free(&t);
	return buf;
}

/* Hosts are outside text: escaped as each format asks, never breaking a line. */
TEST(json_and_influx_escape_the_host)
{
	static const char *const both[] = { "json", "influx", NULL };
	char *buf = written("lpar \"7\",a=b\\", both);

	CHECK_CONTAINS(buf, "{\"host\":\"lpar \\\"7\\\",a=b\\\\\",\"timestamp\":");
	CHECK_CONTAINS(buf, "\ndtl,host=lpar\\ \"7\"\\,a\\=b\\\\,cpu=0 interval_s=0.500,dispatches=1i,");
	CHECK_CONTAINS(buf, ",cpu=all ");
	CHECK(strstr(buf, "physc") == NULL || strstr(buf, "\"physc\":null") != NULL);
	free(buf);
}

/*
 * RFC 8259: every control character in a string is escaped, here as \u00XX;
 * the writer is the last guard, whatever the names' cleaning upstream lets by.
 */
TEST(json_escapes_every_control_character)
{
	static const char *const json[] = { "json", NULL };
	char *buf = written("a\x01" "b\x1b[2Jc\n\x1f\x7f~", json);

	CHECK_CONTAINS(buf, "{\"host\":\"a\\u0001b\\u001b[2Jc\\u000a\\u001f\x7f~\",");
	for (const char *p = buf; *p; p++)
		CHECK((unsigned char)*p >= 0x20 || *p == '\n');
	free(buf);
}

#include "view/model.h"

/* Which partition, in words: each part only where it is known, joined so it reads. */
TEST(model_identity_says_only_what_is_known)
{
	struct dtl_lparcfg l = { .present = true };
	struct dtl_model m = { .lparcfg = &l };
	char buf[160];

	CHECK_EQ(dtl_model__identity(&m, buf, sizeof(buf)), 0);
	snprintf(l.serial, sizeof(l.serial), "IBM,02X");
	CHECK_EQ(dtl_model__identity(&m, buf, sizeof(buf)), 1);
	CHECK_STR(buf, "partition frame IBM,02X");	/* a serial alone is still a frame */
	l.have_partition_id = true, l.partition_id = 7;
	snprintf(l.system_type, sizeof(l.system_type), "IBM,9080-HEX");
	CHECK_EQ(dtl_model__identity(&m, buf, sizeof(buf)), 1);
	CHECK_STR(buf, "partition id 7, on frame IBM,9080-HEX IBM,02X");
	m.partition_name = "db1";
	l.have_pool_id = true, l.pool_id = 0;	/* the default pool is a pool */
	CHECK_EQ(dtl_model__identity(&m, buf, sizeof(buf)), 1);
	CHECK_STR(buf, "partition db1 (id 7), pool 0 of frame IBM,9080-HEX IBM,02X");
	l.serial[0] = '\0';
	CHECK_EQ(dtl_model__identity(&m, buf, sizeof(buf)), 1);
	CHECK_STR(buf, "partition db1 (id 7), pool 0 of frame IBM,9080-HEX");
	m.lparcfg = NULL;
	CHECK_EQ(dtl_model__identity(&m, buf, sizeof(buf)), 1);
	CHECK_STR(buf, "partition db1");
}
