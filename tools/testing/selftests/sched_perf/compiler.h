/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel-style helpers the suite uses outside kselftest.h (which is
 * included by verdict.c alone, as its counters are file-static).
 */
#ifndef SCHED_PERF_COMPILER_H
#define SCHED_PERF_COMPILER_H

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(arr) (sizeof(arr) / sizeof((arr)[0]))
#endif

#define SCHED_PERF_ATTR(x) __attribute__((x))
#ifndef __printf
#define __printf(a, b) SCHED_PERF_ATTR(format(printf, a, b))
#endif
#ifndef __noreturn
#define __noreturn _Noreturn
#endif
/* A constant's spelling as a string: help text from compare.h's defaults */
#ifndef __stringify
#define __stringify_1(x...) #x
#define __stringify(x...) __stringify_1(x)
#endif

#endif
