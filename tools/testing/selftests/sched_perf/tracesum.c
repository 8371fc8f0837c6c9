// SPDX-License-Identifier: GPL-2.0
/*
 * Summary of a scheduler trace.  See tracesum.h.
 *
 * Both tools print one event per line as "... <timestamp>: [sched:]<event>:
 * key=value ...", so the parser looks for the event name, takes the number
 * before it as the time and reads the fields by their keys.  A comm may
 * hold spaces, so a comm is what lies between its key and the next key.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler.h"
#include "outfile.h"
#include "tracesum.h"

#define COMM_LEN	32
#define MAX_CPUS	4096		/* CPU pairs beyond are not tabulated */
#define MAX_LATENCIES	(4u << 20)	/* samples kept for the percentiles */
#define MAX_PAIRS	512		/* preemptor/preempted comm pairs */

struct task {
	long pid;			/* 0: empty slot */
	char comm[COMM_LEN];
	unsigned long migrations, wakeups, preempted;
	double woken_at;		/* < 0: not waiting to run */
};

struct preempt_pair {
	char by[COMM_LEN], whom[COMM_LEN];
	unsigned long count;
};

struct cpu_pair {
	unsigned int from, to;
	unsigned long count;
};

struct tracesum {
	struct tracesum_counts n;
	struct task *tasks;		/* open addressing by pid */
	size_t nr_tasks, cap_tasks;
	struct cpu_pair *cpu_pairs;
	size_t nr_cpu_pairs, cap_cpu_pairs;
	struct preempt_pair pairs[MAX_PAIRS];
	size_t nr_pairs;
	unsigned long other_pairs;	/* preemptions beyond MAX_PAIRS pairs */
	double *lat_us;
	size_t nr_lat, cap_lat;
};

struct tracesum *tracesum_new(void)
{
	struct tracesum *ts = calloc(1, sizeof(*ts));

	if (ts)
		ts->n.first_ts = ts->n.last_ts = -1;
	return ts;
}

void tracesum_free(struct tracesum *ts)
{
	if (!ts)
		return;
	free(ts->tasks);
	free(ts->cpu_pairs);
	free(ts->lat_us);
	free(ts);
}

void tracesum_counts(const struct tracesum *ts, struct tracesum_counts *c)
{
	*c = ts->n;
}

/* ---- tables ------------------------------------------------------------ */

static struct task *task_slot(struct task *tab, size_t cap, long pid)
{
	size_t i = (size_t)pid * 2654435761u % cap;

	while (tab[i].pid && tab[i].pid != pid)
		i = (i + 1) % cap;
	return &tab[i];
}

static int grow_tasks(struct tracesum *ts)
{
	size_t cap = ts->cap_tasks ? ts->cap_tasks * 2 : 256, i;
	struct task *tab = calloc(cap, sizeof(*tab));

	if (!tab)
		return -1;
	for (i = 0; i < ts->cap_tasks; i++)
		if (ts->tasks[i].pid)
			*task_slot(tab, cap, ts->tasks[i].pid) = ts->tasks[i];
	free(ts->tasks);
	ts->tasks = tab;
	ts->cap_tasks = cap;
	return 0;
}

/* The task @pid, created (with @comm) when new; NULL without memory. */
static struct task *task_of(struct tracesum *ts, long pid, const char *comm)
{
	struct task *t;

	if ((ts->nr_tasks + 1) * 2 > ts->cap_tasks && grow_tasks(ts))
		return NULL;
	t = task_slot(ts->tasks, ts->cap_tasks, pid);
	if (!t->pid) {
		t->pid = pid;
		t->woken_at = -1;
		ts->nr_tasks++;
	}
	if (comm)	/* the latest name: exec changes it */
		snprintf(t->comm, sizeof(t->comm), "%s", comm);
	return t;
}

static int count_cpu_pair(struct tracesum *ts, unsigned int from, unsigned int to)
{
	size_t i;

	for (i = 0; i < ts->nr_cpu_pairs; i++) {
		if (ts->cpu_pairs[i].from == from && ts->cpu_pairs[i].to == to) {
			ts->cpu_pairs[i].count++;
			return 0;
		}
	}
	if (ts->nr_cpu_pairs == ts->cap_cpu_pairs) {
		size_t cap = ts->cap_cpu_pairs ? ts->cap_cpu_pairs * 2 : 64;
		struct cpu_pair *p = realloc(ts->cpu_pairs, cap * sizeof(*p));

		if (!p)
			return -1;
		ts->cpu_pairs = p;
		ts->cap_cpu_pairs = cap;
	}
	ts->cpu_pairs[ts->nr_cpu_pairs++] = (struct cpu_pair){ from, to, 1 };
	return 0;
}

static void count_preemption(struct tracesum *ts, const char *by, const char *whom)
{
	size_t i;

	for (i = 0; i < ts->nr_pairs; i++) {
		if (!strcmp(ts->pairs[i].by, by) && !strcmp(ts->pairs[i].whom, whom)) {
			ts->pairs[i].count++;
			return;
		}
	}
	if (ts->nr_pairs == MAX_PAIRS) {
		ts->other_pairs++;
		return;
	}
	snprintf(ts->pairs[i].by, COMM_LEN, "%s", by);
	snprintf(ts->pairs[i].whom, COMM_LEN, "%s", whom);
	ts->pairs[i].count = 1;
	ts->nr_pairs++;
}

static int add_latency(struct tracesum *ts, double us)
{
	if (ts->nr_lat == MAX_LATENCIES)
		return 0;
	if (ts->nr_lat == ts->cap_lat) {
		size_t cap = ts->cap_lat ? ts->cap_lat * 2 : 1024;
		double *p = realloc(ts->lat_us, cap * sizeof(*p));

		if (!p)
			return -1;
		ts->lat_us = p;
		ts->cap_lat = cap;
	}
	ts->lat_us[ts->nr_lat++] = us;
	ts->n.latencies++;
	return 0;
}

/* ---- one line ---------------------------------------------------------- */

enum event { EV_NONE, EV_SWITCH, EV_WAKEUP, EV_MIGRATE };

/* The event of @line and where its fields start; EV_NONE if none of ours. */
static enum event find_event(const char *line, const char **name, const char **fields)
{
	static const struct {
		const char *token;
		enum event ev;
	} events[] = {
		{ "sched_switch: ", EV_SWITCH },
		{ "sched_wakeup: ", EV_WAKEUP },
		{ "sched_wakeup_new: ", EV_WAKEUP },
		{ "sched_migrate_task: ", EV_MIGRATE },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(events); i++) {
		const char *at = strstr(line, events[i].token);

		if (at) {
			*name = at;
			*fields = at + strlen(events[i].token);
			return events[i].ev;
		}
	}
	return EV_NONE;
}

/* "<seconds>:" right before the event name (after an optional "sched:") */
static bool event_time(const char *line, const char *name, double *ts)
{
	const char *end = name, *start;
	char buf[40], *stop;

	if (end - line >= 6 && !strncmp(end - 6, "sched:", 6))
		end -= 6;
	while (end > line && end[-1] == ' ')
		end--;
	if (end == line || end[-1] != ':')
		return false;
	end--;
	start = end;
	while (start > line && (start[-1] == '.' || (start[-1] >= '0' && start[-1] <= '9')))
		start--;
	if (start == end || (size_t)(end - start) >= sizeof(buf))
		return false;
	memcpy(buf, start, end - start);
	buf[end - start] = '\0';
	*ts = strtod(buf, &stop);
	return *stop == '\0';
}

/*
 * The text between " key=" (or "key=" at the start of @fields) and the
 * next " @next=" (or the end of the line), printable and cut to COMM_LEN.
 */
static bool field_text(const char *fields, const char *key, const char *next,
		       char *out, size_t len)
{
	char want[40], stop[40];
	const char *v, *e;
	size_t n, i;

	snprintf(want, sizeof(want), "%s=", key);
	v = strstr(fields, want);
	while (v && v != fields && v[-1] != ' ')
		v = strstr(v + 1, want);
	if (!v)
		return false;
	v += strlen(want);
	e = NULL;
	if (next) {
		snprintf(stop, sizeof(stop), " %s=", next);
		e = strstr(v, stop);
	}
	if (!e)
		e = v + strcspn(v, next ? "\r\n" : "\t\r\n ");
	n = e - v;
	if (n >= len)
		n = len - 1;
	for (i = 0; i < n; i++)
		out[i] = v[i] >= ' ' && v[i] < 127 ? v[i] : '?';
	out[n] = '\0';
	return true;
}

static bool field_long(const char *fields, const char *key, long *out)
{
	char text[24], *end;

	if (!field_text(fields, key, NULL, text, sizeof(text)) || !text[0])
		return false;
	errno = 0;
	*out = strtol(text, &end, 10);
	return !errno && *end == '\0' && *out >= 0;
}

static int on_switch(struct tracesum *ts, const char *f, double now)
{
	char prev_comm[COMM_LEN], next_comm[COMM_LEN], state[8];
	long prev_pid, next_pid;
	struct task *prev, *next;

	if (!field_text(f, "prev_comm", "prev_pid", prev_comm, sizeof(prev_comm)) ||
	    !field_long(f, "prev_pid", &prev_pid) ||
	    !field_text(f, "prev_state", NULL, state, sizeof(state)) ||
	    !field_text(f, "next_comm", "next_pid", next_comm, sizeof(next_comm)) ||
	    !field_long(f, "next_pid", &next_pid))
		return 0;
	ts->n.switches++;
	/* switched out while still runnable: preempted (the idle task aside) */
	if (prev_pid && state[0] == 'R') {
		prev = task_of(ts, prev_pid, prev_comm);
		if (!prev)
			return -1;
		prev->preempted++;
		ts->n.preemptions++;
		count_preemption(ts, next_comm, prev_comm);
	}
	if (!next_pid)
		return 1;
	next = task_of(ts, next_pid, next_comm);
	if (!next)
		return -1;
	/* to the ns: timestamps in seconds carry binary fractions */
	if (next->woken_at >= 0 && now >= next->woken_at &&
	    add_latency(ts, round((now - next->woken_at) * 1e9) / 1e3))
		return -1;
	next->woken_at = -1;
	return 1;
}

static int on_wakeup(struct tracesum *ts, const char *f, double now)
{
	char comm[COMM_LEN];
	struct task *t;
	long pid;

	if (!field_text(f, "comm", "pid", comm, sizeof(comm)) || !field_long(f, "pid", &pid) ||
	    !pid)
		return 0;
	t = task_of(ts, pid, comm);
	if (!t)
		return -1;
	ts->n.wakeups++;
	t->wakeups++;
	if (t->woken_at < 0)	/* the first wakeup starts the wait */
		t->woken_at = now;
	return 1;
}

static int on_migrate(struct tracesum *ts, const char *f)
{
	long pid, from, to;
	char comm[COMM_LEN];
	struct task *t;

	if (!field_text(f, "comm", "pid", comm, sizeof(comm)) || !field_long(f, "pid", &pid) ||
	    !field_long(f, "orig_cpu", &from) || !field_long(f, "dest_cpu", &to))
		return 0;
	t = task_of(ts, pid, comm);
	if (!t)
		return -1;
	ts->n.migrations++;
	t->migrations++;
	if (from < MAX_CPUS && to < MAX_CPUS && count_cpu_pair(ts, from, to))
		return -1;
	return 1;
}

int tracesum_line(struct tracesum *ts, const char *line)
{
	const char *name, *fields;
	enum event ev = find_event(line, &name, &fields);
	double now;
	int ret;

	if (ev == EV_NONE || !event_time(line, name, &now) || now < 0)
		return 0;
	switch (ev) {
	case EV_SWITCH:
		ret = on_switch(ts, fields, now);
		break;
	case EV_WAKEUP:
		ret = on_wakeup(ts, fields, now);
		break;
	default:
		ret = on_migrate(ts, fields);
		break;
	}
	if (ret == 1) {
		if (ts->n.first_ts < 0)
			ts->n.first_ts = now;
		ts->n.last_ts = now;
	}
	return ret;
}

/* ---- output ------------------------------------------------------------ */

static int by_migrations(const void *a, const void *b)
{
	const struct task *x = a, *y = b;

	if (x->migrations != y->migrations)
		return x->migrations < y->migrations ? 1 : -1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int by_cpu_pair_count(const void *a, const void *b)
{
	const struct cpu_pair *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return x->from != y->from ? (x->from < y->from ? -1 : 1) : (x->to > y->to) - (x->to < y->to);
}

static int by_preempt_count(const void *a, const void *b)
{
	const struct preempt_pair *x = a, *y = b;

	return x->count < y->count ? 1 : x->count > y->count ? -1 : 0;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Copies of the tables, sorted for output; NULL without memory. */
static struct task *sorted_tasks(const struct tracesum *ts, size_t *nr)
{
	struct task *out = malloc((ts->nr_tasks ? ts->nr_tasks : 1) * sizeof(*out));
	size_t i;

	*nr = 0;
	if (!out)
		return NULL;
	for (i = 0; i < ts->cap_tasks; i++)
		if (ts->tasks[i].pid)
			out[(*nr)++] = ts->tasks[i];
	qsort(out, *nr, sizeof(*out), by_migrations);
	return out;
}

static double *sorted_latencies(const struct tracesum *ts)
{
	double *v = malloc((ts->nr_lat ? ts->nr_lat : 1) * sizeof(*v));

	if (v) {
		memcpy(v, ts->lat_us, ts->nr_lat * sizeof(*v));
		qsort(v, ts->nr_lat, sizeof(*v), by_value);
	}
	return v;
}

/* Nearest rank of sorted @v */
static double rank(const double *v, size_t n, double q)
{
	size_t i = (size_t)(q * n);

	return v[i < n ? i : n - 1];
}

static void summary_tasks(const struct tracesum *ts, unsigned int top, FILE *f)
{
	struct task *t;
	size_t nr, i;

	t = sorted_tasks(ts, &nr);
	fprintf(f, "top migrating tasks (pid comm: migrations, wakeups, times preempted):\n");
	for (i = 0; t && i < nr && i < top && t[i].migrations; i++)
		fprintf(f, "  %ld %s: %lu, %lu, %lu\n", t[i].pid, t[i].comm, t[i].migrations,
			t[i].wakeups, t[i].preempted);
	if (!t || !nr || !t[0].migrations)
		fprintf(f, "  none\n");
	free(t);
}

static void summary_cpu_pairs(const struct tracesum *ts, unsigned int top, FILE *f)
{
	struct cpu_pair *p = malloc((ts->nr_cpu_pairs ? ts->nr_cpu_pairs : 1) * sizeof(*p));
	size_t i;

	fprintf(f, "migrations per CPU pair (from -> to: count), most first:\n");
	if (p) {
		memcpy(p, ts->cpu_pairs, ts->nr_cpu_pairs * sizeof(*p));
		qsort(p, ts->nr_cpu_pairs, sizeof(*p), by_cpu_pair_count);
		for (i = 0; i < ts->nr_cpu_pairs && i < top; i++)
			fprintf(f, "  %u -> %u: %lu\n", p[i].from, p[i].to, p[i].count);
	}
	if (!ts->nr_cpu_pairs)
		fprintf(f, "  none\n");
	free(p);
}

static void summary_latency(const struct tracesum *ts, FILE *f)
{
	double *v;

	if (!ts->nr_lat) {
		fprintf(f, "wakeup-to-run latency: no wakeup was followed by its switch-in\n");
		return;
	}
	v = sorted_latencies(ts);
	if (!v)
		return;
	fprintf(f, "wakeup-to-run latency (us): n=%zu p50 %.1f p90 %.1f p99 %.1f p99.9 %.1f max %.1f\n",
		ts->nr_lat, rank(v, ts->nr_lat, 0.5), rank(v, ts->nr_lat, 0.9),
		rank(v, ts->nr_lat, 0.99), rank(v, ts->nr_lat, 0.999), v[ts->nr_lat - 1]);
	free(v);
}

static void summary_preemptions(const struct tracesum *ts, unsigned int top, FILE *f)
{
	struct preempt_pair *p = malloc(sizeof(ts->pairs));
	size_t i;

	fprintf(f, "who preempted whom (switched in while the other was runnable), most first:\n");
	if (p) {
		memcpy(p, ts->pairs, ts->nr_pairs * sizeof(*p));
		qsort(p, ts->nr_pairs, sizeof(*p), by_preempt_count);
		for (i = 0; i < ts->nr_pairs && i < top; i++)
			fprintf(f, "  %s preempted %s: %lu\n", p[i].by, p[i].whom, p[i].count);
	}
	if (!ts->nr_pairs)
		fprintf(f, "  none\n");
	if (ts->other_pairs)
		fprintf(f, "  (%lu more between other pairs)\n", ts->other_pairs);
	free(p);
}

void tracesum_summary(const struct tracesum *ts, const char *title,
		      unsigned int top, FILE *f)
{
	const struct tracesum_counts *n = &ts->n;

	fprintf(f, "%s\n", title);
	fprintf(f, "events: %lu switches, %lu wakeups, %lu migrations, %lu preemptions over %.3f s\n",
		n->switches, n->wakeups, n->migrations, n->preemptions,
		n->last_ts > n->first_ts ? n->last_ts - n->first_ts : 0.0);
	summary_tasks(ts, top, f);
	summary_cpu_pairs(ts, top, f);
	summary_latency(ts, f);
	summary_preemptions(ts, top, f);
}

static void table_cpu_pairs(const struct tracesum *ts, FILE *f)
{
	size_t i;

	fprintf(f, "# from_cpu\tto_cpu\tmigrations\n");
	for (i = 0; i < ts->nr_cpu_pairs; i++)
		fprintf(f, "%u\t%u\t%lu\n", ts->cpu_pairs[i].from, ts->cpu_pairs[i].to,
			ts->cpu_pairs[i].count);
}

static void table_tasks(const struct tracesum *ts, FILE *f)
{
	struct task *t;
	size_t nr, i;

	fprintf(f, "# pid\tcomm\tmigrations\twakeups\tpreempted\n");
	t = sorted_tasks(ts, &nr);
	for (i = 0; t && i < nr; i++)
		fprintf(f, "%ld\t%s\t%lu\t%lu\t%lu\n", t[i].pid, t[i].comm, t[i].migrations,
			t[i].wakeups, t[i].preempted);
	free(t);
}

static void table_preemptions(const struct tracesum *ts, FILE *f)
{
	size_t i;

	fprintf(f, "# preemptor\tpreempted\tcount\n");
	for (i = 0; i < ts->nr_pairs; i++)
		fprintf(f, "%s\t%s\t%lu\n", ts->pairs[i].by, ts->pairs[i].whom,
			ts->pairs[i].count);
}

/* Log-spaced buckets: 1, 2, 5, 10, 20, 50 ... us, up to 10 s */
static void table_latency(const struct tracesum *ts, FILE *f)
{
	static const double steps[] = { 1, 2, 5 };
	double lo = 0, hi, scale = 1;
	size_t i = 0, k = 0;
	double *v;

	fprintf(f, "# lo_us\thi_us\tcount\n");
	v = sorted_latencies(ts);
	while (v && lo < 1e7) {
		unsigned long count = 0;

		hi = steps[k % 3] * scale;
		if (++k % 3 == 0)
			scale *= 10;
		while (i < ts->nr_lat && v[i] < hi) {
			count++;
			i++;
		}
		fprintf(f, "%g\t%g\t%lu\n", lo, hi, count);
		lo = hi;
	}
	if (v && i < ts->nr_lat)
		fprintf(f, "%g\tinf\t%zu\n", lo, ts->nr_lat - i);
	free(v);
}

/* The tables, in the order written: each file with what fills it. */
static const struct {
	const char *file;
	void (*fill)(const struct tracesum *ts, FILE *f);
} tables[] = {
	{ "migrations.tsv", table_cpu_pairs },
	{ "tasks.tsv", table_tasks },
	{ "preemptions.tsv", table_preemptions },
	{ "wakeup_latency.tsv", table_latency },
};

/* Table @i into @dir, whole or not at all. */
static int write_table(const struct tracesum *ts, const char *dir, size_t i,
		       char *err, size_t len)
{
	char path[4096];
	struct outfile o;

	snprintf(path, sizeof(path), "%s/%s", dir, tables[i].file);
	if (outfile_open(&o, path, err, len))
		return -1;
	tables[i].fill(ts, o.f);
	return outfile_commit(&o, err, len);
}

int tracesum_write_tables(const struct tracesum *ts, const char *dir,
			  char *err, size_t len)
{
	char path[4096];
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(tables); i++) {
		if (!write_table(ts, dir, i, err, len))
			continue;
		/* all or none: the ones before go too */
		for (j = 0; j < i; j++) {
			snprintf(path, sizeof(path), "%s/%s", dir, tables[j].file);
			unlink(path);
		}
		return -1;
	}
	return 0;
}
