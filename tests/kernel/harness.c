/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * harness.c - the perf core's side of the PMU contract, as far as the tests
 * need it, following kernel/events/core.c's order of calls.
 */
#include "harness.h"

#include <stdlib.h>

static struct h_event *installed[FAKE_NR_CPUS];
static bool pmu_up;

/* The perf core calls add, del, start, stop, read and the timer on the event's CPU. */
static void on_cpu(const struct h_event *e)
{
	if (e->ev.cpu >= 0 && e->ev.cpu < FAKE_NR_CPUS)
		fake_cpu = e->ev.cpu;
}

int h_init_pmu(void)
{
	int rc;

	if (pmu_up)
		return 0;
	rc = fake_initcall();
	pmu_up = rc == 0;
	return rc;
}

int h_open_attr(struct h_event **out, int cpu, const struct perf_event_attr *attr,
		unsigned int attach_state)
{
	struct h_event *e = calloc(1, sizeof(*e));
	int rc;

	e->ev.attr = *attr;
	e->ev.attr.type = fake_pmu->type;
	if (attr->type == 1234)
		e->ev.attr.type = 1234;
	e->ev.pmu = fake_pmu;
	e->ev.cpu = cpu;
	e->ev.attach_state = attach_state;
	e->ev.state = PERF_EVENT_STATE_OFF;
	e->ev.hw.sample_period = e->ev.attr.sample_period;
	rc = fake_pmu->event_init(&e->ev);
	if (rc) {
		free(e);
		return rc;
	}
	/* The core rejects task events and a second exclusive event, after init. */
	if (attach_state & PERF_ATTACH_TASK)
		rc = -EINVAL;
	else if (cpu >= 0 && cpu < FAKE_NR_CPUS && installed[cpu])
		rc = -EBUSY;
	if (rc) {
		if (e->ev.destroy)
			e->ev.destroy(&e->ev);
		free(e);
		return rc;
	}
	installed[cpu] = e;
	e->installed = true;
	*out = e;
	return 0;
}

int h_open(struct h_event **out, int cpu, u64 config, u64 period)
{
	struct perf_event_attr a = { 0 };

	a.config = config;
	a.sample_period = period;
	return h_open_attr(out, cpu, &a, 0);
}

int h_mmap_aux(struct h_event *e, int nr_pages, bool overwrite)
{
	u8 *mem = aligned_alloc(PAGE_SIZE, (size_t)nr_pages * PAGE_SIZE);

	memset(mem, 0xee, (size_t)nr_pages * PAGE_SIZE);
	e->pages = calloc((size_t)nr_pages, sizeof(void *));
	for (int i = 0; i < nr_pages; i++)
		e->pages[i] = mem + (size_t)i * PAGE_SIZE;
	e->nr_pages = nr_pages;
	e->rb.priv = fake_pmu->setup_aux(&e->ev, e->pages, nr_pages, overwrite);
	if (!e->rb.priv) {
		free(mem);
		free(e->pages);
		e->pages = NULL;
		return -ENOMEM;
	}
	e->rb.mem = mem;
	e->rb.size = (u64)nr_pages * PAGE_SIZE;
	e->rb.mapped = true;
	e->rb.overwrite = overwrite;
	e->ev.rb = &e->rb;
	return 0;
}

void h_munmap_aux(struct h_event *e)
{
	on_cpu(e);
	if (!e->rb.mapped)
		return;
	e->rb.mapped = false;
	/* perf_mmap_close() stops an active event before the pages go. */
	if (e->ev.state == PERF_EVENT_STATE_ACTIVE) {
		fake_atomic++;
		fake_pmu->stop(&e->ev, PERF_EF_UPDATE);
		fake_pmu->start(&e->ev, 0);
		fake_atomic--;
	}
	fake_pmu->free_aux(e->rb.priv);
	e->ev.rb = NULL;
	free(e->rb.mem);
	free(e->pages);
	e->pages = NULL;
}

int h_enable(struct h_event *e)
{
	int rc;

	on_cpu(e);
	fake_atomic++;
	rc = fake_pmu->add(&e->ev, PERF_EF_START);
	fake_atomic--;
	e->ev.state = rc ? PERF_EVENT_STATE_OFF : PERF_EVENT_STATE_ACTIVE;
	return rc;
}

void h_disable(struct h_event *e)
{
	on_cpu(e);
	if (e->ev.state != PERF_EVENT_STATE_ACTIVE)
		return;
	fake_atomic++;
	fake_pmu->del(&e->ev, 0);
	fake_atomic--;
	e->ev.state = PERF_EVENT_STATE_OFF;
}

bool h_tick(struct h_event *e)
{
	struct hrtimer *t = &e->ev.hw.hrtimer;

	if (!t->armed)
		return false;
	on_cpu(e);
	if (t->mode != HRTIMER_MODE_REL_PINNED)
		fake_violation("hrtimer", "not pinned to the event's CPU");
	fake_atomic++;
	if (t->function(t) == HRTIMER_NORESTART)
		t->armed = false;
	fake_atomic--;
	h_core_work(e);
	return true;
}

void h_core_work(struct h_event *e)
{
	if (e->ev.pending_disable) {
		e->ev.pending_disable = 0;
		h_disable(e);
	}
}

size_t h_consume(struct h_event *e, u8 *out, size_t max)
{
	struct fake_rb *rb = &e->rb;
	size_t n = 0;

	while (rb->tail < rb->head && n < max) {
		out[n++] = rb->mem[rb->tail % rb->size];
		rb->tail++;
	}
	return n;
}

u64 h_read(struct h_event *e)
{
	on_cpu(e);
	if (e->ev.state == PERF_EVENT_STATE_ACTIVE) {
		fake_atomic++;
		fake_pmu->read(&e->ev);
		fake_atomic--;
	}
	return (u64)local64_read(&e->ev.count);
}

void h_close(struct h_event *e)
{
	h_disable(e);
	h_munmap_aux(e);
	if (e->installed)
		installed[e->ev.cpu] = NULL;
	if (e->ev.destroy)
		e->ev.destroy(&e->ev);
	free(e);
}

void h_parse(const u8 *buf, size_t len, bool expect_header, struct h_stream *s)
{
	size_t off = 0;

	memset(s, 0, sizeof(*s));
	s->in_order = s->increasing = s->intact = s->padding_zero = true;
	if (expect_header && len >= 48) {
		const u64 *h = (const u64 *)buf;

		s->header = h[2] == 0;
		s->boot_tb = h[0];
		s->tb_freq = h[1];
		s->padding_zero = !h[3] && !h[4] && !h[5];
		off = 48;
	}
	for (; off + 48 <= len; off += 48) {
		struct dtl_entry e, want;
		u64 tb, seq;

		memcpy(&e, buf + off, 48);
		tb = be64_to_cpu(e.timebase);
		if (tb < FAKE_BOOT_TB + 1000) {
			s->junk++;
			continue;
		}
		seq = tb - FAKE_BOOT_TB - 1000;
		fake_hv_entry(&want, seq);
		if (memcmp(&e, &want, 48))
			s->intact = false;
		if (s->entries && seq != s->last_seq + 1)
			s->in_order = false;
		if (s->entries && seq <= s->last_seq)
			s->increasing = false;
		if (!s->entries)
			s->first_seq = seq;
		s->last_seq = seq;
		s->entries++;
	}
	s->junk += (len - off) ? 1 : 0;
}
