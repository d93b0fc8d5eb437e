/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cycle.c - runs inside the QEMU test (tests/qemu/init.sh): vpa_dtl events
 * on every CPU, with their ring and AUX area mapped as perf does, opened and
 * closed N times ("open N"), or opened once and disabled/enabled N times
 * ("toggle N"). What it checks is the kernel's state afterwards; this only
 * says whether every syscall succeeded, and after "toggle" that entries
 * still reach every AUX area (the hypervisor must be writing). "handoff N"
 * opens, forks, and lets the child close last, N times: the events are
 * destroyed by another task than the one that created them. "dump MS"
 * opens CPU 0 for MS ms and prints what the rings show, for diagnosing.
 * "burn CPU SECS" is the busy task of who pays: named dtl-burner, pinned to
 * CPU, it spins for SECS seconds.
 */
#define _GNU_SOURCE		/* sched_setaffinity */
#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_CPUS 64
#define DATA_PAGES 8
#define AUX_PAGES 16

struct ev {
	int fd;
	void *ring, *aux;
};

static long page;

static void nap(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	nanosleep(&ts, NULL);
}

static int open_one(struct ev *e, int type, int cpu)
{
	struct perf_event_attr a;
	struct perf_event_mmap_page *pg;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = (unsigned int)type;
	a.config = 7;
	a.sample_period = 10000000;	/* 10 ms */
	a.disabled = 1;			/* enabled once mapped, as perf does */
	e->fd = (int)syscall(__NR_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (e->fd < 0)
		return -1;
	e->ring = mmap(NULL, (1 + DATA_PAGES) * page, PROT_READ | PROT_WRITE, MAP_SHARED, e->fd, 0);
	if (e->ring == MAP_FAILED)
		return -1;
	pg = e->ring;
	pg->aux_offset = (1 + DATA_PAGES) * page;
	pg->aux_size = AUX_PAGES * page;
	e->aux = mmap(NULL, AUX_PAGES * page, PROT_READ | PROT_WRITE, MAP_SHARED, e->fd,
		      (off_t)pg->aux_offset);
	if (e->aux == MAP_FAILED)
		return -1;
	return ioctl(e->fd, PERF_EVENT_IOC_ENABLE, 0);
}

/*
 * Read nothing but free the AUX area, as a reader would: a full area stops
 * the driver writing (and slow TCG fills 64 KiB in a second at rate 1000),
 * which would look like the toggles broke capture.
 */
static unsigned long long consume(struct ev *e)
{
	struct perf_event_mmap_page *pg = e->ring;
	unsigned long long head = __atomic_load_n(&pg->aux_head, __ATOMIC_ACQUIRE);

	__atomic_store_n(&pg->aux_tail, head, __ATOMIC_RELEASE);
	return head;
}

static void close_one(struct ev *e)
{
	munmap(e->aux, AUX_PAGES * page);
	munmap(e->ring, (1 + DATA_PAGES) * page);
	close(e->fd);
}

static int burn(int cpu, int secs)
{
	struct timespec t0, t;
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one) || prctl(PR_SET_NAME, "dtl-burner")) {
		perror("cycle burn");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while (t.tv_sec - t0.tv_sec < secs);
	return 0;
}

int main(int argc, char **argv)
{
	struct ev ev[MAX_CPUS];
	int type, ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN), n;
	FILE *f = fopen("/sys/bus/event_source/devices/vpa_dtl/type", "r");

	if (argc == 4 && !strcmp(argv[1], "burn"))
		return burn(atoi(argv[2]), atoi(argv[3]));
	page = sysconf(_SC_PAGESIZE);
	if (argc != 3 || (n = atoi(argv[2])) <= 0 || ncpu > MAX_CPUS) {
		fprintf(stderr, "usage: cycle open|toggle N\n");
		return 2;
	}
	if (!f || fscanf(f, "%d", &type) != 1) {
		fprintf(stderr, "cycle: no vpa_dtl PMU\n");
		return 1;
	}
	fclose(f);
	if (!strcmp(argv[1], "dump")) {
		struct perf_event_mmap_page *pg;
		unsigned long long cnt = 0;
		const unsigned char *a;

		if (open_one(&ev[0], type, 0)) {
			fprintf(stderr, "cycle: open: %s\n", strerror(errno));
			return 1;
		}
		nap(n * 1000L);
		pg = ev[0].ring;
		if (read(ev[0].fd, &cnt, sizeof(cnt)) != sizeof(cnt))
			fprintf(stderr, "cycle: read: %s\n", strerror(errno));
		printf("data_head %llu data_tail %llu aux_head %llu aux_tail %llu count %llu\n",
		       (unsigned long long)pg->data_head, (unsigned long long)pg->data_tail,
		       (unsigned long long)pg->aux_head, (unsigned long long)pg->aux_tail, cnt);
		for (unsigned long long off = 0; off + 8 <= pg->data_head && off < 4096;) {
			const struct perf_event_header *h = (const void *)((char *)ev[0].ring + page + off);
			const unsigned long long *v = (const void *)(h + 1);

			printf("record type %u size %u: %llu %llu %llu\n", h->type, h->size,
			       v[0], v[1], h->size >= 32 ? v[2] : 0);
			if (h->size < 8)
				break;
			off += h->size;
		}
		a = ev[0].aux;
		for (int i = 0; i < 3; i++) {
			for (int k = 0; k < 48; k++)
				printf("%02x", a[i * 48 + k]);
			printf("\n");
		}
		return 0;
	}
	if (!strcmp(argv[1], "handoff")) {
		for (int i = 0; i < n; i++) {
			pid_t pid;
			int st;

			for (int c = 0; c < ncpu; c++)
				if (open_one(&ev[c], type, c)) {
					fprintf(stderr, "cycle: handoff %d cpu %d: %s\n", i, c,
						strerror(errno));
					return 1;
				}
			pid = fork();
			if (pid == 0) {
				nap(20000);	/* the parent's copies go first */
				for (int c = 0; c < ncpu; c++)
					close_one(&ev[c]);
				_exit(0);
			}
			for (int c = 0; c < ncpu; c++)
				close_one(&ev[c]);
			if (pid < 0 || waitpid(pid, &st, 0) != pid || st) {
				fprintf(stderr, "cycle: handoff %d: the child failed\n", i);
				return 1;
			}
		}
	} else if (!strcmp(argv[1], "open")) {
		for (int i = 0; i < n; i++) {
			for (int c = 0; c < ncpu; c++)
				if (open_one(&ev[c], type, c)) {
					fprintf(stderr, "cycle: open %d cpu %d: %s\n", i, c, strerror(errno));
					return 1;
				}
			nap(2000);
			for (int c = 0; c < ncpu; c++)
				close_one(&ev[c]);
		}
	} else {
		for (int c = 0; c < ncpu; c++)
			if (open_one(&ev[c], type, c)) {
				fprintf(stderr, "cycle: open cpu %d: %s\n", c, strerror(errno));
				return 1;
			}
		for (int i = 0; i < n; i++) {
			for (int c = 0; c < ncpu; c++) {
				consume(&ev[c]);
				if (ioctl(ev[c].fd, PERF_EVENT_IOC_DISABLE, 0) ||
				    ioctl(ev[c].fd, PERF_EVENT_IOC_ENABLE, 0)) {
					fprintf(stderr, "cycle: toggle %d cpu %d: %s\n", i, c,
						strerror(errno));
					return 1;
				}
			}
			nap(1000);
		}
		/* still capturing after all that? */
		unsigned long long before[MAX_CPUS];

		for (int c = 0; c < ncpu; c++)
			before[c] = consume(&ev[c]);
		nap(500000);
		for (int c = 0; c < ncpu; c++)
			if (((struct perf_event_mmap_page *)ev[c].ring)->aux_head == before[c]) {
				fprintf(stderr, "cycle: cpu %d captures nothing after %d toggles\n",
					c, n);
				return 1;
			}
		for (int c = 0; c < ncpu; c++)
			close_one(&ev[c]);
	}
	printf("cycle: %s x %d on %d CPUs\n", argv[1], n, ncpu);
	return 0;
}
