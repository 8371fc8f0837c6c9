// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "outfile.h"
#include "results.h"

struct results {
	struct outfile out;
};

struct results *results_open(const char *path, char *err, size_t len)
{
	struct results *r = calloc(1, sizeof(*r));

	if (!r) {
		snprintf(err, len, "%s: %s", path, strerror(ENOMEM));
		return NULL;
	}
	if (outfile_open(&r->out, path, err, len)) {
		free(r);
		return NULL;
	}
	fprintf(r->out.f, "# sched_perf results v1\n");
	return r;
}

void results_text(struct results *r, const char *key, const char *value)
{
	fprintf(r->out.f, "%s: %s\n", key, value);
}

void results_number(struct results *r, const char *key, double value)
{
	fprintf(r->out.f, "%s: %.9g\n", key, value);
}

void results_metrics(struct results *r, const char *prefix,
		     const struct metric_set *set)
{
	unsigned int i;

	for (i = 0; i < set->nr; i++) {
		const struct metric *m = &set->m[i];

		if (m->missing)
			fprintf(r->out.f, "# %s.%s: n/a (%s)\n", prefix, m->name, m->missing);
		else
			fprintf(r->out.f, "%s.%s: %.9g\n", prefix, m->name, m->value);
	}
}

int results_commit(struct results *r, char *err, size_t len)
{
	int ret = outfile_commit(&r->out, err, len);

	free(r);
	return ret;
}

void results_discard(struct results *r)
{
	outfile_discard(&r->out);
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
