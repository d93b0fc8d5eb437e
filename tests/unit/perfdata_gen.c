/* SPDX-License-Identifier: GPL-2.0-only */
/* perfdata_gen.c - see perfdata_gen.h. Little-endian, as on ppc64le. */
#include "perfdata_gen.h"

#include <stdlib.h>
#include <string.h>

#define ATTR_SIZE 136		/* PERF_ATTR_SIZE_VER8 */
#define HDR_SIZE 104
#define PMU_TYPE 12		/* the vpa_dtl PMU's dynamic type */
/* What perf record -a sets: IP, TID, TIME, CPU, IDENTIFIER; sample_id_all. */
#define SAMPLE_TYPE 0x10087ull
#define MAX_CPUS 64

struct pd_gen {
	uint8_t *d;
	size_t n, cap;
	uint64_t aux_at[1024];	/* data offsets of the AUXTRACE records, for the index */
	uint64_t aux_sz[1024];
	size_t naux;
	uint64_t config;
	uint64_t time;
};

static void put(struct pd_gen *g, const void *p, size_t len)
{
	if (g->n + len > g->cap) {
		g->cap = (g->n + len) * 2;
		g->d = realloc(g->d, g->cap);
	}
	if (p)
		memcpy(g->d + g->n, p, len);
	else
		memset(g->d + g->n, 0, len);
	g->n += len;
}

static void put64(struct pd_gen *g, uint64_t v) { put(g, &v, 8); }
static void put32(struct pd_gen *g, uint32_t v) { put(g, &v, 4); }

static void header(struct pd_gen *g, uint32_t type, uint16_t size)
{
	uint16_t misc = 0;

	put32(g, type);
	put(g, &misc, 2);
	put(g, &size, 2);
}

struct pd_gen *pd_gen__new(void)
{
	struct pd_gen *g = calloc(1, sizeof(struct pd_gen));

	g->config = 7;
	return g;
}

void pd_gen__config(struct pd_gen *g, uint64_t config)
{
	g->config = config;
}

/* One id per CPU, as perf gives each CPU's event its own. */
static uint64_t id_of(uint32_t cpu)
{
	return 300 + cpu;
}

/* The sample_id trailer of SAMPLE_TYPE: pid/tid, time, cpu/res, identifier. */
static void sample_id(struct pd_gen *g, uint32_t cpu)
{
	put64(g, 0);
	put64(g, g->time += 1000);
	put32(g, cpu);
	put32(g, 0);
	put64(g, id_of(cpu));
}

void pd_gen__aux(struct pd_gen *g, uint32_t cpu, uint64_t offset, uint64_t size, uint64_t flags)
{
	header(g, 11, 8 + 24 + 32);
	put64(g, offset);
	put64(g, size);
	put64(g, flags);
	sample_id(g, cpu);
}

void pd_gen__lost(struct pd_gen *g, uint32_t cpu, uint64_t lost)
{
	header(g, 2, 8 + 16 + 32);
	put64(g, id_of(cpu));
	put64(g, lost);
	sample_id(g, cpu);
}

static void attr(uint8_t a[ATTR_SIZE], uint64_t config)
{
	uint32_t v = PMU_TYPE;
	uint64_t st = SAMPLE_TYPE, flags = 1ull | 1ull << 18;	/* disabled, sample_id_all */

	memset(a, 0, ATTR_SIZE);
	memcpy(a, &v, 4);
	v = ATTR_SIZE;
	memcpy(a + 4, &v, 4);
	memcpy(a + 8, &config, 8);
	memcpy(a + 24, &st, 8);
	memcpy(a + 40, &flags, 8);
}

/* The trailer of a task record: whose it is, and when. */
static void task_id(struct pd_gen *g, uint32_t cpu, uint32_t pid, uint64_t ns)
{
	put32(g, pid);
	put32(g, pid);
	put64(g, ns);
	put32(g, cpu);
	put32(g, 0);
	put64(g, 900 + cpu);	/* the tracking event's id: not vpa_dtl's */
}

void pd_gen__switch(struct pd_gen *g, uint32_t cpu, uint64_t ns, int out, uint32_t pid,
		    uint32_t next_prev)
{
	uint16_t misc = out ? 1u << 13 : 0, size = 8 + 8 + 32;

	put32(g, 15);		/* PERF_RECORD_SWITCH_CPU_WIDE */
	put(g, &misc, 2);
	put(g, &size, 2);
	put32(g, next_prev);
	put32(g, next_prev);
	task_id(g, cpu, pid, ns);
}

void pd_gen__comm(struct pd_gen *g, uint32_t cpu, uint64_t ns, uint32_t pid, const char *comm)
{
	char name[16] = { 0 };

	strncpy(name, comm, sizeof(name) - 1);
	header(g, 3, 8 + 8 + 16 + 32);
	put32(g, pid);
	put32(g, pid);
	put(g, name, 16);
	task_id(g, cpu, pid, ns);
}

void pd_gen__fork(struct pd_gen *g, uint32_t cpu, uint64_t ns, uint32_t pid, uint32_t ppid)
{
	header(g, 7, 8 + 24 + 32);
	put32(g, pid);
	put32(g, ppid);
	put32(g, pid);
	put32(g, ppid);
	put64(g, ns);
	task_id(g, cpu, pid, ns);
}

void pd_gen__auxtrace_info(struct pd_gen *g, uint32_t type)
{
	header(g, 70, 8 + 8 + 8);
	put32(g, type);
	put32(g, 0);
	put64(g, 0);		/* priv[POWERPC_VPADTL_TYPE], never filled by perf */
}

void pd_gen__other(struct pd_gen *g, uint32_t type, size_t payload)
{
	header(g, type, (uint16_t)(8 + payload));
	put(g, NULL, payload);
}

void pd_gen__auxtrace(struct pd_gen *g, uint32_t cpu, uint64_t pos, const void *data,
		      size_t len)
{
	pd_gen__auxtrace_idx(g, cpu, cpu, pos, data, len);
}

void pd_gen__auxtrace_idx(struct pd_gen *g, uint32_t idx, uint32_t cpu, uint64_t pos,
			  const void *data, size_t len)
{
	size_t pad = (8 - len % 8) % 8;	/* perf pads AUX data to 8 bytes */

	if (g->naux < 1024) {
		g->aux_at[g->naux] = g->n;
		g->aux_sz[g->naux++] = 48 + len + pad;
	}
	header(g, 71, 48);
	put64(g, len + pad);
	put64(g, pos);
	put64(g, 0);		/* reference */
	put32(g, idx);		/* the mmap's index: the CPU's unless CPUs are sparse */
	put32(g, (uint32_t)-1);	/* tid */
	put32(g, cpu);
	put32(g, 0);
	put(g, data, len);
	put(g, NULL, pad);
}

/* A string feature as perf writes it: u32 length (padded to 64), the bytes. */
static void put_string(struct pd_gen *f, const char *str)
{
	uint32_t len = (uint32_t)((strlen(str) + 1 + 63) / 64 * 64);
	char buf[256] = { 0 };

	put32(f, len);
	memcpy(buf, str, strlen(str));
	put(f, buf, len);
}

uint8_t *pd_gen__finish_host(struct pd_gen *g, int pipe, const char *host, size_t *len)
{
	struct pd_gen f = { 0 };
	uint64_t attrs = HDR_SIZE, attrs_size = ATTR_SIZE + 16;
	uint64_t ids = attrs + attrs_size, data = ids + MAX_CPUS * 8, sec, feat;
	uint8_t a[ATTR_SIZE], bits[32] = { 0 };

	attr(a, g->config);
	put(&f, "PERFILE2", 8);
	if (pipe) {
		/* HEADER_ATTR: the attr, then its ids, before any other record */
		put64(&f, 16);
		header(&f, 64, (uint16_t)(8 + ATTR_SIZE + MAX_CPUS * 8));
		put(&f, a, ATTR_SIZE);
		for (uint32_t c = 0; c < MAX_CPUS; c++)
			put64(&f, id_of(c));
		put(&f, g->d, g->n);
		goto done;
	}
	put64(&f, HDR_SIZE);
	put64(&f, attrs_size);	/* attr_size: an attr and its ids section */
	put64(&f, attrs);
	put64(&f, attrs_size);
	put64(&f, data);
	put64(&f, g->n);
	put64(&f, 0);		/* event_types: unused */
	put64(&f, 0);
	bits[0] = 1 << 3;	/* HEADER_HOSTNAME */
	bits[1] = 1 << 4;	/* HEADER_EVENT_DESC (12) */
	bits[2] = 1 << 3;	/* HEADER_AUXTRACE (19) */
	put(&f, bits, 32);
	put(&f, a, ATTR_SIZE);
	put64(&f, ids);
	put64(&f, MAX_CPUS * 8);
	for (uint32_t c = 0; c < MAX_CPUS; c++)
		put64(&f, id_of(c));
	put(&f, g->d, g->n);
	/* the feature sections' headers, in bit order, then their bodies */
	sec = f.n;
	put(&f, NULL, 3 * 16);
	feat = f.n;
	put_string(&f, host);
	memcpy(f.d + sec, &feat, 8);
	feat = f.n - feat;
	memcpy(f.d + sec + 8, &feat, 8);
	feat = f.n;
	put32(&f, 1);			/* EVENT_DESC: one event */
	put32(&f, ATTR_SIZE);
	put(&f, a, ATTR_SIZE);
	put32(&f, MAX_CPUS);
	put_string(&f, g->config == 7 ? "vpa_dtl/dtl_all/" : "vpa_dtl/config/");
	for (uint32_t c = 0; c < MAX_CPUS; c++)
		put64(&f, id_of(c));
	memcpy(f.d + sec + 16, &feat, 8);
	feat = f.n - feat;
	memcpy(f.d + sec + 24, &feat, 8);
	feat = f.n;
	put64(&f, g->naux);		/* AUXTRACE index: file offset and size of each */
	for (size_t i = 0; i < g->naux; i++) {
		put64(&f, data + g->aux_at[i]);
		put64(&f, g->aux_sz[i]);
	}
	memcpy(f.d + sec + 32, &feat, 8);
	feat = f.n - feat;
	memcpy(f.d + sec + 40, &feat, 8);
done:
	free(g->d);
	free(g);
	*len = f.n;
	return f.d;
}

uint8_t *pd_gen__finish(struct pd_gen *g, int pipe, size_t *len)
{
	return pd_gen__finish_host(g, pipe, "lpar1", len);
}

void pd_gen__boottb(uint8_t rec[48], uint64_t boot_tb, uint64_t tb_freq)
{
	memset(rec, 0, 48);
	memcpy(rec, &boot_tb, 8);
	memcpy(rec + 8, &tb_freq, 8);
}
