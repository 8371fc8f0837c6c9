/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every fuzz target of tests/fuzz shares: the input as a C string or
 * as a file the parser opens by name, and the parsers' error contract.
 *
 * A target is one LLVMFuzzerTestOneInput(); it runs under libFuzzer
 * (clang -fsanitize=fuzzer) or under mutate.c, our own mutation loop, and
 * always with AddressSanitizer, LeakSanitizer and UBSan: a memory error,
 * a leak or undefined behaviour is found by them, a broken contract by
 * FUZZ_CHECK, which aborts with the reason (a crash to both drivers).
 */
#ifndef SCHED_PERF_FUZZ_H
#define SCHED_PERF_FUZZ_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE		/* memfd_create() */
#endif
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "fuzz: %s:%d: contract broken: %s: ", \
				__FILE__, __LINE__, #cond);		\
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			abort();					\
		}							\
	} while (0)

/* @data as a C string: the text a parser of a /proc or debugfs read sees. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	FUZZ_CHECK(s, "out of memory");
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/*
 * Two texts from one input: up to the first NUL and after it (a second
 * snapshot for a diff), else the same text twice.  Free both.
 */
static inline void fuzz_split(const uint8_t *data, size_t size, char **a,
			      char **b)
{
	const uint8_t *nul = memchr(data, '\0', size);

	if (!nul) {
		*a = fuzz_text(data, size);
		*b = fuzz_text(data, size);
		return;
	}
	*a = fuzz_text(data, nul - data);
	*b = fuzz_text(nul + 1, size - (nul + 1 - data));
}

/*
 * @data as a file a parser opens by path: a memfd, rewritten for each
 * input, reached as /proc/self/fd/N.  One for the whole run.
 */
static inline const char *fuzz_file(const uint8_t *data, size_t size)
{
	static char path[64];
	static int fd = -1;
	size_t done = 0;

	if (fd < 0) {
		fd = memfd_create("fuzz-input", 0);
		FUZZ_CHECK(fd >= 0, "memfd_create failed");
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	FUZZ_CHECK(!ftruncate(fd, 0), "ftruncate failed");
	while (done < size) {
		ssize_t n = pwrite(fd, data + done, size - done, done);

		FUZZ_CHECK(n > 0, "pwrite failed");
		done += n;
	}
	return path;
}

/*
 * The parsers' error contract: a failure says why in one clear line, not
 * empty, no newline, no control character (a byte of the input echoed
 * raw could be a carriage return or an escape sequence), and within
 * @len with its NUL.  @prefix: the message must start with it (the file's
 * name), or NULL.
 */
static inline void fuzz_error_line(const char *who, const char *err,
				   size_t len, const char *prefix)
{
	const unsigned char *p;

	FUZZ_CHECK(memchr(err, '\0', len), "%s: error message not terminated", who);
	FUZZ_CHECK(err[0], "%s: failed with an empty error message", who);
	for (p = (const unsigned char *)err; *p; p++)
		FUZZ_CHECK(*p >= ' ' && *p != 0x7f,
			   "%s: byte 0x%02x at %zu in the error message: %s", who,
			   *p, (size_t)(p - (const unsigned char *)err), err);
	if (prefix)
		FUZZ_CHECK(!strncmp(err, prefix, strlen(prefix)),
			   "%s: error does not start with '%s': %s", who, prefix, err);
}

/* Every byte of @p[0..len) is zero: what a parser leaves after a failure. */
static inline bool fuzz_zeroed(const void *p, size_t len)
{
	const unsigned char *c = p;
	size_t i;

	for (i = 0; i < len; i++)
		if (c[i])
			return false;
	return true;
}

#endif
