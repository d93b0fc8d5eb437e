/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * params.c - the simulator's --sim keys: one table that the parser,
 * --sim=help, the completions and the man-page check read; the load's
 * schedule over the day.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../dtl/name.h"
#include "../../platform/cpuset.h"
#include "internal.h"

/* The simulator's --sim keys: the parser, --sim=help and the man-page check read this. */
/*
 * The embedded default (--sim alone, or no DTL here) runs a guest with work
 * to show: who pays has rows at the first v. Any key given is a chosen
 * LPAR, whose tasks= (none without it) is the user's.
 */
#define DEFAULT_TASKS "postgres:3:/system.slice/postgresql.service+" \
	"nginx:2:/system.slice/nginx.service+batch:1:/batch.slice"

static int parse_tasks(const char *v, size_t n, struct dtl_sim_params *p, char *err,
		       size_t errlen);
static int parse_load(const char *v, size_t n, struct dtl_sim_params *p, char *err,
		      size_t errlen);
static int parse_serial(const char *v, size_t n, struct dtl_sim_params *p, char *err,
			size_t errlen);
static int parse_name(const char *v, size_t n, struct dtl_sim_params *p, char *err,
		      size_t errlen);
static int parse_frame(const char *v, size_t n, struct dtl_sim_params *p, char *err,
		       size_t errlen);

static const char *const clocks[] = { "wall", "virtual", NULL };
static const char *const yesno[] = { "0", "1", NULL };
static const char *const profiles[] = { "busy", "idle", NULL };
static const struct simkey {
	const char *key;
	size_t off;
	double min, max;
	bool integer;
	const char *const *words;	/* a choice of words, stored as its index in a bool */
	const char *help;
	/* a value that is a list, parsed by its own function */
	int (*parse)(const char *v, size_t n, struct dtl_sim_params *p, char *err, size_t errlen);
} keys[] = {
	{ "vcpus", offsetof(struct dtl_sim_params, vcpus), 1, DTL_MAX_CPUS, true, NULL,
	  "logical CPUs (SMT threads) of the partition (default 16)", NULL },
	{ "vps", offsetof(struct dtl_sim_params, vps), 1, DTL_MAX_CPUS, true, NULL,
	  "virtual processors (cores): vcpus = vps x smt", NULL },
	{ "ent", offsetof(struct dtl_sim_params, ent), 0.05, DTL_MAX_CPUS, false, NULL,
	  "entitled capacity in processor units, 0.05 to 1 per VP (default vps/2)", NULL },
	{ "pool", offsetof(struct dtl_sim_params, pool), 1, 4096, true, NULL,
	  "physical processors in the shared pool (default 2 x ent)", NULL },
	{ "capped", offsetof(struct dtl_sim_params, capped), 0, 1, true, yesno,
	  "0 uncapped (default), 1 capped: ent per 10 ms dispatch wheel at most", NULL },
	{ "profile", offsetof(struct dtl_sim_params, idle), 0, 1, true, profiles,
	  "busy (default: modelled), or idle: an idle LPAR shaped on real entries (see below)", NULL },
	{ "dedicated", offsetof(struct dtl_sim_params, dedicated), 0, 1, true, yesno,
	  "1: dedicated processors, no pool (pool, other, capped, ent do not apply)", NULL },
	{ "donating", offsetof(struct dtl_sim_params, donating), 0, 1, true, yesno,
	  "1: dedicated, donating idle cycles to the pool (wake-ups wait a little)", NULL },
	{ "weight", offsetof(struct dtl_sim_params, weight), 0, 255, true, NULL,
	  "uncapped weight, the share of idle pool capacity (default 128)", NULL },
	{ "load", offsetof(struct dtl_sim_params, load), 0.01, 0.99, false, NULL,
	  "share of time each vCPU wants to run, 0.01..0.99 (default 0.5), or a day's "
	  "schedule LOAD@HH:MM+... (see below)", parse_load },
	{ "other", offsetof(struct dtl_sim_params, other), 0, 65536, false, NULL,
	  "processor units other partitions want (default 0.4 x pool)", NULL },
	{ "oent", offsetof(struct dtl_sim_params, other_ent), 0, 65536, false, NULL,
	  "their entitled capacity, at most pool - ent (default half of it)", NULL },
	{ "busy", offsetof(struct dtl_sim_params, busy_ms), 0.01, 10000, false, NULL,
	  "mean busy burst in ms (default 5)", NULL },
	{ "slice", offsetof(struct dtl_sim_params, slice_ms), 0.1, 1000, false, NULL,
	  "hypervisor time slice in ms (default 10)", NULL },
	{ "faults", offsetof(struct dtl_sim_params, faults), 0, 100000, false, NULL,
	  "page faults per busy second per vCPU (default 1)", NULL },
	{ "poll", offsetof(struct dtl_sim_params, poll_ms), 0.1, 10000, false, NULL,
	  "how often the OS drains the 85-entry ring, ms (default 10)", NULL },
	{ "smt", offsetof(struct dtl_sim_params, smt), 1, 8, true, NULL,
	  "threads per VP and per physical core: 1, 2, 4 or 8 (default 8)", NULL },
	{ "clock", offsetof(struct dtl_sim_params, virtual_clock), 0, 1, true, clocks,
	  "wall, or virtual: no sleeping, simulated time stamps", NULL },
	{ "tasks", 0, 0, 0, false, NULL, "the guest's workloads, '+' between them, each "
	  "NAME[:WEIGHT][:CGROUP][:cpuN] (see below)", parse_tasks },
	{ "lpar_id", offsetof(struct dtl_sim_params, lpar_id), 1, 65535, true, NULL,
	  "the partition's id, lparcfg's partition_id (default 1)", NULL },
	{ "pool_id", offsetof(struct dtl_sim_params, pool_id), 0, 65535, true, NULL,
	  "the shared pool's number, lparcfg's pool (default 0)", NULL },
	{ "serial", 0, 0, 0, false, NULL, "the frame's serial_number, letters, digits and .-_ "
	  "(default SIM)", parse_serial },
	{ "name", 0, 0, 0, false, NULL, "the partition's name (ibm,partition-name), letters, "
	  "digits and .-_ (default none)", parse_name },
	{ "frame", 0, 0, 0, false, NULL, "a file of the frame's LPARs, one line of these keys each: "
	  "this one is the line of name= (see below)", parse_frame },
};

#define NR_KEYS (sizeof(keys) / sizeof(keys[0]))
_Static_assert(NR_KEYS <= 32, "the keys given are bits of an unsigned int");

void dtl_sim__keys(FILE *f)
{
	for (size_t i = 0; i < NR_KEYS; i++) {
		char range[48];

		if (keys[i].parse && keys[i].max > 0)
			snprintf(range, sizeof(range), "%g..%g|list", keys[i].min, keys[i].max);
		else if (keys[i].parse)
			snprintf(range, sizeof(range), "list");
		else if (keys[i].words)
			snprintf(range, sizeof(range), "%s|%s", keys[i].words[0], keys[i].words[1]);
		else
			snprintf(range, sizeof(range), "%g..%g", keys[i].min, keys[i].max);
		fprintf(f, "%-9s %-14s %s\n", keys[i].key, range, keys[i].help);
	}
	fputs("\nPowerVM's rules, as modelled: in every 10 ms dispatch wheel the partition gets\n"
	      "its entitlement whatever the others want (other= is what they want, oent=\n"
	      "what they are entitled to); what it leaves idle goes to the pool; an\n"
	      "uncapped partition takes more only from the pool's idle capacity, shared with\n"
	      "the others (weight 128) in proportion to weight=; weight=0 and capped=1 never\n"
	      "go past the entitlement in a wheel; a VP is at most one processor (physc <= VPs);\n"
	      "a VP's threads are dispatched together. Past its share of a wheel a VP is held\n"
	      "to the next one (the cap's wait, or the pool's); every dispatch waits for a\n"
	      "processor (dispatch latency, longer as the pool fills); with idle processors a\n"
	      "VP is not held at a time slice's end. Not modelled: nodes, the pool's own\n"
	      "reserve.\n"
	      "\nframe=FILE,name=NAME is one LPAR of a frame whose others are known: FILE has\n"
	      "a line of these keys per LPAR (name=, lpar_id=, pool_id=, pool=, ent=, vps=,\n"
	      "load=, weight=, capped=, serial= ...; '#' starts a comment), and NAME's line\n"
	      "is this one. The LPARs of its pool_id take the place of other= and oent=:\n"
	      "each gets its entitlement as far as it wants it, the idle rest goes to the\n"
	      "uncapped by their weights. Every LPAR of the frame, each its own dtltop\n"
	      "with the same FILE, works the same division, so together they take at most\n"
	      "the pool. Beside frame= and name= the command line may give only clock=,\n"
	      "tasks=, busy=, faults=, poll= and slice=, which change no one's share.\n"
	      "\nload=0.2@00:00+0.9@20:00 gives the load a day's shape: points at HH:MM of the\n"
	      "simulated clock (clock=virtual starts at 00:00), straight between them, round\n"
	      "the clock; at most 24 points.\n", f);
	fputs("\nFrom real data (profile=idle): the wake-up reasons (60 % priv_doorbell, 40 %\n"
	      "decrementer_interrupt), their ready-to-enqueue and enqueue-to-dispatch times, the\n"
	      "sleeps near 10 ms and 30 ms, all preempts H_CEDE, 53 % back on the same core:\n"
	      "the upstream vpa-dtl documentation's and perf patches' entries of idle LPARs and\n"
	      "a vcpudispatch_stats sample. Modelled (profile=busy and everything else): time\n"
	      "slices, the pool's contention, caps, faults, confers; the home node (99.7 % in\n"
	      "that sample) is not modelled, the simulator has no nodes.\n"
	      "\ntasks= names the processes the guest runs, e.g.\n"
	      "  tasks=db:3:/system.slice/db.service+web:2+batch:1:/batch.slice:cpu1\n"
	      "each busy burst runs one, picked by weight among those allowed on the CPU (cpuN:\n"
	      "that CPU only) and picked again at each 4 ms tick; the CPU runs the idle task\n"
	      "between bursts (its cedes are idle's), and kworker where no task may run.\n"
	      "Without tasks= there is no switch stream, as on a source without one; --sim\n"
	      "alone (and the fallback where no DTL exists) runs\n"
	      "  tasks=" DEFAULT_TASKS "\n", f);
}

static void key_names(char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NR_KEYS && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? " " : "", keys[i].key);
}

/* One "key=value" of n bytes at s; -1 with err naming it. */
static int set_key(const char *s, size_t n, struct dtl_sim_params *p, unsigned int *given,
		   char *err, size_t errlen)
{
	size_t kl = strcspn(s, "=,"), i;
	char buf[64], *end, names[256];
	double v;

	for (i = 0; i < NR_KEYS; i++)
		if (strlen(keys[i].key) == kl && strncmp(s, keys[i].key, kl) == 0)
			break;
	if (i < NR_KEYS && keys[i].parse && kl < n && s[kl] == '=') {
		*given |= 1u << i;
		return keys[i].parse(s + kl + 1, n - kl - 1, p, err, errlen);
	}
	if (i == NR_KEYS || kl >= n || s[kl] != '=' || n - kl - 1 >= sizeof(buf)) {
		key_names(names, sizeof(names));
		snprintf(err, errlen, "bad --sim parameter '%.*s' (keys: %s; --sim=help explains)",
			 (int)n, s, names);
		return -1;
	}
	memcpy(buf, s + kl + 1, n - kl - 1);
	buf[n - kl - 1] = '\0';
	*given |= 1u << i;
	if (keys[i].words) {
		for (size_t w = 0; keys[i].words[w]; w++)
			if (strcmp(buf, keys[i].words[w]) == 0) {
				*(bool *)(void *)((char *)p + keys[i].off) = w;
				return 0;
			}
		snprintf(err, errlen, "bad --sim value '%.*s' (%s must be %s or %s)", (int)n, s,
			 keys[i].key, keys[i].words[0], keys[i].words[1]);
		return -1;
	}
	errno = 0;
	v = strtod(buf, &end);
	if (errno || end == buf || *end || !(v >= keys[i].min && v <= keys[i].max) ||
	    (keys[i].integer && v != floor(v))) {
		snprintf(err, errlen, "bad --sim value '%.*s' (%s must be %s%g..%g)", (int)n, s,
			 keys[i].key, keys[i].integer ? "an integer " : "", keys[i].min, keys[i].max);
		return -1;
	}
	if (keys[i].integer)
		*(unsigned int *)(void *)((char *)p + keys[i].off) = (unsigned int)v;
	else
		*(double *)(void *)((char *)p + keys[i].off) = v;
	return 0;
}

/* v (n bytes) into buf: 1 to len - 1 of letters, digits and the characters of ok. */
static int word(const char *key, const char *v, size_t n, const char *ok, char *buf, size_t len,
		char *err, size_t errlen)
{
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)v[i]) && !strchr(ok, v[i]))
			n = 0;
	if (!n || n >= len) {
		snprintf(err, errlen, "bad --sim value '%s=%.*s' (1 to %zu letters, digits or %s)",
			 key, (int)(n ? n : strcspn(v, ",")), v, len - 1, ok);
		return -1;
	}
	memcpy(buf, v, n);
	buf[n] = '\0';
	return 0;
}

static int parse_serial(const char *v, size_t n, struct dtl_sim_params *p, char *err,
			size_t errlen)
{
	return word("serial", v, n, ".-_", p->serial, sizeof(p->serial), err, errlen);
}

static int parse_name(const char *v, size_t n, struct dtl_sim_params *p, char *err,
		      size_t errlen)
{
	return word("name", v, n, ".-_", p->name, sizeof(p->name), err, errlen);
}

/* frame=PATH: kept to be read once every key is in (name= may come after it) */
static int parse_frame(const char *v, size_t n, struct dtl_sim_params *p, char *err,
		       size_t errlen)
{
	if (!n || n >= sizeof(p->frame) || memchr(v, '\0', n)) {
		snprintf(err, errlen, "bad --sim value 'frame=%.*s' (a file's path, 1 to %zu bytes)",
			 (int)(n > 80 ? 80 : n), v, sizeof(p->frame) - 1);
		return -1;
	}
	memcpy(p->frame, v, n);
	p->frame[n] = '\0';
	return 0;
}

/* load=: one number, or LOAD@HH:MM points, '+' between them, in time order. */
static int parse_load(const char *v, size_t n, struct dtl_sim_params *p, char *err,
		      size_t errlen)
{
	char buf[512], *f, *save = NULL, *end;

	if (n >= sizeof(buf))
		goto bad;
	memcpy(buf, v, n);
	buf[n] = '\0';
	p->nloads = 0;
	if (!memchr(buf, '@', n)) {
		errno = 0;
		p->load = strtod(buf, &end);
		if (errno || end == buf || *end || !(p->load >= 0.01 && p->load <= 0.99))
			goto bad;
		return 0;
	}
	if (buf[0] == '+' || buf[n - 1] == '+' || strstr(buf, "++"))
		goto bad;	/* an empty point */
	for (f = strtok_r(buf, "+", &save); f; f = strtok_r(NULL, "+", &save)) {
		unsigned int hh, mm;
		double l;
		int used = 0;

		errno = 0;
		l = strtod(f, &end);
		if (errno || end == f || *end != '@' || !(l >= 0.01 && l <= 0.99) ||
		    sscanf(end + 1, "%2u:%2u%n", &hh, &mm, &used) != 2 || end[1 + used] ||
		    hh > 23 || mm > 59 || p->nloads == DTL_SIM_LOADS)
			goto bad;
		p->loads[p->nloads].at_s = hh * 3600.0 + mm * 60.0;
		p->loads[p->nloads].load = l;
		if (p->nloads && p->loads[p->nloads].at_s <= p->loads[p->nloads - 1].at_s)
			goto bad;
		p->nloads++;
	}
	if (!p->nloads)
		goto bad;
	p->load = p->loads[0].load;
	return 0;
bad:
	snprintf(err, errlen, "bad --sim value 'load=%.*s' (load must be 0.01..0.99, or LOAD@HH:MM "
		 "points '+' between them in time order, at most %d)", (int)(n > 80 ? 80 : n), v,
		 DTL_SIM_LOADS);
	return -1;
}

/* Straight between the schedule's n points, round the clock; load where there is none. */
double sim_schedule_at(const struct dtl_sim_load *pt, unsigned int n, double load, double t_s)
{
	double day = 86400, now, a, b, la, lb;
	unsigned int i;

	if (n < 2)
		return load;
	now = fmod(t_s, day);
	for (i = 0; i < n && pt[i].at_s <= now; i++)
		;
	/* between point i-1 and i, the last and the first wrapping round midnight */
	a = i ? pt[i - 1].at_s : pt[n - 1].at_s - day;
	la = i ? pt[i - 1].load : pt[n - 1].load;
	b = i < n ? pt[i].at_s : pt[0].at_s + day;
	lb = i < n ? pt[i].load : pt[0].load;
	return b > a ? la + (lb - la) * (now - a) / (b - a) : la;
}

double sim_load_at(const struct sim *s, uint64_t t)
{
	return sim_schedule_at(s->p.loads, s->p.nloads, s->p.load, (double)t / (double)s->tb_freq);
}

/* One workload, NAME[:WEIGHT][:CGROUP][:cpuN], of n bytes at v. */
static int parse_task(const char *v, size_t n, struct dtl_sim_task *k, char *err, size_t errlen)
{
	char buf[160], *f, *save = NULL, *end;
	int field = 0;

	if (n >= sizeof(buf))
		goto bad;
	memcpy(buf, v, n);
	buf[n] = '\0';
	k->weight = 1;
	k->pin = -1;
	snprintf(k->cgroup, sizeof(k->cgroup), "/");
	for (f = strtok_r(buf, ":", &save); f; f = strtok_r(NULL, ":", &save), field++) {
		if (field == 0) {
			if (!*f || strlen(f) >= sizeof(k->name))
				goto bad;
			for (const char *c = f; *c; c++)
				if (!isgraph((unsigned char)*c))
					goto bad;
			snprintf(k->name, sizeof(k->name), "%s", f);
		} else if (f[0] == '/') {
			if (strlen(f) >= sizeof(k->cgroup))
				goto bad;
			if (!dtl_name__is_clean(f)) {
				/* said cleaned: the message must not carry what it refuses */
				dtl_name__clean(f);
				snprintf(err, errlen, "bad --sim task cgroup '%.80s' (a control character "
					 "or bytes that are not UTF-8, shown as ?)", f);
				return -1;
			}
			snprintf(k->cgroup, sizeof(k->cgroup), "%s", f);
		} else if (strncmp(f, "cpu", 3) == 0) {
			errno = 0;
			long c = strtol(f + 3, &end, 10);

			if (errno || end == f + 3 || *end || c < 0 || c >= DTL_MAX_CPUS)
				goto bad;
			k->pin = (int)c;
		} else {
			errno = 0;
			k->weight = strtod(f, &end);
			if (errno || end == f || *end || !(k->weight > 0 && k->weight <= 1000))
				goto bad;
		}
	}
	if (field == 0)
		goto bad;
	return 0;
bad:
	snprintf(buf, sizeof(buf), "%.*s", (int)(n < 80 ? n : 80), v);	/* what is shown */
	dtl_name__clean(buf);
	snprintf(err, errlen, "bad --sim task '%s' (want NAME[:WEIGHT][:/CGROUP][:cpuN], a name "
		 "of up to 15 printable ASCII characters, a weight 0..1000)", buf);
	return -1;
}

static int parse_tasks(const char *v, size_t n, struct dtl_sim_params *p, char *err,
		       size_t errlen)
{
	p->ntasks = 0;
	while (n) {
		size_t k = 0;

		while (k < n && v[k] != '+')
			k++;
		if (p->ntasks == DTL_SIM_TASKS) {
			snprintf(err, errlen, "bad --sim: tasks= names more than %d tasks",
				 DTL_SIM_TASKS);
			return -1;
		}
		if (parse_task(v, k, &p->tasks[p->ntasks], err, errlen))
			return -1;
		p->tasks[p->ntasks].pid = 1000 + 100 * (int)p->ntasks;
		p->ntasks++;
		v += k + (k < n);
		n -= k + (k < n);
	}
	if (!p->ntasks) {
		snprintf(err, errlen, "bad --sim: tasks= names no task");
		return -1;
	}
	return 0;
}

static bool given_key(unsigned int given, const char *key)
{
	for (size_t i = 0; i < NR_KEYS; i++)
		if (strcmp(keys[i].key, key) == 0)
			return given & (1u << i);
	return false;
}

bool sim_params_given(const struct dtl_sim_params *p, const char *key)
{
	return given_key(p->given, key);
}

int dtl_sim__parse(const char *s, struct dtl_sim_params *p, char *err, size_t errlen)
{
	if (sim_params_parse(s, p, err, errlen))
		return -1;
	return p->frame[0] ? sim_frame_read(s, p, err, errlen) : 0;
}

static int parse_keys(const char *s, struct dtl_sim_params *p, char *err, size_t errlen);

int sim_params_parse(const char *s, struct dtl_sim_params *p, char *err, size_t errlen)
{
	if (!parse_keys(s, p, err, errlen))
		return 0;
	/* the messages quote what they refuse: one line, whatever it held */
	for (char *c = err; errlen && *c; c++)
		if (iscntrl((unsigned char)*c))
			*c = '?';
	return -1;
}

static int parse_keys(const char *s, struct dtl_sim_params *p, char *err, size_t errlen)
{
	unsigned int given = 0;
	bool bare = !s || !*s;

	memset(p, 0, sizeof(*p));
	p->vcpus = 16;
	p->load = 0.5;
	p->busy_ms = 5;
	p->slice_ms = 10;
	p->faults = 1;
	p->poll_ms = 10;
	p->smt = 8;
	p->weight = 128;
	p->lpar_id = 1;
	snprintf(p->serial, sizeof(p->serial), "SIM");
	while (s && *s) {
		size_t n = strcspn(s, ",");

		if (set_key(s, n, p, &given, err, errlen))
			return -1;
		s += n;
		s += *s == ',';
	}
	p->given = given;
	if (bare && parse_tasks(DEFAULT_TASKS, strlen(DEFAULT_TASKS), p, err, errlen))
		return -1;
	if (p->smt & (p->smt - 1)) {
		snprintf(err, errlen, "bad --sim: smt=%u (want 1, 2, 4 or 8)", p->smt);
		return -1;
	}
	if (given_key(given, "vps")) {
		if (given_key(given, "vcpus") && p->vcpus != p->vps * p->smt) {
			snprintf(err, errlen, "bad --sim: vcpus=%u is not vps=%u x smt=%u (give one)",
				 p->vcpus, p->vps, p->smt);
			return -1;
		}
		if (p->vps * p->smt > DTL_MAX_CPUS) {
			snprintf(err, errlen, "bad --sim: vps=%u x smt=%u exceeds %u CPUs", p->vps,
				 p->smt, DTL_MAX_CPUS);
			return -1;
		}
		p->vcpus = p->vps * p->smt;
	}
	p->vps = (p->vcpus + p->smt - 1) / p->smt;
	if (p->idle) {
		/* the light end: short wake-ups, nothing but cedes unless asked */
		if (!given_key(given, "load"))
			p->load = 0.01;
		if (!given_key(given, "busy"))
			p->busy_ms = 0.2;
		if (!given_key(given, "faults"))
			p->faults = 0;
	}
	p->dedicated |= p->donating;
	if (p->dedicated) {
		/* its own processors: nothing to share, cap or be entitled to */
		static const char *const shared_only[] = { "ent", "pool", "other", "oent", "capped",
							   "weight" };

		for (size_t i = 0; i < sizeof(shared_only) / sizeof(shared_only[0]); i++)
			if (given_key(given, shared_only[i])) {
				snprintf(err, errlen, "bad --sim: %s= is for shared processors, not "
					 "with dedicated=1", shared_only[i]);
				return -1;
			}
		p->ent = p->vps;
		p->pool = p->vps;
		p->other = 0;
		return 0;
	}
	if (!given_key(given, "ent"))
		p->ent = p->vps / 2.0;
	if (!given_key(given, "pool"))
		p->pool = (unsigned int)ceil(p->ent * 2);
	if (!given_key(given, "other"))
		p->other = p->pool * 0.4;
	if (!given_key(given, "oent"))
		p->other_ent = p->pool > p->ent ? (p->pool - p->ent) / 2 : 0;
	if (p->ent + p->other_ent > p->pool + 1e-9) {
		snprintf(err, errlen, "bad --sim: ent=%g and oent=%g pass the pool's %u (the "
			 "entitlements in a pool are at most its processors)", p->ent, p->other_ent,
			 p->pool);
		return -1;
	}
	/* PowerVM: a VP is at most a whole processor, and gets at least 0.05 of one */
	if (p->ent > p->vps || p->ent < 0.05 * p->vps - 1e-9) {
		snprintf(err, errlen, "bad --sim: ent=%g must be 0.05 to 1 per VP (vps=%u)", p->ent,
			 p->vps);
		return -1;
	}
	return 0;
}

