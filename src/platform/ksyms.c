/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ksyms.c - /proc/kallsyms into a sorted table of text symbols. Lines are
 * "ADDR TYPE NAME [module]"; only t/T (and w/W, weak text) name code.
 */
#include "ksyms.h"

#include <ctype.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys.h"

#define KSYM_NAME 64

struct ksym {
	uint64_t addr;
	char name[KSYM_NAME];
};

struct dtl_ksyms {
	struct ksym *s;
	size_t n;
};

static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* One line into *out; false for what is not a text symbol (or not a line). */
static bool parse_line(const char *p, const char *end, struct ksym *out, bool *zero)
{
	const char *e = p;
	size_t n;
	uint64_t a = 0;

	/* by hand, within end: strtoull() reads on to a NUL the buffer need not have */
	for (; e < end && e - p < 16 && isxdigit((unsigned char)*e); e++)
		a = a << 4 | (uint64_t)(*e <= '9' ? *e - '0' : (*e | 0x20) - 'a' + 10);
	if (e == p || e >= end || *e != ' ' || e + 3 >= end || e[2] != ' ')
		return false;
	if (!strchr("tTwW", e[1]))
		return false;
	*zero = a == 0;
	p = e + 3;
	for (n = 0; p + n < end && p[n] != '\n' && p[n] != ' ' && p[n] != '\t'; n++)
		;
	if (!n)
		return false;
	if (n >= KSYM_NAME)
		n = KSYM_NAME - 1;
	out->addr = a;
	memcpy(out->name, p, n);
	out->name[n] = '\0';
	return true;
}

struct dtl_ksyms *dtl_ksyms__parse(const char *text, size_t len, char *why, size_t whylen)
{
	struct dtl_ksyms *k = calloc(1, sizeof(*k));
	const char *p = text, *end = text + len;
	size_t cap = 0, zeros = 0, seen = 0;

	if (!k) {
		snprintf(why, whylen, "out of memory for kernel symbols");
		return NULL;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		struct ksym s;
		bool zero;

		if (!nl)
			nl = end;
		if (parse_line(p, nl, &s, &zero)) {
			seen++;
			zeros += zero;
			if (!zero) {
				if (k->n == cap) {
					size_t c = cap ? 2 * cap : 4096;
					struct ksym *m = realloc(k->s, c * sizeof(*m));

					if (!m) {
						dtl_ksyms__free(k);
						snprintf(why, whylen, "out of memory for kernel symbols");
						return NULL;
					}
					k->s = m;
					cap = c;
				}
				k->s[k->n++] = s;
			}
		}
		p = nl + 1;
	}
	if (!k->n) {
		snprintf(why, whylen, "%s", seen && zeros == seen ?
			 "every address is 0: kptr_restrict hides them" : "no text symbol in it");
		dtl_ksyms__free(k);
		return NULL;
	}
	qsort(k->s, k->n, sizeof(*k->s), by_addr);
	return k;
}

/*
 * The kernel decides at open(2) whether /proc/kallsyms shows addresses to
 * the opener (CAP_SYSLOG, or perf_event_paranoid <= 1 at kptr_restrict 0),
 * so a descriptor opened before dtltop drops its privileges still reads
 * them after, and no capability need stay for it.
 */
static int kept_fd = -1;
static char kept_root[4096];

void dtl_ksyms__keep_open(const char *root)
{
	char path[4096];

	if (kept_fd >= 0)
		return;
	snprintf(kept_root, sizeof(kept_root), "%s", root ? root : "");
	snprintf(path, sizeof(path), "%s/proc/kallsyms", root && *root ? root : "");
	kept_fd = open(path, O_RDONLY | O_CLOEXEC);
}

static FILE *open_kallsyms(const char *root, const char *path)
{
	int fd;
	FILE *f;

	if (kept_fd < 0 || strcmp(kept_root, root ? root : ""))
		return fopen(path, "re");
	fd = dup(kept_fd);
	if (fd < 0 || lseek(fd, 0, SEEK_SET) != 0 || !(f = fdopen(fd, "r"))) {
		if (fd >= 0)
			close(fd);
		return fopen(path, "re");
	}
	return f;
}

struct dtl_ksyms *dtl_ksyms__load(const char *root, char *why, size_t whylen)
{
	static const size_t max = 64u << 20;	/* kallsyms of a distribution kernel: ~10 MB */
	char path[4096], reason[128], kr[16];
	struct dtl_ksyms *k;
	size_t len = 0, cap = 1 << 20;
	char *buf = malloc(cap);
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/kallsyms", root && *root ? root : "");
	f = open_kallsyms(root, path);
	if (!f || !buf) {
		snprintf(why, whylen, "%s unreadable", path);
		free(buf);
		if (f)
			fclose(f);
		return NULL;
	}
	for (;;) {
		size_t got = fread(buf + len, 1, cap - len, f);
		char *m;

		len += got;
		if (len < cap || cap >= max)
			break;
		m = realloc(buf, cap * 2);
		if (!m)
			break;
		buf = m;
		cap *= 2;
	}
	fclose(f);
	k = dtl_ksyms__parse(buf, len, reason, sizeof(reason));
	free(buf);
	if (!k) {
		if (dtl_sys__read(root, "proc/sys/kernel/kptr_restrict", kr, sizeof(kr)) < 0)
			snprintf(kr, sizeof(kr), "?");
		kr[strcspn(kr, "\n")] = '\0';
		snprintf(why, whylen, "%s: %s (kptr_restrict=%s: %s)", path, reason, kr,
			 strcmp(kr, "2") == 0 ? "nobody sees them; at 1, root or CAP_SYSLOG does" :
			 "root or CAP_SYSLOG sees them");
	}
	return k;
}

void dtl_ksyms__free(struct dtl_ksyms *k)
{
	if (k) {
		free(k->s);
		free(k);
	}
}

int dtl_ksyms__find(const struct dtl_ksyms *k, uint64_t addr, uint64_t *start, const char **name)
{
	size_t lo = 0, hi = k ? k->n : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->s[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -1;
	*start = k->s[lo - 1].addr;
	*name = k->s[lo - 1].name;
	return 0;
}

int dtl_ksyms__name(const struct dtl_ksyms *k, uint64_t addr, char *buf, size_t len)
{
	uint64_t start;
	const char *name;

	if (dtl_ksyms__find(k, addr, &start, &name))
		return -1;
	snprintf(buf, len, "%s+0x%" PRIx64, name, addr - start);
	return 0;
}
