/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dtltoprc: settings by the option table's keys, the command line over
 * them, and every bad line named by file and line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dtl/dtl.h"
#include "opts/rows.h"
#include "view/judge.h"
#include "t.h"

static int config(const char *text, struct dtl_opts *o, char *err, size_t errlen, char *warn)
{
	static char buf[4096];
	char *argv[] = { "dtltop", "--no-config", NULL };

	dtl_opts__parse(o, 2, argv, err, errlen);	/* the defaults */
	snprintf(buf, sizeof(buf), "%s", text);
	return dtl_opts__config(o, buf, "rc", err, errlen, warn, 256);
}

TEST(config_sets_what_the_table_calls_settings)
{
	struct dtl_opts o;
	char err[512], warn[256];

	CHECK_EQ(config("# kept by W\n delay = 2.5 \nsort=-steal_pct\r\nno-color=yes\n\n"
			"format=csv\nevents=cede,fault\nbogus=1\nwrite=/tmp/x\n", &o, err, sizeof(err),
			warn), 0);
	CHECK_NEAR(o.interval_s, 2.5, 1e-12);
	CHECK_STR(o.sort, "-steal_pct");	/* resolved with the command line's */
	CHECK(o.no_color);
	CHECK_STR(o.format->name, "csv");
	CHECK_EQ(o.src.mask, DTL_MASK_CEDE | DTL_MASK_FAULT);
	/* unknown keys, and options that are not settings, only warn */
	CHECK_CONTAINS(warn, "rc:8: unknown key 'bogus'");
	CHECK_CONTAINS(warn, "and 1 more");
	CHECK(o.write == NULL);
	/* W writes sort=auto where no sort was chosen: each grouping's own order again */
	CHECK_EQ(config("sort=auto\n", &o, err, sizeof(err), warn), 0);
	CHECK(o.sort == NULL);
	CHECK_EQ(o.sort_col, dtl_cols__find("cpu"));
	/* a value that holds '=' itself is cut at the key's '=', the first */
	CHECK_EQ(config("thresholds=steal_pct=50:90,lat_p99_us=7000:9000\n", &o, err, sizeof(err),
			warn), 0);
	{
		char th[512];

		dtl_judge__format(th, sizeof(th));
		CHECK_CONTAINS(th, "steal_pct=50:90");
		CHECK_CONTAINS(th, "lat_p99_us=7000:9000");
		dtl_judge__reset();
	}
}

TEST(config_refuses_bad_lines_naming_file_and_line)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "delay=abc", "rc:1: bad interval 'abc'" },
		{ "\n\ndelay 2", "rc:3: want key=value" },
		{ "no-color=maybe", "rc:1: bad no-color 'maybe'" },
		{ "format=xml", "rc:1: bad --format 'xml'" },
		{ "events=", "rc:1: bad event list" },
		{ "delay=2\nsort=-nonsense", "rc:2: bad --sort field '-nonsense'" },
		{ "# kept\nlisten=9464", "rc:2: listen= would make every dtltop an exporter" },
		{ "textfile=/tmp", "rc:1: textfile= would make every dtltop an exporter" },
	};
	struct dtl_opts o;
	char err[512], warn[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (config(bad[i].text, &o, err, sizeof(err), warn) == 0)
			T_FAIL("'%s' accepted", bad[i].text);
		CHECK_CONTAINS(err, bad[i].want);
	}
}

int t_parse_opts(const char *line, struct dtl_opts *o, char *err, size_t len);

TEST(config_file_under_the_command_line)
{
	char path[] = "/tmp/dtltoprc.XXXXXX", line[256], err[512];
	int fd = mkstemp(path);
	struct dtl_opts o;

	CHECK(fd >= 0);
	CHECK(write(fd, "delay=3\nevents=cede\n", 20) == 20);
	close(fd);
	snprintf(line, sizeof(line), "dtltop --config %s -d 0.5", path);
	CHECK_EQ(t_parse_opts(line, &o, err, sizeof(err)), 0);
	CHECK_NEAR(o.interval_s, 0.5, 1e-12);		/* the command line wins */
	CHECK_EQ(o.src.mask, DTL_MASK_CEDE);		/* the file fills the rest */
	snprintf(line, sizeof(line), "dtltop --config=%s -r x.dtl", path);
	CHECK_EQ(t_parse_opts(line, &o, err, sizeof(err)), 0);	/* a kept mask is no -e */
	CHECK(!o.have_interval);
	snprintf(line, sizeof(line), "dtltop --config %s --no-config", path);
	CHECK_EQ(t_parse_opts(line, &o, err, sizeof(err)), 0);
	CHECK_NEAR(o.interval_s, 1, 1e-12);
	unlink(path);
	snprintf(line, sizeof(line), "dtltop --config %s", path);
	CHECK_EQ(t_parse_opts(line, &o, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, path);
	/* no file where XDG_CONFIG_HOME points: the defaults, quietly */
	setenv("XDG_CONFIG_HOME", "/nonexistent", 1);
	CHECK_EQ(t_parse_opts("dtltop", &o, err, sizeof(err)), 0);
	unsetenv("XDG_CONFIG_HOME");
}

TEST(config_file_garbage_is_refused)
{
	char path[] = "/tmp/dtltoprc.XXXXXX", line[256], err[512];
	int fd = mkstemp(path);
	struct dtl_opts o;

	CHECK(fd >= 0);
	CHECK(write(fd, "delay=1\0\x01\x02", 10) == 10);
	close(fd);
	snprintf(line, sizeof(line), "dtltop --config %s", path);
	CHECK_EQ(t_parse_opts(line, &o, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "not a text file");
	unlink(path);
}

static int save_to(const char *file, char *path, size_t len, char *err, size_t errlen)
{
	struct dtl_saved now = { .interval_s = 2, .sort = "-steal_pct", .mask = DTL_MASK_ALL,
				 .columns = "cpu,steal_pct" };
	struct dtl_opts o;

	memset(&o, 0, sizeof(o));
	o.config_file = file;
	return dtl_opts__save(&o, &now, path, len, err, errlen);
}

TEST(save_follows_a_link_keeps_the_mode_and_never_writes_over_what_it_could_not_read)
{
	char dir[] = "/tmp/dtltop-save.XXXXXX", rc[512], link[512], loop[512], path[4096], err[512];
	char buf[512] = "";
	struct stat st;
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(rc, sizeof(rc), "%s/real-rc", dir);
	snprintf(link, sizeof(link), "%s/dtltoprc", dir);
	f = fopen(rc, "w");
	CHECK(f != NULL);
	fputs("# mine\nlisten_later=1\n", f);
	fclose(f);
	CHECK_EQ(chmod(rc, 0644), 0);
	CHECK_EQ(symlink("real-rc", link), 0);
	CHECK_EQ(save_to(link, path, sizeof(path), err, sizeof(err)), 0);
	CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));	/* still the link */
	CHECK(stat(rc, &st) == 0 && (st.st_mode & 07777) == 0644);	/* the mode kept */
	f = fopen(rc, "r");
	CHECK(f != NULL);
	CHECK(fread(buf, 1, sizeof(buf) - 1, f) > 0);
	fclose(f);
	CHECK_CONTAINS(buf, "# mine\n");	/* the target updated, its lines kept */
	CHECK_CONTAINS(buf, "sort=-steal_pct\n");
	CHECK_STR(path, rc);
	/* a file that cannot be read (here a loop of links) is not written over */
	snprintf(loop, sizeof(loop), "%s/loop", dir);
	CHECK_EQ(symlink("loop", loop), 0);
	CHECK_EQ(save_to(loop, path, sizeof(path), err, sizeof(err)), -1);
	CHECK(lstat(loop, &st) == 0 && S_ISLNK(st.st_mode));
	/* a directory where the file should be: refused, left as it is */
	snprintf(loop, sizeof(loop), "%s/adir", dir);
	CHECK_EQ(mkdir(loop, 0755), 0);
	CHECK_EQ(save_to(loop, path, sizeof(path), err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "not written");
	CHECK(stat(loop, &st) == 0 && S_ISDIR(st.st_mode));
	/* none yet: a new one, the owner's alone */
	snprintf(loop, sizeof(loop), "%s/new-rc", dir);
	CHECK_EQ(save_to(loop, path, sizeof(path), err, sizeof(err)), 0);
	CHECK(stat(loop, &st) == 0 && (st.st_mode & 07777) == 0600);
	snprintf(buf, sizeof(buf), "rm -rf %s", dir);
	CHECK_EQ(system(buf), 0);
}
