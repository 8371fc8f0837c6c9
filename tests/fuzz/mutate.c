// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzz targets' driver where libFuzzer cannot be had: an AFL-style
 * "havoc" loop over the seed corpus (no coverage feedback) that calls the
 * target's LLVMFuzzerTestOneInput() in process, built with ASan, LSan
 * and UBSan like the libFuzzer build.
 *
 *   fuzz_TARGET [-t SECONDS] [-a PREFIX] [-m MAXLEN] [-s SEED] DIR|FILE...
 *   fuzz_TARGET -r FILE...        run each file once (replay)
 *
 * A crash (a sanitizer report, a broken contract) writes the input to
 * PREFIX"crash-<pid>" from the sanitizer's death callback.  Leaks are
 * looked for after each seed, every LEAK_EVERY inputs and at the end; the
 * inputs since the last clean look are written to the directory
 * PREFIX"leak-<pid>" (replay them with -r, which looks after each one, to
 * find the one that leaks).  The figures are printed as libFuzzer's
 * -print_final_stats prints them.
 */
#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <sanitizer/common_interface_defs.h>
#include <sanitizer/lsan_interface.h>
#include <sys/stat.h>
#include <time.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define LEAK_EVERY	64
#define MAX_SEEDS	4096

struct buf {
	uint8_t *d;
	size_t len;
};

static struct buf seeds[MAX_SEEDS];
static unsigned int nr_seeds;
static struct buf recent[LEAK_EVERY];	/* inputs since the last leak check */
static unsigned int nr_recent;
static const uint8_t *cur;
static size_t cur_len;
static const char *prefix = "./";
static unsigned long long execs;
static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static size_t below(size_t n)
{
	return n ? rnd() % n : 0;
}

static void write_file(const char *path, const uint8_t *d, size_t len)
{
	FILE *f = fopen(path, "w");

	if (!f || fwrite(d, 1, len, f) != len || fclose(f))
		fprintf(stderr, "mutate: cannot write %s: %s\n", path, strerror(errno));
}

static void on_death(void)
{
	char path[4096];

	snprintf(path, sizeof(path), "%scrash-%ld", prefix, (long)getpid());
	write_file(path, cur, cur_len);
	fprintf(stderr, "mutate: crash; input written to %s\n", path);
	printf("stat::number_of_executed_units: %llu\n", execs);
	fflush(stdout);
}

static void load(const char *path)
{
	struct stat st;
	struct buf *b;
	FILE *f;

	if (nr_seeds >= MAX_SEEDS || stat(path, &st) || !S_ISREG(st.st_mode))
		return;
	f = fopen(path, "r");
	b = &seeds[nr_seeds];
	b->d = malloc(st.st_size + 1);
	if (!f || !b->d || fread(b->d, 1, st.st_size, f) != (size_t)st.st_size) {
		fprintf(stderr, "mutate: cannot read %s\n", path);
		exit(2);
	}
	fclose(f);
	b->len = st.st_size;
	nr_seeds++;
}

static void load_arg(const char *arg)
{
	char path[4096];
	struct dirent *e;
	DIR *d = opendir(arg);

	if (!d) {
		load(arg);
		return;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", arg, e->d_name);
		load(path);
	}
	closedir(d);
}

static const char *const numbers[] = {
	"0", "-1", "1", "4294967295", "4294967296", "18446744073709551615",
	"18446744073709551616", "99999999999999999999999", "1e308", "-1e308",
	"1e-320", "nan", "inf", "-0", "0x10", "2147483648", "65535", "65536",
};

static const char interesting[] = "\0\n\n \t-0.9%:#@\r\xff";

/* One havoc step on @b, which has room for @max bytes. */
static void havoc(struct buf *b, size_t max)
{
	const struct buf *o = &seeds[below(nr_seeds)];
	size_t at = below(b->len + 1), n, from;
	const char *num;

	switch (below(10)) {
	case 0:		/* flip a bit */
		if (b->len)
			b->d[below(b->len)] ^= 1 << below(8);
		break;
	case 1:		/* a random byte */
		if (b->len)
			b->d[below(b->len)] = rnd();
		break;
	case 2:		/* a byte that means something to a parser */
		if (b->len)
			b->d[below(b->len)] = interesting[below(sizeof(interesting) - 1)];
		break;
	case 3:		/* delete a range */
		n = below(b->len - at + 1);
		memmove(b->d + at, b->d + at + n, b->len - at - n);
		b->len -= n;
		break;
	case 4:		/* copy a range of a seed in */
		if (!o->len)
			break;
		from = below(o->len);
		n = 1 + below(o->len - from);
		if (n > max - b->len)
			n = max - b->len;
		memmove(b->d + at + n, b->d + at, b->len - at);
		memcpy(b->d + at, o->d + from, n);
		b->len += n;
		break;
	case 5:		/* a number that is an edge */
		num = numbers[below(ARRAY_SIZE(numbers))];
		n = strlen(num);
		if (n > max - b->len)
			break;
		memmove(b->d + at + n, b->d + at, b->len - at);
		memcpy(b->d + at, num, n);
		b->len += n;
		break;
	case 6:		/* splice: this one's head, another's tail */
		from = below(o->len + 1);
		n = o->len - from;
		if (at + n > max)
			n = max - at;
		memcpy(b->d + at, o->d + from, n);
		b->len = at + n;
		break;
	case 7:		/* a long run of one byte: huge lines, huge numbers */
		n = below(max - b->len + 1);
		if (n > 4096)
			n = 4096;
		memmove(b->d + at + n, b->d + at, b->len - at);
		memset(b->d + at, below(2) ? '9' : rnd(), n);
		b->len += n;
		break;
	case 8:		/* truncate */
		b->len = at;
		break;
	default:	/* random bytes */
		n = 1 + below(8);
		if (n > max - b->len)
			break;
		memmove(b->d + at + n, b->d + at, b->len - at);
		for (from = 0; from < n; from++)
			b->d[at + from] = rnd();
		b->len += n;
	}
}

static void run(const uint8_t *d, size_t len)
{
	cur = d;
	cur_len = len;
	LLVMFuzzerTestOneInput(d, len);
}

/* Remember the input until the next leak check found nothing. */
static void remember(const uint8_t *d, size_t len)
{
	struct buf *r = &recent[nr_recent++];

	free(r->d);
	r->d = malloc(len + 1);
	if (!r->d)
		exit(2);
	memcpy(r->d, d, len);
	r->len = len;
}

/*
 * Leaks since the last look: the inputs run since then go to the
 * directory PREFIX"leak-<pid>", and the process ends at once (_exit: no
 * second report, from LeakSanitizer's own look at exit).
 */
static void leak_check(void)
{
	char path[4096];
	unsigned int i;
	int n;

	if (!__lsan_do_recoverable_leak_check()) {
		nr_recent = 0;
		return;
	}
	n = snprintf(path, sizeof(path), "%sleak-%ld", prefix, (long)getpid());
	if (mkdir(path, 0755))
		fprintf(stderr, "mutate: cannot make %s: %s\n", path, strerror(errno));
	for (i = 0; i < nr_recent; i++) {
		snprintf(path + n, sizeof(path) - n, "/input-%u", i);
		write_file(path, recent[i].d, recent[i].len);
	}
	path[n] = '\0';
	fprintf(stderr, "mutate: a leak in one of the last %u inputs, written to %s/ (replay each with -r)\n",
		nr_recent, path);
	printf("stat::number_of_executed_units: %llu\n", execs);
	fflush(stdout);
	_exit(1);
}

static int replay(int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		nr_seeds = 0;
		load(argv[i]);
		if (!nr_seeds)
			continue;
		run(seeds[0].d, seeds[0].len);
		if (__lsan_do_recoverable_leak_check()) {
			fprintf(stderr, "mutate: %s leaks\n", argv[i]);
			_exit(1);	/* no second report at exit */
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	double seconds = 30, elapsed = 0;
	size_t max = 16384;
	struct timespec t0, t;
	struct buf b;
	int opt, i;

	rng ^= (uint64_t)time(NULL) << 17 ^ getpid();
	while ((opt = getopt(argc, argv, "t:a:m:s:r")) != -1) {
		switch (opt) {
		case 't':
			seconds = atof(optarg);
			break;
		case 'a':
			prefix = optarg;
			break;
		case 'm':
			max = strtoul(optarg, NULL, 10);
			break;
		case 's':
			rng = strtoull(optarg, NULL, 0) | 1;
			break;
		case 'r':
			__sanitizer_set_death_callback(on_death);
			return replay(argc - optind, argv + optind);
		default:
			fprintf(stderr, "usage: %s [-t SECONDS] [-a PREFIX] [-m MAXLEN] [-s SEED] DIR|FILE... | -r FILE...\n",
				argv[0]);
			return 2;
		}
	}
	for (i = optind; i < argc; i++)
		load_arg(argv[i]);
	if (!nr_seeds)
		seeds[nr_seeds++] = (struct buf){ calloc(1, 1), 0 };
	__sanitizer_set_death_callback(on_death);
	b.d = malloc(max + 1);
	if (!b.d || max < 16)
		return 2;
	/* the seeds as they are first, each looked at for leaks */
	for (i = 0; i < (int)nr_seeds; i++, execs++) {
		b.len = seeds[i].len < max ? seeds[i].len : max;
		remember(seeds[i].d, b.len);
		run(seeds[i].d, b.len);
		leak_check();
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		const struct buf *s = &seeds[below(nr_seeds)];
		unsigned int steps = 1 + below(16);

		b.len = s->len < max ? s->len : max;
		memcpy(b.d, s->d, b.len);
		while (steps--)
			havoc(&b, max);
		remember(b.d, b.len);
		run(b.d, b.len);
		execs++;
		if (nr_recent == LEAK_EVERY)
			leak_check();
		clock_gettime(CLOCK_MONOTONIC, &t);
		elapsed = t.tv_sec - t0.tv_sec + (t.tv_nsec - t0.tv_nsec) / 1e9;
	} while (elapsed < seconds);
	leak_check();
	printf("stat::number_of_executed_units: %llu\n", execs);
	printf("stat::average_exec_per_sec:     %.0f\n", execs / elapsed);
	printf("Done %llu runs in %.0f second(s)\n", execs, elapsed);
	return 0;
}
