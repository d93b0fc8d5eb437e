// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostile-names.c - writes tests/data/hostile-names.dtl (make hostile-names):
 * a recording whose tasks and cgroups carry what a guest may choose (ESC
 * and OSC sequences, C1 controls, bytes that are not UTF-8, quotes,
 * backslashes, newlines) beside valid UTF-8, so tests/cli.sh can check that
 * every output passes its strict parser whatever the names.
 */
#include <stdio.h>
#include <string.h>

#include "dtl/dtl.h"
#include "format/record.h"

static const struct {
	int32_t pid;
	const char *comm, *cgroup;
} tasks[] = {
	{ 42, "ev\x1b[31mil\xc2\x9b", "/a\x1b]0;pwn\x07/b\xff\xfe" },
	{ 43, "q\"uo\\te\n", "/sys\"tem.slice/x\\y\nz.service" },
	{ 44, "\xe2\x82", "/\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80" },
	{ 45, "caf\xc3\xa9", "/k\xc3\xa4se.slice/\xe2\x82\xac.service" },
	/* past a text column's 40 characters, and its 40th byte inside a character */
	{ 46, "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac",
	  "/x\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac"
	  "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac"
	  "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac"
	  "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac"
	  "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac"
	  "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac" },
};
#define NTASKS (sizeof(tasks) / sizeof(tasks[0]))

int main(int argc, char **argv)
{
	struct dtl_rec_meta m;
	struct dtl_rec_writer *w;
	char err[512];
	uint64_t tb = 1000000;

	if (argc != 2) {
		fprintf(stderr, "usage: hostile-names FILE\n");
		return 2;
	}
	memset(&m, 0, sizeof(m));
	snprintf(m.dtltop_version, sizeof(m.dtltop_version), "0.3.0");
	snprintf(m.host, sizeof(m.host), "hostile");
	snprintf(m.source, sizeof(m.source), "sim");
	m.tb_freq = DTL_DEFAULT_TB_FREQ;
	m.start_tb = tb;
	m.start_ns = 1735689600000000000ull;
	m.interval_s = 1;
	m.mask = DTL_MASK_ALL;
	m.nr_cpus = 2;
	dtl_cpuset__parse(&m.cpus, "0-1", err, sizeof(err));
	w = dtl_rec_writer__open(argv[1], &m, err, sizeof(err));
	if (!w) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	for (int t = 0; t < 3; t++) {
		for (unsigned int cpu = 0; cpu < 2; cpu++) {
			struct dtl_switch sw[NTASKS];
			uint8_t e[NTASKS][DTL_ENTRY_SIZE];

			for (size_t k = 0; k < NTASKS; k++) {
				struct dtl_rec r = { 0 };

				sw[k] = (struct dtl_switch){ tb + (uint64_t)k * 100000, tasks[k].pid,
							     tasks[k].comm, tasks[k].cgroup };
				/* preempted inside the task's turn: 2000 ticks of steal each */
				r.timebase = tb + (uint64_t)k * 100000 + 52000;
				r.preempt_reason = 4;
				r.dispatch_reason = 7;
				r.enqueue_to_dispatch = 2000;
				r.srr0 = 0xc000000000123450ull;
				r.srr1 = 0x8000000000001033ull;
				dtl_rec__encode(&r, e[k]);
			}
			if (dtl_rec_writer__switches(w, cpu, sw, NTASKS) ||
			    dtl_rec_writer__entries(w, cpu, e[0], NTASKS, 0, 0))
				return 1;
		}
		tb += DTL_DEFAULT_TB_FREQ;
		if (dtl_rec_writer__tick(w, m.start_ns + (uint64_t)(t + 1) * 1000000000ull, 1, tb))
			return 1;
	}
	return dtl_rec_writer__close(w, err, sizeof(err)) ? 1 : 0;
}
