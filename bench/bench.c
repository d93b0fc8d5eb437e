/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bench.c - `make bench`: each figure beside a baseline measured in the
 * same run, reported as a ratio.
 *
 *   decode+stats  records/s over realistic entries, against memcpy of the
 *                 same bytes (the physical limit of touching them once)
 *   TUI frame     CPU time to render the table for 1920 vCPUs, against 100
 *                 vCPUs (cost should follow the visible rows, not the total)
 *   peak RSS      of `dtltop --sim=vcpus=1920 -b -n 5`, against vcpus=16
 *   AUX poll      consuming 1920 AUX rings of 85 new entries each, into stats,
 *                 against memcpy of the same bytes
 *   reopen        closing and reopening one sampling event per CPU, as a mask
 *                 change does (cpu-clock: this machine has no vpa_dtl)
 *   record        -w at 1920 vCPUs x ~5k dispatches/s: CPU per second of capture
 *                 and bytes per entry; beside it the stats' own cost
 *   replay        -r at full speed: entries/s through reader and stats
 *   report        --report of a 1920-CPU x 600-interval recording, against the
 *                 same replay without it
 *   seek          --begin -10m of a 2 h recording, against its whole replay;
 *                 a T at its end from the last mark, against from the start
 *   exposition    the exporter's per-interval render of 1920 CPUs (both formats),
 *                 against memcpy of the same bytes; and a scrape over HTTP
 *                 (server and client both in this process: an upper bound)
 *   idle          an exporter between its intervals (-d 30): CPU and wakeups of
 *                 all its threads, against the same exporter ending one a second
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <dirent.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "dtl/aux.h"
#include "dtl/dtl.h"
#include "platform/perf.h"
#include "format/record.h"
#include "format/summary.h"
#include "floor.h"
#include "source/source.h"
#include "stats/stats.h"
#include "dtl/sideband.h"
#include "source/taskfeed.h"
#include "dtl/tbmap.h"
#include "stats/task.h"
#include "tui/tui.h"
#include "view/http.h"
#include "view/metrics.h"
#include "view/table.h"
#include "perfdata_gen.h"

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* this process's CPU time; this thread's; the wall clock */
static double cpu_s(void)
{
	return clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

static double thread_s(void)
{
	return clock_s(CLOCK_THREAD_CPUTIME_ID);
}

static double wall_s(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

struct chunk {
	unsigned int cpu;
	size_t off, n;
};

static struct dtl_source *sim(unsigned int vcpus)
{
	struct dtl_source_opts o = { 0 };
	char params[64], err[256];
	struct dtl_source *s;

	snprintf(params, sizeof(params), "vcpus=%u,clock=virtual,busy=0.1,poll=20,other=0", vcpus);
	o.backend = "sim";
	o.sim_params = params;
	o.seed = 1;
	o.mask = DTL_MASK_ALL;
	s = dtl_source__open(&o, err, sizeof(err));
	if (!s) {
		fprintf(stderr, "bench: %s\n", err);
		exit(1);
	}
	return s;
}

static void bench_decode(void)
{
	const size_t want = 2000000;
	uint8_t *buf = malloc(want * 48 + 85 * 48), *dst = malloc(want * 48 + 85 * 48);
	struct chunk *chunks = malloc(sizeof(*chunks) * want);
	struct dtl_source *s = sim(1920);
	struct dtl_stats *st = dtl_stats__new(1920, DTL_DEFAULT_TB_FREQ);
	size_t n = 0, nc = 0;
	struct dtl_chunk c;
	double t0, t_stats = 1e9, t_copy = 1e9;
	int reps = 5;

	while (n < want) {
		dtl_source__tick(s, 100000000);
		while (n < want && dtl_source__read(s, &c) > 0) {
			memcpy(buf + n * 48, c.data, c.n * 48);
			chunks[nc++] = (struct chunk){ c.cpu, n * 48, c.n };
			n += c.n;
		}
	}
	for (unsigned int i = 0; i < 1920; i++)
		dtl_stats__set_online(st, i, true);
	memset(dst, 0, want * 48);
	for (int r = 0; r < reps; r++) {
		t0 = cpu_s();
		for (size_t i = 0; i < nc; i++)
			dtl_stats__add_entries(st, chunks[i].cpu, buf + chunks[i].off, chunks[i].n);
		t0 = cpu_s() - t0;
		if (t0 < t_stats)
			t_stats = t0;
		t0 = cpu_s();
		for (size_t i = 0; i < nc; i++)
			memcpy(dst + chunks[i].off, buf + chunks[i].off, chunks[i].n * 48);
		__asm__ volatile("" : : "r"(dst) : "memory");
		t0 = cpu_s() - t0;
		if (t0 < t_copy)
			t_copy = t0;
	}
	dtl_stats__end_interval(st, 1.0);
	printf("decode+stats: %zu records in %zu chunks over 1920 vCPUs, best of %d\n", n, nc, reps);
	printf("  decode+stats  %8.1f M records/s  (%.2f ns/record)\n", n / t_stats / 1e6,
	       t_stats / n * 1e9);
	printf("  memcpy        %8.1f M records/s  (%.2f ns/record)\n", n / t_copy / 1e6,
	       t_copy / n * 1e9);
	printf("  ratio         %8.2fx memcpy  (target <= 4x, >= 100 M/s)\n", t_stats / t_copy);
	dtl_stats__delete(st);
	dtl_source__close(s);
	free(buf), free(dst), free(chunks);
}

/*
 * Who pays: the same capture with the simulator's tasks, its switches and
 * entries charged (src/stats/task/), against the stats alone in the same run.
 */
static void bench_whopays(void)
{
	const size_t want = 1000000;
	struct dtl_source_opts o = { 0 };
	char err[256];
	struct dtl_source *s;
	uint8_t *buf = malloc(want * 48 + 85 * 48);
	struct chunk *chunks = malloc(sizeof(*chunks) * want);
	struct dtl_switch *sw = NULL;
	size_t *swoff = malloc(sizeof(*swoff) * (want + 1)), nsw = 0, swcap = 0, n = 0, nc = 0;
	double t_stats = 1e9, t_tasks = 1e9, t0;
	struct dtl_chunk c;

	o.backend = "sim";
	o.sim_params = "vcpus=1920,clock=virtual,busy=0.1,poll=20,other=0,"
		       "tasks=db:3:/system.slice/db.service+web:2:/system.slice/nginx.service+"
		       "batch:1:/batch.slice+cron:1:/system.slice/cron.service";
	o.seed = 1;
	o.mask = DTL_MASK_ALL;
	s = dtl_source__open(&o, err, sizeof(err));
	if (!s || !buf || !chunks || !swoff) {
		fprintf(stderr, "bench: %s\n", s ? "out of memory" : err);
		exit(1);
	}
	while (n < want) {
		dtl_source__tick(s, 100000000);
		while (n < want && nc < want && dtl_source__read(s, &c) > 0) {
			if (nsw + c.nswitches > swcap) {
				swcap = (nsw + c.nswitches) * 2;
				sw = realloc(sw, swcap * sizeof(*sw));
			}
			memcpy(sw + nsw, c.switches, c.nswitches * sizeof(*sw));
			swoff[nc] = nsw;
			nsw += c.nswitches;
			memcpy(buf + n * 48, c.data, c.n * 48);
			chunks[nc++] = (struct chunk){ c.cpu, n * 48, c.n };
			n += c.n;
		}
	}
	swoff[nc] = nsw;
	for (int r = 0; r < 3; r++) {
		struct dtl_stats *st = dtl_stats__new(1920, DTL_DEFAULT_TB_FREQ);
		struct dtl_tasks *t = dtl_tasks__new(1920, DTL_DEFAULT_TB_FREQ);

		for (unsigned int i = 0; i < 1920; i++)
			dtl_stats__set_online(st, i, true);
		t0 = cpu_s();
		for (size_t i = 0; i < nc; i++)
			dtl_stats__add_entries(st, chunks[i].cpu, buf + chunks[i].off, chunks[i].n);
		t0 = cpu_s() - t0;
		t_stats = t0 < t_stats ? t0 : t_stats;
		t0 = cpu_s();
		for (size_t i = 0; i < nc; i++) {
			for (size_t k = swoff[i]; k < swoff[i + 1]; k++)
				dtl_tasks__switch(t, chunks[i].cpu, &sw[k]);
			dtl_tasks__add_entries(t, chunks[i].cpu, buf + chunks[i].off, chunks[i].n);
		}
		t0 = cpu_s() - t0;
		t_tasks = t0 < t_tasks ? t0 : t_tasks;
		dtl_tasks__delete(t);
		dtl_stats__delete(st);
	}
	printf("who pays (--group=task): %zu entries and %zu switches over 1920 vCPUs, best of 3\n",
	       n, nsw);
	printf("  attribution   %8.1f M entries/s  (%.2f ns/entry, switches included)\n",
	       n / t_tasks / 1e6, t_tasks / n * 1e9);
	printf("  stats         %8.1f M entries/s  (baseline, the same entries)\n", n / t_stats / 1e6);
	printf("  ratio         %8.2fx the stats  (what --group=task adds on top of them)\n",
	       t_tasks / t_stats);
	dtl_source__close(s);
	free(buf), free(chunks), free(sw), free(swoff);
}

/*
 * Who pays against what a file names: the same number of switches naming
 * 4096 cgroups alike up to their last bytes, or pids 8192 apart (one slot
 * under a plain modulo), against one pid with no names, in the same run.
 */
static double switches_s(int kind)
{
	static char cg[DTL_TASKS_MAX][96];
	double best = 1e9;

	for (int i = 0; i < DTL_TASKS_MAX; i++)
		snprintf(cg[i], sizeof(cg[i]), "/system.slice/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa%05d", i);
	for (int r = 0; r < 3; r++) {
		struct dtl_tasks *t = dtl_tasks__new(1, DTL_DEFAULT_TB_FREQ);
		uint64_t tb = 1;
		double t0 = cpu_s();

		for (int pass = 0; pass < 50; pass++)
			for (int i = 0; i < DTL_TASKS_MAX - 2; i++) {
				struct dtl_switch sw = { tb++, kind == 2 ? 8192 * (i + 1) : 42, NULL,
							 kind == 1 ? cg[i] : kind == 3 ? cg[0] : NULL };

				dtl_tasks__switch(t, 0, &sw);
			}
		t0 = cpu_s() - t0;
		best = t0 < best ? t0 : best;
		dtl_tasks__delete(t);
	}
	return best;
}

static void bench_whopays_names(void)
{
	double base = switches_s(0), names = switches_s(1), pids = switches_s(2);
	double one = switches_s(3), n = 50.0 * (DTL_TASKS_MAX - 2);

	printf("who pays, switches as a crafted file names them: %.0f switches, best of 3\n", n);
	printf("  one pid          %8.1f ns/switch  (baseline for pids)\n", base / n * 1e9);
	printf("  pids 8192 apart  %8.1f ns/switch  %6.2fx  (4094 tasks, one slot under a modulo)\n",
	       pids / n * 1e9, pids / base);
	printf("  one cgroup       %8.1f ns/switch  (baseline for names)\n", one / n * 1e9);
	printf("  4094 cgroups     %8.1f ns/switch  %6.2fx  (alike up to their last bytes)\n",
	       names / n * 1e9, names / one);
}

static void aux_cycles(unsigned int cpus, unsigned int per, int cycles, double *t_poll,
		       double *t_copy, size_t *got);

/* A CPU-wide switch record as the kernel writes it for dtltop's event: TID|TIME trailer. */
static void put_switch(uint8_t *ring, size_t size, uint64_t *head, int out, uint32_t pid,
		       uint32_t next, uint64_t ns)
{
	uint8_t r[32];
	uint32_t type = 15;
	uint16_t misc = out ? 1u << 13 : 0, len = 32;
	size_t off = (size_t)(*head % size);

	memcpy(r, &type, 4), memcpy(r + 4, &misc, 2), memcpy(r + 6, &len, 2);
	memcpy(r + 8, &next, 4), memcpy(r + 12, &next, 4);
	memcpy(r + 16, &pid, 4), memcpy(r + 20, &pid, 4), memcpy(r + 24, &ns, 8);
	if (off + 32 <= size) {
		memcpy(ring + off, r, 32);
	} else {
		memcpy(ring + off, r, size - off);
		memcpy(ring, r + (size - off), 32 - (size - off));
	}
	*head += 32;
}

enum { SB_READ, SB_WALK, SB_FEED, SB_TABLE, SB_APPLY, SB_STAGES, SB_FLOOR = SB_STAGES };

/*
 * The least any design must do with a switch once walked, for the floor the
 * bench states beside the stages: the timebase by one multiply, the task by
 * one probe of a pid hash, a 16-byte slot in its CPU's queue, and the slot
 * taken back at the entries that follow, charging the time on the CPU. No
 * names, losses, order checks or wake-ups: a bound, not a design.
 */
#define FLOOR_Q 256
struct floor_q {
	struct {
		uint64_t tb;
		int32_t task;
	} e[FLOOR_Q];
	unsigned int head, n;
	int32_t cur;
	uint64_t since;
};

struct floor {
	int32_t on[1920];
	int32_t slot[8192], pid[4096];
	uint64_t run[4096];
	unsigned int ntask;
	uint64_t mult;			/* timebase per ns, << 32 */
	struct floor_q q[1920];
};

static void floor_queue(struct floor *fl, unsigned int c, const struct dtl_sb *sb, size_t n)
{
	struct floor_q *q = &fl->q[c];

	for (size_t i = 0; i < n; i++) {
		const struct dtl_sb *e = &sb[i];
		uint32_t h = (uint32_t)((uint64_t)(uint32_t)e->pid * 0x9e3779b97f4a7c15ull >> 51);

		if (e->kind != DTL_SB_SWITCH || fl->on[c] == e->pid + 1)
			continue;
		fl->on[c] = e->pid + 1;
		while (fl->slot[h] && fl->pid[fl->slot[h] - 1] != e->pid)
			h = (h + 1) & 8191;
		if (!fl->slot[h] && fl->ntask < 4096) {
			fl->pid[fl->ntask] = e->pid;
			fl->slot[h] = (int32_t)++fl->ntask;
		}
		if (q->n == FLOOR_Q)
			q->head = (q->head + 1) % FLOOR_Q, q->n--;
		q->e[(q->head + q->n) % FLOOR_Q].tb = (uint64_t)((unsigned __int128)e->ns * fl->mult >> 32);
		q->e[(q->head + q->n) % FLOOR_Q].task = fl->slot[h] - 1;
		q->n++;
	}
}

static void floor_apply(struct floor *fl, unsigned int c, const uint8_t *ent, size_t n)
{
	struct floor_q *q = &fl->q[c];
	struct dtl_rec r;

	for (size_t i = 0; i < n; i++) {
		uint64_t at;

		dtl_rec__decode(&r, ent + i * DTL_ENTRY_SIZE);
		at = r.timebase - r.enqueue_to_dispatch - r.ready_to_enqueue - r.waiting_to_ready;
		for (; q->n && q->e[q->head].tb <= at; q->head = (q->head + 1) % FLOOR_Q, q->n--) {
			if (q->cur >= 0)
				fl->run[q->cur] += q->e[q->head].tb - q->since;
			q->cur = q->e[q->head].task;
			q->since = q->e[q->head].tb;
		}
	}
}

/*
 * One run of the stream, timed up to a stage: the rings' bytes read alone
 * (what memory costs, the floor of any walk), the records walked from the
 * rings (dtl_sb__ring, as dtl_perf_cpus__sideband), put on the timebase and
 * named (dtl_taskfeed__feed, as both live sources), queued in the task table
 * (dtl_tasks__switch, as the loop), and applied when the CPU's entries come
 * (dtl_tasks__add_entries, less the same entries charged again with the
 * queue empty: what the entries cost on their own).
 */
static double sideband_run(int upto, size_t *records)
{
	/*
	 * 64 switches a CPU a cycle: 128 records, 4 KB, the bytes of the DTL
	 * baseline's 85 entries, so both walk memory alike.
	 */
	const unsigned int cpus = 1920, per = 64, cycles = 21;
	const uint64_t gap = 20000000 / per;	/* ns: a cycle is 20 ms */
	const size_t ring = 64 * 1024;
	const uint64_t st = DTL_SAMPLE_TID | DTL_SAMPLE_TIME;
	uint8_t *rings = calloc(cpus, ring);
	uint64_t *head = calloc(cpus, sizeof(*head)), *tail = calloc(cpus, sizeof(*tail)), bad = 0;
	struct dtl_sb *sb = malloc(1024 * sizeof(*sb));
	struct dtl_taskfeed *f = dtl_taskfeed__new("/nonexistent");
	struct dtl_tasks *t = dtl_tasks__new(cpus, DTL_DEFAULT_TB_FREQ);
	struct dtl_tbmap map;
	struct floor *fl = calloc(1, sizeof(*fl));
	uint8_t ent[40 * 48];
	double spent = 0, t0;
	uint64_t sum = 0;

	if (!rings || !head || !tail || !sb || !f || !t || !fl) {
		fprintf(stderr, "bench: out of memory\n");
		exit(1);
	}
	dtl_tbmap__fixed(&map, DTL_DEFAULT_TB_FREQ, 1000);
	fl->mult = (uint64_t)(((unsigned __int128)DTL_DEFAULT_TB_FREQ << 32) / 1000000000u);
	for (unsigned int c = 0; c < cpus; c++)
		fl->q[c].cur = -1;
	*records = 0;
	for (unsigned int cyc = 0; cyc < cycles; cyc++) {
		for (unsigned int c = 0; c < cpus; c++)
			for (unsigned int i = 0; i < per; i++) {
				uint64_t ns = 1000000000ull + (uint64_t)(cyc * per + i) * gap;
				uint32_t prev = i & 1 ? 1000 + 1 + (c + i) % 64 : 0, next = i & 1 ? 0 :
						1000 + 1 + (c + i + 1) % 64;

				put_switch(rings + (size_t)c * ring, ring, &head[c], 1, prev, next, ns);
				put_switch(rings + (size_t)c * ring, ring, &head[c], 0, next, prev, ns + 700);
			}
		for (unsigned int i = 0; i < 40; i++) {
			struct dtl_rec r = { 0 };

			r.timebase = dtl_tbmap__tb(&map, 1000000000ull + (uint64_t)(cyc * per) * gap +
						   (uint64_t)(i + 1) * 500000);
			r.preempt_reason = (uint8_t)(i % 10);
			dtl_rec__encode(&r, ent + i * 48);
		}
		/* the first cycle is not timed: names are read and queues grow once, then stay */
		if (cyc == 1)
			spent = 0, *records = 0;
		/* one clock read a cycle: per CPU, it would cost more than its 128 records */
		t0 = cpu_s();
		for (unsigned int c = 0; c < cpus; c++) {
			/* per record the kernel wrote: the walk passes on an IN after its OUT */
			*records += (size_t)per * 2;
			if (upto == SB_READ) {
				for (; tail[c] != head[c]; tail[c] += 8) {
					uint64_t w;

					memcpy(&w, rings + (size_t)c * ring + tail[c] % ring, 8);
					sum += w;
				}
			}
			while (tail[c] != head[c]) {
				struct dtl_chunk ch;
				size_t n;

				tail[c] = dtl_sb__ring(rings + (size_t)c * ring, ring, tail[c], head[c], st, sb,
						       1024, &n, &bad);
				if (upto == SB_FLOOR)
					floor_queue(fl, c, sb, n);
				if (upto < SB_FEED || upto == SB_FLOOR)
					continue;
				dtl_taskfeed__feed(f, c, &map, sb, n, &ch);
				if (upto < SB_TABLE)
					continue;
				for (size_t i = 0; i < ch.nswitches; i++)
					dtl_tasks__switch(t, c, &ch.switches[i]);
			}
		}
		if (upto < SB_APPLY)
			spent += cpu_s() - t0;
		/* the CPUs' entries of the same 20 ms (2 k/s): they drain the queues */
		for (unsigned int c = 0; c < cpus; c++)
			if (upto == SB_FLOOR)
				floor_apply(fl, c, ent, 40);
			else
				dtl_tasks__add_entries(t, c, ent, 40);
		if (upto < SB_APPLY)
			continue;
		spent += cpu_s() - t0;
		t0 = cpu_s();
		for (unsigned int c = 0; c < cpus; c++)
			if (upto == SB_FLOOR)
				floor_apply(fl, c, ent, 40);
			else
				dtl_tasks__add_entries(t, c, ent, 40);
		spent -= cpu_s() - t0;
	}
	__asm__ volatile("" : : "r"(sum) : "memory");	/* the read is not optimised away */
	if (bad) {
		fprintf(stderr, "bench: %" PRIu64 " switch records unreadable\n", bad);
		exit(1);
	}
	for (unsigned int k = 0; k < fl->ntask; k++)
		sum += fl->run[k];
	__asm__ volatile("" : : "r"(sum) : "memory");	/* nor the floor's charge */
	dtl_tasks__delete(t);
	dtl_taskfeed__delete(f);
	free(rings), free(head), free(tail), free(sb), free(fl);
	return spent;
}

/*
 * The live switch stream (on by default; --no-tasks): 20 ms drains of 3.2 k
 * switches/s on each of 1920 CPUs, an OUT and an IN record each, against the
 * DTL path of the same run (AUX consume + stats, 85-entry batches). Each
 * stage is the difference of two runs timed up to it, best of 5 rounds.
 */
static void bench_sideband(void)
{
	static const char *const what[SB_STAGES] = {
		"the ring's bytes read (memory, in the walk)", "walked from the ring (less the read)", "on the timebase, named (the /proc cache warm)",
		"queued in the task table", "applied at the CPU's entries",
	};
	double best[SB_STAGES + 1], poll, copy, per;
	size_t records = 0, got;

	/* rounds of every stage in turn: a noisy spell of the machine hits them all alike */
	for (int s = 0; s <= SB_FLOOR; s++)
		best[s] = 1e9;
	for (int r = 0; r < 5; r++)
		for (int s = 0; s <= SB_FLOOR; s++) {
			double spent = sideband_run(s, &records);

			best[s] = spent < best[s] ? spent : best[s];
		}
	aux_cycles(1920, 85, 20, &poll, &copy, &got);
	per = poll / (double)got;
	printf("switch stream (who pays, on by default; --no-tasks turns it off): 1920 CPUs x 3.2 k "
	       "switches/s, %zu records (OUT + IN), best of 5 each, stages by difference (+-1 ns)\n",
	       records);
	for (int s = 0; s < SB_STAGES; s++) {
		double d = (best[s] - (s ? best[s - 1] : 0)) / (double)records;

		printf("  %-46s %6.2f ns  %5.2fx a DTL entry\n", what[s], d * 1e9, d / per);
	}
	printf("  switch record %8.2f ns  (all of the above)\n",
	       best[SB_STAGES - 1] / (double)records * 1e9);
	printf("  DTL entry     %8.2f ns  (baseline: AUX consume + stats, 85-entry batches)\n", per * 1e9);
	printf("  ratio         %8.2fx a DTL entry, per record\n",
	       best[SB_STAGES - 1] / (double)records / per);
	printf("  floor         %8.2f ns  %5.2fx a DTL entry: the same walk, then per switch one "
	       "multiply, one hash probe, a 16-byte queue slot taken back at the entries\n",
	       best[SB_FLOOR] / (double)records * 1e9, best[SB_FLOOR] / (double)records / per);
	printf("  share         %8.2f%% of a core at 1920 x 1 k switches/s (a busy server), against "
	       "%.2f%% for the DTL at 1920 x 2 k dispatches/s\n",
	       best[SB_STAGES - 1] / (double)records * 2 * 1000 * 1920 * 100, per * 2000 * 1920 * 100);
}

/* how: 0 the table, 1 with a filter that lets every row through, 2 the detail pane of CPU 0 */
static double frame_cost_how(unsigned int vcpus, int frames, int how)
{
	struct dtl_source *s = sim(vcpus);
	struct dtl_stats *st = dtl_stats__new(vcpus, DTL_DEFAULT_TB_FREQ);
	struct dtl_table t = { 0 };
	struct dtl_chunk c;
	struct dtl_lparcfg l = { 0 };
	struct dtl_model m = { 0 };
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	struct dtl_tui *tui;
	double t0;

	for (unsigned int i = 0; i < vcpus; i++)
		dtl_stats__set_online(st, i, true);
	dtl_source__tick(s, 1000000000);
	while (dtl_source__read(s, &c) > 0)
		dtl_stats__add_entries(st, c.cpu, c.data, c.n);
	dtl_stats__end_interval(st, 1.0);
	dtl_table__fill(&t, st, DTL_SPAN_INTERVAL, 0);
	dtl_table__sort(&t, 2, false);
	tui = dtl_tui__new_on(out, in, 2);
	if (!tui) {
		fprintf(stderr, "bench: newterm failed\n");
		exit(1);
	}
	m.table = &t;
	m.stats = st;
	if (how == 1 && dtl_tui__set_filter(tui, "steal_pct>=0 cpu=0-8191", NULL, 0)) {
		fprintf(stderr, "bench: filter\n");
		exit(1);
	}
	if (how == 2)
		dtl_tui__open_detail(tui, 0, false);
	m.source = "sim";
	m.detail = "bench";
	m.mask = 7;
	m.interval_s = 1;
	m.nr_vcpus = vcpus;
	m.lparcfg = &l;
	t0 = cpu_s();
	for (int f = 0; f < frames; f++) {
		/* Alternate two scroll positions so every frame redraws the rows. */
		m.paused = f & 1;
		dtl_tui__draw(tui, &m);
	}
	t0 = (cpu_s() - t0) / frames;
	dtl_tui__delete(tui);
	fclose(out), fclose(in);
	dtl_table__free(&t);
	dtl_stats__delete(st);
	dtl_source__close(s);
	return t0;
}

static double frame_cost(unsigned int vcpus, int frames)
{
	return frame_cost_how(vcpus, frames, 0);
}

static void bench_frame(void)
{
	double small, big, filtered, detail;

	setenv("TERM", "xterm", 1);
	setenv("COLUMNS", "200", 1);
	setenv("LINES", "60", 1);
	small = frame_cost(100, 400);
	big = frame_cost(1920, 400);
	filtered = frame_cost_how(1920, 400, 1);
	detail = frame_cost_how(1920, 400, 2);
	printf("TUI frame, 200x60 terminal:\n");
	printf("  1920 vCPUs    %8.3f ms CPU per frame  (target <= 2 ms)\n", big * 1e3);
	printf("  100 vCPUs     %8.3f ms CPU per frame\n", small * 1e3);
	printf("  ratio         %8.2fx  (both fill the screen: ~1x expected)\n", big / small);
	printf("  1920, filter  %8.3f ms CPU per frame (a filter every row passes: the worst case)\n",
	       filtered * 1e3);
	printf("  1920, detail  %8.3f ms CPU per frame (the detail pane of CPU 0)\n", detail * 1e3);
}

/*
 * One CPU count and batch: every cycle the kernel's part (not timed) puts
 * `per` entries into each ring, then the timed consume folds them straight
 * into the stats, as the perf source does, and a memcpy of the same bytes is
 * timed beside it (in alternating order, so neither warms the other's data).
 */
static void aux_cycles(unsigned int cpus, unsigned int per, int cycles, double *t_poll,
		       double *t_copy, size_t *got)
{
	const size_t ring = 128 * 1024;		/* the perf source's AUX_BYTES */
	uint8_t *rings = calloc(cpus, ring), *copy = malloc((size_t)cpus * per * 48);
	uint8_t bounce[48], entry[48];
	const uint8_t *run;
	struct dtl_aux *st = calloc(cpus, sizeof(*st));
	uint64_t *head = calloc(cpus, sizeof(*head));
	struct dtl_stats *s = dtl_stats__new(cpus, DTL_DEFAULT_TB_FREQ);
	struct dtl_rec r = { 0 };
	double t0;

	*t_poll = *t_copy = 0;
	*got = 0;
	for (unsigned int c = 0; c < cpus; c++) {
		dtl_aux__init(&st[c], ring, false);
		dtl_stats__set_online(s, c, true);
	}
	for (int cyc = 0; cyc < cycles; cyc++) {
		for (unsigned int c = 0; c < cpus; c++)
			for (unsigned int i = 0; i < per; i++) {
				r.timebase = 1 + (uint64_t)cyc * per + i;
				r.preempt_reason = (uint8_t)(i % 10);
				r.processor_id = (c + i / 16) % 64;
				r.enqueue_to_dispatch = i * 97;
				dtl_rec__encode(&r, entry);
				for (int b = 0; b < 48; b++)
					rings[(size_t)c * ring + (head[c] + (uint64_t)b) % ring] = entry[b];
				head[c] += 48;
			}
		for (int half = 0; half < 2; half++) {
			t0 = cpu_s();
			if ((half ^ cyc) & 1) {
				for (unsigned int c = 0; c < cpus; c++)
					for (size_t n; (n = dtl_aux__next(&st[c], rings + (size_t)c * ring, head[c],
									 SIZE_MAX, bounce, &run));) {
						dtl_stats__add_entries(s, c, run, n);
						*got += n;
					}
				*t_poll += cpu_s() - t0;
			} else {
				for (unsigned int c = 0; c < cpus; c++) {
					uint64_t from = (head[c] - (uint64_t)per * 48) % ring;
					size_t len = (size_t)per * 48, first = len < ring - from ? len : ring - from;

					memcpy(copy + (size_t)c * len, rings + (size_t)c * ring + from, first);
					memcpy(copy + (size_t)c * len + first, rings + (size_t)c * ring, len - first);
				}
				__asm__ volatile("" : : "r"(copy) : "memory");
				*t_copy += cpu_s() - t0;
			}
		}
	}
	dtl_stats__delete(s);
	free(rings), free(copy), free(st), free(head);
}

static void bench_aux(void)
{
	double poll, copy, poll_w, copy_w;
	size_t got, got_w;

	aux_cycles(1920, 85, 100, &poll, &copy, &got);
	/* with the watermark: a CPU is drained when a quarter of its AUX area is full */
	aux_cycles(1920, 680, 20, &poll_w, &copy_w, &got_w);
	printf("AUX poll cycle, 1920 CPUs x 85 entries (%zu entries in 100 cycles), folded in place:\n",
	       got);
	printf("  consume+stats %8.3f ms per cycle\n", poll / 100 * 1e3);
	printf("  memcpy        %8.3f ms per cycle\n", copy / 100 * 1e3);
	printf("  ratio         %8.2fx memcpy  (target <= 1.3x)\n", poll / copy);
	printf("  share         %8.2f%% of a core at 1920 CPUs x 2k dispatches/s (goal <= 1.5%%)\n",
	       poll / (double)got * 1920 * 2000 * 100);
	printf("  watermark     %8.2fx memcpy, %.2f%% of a core: batches of 680, a quarter of the AUX "
	       "area, when the kernel wakes dtltop\n", poll_w / copy_w,
	       poll_w / (double)got_w * 1920 * 2000 * 100);
}

/* Seconds per close + reopen of set, reps times over. */
static double reopen_s(const struct dtl_perf_opts *o, const struct dtl_cpuset *set, int reps)
{
	struct dtl_perf_cpus *p;
	char err[512];
	double t0;

	p = dtl_perf_cpus__open(o, set, "/", err, sizeof(err));
	if (!p) {
		printf("reopen: skipped, perf_event_open refused: %s\n", err);
		return -1;
	}
	t0 = wall_s();
	for (int i = 0; i < reps; i++) {
		dtl_perf_cpus__close(p);
		p = dtl_perf_cpus__open(o, set, "/", err, sizeof(err));
		if (!p) {
			printf("reopen: failed: %s\n", err);
			return -1;
		}
	}
	t0 = (wall_s() - t0) / reps;
	dtl_perf_cpus__close(p);
	return t0;
}

/*
 * The fixed part of a change (what an empty set costs) is timed apart from
 * the per-event part: scaling the whole of a 2-CPU change by 960 would
 * count the fixed part 960 times.
 */
static void bench_reopen(void)
{
	struct dtl_perf_opts o = { 0 };
	struct dtl_cpuset set, none;
	unsigned int cpus = (unsigned int)sysconf(_SC_NPROCESSORS_ONLN);
	double t, fixed, per;
	int reps = 200;

	o.type = PERF_TYPE_SOFTWARE;
	o.config = PERF_COUNT_SW_CPU_CLOCK;
	o.period_ns = 20000000;
	dtl_cpuset__fill(&set, cpus);
	dtl_cpuset__clear(&none);
	/* best of 5 rounds each, as the decode bench: the kernel's own noise only adds */
	fixed = t = 1e9;
	for (int round = 0; round < 5; round++) {
		double f = reopen_s(&o, &none, reps), w = reopen_s(&o, &set, reps);

		if (f < 0 || w < 0)
			return;
		fixed = f < fixed ? f : fixed;
		t = w < t ? w : t;
	}
	per = (t - fixed) / cpus;
	printf("mask change (close + reopen + mmap), cpu-clock on %u CPUs, %d times, best of 5:\n", cpus,
	       reps);
	printf("  toggles       none reopen but one adding a kind the kernel does not log; it opens all three\n");
	printf("  per change    %8.3f ms; fixed %.3f ms, per event %.3f ms; 1920 CPUs ~ %.0f ms "
	       "(target < 100 ms)\n", t * 1e3, fixed * 1e3, per * 1e3, (fixed + per * 1920) * 1e3);
}

static void bench_record(void)
{
	const char *path = "/tmp/dtltop-bench.dtl";
	struct dtl_source_opts so = { 0 };
	struct dtl_source *src;
	struct dtl_rec_meta m = { 0 };
	struct dtl_rec_writer *w;
	struct dtl_rec_reader *r;
	struct dtl_rec_event ev;
	struct dtl_stats *st = dtl_stats__new(1920, DTL_DEFAULT_TB_FREQ);
	struct dtl_chunk c;
	struct { unsigned int cpu; int tick; size_t n; uint8_t *data; } *ch = NULL;
	size_t nch = 0, chcap = 0;
	char err[512];
	double t_write = 0, t_stats = 0, t_thread, t0, secs = 0, t_close, best;
	uint64_t entries = 0, bytes, replayed = 0;
	FILE *f;

	so.backend = "sim";
	so.sim_params = "vcpus=1920,busy=0.1,poll=20,other=0,clock=virtual";
	so.mask = DTL_MASK_ALL;
	so.seed = 1;
	src = dtl_source__open(&so, err, sizeof(err));
	unlink(path);
	m.tb_freq = DTL_DEFAULT_TB_FREQ;
	m.nr_cpus = 1920;
	m.interval_s = 0.25;
	m.mask = 7;
	dtl_cpuset__fill(&m.cpus, 1920);
	w = dtl_rec_writer__open(path, &m, err, sizeof(err));
	if (!src || !w) {
		printf("record: skipped: %s\n", err);
		return;
	}
	for (unsigned int i = 0; i < 1920; i++)
		dtl_stats__set_online(st, i, true);
	/*
	 * Capture first, then time the writer and the stats over the same
	 * chunks in one go each: a clock read per chunk (~50 entries) would
	 * cost more than what it measures.
	 */
	for (int tick = 0; tick < 4; tick++) {
		dtl_source__tick(src, 250000000);
		while (dtl_source__read(src, &c) > 0) {
			if (nch == chcap) {
				chcap = chcap ? chcap * 2 : 4096;
				ch = realloc(ch, chcap * sizeof(*ch));
			}
			ch[nch].cpu = c.cpu;
			ch[nch].n = c.n;
			ch[nch].tick = tick;
			ch[nch].data = malloc(c.n * DTL_ENTRY_SIZE + 1);
			memcpy(ch[nch].data, c.data, c.n * DTL_ENTRY_SIZE);
			entries += c.n;
			nch++;
		}
		secs += 0.25;
	}
	t0 = cpu_s();
	for (size_t i = 0; i < nch; i++) {
		dtl_stats__add_entries(st, ch[i].cpu, ch[i].data, ch[i].n);
		if (i + 1 == nch || ch[i + 1].tick != ch[i].tick)
			dtl_stats__end_interval(st, 0.25);
	}
	t_stats = cpu_s() - t0;
	/* the capture thread's share, and the whole writer's (its compressor thread too) */
	t0 = cpu_s();
	t_thread = thread_s();
	for (size_t i = 0; i < nch; i++) {
		dtl_rec_writer__entries(w, ch[i].cpu, ch[i].data, ch[i].n, 0, 0);
		if (i + 1 == nch || ch[i + 1].tick != ch[i].tick)
			dtl_rec_writer__tick(w, (uint64_t)ch[i].tick, 0.25, 0);
	}
	t_close = cpu_s();
	dtl_rec_writer__close(w, err, sizeof(err));
	t_close = cpu_s() - t_close;
	t_thread = thread_s() - t_thread;
	t_write = cpu_s() - t0;
	for (size_t i = 0; i < nch; i++)
		free(ch[i].data);
	free(ch);
	{
		struct stat sb;

		bytes = stat(path, &sb) ? 0 : (uint64_t)sb.st_size;
	}
	dtl_source__close(src);
	printf("record (-w), 1920 vCPUs, %.0f entries/s simulated, %.1f s:\n", entries / secs, secs);
	printf("  capture side  %8.1f ms CPU per second of capture (%.1f ns/entry; target <= 40): "
	       "packing, on the capture thread\n", t_thread / secs * 1e3, t_thread / entries * 1e9);
	printf("  writer        %8.1f ms CPU per second of capture (%.1f ns/entry), both threads: "
	       "zstd runs on the writer's own\n", t_write / secs * 1e3, t_write / entries * 1e9);
	printf("  of which      %8.1f ms CPU closing the file (the last chunk, fsync)\n", t_close * 1e3);
	printf("  stats         %8.1f ms CPU per second of capture (baseline)\n", t_stats / secs * 1e3);
	printf("  size          %8.2f bytes/entry (format 1: 11.5; target <= 5), %.1f MB/s\n",
	       (double)bytes / entries, bytes / secs / 1e6);

	/*
	 * Best of 5: one pass moved by 20 % between runs of this bench, with
	 * the same binary and file, as other work shared the machine's cores
	 * (27 M/s beside a test suite, 33-37 alone); within a run, passes agree
	 * to 2 %. The stats alone over the same entries is the baseline.
	 */
	best = 1e9;
	for (int k = 0; k < 5; k++) {
		dtl_stats__reset_totals(st);
		replayed = 0;
		f = fopen(path, "rb");
		t0 = cpu_s();
		r = dtl_rec_reader__open(f, path, &m, err, sizeof(err));
		while (r && dtl_rec_reader__next(r, &ev) > 0)
			if (ev.kind == DTL_REC_ENTRIES) {
				dtl_stats__add_entries(st, ev.cpu, ev.data, ev.n);
				replayed += ev.n;
			}
		dtl_rec_reader__close(r);
		t0 = cpu_s() - t0;
		best = t0 < best ? t0 : best;
		fclose(f);
	}
	unlink(path);
	printf("replay (-r --speed max), the same file, best of 5:\n");
	printf("  reader+stats  %8.1f M entries/s per core (target >= 30), %.2fx the stats' "
	       "time alone\n", replayed / best / 1e6, best / (t_stats > 0 ? t_stats : 1e-9));
	dtl_stats__delete(st);
}

static long run_child(char *const argv[], struct rusage *out);

static long rss_kb(char *const argv[])
{
	struct rusage ru;

	return run_child(argv, &ru);
}

/* Runs argv to its end; its peak RSS in KiB, and its rusage in *out. */
static long run_child(char *const argv[], struct rusage *out)
{
	struct rusage ru;
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();

	if (pid == 0) {
		freopen("/dev/null", "w", stdout);
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "bench: %s failed\n", argv[0]);
		exit(1);
	}
	*out = ru;
	return ru.ru_maxrss;
}

static double ru_cpu_s(const struct rusage *ru)
{
	return (double)ru->ru_utime.tv_sec + (double)ru->ru_utime.tv_usec / 1e6 +
	       (double)ru->ru_stime.tv_sec + (double)ru->ru_stime.tv_usec / 1e6;
}

/*
 * --report of a 1920-CPU, 600-interval recording, against the same replay
 * writing only an exposition at its end: the difference is the report's.
 */
static void bench_report(const char *bin)
{
	char rec[] = "/tmp/dtltop-bench-report.dtl", out[] = "/tmp/dtltop-bench-report.html";
	char *make[] = { (char *)bin, "--sim=vcpus=1920,clock=virtual,load=0.05", "-n", "600",
			 "-b", "-o", "/dev/null", "-w", rec, NULL };
	char *report[] = { (char *)bin, "-r", rec, "--report", out, NULL };
	char *base[] = { (char *)bin, "-r", rec, "-b", "--format", "prom", "-o", "/dev/null", NULL };
	struct rusage ru_r, ru_b, ru;
	struct stat st;

	unlink(rec);
	unlink(out);
	run_child(make, &ru);
	run_child(report, &ru_r);
	run_child(base, &ru_b);
	if (stat(out, &st))
		st.st_size = 0;
	printf("report (--report), 1920 vCPUs (240 VPs) x 600 intervals, a %.0f MB recording:\n",
	       stat(rec, &st) ? 0 : (double)st.st_size / 1e6);
	stat(out, &st);
	printf("  replay+report %8.2f s CPU, page %.0f KB  (target <= 2 s, <= 2 MB)\n",
	       ru_cpu_s(&ru_r), (double)st.st_size / 1e3);
	printf("  replay alone  %8.2f s CPU (-b --format prom: one exposition at the end)\n",
	       ru_cpu_s(&ru_b));
	printf("  the report's  %8.2f s CPU, %.2fx the replay's\n", ru_cpu_s(&ru_r) - ru_cpu_s(&ru_b),
	       ru_cpu_s(&ru_r) / (ru_cpu_s(&ru_b) > 0 ? ru_cpu_s(&ru_b) : 1e-9));
	unlink(rec);
	unlink(out);
}

/*
 * A window's start sought (--begin): two hours of 16 busy vCPUs at 10 s
 * intervals, its last 10 minutes against the whole replay. The intervals
 * before the window are skimmed (their entries' columns seeked over), so the
 * cost should follow the window, not the file.
 */
/*
 * A T near the end of rec (720 intervals), in this process through the
 * replay source alone: read once (its marks kept), then back to interval 717
 * skimmed from the start against from the last mark. The loop's own work per
 * interval is the same either way and left out.
 */
static double skim_to(struct dtl_source *src, uint64_t target, bool marks)
{
	uint64_t at = 0;
	struct dtl_chunk c;
	char err[512];
	double t0 = cpu_s();

	if (dtl_source__rewind(src, err, sizeof(err)))
		return -1;
	if (marks && dtl_source__seek(src, target - 3, 0, &at, err, sizeof(err)) < 0)
		return -1;
	dtl_source__skim(src, true);
	for (; at < target; at++) {
		dtl_source__tick(src, 10000000000ull);
		while (dtl_source__read(src, &c) > 0)
			;
	}
	dtl_source__skim(src, false);
	return cpu_s() - t0;
}

static void bench_marks(const char *rec)
{
	struct dtl_source_opts o = { 0 };
	struct dtl_source *src;
	struct dtl_chunk c;
	double from_start = 1e9, from_mark = 1e9;
	char err[512];

	o.backend = "replay";
	o.replay = rec;
	o.mask = DTL_MASK_ALL;
	src = dtl_source__open(&o, err, sizeof(err));
	if (!src) {
		fprintf(stderr, "bench: %s\n", err);
		return;
	}
	for (int i = 0; i < 720; i++) {
		dtl_source__tick(src, 10000000000ull);
		while (dtl_source__read(src, &c) > 0)
			;
	}
	for (int i = 0; i < 3; i++) {
		double a = skim_to(src, 717, false), b = skim_to(src, 717, true);

		from_start = a >= 0 && a < from_start ? a : from_start;
		from_mark = b >= 0 && b < from_mark ? b : from_mark;
	}
	printf("  T at its end  %8.4f s CPU from the last mark, %.4f s from the start (%.0fx; the "
	       "source alone, best of 3)\n", from_mark, from_start,
	       from_start / (from_mark > 0 ? from_mark : 1e-9));
	dtl_source__close(src);
}

static void seek_case(const char *bin, const char *sim, const char *what)
{
	char rec[] = "/tmp/dtltop-bench-seek.dtl";
	char *make[] = { (char *)bin, "--no-config", (char *)sim, "-d", "10", "-n", "720", "-b", "-o",
			 "/dev/null", "-w", rec, NULL };
	char *all[] = { (char *)bin, "--no-config", "-r", rec, "-b", "--csv", "-o", "/dev/null", NULL };
	char *last[] = { (char *)bin, "--no-config", "-r", rec, "--begin", "-10m", "-b", "--csv", "-o",
			 "/dev/null", NULL };
	char *tail[] = { (char *)bin, "--no-config", "-r", rec, "--begin", "-10m", "--end", "-9m",
			 "-b", "--csv", "-o", "/dev/null", NULL };
	char *first[] = { (char *)bin, "--no-config", "-r", rec, "--end", "#1", "-b", "--csv", "-o",
			  "/dev/null", NULL };
	struct rusage ru, ru_all, ru_last, ru_tail, ru_first;
	struct stat st;
	double per_h;

	unlink(rec);
	run_child(make, &ru);
	run_child(all, &ru_all);
	run_child(last, &ru_last);
	run_child(tail, &ru_tail);
	run_child(first, &ru_first);
	/* the skim's own: a start and one interval's replay taken off, per recorded hour skimmed */
	per_h = (ru_cpu_s(&ru_tail) - ru_cpu_s(&ru_first) - ru_cpu_s(&ru_all) / 720) / (110.0 / 60);
	printf("seek (-r FILE --begin -10m), 2 h of 16 vCPUs at 10 s intervals, %s, a %.0f MB "
	       "recording:\n", what, stat(rec, &st) ? 0 : (double)st.st_size / 1e6);
	printf("  whole replay  %8.3f s CPU\n", ru_cpu_s(&ru_all));
	printf("  last 10 min   %8.3f s CPU, %.2fx the whole (the window's share: %.2f)\n",
	       ru_cpu_s(&ru_last), ru_cpu_s(&ru_last) / (ru_cpu_s(&ru_all) > 0 ? ru_cpu_s(&ru_all) : 1e-9),
	       10.0 / 120);
	printf("  to its start  %8.3f s CPU a recorded hour skimmed: to a day's last hour ~%.2f s "
	       "(target <= 1 s)\n", per_h > 0 ? per_h : 0, (per_h > 0 ? per_h : 0) * 23);
	bench_marks(rec);
	unlink(rec);
}

/*
 * With who pays, a recording's records stream holds every task switch (the
 * simulator's three services switch about 250 times a second a CPU): a
 * skim reads them all, passing on only the names and each CPU's last.
 */
static void bench_seek(const char *bin)
{
	seek_case(bin, "--sim=vcpus=16,clock=virtual", "no tasks");
	seek_case(bin, "--sim=vcpus=16,clock=virtual,tasks=postgres:3:/system.slice/postgresql.service"
		  "+nginx:2:/system.slice/nginx.service+batch:1:/batch.slice", "who pays (3 services)");
}

static double file_bytes(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : (double)st.st_size;
}

/*
 * A summary's intervals, repeated to n, their ticks moved on: a day of a
 * partition from a few of its intervals, its clock going forward.
 */
static int stretch(const char *from, const char *to, int n)
{
	struct dtl_rec_meta m;
	struct dtl_rec_event ev;
	struct dtl_rec_reader *r;
	struct dtl_rec_writer *w;
	struct { unsigned int cpu; struct dtl_interval_cpu k; } *cpu = NULL;
	size_t ncpu = 0, cap = 0, per = 0;
	uint64_t ts = 0, tb = 0, dts = 0, dtb = 0;
	double secs = 0;
	char err[512];
	FILE *f = fopen(from, "rb");

	r = f ? dtl_rec_reader__open(f, from, &m, err, sizeof(err)) : NULL;
	/* the first interval's CPUs (a summary writes every CPU of a busy partition) */
	while (r && dtl_rec_reader__next(r, &ev) > 0 && ev.kind != DTL_REC_TICK) {
		if (ev.kind != DTL_REC_COUNTS)
			continue;
		if (ncpu == cap) {
			cap = cap ? 2 * cap : 2048;
			cpu = realloc(cpu, cap * sizeof(*cpu));
		}
		cpu[ncpu].cpu = ev.cpu;
		cpu[ncpu++].k = *ev.counts;
	}
	if (!r || ev.kind != DTL_REC_TICK) {
		free(cpu);
		return -1;
	}
	ts = ev.ts_ns, tb = ev.end_tb, secs = ev.interval_s;
	dts = (uint64_t)(secs * 1e9), dtb = (uint64_t)(secs * (double)m.tb_freq);
	per = ncpu;
	dtl_rec_reader__close(r);
	fclose(f);
	unlink(to);
	w = dtl_rec_writer__open(to, &m, err, sizeof(err));
	for (int i = 0; w && i < n; i++) {
		for (size_t c = 0; c < per; c++)
			dtl_rec_writer__counts(w, cpu[c].cpu, &cpu[c].k, 0);
		dtl_rec_writer__tick(w, ts + (uint64_t)i * dts, secs, tb + (uint64_t)i * dtb);
	}
	free(cpu);
	return w ? dtl_rec_writer__close(w, err, sizeof(err)) : -1;
}

/*
 * The summary's size against the information its counters carry (floor.c):
 * how far from the best any coding of them could do.
 */
static void floor_line(const char *sum)
{
	struct dtl_floor f;
	double per, known, learnt, day;

	if (dtl_floor__measure(sum, 4096, &f)) {
		printf("  information   skipped: %s does not read\n", sum);
		return;
	}
	per = file_bytes(sum) / (double)f.cpu_intervals;
	known = (f.known_hist + f.known_rest) / (double)f.cpu_intervals;
	learnt = (f.learnt_hist + f.learnt_rest) / (double)f.cpu_intervals;
	/* a day of the same CPUs at the same 10 s intervals */
	day = (double)f.cpu_intervals / (double)(f.intervals ? f.intervals : 1) * 8640 / 1e6;
	printf("  information   %8.1f bytes a CPU-interval to an ideal coder that knew each CPU's "
	       "rates, %.1f to one that learns them (histograms %.1f of it), counters only: "
	       "a day >= %.1f MB / %.1f MB; the summary is %.2fx the learnt floor\n",
	       known, learnt, f.learnt_hist / (double)f.cpu_intervals, known * day, learnt * day,
	       per / learnt);
}

/*
 * A summary (-w --summary) beside the raw recording of the same run: its
 * size per CPU-interval, a day's at 10 s intervals, and its replay's CPU
 * against the raw's; then a 1920-CPU partition at 60 s intervals, a day
 * made from its first interval.
 */
static void bench_summary(const char *bin)
{
	char raw[] = "/tmp/dtltop-bench-sum.raw", sum[] = "/tmp/dtltop-bench-sum.dtl";
	char big[] = "/tmp/dtltop-bench-sum1920.dtl", day[] = "/tmp/dtltop-bench-sumday.dtl";
	char *mk_raw[] = { (char *)bin, "--no-config", "--sim=vcpus=16,clock=virtual", "-d", "10", "-n",
			   "360", "-b", "-o", "/dev/null", "-w", raw, NULL };
	char *mk_sum[] = { (char *)bin, "--no-config", "-r", raw, "-b", "-o", "/dev/null", "-w", sum,
			   "--summary", NULL };
	char *rp_raw[] = { (char *)bin, "--no-config", "-r", raw, "-b", "--csv", "-o", "/dev/null", NULL };
	char *rp_sum[] = { (char *)bin, "--no-config", "-r", sum, "-b", "--csv", "-o", "/dev/null", NULL };
	char *mk_big[] = { (char *)bin, "--no-config", "--sim=vcpus=1920,clock=virtual", "-d", "60", "-n",
			   "1", "-b", "-o", "/dev/null", "-w", big, "--summary", NULL };
	char *rp_day[] = { (char *)bin, "--no-config", "-r", day, "-b", "--csv", "-o", "/dev/null", NULL };
	char *rp_rep[] = { (char *)bin, "--no-config", "-r", day, "--report", "/tmp/dtltop-bench-sum.html",
			   NULL };
	char *rp_big[] = { (char *)bin, "--no-config", "-r", big, "-b", "--csv", "-o", "/dev/null", NULL };
	struct rusage ru, ru_raw, ru_sum, ru_day, ru_one, ru_rep;
	double per_iv;

	unlink(raw), unlink(sum), unlink(big);
	run_child(mk_raw, &ru);
	run_child(mk_sum, &ru);
	run_child(rp_raw, &ru_raw);
	run_child(rp_sum, &ru_sum);
	per_iv = file_bytes(sum) / 360;
	printf("summary (-w --summary), an hour of 16 vCPUs at 10 s intervals (the default load):\n");
	printf("  size          %8.0f bytes a CPU-interval, %.2f MB an hour; a day ~%.1f MB "
	       "(target <= 10); raw %.0fx that\n", per_iv / 16, file_bytes(sum) / 1e6,
	       per_iv * 8640 / 1e6, file_bytes(raw) / (file_bytes(sum) > 0 ? file_bytes(sum) : 1));
	printf("  replay        %8.3f s CPU, %.3fx the raw recording's (baseline %.3f s)\n",
	       ru_cpu_s(&ru_sum), ru_cpu_s(&ru_sum) / (ru_cpu_s(&ru_raw) > 0 ? ru_cpu_s(&ru_raw) : 1e-9),
	       ru_cpu_s(&ru_raw));
	floor_line(sum);
	run_child(mk_big, &ru);
	if (stretch(big, day, 1440)) {
		printf("  1920 CPUs     skipped: no summary of the simulator\n");
	} else {
		run_child(rp_big, &ru_one);
		run_child(rp_day, &ru_day);
		run_child(rp_rep, &ru_rep);
		unlink("/tmp/dtltop-bench-sum.html");
		printf("  1920 CPUs     %8.0f bytes a CPU-interval at 60 s: a day %.0f MB (target <= 1000)\n",
		       file_bytes(day) / 1440 / 1920, file_bytes(day) / 1e6);
		printf("  its replay    %8.2f s CPU for the day to --report (target <= 10 s); printing "
		       "its 2.8 M rows as CSV %.2f s, %.1f ms an interval (the start: %.3f s)\n",
		       ru_cpu_s(&ru_rep), ru_cpu_s(&ru_day),
		       (ru_cpu_s(&ru_day) - ru_cpu_s(&ru_one)) / 1439 * 1e3, ru_cpu_s(&ru_one));
	}
	unlink(raw), unlink(sum), unlink(big), unlink(day);
}

/*
 * A perf.data of about mb MiB as perf record writes it: 64 CPUs, each a
 * boottb header then AUX chunks of 1000 entries, round robin. Made in a
 * child so that this process stays small for the RSS figures.
 */
static void make_perfdata(const char *path, unsigned int mb)
{
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct pd_gen *g = pd_gen__new();
		uint8_t *chunk = malloc(1000 * 48), *buf;
		uint64_t pos[64] = { 0 }, tb = 1000000;
		size_t len, rounds = (size_t)mb * 1048576 / (64 * 1000 * 48) + 1;
		FILE *f;

		pd_gen__auxtrace_info(g, 7);
		for (unsigned int c = 0; c < 64; c++) {
			pd_gen__boottb(chunk, 1000, 512000000);
			pd_gen__auxtrace(g, c, 0, chunk, 48);
			pos[c] = 48;
		}
		for (size_t r = 0; r < rounds; r++)
			for (unsigned int c = 0; c < 64; c++) {
				for (unsigned int i = 0; i < 1000; i++) {
					struct dtl_rec e = { 0 };

					e.timebase = tb + (r * 1000 + i) * 51200 + c;
					e.preempt_reason = (uint8_t)(i % 5);
					e.enqueue_to_dispatch = 500 + i;
					e.processor_id = (uint16_t)(c + i % 3);
					dtl_rec__encode(&e, chunk + i * 48);
				}
				pd_gen__auxtrace(g, c, pos[c], chunk, 1000 * 48);
				pos[c] += 1000 * 48;
			}
		buf = pd_gen__finish(g, 0, &len);
		f = fopen(path, "wb");
		_exit(!f || fwrite(buf, 1, len, f) != len || fclose(f));
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "bench: cannot write %s\n", path);
		exit(1);
	}
}

static long file_mb(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : (long)(st.st_size >> 20);
}

/* A 1920-CPU stats after one simulated second, VPs of 8 threads. */
static struct dtl_stats *stats_1920_keep(bool keep);

static struct dtl_stats *stats_1920(void)
{
	return stats_1920_keep(false);
}

static struct dtl_stats *stats_1920_keep(bool keep)
{
	struct dtl_source *s = sim(1920);
	struct dtl_stats *st = dtl_stats__new(1920, DTL_DEFAULT_TB_FREQ);
	uint16_t vp[1920];
	struct dtl_chunk c;

	for (unsigned int i = 0; i < 1920; i++) {
		dtl_stats__set_online(st, i, true);
		vp[i] = (uint16_t)(i & ~7u);
	}
	dtl_stats__set_vps(st, vp, 8);
	if (keep)
		dtl_stats__keep(st);
	dtl_source__tick(s, 1000000000);
	while (dtl_source__read(s, &c) > 0)
		dtl_stats__add_entries(st, c.cpu, c.data, c.n);
	dtl_stats__end_interval(st, 1.0);
	dtl_source__close(s);
	return st;
}

static char *render(const struct dtl_model *m, bool om, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f || dtl_metrics__write(f, m, om) || fclose(f)) {
		fprintf(stderr, "bench: exposition failed\n");
		exit(1);
	}
	return buf;
}

/* One GET of /metrics over a fresh connection; the bytes received. */
static size_t scrape(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	static char buf[1 << 16];
	const char req[] = "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	size_t got = 0;
	ssize_t n;

	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    write(fd, req, sizeof(req) - 1) != (ssize_t)(sizeof(req) - 1)) {
		fprintf(stderr, "bench: scrape failed\n");
		exit(1);
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		got += (size_t)n;
	close(fd);
	return got;
}

static void bench_scrape(char *prom, size_t len)
{
	struct dtl_listen_addr addr;
	struct dtl_http *h;
	char err[256], spec[32];
	int port = 20000 + (int)(getpid() % 20000), reps = 20;
	size_t got = 0;
	double t;

	snprintf(spec, sizeof(spec), "127.0.0.1:%d", port);
	if (dtl_http__parse_addr(spec, &addr, err, sizeof(err)) ||
	    !(h = dtl_http__start(&addr, NULL, err, sizeof(err)))) {
		printf("  scrape        skipped: %s\n", err);
		free(prom);
		return;
	}
	dtl_http__publish(h, prom, len, strdup("# EOF\n"), 6);
	t = cpu_s();
	for (int i = 0; i < reps; i++)
		got += scrape(port);
	t = (cpu_s() - t) / reps;
	dtl_http__stop(h);
	printf("  scrape        %8.3f ms CPU per GET of %.1f MB, server and client "
	       "(target <= 20 ms)\n", t * 1e3, (double)got / reps / 1e6);
}

static size_t sunk;

static int count_sink(void *ctx, int what, const uint8_t *bytes, size_t len)
{
	(void)ctx, (void)what, (void)bytes;
	sunk += len;
	return 0;
}

/*
 * What an attached viewer costs the service (--serve): an interval of 1920
 * CPUs packed as a summary and compressed for it, per second of capture at
 * 1 s intervals, against the stats' own end of the interval (the baseline:
 * what every run pays). The socket's send() is a copy of those bytes.
 */
static void bench_serve(void)
{
	struct dtl_stats *st = stats_1920_keep(true);
	struct dtl_rec_meta m = { 0 };
	struct dtl_rec_writer *w;
	char err[256];
	double t0, t_view, t_end;
	int reps = 50;

	m.tb_freq = DTL_DEFAULT_TB_FREQ;
	m.nr_cpus = 1920;
	m.interval_s = 1;
	m.mask = 7;
	m.summary = true;
	dtl_cpuset__fill(&m.cpus, 1920);
	w = dtl_rec_writer__open_sink(&m, count_sink, NULL, err, sizeof(err));
	if (!w) {
		printf("serve: skipped: %s\n", err);
		dtl_stats__delete(st);
		return;
	}
	sunk = 0;
	t0 = cpu_s();
	for (int r = 0; r < reps; r++) {
		for (unsigned int c = 0; c < 1920; c++)
			dtl_rec_writer__counts(w, c, dtl_stats__kept(st, c), 0);
		dtl_rec_writer__tick(w, (uint64_t)r, 1.0, (uint64_t)r);
	}
	t_view = (cpu_s() - t0) / reps;
	t0 = cpu_s();
	for (int r = 0; r < reps; r++)
		dtl_stats__end_interval(st, 1.0);
	t_end = (cpu_s() - t0) / reps;
	printf("serve (--serve), 1920 vCPUs at 1 s intervals, an attached viewer:\n");
	printf("  per viewer    %8.3f ms CPU an interval: %.2f %% of a core (target <= 0.5 %%), "
	       "%.0f kB sent an interval\n", t_view * 1e3, t_view * 100, (double)sunk / reps / 1e3);
	printf("  baseline      %8.3f ms CPU: the stats' end of an interval, %.2fx that\n",
	       t_end * 1e3, t_view / (t_end > 0 ? t_end : 1e-9));
	dtl_rec_writer__close(w, err, sizeof(err));
	dtl_stats__delete(st);
}

static void bench_exposition(void)
{
	struct dtl_stats *st = stats_1920();
	struct dtl_table t = { 0 };
	struct dtl_model m = { .table = &t, .stats = st, .source = "sim", .mask = DTL_MASK_ALL,
			       .nr_vcpus = 1920, .nr_vps = 240, .smt = 8, .intervals = 1 };
	int reps = 10;
	size_t len = 0, om_len = 0;
	char *prom, *om, *copy;
	double t_render, t_copy;

	prom = render(&m, false, &len);	/* warm */
	free(prom);
	t_render = cpu_s();
	for (int i = 0; i < reps; i++) {
		prom = render(&m, false, &len);
		om = render(&m, true, &om_len);
		if (i < reps - 1)
			free(prom);
		free(om);
	}
	t_render = (cpu_s() - t_render) / reps;
	copy = malloc(len + om_len);
	t_copy = cpu_s();
	for (int i = 0; i < reps * 10; i++) {
		memcpy(copy, prom, len);
		memcpy(copy + len, prom, om_len < len ? om_len : len);
		__asm__ volatile("" : : "r"(copy) : "memory");
	}
	t_copy = (cpu_s() - t_copy) / (reps * 10);
	printf("exposition, 1920 CPUs in 240 VPs (%.1f MB text + %.1f MB OpenMetrics):\n",
	       len / 1e6, om_len / 1e6);
	printf("  render both   %8.3f ms CPU per interval\n", t_render * 1e3);
	printf("  memcpy        %8.3f ms\n", t_copy * 1e3);
	printf("  ratio         %8.1fx memcpy\n", t_render / (t_copy > 0 ? t_copy : 1e-9));
	free(copy);
	bench_scrape(prom, len);
	dtl_stats__delete(st);
}

/* CPU ns and times scheduled, summed over pid's threads (schedstat) */
static void sched_of(pid_t pid, unsigned long long *ns, unsigned long long *runs)
{
	char path[64];
	struct dirent *e;
	DIR *d;

	*ns = *runs = 0;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	while (d && (e = readdir(d))) {
		unsigned long long a, b, c;
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%.16s/schedstat", (int)pid, e->d_name);
		f = fopen(path, "r");
		if (f && fscanf(f, "%llu %llu %llu", &a, &b, &c) == 3) {
			*ns += a;
			*runs += c;
		}
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
}

/* An exporter of 64 simulated CPUs at -d secs: CPU share and wakeups/s over 6 s, once warm. */
static void exporter_cost(const char *bin, const char *secs, bool serve, double *share,
			  double *wakes)
{
	char where[40], port[32], sock[64];
	char *argv[] = { (char *)bin, "--sim=vcpus=64", "-d", (char *)secs, "--listen", port,
			 serve ? "--serve" : NULL, "--socket", sock, NULL };
	char *tf[] = { (char *)bin, "--sim=vcpus=64", "-d", (char *)secs, "--textfile", where,
		       NULL };
	unsigned long long ns0, r0, ns1, r1;
	bool http = true;
	pid_t pid;

	snprintf(port, sizeof(port), "127.0.0.1:%d", 40000 + (int)(getpid() % 20000));
	snprintf(sock, sizeof(sock), "/tmp/dtltop-bench-serve.%d.sock", (int)getpid());
	snprintf(where, sizeof(where), "/tmp/dtltop-bench-idle.%d", (int)getpid());
#ifndef DTLTOP_HTTP
	http = false;		/* a build without libmicrohttpd: the textfile exporter */
	mkdir(where, 0700);
#endif
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		freopen("/dev/null", "w", stdout);
		freopen("/dev/null", "w", stderr);
		execv(bin, http ? argv : tf);
		_exit(127);
	}
	sleep(2);
	sched_of(pid, &ns0, &r0);
	sleep(6);
	sched_of(pid, &ns1, &r1);
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	if (!http) {
		char prom[64];

		snprintf(prom, sizeof(prom), "%s/dtltop.prom", where);
		unlink(prom);
		rmdir(where);
	}
	*share = (double)(ns1 - ns0) / 6e9;
	*wakes = (double)(r1 - r0) / 6;
}

static void bench_idle(const char *bin)
{
	double idle, idle_w, busy, busy_w, serve, serve_w;

	exporter_cost(bin, "30", false, &idle, &idle_w);
	exporter_cost(bin, "1", false, &busy, &busy_w);
	exporter_cost(bin, "1", true, &serve, &serve_w);
	printf("exporter, 64 simulated CPUs, all threads over 6 s:\n");
	printf("  idle (-d 30)  %8.4f %% of a core, %5.1f wakeups/s  (target ~0)\n", idle * 100,
	       idle_w);
	printf("  -d 1          %8.4f %% of a core, %5.1f wakeups/s\n", busy * 100, busy_w);
	printf("  ratio         %8.3fx an interval a second\n", idle / (busy > 0 ? busy : 1e-9));
	printf("  -d 1 --serve  %8.4f %% of a core, no viewer (%.2fx the exporter alone: the "
	       "intervals kept for viewers)\n", serve * 100, serve / (busy > 0 ? busy : 1e-9));
}

int main(int argc, char **argv)
{
	const char *bin = argc > 1 ? argv[1] : "./dtltop";
	const char *only = argc > 2 ? argv[2] : NULL;	/* make bench ONLY=exposition */
	char *big[] = { (char *)bin, "--sim=vcpus=1920", "-b", "-n", "5", NULL };
	char *small[] = { (char *)bin, "--sim=vcpus=16", "-b", "-n", "5", NULL };
	long kb_big, kb_small;

	if (only) {
		static const struct {
			const char *name;
			void (*fn)(void);
		} one[] = { { "exposition", bench_exposition }, { "decode", bench_decode },
			    { "whopays", bench_whopays }, { "names", bench_whopays_names },
			    { "sideband", bench_sideband },
			    { "frame", bench_frame }, { "aux", bench_aux }, { "reopen", bench_reopen },
			    { "record", bench_record }, { "serve", bench_serve } };

		if (strcmp(only, "report") == 0) {
			bench_report(bin);
			return 0;
		}
		if (strcmp(only, "seek") == 0) {
			bench_seek(bin);
			return 0;
		}
		if (strcmp(only, "summary") == 0) {
			bench_summary(bin);
			return 0;
		}
		if (strcmp(only, "idle") == 0) {
			bench_idle(bin);
			return 0;
		}
		for (size_t i = 0; i < sizeof(one) / sizeof(one[0]); i++)
			if (strcmp(only, one[i].name) == 0) {
				one[i].fn();
				return 0;
			}
		fprintf(stderr, "bench: ONLY=%s: exposition, decode, whopays, names, sideband, frame, aux, reopen, record, "
			"serve, report, seek, summary or idle\n", only);
		return 2;
	}
	/*
	 * First, while this process is small: Linux folds the pre-exec image
	 * into a child's ru_maxrss.
	 */
	kb_small = rss_kb(small);
	kb_big = rss_kb(big);
	{
		char big_pd[] = "/tmp/dtltop-bench-big.perf.data", small_pd[] = "/tmp/dtltop-bench-small.perf.data";
		char *imp_big[] = { (char *)bin, "-r", big_pd, "-b", "--format", "csv", "-o", "/dev/null", NULL };
		char *imp_small[] = { (char *)bin, "-r", small_pd, "-b", "--format", "csv", "-o", "/dev/null",
				      NULL };
		long kb_pd_big, kb_pd_small;

		make_perfdata(big_pd, 200);
		make_perfdata(small_pd, 6);
		kb_pd_big = rss_kb(imp_big);
		kb_pd_small = rss_kb(imp_small);
		printf("peak RSS, dtltop -r FILE.perf.data -b --format csv -o /dev/null (streaming import):\n");
		printf("  %4ld MB file  %8.1f MiB  (target < 64 MiB whatever the size)\n", file_mb(big_pd),
		       kb_pd_big / 1024.0);
		printf("  %4ld MB file  %8.1f MiB\n", file_mb(small_pd), kb_pd_small / 1024.0);
		printf("  ratio         %8.2fx for %.0fx the bytes\n", (double)kb_pd_big / (double)kb_pd_small,
		       (double)file_mb(big_pd) / (double)(file_mb(small_pd) ? file_mb(small_pd) : 1));
		unlink(big_pd);
		unlink(small_pd);
	}
	printf("peak RSS, dtltop --sim=vcpus=N -b -n 5 (wall clock, 5 s each):\n");
	printf("  vcpus=1920    %8.1f MiB  (target <= 32 MiB)\n", kb_big / 1024.0);
	printf("  vcpus=16      %8.1f MiB\n", kb_small / 1024.0);
	printf("  ratio         %8.2fx\n", (double)kb_big / (double)kb_small);
	bench_decode();
	bench_whopays();
	bench_whopays_names();
	bench_sideband();
	bench_frame();
	bench_aux();
	bench_reopen();
	bench_record();
	bench_exposition();
	bench_serve();
	bench_idle(bin);
	bench_report(bin);
	bench_seek(bin);
	bench_summary(bin);
	return 0;
}
