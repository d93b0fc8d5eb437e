/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * opts.c - getopt_long over dtltop's options; every bad value gets a
 * message naming it.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/dtl.h"
#include "capture/sim.h"
#include "opts.h"
#include "view/columns.h"

enum { OPT_SIM = 256, OPT_SOURCE, OPT_SEED, OPT_ROOT, OPT_FORMAT, OPT_LIST_FIELDS,
       OPT_NO_COLOR, OPT_CSV, OPT_SPEED, OPT_LIST_KEYS };

static const struct option longopts[] = {
	{ "batch", no_argument, NULL, 'b' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "delay", required_argument, NULL, 'd' },
	{ "output", required_argument, NULL, 'o' },
	{ "events", required_argument, NULL, 'e' },
	{ "cpu", required_argument, NULL, 'C' },
	{ "sort", required_argument, NULL, 's' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ "sim", optional_argument, NULL, OPT_SIM },
	{ "source", required_argument, NULL, OPT_SOURCE },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "csv", no_argument, NULL, OPT_CSV },
	{ "list-fields", no_argument, NULL, OPT_LIST_FIELDS },
	{ "list-keys", no_argument, NULL, OPT_LIST_KEYS },
	{ "no-color", no_argument, NULL, OPT_NO_COLOR },
	{ "write", required_argument, NULL, 'w' },
	{ "read", required_argument, NULL, 'r' },
	{ "speed", required_argument, NULL, OPT_SPEED },
	{ NULL, 0, NULL, 0 },
};

void dtl_opts__usage(FILE *f)
{
	fputs("Usage: dtltop [options] [interval [count]]\n"
	      "Live per-vCPU view of the POWER Dispatch Trace Log (DTL).\n\n"
	      "Sources:\n"
	      "      --source=auto|sim|debugfs|perf  where entries come from (default auto)\n"
	      "      --sim[=k=v,...]       the simulated shared-processor pool; keys: vcpus ent\n"
	      "                            pool load other busy slice faults poll smt\n"
	      "                            clock=wall|virtual\n"
	      "      --seed N              simulator seed (default 1)\n"
	      "      --root DIR            read /proc, /sys and debugfs under DIR (default /)\n"
	      "  -r, --read FILE           replay a recording made with -w\n"
	      "      --speed N|max         replay speed (default 1 in the TUI, max with -b)\n"
	      "  -w, --write FILE          record every raw DTL entry to FILE (new file)\n"
	      "  -e, --events LIST         event mask: cede,preempt,fault or all (default all)\n"
	      "  -C, --cpu LIST            CPUs to show, e.g. 0-7,16\n\n"
	      "Output:\n"
	      "  -d, --delay SECS          interval, fractions allowed (default 1)\n"
	      "  -b, --batch               print the table every interval, no TUI\n"
	      "  -n, --iterations N        stop after N intervals\n"
	      "      --format=text|csv     batch output format (default text)\n"
	      "      --csv                 same as --format=csv\n"
	      "  -o, --output FILE         batch output to FILE instead of stdout\n"
	      "  -s, --sort [+-]FIELD      sort by a CSV field name (- reverses)\n"
	      "      --list-fields         print the columns with their units and exit\n"
	      "      --list-keys           print the TUI's keys and exit\n"
	      "      --no-color            monochrome (NO_COLOR is honoured too)\n"
	      "  -h, --help                this help\n"
	      "  -V, --version             version\n\n"
	      "Privileges: the debugfs source needs root (debugfs is root-only); the\n"
	      "simulator needs none.\n", f);
}

static int parse_interval(const char *s, double *v, char *err, size_t errlen)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(*v) || *v <= 0 || *v > 86400) {
		snprintf(err, errlen, "bad interval '%s' (want seconds > 0, e.g. 0.5)", s);
		return -1;
	}
	if (*v < 0.01) {
		snprintf(err, errlen, "interval '%s' is below 0.01 s", s);
		return -1;
	}
	return 0;
}

static int parse_count(const char *s, long *v, char *err, size_t errlen)
{
	char *end;

	errno = 0;
	*v = strtol(s, &end, 10);
	if (errno || end == s || *end || *v < 1) {
		snprintf(err, errlen, "bad iteration count '%s' (want an integer >= 1)", s);
		return -1;
	}
	return 0;
}

int dtl_opts__parse(struct dtl_opts *o, int argc, char **argv, char *err, size_t errlen)
{
	const char *sort = NULL;
	int c;

	memset(o, 0, sizeof(*o));
	o->src.kind = DTL_SOURCE_AUTO;
	o->src.root = "/";
	o->src.mask = DTL_MASK_ALL;
	o->src.seed = 1;
	o->interval_s = 1.0;
	o->sort_col = dtl_cols__find("cpu");
	optind = 0;	/* glibc: 0 also resets its internal state */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":bn:d:o:e:C:s:hVw:r:", longopts, NULL)) != -1) {
		switch (c) {
		case 'b':
			o->batch = true;
			break;
		case 'n':
			if (parse_count(optarg, &o->iterations, err, errlen))
				return -1;
			break;
		case 'd':
			if (parse_interval(optarg, &o->interval_s, err, errlen))
				return -1;
			o->have_interval = true;
			break;
		case 'w':
			o->write = optarg;
			break;
		case 'r':
			o->src.kind = DTL_SOURCE_REPLAY;
			o->src.replay = optarg;
			break;
		case OPT_SPEED: {
			char *end;

			o->have_speed = true;
			if (strcmp(optarg, "max") == 0) {
				o->speed = 0;
				break;
			}
			errno = 0;
			o->speed = strtod(optarg, &end);
			if (errno || end == optarg || *end || !isfinite(o->speed) || o->speed <= 0 ||
			    o->speed > 1e6) {
				snprintf(err, errlen, "bad --speed '%s' (want a factor > 0, or max)", optarg);
				return -1;
			}
			break;
		}
		case 'o':
			if (!optarg[0]) {
				snprintf(err, errlen, "-o needs a file name ('-' is standard output)");
				return -1;
			}
			o->output = optarg;
			break;
		case 'e': {
			const char *bad;

			if (dtl_mask__parse(optarg, &o->src.mask, &bad)) {
				snprintf(err, errlen, "bad event list '%s' at '%s' (want cede, preempt, "
					 "fault, or all, joined by commas)", optarg, bad);
				return -1;
			}
			o->have_mask = true;
			break;
		}
		case 'C':
			if (dtl_cpuset__parse(&o->src.cpus, optarg, err, errlen))
				return -1;
			o->src.have_cpus = true;
			break;
		case 's':
			sort = optarg;
			break;
		case 'h':
			o->help = true;
			break;
		case 'V':
			o->version = true;
			break;
		case OPT_SIM: {
			struct dtl_sim_params p;

			o->src.kind = DTL_SOURCE_SIM;
			o->src.sim_params = optarg ? optarg : "";
			if (dtl_sim__parse(o->src.sim_params, &p, err, errlen))
				return -1;
			break;
		}
		case OPT_SOURCE:
			if (strcmp(optarg, "auto") == 0)
				o->src.kind = DTL_SOURCE_AUTO;
			else if (strcmp(optarg, "sim") == 0)
				o->src.kind = DTL_SOURCE_SIM;
			else if (strcmp(optarg, "debugfs") == 0)
				o->src.kind = DTL_SOURCE_DEBUGFS;
			else if (strcmp(optarg, "perf") == 0)
				o->src.kind = DTL_SOURCE_PERF;
			else {
				snprintf(err, errlen, "bad --source '%s' (want auto, sim, debugfs or perf)",
					 optarg);
				return -1;
			}
			break;
		case OPT_SEED: {
			char *end;

			errno = 0;
			o->src.seed = strtoull(optarg, &end, 0);
			if (errno || end == optarg || *end || !isdigit((unsigned char)optarg[0])) {
				snprintf(err, errlen, "bad --seed '%s' (want an unsigned integer)", optarg);
				return -1;
			}
			break;
		}
		case OPT_ROOT:
			if (!optarg[0] || strlen(optarg) > 3000) {
				snprintf(err, errlen, "bad --root '%s'", optarg);
				return -1;
			}
			o->src.root = optarg;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "text") == 0)
				o->format = DTL_FORMAT_TEXT;
			else if (strcmp(optarg, "csv") == 0)
				o->format = DTL_FORMAT_CSV;
			else {
				snprintf(err, errlen, "bad --format '%s' (want text or csv)", optarg);
				return -1;
			}
			break;
		case OPT_CSV:
			o->format = DTL_FORMAT_CSV;
			break;
		case OPT_LIST_FIELDS:
			o->list_fields = true;
			break;
		case OPT_LIST_KEYS:
			o->list_keys = true;
			break;
		case OPT_NO_COLOR:
			o->no_color = true;
			break;
		case ':':
			snprintf(err, errlen, "option '%s' needs a value", argv[optind - 1]);
			return -1;
		default:
			snprintf(err, errlen, "unknown option '%s' (see dtltop --help)", argv[optind - 1]);
			return -1;
		}
	}
	if (optind < argc) {
		if (parse_interval(argv[optind++], &o->interval_s, err, errlen))
			return -1;
		o->have_interval = true;
	}
	if (optind < argc && parse_count(argv[optind++], &o->iterations, err, errlen))
		return -1;
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s'", argv[optind]);
		return -1;
	}
	if (sort) {
		const char *name = sort + (sort[0] == '-' || sort[0] == '+');

		o->sort_reverse = sort[0] == '-';
		o->sort_col = dtl_cols__find(name);
		if (o->sort_col < 0 || strcmp(name, "timestamp") == 0) {
			snprintf(err, errlen, "bad --sort field '%s' (see --list-fields)", sort);
			return -1;
		}
	}
	if (o->have_speed && o->src.kind != DTL_SOURCE_REPLAY) {
		snprintf(err, errlen, "--speed needs -r FILE");
		return -1;
	}
	if (o->have_mask && o->src.kind == DTL_SOURCE_REPLAY) {
		snprintf(err, errlen, "-e does not apply to -r: a recording keeps the mask it was "
			 "recorded with");
		return -1;
	}
	return 0;
}

int dtl_opts__parse_when(const char *s, uint64_t start_ns, uint64_t *at_ns, uint64_t *interval,
			 char *err, size_t errlen)
{
	unsigned int h, m, sec = 0;
	char *end, tail;
	double v;

	*at_ns = 0;
	*interval = 0;
	if (s[0] == '#') {
		errno = 0;
		unsigned long long n = strtoull(s + 1, &end, 10);

		if (end != s + 1 && !*end && !errno && n >= 1 && s[1] != '-') {
			*interval = n;
			return 0;
		}
	} else if (strchr(s, ':')) {
		int k = sscanf(s, "%2u:%2u:%2u%c", &h, &m, &sec, &tail);

		if ((k == 2 || k == 3) && h < 24 && m < 60 && sec < 60 &&
		    strspn(s, "0123456789:") == strlen(s)) {
			uint64_t day = start_ns / 86400000000000ull * 86400000000000ull;

			*at_ns = day + ((uint64_t)h * 3600 + m * 60 + sec) * 1000000000ull;
			if (*at_ns < start_ns)
				*at_ns += 86400000000000ull;
			return 0;
		}
	} else {
		v = strtod(s[0] == '+' ? s + 1 : s, &end);
		if (end != s + (s[0] == '+') && !*end && v >= 0 && v < 1e9) {
			*at_ns = start_ns + (uint64_t)(v * 1e9);
			return 0;
		}
	}
	snprintf(err, errlen, "bad time '%s' (want HH:MM[:SS] UTC, +seconds or #interval)", s);
	return -1;
}
