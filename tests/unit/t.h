/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * t.h - a minimal test harness: TEST(name) registers, CHECK* record failures
 * with file:line and keep going, main runs all (or those matching argv[1]).
 */
#ifndef T_H
#define T_H

#include <math.h>
#include <stdio.h>
#include <string.h>

struct t_case {
	const char *name;
	void (*fn)(void);
	struct t_case *next;
};

extern struct t_case *t_cases;
extern int t_failed;

#define TEST(name)                                                         \
	static void name(void);                                            \
	static struct t_case t_case_##name = { #name, name, NULL };        \
	__attribute__((constructor)) static void t_reg_##name(void)        \
	{                                                                  \
		t_case_##name.next = t_cases;                              \
		t_cases = &t_case_##name;                                  \
	}                                                                  \
	static void name(void)

#define T_FAIL(...)                                                        \
	do {                                                               \
		fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);            \
		fprintf(stderr, __VA_ARGS__);                              \
		fputc('\n', stderr);                                       \
		t_failed++;                                                \
	} while (0)

#define CHECK(c) do { if (!(c)) T_FAIL("CHECK(%s) failed", #c); } while (0)
#define CHECK_EQ(a, b)                                                     \
	do {                                                               \
		long long t_a = (long long)(a), t_b = (long long)(b);      \
		if (t_a != t_b)                                            \
			T_FAIL("%s == %lld, want %s == %lld", #a, t_a, #b, t_b); \
	} while (0)
#define CHECK_NEAR(a, b, eps)                                              \
	do {                                                               \
		double t_a = (a), t_b = (b);                               \
		if (!(fabs(t_a - t_b) <= (eps)))                           \
			T_FAIL("%s == %.9g, want %.9g (+-%g)", #a, t_a, t_b, (double)(eps)); \
	} while (0)
#define CHECK_STR(a, b)                                                    \
	do {                                                               \
		const char *t_a = (a), *t_b = (b);                         \
		if (!t_a || strcmp(t_a, t_b))                              \
			T_FAIL("%s == \"%s\", want \"%s\"", #a, t_a ? t_a : "(null)", t_b); \
	} while (0)
#define CHECK_CONTAINS(hay, needle)                                        \
	do {                                                               \
		const char *t_h = (hay), *t_n = (needle);                  \
		if (!t_h || !strstr(t_h, t_n))                             \
			T_FAIL("%s == \"%s\" lacks \"%s\"", #hay, t_h ? t_h : "(null)", t_n); \
	} while (0)

#endif
