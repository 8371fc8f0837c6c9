#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What a kernel that differs in one file costs vmtest to build: the base
# kernel (a full build unless its build tree is there), then the same
# tree with a one-line patch to kernel/sched/fair.c, then with another
# one-line patch to kernel/sched/core.c, then the first again (cached),
# each timed.  The goal is 2 minutes for a one-file change
# on 2 CPUs.
#
# Usage: bench/kernel_rebuild.sh KSRC
set -eu
ksrc=$(realpath "${1:?usage: bench/kernel_rebuild.sh KSRC}")
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/programs.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# a one-line change, as diff -u writes it: a comment after line 1, new
# in every run of the bench (a kernel built before would be cached)
stamp=$(date +%s.%N)
one_line() {	# file tag
	mkdir -p "$tmp/a/$(dirname "$1")" "$tmp/b/$(dirname "$1")"
	cp "$ksrc/$1" "$tmp/a/$1"
	sed "1a /* sched_perf bench: $2 $stamp */" "$ksrc/$1" >"$tmp/b/$1"
	(cd "$tmp" && diff -u "a/$1" "b/$1") >"$tmp/$2.patch" || true
	rm -rf "$tmp/a" "$tmp/b"
}

build() {	# what patches...
	local what=$1 t0 rc=0
	shift
	t0=$(now)
	rm -f "$tmp/status"
	VM_STATUS=$tmp/status VM_KERNEL_PATCHES="$*" "$top/scripts/vmtest.sh" "$ksrc" kernel \
		>"$tmp/log" 2>&1 || rc=$?
	[ $rc = 0 ] || { echo "kernel_rebuild: $what: vmtest exit $rc" >&2; tail -5 "$tmp/log" >&2; exit 1; }
	printf '  %-40s %7s s  (%s)\n' "$what" "$(since "$t0")" \
		"$(vm_status "$tmp/status" kernel_build)"
}

one_line kernel/sched/fair.c fair
one_line kernel/sched/core.c core
echo "kernel_rebuild.sh: $(nproc) CPUs, $ksrc"
build "base kernel"
build "one line in kernel/sched/fair.c" "$tmp/fair.patch"
build "one line in kernel/sched/core.c" "$tmp/core.patch"
build "fair.c again (cached)" "$tmp/fair.patch"
build "base again (cached)"
