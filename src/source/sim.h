/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim.h - the simulated shared-processor pool's parameters (--sim=...).
 */
#ifndef DTL_SIM_H
#define DTL_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* load=0.2@00:00+0.9@20:00: a day's shape, straight between its points. */
#define DTL_SIM_LOADS 24
struct dtl_sim_load {
	double at_s;		/* seconds after midnight of the simulated clock */
	double load;
};

/* A named workload of the simulated guest (tasks=): a process, its threads folded. */
#define DTL_SIM_TASKS 16
struct dtl_sim_task {
	char name[16];		/* its comm */
	char cgroup[96];	/* "/system.slice/db.service"; "/" by default */
	double weight;		/* its share of the busy time of the CPUs it may run on */
	int pin;		/* the one CPU it runs on, or -1: any */
	int pid;
};

/*
 * frame=: another LPAR of the same shared pool, as its line in the frame
 * file says; what it wants, wheel by wheel, from the same figures in every
 * simulated LPAR of the frame.
 */
#define DTL_SIM_PEERS 31
struct dtl_sim_peer {
	double ent, load;
	unsigned int vps, smt, weight, nloads;
	bool capped;
	struct dtl_sim_load loads[DTL_SIM_LOADS];
};

struct dtl_sim_params {
	unsigned int vcpus;	/* logical CPUs (threads) of our partition */
	unsigned int vps;	/* virtual processors: vcpus / smt, rounded up */
	double ent;		/* entitlement, processor units */
	unsigned int pool;	/* physical processors in the shared pool */
	double load;		/* fraction of time each vCPU wants to run */
	unsigned int nloads;	/* load=: a schedule of this many points, or 0 */
	struct dtl_sim_load loads[DTL_SIM_LOADS];
	double other;		/* processor units other partitions want */
	double other_ent;	/* their entitled capacity: what they get whatever we want */
	double busy_ms;		/* mean busy burst */
	double slice_ms;	/* hypervisor time slice */
	double faults;		/* page faults per busy second per vCPU */
	double poll_ms;		/* how often the OS drains the 85-entry ring */
	unsigned int smt;	/* threads per VP and per physical core */
	bool virtual_clock;	/* clock=virtual: no sleeping, simulated stamps */
	bool capped;		/* the entitlement is a ceiling, per dispatch wheel */
	bool idle;		/* profile=idle: the shapes of the only real DTL data published */
	bool dedicated;		/* dedicated processors: no pool, no cap, ent = vps */
	bool donating;		/* dedicated, idle cycles donated to the pool */
	unsigned int weight;	/* an uncapped partition's share of idle pool capacity, 0-255 */
	/* who it is, as lparcfg and the device tree say: tests of a fleet tell LPARs apart */
	unsigned int lpar_id;	/* partition_id (default 1) */
	unsigned int pool_id;	/* the shared pool's number (default 0, the default pool) */
	char serial[32];	/* the frame's serial_number (default SIM) */
	char name[64];		/* ibm,partition-name; "" none */
	char frame[256];	/* frame=: the file naming every LPAR of the frame; "" none */
	unsigned int npeers;	/* the other LPARs of our pool in it */
	struct dtl_sim_peer peers[DTL_SIM_PEERS];
	unsigned int given;	/* the keys given, bit i for the table's key i */
	unsigned int ntasks;	/* 0: no task data (no switch stream) */
	struct dtl_sim_task tasks[DTL_SIM_TASKS];
};

/* Fills defaults, then applies "key=value,..." (NULL or "" for defaults). */
int dtl_sim__parse(const char *s, struct dtl_sim_params *p, char *err, size_t errlen);
/*
 * frame=: the --sim keys s and the frame file's text (len bytes, named path
 * in messages): p gets the line of the LPAR s names (name=), then the keys
 * of s over it, and the other LPARs of its pool as peers. Pure:
 * dtl_sim__parse() reads the file and calls it.
 */
int dtl_sim__frame(const char *s, const char *path, const char *text, size_t len,
		   struct dtl_sim_params *p, char *err, size_t errlen);
/* One line per key: name, range, meaning (--sim=help). */
void dtl_sim__keys(FILE *f);

/*
 * What the simulator knows each task paid, over the entries it handed out
 * (traced, not lost): the ground truth task attribution must find. Task i
 * of tasks=, or i == ntasks for the idle task; -1 when there is none.
 */
struct dtl_sim_truth {
	uint64_t dispatches, involuntary, steal_ticks, idle_ticks;
	uint64_t wake_ticks;	/* of steal, after cedes: the woken task's */
};
struct dtl_source;
int dtl_sim__truth(const struct dtl_source *src, unsigned int i, struct dtl_sim_truth *t);

/*
 * Why the simulated partition waited, in ticks, over every cycle handed out
 * since start: the ground truth the verdict must find. A hold is a VP kept
 * past its share of a dispatch wheel, by its cap (capped, or weight 0: never
 * past the entitlement) or by the pool (uncapped, the idle capacity taken by
 * others); latency is the wait for a physical processor at a dispatch;
 * guest is its own (page faults). run: the VPs' dispatched ticks (PURR);
 * want: their ticks dispatched or waiting to be; vp: VPs x elapsed ticks;
 * threads_run: the threads' running ticks (what the DTL's run share counts).
 */
struct dtl_sim_causes {
	uint64_t cap, pool, latency, guest;
	uint64_t run, want, vp, threads_run;
};
int dtl_sim__causes(const struct dtl_source *src, struct dtl_sim_causes *c);

/* 2025-01-01T00:00:00Z: where clock=virtual starts. */
#define DTL_SIM_EPOCH_S 1735689600ull

#endif
