// SPDX-License-Identifier: GPL-2.0
/*
 * The command line as a table: getopt's tables, values stored by kind,
 * the words a re-run repeats, and --help.
 */
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler.h"
#include "opts.h"
#include "unit.h"

static struct {
	unsigned int count;
	unsigned long big;
	double secs, pct;
	char name[8];
	bool on, count_given;
} v;

static void def(const void *ctx, char *buf, size_t len)
{
	snprintf(buf, len, "%s", (const char *)ctx);
}

static const struct opt_spec table[] = {
	OPT_UINT('c', "count", "N", &v.count, 1, 10, "how many",
		 .given = &v.count_given),
	OPT_ULONG(0, "big", "N", &v.big, 0, 1000, "a long\nsecond line"),
	OPT_DOUBLE('s', "secs", "SEC", &v.secs, 0.5, 2, "seconds (default %s)",
		   .help_default = def),
	OPT_PERCENT(0, "pct", "P[%]", &v.pct, "a share"),
	OPT_STRING(0, "name", "NAME", v.name, "a name",
		   .flags = OPT_THIS_RUN),
	OPT_SET('o', "on", &v.on, true, "turn on"),
	OPT_SET(0, "a-very-long-option-name", &v.on, false, "turn off"),
	OPT_END(),
};

static const struct opt_spec *const tables[] = { table, NULL };

/*
 * @args (NULL-ended, a program name first) through getopt_long() and the
 * tables; the words a re-run repeats into @words.
 */
static int parse(const char *const *args, char **words, int *nr)
{
	char letters[32], *argv[32];
	int argc = 0;
	struct option *opts = opt_getopt(tables, letters, sizeof(letters));
	const struct opt_spec *o;
	int opt, ret = 0;

	/* getopt permutes its argv: a copy */
	while (args[argc] && argc < 31) {
		argv[argc] = (char *)args[argc];
		argc++;
	}
	argv[argc] = NULL;
	memset(&v, 0, sizeof(v));
	*nr = 0;
	optind = 0;	/* glibc: start again */
	opterr = 0;
	while (opts && !ret && (opt = getopt_long(argc, argv, letters, opts, NULL)) != -1) {
		o = opt_lookup(tables, opt);
		ret = o ? opt_parse("unit", o, optarg) : -1;
		if (!ret && !(o->flags & OPT_THIS_RUN))
			words[(*nr)++] = opt_word(o, optarg);
	}
	free(opts);
	return opts && !ret && optind == argc ? 0 : -1;
}

static void free_words(char **words, int nr)
{
	while (nr--)
		free(words[nr]);
}

/* parse(), its lines on stderr discarded: -1 when refused. */
static int refused(const char *const *args)
{
	int saved = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY);
	char *words[16];
	int nr, ret;

	fflush(stderr);
	if (null >= 0)
		dup2(null, STDERR_FILENO);
	ret = parse(args, words, &nr);
	free_words(words, nr);
	if (saved >= 0)
		dup2(saved, STDERR_FILENO);
	close(saved);
	close(null);
	return ret == -1;
}

UNIT_TEST(opts_getopt_tables)
{
	char letters[32];
	struct option *opts = opt_getopt(tables, letters, sizeof(letters));

	EXPECT(opts && !strcmp(letters, "c:s:o"), "opts_letters");
	EXPECT(opts && !strcmp(opts[1].name, "big") && opts[1].has_arg == required_argument &&
	       opts[5].has_arg == no_argument && opts[5].val == OPT_LONG_VAL + 5 &&
	       !opts[ARRAY_SIZE(table) - 1].name, "opts_long_options");
	EXPECT(opt_lookup(tables, 'c') == &table[0] &&
	       opt_lookup(tables, OPT_LONG_VAL + 3) == &table[3] &&
	       !opt_lookup(tables, '?') && !opt_lookup(tables, 'x'), "opts_lookup");
	EXPECT(opt_in(table, &table[6]) && !opt_in(table + 1, &table[0]), "opts_in");
	free(opts);
}

UNIT_TEST(opts_store)
{
	static const char *const args[] = {
		"unit", "-oc", "3", "--big=1000", "--s", "1.5", "--pct", "50%",
		"--name", "abc", NULL
	};
	static const char *const bad[][4] = {
		{ "unit", "-c0" }, { "unit", "--big", "1001" }, { "unit", "-s", "3" },
		{ "unit", "--pct", "50%x" }, { "unit", "--name", "" },
		{ "unit", "--name", "12345678" }, { "unit", "-x" }, { "unit", "--count" },
	};
	char *words[16];
	size_t i, nr_refused = 0;
	int nr;

	EXPECT(!parse(args, words, &nr) && v.count == 3 &&
	       v.count_given && v.big == 1000 && v.secs == 1.5 && v.pct == 50 &&
	       !strcmp(v.name, "abc") && v.on, "opts_store_by_kind");
	free_words(words, nr);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		nr_refused += refused(bad[i]);
	EXPECT(nr_refused == ARRAY_SIZE(bad), "opts_bad_values_refused");
}

/* The words of a parsed command line parse back to the same values. */
UNIT_TEST(opts_rerun_words)
{
	static const char *const args[] = {
		"unit", "-oc", "3", "--bi", "7", "--name", "abc", "-s0.5",
		"--a-very", NULL
	};
	char *words[16], *again[16];
	int nr, nr2, i;
	bool same;

	ASSERT(!parse(args, words, &nr), "opts_rerun_words_parse");
	EXPECT(nr == 5 && !strcmp(words[0], "--on") && !strcmp(words[1], "--count=3") &&
	       !strcmp(words[2], "--big=7") && !strcmp(words[3], "--secs=0.5") &&
	       !strcmp(words[4], "--a-very-long-option-name"), "opts_rerun_words");
	/* the words after a program name, as the re-run has them */
	memmove(words + 1, words, nr * sizeof(*words));
	words[0] = "unit";
	words[nr + 1] = NULL;
	same = !parse((const char *const *)words, again, &nr2) && v.count == 3 && v.big == 7 &&
	       v.secs == 0.5 && !v.on && !v.name[0] && nr2 == nr;
	for (i = 0; i < nr2 && i < nr; i++)
		same = same && !strcmp(again[i], words[i + 1]);
	free_words(again, nr2);
	free_words(words + 1, nr);
	EXPECT(same, "opts_rerun_words_parse_back");
}

UNIT_TEST(opts_usage)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (f) {
		opt_usage(f, table, "1");
		fclose(f);
	}
	EXPECT(text && strstr(text, "  -c, --count N           how many\n") &&
	       strstr(text, "      --big N             a long\n"
			    "                          second line\n") &&
	       strstr(text, "  -s, --secs SEC          seconds (default 1)\n") &&
	       strstr(text, "      --a-very-long-option-name\n"
			    "                          turn off\n"), "opts_usage");
	free(text);
}

