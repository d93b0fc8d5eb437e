/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * http.h - the exporter's HTTP side (libmicrohttpd): GET /metrics serves
 * the latest exposition, made by the loop once per interval; scrapes only
 * take a reference to it, so no client, slow or many, ever waits on
 * capture or makes capture wait.
 */
#ifndef DTL_HTTP_H
#define DTL_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

struct dtl_listen_addr {
	struct sockaddr_storage ss;
	socklen_t len;
	char text[80];		/* "127.0.0.1:9464", "[::1]:9464" */
};

/* "[ADDR:]PORT", "[::1]:PORT": 0, or -1 with err naming s. ADDR defaults to 127.0.0.1. */
int dtl_http__parse_addr(const char *s, struct dtl_listen_addr *a, char *err, size_t errlen);
/* An Accept header asks for OpenMetrics: named, and not refused with q=0. */
bool dtl_http__accepts_om(const char *accept);

struct dtl_http;

/*
 * Listening on a, in a thread of its own, with web's TLS and users (NULL:
 * plain HTTP, anyone; taken, freed at stop or failure); NULL with err.
 */
struct dtl_web;
struct dtl_http *dtl_http__start(const struct dtl_listen_addr *a, struct dtl_web *web, char *err,
				 size_t errlen);
/*
 * The expositions to serve from now on (taken: freed when the last scrape
 * that sent them is done). -1 out of memory: the old ones stay.
 */
int dtl_http__publish(struct dtl_http *h, char *prom, size_t prom_len, char *om, size_t om_len);
/* Scrapes served (answered 200 on /metrics) so far. */
unsigned long dtl_http__scrapes(struct dtl_http *h);
void dtl_http__stop(struct dtl_http *h);

#endif
