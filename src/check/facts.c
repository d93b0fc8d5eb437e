// SPDX-License-Identifier: GPL-2.0-only
/*
 * facts.c - what the machine says about dtltop's sources, read under --root
 * so that the tests' fake trees stand in for an LPAR's.
 */
#include "check.h"

#include <errno.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "../platform/caps.h"
#include "../platform/perf.h"
#include "../platform/sys.h"
#include "../source/backend.h"

static const char *root_of(const struct dtl_opts *o)
{
	return o->src.root ? o->src.root : "/";
}

/* The kernel's release: the tree's where --root gives one, else uname's. */
static void release(const char *root, char *buf, size_t len)
{
	struct utsname u;

	if (dtl_sys__read(root, "proc/sys/kernel/osrelease", buf, len) > 0) {
		buf[strcspn(buf, "\n")] = 0;
		return;
	}
	snprintf(buf, len, "%s", uname(&u) == 0 ? u.release : "?");
}

static void pmu(const char *root, struct dtl_check_line *l)
{
	struct dtl_pmu p;
	char err[512];

	if (dtl_pmu__discover(root, &p, err, sizeof(err)))
		dtl_check__say(l, DTL_CHECK_NO, "pmu", "%s", err);
	else
		dtl_check__say(l, DTL_CHECK_OK, "pmu", "vpa_dtl type %d (fixed or 6.18 driver: "
			       "the header says, once it runs)", p.type);
}

/* CONFIG_DTL from the kernel's config, where the tree keeps one. */
static const char *config_dtl(const char *root, const char *rel)
{
	static char cfg[1 << 20];
	char path[128];

	snprintf(path, sizeof(path), "boot/config-%.100s", rel);
	if (dtl_sys__read(root, path, cfg, sizeof(cfg)) < 0)
		return "CONFIG_DTL unknown: no /boot/config of this kernel";
	if (strstr(cfg, "\nCONFIG_DTL=y"))
		return "CONFIG_DTL=y";
	return "CONFIG_DTL is not set in its /boot/config: the distribution's kernel has no DTL "
	       "files";
}

static void debugfs(const char *root, const char *rel, struct dtl_check_line *l)
{
	char path[4096];
	int e;

	dtl_sys__path(path, sizeof(path), root, DTL_DEBUGFS_DIR);
	if (dtl_sys__exists(root, DTL_DEBUGFS_DIR)) {
		dtl_check__say(l, DTL_CHECK_OK, "debugfs", "%.200s (%s)", path, config_dtl(root, rel));
		return;
	}
	e = errno;
	if (e == EACCES || e == EPERM)
		dtl_check__say(l, DTL_CHECK_NO, "debugfs", "%.200s: %s (debugfs needs root)", path, strerror(e));
	else if (!dtl_sys__exists(root, "sys/kernel/debug/powerpc"))
		dtl_check__say(l, DTL_CHECK_NO, "debugfs", "no %.200s: debugfs is not mounted (mount -t debugfs "
		    "none /sys/kernel/debug), or this is no pseries kernel", path);
	else
		dtl_check__say(l, DTL_CHECK_NO, "debugfs", "no %.200s (%s)", path, config_dtl(root, rel));
}

static void vpa(const char *root, struct dtl_check_line *l)
{
	if (dtl_sys__exists(root, "sys/kernel/debug/powerpc/vpa/cpu-0"))
		dtl_check__say(l, DTL_CHECK_OK, "vpa", "<debugfs>/powerpc/vpa/cpu-N: the steal counters every "
		    "source is checked against");
	else
		dtl_check__say(l, DTL_CHECK_NO, "vpa", "no <debugfs>/powerpc/vpa/cpu-0 (it needs "
			       "root and debugfs mounted): steal is not checked against the VPA");
}

static void lockdown(const char *root, struct dtl_check_line *l)
{
	char buf[128], *b, *e;

	if (dtl_sys__read(root, "sys/kernel/security/lockdown", buf, sizeof(buf)) < 0) {
		dtl_check__say(l, DTL_CHECK_INFO, "lockdown", "unknown (no securityfs lockdown file)");
		return;
	}
	b = strchr(buf, '[');
	e = b ? strchr(b, ']') : NULL;
	if (!b || !e) {
		dtl_check__say(l, DTL_CHECK_INFO, "lockdown", "unknown (%.60s)", strtok(buf, "\n") ? buf : "");
		return;
	}
	*e = 0;
	if (strcmp(b + 1, "none") == 0)
		dtl_check__say(l, DTL_CHECK_OK, "lockdown", "none");
	else
		dtl_check__say(l, DTL_CHECK_INFO, "lockdown", "%.40s: debugfs' writable files are refused, so "
		    "its event mask stays all (-e and the mask keys cannot narrow it)", b + 1);
}

static void holder(const char *root, struct dtl_check_line *l)
{
	char buf[16];

	if (dtl_sys__read(root, "proc/powerpc/vcpudispatch_stats", buf, sizeof(buf)) < 0)
		dtl_check__say(l, DTL_CHECK_INFO, "holder", "no /proc/powerpc/vcpudispatch_stats here");
	else if (strncmp(buf, "off", 3) == 0 || buf[0] == '0')
		dtl_check__say(l, DTL_CHECK_OK, "holder", "/proc/powerpc/vcpudispatch_stats is off: the DTL is "
		    "free");
	else
		dtl_check__say(l, DTL_CHECK_NO, "holder", "/proc/powerpc/vcpudispatch_stats is on and holds the "
		    "DTL ('echo 0 >' it)");
}

static void privileges(const char *root, struct dtl_check_line *l)
{
	char par[16] = "?";
	bool perfmon = dtl_caps__can_perfmon();

	if (dtl_sys__read(root, "proc/sys/kernel/perf_event_paranoid", par, sizeof(par)) > 0)
		par[strcspn(par, "\n")] = 0;
	dtl_check__say(l, perfmon && geteuid() == 0 ? DTL_CHECK_OK : DTL_CHECK_INFO, "privilege",
	    "uid %u, CAP_PERFMON %s, perf_event_paranoid %s; the PMU and the switch stream need "
	    "CAP_PERFMON, debugfs and the VPA uid 0", (unsigned int)geteuid(),
	    perfmon ? "held" : "not held", par);
}

static void lparcfg(const char *root, struct dtl_check_line *l, struct dtl_check_line *pool)
{
	static char text[1 << 16];
	struct dtl_lparcfg c;
	char ent[32], vps[32], pc[32];

	if (dtl_sys__read(root, "proc/powerpc/lparcfg", text, sizeof(text)) < 0) {
		dtl_check__say(l, DTL_CHECK_NO, "lparcfg", "no /proc/powerpc/lparcfg: not a PowerVM LPAR (or "
		    "unreadable): the verdict and physc, %%entc, app are unknown");
		dtl_check__say(pool, DTL_CHECK_INFO, "pool data", "unknown without lparcfg");
		return;
	}
	dtl_sys__parse_lparcfg(text, &c);
	dtl_check__say(l, DTL_CHECK_OK, "lparcfg", "%s%s, ent %s, VPs %s, pool %s",
	    !c.have_mode ? "mode unknown" : c.shared ? "shared" : "dedicated",
	    c.have_mode && c.shared ? (c.capped ? " capped" : " uncapped") : "",
	    dtl_sys__fig(ent, sizeof(ent), c.have_ent, c.entitlement, 2, ""),
	    dtl_sys__fig(vps, sizeof(vps), c.have_vps, c.active_vps, 0, ""),
	    dtl_sys__fig(pc, sizeof(pc), c.have_pool, c.pool_capacity, 2, ""));
	if (c.have_pool_idle)
		dtl_check__say(pool, DTL_CHECK_OK, "pool data", "pool_idle_time readable: app (the pool's idle "
		    "processors) is known");
	else if (c.have_mode && !c.shared)
		dtl_check__say(pool, DTL_CHECK_INFO, "pool data", "a dedicated partition has no pool");
	else
		dtl_check__say(pool, DTL_CHECK_NO, "pool data", "no pool_idle_time: the HMC's \"Allow "
		    "performance information collection\" is off for this partition, so app and "
		    "whether the pool is short stay unknown");
}

size_t dtl_check__facts(const struct dtl_opts *o, struct dtl_check_line *out, size_t max)
{
	const char *root = root_of(o);
	char rel[128];

	if (max < 9)
		return 0;
	release(root, rel, sizeof(rel));
	dtl_check__say(&out[0], DTL_CHECK_INFO, "kernel", "Linux %s%s%.300s", rel,
	    strcmp(root, "/") ? " under --root " : "", strcmp(root, "/") ? root : "");
	pmu(root, &out[1]);
	debugfs(root, rel, &out[2]);
	vpa(root, &out[3]);
	lockdown(root, &out[4]);
	holder(root, &out[5]);
	privileges(root, &out[6]);
	lparcfg(root, &out[7], &out[8]);
	return 9;
}
