/* SPDX-License-Identifier: GPL-2.0-only */
/* Runs every registered TEST, or those whose name contains argv[1]. */
#include "t.h"

struct t_case *t_cases;
int t_failed;

int main(int argc, char **argv)
{
	int run = 0;

	for (struct t_case *c = t_cases; c; c = c->next) {
		int before = t_failed;

		if (argc > 1 && !strstr(c->name, argv[1]))
			continue;
		c->fn();
		run++;
		if (t_failed != before)
			fprintf(stderr, "FAIL %s\n", c->name);
	}
	printf("%d tests, %d failed checks\n", run, t_failed);
	return t_failed || !run ? 1 : 0;
}
