/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * guest.c - the simulated guest's tasks (tasks=): its scheduler picks a
 * task for each busy burst and at each 4 ms tick, the idle task's between
 * bursts; each switch goes to the CPU's switch stream (names with the
 * first), and an involuntary preempt lands in the task's code.
 */
#include <stdlib.h>

#include "internal.h"

static void push_switch(struct sim *s, struct simcpu *v, unsigned int cpu, uint64_t t, int task)
{
	static const char kworker[] = "kworker", root[] = "/";
	bool *seen = &s->announced[(size_t)cpu * SIM_NTRUTH(s) + (size_t)task];
	struct dtl_switch *w;

	if (v->nsw == v->swcap) {
		size_t cap = v->swcap ? 2 * v->swcap : 64;
		struct dtl_switch *n = realloc(v->sw, cap * sizeof(*n));

		if (!n)
			return;
		v->sw = n;
		v->swcap = cap;
	}
	w = &v->sw[v->nsw++];
	w->tb = SIM_TB0 + t;
	w->pid = task == SIM_IDLE(s) ? 0 : task == SIM_KWORKER(s) ? 2 : s->p.tasks[task].pid;
	w->comm = w->cgroup = NULL;
	/* names come once per CPU, as a comm record does before a task's first switch */
	if (!*seen && task != SIM_IDLE(s)) {
		w->comm = task == SIM_KWORKER(s) ? kworker : s->p.tasks[task].name;
		w->cgroup = task == SIM_KWORKER(s) ? root : s->p.tasks[task].cgroup;
	}
	*seen = true;
}

static int pick_task(struct sim *s, struct simcpu *v, unsigned int cpu)
{
	double sum = 0, u;
	int last = SIM_KWORKER(s);

	for (unsigned int i = 0; i < s->p.ntasks; i++)
		if (s->p.tasks[i].pin < 0 || s->p.tasks[i].pin == (int)cpu)
			sum += s->p.tasks[i].weight;
	if (sum <= 0)
		return SIM_KWORKER(s);
	u = sim_rnd01(&v->trng) * sum;
	for (unsigned int i = 0; i < s->p.ntasks; i++)
		if (s->p.tasks[i].pin < 0 || s->p.tasks[i].pin == (int)cpu) {
			last = (int)i;
			u -= s->p.tasks[i].weight;
			if (u < 0)
				break;
		}
	return last;
}

/*
 * The simulated guest kernel's functions (its /proc/kallsyms), and where a
 * task's involuntary preempts land: each task spends its kernel time in a
 * few of them, the rest in user space (MSR[PR] set).
 */
const char sim_kallsyms[] =
	"c000000000000000 T _stext\n"
	"c000000000100000 T copy_page\n"
	"c000000000100400 T __memcpy_power7\n"
	"c000000000101000 T tcp_sendmsg\n"
	"c000000000102000 T ext4_file_write_iter\n"
	"c000000000103000 T __schedule\n"
	"c000000000104000 T _raw_spin_lock\n"
	"c000000000105000 T clear_user_page\n"
	"c000000000106000 T do_syscall_trace_enter\n"
	"c000000000107000 T memset\n";
static const uint64_t sim_hot[] = {
	0xc000000000100000ull, 0xc000000000100400ull, 0xc000000000101000ull,
	0xc000000000102000ull, 0xc000000000104000ull, 0xc000000000105000ull,
	0xc000000000107000ull,
};

void sim_task_pc(struct sim *s, struct simcpu *v, struct dtl_rec *r)
{
	int task = v->pend_task;
	uint64_t u = sim_rnd(&v->trng);

	if (task >= (int)s->p.ntasks || !((DTL_PREEMPT_INVOLUNTARY_MASK >> r->preempt_reason) & 1))
		return;
	if (u % 100 < 30u + 10u * (unsigned int)(task % 4)) {
		r->srr0 = 0x10000000ull + 0x1000ull * (unsigned int)task + (u >> 32 & 0x7c);
		r->srr1 = 0x800000000000d033ull;	/* MSR[PR]: user space */
		return;
	}
	/* three functions per task, the first twice as often as the others */
	u >>= 8;
	r->srr0 = sim_hot[((unsigned int)task + (u % 4 ? u % 4 - 1 : 0)) %
			  (sizeof(sim_hot) / sizeof(sim_hot[0]))] + 4 * (u >> 8 & 0x1f);
}

/*
 * The guest's scheduler over a run from t0 to the preempt at t: a burst
 * starts with a pick, each tick while the vCPU runs may pick another, and
 * a cede (or confer) at the burst's end is the idle task's.
 */
void sim_sched_tasks(struct sim *s, struct simcpu *v, unsigned int cpu, uint64_t t0, uint64_t t,
		     bool start, bool cede)
{
	/*
	 * A thread stopped before the run it was dispatched for began (t0 <
	 * its dispatch): its task's switch is at the stop, where the pick at
	 * the stop put it, unless a chunk has handed it out already.
	 */
	if (v->woke && t0 < v->woke_at && v->nsw > v->sw_given &&
	    v->sw[v->nsw - 1].tb == SIM_TB0 + v->woke_at) {
		v->sw[v->nsw - 1].tb = SIM_TB0 + t0;
		v->tick_at = t0 + s->gtick;
	}
	if ((start && !v->woke) || v->task == SIM_IDLE(s)) {
		int n = pick_task(s, v, cpu);

		if (n != v->task)
			push_switch(s, v, cpu, t0, n);
		v->task = n;
		v->tick_at = t0 + s->gtick;
	}
	if (v->tick_at < t0)
		v->tick_at = t0;	/* no tick while the hypervisor held the vCPU */
	while (v->tick_at <= t) {
		int n = pick_task(s, v, cpu);

		if (n != v->task)
			push_switch(s, v, cpu, v->tick_at, n);
		v->task = n;
		v->tick_at += s->gtick;
	}
	if (cede) {
		push_switch(s, v, cpu, t, SIM_IDLE(s));
		v->task = SIM_IDLE(s);
	}
	v->pend_task = v->task;
	v->woke = false;
}

/*
 * The burst's pick, made at the dispatch rather than at the burst's first
 * stop: the same draw of the same generator, so every switch is where it
 * was, and the entry knows whom its wait delayed.
 */
int sim_wake_task(struct sim *s, struct simcpu *v, unsigned int cpu, uint64_t t)
{
	int n = pick_task(s, v, cpu);

	push_switch(s, v, cpu, t, n);
	v->task = n;
	v->tick_at = t + s->gtick;
	v->woke = true;
	v->woke_at = t;
	return n;
}


/* The switch stream starts with the idle task: a CPU's first entry is a wake-up. */
void sim_tasks_begin(struct sim *s, struct simcpu *v, unsigned int cpu)
{
	push_switch(s, v, cpu, 0, SIM_IDLE(s));
	v->task = v->pend_task = SIM_IDLE(s);
}
