// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/schedstat and /proc/<pid>/sched parsers.
 *
 * Field layouts (Documentation/scheduler/sched-stats.rst):
 *  v15: domain<N> <mask>, 3 x 8 load-balance fields in idle, busy,
 *       newly-idle order, then 12 more.
 *  v16: same fields; the idle types are busy, idle, newly-idle (enum
 *       cpu_idle_type was reordered; the 6.12 document still says idle).
 *  v17: domain<N> <name> <mask>, lb_imbalance split in four, so 3 x 11.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "fileio.h"
#include "schedstat.h"

#define MAX_FIELDS 64

struct domain_layout {
	unsigned int version;
	bool has_name;
	unsigned int lb_fields;		/* per idle type */
	enum lb_type order[LB_TYPES];	/* idle type of column block 0, 1, 2 */
	/* offsets inside one idle-type block */
	unsigned int count, balanced, failed, gained, hot_gained;
	unsigned int nobusyq, nobusyg;
};

static const struct domain_layout layouts[] = {
	{ 15, false, 8, { LB_IDLE, LB_BUSY, LB_NEWLY_IDLE }, 0, 1, 2, 4, 5, 6, 7 },
	{ 16, false, 8, { LB_BUSY, LB_IDLE, LB_NEWLY_IDLE }, 0, 1, 2, 4, 5, 6, 7 },
	{ 17, true, 11, { LB_BUSY, LB_IDLE, LB_NEWLY_IDLE }, 0, 1, 2, 7, 8, 9, 10 },
};

/* alb_count .. ttwu_move_balance, after the load-balance blocks */
#define TAIL_FIELDS 12

static const struct domain_layout *layout_for(unsigned int version)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(layouts); i++)
		if (layouts[i].version == version)
			return &layouts[i];
	return NULL;
}

/* Split @line in place on blanks; returns the number of tokens. */
static int tokenize(char *line, char **tok, int max)
{
	int n = 0;
	char *save = NULL, *t;

	for (t = strtok_r(line, " \t", &save); t && n < max;
	     t = strtok_r(NULL, " \t", &save))
		tok[n++] = t;
	return n;
}

static int parse_u64s(char **tok, int n, uint64_t *v)
{
	int i;

	for (i = 0; i < n; i++) {
		char *end;

		errno = 0;
		v[i] = strtoull(tok[i], &end, 10);
		if (errno || *end || end == tok[i])
			return -1;
	}
	return 0;
}

/* Make room for element @n; arrays double when @n is a power of two >= 8. */
static int grow(void **arr, size_t n, size_t size)
{
	void *p;

	if (n && (n < 8 || (n & (n - 1))))
		return 0;
	p = realloc(*arr, (n ? n * 2 : 8) * size);
	if (!p)
		return -1;
	*arr = p;
	return 0;
}

static int parse_cpu(struct schedstat *ss, char **tok, int n)
{
	uint64_t v[9];
	struct schedstat_cpu *c;

	if (n != 10 || parse_u64s(tok + 1, 9, v))
		return -1;
	if (grow((void **)&ss->cpus, ss->nr_cpus, sizeof(*c)))
		return -1;
	c = &ss->cpus[ss->nr_cpus++];
	c->cpu = strtoul(tok[0] + 3, NULL, 10);
	c->yld_count = v[0];
	c->sched_count = v[2];
	c->sched_goidle = v[3];
	c->ttwu_count = v[4];
	c->ttwu_local = v[5];
	c->rq_cpu_time = v[6];
	c->run_delay = v[7];
	c->pcount = v[8];
	return 0;
}

static int parse_domain(struct schedstat *ss, const struct domain_layout *l,
			char **tok, int n)
{
	unsigned int first = l->has_name ? 3 : 2;
	unsigned int nf = LB_TYPES * l->lb_fields + TAIL_FIELDS;
	uint64_t v[MAX_FIELDS];
	struct schedstat_domain *d;
	unsigned int b;
	const uint64_t *tail;

	if (!ss->nr_cpus || n != (int)(first + nf) ||
	    parse_u64s(tok + first, nf, v))
		return -1;
	if (grow((void **)&ss->domains, ss->nr_domains, sizeof(*d)))
		return -1;
	d = &ss->domains[ss->nr_domains++];
	memset(d, 0, sizeof(*d));
	d->cpu = ss->cpus[ss->nr_cpus - 1].cpu;
	d->level = strtoul(tok[0] + 6, NULL, 10);
	for (b = 0; b < LB_TYPES; b++) {
		const uint64_t *blk = v + b * l->lb_fields;
		enum lb_type t = l->order[b];

		d->lb_count[t] = blk[l->count];
		d->lb_balanced[t] = blk[l->balanced];
		d->lb_failed[t] = blk[l->failed];
		d->lb_gained[t] = blk[l->gained];
		d->lb_hot_gained[t] = blk[l->hot_gained];
		d->lb_nobusyq[t] = blk[l->nobusyq];
		d->lb_nobusyg[t] = blk[l->nobusyg];
	}
	tail = v + LB_TYPES * l->lb_fields;
	d->alb_count = tail[0];
	d->alb_failed = tail[1];
	d->alb_pushed = tail[2];
	d->ttwu_wake_remote = tail[9];
	d->ttwu_move_affine = tail[10];
	return 0;
}

int schedstat_parse(const char *text, struct schedstat *ss,
		    char *err, size_t errlen)
{
	const struct domain_layout *l = NULL;
	char *copy = strdup(text), *save = NULL, *line;
	unsigned int lineno = 0;
	int ret = 0;

	memset(ss, 0, sizeof(*ss));
	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (line = strtok_r(copy, "\n", &save); line && !ret;
	     line = strtok_r(NULL, "\n", &save)) {
		char *tok[MAX_FIELDS + 4];
		int n = tokenize(line, tok, MAX_FIELDS + 4);

		lineno++;
		if (!n)
			continue;
		/* the first line that is not blank: no layout before it */
		if (!l) {
			if (n != 2 || strcmp(tok[0], "version")) {
				snprintf(err, errlen, "line %u: no 'version N' header", lineno);
				ret = -1;
				break;
			}
			ss->version = strtoul(tok[1], NULL, 10);
			l = layout_for(ss->version);
			if (!l) {
				snprintf(err, errlen, "unsupported schedstat version %s (know 15, 16, 17)",
					 tok[1]);
				ret = -1;
			}
			continue;
		}
		if (!strcmp(tok[0], "timestamp") && n == 2)
			ss->timestamp = strtoull(tok[1], NULL, 10);
		else if (!strncmp(tok[0], "cpu", 3))
			ret = parse_cpu(ss, tok, n);
		else if (!strncmp(tok[0], "domain", 6))
			ret = parse_domain(ss, l, tok, n);
		else
			ret = -1;
		if (ret)
			snprintf(err, errlen, "line %u: malformed '%s' line for version %u",
				 lineno, tok[0], ss->version);
	}
	free(copy);
	if (!ret && !ss->nr_cpus) {
		snprintf(err, errlen, "no cpu lines");
		ret = -1;
	}
	if (ret) {
		if (errlen)
			fileio_printable(err);
		schedstat_free(ss);
	}
	return ret;
}

void schedstat_free(struct schedstat *ss)
{
	free(ss->cpus);
	free(ss->domains);
	ss->cpus = NULL;
	ss->domains = NULL;
	ss->nr_cpus = ss->nr_domains = 0;
}

/* Counters that are unsigned int in the kernel wrap; subtract modulo 2^32. */
static inline uint64_t d32(uint32_t before, uint32_t after)
{
	return (uint32_t)(after - before);
}

static uint64_t d32_sum(const uint32_t *b, const uint32_t *a)
{
	uint64_t s = 0;
	int t;

	for (t = 0; t < LB_TYPES; t++)
		s += d32(b[t], a[t]);
	return s;
}

static void add_cpu_delta(struct schedstat_delta *d,
			  const struct schedstat_cpu *b,
			  const struct schedstat_cpu *a)
{
	d->yld_count += d32(b->yld_count, a->yld_count);
	d->sched_count += d32(b->sched_count, a->sched_count);
	d->sched_goidle += d32(b->sched_goidle, a->sched_goidle);
	d->ttwu_count += d32(b->ttwu_count, a->ttwu_count);
	d->ttwu_local += d32(b->ttwu_local, a->ttwu_local);
	d->rq_cpu_time += a->rq_cpu_time - b->rq_cpu_time;
	d->run_delay += a->run_delay - b->run_delay;
	d->pcount += a->pcount - b->pcount;
}

static void add_domain_delta(struct schedstat_delta *d,
			     const struct schedstat_domain *b,
			     const struct schedstat_domain *a)
{
	d->lb_count += d32_sum(b->lb_count, a->lb_count);
	d->lb_failed += d32_sum(b->lb_failed, a->lb_failed);
	d->lb_gained += d32_sum(b->lb_gained, a->lb_gained);
	d->lb_hot_gained += d32_sum(b->lb_hot_gained, a->lb_hot_gained);
	d->alb_pushed += d32(b->alb_pushed, a->alb_pushed);
	d->ttwu_wake_remote += d32(b->ttwu_wake_remote, a->ttwu_wake_remote);
	d->ttwu_move_affine += d32(b->ttwu_move_affine, a->ttwu_move_affine);
}

int schedstat_diff(const struct schedstat *before,
		   const struct schedstat *after, struct schedstat_delta *d)
{
	size_t i;

	memset(d, 0, sizeof(*d));
	if (before->version != after->version ||
	    before->nr_cpus != after->nr_cpus ||
	    before->nr_domains != after->nr_domains)
		return -1;
	for (i = 0; i < after->nr_cpus; i++) {
		if (before->cpus[i].cpu != after->cpus[i].cpu)
			return -1;
		add_cpu_delta(d, &before->cpus[i], &after->cpus[i]);
	}
	for (i = 0; i < after->nr_domains; i++) {
		const struct schedstat_domain *b = &before->domains[i];
		const struct schedstat_domain *a = &after->domains[i];

		if (b->cpu != a->cpu || b->level != a->level)
			return -1;
		add_domain_delta(d, b, a);
	}
	return 0;
}

/*
 * /proc/<pid>/sched values are integers or nanoseconds printed as
 * "<ms>.<6 digits>"; return them in the unit of the last integer digit.
 */
static int parse_sched_value(const char *s, uint64_t *v)
{
	char *end;
	uint64_t frac = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '-')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	if (*end == '.') {
		const char *f = end + 1;
		int digits = 0;

		while (*f >= '0' && *f <= '9' && digits < 6) {
			frac = frac * 10 + (*f - '0');
			f++;
			digits++;
		}
		while (digits++ < 6)
			frac *= 10;
		*v = *v * 1000000ULL + frac;
	}
	return 0;
}

struct sched_key {
	const char *name;
	size_t offset;
	bool schedstat_only;
};

#define KEY(n, f, s) { n, offsetof(struct task_sched, f), s }
static const struct sched_key sched_keys[] = {
	KEY("se.nr_migrations", nr_migrations, false),
	KEY("nr_switches", nr_switches, false),
	KEY("nr_voluntary_switches", nr_voluntary_switches, false),
	KEY("nr_involuntary_switches", nr_involuntary_switches, false),
	KEY("wait_sum", wait_sum_ns, true),
	KEY("wait_count", wait_count, true),
	KEY("nr_wakeups", nr_wakeups, true),
	KEY("nr_wakeups_sync", nr_wakeups_sync, true),
	KEY("nr_wakeups_migrate", nr_wakeups_migrate, true),
	KEY("nr_wakeups_local", nr_wakeups_local, true),
	KEY("nr_wakeups_remote", nr_wakeups_remote, true),
	KEY("nr_wakeups_affine", nr_wakeups_affine, true),
	KEY("nr_wakeups_affine_attempts", nr_wakeups_affine_attempts, true),
};

static const struct sched_key *find_sched_key(const char *name, size_t len)
{
	size_t i;

	/* kernels before 5.x wrote the schedstat lines as se.statistics.* */
	if (len > 14 && !strncmp(name, "se.statistics.", 14)) {
		name += 14;
		len -= 14;
	}
	for (i = 0; i < ARRAY_SIZE(sched_keys); i++)
		if (strlen(sched_keys[i].name) == len &&
		    !strncmp(sched_keys[i].name, name, len))
			return &sched_keys[i];
	return NULL;
}

int task_sched_parse(const char *text, struct task_sched *ts)
{
	const char *line = text;
	bool seen_migrations = false;

	memset(ts, 0, sizeof(*ts));
	while (line && *line) {
		const char *nl = strchr(line, '\n');
		const char *colon = strchr(line, ':');
		const char *name_end;
		const struct sched_key *k;
		uint64_t v;

		if (colon && (!nl || colon < nl)) {
			name_end = colon;
			while (name_end > line && name_end[-1] == ' ')
				name_end--;
			k = find_sched_key(line, name_end - line);
			if (k && !parse_sched_value(colon + 1, &v)) {
				*(uint64_t *)((char *)ts + k->offset) = v;
				if (k->schedstat_only)
					ts->has_schedstats = true;
				if (k->offset == offsetof(struct task_sched, nr_migrations))
					seen_migrations = true;
			}
		}
		line = nl ? nl + 1 : NULL;
	}
	/* wait_sum is printed in ms.ns and came back in ns already */
	return seen_migrations ? 0 : -1;
}

int task_schedstat_parse(const char *text, struct task_sched *ts)
{
	unsigned long long exec, delay, pcount;

	if (sscanf(text, "%llu %llu %llu", &exec, &delay, &pcount) != 3)
		return -1;
	ts->has_run_delay = true;
	ts->exec_ns = exec;
	ts->run_delay_ns = delay;
	ts->pcount = pcount;
	return 0;
}

#define FOR_EACH_TASK_COUNTER(op)					\
	do {								\
		op(nr_migrations); op(nr_switches);			\
		op(nr_voluntary_switches); op(nr_involuntary_switches);	\
		op(wait_sum_ns); op(wait_count); op(nr_wakeups);	\
		op(nr_wakeups_sync); op(nr_wakeups_migrate);		\
		op(nr_wakeups_local); op(nr_wakeups_remote);		\
		op(nr_wakeups_affine); op(nr_wakeups_affine_attempts);	\
		op(exec_ns); op(run_delay_ns); op(pcount);		\
		op(page_faults);					\
	} while (0)

void task_sched_add(struct task_sched *sum, const struct task_sched *ts)
{
#define ADD(f) (sum->f += ts->f)
	FOR_EACH_TASK_COUNTER(ADD);
#undef ADD
	sum->has_schedstats |= ts->has_schedstats;
	sum->has_run_delay |= ts->has_run_delay;
	sum->has_faults |= ts->has_faults;
}

void task_sched_sub(struct task_sched *a, const struct task_sched *b)
{
#define SUB(f) (a->f -= b->f)
	FOR_EACH_TASK_COUNTER(SUB);
#undef SUB
}
