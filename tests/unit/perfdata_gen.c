/* perfdata_gen.c - see perfdata_gen.h. Little-endian, as on ppc64le. */
#include "perfdata_gen.h"

#include <stdlib.h>
#include <string.h>

#define ATTR_SIZE 136		/* PERF_ATTR_SIZE_VER8 */
#define HDR_SIZE 104

struct pd_gen {
	uint8_t *d;
	size_t n, cap;
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
	return calloc(1, sizeof(struct pd_gen));
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
	size_t pad = (8 - len % 8) % 8;	/* perf pads AUX data to 8 bytes */

	header(g, 71, 48);
	put64(g, len + pad);
	put64(g, pos);
	put64(g, 0);		/* reference */
	put32(g, cpu);		/* idx: one mmap per CPU */
	put32(g, (uint32_t)-1);	/* tid */
	put32(g, cpu);
	put32(g, 0);
	put(g, data, len);
	put(g, NULL, pad);
}

uint8_t *pd_gen__finish(struct pd_gen *g, int pipe, size_t *len)
{
	struct pd_gen f = { 0 };
	uint64_t attrs = HDR_SIZE, attrs_size = ATTR_SIZE + 16;
	uint64_t data = attrs + attrs_size;
	uint8_t attr[ATTR_SIZE] = { 0 };
	uint32_t v;

	put(&f, "PERFILE2", 8);
	if (pipe) {
		put64(&f, 16);
		put(&f, g->d, g->n);
		goto done;
	}
	put64(&f, HDR_SIZE);
	put64(&f, ATTR_SIZE);
	put64(&f, attrs);
	put64(&f, attrs_size);
	put64(&f, data);
	put64(&f, g->n);
	put64(&f, 0);		/* event_types: unused */
	put64(&f, 0);
	put(&f, NULL, 32);	/* adds_features: none */
	v = 12;			/* the vpa_dtl PMU's dynamic type */
	memcpy(attr, &v, 4);
	v = ATTR_SIZE;
	memcpy(attr + 4, &v, 4);
	attr[8] = 7;		/* config: dtl_all */
	put(&f, attr, sizeof(attr));
	put64(&f, 0);		/* the attr's id section: none */
	put64(&f, 0);
	put(&f, g->d, g->n);
done:
	free(g->d);
	free(g);
	*len = f.n;
	return f.d;
}

void pd_gen__boottb(uint8_t rec[48], uint64_t boot_tb, uint64_t tb_freq)
{
	memset(rec, 0, 48);
	memcpy(rec, &boot_tb, 8);
	memcpy(rec + 8, &tb_freq, 8);
}
