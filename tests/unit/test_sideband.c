/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Who pays, live: perf's side-band records parsed from hand-made bytes and
 * ring images, the timebase they are put on, comm and cgroup from a fake
 * /proc, and a real CPU-wide switch stream on this machine's kernel.
 */
#include "t.h"

#include <linux/perf_event.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dtl/sideband.h"
#include "platform/perf.h"
#include "platform/procs.h"
#include "fakeroot.h"

#define ST (DTL_SAMPLE_TID | DTL_SAMPLE_TIME)

static size_t put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
	return 4;
}

static size_t put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
	return 8;
}

/* A record: header, body, trailer (pid, tid, time); returns its size. */
static size_t rec(uint8_t *r, uint32_t type, uint16_t misc, const uint8_t *body, size_t blen,
		  uint32_t pid, uint64_t ns)
{
	uint16_t size = (uint16_t)(8 + blen + 16);

	put32(r, type);
	memcpy(r + 4, &misc, 2);
	memcpy(r + 6, &size, 2);
	if (blen)
		memcpy(r + 8, body, blen);
	put32(r + 8 + blen, pid);
	put32(r + 12 + blen, pid);
	put64(r + 16 + blen, ns);
	return size;
}

static size_t switch_rec(uint8_t *r, bool out, uint32_t self, uint32_t other, uint64_t ns)
{
	uint8_t b[8];

	put32(b, other);
	put32(b + 4, other);
	return rec(r, 15, out ? 1u << 13 : 0, b, 8, self, ns);
}

TEST(sideband_switch_records_say_who_runs_from_when)
{
	uint8_t r[128];
	struct dtl_sb e;
	size_t n;

	/* out of a CPU: the next task is the body's; in: the trailer's own */
	n = switch_rec(r, true, 100, 200, 5000);
	CHECK_EQ(dtl_sb__parse(r, n, ST, &e), 1);
	CHECK_EQ(e.kind, DTL_SB_SWITCH);
	CHECK_EQ(e.pid, 200);
	CHECK_EQ(e.ns, 5000);
	CHECK_EQ(e.cpu, UINT32_MAX);
	n = switch_rec(r, false, 200, 100, 5100);
	CHECK_EQ(dtl_sb__parse(r, n, ST, &e), 1);
	CHECK_EQ(e.pid, 200);
	CHECK_EQ(e.ns, 5100);
	/* a per-task switch out says nothing of who comes next */
	n = rec(r, 14, 1u << 13, NULL, 0, 100, 1);
	CHECK_EQ(dtl_sb__parse(r, n, ST, &e), 0);
	/* no TID or TIME in the trailer: nothing to use */
	n = switch_rec(r, true, 100, 200, 5000);
	CHECK_EQ(dtl_sb__parse(r, n, DTL_SAMPLE_TIME, &e), 0);
	/* a trailer with CPU and IDENTIFIER too, as perf record writes it */
	{
		uint8_t b[8 + 8 + 40];
		uint16_t size = sizeof(b);

		memset(b, 0, sizeof(b));
		put32(b, 15);
		memcpy(b + 6, &size, 2);
		put32(b + 8, 7);		/* switched in; prev pid 7 */
		put32(b + 16, 300);		/* TID */
		put64(b + 24, 9999);		/* TIME */
		put64(b + 32, 1234);		/* ID */
		put32(b + 40, 3);		/* CPU */
		put64(b + 48, 1234);		/* IDENTIFIER */
		CHECK_EQ(dtl_sb__parse(b, sizeof(b), ST | DTL_SAMPLE_ID | DTL_SAMPLE_CPU |
				       DTL_SAMPLE_IDENTIFIER, &e), 1);
		CHECK_EQ(e.pid, 300);
		CHECK_EQ(e.ns, 9999);
		CHECK_EQ(e.cpu, 3);
	}
}

TEST(sideband_comm_exit_lost_and_malformed)
{
	uint8_t r[128], b[32];
	struct dtl_sb e;
	size_t n;

	memset(b, 0, sizeof(b));
	put32(b, 42);
	put32(b + 4, 42);
	memcpy(b + 8, "postgres", 8);
	n = rec(r, 3, 1u << 13, b, 24, 42, 77);
	CHECK_EQ(dtl_sb__parse(r, n, ST, &e), 1);
	CHECK_EQ(e.kind, DTL_SB_COMM);
	CHECK_EQ(e.pid, 42);
	CHECK_STR(e.comm, "postgres");
	/* a thread's own name is not the process's */
	put32(b + 4, 43);
	n = rec(r, 3, 0, b, 24, 42, 77);
	CHECK_EQ(dtl_sb__parse(r, n, ST, &e), 0);
	/* a name of 16 bytes with no NUL is cut, not read past */
	put32(b + 4, 42);
	memcpy(b + 8, "abcdefghijklmnop", 16);
	n = rec(r, 3, 0, b, 24, 42, 77);
	CHECK_EQ(dtl_sb__parse(r, n, ST, &e), 1);
	CHECK_EQ(strlen(e.comm), 15);
	/* the task chooses its name (prctl): controls and bytes that are not UTF-8 come out as ? */
	memcpy(b + 8, "ev\x1b[31m\xc2\x9bil\xff", 13);
	n = rec(r, 3, 0, b, 24, 42, 77);
	CHECK_EQ(dtl_sb__parse(r, n, ST, &e), 1);
	CHECK_STR(e.comm, "ev?[31m??il?");
	memset(b, 0, sizeof(b));
	put32(b, 42);
	n = rec(r, 4, 0, b, 24, 42, 80);
	CHECK_EQ(dtl_sb__parse(r, n, ST, &e), 1);
	CHECK_EQ(e.kind, DTL_SB_EXIT);
	CHECK_EQ(e.pid, 42);
	put64(b, 1);
	put64(b + 8, 17);
	n = rec(r, 2, 0, b, 16, 0, 90);
	CHECK_EQ(dtl_sb__parse(r, n, ST, &e), 1);
	CHECK_EQ(e.kind, DTL_SB_LOST);
	CHECK_EQ(e.lost, 17);
	/* cut: a body shorter than its kind needs, a trailer that does not fit */
	n = rec(r, 4, 0, b, 8, 42, 80);
	CHECK_EQ(dtl_sb__parse(r, n, ST, &e), -1);
	CHECK_EQ(dtl_sb__parse(r, 12, ST, &e), -1);
	CHECK_EQ(dtl_sb__parse(r, 4, ST, &e), -1);
	/* another record type is skipped, not an error */
	n = rec(r, 9, 0, b, 8, 42, 80);
	CHECK_EQ(dtl_sb__parse(r, n, ST, &e), 0);
}

TEST(sideband_ring_walks_across_the_end_and_stops_when_full)
{
	uint8_t ring[256], r[64];
	struct dtl_sb out[8];
	uint64_t pos = 200, tail, bad = 0;	/* start near the end: records wrap */
	size_t n, len;

	memset(ring, 0xee, sizeof(ring));
	for (int i = 0; i < 5; i++) {
		len = switch_rec(r, false, 10 + (uint32_t)i, 0, 1000 + (uint64_t)i);
		for (size_t k = 0; k < len; k++)
			ring[(pos + k) % sizeof(ring)] = r[k];
		pos += len;
	}
	tail = dtl_sb__ring(ring, sizeof(ring), 200, pos, ST, out, 3, &n, &bad);
	CHECK_EQ(n, 3);
	CHECK_EQ(tail, 200 + 3 * 32);
	CHECK_EQ(out[2].pid, 12);
	tail = dtl_sb__ring(ring, sizeof(ring), tail, pos, ST, out, 8, &n, &bad);
	CHECK_EQ(n, 2);
	CHECK_EQ(tail, pos);
	CHECK_EQ(out[1].pid, 14);
	CHECK_EQ(out[1].ns, 1004);
	CHECK_EQ(bad, 0);
	/* a size no power of two, and a header cut by the end: read whole all the same */
	pos = 245;
	for (int i = 0; i < 3; i++) {
		len = switch_rec(r, false, 20 + (uint32_t)i, 0, 2000 + (uint64_t)i);
		for (size_t k = 0; k < len; k++)
			ring[(pos + k) % 250] = r[k];
		pos += len;
	}
	tail = dtl_sb__ring(ring, 250, 245, pos, ST, out, 8, &n, &bad);
	CHECK_EQ(n, 3);
	CHECK_EQ(tail, pos);
	CHECK_EQ(out[0].pid, 20);
	CHECK_EQ(out[0].ns, 2000);
	CHECK_EQ(out[2].pid, 22);
	CHECK_EQ(out[2].ns, 2002);
	CHECK_EQ(bad, 0);
	/* a record of size 0, or a head behind the tail: skip to head, counted */
	memset(ring, 0, sizeof(ring));
	CHECK_EQ(dtl_sb__ring(ring, sizeof(ring), 0, 64, ST, out, 8, &n, &bad), 64);
	CHECK_EQ(bad, 1);
	CHECK_EQ(dtl_sb__ring(ring, sizeof(ring), 64, 0, ST, out, 8, &n, &bad), 0);
	CHECK_EQ(bad, 2);
	CHECK_EQ(dtl_sb__ring(ring, sizeof(ring), 0, 1000, ST, out, 8, &n, &bad), 1000);
	CHECK_EQ(bad, 3);
}

/* ring: records appended at *pos of a 1 KB ring */
static void ring_put(uint8_t *ring, uint64_t *pos, const uint8_t *r, size_t len)
{
	memcpy(ring + *pos, r, len);
	*pos += len;
}

TEST(sideband_ring_takes_a_cpu_wide_switch_once)
{
	uint8_t ring[1024], r[64], b[16];
	struct dtl_sb out[16];
	uint64_t pos = 0, bad = 0;
	size_t n;

	/* OUT naming 11, then 11's IN: one switch, at the OUT's time */
	ring_put(ring, &pos, r, switch_rec(r, true, 10, 11, 100));
	ring_put(ring, &pos, r, switch_rec(r, false, 11, 10, 101));
	/* OUT naming 12, records lost, 12's IN: the IN kept (what was lost may be between) */
	ring_put(ring, &pos, r, switch_rec(r, true, 11, 12, 200));
	put64(b, 1);
	put64(b + 8, 3);
	ring_put(ring, &pos, r, rec(r, 2, 0, b, 16, 0, 201));
	ring_put(ring, &pos, r, switch_rec(r, false, 12, 11, 202));
	/* an IN with no OUT before it, then an OUT naming 0 and another task's IN: all kept */
	ring_put(ring, &pos, r, switch_rec(r, false, 13, 12, 300));
	ring_put(ring, &pos, r, switch_rec(r, true, 13, 0, 400));
	ring_put(ring, &pos, r, switch_rec(r, false, 14, 13, 401));
	CHECK_EQ(dtl_sb__ring(ring, sizeof(ring), 0, pos, ST, out, 16, &n, &bad), pos);
	CHECK_EQ(bad, 0);
	CHECK_EQ(n, 7);
	CHECK_EQ(out[0].pid, 11);
	CHECK_EQ(out[0].ns, 100);
	CHECK_EQ(out[1].pid, 12);
	CHECK_EQ(out[1].ns, 200);
	CHECK_EQ(out[2].kind, DTL_SB_LOST);
	CHECK_EQ(out[3].pid, 12);
	CHECK_EQ(out[3].ns, 202);
	CHECK_EQ(out[4].pid, 13);
	CHECK_EQ(out[5].pid, 0);
	CHECK_EQ(out[6].pid, 14);
	CHECK_EQ(out[6].ns, 401);
	/* a per-task event's IN after its OUT: the OUT says nothing, the IN is the switch */
	pos = 0;
	ring_put(ring, &pos, r, rec(r, 14, 1u << 13, b, 0, 10, 500));
	ring_put(ring, &pos, r, rec(r, 14, 0, b, 0, 10, 501));
	dtl_sb__ring(ring, sizeof(ring), 0, pos, ST, out, 16, &n, &bad);
	CHECK_EQ(n, 1);
	CHECK_EQ(out[0].ns, 501);
	/*
	 * A record of no use to us between OUT and IN (an mmap) leaves the IN
	 * passed over; a second IN of the same task after that is news again.
	 */
	pos = 0;
	ring_put(ring, &pos, r, switch_rec(r, true, 20, 21, 600));
	ring_put(ring, &pos, r, rec(r, 1, 0, b, 16, 20, 601));
	ring_put(ring, &pos, r, switch_rec(r, false, 21, 20, 602));
	ring_put(ring, &pos, r, switch_rec(r, false, 21, 20, 603));
	dtl_sb__ring(ring, sizeof(ring), 0, pos, ST, out, 16, &n, &bad);
	CHECK_EQ(n, 2);
	CHECK_EQ(out[0].ns, 600);
	CHECK_EQ(out[1].ns, 603);
	CHECK_EQ(bad, 0);
	/* an IN without the body a CPU-wide switch has: known by its trailer all the same */
	pos = 0;
	ring_put(ring, &pos, r, switch_rec(r, true, 20, 21, 700));
	ring_put(ring, &pos, r, rec(r, 15, 0, b, 0, 21, 701));
	dtl_sb__ring(ring, sizeof(ring), 0, pos, ST, out, 16, &n, &bad);
	CHECK_EQ(n, 1);
	CHECK_EQ(out[0].ns, 700);
}

/*
 * Every sample_id field (64-byte records): the OUT flag read where it is,
 * whatever a record's size holds in its bits, so the IN is passed over.
 */
TEST(sideband_ring_takes_a_wide_trailer_switch_once)
{
	const uint64_t st = DTL_SAMPLE_TID | DTL_SAMPLE_TIME | DTL_SAMPLE_ID | DTL_SAMPLE_STREAM_ID |
			    DTL_SAMPLE_CPU | DTL_SAMPLE_IDENTIFIER;
	uint8_t ring[256] = { 0 };
	struct dtl_sb out[4];
	uint64_t bad = 0;
	size_t n;

	for (int i = 0; i < 2; i++) {
		uint8_t *r = ring + 64 * i;
		uint16_t misc = i ? 0 : 1u << 13, size = 64;

		put32(r, 15);
		memcpy(r + 4, &misc, 2);
		memcpy(r + 6, &size, 2);
		put32(r + 8, i ? 10 : 11);	/* next_prev pid, tid */
		put32(r + 12, i ? 10 : 11);
		put32(r + 16, i ? 11 : 10);	/* TID: pid, tid */
		put32(r + 20, i ? 11 : 10);
		put64(r + 24, 900 + (uint64_t)i);	/* TIME */
	}
	CHECK_EQ(dtl_sb__ring(ring, sizeof(ring), 0, 128, st, out, 4, &n, &bad), 128);
	CHECK_EQ(bad, 0);
	CHECK_EQ(n, 1);
	CHECK_EQ(out[0].pid, 11);
	CHECK_EQ(out[0].ns, 900);
}

TEST(sideband_perf_clock_goes_back_on_the_timebase)
{
	/* Documentation/arch/powerpc/vpa-dtl.rst's header: upstream perf's decoding */
	const uint64_t boot = 21349649546353231ull, freq = 512000000;
	const uint64_t tb = 21403600706628832ull;	/* upstream perf script: 105373.359913 */
	uint64_t ns = (uint64_t)((double)(tb - boot) / (double)freq * 1e9);

	CHECK_EQ(ns / 1000, 105373359913ull);
	/* and back within a tick (2 ns at 512 MHz) */
	CHECK(dtl_sb__tb(ns, boot, freq) <= tb && tb - dtl_sb__tb(ns, boot, freq) <= 1);
	CHECK_EQ(dtl_sb__tb(0, boot, freq), boot);
	CHECK_EQ(dtl_sb__tb(123, boot, 0), 0);
	/* no overflow at a year of uptime */
	CHECK_EQ(dtl_sb__tb(365ull * 86400 * 1000000000ull, 0, freq),
		 365ull * 86400 * freq);
}

TEST(procs_cgroup_from_v2_v1_and_garbage)
{
	char cg[128];

	dtl_procs__parse_cgroup("0::/system.slice/db.service\n", cg, sizeof(cg));
	CHECK_STR(cg, "/system.slice/db.service");
	dtl_procs__parse_cgroup("12:cpu,cpuacct:/user/1\n1:name=systemd:/init.scope\n0::/v2\n",
				cg, sizeof(cg));
	CHECK_STR(cg, "/v2");
	dtl_procs__parse_cgroup("3:memory:/m\n2:cpu:/c\n", cg, sizeof(cg));
	CHECK_STR(cg, "/m");
	dtl_procs__parse_cgroup("garbage with no colon\n\n", cg, sizeof(cg));
	CHECK_STR(cg, "");
	dtl_procs__parse_cgroup("", cg, sizeof(cg));
	CHECK_STR(cg, "");
	dtl_procs__parse_cgroup("0::/a/very/long/path/that/does/not/fit", cg, 8);
	CHECK_STR(cg, "/a/very");
}

TEST(procs_names_once_again_after_exec_or_exit)
{
	const char *root = fakeroot_new();
	struct dtl_procs *p = dtl_procs__new(root);
	char comm[16], cg[128];

	fakeroot_puts(root, "proc/321/comm", "nginx\n");
	fakeroot_puts(root, "proc/321/cgroup", "0::/system.slice/nginx.service\n");
	CHECK(dtl_procs__names(p, 321, comm, cg, sizeof(cg)));
	CHECK_STR(comm, "nginx");
	CHECK_STR(cg, "/system.slice/nginx.service");
	CHECK(!dtl_procs__names(p, 321, comm, cg, sizeof(cg)));	/* handed on already */
	/* whoever may make a cgroup or set a comm chooses the bytes: cleaned as read */
	fakeroot_puts(root, "proc/322/comm", "e\x1b]0;x\x07\n");
	fakeroot_puts(root, "proc/322/cgroup", "0::/user.slice/c\xc2\x9b\xff.scope\n");
	CHECK(dtl_procs__names(p, 322, comm, cg, sizeof(cg)));
	CHECK_STR(comm, "e?]0;x?");
	CHECK_STR(cg, "/user.slice/c???.scope");
	dtl_procs__comm(p, 322, "r\x1bn");
	CHECK(dtl_procs__names(p, 322, comm, cg, sizeof(cg)));
	CHECK_STR(comm, "r?n");
	CHECK(!dtl_procs__names(p, 0, comm, cg, sizeof(cg)));	/* idle has none */
	dtl_procs__comm(p, 321, "nginx-worker");
	CHECK(dtl_procs__names(p, 321, comm, cg, sizeof(cg)));
	CHECK_STR(comm, "nginx-worker");
	CHECK_STR(cg, "");				/* unchanged: not handed on */
	CHECK(!dtl_procs__names(p, 321, comm, cg, sizeof(cg)));
	dtl_procs__exit(p, 321);
	CHECK(dtl_procs__names(p, 321, comm, cg, sizeof(cg)));	/* read again */
	CHECK_STR(comm, "nginx");
	/* gone before its names were read: empty, so the row says it does not know */
	CHECK(dtl_procs__names(p, 999, comm, cg, sizeof(cg)));
	CHECK_STR(comm, "");
	CHECK_STR(cg, "");
	/* two pids on one slot: each still gets its own names */
	fakeroot_puts(root, "proc/65857/comm", "other\n");
	CHECK(dtl_procs__names(p, 65857, comm, cg, sizeof(cg)));	/* 65857 % 65536 == 321 */
	CHECK_STR(comm, "other");
	CHECK(dtl_procs__names(p, 321, comm, cg, sizeof(cg)));
	CHECK_STR(comm, "nginx");
	dtl_procs__delete(p);
}

/* A child on cpu with a name of its own, switching often, until killed. */
static pid_t busy_child(unsigned int cpu, const char *name)
{
	pid_t parent = getpid(), pid = fork();

	if (pid == 0) {
		cpu_set_t one;

		/* a test killed by its timeout takes its child along */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(0);
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		sched_setaffinity(0, sizeof(one), &one);
		prctl(PR_SET_NAME, name);
		for (;;) {
			struct timespec ts = { 0, 200000 };

			nanosleep(&ts, NULL);
		}
	}
	return pid;
}

TEST(sideband_live_switch_stream_names_a_real_process)
{
	struct dtl_perf_opts o = { 0 };
	struct dtl_cpuset set;
	struct dtl_perf_cpus *p;
	struct dtl_procs *procs = dtl_procs__new("/");
	static struct dtl_sb sb[4096];
	char err[1024], comm[16], cg[128];
	bool seen = false, named = false, other = false;
	uint64_t bad = 0;
	pid_t child;

	o.type = PERF_TYPE_SOFTWARE;
	o.config = PERF_COUNT_SW_CPU_CLOCK;
	o.period_ns = 100000000;
	o.switches = true;
	dtl_cpuset__parse(&set, "0", err, sizeof(err));
	p = dtl_perf_cpus__open(&o, &set, "/", err, sizeof(err));
	if (!p || dtl_perf_cpus__sideband_why(p)) {
		printf("SKIP live switch stream: perf_event_open refused here: %s\n",
		       p ? dtl_perf_cpus__sideband_why(p) : err);
		dtl_perf_cpus__close(p);
		dtl_procs__delete(procs);
		return;
	}
	child = busy_child(0, "dtlsb-child");
	for (int round = 0; round < 50 && !(seen && named); round++) {
		size_t n;
		struct timespec ts = { 0, 20000000 };

		nanosleep(&ts, NULL);
		dtl_perf_cpus__sideband(p, 0, sb, 4096, &n, &bad);
		for (size_t i = 0; i < n; i++) {
			if (sb[i].kind != DTL_SB_SWITCH)
				continue;
			other |= sb[i].pid != child;
			if (sb[i].pid != child)
				continue;
			seen = true;
			if (dtl_procs__names(procs, child, comm, cg, sizeof(cg)))
				named = !strcmp(comm, "dtlsb-child");
		}
	}
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	CHECK(seen);		/* the child was switched in on CPU 0 */
	CHECK(named);		/* and /proc named it */
	CHECK(other);		/* it sleeps: another task (idle, say) ran between */
	CHECK_EQ(bad, 0);
	dtl_perf_cpus__close(p);
	dtl_procs__delete(procs);
}

#include "platform/caps.h"
#include "platform/ksyms.h"

/*
 * /proc/kallsyms opened while privileged still shows addresses once the
 * capabilities are dropped: the payer pane names functions under a root
 * dtltop that keeps only CAP_PERFMON.
 */
TEST(ksyms_kept_open_reads_addresses_after_the_drop)
{
	char why[512];
	struct dtl_ksyms *k;
	pid_t pid;
	int status;

	if (geteuid() != 0) {
		printf("SKIP kallsyms across the drop: not root\n");
		return;
	}
	k = dtl_ksyms__load("/", why, sizeof(why));
	if (!k) {
		printf("SKIP kallsyms across the drop: root sees no addresses here: %s\n", why);
		return;
	}
	dtl_ksyms__free(k);
	pid = fork();
	if (pid == 0) {
		dtl_ksyms__keep_open("/");
		if (!dtl_caps__can_perfmon() || dtl_caps__drop())
			_exit(2);
		k = dtl_ksyms__load("/", why, sizeof(why));
		/* not every address 0: the kept descriptor shows them after the drop */
		_exit(k ? 0 : 1);
	}
	CHECK(pid > 0);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status));
	CHECK_EQ(WEXITSTATUS(status), 0);
}

#include "platform/tbclock.h"
#include "source/taskfeed.h"

/*
 * The debugfs source's stream: only the switches, stamped with the raw clock
 * and put on the timebase by a calibration. Every switch lands between the
 * timebase read before it and the one after; a forget makes the CPU's task
 * unknown from then, and drops what the ring held from before.
 */
TEST(taskfeed_raw_clock_stream_lands_on_the_timebase_and_forgets)
{
	struct dtl_perf_opts o = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_DUMMY,
				   .switches = true, .stream_only = true, .raw_clock = true };
	struct dtl_tb_sample s[8], before, after;
	struct dtl_taskfeed *f = dtl_taskfeed__new("/");
	struct dtl_cpuset set;
	struct dtl_perf_cpus *p;
	struct dtl_tbmap m;
	struct dtl_chunk c;
	char err[1024];
	size_t seen = 0, late = 0;
	pid_t child;

	dtl_cpuset__parse(&set, "0", err, sizeof(err));
	CHECK(f != NULL);
	CHECK(dtl_tbclock__sample(512000000, s, 8));
	CHECK_EQ(dtl_tbmap__calibrate(&m, 512000000, s, 8), 0);
	dtl_tbclock__sample(512000000, &before, 1);
	p = dtl_perf_cpus__open(&o, &set, "/", err, sizeof(err));
	if (!p) {
		printf("SKIP raw clock switch stream: perf_event_open refused here: %s\n", err);
		dtl_taskfeed__delete(f);
		return;
	}
	CHECK(dtl_perf_cpus__has(p, 0));
	child = busy_child(0, "dtlsb-raw");
	for (int round = 0; round < 10; round++) {
		struct timespec ts = { 0, 10000000 };

		nanosleep(&ts, NULL);
		memset(&c, 0, sizeof(c));
		/* bounded: a feed that never runs dry fails here, it does not hang */
		for (int more = 0; more < 1000 && (dtl_taskfeed__take(f, p, 0, &m, &c) || c.nswitches);
		     more++) {
			dtl_tbclock__sample(512000000, &after, 1);
			for (size_t i = 0; i < c.nswitches; i++) {
				seen++;
				late += c.switches[i].tb < before.tb_before ||
					c.switches[i].tb > after.tb_after;
			}
			memset(&c, 0, sizeof(c));
		}
	}
	CHECK(seen > 2);
	CHECK_EQ(late, 0);
	/* a forget: the first switch after it is nobody's, at its instant, and no earlier one follows */
	{
		struct timespec ts = { 0, 20000000 };
		struct dtl_tb_sample now;
		uint64_t dropped = dtl_taskfeed__dropped(f);

		nanosleep(&ts, NULL);	/* the ring holds switches from before the forget */
		dtl_tbclock__sample(512000000, &now, 1);
		dtl_taskfeed__forget(f, 0, now.tb_after);
		memset(&c, 0, sizeof(c));
		dtl_taskfeed__take(f, p, 0, &m, &c);
		CHECK(c.nswitches >= 1);
		CHECK_EQ(c.switches[0].pid, DTL_SWITCH_UNKNOWN);
		CHECK_EQ(c.switches[0].tb, now.tb_after);
		for (size_t i = 1; i < c.nswitches; i++)
			CHECK(c.switches[i].tb >= now.tb_after);
		CHECK(dtl_taskfeed__dropped(f) > dropped);
		/* a forget is once: the next take starts with what the ring says */
		nanosleep(&ts, NULL);
		memset(&c, 0, sizeof(c));
		dtl_taskfeed__take(f, p, 0, &m, &c);
		CHECK(c.nswitches >= 1);
		CHECK(c.nswitches && c.switches[0].pid != DTL_SWITCH_UNKNOWN);
	}
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	CHECK_EQ(dtl_taskfeed__bad(f), 0);
	dtl_perf_cpus__close(p);
	dtl_taskfeed__delete(f);
}

/*
 * The feed on its own, from records as a ring gives them: an IN after its
 * OUT changes nothing; a LOST makes the CPU's task unknown from the latest
 * switch before it, never the task before; a forget drops what came before
 * it and counts only switches; a comm record renames at the next switch.
 */
TEST(taskfeed_feed_dedups_in_and_lost_makes_unknown)
{
	struct dtl_taskfeed *f = dtl_taskfeed__new("/nonexistent");
	struct dtl_tbmap m;
	struct dtl_chunk c;
	struct dtl_sb sb[8];

	CHECK(f != NULL);
	if (!f)
		return;
	dtl_tbmap__fixed(&m, 1000000000, 0);	/* 1 GHz from 0: a time in ns is its tb */
	memset(sb, 0, sizeof(sb));
	sb[0] = (struct dtl_sb){ .kind = DTL_SB_SWITCH, .ns = 100, .pid = 7 };	/* OUT naming 7 */
	sb[1] = (struct dtl_sb){ .kind = DTL_SB_SWITCH, .ns = 101, .pid = 7 };	/* IN of 7 */
	sb[2] = (struct dtl_sb){ .kind = DTL_SB_SWITCH, .ns = 200, .pid = 9 };
	sb[3] = (struct dtl_sb){ .kind = DTL_SB_LOST, .ns = 150, .lost = 3 };
	sb[4] = (struct dtl_sb){ .kind = DTL_SB_SWITCH, .ns = 300, .pid = 9 };	/* 9 again: after a loss, news */
	dtl_taskfeed__feed(f, 0, &m, sb, 5, &c);
	CHECK_EQ(c.nswitches, 4);
	if (c.nswitches == 4) {
		CHECK_EQ(c.switches[0].pid, 7);
		CHECK_EQ(c.switches[0].tb, 100);
		CHECK_EQ(c.switches[1].pid, 9);
		/* the loss is placed no earlier than the switch before it */
		CHECK_EQ(c.switches[2].pid, DTL_SWITCH_UNKNOWN);
		CHECK_EQ(c.switches[2].tb, 200);
		CHECK_EQ(c.switches[3].pid, 9);
		CHECK_EQ(c.switches[3].tb, 300);
	}
	CHECK_EQ(dtl_taskfeed__lost(f), 3);
	/* CPUs are apart: 9 on CPU 0 is no reason to pass over 9 on CPU 1 */
	dtl_taskfeed__feed(f, 1, &m, sb + 4, 1, &c);
	CHECK_EQ(c.nswitches, 1);
	/* a forget at 500: the switch at 400 is dropped and counted, the LOST is not a switch */
	dtl_taskfeed__forget(f, 0, 500);
	sb[0] = (struct dtl_sb){ .kind = DTL_SB_SWITCH, .ns = 400, .pid = 11 };
	sb[1] = (struct dtl_sb){ .kind = DTL_SB_SWITCH, .ns = 550, .pid = 12 };
	sb[2] = (struct dtl_sb){ .kind = DTL_SB_COMM, .ns = 560, .pid = 12 };
	strcpy(sb[2].comm, "renamed");
	sb[3] = (struct dtl_sb){ .kind = DTL_SB_SWITCH, .ns = 570, .pid = 13 };
	sb[4] = (struct dtl_sb){ .kind = DTL_SB_SWITCH, .ns = 600, .pid = 12 };
	dtl_taskfeed__feed(f, 0, &m, sb, 5, &c);
	CHECK_EQ(dtl_taskfeed__dropped(f), 1);
	CHECK_EQ(c.nswitches, 4);
	if (c.nswitches == 4) {
		CHECK_EQ(c.switches[0].pid, DTL_SWITCH_UNKNOWN);
		CHECK_EQ(c.switches[0].tb, 500);
		CHECK_EQ(c.switches[1].pid, 12);
		CHECK(c.switches[1].comm == NULL);	/* no /proc here: no name, not a made-up one */
		CHECK_EQ(c.switches[3].pid, 12);
		CHECK_STR(c.switches[3].comm, "renamed");
	}
	/* no map, no switches: a CPU past the table likewise */
	dtl_taskfeed__feed(f, DTL_MAX_CPUS, &m, sb, 3, &c);
	CHECK_EQ(c.nswitches, 0);
	dtl_taskfeed__delete(f);
}
