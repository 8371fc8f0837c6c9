// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_count: count tracepoint hits with a BPF program, the way a reviewer
 * proposes to count the fair class's decisions instead of kernel/sched's
 * counters.  For bench/counters.sh's "bpf" mode in the 6.12 guest: what
 * one attached BPF call per event costs the workload.
 *
 *   bpf_count READY_FIFO TRACEPOINT...
 *
 * Loads one raw-tracepoint program per tracepoint (a per-CPU array of one
 * u64, incremented: the cheapest counter BPF has), attaches it, writes
 * "attached" to READY_FIFO, then waits for SIGTERM and prints each
 * tracepoint's count ("failed" instead when the kernel refuses, the reason
 * on stderr).  Raw syscalls only: the guest has no libbpf, and the
 * program is eleven instructions.  Exit 0, 1 on a kernel refusal (with its
 * errno and the verifier's log), 2 on bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* more than the guest's CONFIG_NR_CPUS: one u64 per possible CPU */
#define MAX_CPUS 1024
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct counted {
	const char *tracepoint;
	int map_fd;
	int link_fd;
};

static long bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

static int map_create(void)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_PERCPU_ARRAY;
	attr.key_size = sizeof(uint32_t);
	attr.value_size = sizeof(uint64_t);
	attr.max_entries = 1;
	return bpf(BPF_MAP_CREATE, &attr);
}

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
			    .off = (o), .imm = (i) })

/* (*lookup(map, &zero))++, then return 0 */
static int prog_load(int map_fd)
{
	struct bpf_insn prog[] = {
		INSN(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -4, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, -4),
		INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_FD, 0, map_fd),
		INSN(0, 0, 0, 0, 0),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem),
		INSN(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 3, 0),
		INSN(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_1, BPF_REG_0, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_1, 0, 0, 1),
		INSN(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_0, BPF_REG_1, 0, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	static char log[4096];
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT;
	attr.insns = (uintptr_t)prog;
	attr.insn_cnt = ARRAY_SIZE(prog);
	attr.license = (uintptr_t)"GPL";
	attr.log_buf = (uintptr_t)log;
	attr.log_size = sizeof(log);
	attr.log_level = 1;
	fd = bpf(BPF_PROG_LOAD, &attr);
	if (fd < 0)
		fprintf(stderr, "bpf_count: program refused: %s; verifier: %s\n",
			strerror(errno), log);
	return fd;
}

static int attach(const char *tracepoint, int prog_fd)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.raw_tracepoint.name = (uintptr_t)tracepoint;
	attr.raw_tracepoint.prog_fd = prog_fd;
	return bpf(BPF_RAW_TRACEPOINT_OPEN, &attr);
}

static uint64_t count(int map_fd)
{
	static uint64_t per_cpu[MAX_CPUS];
	union bpf_attr attr;
	uint32_t key = 0;
	uint64_t sum = 0;
	int cpu;

	memset(per_cpu, 0, sizeof(per_cpu));
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = map_fd;
	attr.key = (uintptr_t)&key;
	attr.value = (uintptr_t)per_cpu;
	if (bpf(BPF_MAP_LOOKUP_ELEM, &attr))
		return 0;
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		sum += per_cpu[cpu];
	return sum;
}

static int setup(struct counted *c)
{
	int prog_fd;

	c->map_fd = map_create();
	if (c->map_fd < 0) {
		fprintf(stderr, "bpf_count: %s: map refused: %s\n",
			c->tracepoint, strerror(errno));
		return -1;
	}
	prog_fd = prog_load(c->map_fd);
	if (prog_fd < 0)
		return -1;
	c->link_fd = attach(c->tracepoint, prog_fd);
	if (c->link_fd < 0) {
		fprintf(stderr, "bpf_count: %s: attach refused: %s\n",
			c->tracepoint, strerror(errno));
		return -1;
	}
	close(prog_fd);		/* the attachment holds the program */
	return 0;
}

int main(int argc, char **argv)
{
	struct counted c[16];
	int n = argc - 2, i, fd, sig;
	sigset_t term;

	if (n < 1 || n > 16) {
		fprintf(stderr, "usage: bpf_count READY_FIFO TRACEPOINT... (1 to 16)\n");
		return 2;
	}
	/* SIGTERM blocked from the start: one sent early waits for sigwait */
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigprocmask(SIG_BLOCK, &term, NULL);
	/* opened first: whoever waits on it hears "failed" or end of file */
	fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		fprintf(stderr, "bpf_count: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	for (i = 0; i < n; i++) {
		c[i].tracepoint = argv[i + 2];
		if (setup(&c[i])) {
			dprintf(fd, "failed\n");
			return 1;
		}
	}
	dprintf(fd, "attached\n");
	close(fd);
	while (sigwait(&term, &sig))
		;
	for (i = 0; i < n; i++)
		printf("bpf_count: %s: %llu\n", c[i].tracepoint,
		       (unsigned long long)count(c[i].map_fd));
	return 0;
}
