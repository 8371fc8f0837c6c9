// SPDX-License-Identifier: GPL-2.0
/*
 * The command line as a table.  See opts.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"

/* Where the help starts: after "  -x, --name VALUE" and two spaces. */
#define HELP_COLUMN	26

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

/* An empty value would quietly turn the option off, a cut one name another file. */
int opt_string(const char *prog, const char *opt, const char *arg,
	       char *out, size_t len)
{
	if (!*arg || strlen(arg) >= len) {
		fprintf(stderr, "%s: %s: %s (see --help)\n", prog, opt,
			*arg ? "value too long" : "empty value");
		return -1;
	}
	snprintf(out, len, "%s", arg);
	return 0;
}

static int store_uint(const char *prog, const char *opt,
		      const struct opt_spec *o, const char *arg)
{
	unsigned long v;

	if (opt_ulong(prog, opt, arg, o->min, o->max, &v))
		return -1;
	*(unsigned int *)o->dest = v;
	return 0;
}

static int store(const char *prog, const char *opt, const struct opt_spec *o,
		 const char *arg)
{
	switch (o->kind) {
	case OPT_KIND_UINT:
		return store_uint(prog, opt, o, arg);
	case OPT_KIND_ULONG:
		return opt_ulong(prog, opt, arg, o->min, o->max, o->dest);
	case OPT_KIND_DOUBLE:
		return opt_double(prog, opt, arg, o->fmin, o->fmax, o->dest);
	case OPT_KIND_PERCENT:
		return opt_percent(prog, opt, arg, o->dest);
	case OPT_KIND_STRING:
		return opt_string(prog, opt, arg, o->dest, o->size);
	case OPT_KIND_SET:
		*(bool *)o->dest = o->set_to;
		return 0;
	default:
		return -1;
	}
}

int opt_store(const char *prog, const struct opt_spec *o, const char *arg)
{
	char opt[64];

	snprintf(opt, sizeof(opt), "--%s", o->long_name);
	if (store(prog, opt, o, arg))
		return -1;
	if (o->given)
		*o->given = true;
	return 0;
}

int opt_parse(const char *prog, const struct opt_spec *o, const char *arg)
{
	return o->parse ? o->parse(prog, o, arg) : opt_store(prog, o, arg);
}

static size_t count(const struct opt_spec *const *tables)
{
	const struct opt_spec *o;
	size_t n = 0;

	for (; *tables; tables++)
		for (o = *tables; o->long_name; o++)
			n++;
	return n;
}

struct option *opt_getopt(const struct opt_spec *const *tables, char *letters,
			  size_t len)
{
	struct option *all = calloc(count(tables) + 1, sizeof(*all));
	const struct opt_spec *o;
	size_t n = 0, k = 0;

	if (!all)
		return NULL;
	for (; *tables; tables++) {
		for (o = *tables; o->long_name; o++, n++) {
			all[n] = (struct option){ o->long_name,
				o->arg ? required_argument : no_argument,
				NULL, OPT_LONG_VAL + n };
			if (o->short_name && k + 3 < len) {
				letters[k++] = o->short_name;
				if (o->arg)
					letters[k++] = ':';
			}
		}
	}
	letters[k] = '\0';
	return all;
}

const struct opt_spec *opt_lookup(const struct opt_spec *const *tables, int val)
{
	const struct opt_spec *o;
	int n = 0;

	for (; *tables; tables++)
		for (o = *tables; o->long_name; o++, n++)
			if (val == OPT_LONG_VAL + n || (val < OPT_LONG_VAL && val == o->short_name))
				return o;
	return NULL;
}

bool opt_in(const struct opt_spec *table, const struct opt_spec *o)
{
	for (; table->long_name; table++)
		if (table == o)
			return true;
	return false;
}

char *opt_word(const struct opt_spec *o, const char *arg)
{
	size_t len = strlen(o->long_name) + (o->arg ? strlen(arg) + 1 : 0) + 3;
	char *word = malloc(len);

	if (word)
		snprintf(word, len, "--%s%s%s", o->long_name, o->arg ? "=" : "",
			 o->arg ? arg : "");
	return word;
}

/* @text's lines, the first from @pos, the others from HELP_COLUMN. */
static void print_lines(FILE *f, const char *text, int pos)
{
	const char *nl;

	do {
		nl = strchr(text, '\n');
		if (*text)
			fprintf(f, "%*s%.*s\n", pos < HELP_COLUMN ? HELP_COLUMN - pos : 0, "",
				nl ? (int)(nl - text) : (int)strlen(text), text);
		else
			fputc('\n', f);
		pos = 0;
		text = nl ? nl + 1 : NULL;
	} while (text);
}

static void usage_one(FILE *f, const struct opt_spec *o, const void *ctx)
{
	char help[1024], def[128];
	int pos;

	if (o->short_name)
		pos = fprintf(f, "  -%c, --%s", o->short_name, o->long_name);
	else
		pos = fprintf(f, "      --%s", o->long_name);
	if (o->arg)
		pos += fprintf(f, " %s", o->arg);
	/* too long for the column: the help on lines of its own */
	if (pos > HELP_COLUMN - 2) {
		fputc('\n', f);
		pos = 0;
	}
	if (o->help_default) {
		o->help_default(ctx, def, sizeof(def));
		snprintf(help, sizeof(help), o->help, def);
	} else {
		snprintf(help, sizeof(help), "%s", o->help);
	}
	print_lines(f, help, pos);
}

void opt_usage(FILE *f, const struct opt_spec *table, const void *ctx)
{
	for (; table->long_name; table++)
		usage_one(f, table, ctx);
}

int opt_parse_args(const char *prog, int argc, char **argv, const struct opt_spec *table,
		   void (*usage)(FILE *f))
{
	const struct opt_spec *tables[] = { table, NULL };
	const struct opt_spec *o;
	char letters[64] = ":";
	struct option *opts = opt_getopt(tables, letters + 1, sizeof(letters) - 1);
	int opt, ret = -1;

	if (!opts) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return -1;
	}
	opterr = 0;
	while ((opt = getopt_long(argc, argv, letters, opts, NULL)) != -1) {
		o = opt_lookup(tables, opt);
		if (opt == ':')
			fprintf(stderr, "%s: option '%s' needs a value (see --help)\n", prog,
				argv[optind - 1]);
		else if (!o && optopt && argv[optind - 1][1] != '-')
			fprintf(stderr, "%s: unknown option '-%c' (see --help)\n", prog, optopt);
		else if (!o)
			fprintf(stderr, "%s: unknown option '%s' (see --help)\n", prog,
				argv[optind - 1]);
		if (opt == ':' || !o)
			goto out;
		if (o->kind == OPT_KIND_HELP) {
			usage(stdout);
			exit(0);
		}
		if (opt_parse(prog, o, optarg))
			goto out;
	}
	ret = optind;
out:
	free(opts);
	return ret;
}
