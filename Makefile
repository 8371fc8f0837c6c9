# SPDX-License-Identifier: GPL-2.0
#
# sched_perf: a kselftest suite that gates scheduler patches on performance.
# The suite lives in tools/testing/selftests/sched_perf and is built and run
# inside a real kernel tree (KSRC), through that tree's lib.mk and runner.
#
#   make run                        the suite on the running kernel
#   make check                      every test of this repository
#   make check-quick                its input and tools tests: before a commit
#   make vmab A=TREE[@REV] B=TREE[@REV]
#                                   kernel B gated against kernel A over
#                                   interleaved boots under qemu
#   make kselftest TARGETS=sched_perf
#   make vmtest                     the suite in a 6.12 kernel under qemu
#   make lava-run                   its LAVA test definition run by lava-run
#                                   on a qemu device booting that kernel
#   make bench-verdicts             the verdict words' error rates and power
#                                   by simulation (sched_perf_sim)
#   make bench                      side-by-side ratios with the peers
#                                   (rt-tests hackbench, sockperf, stress-ng,
#                                   perf bench sched pipe), then what the
#                                   counter sources cost (bench-overhead)
#   make check-mutants              each asserting test against a broken
#                                   copy of what it guards: it must fail
#   make check-fresh                make run and .ci/run in a new Debian 12
#                                   root (debootstrap): nothing undeclared;
#                                   then .ci/run beside a CPU hog (FRESH_HOG=0:
#                                   not)
#
# What each target needs from the system is in scripts/deps.list; the
# targets verify it first (scripts/deps.sh verify) and install nothing.
#   make KSRC=/path/to/linux ...    use your own kernel tree

SUITE		:= tools/testing/selftests/sched_perf
BUILD		?= $(CURDIR)/build
KSRC_PKG	:= $(shell . ./scripts/programs.sh && echo "$$SCHED_PERF_KSRC_PKG")
KSRC		?= $(BUILD)/$(KSRC_PKG)
SELFTESTS	:= $(KSRC)/tools/testing/selftests
INTREE		:= $(SELFTESTS)/sched_perf
TARGETS		?= sched_perf
CHECKPATCH	:= $(KSRC)/scripts/checkpatch.pl --no-tree --terse -f
SOURCES		:= $(wildcard $(SUITE)/*.c $(SUITE)/*.h) scripts/vmtest/bpf_count.c
DEPS		:= scripts/deps.sh

# The tests and their categories: tests/run.sh's table (tests/run.sh -l,
# its categories in the order they run: tests/run.sh -c).
TEST_RUNNER	:= tests/run.sh
TEST_CATEGORIES	:= $(shell $(TEST_RUNNER) -c)
TEST_NAMES	:= $(shell $(TEST_RUNNER) -l | cut -d' ' -f1 | tr _ -)
TEST_TARGETS	:= $(addprefix test-,$(sort $(TEST_NAMES) $(TEST_CATEGORIES)))
RUN_TESTS	= KSRC="$(KSRC)" BUILD="$(BUILD)" MAKE="$(MAKE)" $(TEST_RUNNER)

.PHONY: all ksrc sync build run kselftest check unit checkpatch $(TEST_TARGETS) \
	vmtest bench-gate bench-gate-ab bench-gate-guest bench-counters bench-verdicts \
	bench-gate-default bench-kernel-rebuild bench-seed-classes bench-kernel-power bench-overhead \
	bench-ab-cost \
	bench-lkp-names \
	bench clean report fuzz check-fresh check-mutants check-quick vmab \
	deps-run deps-check deps-vmtest deps-lava deps-fuzz deps-bench deps-fresh lava-run

all: build

# Every need of a target's tests, each missing one named, before anything runs.
deps-run deps-check deps-vmtest deps-lava deps-fuzz deps-bench deps-fresh:
	@$(DEPS) verify $(@:deps-%=%)

ksrc:
	@scripts/ksrc.sh "$(KSRC)" "$(BUILD)/$(KSRC_PKG)"

# The directory is placed into the kernel tree as is: no copy of kselftest.h
# or lib.mk here.  Nothing to do when KSRC already is this tree.
sync: ksrc
	@if [ "$$(realpath $(SUITE))" != "$$(realpath -m $(INTREE))" ]; then \
		rm -rf "$(INTREE)" && cp -a $(SUITE) "$(INTREE)"; \
	fi

build: deps-run sync
	$(MAKE) -C "$(INTREE)" OUTPUT="$(abspath $(INTREE))"

run: build
	$(MAKE) -C "$(SELFTESTS)" TARGETS=sched_perf run_tests

kselftest: build
	$(MAKE) -C "$(SELFTESTS)" TARGETS="$(TARGETS)" run_tests

# Every test of tests/run.sh, each category in turn; make test-NAME runs
# one test (test-kill-anywhere) or one category (test-cleanup).
check: deps-check deps-vmtest checkpatch build
	@$(RUN_TESTS)
	@echo "make check: no test failed (passed and skipped counted above)"

# The input and tools categories: no timing judged, no guest booted;
# what to run before a commit (make check runs them too).
check-quick: deps-check checkpatch build
	@$(RUN_TESTS) input tools
	@echo "make check-quick: no test failed (input and tools; make check runs all)"

$(TEST_TARGETS): test-%: build
	@$(RUN_TESTS) $(subst -,_,$*)

test-vm: deps-vmtest

test-lava: deps-vmtest deps-lava

unit: test-unit

checkpatch: ksrc
	@out=$$($(CHECKPATCH) $(SOURCES) | grep -v '^total: 0 errors, 0 warnings'); \
	if [ -n "$$out" ]; then echo "$$out"; exit 1; fi; \
	echo "checkpatch: $(words $(SOURCES)) files clean"

# Every parser under libFuzzer (else a mutation loop of our own) for
# FUZZ_SECONDS each, seeds in fixtures/fuzz; not part of check.
FUZZ_SECONDS	?= 30
fuzz: deps-fuzz sync
	tests/fuzz/fuzz.sh "$(INTREE)" "$(BUILD)/fuzz" "$(FUZZ_SECONDS)"

# Build (or reuse) a kernel from KSRC with the suite's config, boot it
# under qemu, run the suite there; exits with the suite's verdict.
vmtest: deps-vmtest sync
	scripts/vmtest.sh "$(KSRC)"

# Kernel B gated against kernel A over interleaved boots (scripts/vmab.sh):
# each a kernel tree or TREE@REV (any git revision of TREE); VM_* settings
# from the environment or make's command line.  make's own exit is 2 on any
# failure: scripts/vmab.sh A B gives the verdict's code (0, 1, 2, 4).
A		?=
B		?=
ifneq ($(filter vmab,$(MAKECMDGOALS)),)
ifeq ($(and $(A),$(B)),)
$(error vmab: give both kernels: make vmab A=TREE[@REV] B=TREE[@REV])
endif
endif
vmab: deps-vmtest sync build
	scripts/vmab.sh "$(A)" "$(B)"

# The LAVA test definition run by LAVA (lava-run, no server) on a qemu
# device that boots vmtest's kernel and initramfs: LAVA's test cases with
# their measurements, checked against the KTAP.  LAVA_RUN_ARGS: every
# program's arguments (default: the suite's own).
lava-run: deps-vmtest deps-lava sync
	scripts/lavarun.sh "$(KSRC)"

# The gate's false-positive and detection rates on this machine.
bench-gate: build
	bench/gate.sh "$(INTREE)"

# The verdict words' error rates and power by simulation: sched_perf_sim
# drives the real gate with synthetic iterations, 1000 gates a row
# (VERDICT_GATES), as the programs and vmab gate by default; the tables of
# the docs (VERDICT_JOBS rows at once).
VERDICT_GATES	?= 1000
bench-verdicts: build
	bench/verdicts.sh "$(INTREE)" "$(VERDICT_GATES)"

# The same for the paired, sequential gate (--ab blocks, signed-rank,
# SAME by equivalence, looks with alpha spent over them).
bench-gate-ab: build
	bench/gate_ab.sh "$(INTREE)"

# The paired gate in the guest with deterministic time (qemu -icount):
# false alarms and detection of a 2 % slowdown.
bench-gate-guest: deps-vmtest build
	bench/gate_guest.sh "$(KSRC)" "$(INTREE)"

# In-boot --ab on kernel/test's wakeup cost in the guest (-icount), fresh
# gates end to end: exit codes against a known cost, and against a knob
# that changes nothing (AC_* settings: bench/ab_cost_guest.sh).
bench-ab-cost: deps-vmtest sync build
	bench/ab_cost_guest.sh "$(KSRC)"

# A default gate of every program (--ab on a knob that changes nothing):
# its wall time (goal: 5 minutes on 2 CPUs) and what it decided.
bench-gate-default: build
	bench/gate_default.sh "$(INTREE)"

# 0-day's own kselftest parser over a quiet and a busy make run_tests:
# the names it files the suite's results under (LKP_SRC: an lkp-tests
# checkout; needs ruby and ruby-activesupport).
LKP_SRC		?=
bench-lkp-names: deps-bench build
	@[ -n "$(LKP_SRC)" ] || { echo "bench-lkp-names: set LKP_SRC to an lkp-tests checkout" >&2; exit 2; }
	bench/lkp_names.sh "$(SELFTESTS)" "$(LKP_SRC)"

# The seed series' commits against their parents over interleaved boots.
bench-seed-classes: deps-vmtest sync build
	bench/seed_classes.sh "$(KSRC)"

# One kernel against itself over interleaved boots: false alarms per 100
# metric comparisons, the CV within and across boots (AA_QEMU="-icount
# shift=0,sleep=off" for deterministic guest time).
bench-boot-aa: deps-vmtest sync build
	bench/boot_aa.sh "$(KSRC)"

# The gate's power across kernels from one image with kernel/test's wakeup
# cost: KP_BOOTS boots per cost in KP_COSTS (sched_test_cost_ns=X on the
# guest's command line), the throughput each cost takes, then comparisons
# drawn from the pools and judged as vmab judges them: detection and
# false-alarm rates (95 % Wilson), boots and host minutes per gate.
# VM_ICOUNT=1: deterministic guest time.  Pools kept in KP_OUT.
bench-kernel-power: deps-vmtest sync build
	bench/kernel_power.sh "$(KSRC)"

# vmtest's kernel builds: a one-file change rebuilds only what it touches.
bench-kernel-rebuild: deps-vmtest sync
	bench/kernel_rebuild.sh "$(KSRC)"

# The kernel/sched counters' cost: patched vs unpatched kernel in the guest.
bench-counters: deps-vmtest build
	bench/counters.sh "$(KSRC)"

bench: deps-bench build
	bench/hackbench.sh "$(INTREE)"
	bench/rr.sh "$(INTREE)"
	bench/dirdeep.sh "$(INTREE)"
	bench/pipe.sh "$(INTREE)"
	bench/overhead.sh "$(INTREE)"

# What the counter sources cost each program (a part of make bench).
bench-overhead: build
	bench/overhead.sh "$(INTREE)"

# The README's two commands (make run, bash .ci/run) in a Debian 12 root
# made by debootstrap, from a clone of HEAD: every package they need must
# be in scripts/deps.list.  Too slow for check (about 40 minutes).
# FRESH_DROP=PKG removes PKG from the clone's list: the check must fail.
FRESH_DIR	?= $(BUILD)/fresh
FRESH_DROP	?=
check-fresh: deps-fresh
	scripts/check-fresh.sh "$(FRESH_DIR)" $(FRESH_DROP)

# scripts/mutants.sh's list: a test that passes on its mutant could not fail.
check-mutants: deps-check build
	scripts/mutants.sh "$(KSRC)"

# REPORT_PROG run twice with --save (the baseline, then the new run, with
# --evidence DIR when the program has that option), then two self-contained
# HTML pages (scripts/report.sh, needs gnuplot) in REPORT_OUT: the new run
# alone (run.html) and against the baseline (compare.html).  REPORT_ARGS
# go to both runs, e.g. REPORT_ARGS="--iterations 5 --budget 10".
REPORT_PROG	?= hackbench
REPORT_ARGS	?=
REPORT_OUT	?= $(BUILD)/report

report: build
	@out="$(REPORT_OUT)"; prog="$(INTREE)/$(REPORT_PROG)"; \
	[ -x "$$prog" ] || { echo "report: no program $(REPORT_PROG) in $(INTREE)" >&2; exit 2; }; \
	mkdir -p "$$out" && rm -rf "$$out/evidence" || exit 1; \
	evopt=; \
	if "$$prog" --help 2>&1 | grep -q -- '--evidence DIR'; then \
		evopt="--evidence $$out/evidence"; \
	fi; \
	for side in baseline new; do \
		ev=; [ $$side = baseline ] || ev=$$evopt; \
		echo "report: $(REPORT_PROG) $(REPORT_ARGS) --save $$out/$$side.results $$ev"; \
		rc=0; \
		"$$prog" $(REPORT_ARGS) --results none --save "$$out/$$side.results" $$ev \
			>"$$out/$$side.log" 2>&1 || rc=$$?; \
		case $$rc in \
		0) ;; \
		1) echo "report: a check failed (see $$out/$$side.log): drawn anyway" ;; \
		*) tail -n 5 "$$out/$$side.log" >&2; \
		   echo "report: $(REPORT_PROG) exited $$rc, no run set (see $$out/$$side.log)" >&2; \
		   exit 1 ;; \
		esac; \
	done; \
	evarg=; [ -z "$$evopt" ] || [ ! -d "$$out/evidence" ] || evarg="--evidence $$out/evidence"; \
	export SCHED_PERF_COMPARE="$(INTREE)/sched_perf_compare"; \
	scripts/report.sh -o "$$out/run.html" "$$out/new.results" $$evarg && \
	scripts/report.sh -o "$$out/compare.html" "$$out/new.results" \
		--baseline "$$out/baseline.results" $$evarg || exit 1; \
	echo "report: $$out/run.html"; \
	echo "report: $$out/compare.html"

clean:
	rm -rf "$(BUILD)"
