/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fake_kernel.h - just enough of the kernel for kernel/vpa-dtl.c to compile
 * and run in user space, unmodified.
 *
 * The fakes are not stubs: the AUX handle keeps a real ring with real free
 * space, locks record who holds them, the allocator counts what is live and
 * can be told to fail, and anything the kernel would splat on (a sleeping
 * allocation in atomic context, up_write() from another task, writing past
 * the AUX free space, a per-CPU index out of range) is recorded as a
 * violation that the tests assert on.
 */
#ifndef FAKE_KERNEL_H
#define FAKE_KERNEL_H

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;
typedef uint16_t __be16;
typedef uint32_t __be32;
typedef uint64_t __be64;
typedef int64_t ktime_t;
typedef int clockid_t_fake;
typedef unsigned int gfp_t;
typedef unsigned short umode_t;

/* --- violations: what a debug kernel would splat on --------------------- */
extern int fake_violations;
void fake_violation(const char *what, const char *detail);

/* --- tasks and contexts -------------------------------------------------- */
extern __thread int fake_current;	/* task id of the running "task" */
extern __thread int fake_locks_held;	/* sleeping locks held by it */
extern __thread int fake_atomic;	/* > 0: IRQs off / hardirq / spinlock */

/* --- basics ---------------------------------------------------------------- */
#define __always_unused __attribute__((unused))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
/* The harness can act between a read and what follows it (see lap tests). */
void fake_read_hook(const volatile void *addr);
#define READ_ONCE(x) ({ __typeof__(x) __v = *(const volatile __typeof__(x) *)&(x); \
	fake_read_hook(&(x)); __v; })
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
#define barrier() __asm__ __volatile__("" ::: "memory")
#define smp_rmb() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_wmb() __atomic_thread_fence(__ATOMIC_RELEASE)
#define min_t(t, a, b) ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b) ((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define clamp_t(t, v, lo, hi) min_t(t, max_t(t, v, lo), hi)
#define container_of(p, t, m) ((t *)((char *)(p) - offsetof(t, m)))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define cpu_to_be32(x) __builtin_bswap32(x)
#define be32_to_cpu(x) __builtin_bswap32(x)
#define cpu_to_be64(x) __builtin_bswap64(x)
#define be64_to_cpu(x) __builtin_bswap64(x)
#define cpu_to_be16(x) __builtin_bswap16(x)
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_SEC 1000000000ULL
#define NUMA_NO_NODE (-1)
#define MAX_ERRNO 4095
#define IS_ERR(p) ((unsigned long)(p) >= (unsigned long)-MAX_ERRNO)
#define PTR_ERR(p) ((long)(p))
#define ERR_PTR(e) ((void *)(long)(e))
static inline ktime_t ns_to_ktime(u64 ns) { return (ktime_t)ns; }

extern int fake_warnings;
#define WARN_ON_ONCE(c) ({ bool __c = !!(c); if (__c) { fake_warnings++; \
	fake_violation("WARN_ON_ONCE", #c); } __c; })
#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif
#define pr_debug(fmt, ...) ((void)0)
extern int fake_pr_warns;
#define pr_warn_ratelimited(fmt, ...) (fake_pr_warns++, \
	fprintf(stderr, "  [kernel] " pr_fmt(fmt), ##__VA_ARGS__))
#define pr_warn(fmt, ...) pr_warn_ratelimited(fmt, ##__VA_ARGS__)

/* <linux/cleanup.h>: what upstream's setup_aux uses */
#define __free(f) __attribute__((cleanup(__free_##f)))
void kfree(const void *p);
static inline void __free_kfree(void *pp) { kfree(*(void **)pp); }
#define no_free_ptr(p) ({ __typeof__(p) __t = (p); (p) = NULL; __t; })

/* --- CPUs, paca, lppaca, the DTL --------------------------------------- */
#define FAKE_NR_CPUS 8
/* The CPU the calling code runs on: the harness sets it to the event's. */
extern __thread int fake_cpu;
#define DEFINE_PER_CPU(type, name) __typeof__(type) name[FAKE_NR_CPUS]
#define this_cpu_ptr(p) (*(p) + fake_cpu)
#define per_cpu(v, cpu) ((v)[cpu])
#define raw_smp_processor_id() fake_cpu
extern unsigned int nr_cpu_ids;
int cpu_to_node(int cpu);
int get_hard_smp_processor_id(int cpu);	/* cpu + 100: catches id mix-ups */

struct dtl_entry {
	u8 dispatch_reason;
	u8 preempt_reason;
	__be16 processor_id;
	__be32 enqueue_to_dispatch_time;
	__be32 ready_to_enqueue_time;
	__be32 waiting_to_ready_time;
	__be64 timebase;
	__be64 fault_addr;
	__be64 srr0;
	__be64 srr1;
};
#define DISPATCH_LOG_BYTES 4096
#define N_DISPATCH_LOG (DISPATCH_LOG_BYTES / sizeof(struct dtl_entry))
#define DTL_LOG_CEDE 0x1
#define DTL_LOG_PREEMPT 0x2
#define DTL_LOG_FAULT 0x4
#define DTL_LOG_ALL (DTL_LOG_CEDE | DTL_LOG_PREEMPT | DTL_LOG_FAULT)

struct lppaca {
	u8 dtl_enable_mask;
	volatile __be64 dtl_idx;
};
struct paca_struct {
	struct lppaca *lppaca_ptr;
	struct dtl_entry *dispatch_log;
};
extern struct paca_struct *paca_ptrs[FAKE_NR_CPUS];
#define lppaca_of(cpu) (*paca_ptrs[cpu]->lppaca_ptr)

struct kmem_cache {
	size_t size;
};
extern struct kmem_cache *dtl_cache;

/* H_REGISTER_VPA's DTL subfunctions, served by the fake hypervisor. */
long register_dtl(unsigned long hwcpu, unsigned long addr);
long unregister_dtl(unsigned long hwcpu);
#define __pa(p) ((unsigned long)(p))

#define FW_FEATURE_SPLPAR 1
extern bool fake_splpar, fake_kvm_guest, fake_perfmon;
#define firmware_has_feature(f) ((f) == FW_FEATURE_SPLPAR && fake_splpar)
static inline bool is_kvm_guest(void) { return fake_kvm_guest; }
static inline bool perfmon_capable(void) { return fake_perfmon; }
extern unsigned long tb_ticks_per_sec;
u64 get_boot_tb(void);

/* --- memory ---------------------------------------------------------------- */
#define ___GFP_DIRECT_RECLAIM 0x400u
#define ___GFP_KSWAPD_RECLAIM 0x800u
#define __GFP_HIGH 0x20u
#define GFP_KERNEL (___GFP_DIRECT_RECLAIM | ___GFP_KSWAPD_RECLAIM | 0xc0u)
#define GFP_ATOMIC (__GFP_HIGH | ___GFP_KSWAPD_RECLAIM)
void *kzalloc_node(size_t size, gfp_t gfp, int node);
void *kcalloc(size_t n, size_t size, gfp_t gfp);
#define kzalloc_objs(P, COUNT) kcalloc(COUNT, sizeof(P), GFP_KERNEL)
void kfree(const void *p);
void *kmem_cache_alloc_node(struct kmem_cache *c, gfp_t gfp, int node);
void kmem_cache_free(struct kmem_cache *c, void *p);

struct page;
#define PAGE_SHIFT 16
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#define VM_MAP 0x4
#define PAGE_KERNEL 0
struct page *virt_to_page(const void *addr);
void *vmap(struct page **pages, unsigned int count, unsigned long flags, int prot);
void vunmap(const void *addr);

/* --- locks, waits, threads --------------------------------------------------- */
struct mutex {
	pthread_mutex_t m;
	int owner;
};
#define DEFINE_MUTEX(n) struct mutex n = { PTHREAD_MUTEX_INITIALIZER, 0 }
void mutex_lock(struct mutex *m);
void mutex_unlock(struct mutex *m);
#define lockdep_assert_held(m) do { if ((m)->owner != fake_current) \
	fake_violation("lockdep_assert_held", #m); } while (0)

/* a spinlock: atomic context while held, so a sleeping call inside is caught */
typedef struct {
	pthread_mutex_t m;
} spinlock_t;
#define __SPIN_LOCK_UNLOCKED(n) { PTHREAD_MUTEX_INITIALIZER }
void spin_lock(spinlock_t *l);
void spin_unlock(spinlock_t *l);

struct rw_semaphore {
	pthread_mutex_t m;
	int writer;		/* task id, 0 if none */
	int readers;
};
extern struct rw_semaphore dtl_access_lock;
int down_write_trylock(struct rw_semaphore *s);
void up_write(struct rw_semaphore *s);

struct wait_queue_head {
	pthread_mutex_t m;
	pthread_cond_t c;
};
#define DECLARE_WAIT_QUEUE_HEAD(n) struct wait_queue_head n = \
	{ PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER }
void fake_wq_register(struct wait_queue_head *wq);
#define wait_event_interruptible(wq, cond) ({				\
	fake_might_sleep("wait_event");					\
	fake_wq_register(&(wq));					\
	pthread_mutex_lock(&(wq).m);					\
	while (!(cond))							\
		pthread_cond_wait(&(wq).c, &(wq).m);			\
	pthread_mutex_unlock(&(wq).m);					\
	0; })
void wake_up(struct wait_queue_head *wq);
void fake_might_sleep(const char *what);

struct completion {
	pthread_mutex_t m;
	pthread_cond_t c;
	unsigned int done;
};
#define DECLARE_COMPLETION(n) struct completion n = \
	{ PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 }
void reinit_completion(struct completion *x);
void complete(struct completion *x);
void wait_for_completion(struct completion *x);

struct task_struct;
struct task_struct *kthread_run(int (*fn)(void *), void *data, const char *name);
bool kthread_should_stop(void);
int kthread_stop(struct task_struct *t);
int fake_task_id(const struct task_struct *t);

/* --- hrtimer ------------------------------------------------------------------- */
enum hrtimer_restart { HRTIMER_NORESTART, HRTIMER_RESTART };
enum hrtimer_mode { HRTIMER_MODE_REL = 1, HRTIMER_MODE_REL_PINNED = 3 };
#define CLOCK_MONOTONIC 1
struct hrtimer {
	enum hrtimer_restart (*function)(struct hrtimer *);
	bool armed;
	int mode;
	u64 interval;		/* what the last start/forward asked for */
	int setups;
};
void hrtimer_setup(struct hrtimer *t, enum hrtimer_restart (*fn)(struct hrtimer *),
		   int clock, enum hrtimer_mode mode);
void hrtimer_start(struct hrtimer *t, ktime_t kt, enum hrtimer_mode mode);
int hrtimer_cancel(struct hrtimer *t);
u64 hrtimer_forward_now(struct hrtimer *t, ktime_t interval);

/* --- perf ------------------------------------------------------------------------ */
typedef struct { volatile s64 v; } local64_t;
#define local64_set(l, x) ((l)->v = (x))
#define local64_read(l) ((l)->v)

struct attribute {
	const char *name;
	umode_t mode;
};
struct device_attribute {
	struct attribute attr;
	const char *fake_show;	/* what sysfs would print */
};
struct perf_pmu_events_attr {
	struct device_attribute attr;
	u64 id;
	const char *event_str;
};
struct attribute_group {
	const char *name;
	struct attribute **attrs;
};
#define PMU_EVENT_ATTR_STRING(_name, _var, _str)			\
	static struct perf_pmu_events_attr _var = {			\
		.attr = { .attr = { .name = #_name, .mode = 0444 },	\
			  .fake_show = _str "\n" },			\
		.id = 0, .event_str = _str, }
/* asm/perf_event_server.h's generic events; sysfs shows "event=0x%02llx" of the id */
#define PMU_EVENT_ATTR(_name, _var, _id, _show)				\
	static struct perf_pmu_events_attr _var = {			\
		.attr = { .attr = { .name = #_name, .mode = 0444 } },	\
		.id = _id, }
#define EVENT_VAR(_id, _suffix) event_attr_##_id##_suffix
#define EVENT_PTR(_id, _suffix) &EVENT_VAR(_id, _suffix).attr.attr
#define EVENT_ATTR(_name, _id, _suffix) PMU_EVENT_ATTR(_name, EVENT_VAR(_id, _suffix), _id, 0)
#define GENERIC_EVENT_ATTR(_name, _id) EVENT_ATTR(_name, _id, _g)
#define GENERIC_EVENT_PTR(_id) EVENT_PTR(_id, _g)
#define PMU_FORMAT_ATTR(_name, _format)					\
	static struct device_attribute format_attr_##_name = {		\
		.attr = { .name = #_name, .mode = 0444 },		\
		.fake_show = _format "\n" }

#define PERF_SAMPLE_BRANCH_STACK (1U << 11)
struct perf_event_attr {
	u32 type;
	u64 config;
	union {
		u64 sample_period;
		u64 sample_freq;
	};
	u64 sample_type;
	unsigned int freq : 1;
};
struct hw_perf_event {
	struct hrtimer hrtimer;
	u64 sample_period;
	u64 last_period;
	local64_t period_left;
	int state;
};
#define PERF_HES_STOPPED 0x01
#define PERF_HES_UPTODATE 0x02
#define PERF_EF_START 0x01
#define PERF_EF_RELOAD 0x02
#define PERF_EF_UPDATE 0x04
#define PERF_ATTACH_TASK 0x0004
enum { PERF_EVENT_STATE_OFF = -1, PERF_EVENT_STATE_INACTIVE = 0, PERF_EVENT_STATE_ACTIVE = 1 };
#define PERF_AUX_FLAG_TRUNCATED 0x01
#define PERF_AUX_FLAG_OVERWRITE 0x02
#define PERF_AUX_FLAG_PARTIAL 0x04
#define PERF_AUX_FLAG_COLLISION 0x08
#define PERF_PMU_CAP_NO_EXCLUDE 0x0080
#define PERF_PMU_CAP_EXCLUSIVE 0x0010
#define perf_invalid_context (-1)

struct fake_rb;
struct pmu;
struct perf_event {
	struct perf_event_attr attr;
	struct hw_perf_event hw;
	struct pmu *pmu;
	int cpu;
	int state;
	unsigned int attach_state;
	void (*destroy)(struct perf_event *);
	void *pmu_private;
	local64_t count;
	struct fake_rb *rb;	/* the harness's ring buffer */
	int pending_disable;
};
struct pmu {
	int type;
	int task_ctx_nr;
	const char *name;
	const struct attribute_group **attr_groups;
	int capabilities;
	int (*event_init)(struct perf_event *);
	int (*add)(struct perf_event *, int);
	void (*del)(struct perf_event *, int);
	void (*start)(struct perf_event *, int);
	void (*stop)(struct perf_event *, int);
	void (*read)(struct perf_event *);
	void *(*setup_aux)(struct perf_event *, void **, int, bool);
	void (*free_aux)(void *);
};
int perf_pmu_register(struct pmu *pmu, const char *name, int type);
static inline bool is_sampling_event(struct perf_event *e) { return e->attr.sample_period != 0; }
static inline bool has_branch_stack(struct perf_event *e)
{
	return e->attr.sample_type & PERF_SAMPLE_BRANCH_STACK;
}

struct perf_output_handle {
	struct perf_event *event;
	struct fake_rb *rb;
	unsigned long size;
	u64 aux_flags;
	unsigned long head;
};
void *perf_aux_output_begin(struct perf_output_handle *h, struct perf_event *e);
void perf_aux_output_end(struct perf_output_handle *h, unsigned long size);
void perf_aux_output_flag(struct perf_output_handle *h, u64 flags);

/* device_initcall: the harness calls it. */
extern int (*fake_initcall)(void);
#define device_initcall(fn) int (*fake_initcall)(void) = fn

#endif
