/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The suite's own BPF loader: maps, programs and raw-tracepoint
 * attachments through the bpf() system call, and a small assembler with
 * labels to write the programs in.  No libbpf, no clang, no BTF: the
 * programs read only the tracepoints' own arguments and the helpers'
 * results, so one binary loads on every kernel with CONFIG_BPF_SYSCALL
 * and raw tracepoints, BTF or not (see src_bpf.c for why that is enough).
 */
#ifndef SCHED_PERF_BPF_LOAD_H
#define SCHED_PERF_BPF_LOAD_H

#include <linux/bpf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* --- the assembler ---------------------------------------------------- */

#define BPF_ASM_MAX_INSNS	256
#define BPF_ASM_MAX_LABELS	32
#define BPF_ASM_MAX_JUMPS	64

/* A program being written: instructions, and jumps to labels not yet placed. */
struct bpf_asm {
	struct bpf_insn insn[BPF_ASM_MAX_INSNS];
	unsigned int nr;
	int label_at[BPF_ASM_MAX_LABELS];	/* instruction index, -1: unplaced */
	struct {
		unsigned int at;
		int label;
	} jump[BPF_ASM_MAX_JUMPS];
	unsigned int nr_jumps;
	bool overflow;		/* more than the arrays hold: refused at load */
};

void bpf_asm_init(struct bpf_asm *a);
void bpf_asm_emit(struct bpf_asm *a, uint8_t code, uint8_t dst, uint8_t src,
		  int16_t off, int32_t imm);
/* A jump (@code: BPF_JMP | op | BPF_K or BPF_X) to @label, placed later. */
void bpf_asm_jump(struct bpf_asm *a, uint8_t code, uint8_t dst, uint8_t src,
		  int32_t imm, int label);
void bpf_asm_label(struct bpf_asm *a, int label);
/* @dst = the map of @map_fd (two instructions). */
void bpf_asm_ld_map(struct bpf_asm *a, uint8_t dst, int map_fd);

/* Readable shorthands, as in the kernel's filter.h, for @a named "a". */
#define MOV_REG(d, s)		bpf_asm_emit(a, BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define MOV_IMM(d, imm)		bpf_asm_emit(a, BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, imm)
#define ALU_IMM(op, d, imm)	bpf_asm_emit(a, BPF_ALU64 | (op) | BPF_K, d, 0, 0, imm)
#define ALU_REG(op, d, s)	bpf_asm_emit(a, BPF_ALU64 | (op) | BPF_X, d, s, 0, 0)
#define LDX(sz, d, s, off)	bpf_asm_emit(a, BPF_LDX | BPF_MEM | (sz), d, s, off, 0)
#define STX(sz, d, off, s)	bpf_asm_emit(a, BPF_STX | BPF_MEM | (sz), d, s, off, 0)
#define ST_IMM(sz, d, off, imm)	bpf_asm_emit(a, BPF_ST | BPF_MEM | (sz), d, 0, off, imm)
/* *(u64 *)(d + off) += s, atomically (BPF_XADD: every kernel since 4.x) */
#define XADD(d, off, s)		bpf_asm_emit(a, BPF_STX | BPF_ATOMIC | BPF_DW, d, s, off, BPF_ADD)
#define CALL(fn)		bpf_asm_emit(a, BPF_JMP | BPF_CALL, 0, 0, 0, fn)
#define EXIT()			bpf_asm_emit(a, BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
#define J_IMM(op, d, imm, l)	bpf_asm_jump(a, BPF_JMP | (op) | BPF_K, d, 0, imm, l)
#define J_REG(op, d, s, l)	bpf_asm_jump(a, BPF_JMP | (op) | BPF_X, d, s, 0, l)
#define JA(l)			bpf_asm_jump(a, BPF_JMP | BPF_JA, 0, 0, 0, l)
#define LABEL(l)		bpf_asm_label(a, l)
#define LD_MAP(d, fd)		bpf_asm_ld_map(a, d, fd)

/* --- the kernel's side ---------------------------------------------- */

/*
 * Each call returns a file descriptor, or -1 with errno set and, where the
 * kernel says why, the reason in @why (a fixed text, then its errno).
 */
int bpf_map_new(enum bpf_map_type type, uint32_t key_size, uint32_t value_size,
		uint32_t max_entries, const char *name);
/*
 * Load @a as a raw-tracepoint program.  On refusal the verifier's log
 * (the last of it that fits) goes to @log.
 */
int bpf_prog_new(const struct bpf_asm *a, const char *name, char *log, size_t log_len);
/* Attach @prog_fd to the raw tracepoint @tracepoint; the link holds the program. */
int bpf_raw_tp_attach(const char *tracepoint, int prog_fd);

int bpf_map_update(int map_fd, const void *key, const void *value);
int bpf_map_lookup(int map_fd, const void *key, void *value);

/* The possible CPUs, for the size of a per-CPU map's values; 0: unknown. */
unsigned int bpf_possible_cpus(void);

#endif
