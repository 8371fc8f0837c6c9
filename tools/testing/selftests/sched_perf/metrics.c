// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>

#include "metrics.h"

static struct metric *metric_slot(struct metric_set *set, const char *name)
{
	struct metric *m;

	if (set->nr >= METRICS_MAX) {
		fprintf(stderr, "metric table full, dropping %s\n", name);
		return NULL;
	}
	m = &set->m[set->nr++];
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", name);
	return m;
}

void metric_add(struct metric_set *set, const char *name, const char *unit,
		double value)
{
	struct metric *m = metric_slot(set, name);

	if (m) {
		m->unit = unit;
		m->value = value;
	}
}

void metric_missing(struct metric_set *set, const char *name,
		    const char *why)
{
	struct metric *m = metric_slot(set, name);

	if (m)
		m->missing = why;
}

void metric_ratio(struct metric_set *set, const char *name, const char *unit,
		  double num, double den, double scale)
{
	if (den > 0)
		metric_add(set, name, unit, num / den * scale);
	else
		metric_missing(set, name, "denominator is zero");
}

const struct metric *metric_find(const struct metric_set *set,
				 const char *name)
{
	unsigned int i;

	for (i = 0; i < set->nr; i++)
		if (!strcmp(set->m[i].name, name))
			return &set->m[i];
	return NULL;
}
