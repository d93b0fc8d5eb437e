/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * save.c - the TUI's W: the settings a person changed while watching, into
 * dtltoprc. Every line the file already had stays (comments, unknown keys,
 * settings W does not own); ours are replaced where they were, or added.
 * Written new under a temporary name, then renamed: never half a file.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../dtl/dtl.h"
#include "../view/judge.h"
#include "../platform/replace.h"
#include "opts.h"

#define SAVE_MAX (64 * 1024)

struct setting {
	const char *key;
	char value[640];
	bool written;
};

static int config_path(const struct dtl_opts *o, char *path, size_t len)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");

	if (o->config_file)
		return snprintf(path, len, "%s", o->config_file) < (int)len ? 0 : -1;
	if (xdg && *xdg)
		return snprintf(path, len, "%s/dtltop/dtltoprc", xdg) < (int)len ? 0 : -1;
	if (home && *home)
		return snprintf(path, len, "%s/.config/dtltop/dtltoprc", home) < (int)len ? 0 : -1;
	return -1;
}

/* mkdir -p of path's directory. */
static void make_dirs(const char *path)
{
	char dir[4096];

	snprintf(dir, sizeof(dir), "%s", path);
	for (char *p = dir + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(dir, 0700);
			*p = '/';
		}
}

/* Our key on this line, or NULL: "  key = value" */
static struct setting *ours(const char *line, size_t n, struct setting *s, size_t ns)
{
	while (n && (*line == ' ' || *line == '\t'))
		line++, n--;
	for (size_t i = 0; i < ns; i++) {
		size_t k = strlen(s[i].key);

		if (n > k && strncmp(line, s[i].key, k) == 0 &&
		    (line[k] == '=' || line[k] == ' ' || line[k] == '\t'))
			return &s[i];
	}
	return NULL;
}

struct rewrite {
	const char *old;
	size_t n;
	struct setting *s;
	size_t ns;
};

static int write_all(FILE *f, void *ctx)
{
	const struct rewrite *w = ctx;
	const char *old = w->old;

	for (size_t at = 0; at < w->n;) {
		const char *nl = memchr(old + at, '\n', w->n - at);
		size_t len = nl ? (size_t)(nl - old - at) : w->n - at;
		struct setting *k = ours(old + at, len, w->s, w->ns);

		if (!k)
			fprintf(f, "%.*s\n", (int)len, old + at);
		else if (!k->written)	/* where it was; a repeat is dropped */
			fprintf(f, "%s=%s\n", k->key, k->value);
		if (k)
			k->written = true;
		at += len + 1;
	}
	for (size_t i = 0; i < w->ns; i++)
		if (!w->s[i].written)
			fprintf(f, "%s=%s\n", w->s[i].key, w->s[i].value);
	return 0;
}

int dtl_opts__save(const struct dtl_opts *o, const struct dtl_saved *now, char *path,
		   size_t pathlen, char *err, size_t errlen)
{
	static struct setting s[] = { { "delay", "", false }, { "sort", "", false }, { "group", "", false },
			       { "events", "", false }, { "thresholds", "", false },
			       { "columns", "", false } };
	static char old[SAVE_MAX + 1];
	struct rewrite w = { old, 0, s, sizeof(s) / sizeof(s[0]) };
	char target[PATH_MAX];
	bool had = false, bad;
	struct stat st;
	FILE *f;

	if (config_path(o, path, pathlen)) {
		snprintf(err, errlen, "no place for dtltoprc (neither XDG_CONFIG_HOME nor HOME)");
		return -1;
	}
	snprintf(s[0].value, sizeof(s[0].value), "%g", now->interval_s);
	snprintf(s[1].value, sizeof(s[1].value), "%s", now->sort);
	snprintf(s[2].value, sizeof(s[2].value), "%s", now->group == DTL_ROW_TASK ? "task" :
		 now->group == DTL_ROW_CGROUP ? "cgroup" : now->by_vp ? "vp" : "cpu");
	dtl_mask__format(now->mask, s[3].value, sizeof(s[3].value));
	dtl_judge__format(s[4].value, sizeof(s[4].value));
	snprintf(s[5].value, sizeof(s[5].value), "%s", now->columns);
	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		s[i].written = false;
	/* a link is followed: its target is the file kept (a dotfiles repository's, say) */
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		if (!realpath(path, target)) {
			snprintf(err, errlen, "%s: a link to nowhere (%s): not written", path,
				 strerror(errno));
			return -1;
		}
		snprintf(path, pathlen, "%s", target);
	}
	f = fopen(path, "r");
	if (!f && errno != ENOENT) {
		/* never write over what was not read: its comments and keys would be lost */
		snprintf(err, errlen, "cannot read %s: %s: not written", path, strerror(errno));
		return -1;
	}
	if (f) {
		had = fstat(fileno(f), &st) == 0;
		w.n = fread(old, 1, SAVE_MAX + 1, f);
		bad = ferror(f);
		fclose(f);
		if (bad || !had || !S_ISREG(st.st_mode)) {
			snprintf(err, errlen, "%s is not a file W can read: not written", path);
			return -1;
		}
		if (w.n > SAVE_MAX || memchr(old, '\0', w.n)) {
			snprintf(err, errlen, "%s is not a dtltoprc (binary or over 64 KiB): not written",
				 path);
			return -1;
		}
	}
	make_dirs(path);
	if (dtl_replace__file(path, 0600, write_all, &w, err, errlen))
		return -1;
	/* a kept file keeps its mode (0644 stays 0644); a new one is the owner's alone */
	if (had && chmod(path, st.st_mode & 07777)) {
		snprintf(err, errlen, "%s written, but its mode not kept: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
