// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Perf interface to expose Dispatch Trace Log counters.
 *
 * Copyright (C) 2024 Kajol Jain, IBM Corporation
 */

#define pr_fmt(fmt) "vpa_dtl: " fmt

#include <linux/completion.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>
#include <asm/dtl.h>
#include <asm/firmware.h>
#include <asm/kvm_guest.h>
#include <asm/lppaca.h>
#include <asm/paca.h>
#include <asm/plpar_wrappers.h>
#include <asm/time.h>

#ifdef CONFIG_PPC_SPLPAR

#define VPA_DTL_MIN_PERIOD_NS	NSEC_PER_MSEC
#define VPA_DTL_MAX_PERIOD_NS	(3600 * NSEC_PER_SEC)
#define VPA_DTL_ENTRY		sizeof(struct dtl_entry)

PMU_EVENT_ATTR_STRING(dtl_cede, attr_dtl_cede, "event=0x01");
PMU_EVENT_ATTR_STRING(dtl_preempt, attr_dtl_preempt, "event=0x02");
PMU_EVENT_ATTR_STRING(dtl_fault, attr_dtl_fault, "event=0x04");
PMU_EVENT_ATTR_STRING(dtl_all, attr_dtl_all, "event=0x07");

static struct attribute *events_attr[] = {
	&attr_dtl_cede.attr.attr,
	&attr_dtl_preempt.attr.attr,
	&attr_dtl_fault.attr.attr,
	&attr_dtl_all.attr.attr,
	NULL
};

static const struct attribute_group event_group = {
	.name = "events",
	.attrs = events_attr,
};

PMU_FORMAT_ATTR(event, "config:0-7");

static struct attribute *format_attrs[] = {
	&format_attr_event.attr,
	NULL,
};

static const struct attribute_group format_group = {
	.name = "format",
	.attrs = format_attrs,
};

/*
 * Not in the 6.18 ABI, and ignored by perf: tells consumers that the AUX
 * area is a true ring, so records may straddle its end, instead of the 6.18
 * layout with a junk fragment at each wrap.
 */
PMU_EVENT_ATTR_STRING(aux_ring, attr_aux_ring, "1");

static struct attribute *caps_attrs[] = {
	&attr_aux_ring.attr.attr,
	NULL,
};

static const struct attribute_group caps_group = {
	.name = "caps",
	.attrs = caps_attrs,
};

static const struct attribute_group *attr_groups[] = {
	&format_group,
	&event_group,
	&caps_group,
	NULL,
};

/* The AUX stream's first record; perf's decoder finds it by timebase == 0. */
struct boottb_freq {
	u64 boot_tb;
	u64 tb_freq;
	u64 timebase;
	u64 padded[3];
};

struct vpa_dtl_aux {
	void *base;
	u64 size;
	bool overwrite;
	bool header_done;
};

struct vpa_dtl_event {
	struct dtl_entry *ring;		/* what the hypervisor writes into */
	struct dtl_entry *own;		/* our buffer, NULL when sharing the kernel's */
	u64 last_idx;			/* next entry to deliver */
	u64 lost;			/* entries we could not deliver, ever */
	u64 lost_flagged;		/* lost as of the last PARTIAL record */
	u8 saved_mask;			/* the kernel's enable mask, when sharing */
	bool registered;
	struct dtl_entry stage[N_DISPATCH_LOG];
};

/*
 * dtl_access_lock keeps debugfs dtl and vcpudispatch_stats away while any
 * vpa_dtl event exists, which spans many syscalls and possibly tasks. A task
 * must not return to user space holding it, and up_write() must run in the
 * task that took it, so one kernel thread takes and releases it for us.
 */
enum { LOCKD_IDLE, LOCKD_TAKE, LOCKD_DROP };

static struct task_struct *lockd_task;
static DECLARE_WAIT_QUEUE_HEAD(lockd_wq);
static DECLARE_COMPLETION(lockd_done);
static int lockd_req;
static bool lockd_held;

static DEFINE_MUTEX(vpa_dtl_mutex);	/* users, and calls into lockd */
static unsigned int vpa_dtl_users;

static int vpa_dtl_lockd(void *unused)
{
	while (!kthread_should_stop()) {
		int req;

		wait_event_interruptible(lockd_wq, READ_ONCE(lockd_req) != LOCKD_IDLE ||
					 kthread_should_stop());
		req = READ_ONCE(lockd_req);
		if (req == LOCKD_TAKE) {
			lockd_held = down_write_trylock(&dtl_access_lock);
		} else if (req == LOCKD_DROP) {
			up_write(&dtl_access_lock);
			lockd_held = false;
		} else {
			continue;
		}
		WRITE_ONCE(lockd_req, LOCKD_IDLE);
		complete(&lockd_done);
	}
	return 0;
}

static bool lockd_call(int req)
{
	lockdep_assert_held(&vpa_dtl_mutex);
	reinit_completion(&lockd_done);
	WRITE_ONCE(lockd_req, req);
	wake_up(&lockd_wq);
	wait_for_completion(&lockd_done);
	return lockd_held;
}

static int vpa_dtl_get_access(void)
{
	int ret = 0;

	mutex_lock(&vpa_dtl_mutex);
	if (!vpa_dtl_users && !lockd_call(LOCKD_TAKE))
		ret = -EBUSY;
	else
		vpa_dtl_users++;
	mutex_unlock(&vpa_dtl_mutex);
	return ret;
}

static void vpa_dtl_put_access(void)
{
	mutex_lock(&vpa_dtl_mutex);
	if (!WARN_ON_ONCE(!vpa_dtl_users) && !--vpa_dtl_users)
		lockd_call(LOCKD_DROP);
	mutex_unlock(&vpa_dtl_mutex);
}

/* The kernel's own steal-time DTL, registered at boot under NATIVE accounting. */
static struct dtl_entry *kernel_dtl(int cpu)
{
	return paca_ptrs[cpu]->dispatch_log;
}

static void aux_copy(struct vpa_dtl_aux *aux, u64 pos, const void *src, size_t len)
{
	u64 off = pos % aux->size;
	size_t first = min_t(u64, len, aux->size - off);

	memcpy(aux->base + off, src, first);
	if (len > first)
		memcpy(aux->base, src + first, len - first);
}

/*
 * Move entries [from, to) of the hypervisor ring into the staging buffer,
 * then discard those the hypervisor may have overwritten meanwhile: it
 * writes entry k into slot k % N before publishing dtl_idx = k + 1, so once
 * dtl_idx reaches i + N, slot i may hold part of a newer entry.
 */
static u64 stage_entries(struct vpa_dtl_event *ev, int cpu, u64 from, u64 to, u64 *first)
{
	u64 n = to - from, start = from % N_DISPATCH_LOG, now;
	u64 part = min_t(u64, n, N_DISPATCH_LOG - start);

	memcpy(ev->stage, ev->ring + start, part * VPA_DTL_ENTRY);
	if (n > part)
		memcpy(ev->stage + part, ev->ring, (n - part) * VPA_DTL_ENTRY);
	/* Order the copies before the re-read, as scan_dispatch_log() does. */
	smp_rmb();
	now = be64_to_cpu(READ_ONCE(lppaca_of(cpu).dtl_idx));
	*first = 0;
	if (now >= from + N_DISPATCH_LOG)
		*first = min_t(u64, n, now - N_DISPATCH_LOG + 1 - from);
	return n - *first;
}

/* Copy what the hypervisor logged since the last call into the AUX area. */
static void vpa_dtl_capture(struct perf_event *event)
{
	struct vpa_dtl_event *ev = event->pmu_private;
	struct perf_output_handle handle;
	struct vpa_dtl_aux *aux;
	u64 cur, n, first = 0, space, head, fit;
	size_t hdr = 0;

	if (!ev->registered)
		return;
	cur = be64_to_cpu(READ_ONCE(lppaca_of(event->cpu).dtl_idx));
	/* Pairs with the hypervisor's write of the entry before dtl_idx. */
	smp_rmb();
	if (cur < ev->last_idx) {
		/* Someone re-registered and reset the index: start over. */
		ev->last_idx = cur;
		return;
	}
	if (cur == ev->last_idx)
		return;
	if (cur - ev->last_idx >= N_DISPATCH_LOG) {
		/* Lapped: the oldest slot may be mid-write; keep N - 1 as dtl.c. */
		ev->lost += cur - ev->last_idx - (N_DISPATCH_LOG - 1);
		ev->last_idx = cur - (N_DISPATCH_LOG - 1);
	}
	n = stage_entries(ev, event->cpu, ev->last_idx, cur, &first);
	ev->lost += first;
	ev->last_idx = cur;

	aux = perf_aux_output_begin(&handle, event);
	if (!aux) {
		ev->lost += n;
		return;
	}
	space = aux->overwrite ? aux->size : handle.size;
	head = handle.head;
	if (!aux->header_done && space >= VPA_DTL_ENTRY) {
		struct boottb_freq tb = {
			.boot_tb = get_boot_tb(),
			.tb_freq = tb_ticks_per_sec,
		};

		aux_copy(aux, head, &tb, sizeof(tb));
		aux->header_done = true;
		hdr = sizeof(tb);
	}
	fit = min_t(u64, n, (space - hdr) / VPA_DTL_ENTRY);
	if (!aux->header_done)
		fit = 0;
	aux_copy(aux, head + hdr, ev->stage + first, fit * VPA_DTL_ENTRY);
	if (fit < n) {
		ev->lost += n - fit;
		perf_aux_output_flag(&handle, PERF_AUX_FLAG_TRUNCATED);
	}
	if (ev->lost != ev->lost_flagged) {
		perf_aux_output_flag(&handle, PERF_AUX_FLAG_PARTIAL);
		ev->lost_flagged = ev->lost;
	}
	if (aux->overwrite)
		handle.head += hdr + fit * VPA_DTL_ENTRY;
	perf_aux_output_end(&handle, hdr + fit * VPA_DTL_ENTRY);
}

static u64 vpa_dtl_period(struct perf_event *event)
{
	return clamp_t(u64, event->hw.sample_period, VPA_DTL_MIN_PERIOD_NS,
		       VPA_DTL_MAX_PERIOD_NS);
}

/* DTL entries raise no interrupt: a pinned hrtimer polls at the period. */
static enum hrtimer_restart vpa_dtl_hrtimer_handle(struct hrtimer *hrtimer)
{
	struct perf_event *event = container_of(hrtimer, struct perf_event, hw.hrtimer);

	if (event->state != PERF_EVENT_STATE_ACTIVE || (event->hw.state & PERF_HES_STOPPED))
		return HRTIMER_NORESTART;
	vpa_dtl_capture(event);
	hrtimer_forward_now(hrtimer, ns_to_ktime(vpa_dtl_period(event)));
	return HRTIMER_RESTART;
}

static void vpa_dtl_update(struct perf_event *event)
{
	struct vpa_dtl_event *ev = event->pmu_private;

	local64_set(&event->count, ev->lost);
}

static void vpa_dtl_event_start(struct perf_event *event, int flags)
{
	event->hw.state = 0;
	hrtimer_start(&event->hw.hrtimer, ns_to_ktime(vpa_dtl_period(event)),
		      HRTIMER_MODE_REL_PINNED);
}

static void vpa_dtl_event_stop(struct perf_event *event, int flags)
{
	if (event->hw.state & PERF_HES_STOPPED)
		return;
	hrtimer_cancel(&event->hw.hrtimer);
	if (flags & PERF_EF_UPDATE)
		vpa_dtl_capture(event);
	vpa_dtl_update(event);
	event->hw.state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int vpa_dtl_event_add(struct perf_event *event, int flags)
{
	struct vpa_dtl_event *ev = event->pmu_private;
	int cpu = event->cpu;
	long rc;

	if (!ev->own) {
		/* Share the kernel's DTL: leave its registration and index alone. */
		ev->ring = kernel_dtl(cpu);
		ev->saved_mask = lppaca_of(cpu).dtl_enable_mask;
		ev->last_idx = be64_to_cpu(READ_ONCE(lppaca_of(cpu).dtl_idx));
		lppaca_of(cpu).dtl_enable_mask = ev->saved_mask | event->attr.config;
	} else {
		/* H_REGISTER_VPA reads the buffer length from the second word. */
		((__be32 *)ev->own)[1] = cpu_to_be32(DISPATCH_LOG_BYTES);
		rc = register_dtl(get_hard_smp_processor_id(cpu), __pa(ev->own));
		if (rc) {
			pr_warn_ratelimited("DTL registration for cpu %d failed with %ld\n",
					    cpu, rc);
			return -EIO;
		}
		ev->ring = ev->own;
		ev->last_idx = 0;
		lppaca_of(cpu).dtl_idx = 0;
		/* The index must read 0 before the hypervisor starts logging. */
		smp_wmb();
		lppaca_of(cpu).dtl_enable_mask = event->attr.config;
	}
	ev->registered = true;
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		vpa_dtl_event_start(event, PERF_EF_RELOAD);
	return 0;
}

static void vpa_dtl_event_del(struct perf_event *event, int flags)
{
	struct vpa_dtl_event *ev = event->pmu_private;
	int cpu = event->cpu;

	vpa_dtl_event_stop(event, PERF_EF_UPDATE);
	if (!ev->registered)
		return;
	if (!ev->own) {
		lppaca_of(cpu).dtl_enable_mask = ev->saved_mask;
	} else {
		lppaca_of(cpu).dtl_enable_mask = 0;
		unregister_dtl(get_hard_smp_processor_id(cpu));
	}
	ev->registered = false;
}

static void vpa_dtl_event_read(struct perf_event *event)
{
	vpa_dtl_update(event);
}

static void vpa_dtl_event_destroy(struct perf_event *event)
{
	struct vpa_dtl_event *ev = event->pmu_private;

	event->pmu_private = NULL;
	if (ev->own)
		kmem_cache_free(dtl_cache, ev->own);
	kfree(ev);
	vpa_dtl_put_access();
}

static int vpa_dtl_event_init(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 config = event->attr.config;
	struct vpa_dtl_event *ev;
	int cpu = event->cpu, ret;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	/* CPU-wide only; the core rejects task events, but after this runs. */
	if (cpu < 0 || cpu >= nr_cpu_ids || (event->attach_state & PERF_ATTACH_TASK))
		return -EINVAL;
	if (!perfmon_capable())
		return -EACCES;
	if (!is_sampling_event(event) || has_branch_stack(event))
		return -EOPNOTSUPP;
	if (!config || (config & ~(u64)DTL_LOG_ALL))
		return -EINVAL;

	ev = kzalloc_node(sizeof(*ev), GFP_KERNEL, cpu_to_node(cpu));
	if (!ev)
		return -ENOMEM;
	if (!kernel_dtl(cpu)) {
		ret = -ENOMEM;
		if (!dtl_cache)
			goto free_ev;
		ev->own = kmem_cache_alloc_node(dtl_cache, GFP_KERNEL, cpu_to_node(cpu));
		if (!ev->own)
			goto free_ev;
	}
	ret = vpa_dtl_get_access();
	if (ret)
		goto free_own;

	hrtimer_setup(&hwc->hrtimer, vpa_dtl_hrtimer_handle, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL);
	/*
	 * perf's default is frequency mode (-F), where the core retunes the
	 * period from how often the event overflowed. A timer poll never
	 * overflows, so turn the frequency into a fixed period in ns once, and
	 * clear freq so the core leaves it alone; last_period is what samples
	 * report as their period.
	 */
	if (event->attr.freq) {
		u64 freq = max_t(u64, event->attr.sample_freq, 1);

		event->attr.sample_period = max_t(u64, NSEC_PER_SEC / freq, 1);
		event->attr.freq = 0;
		hwc->sample_period = event->attr.sample_period;
		hwc->last_period = hwc->sample_period;
		local64_set(&hwc->period_left, hwc->sample_period);
	}
	event->pmu_private = ev;
	event->destroy = vpa_dtl_event_destroy;
	return 0;

free_own:
	if (ev->own)
		kmem_cache_free(dtl_cache, ev->own);
free_ev:
	kfree(ev);
	return ret;
}

static void *vpa_dtl_setup_aux(struct perf_event *event, void **pages, int nr_pages,
			       bool overwrite)
{
	int node = event->cpu >= 0 ? cpu_to_node(event->cpu) : NUMA_NO_NODE;
	struct page **pglist;
	struct vpa_dtl_aux *aux;
	int i;

	if (nr_pages <= 0)
		return NULL;
	aux = kzalloc_node(sizeof(*aux), GFP_KERNEL, node);
	if (!aux)
		return NULL;
	pglist = kcalloc(nr_pages, sizeof(*pglist), GFP_KERNEL);
	if (!pglist)
		goto free_aux;
	for (i = 0; i < nr_pages; i++)
		pglist[i] = virt_to_page(pages[i]);
	aux->base = vmap(pglist, nr_pages, VM_MAP, PAGE_KERNEL);
	kfree(pglist);
	if (!aux->base)
		goto free_aux;
	aux->size = (u64)nr_pages << PAGE_SHIFT;
	aux->overwrite = overwrite;
	return aux;

free_aux:
	kfree(aux);
	return NULL;
}

static void vpa_dtl_free_aux(void *data)
{
	struct vpa_dtl_aux *aux = data;

	vunmap(aux->base);
	kfree(aux);
}

static struct pmu vpa_dtl_pmu = {
	.task_ctx_nr	= perf_invalid_context,
	.name		= "vpa_dtl",
	.attr_groups	= attr_groups,
	.event_init	= vpa_dtl_event_init,
	.add		= vpa_dtl_event_add,
	.del		= vpa_dtl_event_del,
	.start		= vpa_dtl_event_start,
	.stop		= vpa_dtl_event_stop,
	.read		= vpa_dtl_event_read,
	.setup_aux	= vpa_dtl_setup_aux,
	.free_aux	= vpa_dtl_free_aux,
	.capabilities	= PERF_PMU_CAP_NO_EXCLUDE | PERF_PMU_CAP_EXCLUSIVE,
};

static int vpa_dtl_init(void)
{
	int ret;

	if (!firmware_has_feature(FW_FEATURE_SPLPAR)) {
		pr_debug("not a shared virtualized system, not enabling\n");
		return -ENODEV;
	}
	/* The DTL is PHYP's; a KVM guest's hypervisor logs nothing useful. */
	if (is_kvm_guest()) {
		pr_debug("only supported on an L1 partition\n");
		return -ENODEV;
	}
	lockd_task = kthread_run(vpa_dtl_lockd, NULL, "vpa_dtl");
	if (IS_ERR(lockd_task))
		return PTR_ERR(lockd_task);
	ret = perf_pmu_register(&vpa_dtl_pmu, vpa_dtl_pmu.name, -1);
	if (ret) {
		kthread_stop(lockd_task);
		lockd_task = NULL;
	}
	return ret;
}

device_initcall(vpa_dtl_init);
#endif /* CONFIG_PPC_SPLPAR */
