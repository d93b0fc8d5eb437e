/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * config.c - dtltoprc: the settings a person keeps, one "key=value" per
 * line, keys named by the option table. The command line overrides it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rows.h"

#define CONFIG_MAX (64 * 1024)

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static const struct opt *find_key(const char *key)
{
	size_t n;
	const struct opt *r = dtl_opts__rows(&n);

	for (size_t i = 0; i < n; i++)
		if (r[i].key && strcmp(r[i].key, key) == 0)
			return &r[i];
	return NULL;
}

static int set_flag(struct dtl_opts *o, const struct opt *r, const char *v)
{
	static const char *const yes[] = { "1", "yes", "true", "on" }, *const no[] = { "0", "no",
									   "false", "off" };

	for (size_t i = 0; i < 4; i++)
		if (strcmp(v, yes[i]) == 0 || strcmp(v, no[i]) == 0) {
			*(bool *)(void *)((char *)o + r->flag) = strcmp(v, yes[i]) == 0;
			return 0;
		}
	return -1;
}

/* One line; 0 done, 1 an unknown key (a warning), -1 with err. */
static int config_line(struct dtl_opts *o, char *line, char *err, size_t errlen)
{
	char *eq = strchr(line, '='), *key, *val;
	const struct opt *r;

	line = trim(line);
	if (!*line || *line == '#')
		return 0;
	if (!eq) {
		snprintf(err, errlen, "want key=value, got '%.80s'", line);
		return -1;
	}
	*eq = '\0';
	key = trim(line);
	val = trim(eq + 1);
	r = find_key(key);
	if (!r) {
		snprintf(err, errlen, "unknown key '%.80s' (ignored)", key);
		return 1;
	}
	/* what makes dtltop an exporter would make every run one: not a kept setting */
	if (strcmp(r->name, "listen") == 0 || strcmp(r->name, "textfile") == 0) {
		snprintf(err, errlen, "%s= would make every dtltop an exporter: give --%s on the "
			 "command line (the systemd units do)", key, r->name);
		return -1;
	}
	if (!r->parse) {
		if (set_flag(o, r, val) == 0)
			return 0;
		snprintf(err, errlen, "bad %s '%.80s' (want yes or no)", key, val);
		return -1;
	}
	return r->parse(o, val, err, errlen) ? -1 : 0;
}

int dtl_opts__config(struct dtl_opts *o, char *text, const char *name, char *err, size_t errlen,
		     char *warn, size_t warnlen)
{
	unsigned int lineno = 0, unknown = 0;
	char msg[512];

	warn[0] = '\0';
	for (char *line = text, *next; line; line = next) {
		int rc;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		rc = config_line(o, line, msg, sizeof(msg));
		if (rc < 0) {
			snprintf(err, errlen, "%s:%u: %s", name, lineno, msg);
			return -1;
		}
		if (rc > 0 && !unknown++)
			snprintf(warn, warnlen, "%s:%u: %s", name, lineno, msg);
	}
	if (unknown > 1) {
		size_t len = strlen(warn);

		snprintf(warn + len, warnlen - len, " and %u more", unknown - 1);
	}
	return 0;
}

/* --config FILE as given, or "" for none asked, or NULL for --no-config. */
static const char *asked(int argc, char **argv)
{
	const char *path = "";

	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "--no-config") == 0)
			return NULL;
		if (strncmp(argv[i], "--config=", 9) == 0)
			path = argv[i] + 9;
		else if (strcmp(argv[i], "--config") == 0 && i + 1 < argc)
			path = argv[++i];
	}
	return path;
}

int dtl_opts__load_config(struct dtl_opts *o, int argc, char **argv, char *err, size_t errlen)
{
	static char text[CONFIG_MAX + 1];
	char path[4096], warn[640];
	const char *want = asked(argc, argv), *xdg = getenv("XDG_CONFIG_HOME"),
		   *home = getenv("HOME");
	size_t n;
	FILE *f;

	if (!want)
		return 0;
	if (*want) {
		snprintf(path, sizeof(path), "%s", want);
		o->config_file = want;
	}
	else if (xdg && *xdg)
		snprintf(path, sizeof(path), "%s/dtltop/dtltoprc", xdg);
	else if (home && *home)
		snprintf(path, sizeof(path), "%s/.config/dtltop/dtltoprc", home);
	else
		return 0;
	f = fopen(path, "r");
	if (!f && !*want) {
		struct stat st;

		/* none kept (or kept where we cannot look): the defaults; one kept but unreadable: say so */
		if (errno != ENOENT && stat(path, &st) == 0)
			fprintf(stderr, "dtltop: warning: cannot read %s: %s\n", path, strerror(errno));
		return 0;
	}
	if (!f) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	n = fread(text, 1, CONFIG_MAX + 1, f);
	fclose(f);
	if (n > CONFIG_MAX || memchr(text, '\0', n)) {
		snprintf(err, errlen, "%s: %s", path, n > CONFIG_MAX ? "larger than 64 KiB" :
			 "not a text file");
		return -1;
	}
	text[n] = '\0';
	if (dtl_opts__config(o, text, path, err, errlen, warn, sizeof(warn)))
		return -1;
	if (warn[0])
		fprintf(stderr, "dtltop: warning: %s\n", warn);
	return 0;
}
