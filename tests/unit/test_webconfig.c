// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_webconfig.c - --web-config: node_exporter's web configuration as
 * dtltop serves it, and every way a file can be wrong said on one line.
 */
#include <stdlib.h>
#include <string.h>

#include "t.h"
#include "view/webconfig.h"

#define HASH "$2y$05$QZWXQe4MkVBPox4uUqeEt.dMYSiHhfVVcMfMJmBAfAg9r5Mlu//tu"

static const char good[] =
	"---\n"
	"# as node_exporter's docs write it\n"
	"tls_server_config:\n"
	"  cert_file: server.crt   # beside this file\n"
	"  key_file: \"/etc/dtltop/server.key\"\r\n"
	"\n"
	"basic_auth_users:\n"
	"  prometheus: '" HASH "'\n"
	"  alice: " HASH "\n";

TEST(webconfig_reads_tls_and_users)
{
	struct dtl_webconfig *c = malloc(sizeof(*c));
	char err[256];

	CHECK_EQ(dtl_webconfig__parse(good, sizeof(good) - 1, "w.yml", c, err, sizeof(err)), 0);
	CHECK_STR(c->cert_file, "server.crt");
	CHECK_STR(c->key_file, "/etc/dtltop/server.key");
	CHECK_EQ(c->nusers, 2);
	CHECK_STR(c->users[0].name, "prometheus");
	CHECK_STR(c->users[1].name, "alice");
	CHECK_STR(c->users[1].hash, HASH);
	/* users only: plain HTTP with a password; an empty file: neither */
	CHECK_EQ(dtl_webconfig__parse("basic_auth_users:\n  a: " HASH "\n",
				      strlen("basic_auth_users:\n  a: " HASH "\n"), "w", c, err,
				      sizeof(err)), 0);
	CHECK(!c->cert_file[0] && c->nusers == 1);
	CHECK_EQ(dtl_webconfig__parse("", 0, "w", c, err, sizeof(err)), 0);
	CHECK(!c->cert_file[0] && !c->nusers);
	free(c);
}

TEST(webconfig_refuses_what_it_does_not_serve_by_name)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "tls_server_config:\n  cert_file: a\n", "w: tls_server_config needs both" },
		{ "tls_server_config:\n  client_auth_type: RequireAndVerifyClientCert\n",
		  "w:2: tls_server_config: client_auth_type: not served by dtltop" },
		{ "tls_server_config:\n  min_version: TLS13\n", "w:2: tls_server_config: min_version: not served" },
		{ "tls_server_config:\n  colour: red\n", "w:2: tls_server_config: colour: unknown key" },
		{ "http_server_config:\n  http2: false\n", "w:1: http_server_config: not served by dtltop" },
		{ "basic_auth:\n", "w:1: basic_auth: unknown key" },
		{ "tls_server_config: a\n", "w:1: tls_server_config wants its keys on the lines below" },
		{ "  cert_file: a\n", "w:1: an indented line outside a section" },
		{ "tls_server_config:\n\tcert_file: a\n", "w:2: a tab in the indentation" },
		{ "tls_server_config\n", "w:1: not a 'key: value' line" },
		{ "tls_server_config:\n  cert_file:a\n", "w:2: not a 'key: value' line" },
		{ "tls_server_config:\n  cert_file: 'a\n", "w:2: cert_file: an unterminated quote" },
		{ "tls_server_config:\n  cert_file: \"a\\n\"\n", "w:2: cert_file: a backslash escape" },
		{ "tls_server_config:\n  cert_file: ''\n", "w:2: cert_file must be 1 to" },
		{ "basic_auth_users:\n  a: secret\n", "w:2: user a: not a bcrypt hash" },
		{ "basic_auth_users:\n  a: $1$abc$defghijklmnopqrstuvwxyz\n", "w:2: user a: not a bcrypt hash" },
		{ "basic_auth_users:\n  a: " HASH "\n  a: " HASH "\n", "w:3: user a given twice" },
		{ "basic_auth_users:\n  'a b': " HASH "\n", "w:2: a key with spaces or quotes" },
		{ "basic_auth_users:\n  a\x01: " HASH "\n", "w:2: a control character in a key" },
	};
	struct dtl_webconfig *c = malloc(sizeof(*c));
	char err[256], *big;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		CHECK_EQ(dtl_webconfig__parse(bad[i].text, strlen(bad[i].text), "w", c, err,
					      sizeof(err)), -1);
		if (!strstr(err, bad[i].want) || strchr(err, '\n'))
			T_FAIL("config %zu: '%s', want '%s'", i, err, bad[i].want);
	}
	CHECK_EQ(dtl_webconfig__parse("a\0b", 3, "w", c, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "w: not a text file");
	big = malloc(64 * 1024);
	strcpy(big, "basic_auth_users:\n");
	for (int i = 0; i < 33; i++)
		sprintf(big + strlen(big), "  u%d: %s\n", i, HASH);
	CHECK_EQ(dtl_webconfig__parse(big, strlen(big), "w", c, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "w:34: more than 32 basic_auth_users");
	memset(big, 'x', 5000);
	CHECK_EQ(dtl_webconfig__parse(big, 5000, "w", c, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "w:1: a line longer than");
	free(big);
	free(c);
}

/* Cut anywhere, a good file parses or says why on one line. */
TEST(webconfig_truncated_anywhere)
{
	struct dtl_webconfig *c = malloc(sizeof(*c));
	char err[256];

	for (size_t n = 0; n <= sizeof(good) - 1; n++) {
		err[0] = '\0';
		if (dtl_webconfig__parse(good, n, "w", c, err, sizeof(err)) &&
		    (!err[0] || strchr(err, '\n') || strncmp(err, "w", 1)))
			T_FAIL("cut at %zu: '%s'", n, err);
	}
	free(c);
}

#ifdef DTLTOP_HTTP
/* The hash is libcrypt's to check: right password, wrong one, unknown user. */
TEST(webconfig_verifies_with_crypt)
{
	struct dtl_web w = { 0 };

	w.cfg.nusers = 1;
	strcpy(w.cfg.users[0].name, "prom");
	strcpy(w.cfg.users[0].hash, "$2b$05$QZWXQe4MkVBPox4uUqeEt.dMYSiHhfVVcMfMJmBAfAg9r5Mlu//tu");
	CHECK(dtl_web__verify(&w, "prom", "dtltop-test"));
	CHECK(!dtl_web__verify(&w, "prom", "dtltop-tesT"));
	CHECK(!dtl_web__verify(&w, "prom", ""));
	CHECK(!dtl_web__verify(&w, "other", "dtltop-test"));
}
#endif
