// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "guard.h"
#include "results.h"

struct results {
	FILE *f;
	int undo;		/* guard action: remove the temporary file */
	char path[4096];
	char tmp[4096 + 16];
};

/* Async-signal-safe undo action. */
static void unlink_tmp(const char *tmp)
{
	unlink(tmp);
}

struct results *results_open(const char *path)
{
	struct results *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	snprintf(r->path, sizeof(r->path), "%s", path);
	snprintf(r->tmp, sizeof(r->tmp), "%s.tmp%d", path, getpid());
	/* registered first: a signal between the two leaves nothing */
	r->undo = guard_add(unlink_tmp, r->tmp);
	r->f = fopen(r->tmp, "w");
	if (!r->f) {
		guard_forget(r->undo);
		fprintf(stderr, "results: %s: %s\n", r->tmp, strerror(errno));
		free(r);
		return NULL;
	}
	fprintf(r->f, "# sched_perf results v1\n");
	return r;
}

void results_text(struct results *r, const char *key, const char *value)
{
	fprintf(r->f, "%s: %s\n", key, value);
}

void results_number(struct results *r, const char *key, double value)
{
	fprintf(r->f, "%s: %.9g\n", key, value);
}

void results_metrics(struct results *r, const char *prefix,
		     const struct metric_set *set)
{
	unsigned int i;

	for (i = 0; i < set->nr; i++) {
		const struct metric *m = &set->m[i];

		if (m->missing)
			fprintf(r->f, "# %s.%s: n/a (%s)\n", prefix, m->name, m->missing);
		else
			fprintf(r->f, "%s.%s: %.9g\n", prefix, m->name, m->value);
	}
}

int results_commit(struct results *r)
{
	int ret = 0;

	if (fclose(r->f) || rename(r->tmp, r->path)) {
		fprintf(stderr, "results: %s: %s\n", r->path, strerror(errno));
		unlink(r->tmp);
		ret = -1;
	}
	guard_forget(r->undo);
	free(r);
	return ret;
}

void results_discard(struct results *r)
{
	fclose(r->f);
	unlink(r->tmp);
	guard_forget(r->undo);
	free(r);
}

int results_read(const char *path,
		 void (*fn)(const char *key, const char *value, void *ctx),
		 void *ctx, char *err, size_t len)
{
	size_t size;
	char *text = fileio_read_user(path, &size, err, len), *pos = text, *line;
	unsigned int lineno = 0;
	int n = 0;

	if (!text)
		return -1;
	while ((line = fileio_next_line(&pos, text + size))) {
		char *sep, *space;

		lineno++;
		if (!line[0] || line[0] == '#')
			continue;
		sep = strstr(line, ": ");
		space = strchr(line, ' ');
		if (!sep || sep == line || space < sep) {
			snprintf(err, len, "%s:%u: not a 'key: value' line", path, lineno);
			n = -1;
			break;
		}
		*sep = '\0';
		fn(line, sep + 2, ctx);
		n++;
	}
	free(text);
	return n;
}
