// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"

int opt_ulong(const char *prog, const char *opt, const char *arg,
	      unsigned long min, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (!*arg || *end || errno || arg[0] == '-' || v < min || v > max) {
		fprintf(stderr, "%s: %s: '%s' is not an integer in [%lu, %lu]\n",
			prog, opt, arg, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_double(const char *arg, double *v, char **end)
{
	errno = 0;
	*v = strtod(arg, end);
	return !*arg || errno || *end == arg || !isfinite(*v) ? -1 : 0;
}

int opt_double(const char *prog, const char *opt, const char *arg,
	       double min, double max, double *out)
{
	char *end;
	double v;

	if (parse_double(arg, &v, &end) || *end || v < min || v > max) {
		fprintf(stderr, "%s: %s: '%s' is not a number in [%g, %g]\n",
			prog, opt, arg, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

int opt_percent(const char *prog, const char *opt, const char *arg,
		double *out)
{
	char *end;
	double v;

	if (parse_double(arg, &v, &end) || (*end && strcmp(end, "%")) ||
	    v <= 0 || v > 100000) {
		fprintf(stderr, "%s: %s: '%s' is not a percentage in (0, 100000]\n",
			prog, opt, arg);
		return -1;
	}
	*out = v;
	return 0;
}
