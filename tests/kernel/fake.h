/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fake.h - the harness side of the fakes: the hypervisor, the perf core's
 * ring buffer and syscalls, and the counters the tests assert on.
 */
#ifndef FAKE_H
#define FAKE_H

#include "include/fake_kernel.h"

#define FAKE_BOOT_TB 0x0001000000000000ull
#define FAKE_MAX_RECS 4096

struct fake_hv {
	struct dtl_entry *buf[FAKE_NR_CPUS];	/* registered, by logical CPU */
	u64 seq[FAKE_NR_CPUS];			/* next sequence number logged */
	int register_calls;
	bool fail_register, fail_pmu_register;
};
extern struct fake_hv fake_hv;

struct fake_aux_rec {
	u64 offset, size, flags;
};

struct fake_rb {
	bool mapped, overwrite;
	u8 *mem;
	u64 size, head, tail;
	void *priv;			/* what setup_aux returned */
	int nest;
	int nr_recs;
	struct fake_aux_rec recs[FAKE_MAX_RECS];
};

extern long fake_live_kmalloc, fake_live_slab, fake_live_vmap, fake_allocs;
extern long fake_alloc_fail_at;
extern bool fake_kthread_fail;
extern int fake_lap_after_read_cpu;
extern unsigned int fake_lap_after_read_n;
extern struct pmu *fake_pmu;

void fake_reset(void);
void fake_hv_entry(struct dtl_entry *e, u64 seq);
void fake_hv_log(int cpu, unsigned int n);
bool fake_other_dtl_user(bool take, bool writer);

#endif
