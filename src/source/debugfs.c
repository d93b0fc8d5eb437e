/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * debugfs.c - the pre-6.18 DTL interface, <debugfs>/powerpc/dtl/cpu-N.
 *
 * The kernel applies dtl_event_mask when a cpu-N file is opened, so a new
 * mask means: write the mask, then close and reopen every file. Reads never
 * block and return whole 48-byte entries, or 0 when nothing is new; the
 * kernel skips lapped entries without telling us, so we poll often.
 *
 * Who pays comes beside it from perf's CPU-wide switch stream, which needs
 * no PMU (Linux 4.3 on, CAP_PERFMON or root, which debugfs needs anyway):
 * stamped with the raw clock and mapped onto the timebase by a calibration
 * (tbmap.h) that every drain checks.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../dtl/dtl.h"
#include "../platform/caps.h"
#include "../platform/ksyms.h"
#include "../platform/tbclock.h"
#include "../platform/usock.h"
#include "backend.h"
#include "../platform/sys.h"
#include "taskfeed.h"

#define DBG_READS_PER_PASS 64
#define DBG_SAMPLES 16		/* per calibration or check: the narrowest bracket wins */

struct dbg {
	char root[4096];
	bool have_filter;
	struct dtl_cpuset filter;
	int *fd;			/* per CPU, -1 when closed */
	int64_t *reg;			/* per CPU, dtl_idx at its open; -1 unknown */
	unsigned int nr;		/* entries in fd[] */
	unsigned int next_cpu;
	unsigned int reads;		/* of next_cpu in this pass */
	uint8_t buf[DTL_RING_ENTRIES * DTL_ENTRY_SIZE];
	/* who pays: the switch stream and its clock map; feed NULL when off */
	struct dtl_taskfeed *feed;
	struct dtl_perf_cpus *stream;
	struct dtl_tbmap map;
	uint64_t tb_freq;
	char why[300];			/* why there is no stream, or "" */
	const char *tb_note;		/* what dtl_sys__timebase() said, or NULL */
	bool caps;			/* capabilities dropped after the stream opened */
};

static void busy_hint(const char *root, char *err, size_t errlen, const char *path)
{
	char vds[16] = "";
	const char *vstate;

	if (dtl_sys__read(root, "proc/powerpc/vcpudispatch_stats", vds, sizeof(vds)) < 0)
		vstate = "not visible";
	else
		vstate = strncmp(vds, "off", 3) == 0 ? "off" : "enabled";
	if (dtl_usock__service(root)) {
		snprintf(err, errlen, "%s: busy: a dtltop service holds it: attach with dtltop --attach",
			 path);
		return;
	}
	snprintf(err, errlen, "%s: busy: another DTL user holds it (candidates: "
		 "/proc/powerpc/vcpudispatch_stats [%s], a perf session on vpa_dtl [%s], "
		 "another reader of this file)", path, vstate,
		 dtl_sys__exists(root, DTL_PMU_DIR) ? "PMU present" : "no PMU");
}

/* 0 written, 1 not writable but already mask, -1 with err */
static int write_mask(struct dbg *d, unsigned int mask, char *err, size_t errlen)
{
	char path[4096], text[16];
	int fd, n;

	if (dtl_sys__path(path, sizeof(path), d->root, DTL_DEBUGFS_DIR "/dtl_event_mask")) {
		snprintf(err, errlen, "--root path too long");
		return -1;
	}
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 && errno == EPERM) {
		/*
		 * Kernel lockdown refuses every writable debugfs file to root
		 * too, but not the read-only cpu-N files: the mask is the one
		 * it booted with, all, so that one needs no write.
		 */
		if (mask == DTL_MASK_ALL)
			return 1;
		snprintf(err, errlen, "%s: %s (kernel lockdown? it keeps the boot mask, all: "
			 "leave -e out)", path, strerror(errno));
		return -1;
	}
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s%s", path, strerror(errno),
			 errno == EACCES ? " (debugfs needs root)" : "");
		return -1;
	}
	n = snprintf(text, sizeof(text), "0x%x\n", mask);
	if (write(fd, text, (size_t)n) != n) {
		snprintf(err, errlen, "%s: write: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/*
 * The open registers the DTL and the hypervisor writes from then on: the VPA
 * read on either side tells where its count started, so that what laps the
 * ring before the witness first looks is counted lost, not forgotten.
 */
static int open_cpu(struct dbg *d, unsigned int cpu, char *err, size_t errlen)
{
	char rel[64], path[4096], ignored[512];
	struct dtl_vpa before, after;
	bool have = dtl_vpa__read(d->root, cpu, &before, ignored, sizeof(ignored)) == 0;

	snprintf(rel, sizeof(rel), DTL_DEBUGFS_DIR "/cpu-%u", cpu);
	dtl_sys__path(path, sizeof(path), d->root, rel);
	d->fd[cpu] = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (d->fd[cpu] >= 0) {
		have = have && dtl_vpa__read(d->root, cpu, &after, ignored, sizeof(ignored)) == 0;
		d->reg[cpu] = have ? (int64_t)dtl_vpa__registered_at(&before, &after) :
			      -1;
		return 0;
	}
	if (errno == EBUSY)
		busy_hint(d->root, err, errlen, path);
	else if (errno == EMFILE || errno == ENFILE)
		snprintf(err, errlen, "%s: too many open files (raise the limit: ulimit -n)", path);
	else
		snprintf(err, errlen, "%s: %s%s", path, strerror(errno),
			 errno == EACCES || errno == EPERM ? " (debugfs needs root)" : "");
	return -1;
}

static void close_all(struct dbg *d)
{
	for (unsigned int i = 0; i < d->nr; i++) {
		if (d->fd[i] >= 0)
			close(d->fd[i]);
		d->fd[i] = -1;
	}
}

static int open_all(struct dtl_source *src, char *err, size_t errlen)
{
	struct dbg *d = src->priv;
	unsigned int cpu;

	dtl_cpuset__for_each(cpu, &src->cpus) {
		if (open_cpu(d, cpu, err, errlen)) {
			close_all(d);
			return -1;
		}
	}
	return 0;
}

/* The CPUs we should capture: online, within -C, and with a cpu-N file slot. */
static int wanted(struct dbg *d, struct dtl_cpuset *set, char *err, size_t errlen)
{
	unsigned int cpu;

	if (dtl_source__online_cpus(d->root, d->have_filter ? &d->filter : NULL, set, err, errlen))
		return -1;
	dtl_cpuset__for_each(cpu, set)
		if (cpu >= d->nr)
			dtl_cpuset__unset(set, cpu);
	return 0;
}

/*
 * The switch stream on every captured CPU, and its clock map. Not having it
 * is not an error (the DTL is what was asked for): why says so. -1 only
 * when out of memory.
 */
static int open_stream(struct dbg *d, const struct dtl_cpuset *cpus)
{
	struct dtl_perf_opts po = {
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_DUMMY,
		.switches = true, .stream_only = true, .raw_clock = true,
	};
	struct dtl_tb_sample s[DBG_SAMPLES];
	char err[256];

	if (!dtl_tbclock__sample(d->tb_freq, s, DBG_SAMPLES) ||
	    dtl_tbmap__calibrate(&d->map, d->tb_freq, s, DBG_SAMPLES)) {
		snprintf(d->why, sizeof(d->why), "the timebase and the raw clock cannot be read "
			 "side by side here");
		return 0;
	}
	d->feed = dtl_taskfeed__new(d->root);
	if (!d->feed)
		return -1;
	d->stream = dtl_perf_cpus__open(&po, cpus, d->root, err, sizeof(err));
	if (!d->stream) {
		snprintf(d->why, sizeof(d->why), "%s", err);
		dtl_taskfeed__delete(d->feed);
		d->feed = NULL;
		return 0;
	}
	/* where involuntary preempts hit: kallsyms is named while root still reads it */
	dtl_ksyms__keep_open(d->root);
	return 0;
}

static void describe(struct dtl_source *src, const char *note)
{
	struct dbg *d = src->priv;
	char dir[4096];
	size_t len;

	dtl_sys__path(dir, sizeof(dir), d->root, DTL_DEBUGFS_DIR);
	snprintf(src->detail, sizeof(src->detail), "%.180s%s%.70s", dir, note ? "; " : "",
		 note ? note : "");
	len = strlen(src->detail);
	if (!d->feed) {
		snprintf(src->detail + len, sizeof(src->detail) - len, ", no task switches (%.200s)",
			 d->why);
		return;
	}
	snprintf(src->detail + len, sizeof(src->detail) - len,
		 ", task switches on the %s clock to +-%llu ns (off %lld ns at the last of %llu "
		 "checks; %llu past %llu us)",
		 dtl_tbclock__is_register() ? "timebase" : "stand-in",
		 (unsigned long long)d->map.residual_ns, (long long)d->map.off_ns,
		 (unsigned long long)d->map.checks, (unsigned long long)d->map.drifts,
		 DTL_TBMAP_BOUND_NS / 1000);
	if (d->why[0]) {
		len = strlen(src->detail);
		snprintf(src->detail + len, sizeof(src->detail) - len, " (%.120s)", d->why);
	}
	if (dtl_taskfeed__lost(d->feed) || dtl_taskfeed__bad(d->feed) ||
	    dtl_taskfeed__dropped(d->feed)) {
		len = strlen(src->detail);
		snprintf(src->detail + len, sizeof(src->detail) - len,
			 ", %llu task switch records lost, %llu bad, %llu dropped by the clock",
			 (unsigned long long)dtl_taskfeed__lost(d->feed),
			 (unsigned long long)dtl_taskfeed__bad(d->feed),
			 (unsigned long long)dtl_taskfeed__dropped(d->feed));
	}
}

/*
 * Each pass checks the clock map first: where it moved past its bound, who
 * ran on every CPU is unknown from now until its next switch, so no entry
 * goes to a task the old map put there.
 */
static void check_clock(struct dtl_source *src)
{
	struct dbg *d = src->priv;
	struct dtl_tb_sample s[4];
	unsigned int cpu;

	if (!d->feed || !dtl_tbclock__sample(d->tb_freq, s, 4) ||
	    dtl_tbmap__check(&d->map, s, 4, DTL_TBMAP_BOUND_NS) != 0)
		return;
	dtl_cpuset__for_each(cpu, &src->cpus)
		dtl_taskfeed__forget(d->feed, cpu, s[0].tb_before);
}

static int dbg_open(struct dtl_source *src, const struct dtl_source_opts *o,
		    char *err, size_t errlen)
{
	const char *root = o->root ? o->root : "/";
	struct dbg *d = calloc(1, sizeof(*d));
	struct dtl_cpuset online;
	const char *note;
	char dir[4096];

	if (!d) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	snprintf(d->root, sizeof(d->root), "%s", root);
	d->have_filter = o->have_cpus;
	d->filter = o->cpus;
	src->priv = d;
	if (!dtl_sys__exists(root, DTL_DEBUGFS_DIR)) {
		int e = errno;

		dtl_sys__path(dir, sizeof(dir), root, DTL_DEBUGFS_DIR);
		if (e == EACCES || e == EPERM)	/* debugfs is 0700 root: not "missing" */
			snprintf(err, errlen, "%s: %s (debugfs needs root)", dir, strerror(e));
		else
			snprintf(err, errlen, "%s: no such directory (mount debugfs, and the kernel "
				 "needs CONFIG_DTL on a shared-processor LPAR)", dir);
		goto fail;
	}
	/* debugfs has a cpu-N file per possible CPU; size for hotplug adds. */
	if (dtl_sys__possible(root, &online) && dtl_sys__online(root, &online, err, errlen))
		goto fail;
	d->nr = dtl_cpuset__end(&online);
	d->fd = malloc(sizeof(*d->fd) * (d->nr ? d->nr : 1));
	d->reg = malloc(sizeof(*d->reg) * (d->nr ? d->nr : 1));
	if (!d->fd || !d->reg) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	for (unsigned int i = 0; i < d->nr; i++)
		d->fd[i] = -1, d->reg[i] = -1;
	if (wanted(d, &src->cpus, err, errlen))
		goto fail;
	if (!dtl_cpuset__count(&src->cpus)) {
		snprintf(err, errlen, "no online CPU is selected (-C)");
		goto fail;
	}
	src->nr_cpus = d->nr;
	src->tb_freq = dtl_sys__timebase(root, &note);
	if (!src->tb_freq) {
		snprintf(err, errlen, "%s", note);
		goto fail;
	}
	switch (write_mask(d, src->mask, err, errlen)) {
	case -1:
		goto fail;
	case 1:
		snprintf(src->note, sizeof(src->note), "dtl_event_mask is not writable (kernel "
			 "lockdown?): the boot mask, all, is in force; c/p/f cannot narrow it");
		break;
	}
	/*
	 * The stream first: the hypervisor writes from a file's open on, and
	 * an entry before the CPU's first switch is nobody's.
	 */
	d->tb_freq = src->tb_freq;
	d->tb_note = note;
	if (o->no_tasks)
		snprintf(d->why, sizeof(d->why), "--no-tasks");
	else if (open_stream(d, &src->cpus))
		goto fail_oom;
	if (open_all(src, err, errlen))
		goto fail_closed;
	/*
	 * The stream's events are open: keep only CAP_PERFMON, to reopen one
	 * for a CPU that comes online. debugfs' files are root's own, so uid 0
	 * reads them without any capability.
	 */
	if (d->stream && dtl_caps__can_perfmon()) {
		if (dtl_caps__drop()) {
			snprintf(err, errlen, "cannot drop capabilities: %s", strerror(errno));
			goto fail_closed;
		}
		d->caps = true;
	}
	describe(src, note);
	return 0;
fail_oom:
	snprintf(err, errlen, "out of memory");
fail_closed:
	dtl_perf_cpus__close(d->stream);
	dtl_taskfeed__delete(d->feed);
	close_all(d);
fail:
	free(d->fd);
	free(d->reg);
	free(d);
	src->priv = NULL;
	return -1;
}

static void dbg_close(struct dtl_source *src)
{
	struct dbg *d = src->priv;

	dtl_perf_cpus__close(d->stream);
	dtl_taskfeed__delete(d->feed);
	close_all(d);
	free(d->fd);
	free(d->reg);
	free(d);
}

static int dbg_reg_idx(const struct dtl_source *src, unsigned int cpu, uint64_t *idx)
{
	const struct dbg *d = src->priv;

	if (cpu >= d->nr || d->fd[cpu] < 0 || d->reg[cpu] < 0)
		return -1;
	*idx = (uint64_t)d->reg[cpu];
	return 0;
}

static int dbg_poll(struct dtl_source *src, int timeout_ms)
{
	/* dtl.c has no poll method: wait, then look. */
	(void)src;
	if (timeout_ms > 0)
		dtl_source__sleep(timeout_ms);
	return 1;
}

static int dbg_read(struct dtl_source *src, struct dtl_chunk *c)
{
	struct dbg *d = src->priv;

	if (!d->next_cpu && !d->reads)
		check_clock(src);
	for (; d->next_cpu < d->nr; d->next_cpu++) {
		int fd = d->fd[d->next_cpu];
		ssize_t n;
		bool more = false;

		if (fd < 0)
			continue;
		/*
		 * A file that never ends (a /dev/zero planted under --root)
		 * must not hold the loop: a pass reads each CPU a bounded
		 * number of times, more than a real DTL ring can hold.
		 */
		if (d->reads >= DBG_READS_PER_PASS) {
			d->reads = 0;
			continue;
		}
		d->reads++;
		n = read(fd, d->buf, sizeof(d->buf));
		memset(c, 0, sizeof(*c));
		/* after the entries: every switch before their instants is in the ring */
		if (d->feed)
			more = dtl_taskfeed__take(d->feed, d->stream, d->next_cpu, &d->map, c);
		if (n <= 0 && !c->nswitches) {
			d->reads = 0;
			continue;
		}
		c->cpu = d->next_cpu;
		c->data = d->buf;
		c->n = n > 0 ? (size_t)n / DTL_ENTRY_SIZE : 0;
		/* The kernel returns whole entries; a stray tail is not one. */
		c->bad = n > 0 && (size_t)n % DTL_ENTRY_SIZE ? 1 : 0;
		/* Stay on this CPU while a read or the stream may have more behind it. */
		if (n <= 0 && !more) {
			d->reads = 0;
			d->next_cpu++;
		}
		return 1;
	}
	d->next_cpu = 0;
	return 0;
}

static int dbg_add(struct dtl_source *src, unsigned int cpu)
{
	struct dbg *d = src->priv;
	char err[512];

	if (open_cpu(d, cpu, err, sizeof(err)))
		return -1;
	/* a CPU without its stream has entries nobody pays: said in the detail */
	if (d->stream) {
		if (d->caps)
			dtl_caps__raise();
		if (dtl_perf_cpus__add(d->stream, cpu, err, sizeof(err)))
			snprintf(d->why, sizeof(d->why), "%.290s", err);
		if (d->caps)
			dtl_caps__lower();
	}
	return 0;
}

static void dbg_remove(struct dtl_source *src, unsigned int cpu)
{
	struct dbg *d = src->priv;

	close(d->fd[cpu]);
	d->fd[cpu] = -1;
	if (d->stream)
		dtl_perf_cpus__remove(d->stream, cpu);
}

/* Follow CPU hotplug once per interval: a DLPAR remove is not an error. */
static void dbg_tick(struct dtl_source *src, uint64_t interval_ns)
{
	struct dtl_cpuset now;
	char err[512];

	(void)interval_ns;
	if (wanted(src->priv, &now, err, sizeof(err)) == 0)
		dtl_source__follow(src, &now, dbg_add, dbg_remove);
	describe(src, ((struct dbg *)src->priv)->tb_note);
}

static int dbg_set_mask(struct dtl_source *src, unsigned int mask, char *err, size_t errlen)
{
	struct dbg *d = src->priv;

	if (write_mask(d, mask, err, errlen) < 0)
		return -1;
	close_all(d);
	if (open_all(src, err, errlen)) {
		/* Leave the old mask in force rather than capturing nothing. */
		char ignored[256];

		write_mask(d, src->mask, ignored, sizeof(ignored));
		open_all(src, ignored, sizeof(ignored));
		return -1;
	}
	return 0;
}

static bool dbg_probe(const char *root, char *why, size_t whylen)
{
	return dtl_source__probe(root, DTL_DEBUGFS_DIR, "debugfs, CONFIG_DTL", why, whylen);
}

const struct dtl_source_ops dtl_debugfs_ops = {
	.name = "debugfs",
	.help = "<debugfs>/powerpc/dtl (older kernels, root)",
	.probe = dbg_probe,
	.opts = dtl_taskfeed__opts,
	.open = dbg_open,
	.close = dbg_close,
	.poll = dbg_poll,
	/* dtl.c's 85-entry ring laps in ~17 ms at 5k dispatches/s, and cannot wake us */
	.drain_ms = 20,
	.read = dbg_read,
	.tick = dbg_tick,
	.set_mask = dbg_set_mask,
	.tb = dtl_source__hw_tb,
	.reg_idx = dbg_reg_idx,
};
