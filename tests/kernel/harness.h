/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * harness.h - what the perf core and user space do around the PMU: open,
 * mmap the AUX area, enable, let the timer fire, consume, close.
 */
#ifndef HARNESS_H
#define HARNESS_H

#include "fake.h"

struct h_event {
	struct perf_event ev;
	struct fake_rb rb;
	void **pages;
	int nr_pages;
	bool installed;
};

/* perf_event_open(): event_init, then the core's exclusivity check. */
int h_open(struct h_event **out, int cpu, u64 config, u64 period);
int h_open_attr(struct h_event **out, int cpu, const struct perf_event_attr *attr,
		unsigned int attach_state);
int h_mmap_aux(struct h_event *e, int nr_pages, bool overwrite);
void h_munmap_aux(struct h_event *e);
int h_enable(struct h_event *e);		/* pmu->add(PERF_EF_START) */
void h_disable(struct h_event *e);		/* pmu->del() */
bool h_tick(struct h_event *e);			/* the hrtimer fires; false if not armed */
/* The core acts on pending_disable as its irq_work would. */
void h_core_work(struct h_event *e);
size_t h_consume(struct h_event *e, u8 *out, size_t max);	/* tail -> head */
u64 h_read(struct h_event *e);			/* read(2): the event's count */
void h_close(struct h_event *e);
int h_init_pmu(void);

/* Checks a consumed stream: header first, then entries in sequence. */
struct h_stream {
	bool header;
	u64 boot_tb, tb_freq;
	bool padding_zero;
	size_t entries;
	u64 first_seq, last_seq;
	bool in_order;		/* consecutive sequence numbers */
	bool increasing;	/* no entry twice or out of order */
	bool intact;		/* every field as the hypervisor wrote it */
	size_t junk;
};
void h_parse(const u8 *buf, size_t len, bool expect_header, struct h_stream *s);

#endif
