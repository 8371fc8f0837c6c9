// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: results_read() (results.c), the reader of results files
 * ("key: value" lines; run sets and sched_perf_compare read them).
 */
#include "fuzz.h"
#include "results.h"

struct seen {
	int n;
	size_t bytes;
};

static void entry(const char *key, const char *value, void *ctx)
{
	struct seen *s = ctx;

	FUZZ_CHECK(key[0] && key[0] != '#', "empty or comment key '%s'", key);
	FUZZ_CHECK(!strchr(key, ' ') && !strchr(key, '\n'), "key with a blank: '%s'", key);
	FUZZ_CHECK(!strchr(value, '\n'), "value with a newline");
	s->n++;
	s->bytes += strlen(key) + strlen(value);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	struct seen s = { 0 };
	char err[512], prefix[80];
	int n;

	memset(err, 'x', sizeof(err));
	n = results_read(path, entry, &s, err, sizeof(err));
	if (n < 0) {
		FUZZ_CHECK(n == -1, "results_read returned %d", n);
		snprintf(prefix, sizeof(prefix), "%s:", path);
		fuzz_error_line("results_read", err, sizeof(err), prefix);
		return 0;
	}
	FUZZ_CHECK(n == s.n, "returned %d entries, gave %d", n, s.n);
	/* "key: value" takes at least 3 bytes of the file per entry */
	FUZZ_CHECK(s.bytes + 2 * (size_t)n <= size, "more text out than in");
	return 0;
}
