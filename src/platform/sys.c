/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sys.c - read the few /proc and /sys facts dtltop needs, relative to --root.
 */
#include "sys.h"
#include "../dtl/dtl.h"
#include "../dtl/name.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int dtl_sys__path(char *buf, size_t len, const char *root, const char *rel)
{
	size_t rl = strlen(root);
	int n;

	while (rl > 1 && root[rl - 1] == '/')
		rl--;
	if (rl == 1 && root[0] == '/')
		rl = 0;
	n = snprintf(buf, len, "%.*s/%s", (int)rl, root, rel);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

bool dtl_sys__exists(const char *root, const char *rel)
{
	char path[4096];
	struct stat st;

	return dtl_sys__path(path, sizeof(path), root, rel) == 0 && stat(path, &st) == 0;
}

long dtl_sys__read(const char *root, const char *rel, char *buf, size_t len)
{
	struct stat st;
	char path[4096];
	size_t off = 0;
	int fd;

	if (dtl_sys__path(path, sizeof(path), root, rel)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	/* A FIFO or device planted under --root must not hang or flood us. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	while (off + 1 < len) {
		ssize_t n = read(fd, buf + off, len - 1 - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	close(fd);
	buf[off] = '\0';
	return (long)off;
}

char *dtl_sys__slurp(const char *path, size_t max, size_t *len, unsigned int *mode,
		     char *why, size_t whylen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct stat st;
	char *buf = NULL;
	ssize_t n;

	*len = 0;
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) || (size_t)st.st_size > max) {
		if (fd < 0)
			snprintf(why, whylen, "%s", strerror(errno));
		else if (!S_ISREG(st.st_mode))
			snprintf(why, whylen, "not a regular file");
		else
			snprintf(why, whylen, "larger than %zu bytes", max);
		goto out;
	}
	*mode = (unsigned int)(st.st_mode & 07777);
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		snprintf(why, whylen, "out of memory");
		goto out;
	}
	while (*len < (size_t)st.st_size &&
	       (n = read(fd, buf + *len, (size_t)st.st_size - *len)) > 0)
		*len += (size_t)n;
	buf[*len] = '\0';
out:
	if (fd >= 0)
		close(fd);
	return buf;
}

uint64_t dtl_sys__parse_timebase(const char *text)
{
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *q;
		char *end;
		unsigned long long v;

		if (strncmp(p, "timebase", 8) != 0)
			continue;
		q = p + 8;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q++ != ':')
			continue;
		errno = 0;
		v = strtoull(q, &end, 10);
		if (errno || end == q || (*end && *end != '\n' && *end != ' '))
			return 0;
		return v;
	}
	return 0;
}

uint64_t dtl_sys__timebase(const char *root, const char **note)
{
	static char buf[1 << 16];
	uint64_t tb;

	*note = NULL;
	if (dtl_sys__read(root, "proc/cpuinfo", buf, sizeof(buf)) < 0) {
		*note = "no proc/cpuinfo; timebase assumed 512000000 Hz";
		return DTL_DEFAULT_TB_FREQ;
	}
	tb = dtl_sys__parse_timebase(buf);
	if (tb && !dtl_tb_freq__ok(tb)) {
		static char why[256];

		snprintf(why, sizeof(why), "%.100s/proc/cpuinfo: timebase %llu Hz is not a "
			 "timebase (want 1 MHz to 100 GHz)", root, (unsigned long long)tb);
		*note = why;
		return 0;
	}
	if (!tb) {
		*note = "no usable timebase line in proc/cpuinfo; assumed 512000000 Hz";
		return DTL_DEFAULT_TB_FREQ;
	}
	return tb;
}

static bool key_u64(const char *line, const char *key, uint64_t *v)
{
	size_t kl = strlen(key);
	char *end;

	if (strncmp(line, key, kl) != 0 || line[kl] != '=')
		return false;
	/* strtoull takes "-50" as 2^64 - 50: a sign or a blank is not a count */
	if (line[kl + 1] < '0' || line[kl + 1] > '9')
		return false;
	errno = 0;
	*v = strtoull(line + kl + 1, &end, 10);
	return !errno && end != line + kl + 1 && (*end == '\n' || *end == '\0');
}

/* The running counters lparstat reads, and the newer keys. */
static void parse_counters(const char *p, struct dtl_lparcfg *cfg)
{
	uint64_t v;

	if (key_u64(p, "purr", &v)) {
		cfg->purr = v;
		cfg->have_purr = true;
	} else if (key_u64(p, "tbr", &v)) {
		cfg->tbr = v;
		cfg->have_tbr = true;
	} else if (key_u64(p, "pool_idle_time", &v)) {
		cfg->pool_idle_time = v;
		cfg->have_pool_idle = true;
	} else if (key_u64(p, "pool_num_procs", &v) && v < 1u << 20) {
		cfg->pool_num_procs = (unsigned int)v;
	} else if (key_u64(p, "capacity_weight", &v) && v <= 255) {
		cfg->weight = (unsigned int)v;
		cfg->have_weight = true;
	} else if (key_u64(p, "resource_group_number", &v) && v < 1u << 20) {
		cfg->rg_number = (unsigned int)v;
		cfg->have_rg = true;
	} else if (key_u64(p, "resource_group_active_processors", &v) && v < 1u << 20) {
		cfg->rg_procs = (unsigned int)v;
	}
}

const char *dtl_sys__fig(char *buf, size_t len, bool have, double v, int prec, const char *unit)
{
	if (have)
		snprintf(buf, len, "%.*f%s", prec, v, unit);
	else
		snprintf(buf, len, "-");
	return buf;
}

void dtl_sys__lpar_figs(const struct dtl_lparcfg *a, const struct dtl_lparcfg *b,
			uint64_t tb_freq, struct dtl_lpar_figs *f)
{
	double dtb = a->have_tbr && b->have_tbr && b->tbr > a->tbr ? (double)(b->tbr - a->tbr) : 0;

	memset(f, 0, sizeof(*f));
	if (!dtb || !a->present || !b->present)
		return;
	if (a->have_purr && b->have_purr && b->purr >= a->purr) {
		f->physc = (double)(b->purr - a->purr) / dtb;
		f->known |= DTL_LPARF_PHYSC;
		if (b->have_ent && b->entitlement > 0) {
			f->entc_pct = f->physc / b->entitlement * 100.0;
			f->known |= DTL_LPARF_ENTC;
		}
	}
	if (a->have_pool_idle && b->have_pool_idle && b->pool_idle_time >= a->pool_idle_time) {
		f->app = (double)(b->pool_idle_time - a->pool_idle_time) / dtb;
		f->known |= DTL_LPARF_APP;
	}
	/* yield_count moves at the yield and at the dispatch; a wrap or a CPU gone: unknown */
	if (a->have_dispatches && b->have_dispatches && b->dispatches >= a->dispatches && tb_freq) {
		f->disp_per_s = (double)(b->dispatches - a->dispatches) / 2.0 /
				(dtb / (double)tb_freq);
		f->known |= DTL_LPARF_DISP;
	}
}

/* key=TEXT into buf, cleaned (valid UTF-8, no control character); false if not key or empty. */
static bool key_text(const char *line, const char *key, char *buf, size_t len)
{
	size_t kl = strlen(key), n;

	if (strncmp(line, key, kl) != 0 || line[kl] != '=')
		return false;
	line += kl + 1;
	n = strcspn(line, "\n");
	snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), line);
	dtl_name__clean(buf);
	return true;
}

void dtl_sys__parse_lparcfg(const char *text, struct dtl_lparcfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->present = true;
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		uint64_t v;

		if (key_u64(p, "partition_entitled_capacity", &v)) {
			/* 0 is no entitlement a shared partition can have: unknown, as absent */
			cfg->entitlement = v && v <= DTL_LPARCFG_MAX_UNITS ? (double)v / 100.0 : 0;
			cfg->have_ent = cfg->entitlement > 0;
		} else if (key_u64(p, "shared_processor_mode", &v)) {
			cfg->shared = v != 0;
			cfg->have_mode = true;
		} else if (key_u64(p, "DedDonMode", &v)) {
			/* from the system parameter string, where lparstat reads it too */
			cfg->donating = v != 0;
		} else if (key_u64(p, "capped", &v)) {
			cfg->capped = v != 0;
		} else if (key_u64(p, "partition_active_processors", &v)) {
			cfg->active_vps = v && v < 1u << 20 ? (unsigned int)v : 0;
			cfg->have_vps = cfg->active_vps > 0;
		} else if (key_u64(p, "pool_capacity", &v)) {
			cfg->pool_capacity = v && v <= DTL_LPARCFG_MAX_UNITS ? (double)v / 100.0 : 0;
			cfg->have_pool = cfg->pool_capacity > 0;
		} else if (key_u64(p, "dispatches", &v)) {
			cfg->dispatches = v;
			cfg->have_dispatches = true;
		} else if (key_u64(p, "partition_id", &v)) {
			/* 0 is what lparcfg prints when the device tree has none */
			cfg->have_partition_id = v && v < 1u << 16;
			cfg->partition_id = cfg->have_partition_id ? (unsigned int)v : 0;
		} else if (key_u64(p, "pool", &v)) {
			cfg->have_pool_id = v < 1u << 16;
			cfg->pool_id = cfg->have_pool_id ? (unsigned int)v : 0;
		} else if (key_text(p, "serial_number", cfg->serial, sizeof(cfg->serial)) ||
			   key_text(p, "system_type", cfg->system_type, sizeof(cfg->system_type))) {
			continue;
		} else {
			parse_counters(p, cfg);
		}
	}
}

void dtl_sys__parse_stat_steal(const char *text, unsigned int nr, uint64_t *steal, bool *have)
{
	memset(have, 0, nr * sizeof(*have));
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		unsigned long long v[8];
		unsigned int cpu;
		int used = 0;

		if (strncmp(p, "cpu", 3) != 0 || p[3] < '0' || p[3] > '9')
			continue;
		if (sscanf(p, "cpu%u %llu %llu %llu %llu %llu %llu %llu %llu%n", &cpu, &v[0], &v[1],
			   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &used) != 9 || cpu >= nr)
			continue;
		steal[cpu] = v[7];
		have[cpu] = true;
	}
}

int dtl_sys__online(const char *root, struct dtl_cpuset *set, char *err, size_t errlen)
{
	static const char rel[] = "sys/devices/system/cpu/online";
	char buf[8192], sub[512];

	if (dtl_sys__read(root, rel, buf, sizeof(buf)) < 0) {
		char path[4096];

		dtl_sys__path(path, sizeof(path), root, rel);
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (dtl_cpuset__parse(set, buf, sub, sizeof(sub))) {
		char path[4096];

		dtl_sys__path(path, sizeof(path), root, rel);
		snprintf(err, errlen, "%s: %s", path, sub);
		return -1;
	}
	return 0;
}

int dtl_sys__possible(const char *root, struct dtl_cpuset *set)
{
	char buf[8192], err[256];

	if (dtl_sys__read(root, "sys/devices/system/cpu/possible", buf, sizeof(buf)) < 0)
		return -1;
	return dtl_cpuset__parse(set, buf, err, sizeof(err));
}
