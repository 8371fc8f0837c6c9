// SPDX-License-Identifier: GPL-2.0
/*
 * The suite's own BPF loader (bpf_load.h): a few bpf() commands and an
 * assembler that resolves jumps to labels, so that a program reads as
 * its steps rather than as hand-counted jump offsets.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bpf_load.h"
#include "fileio.h"

void bpf_asm_init(struct bpf_asm *a)
{
	int i;

	memset(a, 0, sizeof(*a));
	for (i = 0; i < BPF_ASM_MAX_LABELS; i++)
		a->label_at[i] = -1;
}

void bpf_asm_emit(struct bpf_asm *a, uint8_t code, uint8_t dst, uint8_t src,
		  int16_t off, int32_t imm)
{
	struct bpf_insn *insn;

	if (a->nr >= BPF_ASM_MAX_INSNS) {
		a->overflow = true;
		return;
	}
	insn = &a->insn[a->nr++];
	memset(insn, 0, sizeof(*insn));
	insn->code = code;
	insn->dst_reg = dst;
	insn->src_reg = src;
	insn->off = off;
	insn->imm = imm;
}

void bpf_asm_jump(struct bpf_asm *a, uint8_t code, uint8_t dst, uint8_t src,
		  int32_t imm, int label)
{
	if (a->nr_jumps >= BPF_ASM_MAX_JUMPS || label < 0 || label >= BPF_ASM_MAX_LABELS) {
		a->overflow = true;
		return;
	}
	a->jump[a->nr_jumps].at = a->nr;
	a->jump[a->nr_jumps++].label = label;
	bpf_asm_emit(a, code, dst, src, 0, imm);
}

void bpf_asm_label(struct bpf_asm *a, int label)
{
	if (label < 0 || label >= BPF_ASM_MAX_LABELS || a->label_at[label] >= 0) {
		a->overflow = true;
		return;
	}
	a->label_at[label] = a->nr;
}

void bpf_asm_ld_map(struct bpf_asm *a, uint8_t dst, int map_fd)
{
	bpf_asm_emit(a, BPF_LD | BPF_DW | BPF_IMM, dst, BPF_PSEUDO_MAP_FD, 0, map_fd);
	bpf_asm_emit(a, 0, 0, 0, 0, 0);
}

/* Jump offsets from labels; -1 for a label never placed or a full program. */
static int bpf_asm_resolve(struct bpf_asm *a)
{
	unsigned int i;
	int to;

	if (a->overflow)
		return -1;
	for (i = 0; i < a->nr_jumps; i++) {
		to = a->label_at[a->jump[i].label];
		if (to < 0)
			return -1;
		a->insn[a->jump[i].at].off = to - (int)a->jump[i].at - 1;
	}
	return 0;
}

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

int bpf_map_new(enum bpf_map_type type, uint32_t key_size, uint32_t value_size,
		uint32_t max_entries, const char *name)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = type;
	attr.key_size = key_size;
	attr.value_size = value_size;
	attr.max_entries = max_entries;
	snprintf(attr.map_name, sizeof(attr.map_name), "%s", name);
	return sys_bpf(BPF_MAP_CREATE, &attr);
}

int bpf_prog_new(const struct bpf_asm *a, const char *name, char *log, size_t log_len)
{
	struct bpf_asm copy = *a;
	union bpf_attr attr;
	int fd;

	if (bpf_asm_resolve(&copy)) {
		snprintf(log, log_len, "program %s: a jump to a label never placed, or too long", name);
		errno = EINVAL;
		return -1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT;
	attr.insns = (uintptr_t)copy.insn;
	attr.insn_cnt = copy.nr;
	attr.license = (uintptr_t)"GPL";
	snprintf(attr.prog_name, sizeof(attr.prog_name), "%s", name);
	*log = '\0';
	fd = sys_bpf(BPF_PROG_LOAD, &attr);
	/* the verifier's refusals; not "not permitted" nor "no bpf()" */
	if (fd < 0 && (errno == EINVAL || errno == EACCES || errno == E2BIG) && log_len > 1) {
		int err = errno;

		/* again, for the verifier's reason */
		attr.log_buf = (uintptr_t)log;
		attr.log_size = log_len;
		attr.log_level = 1;
		sys_bpf(BPF_PROG_LOAD, &attr);
		errno = err;
	}
	return fd;
}

int bpf_raw_tp_attach(const char *tracepoint, int prog_fd)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.raw_tracepoint.name = (uintptr_t)tracepoint;
	attr.raw_tracepoint.prog_fd = prog_fd;
	return sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &attr);
}

static int map_elem(int cmd, int map_fd, const void *key, const void *value)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = map_fd;
	attr.key = (uintptr_t)key;
	attr.value = (uintptr_t)value;
	return sys_bpf(cmd, &attr);
}

int bpf_map_update(int map_fd, const void *key, const void *value)
{
	return map_elem(BPF_MAP_UPDATE_ELEM, map_fd, key, value);
}

int bpf_map_lookup(int map_fd, const void *key, void *value)
{
	return map_elem(BPF_MAP_LOOKUP_ELEM, map_fd, key, value);
}

/* "0-3,8-11": the highest CPU number, plus one */
unsigned int bpf_possible_cpus(void)
{
	char line[256], *p;
	unsigned long last = 0;

	if (fileio_first_line("/sys/devices/system/cpu/possible", line, sizeof(line)))
		return 0;
	for (p = line; *p; p++) {
		if (*p >= '0' && *p <= '9') {
			last = strtoul(p, &p, 10);
			p--;
		}
	}
	return last + 1;
}
