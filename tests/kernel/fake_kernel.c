/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fake_kernel.c - the kernel services vpa-dtl.c calls, with the checks a
 * debug kernel would make, and the fake hypervisor behind register_dtl().
 */
#include "fake.h"

#include <stdlib.h>

int fake_violations, fake_warnings, fake_pr_warns;
__thread int fake_current = 1;
__thread int fake_cpu;
__thread int fake_locks_held;
__thread int fake_atomic;

void fake_violation(const char *what, const char *detail)
{
	fake_violations++;
	fprintf(stderr, "  VIOLATION: %s: %s\n", what, detail);
}

void fake_might_sleep(const char *what)
{
	if (fake_atomic)
		fake_violation("sleeping function called from invalid context", what);
}

/* --- CPUs and the fake hypervisor ------------------------------------------- */
unsigned int nr_cpu_ids = FAKE_NR_CPUS;
struct paca_struct *paca_ptrs[FAKE_NR_CPUS];
static struct paca_struct pacas[FAKE_NR_CPUS];
static struct lppaca lppacas[FAKE_NR_CPUS];
struct fake_hv fake_hv;
bool fake_splpar = true, fake_kvm_guest, fake_perfmon = true;
unsigned long tb_ticks_per_sec = 512000000;
static struct kmem_cache the_dtl_cache = { DISPATCH_LOG_BYTES };
struct kmem_cache *dtl_cache = &the_dtl_cache;

u64 get_boot_tb(void)
{
	return FAKE_BOOT_TB;
}

int cpu_to_node(int cpu)
{
	if (cpu < 0 || cpu >= FAKE_NR_CPUS)
		fake_violation("per-CPU index out of range", "cpu_to_node");
	return 0;
}

int get_hard_smp_processor_id(int cpu)
{
	if (cpu < 0 || cpu >= FAKE_NR_CPUS) {
		fake_violation("per-CPU index out of range", "get_hard_smp_processor_id");
		return -1;
	}
	return cpu + 100;
}

long register_dtl(unsigned long hwcpu, unsigned long addr)
{
	struct dtl_entry *buf = (struct dtl_entry *)addr;
	int cpu = (int)hwcpu - 100;

	fake_hv.register_calls++;
	if (cpu < 0 || cpu >= FAKE_NR_CPUS) {
		fake_violation("register_dtl", "not a hard CPU id");
		return -4;	/* H_PARAMETER */
	}
	if (fake_hv.fail_register)
		return -2;	/* H_HARDWARE */
	if (!buf || be32_to_cpu(((u32 *)buf)[1]) < sizeof(struct dtl_entry))
		return -4;
	fake_hv.buf[cpu] = buf;
	return 0;
}

long unregister_dtl(unsigned long hwcpu)
{
	int cpu = (int)hwcpu - 100;

	if (cpu < 0 || cpu >= FAKE_NR_CPUS) {
		fake_violation("unregister_dtl", "not a hard CPU id");
		return -4;
	}
	fake_hv.buf[cpu] = NULL;
	return 0;
}

void fake_hv_entry(struct dtl_entry *e, u64 seq)
{
	memset(e, 0, sizeof(*e));
	e->dispatch_reason = (u8)(seq % 11);
	e->preempt_reason = (u8)(seq % 10);
	e->processor_id = cpu_to_be16((u16)(seq % 64));
	e->enqueue_to_dispatch_time = cpu_to_be32((u32)seq * 3);
	e->timebase = cpu_to_be64(FAKE_BOOT_TB + 1000 + seq);
	e->srr0 = cpu_to_be64(seq ^ 0xc000000000000000ull);
	e->srr1 = cpu_to_be64(~seq);
}

/* PHYP's order: the entry, a barrier, then the index that publishes it. */
void fake_hv_log(int cpu, unsigned int n)
{
	struct lppaca *lp = paca_ptrs[cpu]->lppaca_ptr;

	for (unsigned int i = 0; i < n; i++) {
		u64 idx = be64_to_cpu(lp->dtl_idx);
		struct dtl_entry *buf = fake_hv.buf[cpu];

		if (!buf || !lp->dtl_enable_mask)
			return;
		fake_hv_entry(&buf[idx % N_DISPATCH_LOG], fake_hv.seq[cpu]++);
		smp_wmb();
		lp->dtl_idx = cpu_to_be64(idx + 1);
	}
}

void fake_reset(void)
{
	memset(&fake_hv, 0, sizeof(fake_hv));
	for (int i = 0; i < FAKE_NR_CPUS; i++) {
		memset(&lppacas[i], 0, sizeof(lppacas[i]));
		pacas[i].lppaca_ptr = &lppacas[i];
		pacas[i].dispatch_log = NULL;
		paca_ptrs[i] = &pacas[i];
	}
	dtl_cache = &the_dtl_cache;
	fake_splpar = true;
	fake_kvm_guest = false;
	fake_perfmon = true;
	fake_violations = fake_warnings = fake_pr_warns = 0;
	fake_alloc_fail_at = -1;
	fake_lap_after_read_cpu = -1;
	fake_atomic = 0;
	fake_current = 1;
}

int fake_lap_after_read_cpu = -1;
unsigned int fake_lap_after_read_n;

/* One-shot: the hypervisor logs more right after the driver reads dtl_idx. */
void fake_read_hook(const volatile void *addr)
{
	int cpu = fake_lap_after_read_cpu;

	if (cpu < 0 || addr != &paca_ptrs[cpu]->lppaca_ptr->dtl_idx)
		return;
	fake_lap_after_read_cpu = -1;
	fake_hv_log(cpu, fake_lap_after_read_n);
}

/* --- memory ---------------------------------------------------------------- */
long fake_live_kmalloc, fake_live_slab, fake_live_vmap, fake_allocs;
long fake_alloc_fail_at = -1;	/* fail the Nth allocation from now (0 = next) */

static bool alloc_fails(gfp_t gfp, const char *what)
{
	if ((gfp & ___GFP_DIRECT_RECLAIM) && fake_atomic)
		fake_violation("sleeping allocation in atomic context", what);
	fake_allocs++;
	if (fake_alloc_fail_at == 0) {
		fake_alloc_fail_at = -1;
		return true;
	}
	if (fake_alloc_fail_at > 0)
		fake_alloc_fail_at--;
	return false;
}

void *kzalloc_node(size_t size, gfp_t gfp, int node)
{
	void *p;

	(void)node;
	if (alloc_fails(gfp, "kzalloc_node"))
		return NULL;
	p = calloc(1, size);
	fake_live_kmalloc += p != NULL;
	return p;
}

void *kcalloc(size_t n, size_t size, gfp_t gfp)
{
	void *p;

	if (alloc_fails(gfp, "kcalloc"))
		return NULL;
	p = calloc(n, size);
	fake_live_kmalloc += p != NULL;
	return p;
}

void kfree(const void *p)
{
	if (!p)
		return;
	fake_live_kmalloc--;
	free((void *)p);
}

void *kmem_cache_alloc_node(struct kmem_cache *c, gfp_t gfp, int node)
{
	void *p;

	(void)node;
	if (!c) {
		fake_violation("kmem_cache_alloc_node", "NULL cache");
		return NULL;
	}
	if (alloc_fails(gfp, "kmem_cache_alloc_node"))
		return NULL;
	/* Slab memory is not zeroed: make stale contents visible. */
	p = aligned_alloc(DISPATCH_LOG_BYTES, c->size);
	if (p) {
		memset(p, 0xa5, c->size);
		fake_live_slab++;
	}
	return p;
}

void kmem_cache_free(struct kmem_cache *c, void *p)
{
	(void)c;
	if (!p)
		return;
	fake_live_slab--;
	free(p);
}

struct page *virt_to_page(const void *addr)
{
	return (struct page *)addr;
}

void *vmap(struct page **pages, unsigned int count, unsigned long flags, int prot)
{
	(void)flags, (void)prot;
	/* The harness hands out contiguous pages, so the mapping is the first. */
	for (unsigned int i = 1; i < count; i++)
		if ((char *)pages[i] != (char *)pages[0] + i * PAGE_SIZE)
			return NULL;
	fake_live_vmap++;
	return pages[0];
}

void vunmap(const void *addr)
{
	if (addr)
		fake_live_vmap--;
}

/* --- locks, waits, threads -------------------------------------------------- */
void mutex_lock(struct mutex *m)
{
	fake_might_sleep("mutex_lock");
	pthread_mutex_lock(&m->m);
	m->owner = fake_current;
	fake_locks_held++;
}

void mutex_unlock(struct mutex *m)
{
	if (m->owner != fake_current)
		fake_violation("mutex_unlock", "not the owner");
	m->owner = 0;
	fake_locks_held--;
	pthread_mutex_unlock(&m->m);
}

struct rw_semaphore dtl_access_lock = { PTHREAD_MUTEX_INITIALIZER, 0, 0 };

void spin_lock(spinlock_t *l)
{
	pthread_mutex_lock(&l->m);
	fake_atomic++;
}

void spin_unlock(spinlock_t *l)
{
	fake_atomic--;
	pthread_mutex_unlock(&l->m);
}

int down_write_trylock(struct rw_semaphore *s)
{
	int ok;

	pthread_mutex_lock(&s->m);
	ok = !s->writer && !s->readers;
	if (ok) {
		s->writer = fake_current;
		fake_locks_held++;
	}
	pthread_mutex_unlock(&s->m);
	return ok;
}

void up_write(struct rw_semaphore *s)
{
	pthread_mutex_lock(&s->m);
	if (s->writer != fake_current)
		fake_violation("up_write", "released by a task that does not own it");
	else
		fake_locks_held--;
	s->writer = 0;
	pthread_mutex_unlock(&s->m);
}

/* Another DTL user (debugfs reader, vcpudispatch_stats) in another task. */
bool fake_other_dtl_user(bool take, bool writer)
{
	bool ok = true;

	pthread_mutex_lock(&dtl_access_lock.m);
	if (take && writer) {
		ok = !dtl_access_lock.writer && !dtl_access_lock.readers;
		if (ok)
			dtl_access_lock.writer = 999;
	} else if (take) {
		ok = !dtl_access_lock.writer;
		if (ok)
			dtl_access_lock.readers++;
	} else if (writer) {
		dtl_access_lock.writer = 0;
	} else {
		dtl_access_lock.readers--;
	}
	pthread_mutex_unlock(&dtl_access_lock.m);
	return ok;
}

static struct wait_queue_head *wqs[8];

void fake_wq_register(struct wait_queue_head *wq)
{
	for (size_t i = 0; i < ARRAY_SIZE(wqs); i++) {
		if (wqs[i] == wq)
			return;
		if (!wqs[i]) {
			wqs[i] = wq;
			return;
		}
	}
}

void wake_up(struct wait_queue_head *wq)
{
	pthread_mutex_lock(&wq->m);
	pthread_cond_broadcast(&wq->c);
	pthread_mutex_unlock(&wq->m);
}

void reinit_completion(struct completion *x)
{
	pthread_mutex_lock(&x->m);
	x->done = 0;
	pthread_mutex_unlock(&x->m);
}

void complete(struct completion *x)
{
	pthread_mutex_lock(&x->m);
	x->done++;
	pthread_cond_signal(&x->c);
	pthread_mutex_unlock(&x->m);
}

void wait_for_completion(struct completion *x)
{
	fake_might_sleep("wait_for_completion");
	pthread_mutex_lock(&x->m);
	while (!x->done)
		pthread_cond_wait(&x->c, &x->m);
	x->done--;
	pthread_mutex_unlock(&x->m);
}

struct task_struct {
	pthread_t thread;
	int id;
	int (*fn)(void *);
	void *data;
	volatile bool stop;
};
static __thread struct task_struct *self;
static int next_task_id = 100;
bool fake_kthread_fail;

static void *kthread_main(void *arg)
{
	struct task_struct *t = arg;

	self = t;
	fake_current = t->id;
	t->fn(t->data);
	return NULL;
}

struct task_struct *kthread_run(int (*fn)(void *), void *data, const char *name)
{
	struct task_struct *t;

	(void)name;
	if (fake_kthread_fail)
		return ERR_PTR(-ENOMEM);
	t = calloc(1, sizeof(*t));
	t->id = next_task_id++;
	t->fn = fn;
	t->data = data;
	pthread_create(&t->thread, NULL, kthread_main, t);
	return t;
}

bool kthread_should_stop(void)
{
	return self && self->stop;
}

int kthread_stop(struct task_struct *t)
{
	t->stop = true;
	for (size_t i = 0; i < ARRAY_SIZE(wqs) && wqs[i]; i++)
		wake_up(wqs[i]);
	pthread_join(t->thread, NULL);
	free(t);
	return 0;
}

int fake_task_id(const struct task_struct *t)
{
	return t ? t->id : 0;
}

/* --- hrtimer ------------------------------------------------------------------- */
void hrtimer_setup(struct hrtimer *t, enum hrtimer_restart (*fn)(struct hrtimer *),
		   int clock, enum hrtimer_mode mode)
{
	(void)clock, (void)mode;
	t->function = fn;
	t->armed = false;
	t->setups++;
}

void hrtimer_start(struct hrtimer *t, ktime_t kt, enum hrtimer_mode mode)
{
	if (!t->function)
		fake_violation("hrtimer_start", "timer never set up");
	t->armed = true;
	t->mode = mode;
	t->interval = (u64)kt;
}

int hrtimer_cancel(struct hrtimer *t)
{
	int was = t->armed;

	t->armed = false;
	return was;
}

u64 hrtimer_forward_now(struct hrtimer *t, ktime_t interval)
{
	if (interval <= 0)
		fake_violation("hrtimer_forward_now", "non-positive interval: a busy timer");
	t->interval = (u64)interval;
	return 1;
}

/* --- perf core: registration and the AUX ring ------------------------------- */
struct pmu *fake_pmu;

int perf_pmu_register(struct pmu *pmu, const char *name, int type)
{
	if (fake_hv.fail_pmu_register)
		return -ENOMEM;
	(void)type;
	pmu->name = name;
	pmu->type = 42;
	fake_pmu = pmu;
	return 0;
}

void *perf_aux_output_begin(struct perf_output_handle *h, struct perf_event *e)
{
	struct fake_rb *rb = e->rb;

	if (!fake_atomic)
		fake_violation("perf_aux_output_begin", "called outside atomic context");
	h->event = NULL;
	if (!rb || !rb->mapped)
		return NULL;
	if (rb->nest)
		fake_violation("perf_aux_output_begin", "nested");
	h->head = rb->head;
	h->size = 0;
	h->aux_flags = 0;
	if (!rb->overwrite) {
		h->size = rb->size - (rb->head - rb->tail);
		if (!h->size) {
			e->pending_disable = 1;
			return NULL;
		}
	}
	rb->nest = 1;
	h->event = e;
	h->rb = rb;
	return rb->priv;
}

void perf_aux_output_flag(struct perf_output_handle *h, u64 flags)
{
	h->aux_flags |= flags;
}

void perf_aux_output_end(struct perf_output_handle *h, unsigned long size)
{
	struct fake_rb *rb = h->rb;
	struct fake_aux_rec *r;
	u64 off;

	if (!h->event) {
		fake_violation("perf_aux_output_end", "no handle");
		return;
	}
	if (!rb->overwrite && size > h->size)
		fake_violation("perf_aux_output_end", "wrote past the free space");
	off = rb->head;
	if (rb->overwrite) {
		h->aux_flags |= PERF_AUX_FLAG_OVERWRITE;
		rb->head = h->head;
	} else {
		rb->head += size;
	}
	if ((size || (h->aux_flags & ~(u64)PERF_AUX_FLAG_OVERWRITE)) &&
	    rb->nr_recs < FAKE_MAX_RECS) {
		r = &rb->recs[rb->nr_recs++];
		r->offset = off;
		r->size = size;
		r->flags = h->aux_flags;
	}
	if (h->aux_flags & PERF_AUX_FLAG_TRUNCATED)
		h->event->pending_disable = 1;
	rb->nest = 0;
	h->event = NULL;
}
