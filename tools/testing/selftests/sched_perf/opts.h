/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command line as a table (after tools/lib/subcmd/parse-options): one
 * struct opt_spec per option carries its names, its value's name, its
 * help, how its value is parsed and where it is stored, and whether a
 * re-run of the program repeats it.  The getopt tables, --help and the
 * evidence re-run's command line are all made from these tables.
 *
 * Strict value parsing: every bad value is one line on stderr,
 * "<prog>: <option>: <why>", and a -1 the caller turns into exit 2.
 */
#ifndef SCHED_PERF_OPTS_H
#define SCHED_PERF_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum opt_kind {
	OPT_KIND_END,
	OPT_KIND_UINT,		/* unsigned int in [min, max] */
	OPT_KIND_ULONG,		/* unsigned long in [min, max] */
	OPT_KIND_DOUBLE,	/* double in [fmin, fmax] */
	OPT_KIND_PERCENT,	/* double, "50%" or "50" */
	OPT_KIND_STRING,	/* char[size], neither empty nor cut */
	OPT_KIND_SET,		/* no value: bool = set_to */
	OPT_KIND_CALLBACK,	/* parse() alone */
	OPT_KIND_HELP,		/* the caller prints the usage */
};

/* Flags */
#define OPT_LOAD	0x1	/* changes the load: the run set notes it */
#define OPT_THIS_RUN	0x2	/* a re-run (evidence) does not repeat it */

struct opt_spec {
	const char *long_name;		/* NULL ends a table */
	int short_name;			/* 0: the long form only */
	const char *arg;		/* the value's name; NULL: no value */
	/*
	 * Lines joined by '\n'.  With @help_default, a format of one %s:
	 * the default, as this program has it.
	 */
	const char *help;
	void (*help_default)(const void *ctx, char *buf, size_t len);
	enum opt_kind kind;
	void *dest;
	unsigned long min, max;
	double fmin, fmax;
	size_t size;			/* OPT_KIND_STRING: of @dest */
	bool set_to;			/* OPT_KIND_SET */
	bool *given;			/* optional: set true when given */
	unsigned int flags;
	/*
	 * Optional: parses instead of opt_store(), which it may call.
	 * Returns 0, or -1 after one line on stderr.
	 */
	int (*parse)(const char *prog, const struct opt_spec *o, const char *arg);
};

#define OPT_UINT(s, l, a, d, lo, hi, h, ...)				\
	{ .long_name = l, .short_name = s, .arg = a, .help = h,		\
	  .kind = OPT_KIND_UINT, .dest = (unsigned int *){ d },		\
	  .min = lo, .max = hi, __VA_ARGS__ }
#define OPT_ULONG(s, l, a, d, lo, hi, h, ...)				\
	{ .long_name = l, .short_name = s, .arg = a, .help = h,		\
	  .kind = OPT_KIND_ULONG, .dest = (unsigned long *){ d },	\
	  .min = lo, .max = hi, __VA_ARGS__ }
#define OPT_DOUBLE(s, l, a, d, lo, hi, h, ...)				\
	{ .long_name = l, .short_name = s, .arg = a, .help = h,		\
	  .kind = OPT_KIND_DOUBLE, .dest = (double *){ d },		\
	  .fmin = lo, .fmax = hi, __VA_ARGS__ }
#define OPT_PERCENT(s, l, a, d, h, ...)					\
	{ .long_name = l, .short_name = s, .arg = a, .help = h,		\
	  .kind = OPT_KIND_PERCENT, .dest = (double *){ d }, __VA_ARGS__ }
#define OPT_STRING(s, l, a, buf, h, ...)				\
	{ .long_name = l, .short_name = s, .arg = a, .help = h,		\
	  .kind = OPT_KIND_STRING, .dest = (char *){ buf },		\
	  .size = sizeof(buf), __VA_ARGS__ }
#define OPT_SET(s, l, d, v, h, ...)					\
	{ .long_name = l, .short_name = s, .help = h,			\
	  .kind = OPT_KIND_SET, .dest = (bool *){ d }, .set_to = v,	\
	  __VA_ARGS__ }
#define OPT_CALLBACK(s, l, a, fn, h, ...)				\
	{ .long_name = l, .short_name = s, .arg = a, .help = h,		\
	  .kind = OPT_KIND_CALLBACK, .parse = fn, __VA_ARGS__ }
#define OPT_HELP(h)							\
	{ .long_name = "help", .help = h, .kind = OPT_KIND_HELP }
#define OPT_END()	{ .long_name = NULL }

/* @arg into @o's destination by its kind; then *@o->given. */
int opt_store(const char *prog, const struct opt_spec *o, const char *arg);
/* @o->parse, else opt_store(). */
int opt_parse(const char *prog, const struct opt_spec *o, const char *arg);

/*
 * getopt_long()'s tables for the NULL-ended list @tables: the letters
 * into @letters (room for 3 per option), the long options returned,
 * NULL-ended, each with val = OPT_LONG_VAL + its index over @tables.
 * NULL when out of memory.
 */
#define OPT_LONG_VAL	256
struct option *opt_getopt(const struct opt_spec *const *tables, char *letters,
			  size_t len);
/* The option getopt_long() returned as @val; NULL for '?' or ':'. */
const struct opt_spec *opt_lookup(const struct opt_spec *const *tables, int val);

/*
 * Every option of @argv by @table (opt_parse()); --help prints @usage on
 * stdout and exits 0.  The first operand's index, or -1 after one line
 * on stderr: an unknown option, a missing value or a bad one.
 */
int opt_parse_args(const char *prog, int argc, char **argv, const struct opt_spec *table,
		   void (*usage)(FILE *f));

/* Is @o one of @table's? */
bool opt_in(const struct opt_spec *table, const struct opt_spec *o);

/* The option as one word, "--name" or "--name=@arg", malloc'd. */
char *opt_word(const struct opt_spec *o, const char *arg);

/*
 * Every option of @table: "  -x, --name VALUE" and its help from one
 * column.  @ctx goes to the help_default() callbacks.
 */
void opt_usage(FILE *f, const struct opt_spec *table, const void *ctx);

int opt_ulong(const char *prog, const char *opt, const char *arg,
	      unsigned long min, unsigned long max, unsigned long *out);
int opt_double(const char *prog, const char *opt, const char *arg,
	       double min, double max, double *out);
/* "50%" or "50": a percentage of the online CPUs */
int opt_percent(const char *prog, const char *opt, const char *arg,
		double *out);
/* Into @out (@len bytes): an empty value or one cut is refused. */
int opt_string(const char *prog, const char *opt, const char *arg,
	       char *out, size_t len);

#endif
