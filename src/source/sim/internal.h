/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * internal.h - the simulator's parts and what they share: the partition
 * (struct sim), its virtual processors (struct simvp: PowerVM dispatches a
 * VP's threads together) and their threads (struct simcpu, one per vCPU).
 */
#ifndef DTL_SIM_INTERNAL_H
#define DTL_SIM_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "../../dtl/dtl.h"
#include "../../dtl/switch.h"
#include "../sim.h"
#include "hv.h"

#define SIM_TB0 (1ull << 40)	/* an arbitrary timebase at simulated boot */

/* An entry made, waiting to be drained, with what its waits were for. */
struct simentry {
	struct dtl_rec r;
	int16_t task;		/* the task at its preempt instant (tasks=) */
	int16_t woken;		/* a cede's: the task its wake-up ran first; -1 none */
	uint32_t hold, latency;	/* of its enqueue_to_dispatch: the hold, and dispatch latency */
	uint8_t hold_cause;	/* enum dtl_hv_hold */
};

enum simphase { SIM_RUN, SIM_SLEEP, SIM_READY };

struct simcpu {
	uint64_t rng;		/* the guest's work: bursts, sleeps, faults (not the hypervisor's) */
	uint64_t drng;		/* what an entry shows that changes nothing (srr0, fault address) */
	enum simphase phase;
	uint64_t busy_left;	/* ticks of work left in the current burst */
	uint64_t arrival, burst;	/* the burst's planned start and length: work arrives on
					 * the guest's schedule, however late the hypervisor runs it */
	uint64_t wake_at;	/* SIM_SLEEP: when it wants to run again */
	uint64_t ready_at;	/* SIM_READY: enqueued since */
	uint64_t own_at;	/* SIM_RUN: its own interruption, or never */
	uint64_t own_left;	/* work left before it, or never */
	uint8_t own;		/* its reason: 6 a page fault, 1 firmware */
	bool fresh;		/* SIM_RUN: a burst that began at run_from */
	uint64_t wake_e2d;	/* profile=idle: the wake-up's own dispatch wait, or 0 */
	uint64_t run_from;	/* SIM_RUN: dispatched at */
	uint64_t hold;		/* SIM_READY: ticks of its wait the VP spent held */
	struct dtl_rec next;	/* the entry its next dispatch completes */
	uint64_t window_end;	/* end of the drain window handed out last */
	struct simentry *e;	/* made, not yet drained */
	size_t ne, ecap;
	/* the VPA's counters, up to the last dispatch handed out */
	uint64_t vpa_cycles, vpa_written, vpa_e2d, vpa_r2e, vpa_w2r;
	/* tasks=: the guest's scheduler, on its own generator */
	uint64_t trng;
	int task, pend_task;	/* running now; running at the pending entry's preempt */
	bool woke;		/* the burst's task was picked at its dispatch (a wake-up) */
	uint64_t woke_at;	/* that dispatch */
	uint64_t tick_at;	/* the guest scheduler's next tick */
	struct dtl_switch *sw;	/* switches not yet handed out, then those handed out */
	size_t nsw, swcap, sw_given;
};

enum simvpstate { VP_OFF, VP_DISP, VP_HELD, VP_PENDING };

struct simvp {
	uint64_t rng;
	uint64_t now;		/* generated up to here */
	enum simvpstate state;
	uint64_t used;		/* dispatched ticks in the current wheel */
	uint64_t wheel;		/* the current wheel's index */
	uint64_t dispatch_at;	/* VP_PENDING: when */
	uint64_t held_since;	/* VP_HELD: since when */
	unsigned int core;	/* the physical core it is (or was last) on */
	uint64_t slice_j;	/* the next time slice boundary's index */
	struct dtl_hv_share share;	/* of the current wheel */
	uint64_t share_wheel;	/* share's wheel + 1; 0 none yet */
};

struct sim {
	struct dtl_sim_params p;
	uint64_t tb_freq;
	uint64_t horizon;	/* simulated up to here (ticks since SIM_TB0) */
	double last_interval_s;
	unsigned int next_cpu;	/* read() resumes its sweep here */
	uint64_t seed;
	uint64_t wheel_ticks, slice, poll, busy, gtick, tb_us;
	double fault_per_tick;
	/* the lparcfg an LPAR would show, as of lp_tb */
	char lparcfg[1024];
	uint64_t lp_tb, lp_purr, lp_pool_idle;
	struct simcpu *v;
	struct simvp *vp;
	uint64_t *tally;		/* per wheel from tally_base: the VPs' ticks so far */
	uint64_t tally_base;
	size_t tally_n;
	struct dtl_sim_causes causes;	/* over every cycle drained */
	struct dtl_sim_truth *truth;	/* by task: tasks=, the idle task, kworker */
	bool *announced;		/* a task's comm and cgroup go with its first switch */
	int16_t ring_task[DTL_RING_ENTRIES];
	int16_t ring_woken[DTL_RING_ENTRIES];
	uint8_t ring[DTL_RING_ENTRIES][DTL_ENTRY_SIZE];
	uint8_t out[DTL_RING_ENTRIES][DTL_ENTRY_SIZE];
};

/* splitmix64: tiny, fast, and good enough for a workload model. */
static inline uint64_t sim_rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline double sim_rnd01(uint64_t *s)
{
	return (double)(sim_rnd(s) >> 11) * (1.0 / 9007199254740992.0);
}

uint64_t sim_rnd_exp(uint64_t *s, double mean);

/* params.c: the load wanted at simulated time t (ticks since SIM_TB0): load=, or its schedule. */
double sim_load_at(const struct sim *s, uint64_t t);
double sim_schedule_at(const struct dtl_sim_load *pt, unsigned int n, double load, double t_s);
/* The keys of s over the defaults, checked, frame= not read (dtl_sim__parse() reads it). */
int sim_params_parse(const char *s, struct dtl_sim_params *p, char *err, size_t errlen);
bool sim_params_given(const struct dtl_sim_params *p, const char *key);
/* frame.c: p's frame= file read, and dtl_sim__frame() on its text. */
int sim_frame_read(const char *s, struct dtl_sim_params *p, char *err, size_t errlen);

/* vp.c: run VP vp's threads together up to end. */
void sim_vp_run(struct sim *s, unsigned int vp, uint64_t end);
/* The wheels up to end get their partition tallies (the VPs run one after another). */
int sim_tally_to(struct sim *s, uint64_t end);
void sim_vp_start(struct sim *s, unsigned int vp);
/* The share of wheel k, from the pool's rules at that time's load. */
void sim_wheel_share(const struct sim *s, uint64_t k, struct dtl_hv_share *out);

/* guest.c: the guest's tasks (tasks=) */
#define SIM_IDLE(s) ((int)(s)->p.ntasks)	/* the idle task's index in truth[] */
#define SIM_KWORKER(s) ((int)(s)->p.ntasks + 1)	/* where no task of tasks= may run */
#define SIM_NTRUTH(s) ((s)->p.ntasks + 2)
extern const char sim_kallsyms[];
/* The guest's scheduler over a run from t0 to the preempt at t. */
void sim_sched_tasks(struct sim *s, struct simcpu *v, unsigned int cpu, uint64_t t0, uint64_t t,
		     bool start, bool cede);
void sim_tasks_begin(struct sim *s, struct simcpu *v, unsigned int cpu);
/* An idle vCPU dispatched at t: the interrupt that woke it wakes a task, which runs first. */
int sim_wake_task(struct sim *s, struct simcpu *v, unsigned int cpu, uint64_t t);
/* Where an involuntary preempt of the pending entry's task landed (srr0, srr1). */
void sim_task_pc(struct sim *s, struct simcpu *v, struct dtl_rec *r);

#endif
