/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * exporter.c - the exporter view (--listen, --textfile): no screen; each
 * interval the since-start counters become an exposition, served over HTTP
 * and/or written to DIR/dtltop.prom by temporary file and rename, so
 * node_exporter never reads half a file.
 */
#include "exporter.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../platform/replace.h"
#include "http.h"
#include "webconfig.h"
#include "metrics.h"

struct exporter {
	struct dtl_view view;
	struct dtl_http *http;
	const char *dir;
	char path[4096];
	unsigned long long textfile_errors;	/* failed writes since the start */
	bool failing;				/* the last write failed */
};

/* The exposition as one malloc'd buffer; NULL out of memory. */
static char *render(const struct exporter *e, const struct dtl_model *m, bool om, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		return NULL;
	if (dtl_metrics__families(f, m, om)) {
		fclose(f);
		free(buf);
		return NULL;
	}
	if (e->dir)
		dtl_metrics__counter(f, om, "dtl_textfile_write_errors",
				     "Writes of the --textfile file that failed (retried each interval).",
				     e->textfile_errors);
	dtl_metrics__end(f, om);
	if (ferror(f)) {
		fclose(f);
		free(buf);
		return NULL;
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

struct bytes {
	const char *p;
	size_t n;
};

static int put_bytes(FILE *f, void *ctx)
{
	const struct bytes *b = ctx;

	fwrite(b->p, 1, b->n, f);
	return 0;
}

/*
 * A collector's outage (disk full, a name taken) is not the exporter's end:
 * said once when it starts and once when it is over, counted, and retried
 * each interval while HTTP goes on serving.
 */
static void write_textfile(struct exporter *e, const char *buf, size_t len)
{
	struct bytes b = { buf, len };
	char err[512];

	if (dtl_replace__file(e->path, 0644, put_bytes, &b, err, sizeof(err))) {
		e->textfile_errors++;
		if (!e->failing)
			fprintf(stderr, "dtltop: %s (retried each interval)\n", err);
		e->failing = true;
		return;
	}
	if (e->failing)
		fprintf(stderr, "dtltop: %s written again, after %llu failed writes in all\n",
			e->path, e->textfile_errors);
	e->failing = false;
}

static int put_down(FILE *f, void *ctx)
{
	(void)ctx;
	dtl_metrics__down(f, false);
	return 0;
}

static int exporter_show(struct dtl_view *v, const struct dtl_model *m, bool fresh)
{
	struct exporter *e = v->priv;
	size_t prom_len = 0, om_len = 0;
	char *prom, *om = NULL;

	if ((!fresh && m->intervals) || (!e->http && !e->dir))
		return 0;	/* --serve alone: its viewers show it */
	prom = render(e, m, false, &prom_len);
	if (prom && e->http)
		om = render(e, m, true, &om_len);
	if (!prom || (e->http && !om)) {
		fprintf(stderr, "dtltop: out of memory for the exposition\n");
		free(prom);
		free(om);
		return -1;
	}
	if (e->dir)
		write_textfile(e, prom, prom_len);
	if (e->http)
		return dtl_http__publish(e->http, prom, prom_len, om, om_len) ? -1 : 0;
	free(prom);
	return 0;
}

static const struct dtl_view_ops exporter_ops = {
	.interactive = false,
	.show = exporter_show,
};

struct dtl_view *dtl_exporter__open(const char *listen, const char *web_config, const char *dir)
{
	struct exporter *e = calloc(1, sizeof(*e));
	struct dtl_web *web = NULL;
	bool tls = false;
	struct dtl_listen_addr addr;
	struct stat st;
	char err[512];

	if (!e) {
		fprintf(stderr, "dtltop: out of memory\n");
		return NULL;
	}
	e->view = (struct dtl_view){ &exporter_ops, e };
	if (dir) {
		e->dir = dir;
		if (snprintf(e->path, sizeof(e->path), "%s/dtltop.prom", dir) >= (int)sizeof(e->path)) {
			fprintf(stderr, "dtltop: --textfile directory too long: %s\n", dir);
			goto fail;
		}
		if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
			fprintf(stderr, "dtltop: --textfile %s: not a directory\n", dir);
			goto fail;
		}
		if (access(dir, W_OK)) {
			fprintf(stderr, "dtltop: cannot write to --textfile directory %s: %s\n", dir,
				strerror(errno));
			goto fail;
		}
	}
	if (listen) {
		if (dtl_http__parse_addr(listen, &addr, err, sizeof(err)))
			goto say;
		if (web_config) {
			web = calloc(1, sizeof(*web));
			if (!web || dtl_web__load(web_config, web, err, sizeof(err))) {
				if (!web)
					snprintf(err, sizeof(err), "out of memory");
				free(web);
				goto say;
			}
			tls = web->cert_pem != NULL;
		}
		e->http = dtl_http__start(&addr, web, err, sizeof(err));	/* takes web */
		if (!e->http)
			goto say;
		fprintf(stderr, "dtltop: serving metrics at %s://%s/metrics%s\n", tls ? "https" : "http",
			addr.text, web && web->cfg.nusers ? " to its --web-config users" : "");
	}
	return &e->view;
say:
	fprintf(stderr, "dtltop: %s\n", err);
fail:
	free(e);
	return NULL;
}

int dtl_exporter__close(struct dtl_view *v, int rc)
{
	struct exporter *e;

	if (!v)
		return rc;
	e = v->priv;
	dtl_http__stop(e->http);
	/* node_exporter serves what the file says: not frozen counters as live ones */
	if (e->dir) {
		char err[512];

		if (dtl_replace__file(e->path, 0644, put_down, NULL, err, sizeof(err)) &&
		    unlink(e->path) && errno != ENOENT)
			fprintf(stderr, "dtltop: %s, and cannot remove it: %s\n", err, strerror(errno));
	}
	free(e);
	return rc;
}
