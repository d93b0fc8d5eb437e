// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * TEST ONLY - never part of kernel/vpa-dtl.c. A stand-in for the PowerVM
 * hypervisor's dispatch trace log writer, for a pseries kernel under QEMU
 * TCG: QEMU accepts H_REGISTER_VPA DTL registrations but never writes an
 * entry (dtl-abi.md 9).
 *
 * register_dtl()/unregister_dtl() tell it (the hook patched into
 * asm/plpar_wrappers.h) which buffer each CPU registered. It then writes
 * entries into those buffers as PHYP does: slot dtl_idx % 85, a write
 * barrier, then dtl_idx + 1 in the lppaca; and only for preempt reasons
 * whose class is set in the lppaca's dtl_enable_mask. Entries cycle
 * through one reason per mask class: H_CEDE (cede), time slice (preempt),
 * virtual memory page fault (fault).
 *
 * debugfs fake_hv_dtl/ctl takes "rate N" (entries per second per CPU, from
 * a 10 ms timer), "burst N" (N entries per CPU at once: more than 85 laps
 * the ring) and "reset" (the counters); fake_hv_dtl/stats says, per CPU,
 * whether a buffer is registered and what was written or masked out.
 */
#include <linux/debugfs.h>
#include <linux/hrtimer.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <asm/dtl.h>
#include <asm/lppaca.h>
#include <asm/plpar_wrappers.h>
#include <asm/smp.h>
#include <asm/time.h>

#define FHV_TICK_NS (10 * NSEC_PER_MSEC)
#define FHV_MAX_BURST 100000

enum { FHV_CEDE, FHV_PREEMPT, FHV_FAULT, FHV_CLASSES };

static const struct {
	u8 preempt_reason;
	u8 mask_bit;
} fhv_class[FHV_CLASSES] = {
	[FHV_CEDE] = { 2, DTL_LOG_CEDE },	/* H_CEDE */
	[FHV_PREEMPT] = { 4, DTL_LOG_PREEMPT },	/* time slice */
	[FHV_FAULT] = { 6, DTL_LOG_FAULT },	/* virtual memory page fault */
};

struct fhv_cpu {
	unsigned long addr;		/* physical; 0: none registered */
	u64 written[FHV_CLASSES];	/* since the last reset */
	u64 masked;
	u64 seq;
	unsigned long regs, unregs;
	unsigned int carry;		/* rate remainder, in entries * 100 */
};

static struct fhv_cpu fhv[NR_CPUS];
static DEFINE_SPINLOCK(fhv_lock);
static unsigned int fhv_rate;
static struct hrtimer fhv_timer;

static int fhv_logical(unsigned long hwcpu)
{
	int cpu;

	for_each_possible_cpu(cpu)
		if (get_hard_smp_processor_id(cpu) == hwcpu)
			return cpu;
	return -1;
}

void fake_hv_dtl_registered(unsigned long hwcpu, unsigned long addr)
{
	int cpu = fhv_logical(hwcpu);
	unsigned long flags;

	if (cpu < 0)
		return;
	spin_lock_irqsave(&fhv_lock, flags);
	if (addr)
		fhv[cpu].regs++;
	else if (fhv[cpu].addr)
		fhv[cpu].unregs++;
	fhv[cpu].addr = addr;
	spin_unlock_irqrestore(&fhv_lock, flags);
}

/* One dispatch of cpu, under fhv_lock. */
static void fhv_write(int cpu)
{
	struct fhv_cpu *c = &fhv[cpu];
	struct lppaca *lp = &lppaca_of(cpu);
	unsigned int k = c->seq++ % FHV_CLASSES;
	struct dtl_entry *ring, *e;
	u64 idx;

	if (!(READ_ONCE(lp->dtl_enable_mask) & fhv_class[k].mask_bit)) {
		c->masked++;
		return;
	}
	ring = __va(c->addr);
	idx = be64_to_cpu(READ_ONCE(lp->dtl_idx));
	e = &ring[idx % N_DISPATCH_LOG];
	memset(e, 0, sizeof(*e));
	e->dispatch_reason = 3;			/* decrementer interrupt */
	e->preempt_reason = fhv_class[k].preempt_reason;
	e->processor_id = cpu_to_be16(8 + cpu);
	e->enqueue_to_dispatch_time = cpu_to_be32(512);	/* 1 us at 512 MHz */
	e->ready_to_enqueue_time = cpu_to_be32(256);
	e->waiting_to_ready_time = cpu_to_be32(1024);
	e->timebase = cpu_to_be64(get_tb());
	e->fault_addr = cpu_to_be64(k == FHV_FAULT ? 0x10000000ull + c->seq * 4096 : 0);
	/* a known kernel function, so who pays can be checked to name it */
	e->srr0 = cpu_to_be64((unsigned long)fake_hv_dtl_registered + 8);
	e->srr1 = cpu_to_be64(0x8000000000001033ull);
	/* The entry first, then the index that publishes it. */
	smp_wmb();
	WRITE_ONCE(lp->dtl_idx, cpu_to_be64(idx + 1));
	c->written[k]++;
}

static void fhv_burst(unsigned int n)
{
	unsigned long flags;
	int cpu;

	spin_lock_irqsave(&fhv_lock, flags);
	for_each_possible_cpu(cpu)
		for (unsigned int i = 0; fhv[cpu].addr && i < n; i++)
			fhv_write(cpu);
	spin_unlock_irqrestore(&fhv_lock, flags);
}

static enum hrtimer_restart fhv_tick(struct hrtimer *t)
{
	unsigned int rate = READ_ONCE(fhv_rate);
	int cpu;

	spin_lock(&fhv_lock);
	for_each_possible_cpu(cpu) {
		struct fhv_cpu *c = &fhv[cpu];
		unsigned int n;

		if (!c->addr)
			continue;
		c->carry += rate;		/* rate per s = rate / 100 per 10 ms tick */
		n = c->carry / 100;
		c->carry %= 100;
		while (n--)
			fhv_write(cpu);
	}
	spin_unlock(&fhv_lock);
	hrtimer_forward_now(t, ns_to_ktime(FHV_TICK_NS));
	return HRTIMER_RESTART;
}

static ssize_t fhv_ctl_write(struct file *f, const char __user *ubuf, size_t len, loff_t *pos)
{
	char buf[32];
	unsigned int v;
	unsigned long flags;
	int cpu;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sscanf(buf, "rate %u", &v) == 1) {
		WRITE_ONCE(fhv_rate, v);
	} else if (sscanf(buf, "burst %u", &v) == 1 && v <= FHV_MAX_BURST) {
		fhv_burst(v);
	} else if (!strncmp(buf, "reset", 5)) {
		spin_lock_irqsave(&fhv_lock, flags);
		for_each_possible_cpu(cpu) {
			memset(fhv[cpu].written, 0, sizeof(fhv[cpu].written));
			fhv[cpu].masked = 0;
		}
		spin_unlock_irqrestore(&fhv_lock, flags);
	} else {
		return -EINVAL;
	}
	return len;
}

static int fhv_stats_show(struct seq_file *m, void *v)
{
	unsigned long flags;
	int cpu;

	spin_lock_irqsave(&fhv_lock, flags);
	for_each_possible_cpu(cpu) {
		struct fhv_cpu *c = &fhv[cpu];

		seq_printf(m, "cpu%d registered %d written %llu cede %llu preempt %llu fault %llu masked %llu regs %lu unregs %lu mask %u\n",
			   cpu, c->addr != 0,
			   c->written[0] + c->written[1] + c->written[2],
			   c->written[FHV_CEDE], c->written[FHV_PREEMPT],
			   c->written[FHV_FAULT], c->masked, c->regs, c->unregs,
			   (unsigned int)READ_ONCE(lppaca_of(cpu).dtl_enable_mask));
	}
	spin_unlock_irqrestore(&fhv_lock, flags);
	return 0;
}

static int fhv_stats_open(struct inode *inode, struct file *f)
{
	return single_open(f, fhv_stats_show, NULL);
}

static const struct file_operations fhv_ctl_fops = {
	.write = fhv_ctl_write,
};

static const struct file_operations fhv_stats_fops = {
	.open = fhv_stats_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

static int __init fhv_init(void)
{
	struct dentry *d = debugfs_create_dir("fake_hv_dtl", NULL);

	debugfs_create_file("ctl", 0200, d, NULL, &fhv_ctl_fops);
	debugfs_create_file("stats", 0444, d, NULL, &fhv_stats_fops);
	/* hrtimer_init() is gone from 6.15 on; kernel/patches/0003 gives 6.12 this */
	hrtimer_setup(&fhv_timer, fhv_tick, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	hrtimer_start(&fhv_timer, ns_to_ktime(FHV_TICK_NS), HRTIMER_MODE_REL);
	pr_info("fake_hv_dtl: TEST ONLY: writing DTL entries for QEMU\n");
	return 0;
}
late_initcall(fhv_init);
