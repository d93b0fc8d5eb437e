// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Perf interface to expose Dispatch Trace Log counters.
 *
 * Copyright (C) 2024 Kajol Jain, IBM Corporation
 */

#ifdef CONFIG_PPC_SPLPAR
#define pr_fmt(fmt) "vpa_dtl: " fmt

#include <asm/dtl.h>
#include <linux/perf_event.h>
#include <asm/plpar_wrappers.h>
#include <linux/vmalloc.h>

#define EVENT(_name, _code)     enum{_name = _code}

/*
 * Based on Power Architecture Platform Reference(PAPR) documentation,
 * Table 14.14. Per Virtual Processor Area, below Dispatch Trace Log(DTL)
 * Enable Mask used to get corresponding virtual processor dispatch
 * to preempt traces:
 *   DTL_CEDE(0x1): Trace voluntary (OS initiated) virtual
 *   processor waits
 *   DTL_PREEMPT(0x2): Trace time slice preempts
 *   DTL_FAULT(0x4): Trace virtual partition memory page
 faults.
 *   DTL_ALL(0x7): Trace all (DTL_CEDE | DTL_PREEMPT | DTL_FAULT)
 *
 * Event codes based on Dispatch Trace Log Enable Mask.
 */
EVENT(DTL_CEDE,         0x1);
EVENT(DTL_PREEMPT,      0x2);
EVENT(DTL_FAULT,        0x4);
EVENT(DTL_ALL,          0x7);

GENERIC_EVENT_ATTR(dtl_cede, DTL_CEDE);
GENERIC_EVENT_ATTR(dtl_preempt, DTL_PREEMPT);
GENERIC_EVENT_ATTR(dtl_fault, DTL_FAULT);
GENERIC_EVENT_ATTR(dtl_all, DTL_ALL);

PMU_FORMAT_ATTR(event, "config:0-7");

static struct attribute *events_attr[] = {
	GENERIC_EVENT_PTR(DTL_CEDE),
	GENERIC_EVENT_PTR(DTL_PREEMPT),
	GENERIC_EVENT_PTR(DTL_FAULT),
	GENERIC_EVENT_PTR(DTL_ALL),
	NULL
};

static struct attribute_group event_group = {
	.name = "events",
	.attrs = events_attr,
};

static struct attribute *format_attrs[] = {
	&format_attr_event.attr,
	NULL,
};

static const struct attribute_group format_group = {
	.name = "format",
	.attrs = format_attrs,
};

static const struct attribute_group *attr_groups[] = {
	&format_group,
	&event_group,
	NULL,
};

struct vpa_dtl {
	struct dtl_entry	*buf;		/* what the hypervisor writes into */
	struct dtl_entry	*own;		/* NULL when sharing the kernel's */
	u64			last_idx;
	u8			saved_mask;	/* the kernel's, when sharing */
	bool			registered;	/* between ->add() and ->del() */
	u64			lost;		/* entries not delivered, ever */
	u64			lost_flagged;	/* lost as of the last PARTIAL record */
	struct dtl_entry	stage[N_DISPATCH_LOG];
};

struct vpa_pmu_ctx {
	struct perf_output_handle handle;
};

struct vpa_pmu_buf {
	int     nr_pages;
	bool    snapshot;
	u64     *base;
	u64     size;
	/* boot timebase and frequency needs to be saved only at once */
	int	boottb_freq_saved;
};

/*
 * To corelate each DTL entry with other events across CPU's,
 * we need to map timebase from "struct dtl_entry" which phyp
 * provides with boot timebase. This also needs timebase frequency.
 * Formula is: ((timbase from DTL entry - boot time) / frequency)
 *
 * To match with size of "struct dtl_entry" to ease post processing,
 * padded 24 bytes to the structure.
 */
struct boottb_freq {
	u64	boot_tb;
	u64	tb_freq;
	u64	timebase;
	u64	padded[3];
};

static DEFINE_PER_CPU(struct vpa_pmu_ctx, vpa_pmu_ctx);

/* variable to capture reference count for the active dtl threads */
static int dtl_global_refc;
static spinlock_t dtl_global_lock = __SPIN_LOCK_UNLOCKED(dtl_global_lock);

/*
 * Move entries [from, to) of the hypervisor ring into the staging buffer,
 * then discard those the hypervisor may have overwritten meanwhile: it
 * writes entry k into slot k % N before publishing dtl_idx = k + 1, so once
 * dtl_idx reaches i + N, slot i may hold part of a newer entry.
 */
static u64 vpa_dtl_stage(struct vpa_dtl *dtl, int cpu, u64 from, u64 to, u64 *first)
{
	u64 n = to - from, start = from % N_DISPATCH_LOG, now;
	u64 part = min_t(u64, n, N_DISPATCH_LOG - start);

	memcpy(dtl->stage, dtl->buf + start, part * sizeof(struct dtl_entry));
	if (n > part)
		memcpy(dtl->stage + part, dtl->buf, (n - part) * sizeof(struct dtl_entry));
	/* Order the copies before the re-read, as scan_dispatch_log() does. */
	smp_rmb();
	now = be64_to_cpu(READ_ONCE(lppaca_of(cpu).dtl_idx));
	*first = 0;
	if (now >= from + N_DISPATCH_LOG)
		*first = min_t(u64, n, now - N_DISPATCH_LOG + 1 - from);
	return n - *first;
}

/* Copy len bytes into the AUX area at position pos, wrapping at its end. */
static void vpa_dtl_aux_copy(struct vpa_pmu_buf *buf, u64 pos, const void *src, size_t len)
{
	u64 off = pos % buf->size;
	size_t first = min_t(u64, len, buf->size - off);

	memcpy((void *)buf->base + off, src, first);
	if (len > first)
		memcpy(buf->base, src + first, len - first);
}

/*
 * Function to dump the dispatch trace log buffer data to the
 * perf data.
 *
 * The AUX area is a ring: records go at the handle's head, wrapping at the
 * end of the buffer, and never beyond the free space that
 * perf_aux_output_begin() reports (the whole buffer in snapshot mode).
 * What does not fit is dropped whole and the record flagged truncated.
 * The first record of the area is the boot timebase record.
 */
static void vpa_dtl_dump_sample_data(struct perf_event *event)
{
	struct vpa_pmu_ctx *vpa_ctx = this_cpu_ptr(&vpa_pmu_ctx);
	struct vpa_dtl *dtl = event->pmu_private;
	struct boottb_freq boottb_freq = {};
	u64 cur_idx, last_idx, n, first, space, head, fit;
	struct vpa_pmu_buf *aux_buf;
	size_t hdr = 0;

	if (!dtl->registered)
		return;

	cur_idx = be64_to_cpu(READ_ONCE(lppaca_of(event->cpu).dtl_idx));
	/* Pairs with the hypervisor's write of the entries before dtl_idx. */
	smp_rmb();
	last_idx = dtl->last_idx;

	/*
	 * The kernel registers its DTL again, with dtl_idx 0, when a CPU
	 * comes online (vpa_init()): read it from its start again.
	 */
	if (cur_idx < last_idx)
		last_idx = 0;

	if (last_idx + N_DISPATCH_LOG <= cur_idx) {
		dtl->lost += cur_idx - N_DISPATCH_LOG + 1 - last_idx;
		last_idx = cur_idx - N_DISPATCH_LOG + 1;
	}

	/* no new entry added to the buffer, return */
	if (cur_idx == last_idx)
		return;

	n = vpa_dtl_stage(dtl, event->cpu, last_idx, cur_idx, &first);
	dtl->lost += first;
	dtl->last_idx = cur_idx;

	aux_buf = perf_aux_output_begin(&vpa_ctx->handle, event);
	if (!aux_buf) {
		pr_debug("returning. no aux\n");
		dtl->lost += n;
		return;
	}

	space = aux_buf->snapshot ? aux_buf->size : vpa_ctx->handle.size;
	head = vpa_ctx->handle.head;
	if (!aux_buf->boottb_freq_saved && space >= sizeof(boottb_freq)) {
		/* Save boot_tb to convert raw timebase to it's relative system boot time */
		boottb_freq.boot_tb = get_boot_tb();
		/* Save tb_ticks_per_sec to convert timebase to sec */
		boottb_freq.tb_freq = tb_ticks_per_sec;
		vpa_dtl_aux_copy(aux_buf, head, &boottb_freq, sizeof(boottb_freq));
		aux_buf->boottb_freq_saved = 1;
		hdr = sizeof(boottb_freq);
	}
	fit = 0;
	if (aux_buf->boottb_freq_saved)
		fit = min_t(u64, n, (space - hdr) / sizeof(struct dtl_entry));
	vpa_dtl_aux_copy(aux_buf, head + hdr, dtl->stage + first, fit * sizeof(struct dtl_entry));
	if (fit < n) {
		dtl->lost += n - fit;
		perf_aux_output_flag(&vpa_ctx->handle, PERF_AUX_FLAG_TRUNCATED);
	}
	/* The first record after a loss says the stream has a gap. */
	if (dtl->lost != dtl->lost_flagged) {
		perf_aux_output_flag(&vpa_ctx->handle, PERF_AUX_FLAG_PARTIAL);
		dtl->lost_flagged = dtl->lost;
	}
	/* In snapshot mode the perf core takes the head from the handle. */
	if (aux_buf->snapshot)
		vpa_ctx->handle.head += hdr + fit * sizeof(struct dtl_entry);
	perf_aux_output_end(&vpa_ctx->handle, hdr + fit * sizeof(struct dtl_entry));
}

#define VPA_DTL_MIN_PERIOD_NS	NSEC_PER_MSEC
#define VPA_DTL_MAX_PERIOD_NS	(3600 * NSEC_PER_SEC)

static u64 vpa_dtl_period(struct perf_event *event)
{
	return clamp_t(u64, event->hw.sample_period, VPA_DTL_MIN_PERIOD_NS,
		       VPA_DTL_MAX_PERIOD_NS);
}

/*
 * The VPA Dispatch Trace log counters do not interrupt on overflow.
 * Therefore, the kernel needs to poll the counters to avoid missing
 * an overflow using hrtimer. The timer interval is based on sample_period
 * count provided by user, and minimum interval is 1 millisecond.
 */
static enum hrtimer_restart vpa_dtl_hrtimer_handle(struct hrtimer *hrtimer)
{
	struct perf_event *event;
	u64 period;

	event = container_of(hrtimer, struct perf_event, hw.hrtimer);

	if (event->state != PERF_EVENT_STATE_ACTIVE || (event->hw.state & PERF_HES_STOPPED))
		return HRTIMER_NORESTART;

	vpa_dtl_dump_sample_data(event);
	period = vpa_dtl_period(event);
	hrtimer_forward_now(hrtimer, ns_to_ktime(period));

	return HRTIMER_RESTART;
}

static void vpa_dtl_start_hrtimer(struct perf_event *event)
{
	u64 period;
	struct hw_perf_event *hwc = &event->hw;

	period = vpa_dtl_period(event);
	hrtimer_start(&hwc->hrtimer, ns_to_ktime(period), HRTIMER_MODE_REL_PINNED);
}

static void vpa_dtl_stop_hrtimer(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;

	hrtimer_cancel(&hwc->hrtimer);
}

/* The event's value is the count of entries it could not deliver. */
static void vpa_dtl_update(struct perf_event *event)
{
	struct vpa_dtl *dtl = event->pmu_private;

	local64_set(&event->count, dtl->lost);
}

static void vpa_dtl_event_start(struct perf_event *event, int flags)
{
	event->hw.state = 0;
	vpa_dtl_start_hrtimer(event);
}

/*
 * The perf core calls ->stop() and ->start() directly: on a period change
 * (__perf_event_period()), when a ring buffer is attached or the AUX area
 * unmapped (__perf_event_stop()), and from ->del() here. PERF_EF_UPDATE
 * asks for the event to be brought up to date: copy what the hypervisor
 * logged since the last timer tick.
 */
static void vpa_dtl_event_stop(struct perf_event *event, int flags)
{
	if (event->hw.state & PERF_HES_STOPPED)
		return;
	vpa_dtl_stop_hrtimer(event);
	if (flags & PERF_EF_UPDATE)
		vpa_dtl_dump_sample_data(event);
	vpa_dtl_update(event);
	event->hw.state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static void vpa_dtl_reset_global_refc(struct perf_event *event)
{
	spin_lock(&dtl_global_lock);
	dtl_global_refc--;
	if (dtl_global_refc <= 0) {
		dtl_global_refc = 0;
		up_write(&dtl_access_lock);
	}
	spin_unlock(&dtl_global_lock);
}

/*
 * The kernel's own DTL, registered at boot for steal time accounting
 * under CONFIG_VIRT_CPU_ACCOUNTING_NATIVE, else NULL. vcpudispatch_stats
 * allocates and frees these buffers with dtl_access_lock held for write,
 * so the answer holds only while the lock is held.
 */
static struct dtl_entry *kernel_dtl(int cpu)
{
	return paca_ptrs[cpu]->dispatch_log;
}

/*
 * The DTL buffer and its index belong to the event, not to its CPU. Called
 * with dtl_access_lock held: where the kernel has a DTL, the event shares
 * it rather than registering a buffer of its own in its place.
 */
static struct vpa_dtl *vpa_dtl_mem_alloc(int cpu)
{
	struct vpa_dtl *dtl;

	dtl = kzalloc_node(sizeof(*dtl), GFP_KERNEL, cpu_to_node(cpu));
	if (!dtl)
		return NULL;
	if (kernel_dtl(cpu))
		return dtl;

	/* Check for dispatch trace log buffer cache */
	if (!dtl_cache)
		goto free_dtl;
	dtl->own = kmem_cache_alloc_node(dtl_cache, GFP_KERNEL, cpu_to_node(cpu));
	if (!dtl->own) {
		pr_warn("buffer allocation failed for cpu %d\n", cpu);
		goto free_dtl;
	}
	return dtl;

free_dtl:
	kfree(dtl);
	return NULL;
}

static void vpa_dtl_mem_free(struct vpa_dtl *dtl)
{
	if (dtl->own)
		kmem_cache_free(dtl_cache, dtl->own);
	kfree(dtl);
}

static void vpa_dtl_event_destroy(struct perf_event *event)
{
	vpa_dtl_mem_free(event->pmu_private);
	event->pmu_private = NULL;
	vpa_dtl_reset_global_refc(event);
}

static int vpa_dtl_event_init(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	struct vpa_dtl *dtl;

	/* test the event attr type for PMU enumeration */
	if (event->attr.type != event->pmu->type)
		return -ENOENT;

	/*
	 * CPU-wide events only. The core rejects task events for a PMU with
	 * perf_invalid_context, but only after event_init, and the code below
	 * indexes per-CPU data with event->cpu.
	 */
	if (event->cpu < 0 || event->cpu >= nr_cpu_ids ||
	    (event->attach_state & PERF_ATTACH_TASK))
		return -EINVAL;

	if (!perfmon_capable())
		return -EACCES;

	/* Return if this is a counting event */
	if (!is_sampling_event(event))
		return -EOPNOTSUPP;

	/* no branch sampling */
	if (has_branch_stack(event))
		return -EOPNOTSUPP;

	/* Any non-empty subset of the DTL enable mask */
	if (!event->attr.config || (event->attr.config & ~(u64)DTL_LOG_ALL))
		return -EINVAL;

	spin_lock(&dtl_global_lock);

	/*
	 * To ensure there are no other conflicting dtl users
	 * (example: /proc/powerpc/vcpudispatch_stats or debugfs dtl),
	 * below code try to take the dtl_access_lock.
	 * The dtl_access_lock is a rwlock defined in dtl.h, which is used
	 * to unsure there is no conflicting dtl users.
	 * Based on below code, vpa_dtl pmu tries to take write access lock
	 * and also checks for dtl_global_refc, to make sure that the
	 * dtl_access_lock is taken by vpa_dtl pmu interface.
	 */
	if (dtl_global_refc == 0 && !down_write_trylock(&dtl_access_lock)) {
		spin_unlock(&dtl_global_lock);
		return -EBUSY;
	}

	/*
	 * Increment the number of active vpa_dtl pmu threads. The
	 * dtl_global_refc is used to keep count of cpu threads that
	 * currently capturing dtl data using vpa_dtl pmu interface.
	 */
	dtl_global_refc++;

	spin_unlock(&dtl_global_lock);

	/*
	 * Allocate dtl buffer memory, or share the kernel's DTL: only now,
	 * with dtl_access_lock held, is it known which. A GFP_KERNEL
	 * allocation may sleep, so it is done outside dtl_global_lock.
	 */
	dtl = vpa_dtl_mem_alloc(event->cpu);
	if (!dtl) {
		vpa_dtl_reset_global_refc(event);
		return -ENOMEM;
	}

	hrtimer_setup(&hwc->hrtimer, vpa_dtl_hrtimer_handle, CLOCK_MONOTONIC, HRTIMER_MODE_REL);

	/*
	 * Since hrtimers have a fixed rate, we can do a static freq->period
	 * mapping and avoid the whole period adjust feedback stuff.
	 */
	if (event->attr.freq) {
		u64 freq = max_t(u64, event->attr.sample_freq, 1);

		/* Never 0: that would make it a counting event. */
		event->attr.sample_period = max_t(u64, NSEC_PER_SEC / freq, 1);
		hwc->sample_period = event->attr.sample_period;
		local64_set(&hwc->period_left, hwc->sample_period);
		hwc->last_period = hwc->sample_period;
		event->attr.freq = 0;
	}

	event->pmu_private = dtl;
	event->destroy = vpa_dtl_event_destroy;
	return 0;
}

static int vpa_dtl_event_add(struct perf_event *event, int flags)
{
	int ret, hwcpu;
	unsigned long addr;
	struct vpa_dtl *dtl = event->pmu_private;

	if (!dtl->own) {
		/*
		 * Share the kernel's DTL: read it with our own index and add
		 * our events to its mask. Its registration, its index and
		 * the kernel's own reader stay as they are.
		 */
		dtl->buf = kernel_dtl(event->cpu);
		dtl->saved_mask = lppaca_of(event->cpu).dtl_enable_mask;
		dtl->last_idx = be64_to_cpu(READ_ONCE(lppaca_of(event->cpu).dtl_idx));
		lppaca_of(event->cpu).dtl_enable_mask = dtl->saved_mask | event->attr.config;
		goto start;
	}

	/*
	 * Register our dtl buffer with the hypervisor. The
	 * HV expects the buffer size to be passed in the second
	 * word of the buffer. Refer section '14.11.3.2. H_REGISTER_VPA'
	 * from PAPR for more information.
	 */
	dtl->buf = dtl->own;
	dtl->buf->enqueue_to_dispatch_time = cpu_to_be32(DISPATCH_LOG_BYTES);
	dtl->last_idx = 0;

	hwcpu = get_hard_smp_processor_id(event->cpu);
	addr = __pa(dtl->buf);

	ret = register_dtl(hwcpu, addr);
	if (ret) {
		pr_warn_ratelimited("DTL registration for cpu %d (hw %d) failed with %d\n",
				    event->cpu, hwcpu, ret);
		return -EIO;
	}

	/* set our initial buffer indices */
	lppaca_of(event->cpu).dtl_idx = 0;

	/*
	 * Ensure that our updates to the lppaca fields have
	 * occurred before we actually enable the logging
	 */
	smp_wmb();

	/* enable event logging */
	lppaca_of(event->cpu).dtl_enable_mask = event->attr.config;

start:
	dtl->registered = true;

	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		vpa_dtl_event_start(event, PERF_EF_RELOAD);

	return 0;
}

static void vpa_dtl_event_del(struct perf_event *event, int flags)
{
	int hwcpu = get_hard_smp_processor_id(event->cpu);
	struct vpa_dtl *dtl = event->pmu_private;

	vpa_dtl_event_stop(event, PERF_EF_UPDATE);
	if (!dtl->registered)
		return;
	dtl->registered = false;
	if (!dtl->own) {
		lppaca_of(event->cpu).dtl_enable_mask = dtl->saved_mask;
		return;
	}
	unregister_dtl(hwcpu);
	lppaca_of(event->cpu).dtl_enable_mask = 0x0;
}

static void vpa_dtl_event_read(struct perf_event *event)
{
	vpa_dtl_update(event);
}

/*
 * Set up pmu-private data structures for an AUX area
 * **pages contains the aux buffer allocated for this event
 * for the corresponding cpu. rb_alloc_aux uses "alloc_pages_node"
 * and returns pointer to each page address. Map these pages to
 * contiguous space using vmap and use that as base address.
 *
 * The aux private data structure ie, "struct vpa_pmu_buf" mainly
 * saves
 * - buf->base: aux buffer base address
 * - buf->size: Size of allocated memory
 * - buf->snapshot: overwrite mode, where the whole buffer is free
 */
static void *vpa_dtl_setup_aux(struct perf_event *event, void **pages,
		int nr_pages, bool snapshot)
{
	int i, cpu = event->cpu;
	struct vpa_pmu_buf *buf __free(kfree) = NULL;
	struct page **pglist __free(kfree) = NULL;

	/* We need at least one page for this to work. */
	if (!nr_pages)
		return NULL;

	if (cpu == -1)
		cpu = raw_smp_processor_id();

	buf = kzalloc_node(sizeof(*buf), GFP_KERNEL, cpu_to_node(cpu));
	if (!buf)
		return NULL;

	pglist = kzalloc_objs(*pglist, nr_pages);
	if (!pglist)
		return NULL;

	for (i = 0; i < nr_pages; ++i)
		pglist[i] = virt_to_page(pages[i]);

	buf->base = vmap(pglist, nr_pages, VM_MAP, PAGE_KERNEL);
	if (!buf->base)
		return NULL;

	buf->nr_pages = nr_pages;
	buf->snapshot = snapshot;

	buf->size = nr_pages << PAGE_SHIFT;
	buf->boottb_freq_saved = 0;
	return no_free_ptr(buf);
}

/*
 * free pmu-private AUX data structures
 */
static void vpa_dtl_free_aux(void *aux)
{
	struct vpa_pmu_buf *buf = aux;

	vunmap(buf->base);
	kfree(buf);
}

static struct pmu vpa_dtl_pmu = {
	.task_ctx_nr = perf_invalid_context,

	.name = "vpa_dtl",
	.attr_groups = attr_groups,
	.event_init  = vpa_dtl_event_init,
	.add         = vpa_dtl_event_add,
	.del         = vpa_dtl_event_del,
	.start       = vpa_dtl_event_start,
	.stop        = vpa_dtl_event_stop,
	.read        = vpa_dtl_event_read,
	.setup_aux   = vpa_dtl_setup_aux,
	.free_aux    = vpa_dtl_free_aux,
	.capabilities = PERF_PMU_CAP_NO_EXCLUDE | PERF_PMU_CAP_EXCLUSIVE,
};

static int vpa_dtl_init(void)
{
	int r;

	if (!firmware_has_feature(FW_FEATURE_SPLPAR)) {
		pr_debug("not a shared virtualized system, not enabling\n");
		return -ENODEV;
	}

	/* This driver is intended only for L1 host. */
	if (is_kvm_guest()) {
		pr_debug("Only supported for L1 host system\n");
		return -ENODEV;
	}

	r = perf_pmu_register(&vpa_dtl_pmu, vpa_dtl_pmu.name, -1);
	if (r)
		return r;

	return 0;
}

device_initcall(vpa_dtl_init);
#endif //CONFIG_PPC_SPLPAR
