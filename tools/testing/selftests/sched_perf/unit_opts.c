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

TEST(opts_getopt_tables)
{
	char letters[32];
	struct option *opts = opt_getopt(tables, letters, sizeof(letters));

	ASSERT_NE(NULL, opts);
	/* the short letters */
	EXPECT_STREQ("c:s:o", letters);
	/* the long options */
	EXPECT_STREQ("big", opts[1].name);
	EXPECT_EQ(required_argument, opts[1].has_arg);
	EXPECT_EQ(no_argument, opts[5].has_arg);
	EXPECT_EQ(OPT_LONG_VAL + 5, opts[5].val);
	EXPECT_EQ(NULL, opts[ARRAY_SIZE(table) - 1].name);
	/* looked up by letter or long value */
	EXPECT_EQ(&table[0], opt_lookup(tables, 'c'));
	EXPECT_EQ(&table[3], opt_lookup(tables, OPT_LONG_VAL + 3));
	EXPECT_EQ(NULL, opt_lookup(tables, '?'));
	EXPECT_EQ(NULL, opt_lookup(tables, 'x'));
	/* in a table or not */
	EXPECT_TRUE(opt_in(table, &table[6]));
	EXPECT_FALSE(opt_in(table + 1, &table[0]));
	free(opts);
}

TEST(opts_store)
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
	size_t i;
	int nr;

	/* each value stored by its kind */
	ASSERT_EQ(0, parse(args, words, &nr));
	EXPECT_EQ(3U, v.count);
	EXPECT_TRUE(v.count_given);
	EXPECT_EQ(1000UL, v.big);
	EXPECT_NEAR(1.5, v.secs, 0);
	EXPECT_NEAR(50, v.pct, 0);
	EXPECT_STREQ("abc", v.name);
	EXPECT_TRUE(v.on);
	free_words(words, nr);
	/* bad values refused */
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		bool was_refused = refused(bad[i]);

		EXPECT_TRUE(was_refused) TH_LOG("bad command line %zu", i);
	}
}

/* The words of a parsed command line parse back to the same values. */
TEST(opts_rerun_words)
{
	static const char *const args[] = {
		"unit", "-oc", "3", "--bi", "7", "--name", "abc", "-s0.5",
		"--a-very", NULL
	};
	static const char *const want[] = {
		"--on", "--count=3", "--big=7", "--secs=0.5", "--a-very-long-option-name",
	};
	char *words[16], *again[16];
	int nr, nr2, i;

	ASSERT_EQ(0, parse(args, words, &nr));
	ASSERT_EQ((int)ARRAY_SIZE(want), nr);
	for (i = 0; i < nr; i++)
		EXPECT_STREQ(want[i], words[i]);
	/* the words after a program name, as the re-run has them */
	memmove(words + 1, words, nr * sizeof(*words));
	words[0] = "unit";
	words[nr + 1] = NULL;
	ASSERT_EQ(0, parse((const char *const *)words, again, &nr2));
	EXPECT_EQ(3U, v.count);
	EXPECT_EQ(7UL, v.big);
	EXPECT_NEAR(0.5, v.secs, 0);
	EXPECT_FALSE(v.on);
	EXPECT_STREQ("", v.name);
	ASSERT_EQ(nr, nr2);
	for (i = 0; i < nr2; i++)
		EXPECT_STREQ(words[i + 1], again[i]);
	free_words(again, nr2);
	free_words(words + 1, nr);
}

TEST(opts_usage)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ASSERT_NE(NULL, f);
	opt_usage(f, table, "1");
	fclose(f);
	ASSERT_NE(NULL, text);
	EXPECT_CONTAINS(text, "  -c, --count N           how many\n");
	EXPECT_CONTAINS(text, "      --big N             a long\n"
			"                          second line\n");
	EXPECT_CONTAINS(text, "  -s, --secs SEC          seconds (default 1)\n");
	EXPECT_CONTAINS(text, "      --a-very-long-option-name\n"
			"                          turn off\n");
	free(text);
}
