#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the sched_perf suite inside a kernel built from KSRC, under qemu:
# build (or reuse) the kernel, pack an initramfs with busybox and the suite
# built statically, boot it, stream the serial console, pull the KTAP out
# and the results files out, and exit with the suite's verdict (or, with
# VM_BISECT=1, with git bisect run's: 0 good, 1 bad, 125 skip, 128 abort).
#
# Usage: scripts/vmtest.sh KSRC [kernel|image|run]   ("kernel": build only;
# "image": the kernel and the initramfs, bzImage and initrd.gz in VM_OUT,
# not booted: what scripts/lavarun.sh gives LAVA)
# Environment:
#   VM_CPUS=4 VM_SOCKETS=1 VM_THREADS=1   guest topology (one LLC by default)
#   VM_NUMA=1       one NUMA node per socket (a kernel with
#                   scripts/vmtest/numa.config; VM_SOCKETS >= 2), as the
#                   seed reports' 2-socket machines
#   VM_MEM=2G  VM_TIMEOUT=1200            memory; seconds before a hung guest
#                                         is killed
#   VM_ACCEL=tcg|kvm                      tcg by default (nested KVM is flaky)
#   VM_ARGS="..."   extra KSELFTEST_*_ARGS lines, e.g. shorter budgets
#   VM_RUN_ARGS="--budget 6"  arguments for every program's run of the
#                   suite (after the KSELFTEST_*_ARGS ones)
#   SCHED_PERF_CACHE=~/.cache/sched_perf  kernels and static suites,
#                   outside the git tree
#   VM_OUT=DIR      where console log, KTAP and results/<prog>.results go
#                   (bzImage and initrd.gz for "image"; default: a temp dir)
#   VM_STATUS=FILE  "key: value" lines for scripts (vmab.sh), so that none
#                   reads this one's sentences: kernel (the image),
#                   kernel_build (cached, incremental, cold), suite_build
#                   (cached, built) and failure (why the run failed)
#   VM_CHECKS=0     skip the guest checks (checks.sh) before the suite
#   VM_PROGS="hackbench tcp_rr"  run only these programs (default: all)
#   VM_BASELINE=DIR <prog>.results files (a previous VM_OUT/results): each
#                   program runs with --baseline against its own
#   VM_BISECT=1     every program runs with --bisect, and the exit status is
#                   git bisect run's
#   VM_PATCHES=0    build the kernel without kernel/sched/*.patch (the
#                   counters' overhead is measured against it)
#   VM_KERNEL=FILE  boot this kernel image, built before (scripts/vmab.sh);
#                   KSRC then gives the suite's kselftest framework only
#   VM_KERNEL_PATCHES="FILE..."  more patches for the kernel, applied after
#                   those, in order: anything patch -p1 accepts (git
#                   format-patch, diff -u with timestamps)
#   VM_QEMU_ARGS="..."  more qemu options, e.g. "-icount shift=0,sleep=off"
#                   (guest time from instructions executed, not the host's
#                   clock: figures that do not move with the host's load)
#   VM_ICOUNT=1     deterministic guest time: adds "-icount shift=0,sleep=off"
#                   (TCG only; one instruction a nanosecond, the vCPUs run
#                   one at a time); not with an -icount in VM_QEMU_ARGS
#   VM_BPF=0        a kernel without BPF (the default has it:
#                   scripts/vmtest/bpf.config, the bpf() syscall, its JIT,
#                   raw tracepoints, which the suite's bpf source and its
#                   counts of the kernel/sched tracepoints need)
#   VM_BPF_COUNT="sched_waking ..."  count these tracepoints with a BPF
#                   program (scripts/vmtest/bpf_count.c) while the suite
#                   runs: what BPF counting costs the workload
#                   (bench/counters.sh BENCH_MODES=bpf); needs VM_BPF=1
#   VM_APPEND="name=value ..."  more words for the guest kernel's command
#                   line, e.g. sched_test_cost_ns=2000 (kernel/test): each a
#                   name or name=value of letters, digits and _ . , : / + -;
#                   console=, panic=, init= and rdinit= are vmtest's own.
#                   Anything else: one line, exit 2
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
suite=$top/tools/testing/selftests/sched_perf
cache=${SCHED_PERF_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sched_perf}
cpus=${VM_CPUS:-4} sockets=${VM_SOCKETS:-1} threads=${VM_THREADS:-1}
mem=${VM_MEM:-2G}
vm_accel=${VM_ACCEL:-tcg}
vm_timeout=${VM_TIMEOUT:-1200}
vm_checks=${VM_CHECKS:-1}
# the guest's init reads it inside double quotes: words and options only
case ${VM_RUN_ARGS:-} in
*[\"\$\`\\]*) echo "vmtest: VM_RUN_ARGS: no quotes, \$, \` or \\ (words and options only)" >&2; exit 2 ;;
esac
vm_bisect=${VM_BISECT:-0}
vm_patches=${VM_PATCHES:-1}
vm_numa=${VM_NUMA:-0}
vm_icount=${VM_ICOUNT:-0}
vm_bpf=${VM_BPF:-1}
baseline=${VM_BASELINE:-}
jobs=$(($(nproc) + 1))
decided=

say() { echo "vmtest: $*"; }
# status KEY VALUE: a line of VM_STATUS
status() { [ -z "${VM_STATUS:-}" ] || echo "$1: $2" >>"$VM_STATUS"; }
# A run that failed: why, said and noted
failed() { say "FAIL: $*"; status failure "$*"; }
# Bad input or a broken host: 2, or 128 to abort a bisect
die() {
	echo "vmtest: $*" >&2
	decided=1
	[ "$vm_bisect" = 1 ] && exit 128
	exit 2
}
# This kernel cannot be tested (it does not build): a bisect skips it
untestable() {
	[ "$vm_bisect" = 1 ] || die "$@"
	echo "vmtest: $*" >&2
	say "bisect: exit 125 (skip): this commit cannot be tested"
	decided=1
	exit 125
}

# A bisect must not take a failure of ours for a bad commit.
on_exit() {
	local rc=$?
	[ -n "${stage:-}" ] && rm -rf "$stage"
	if [ "$vm_bisect" = 1 ] && [ "$rc" != 0 ] && [ -z "$decided" ]; then
		echo "vmtest: unexpected failure (exit $rc): bisect aborted (128)" >&2
		exit 128
	fi
	exit "$rc"
}
trap on_exit EXIT
for switch in "VM_CHECKS=$vm_checks" "VM_BISECT=$vm_bisect" "VM_PATCHES=$vm_patches" \
	      "VM_NUMA=$vm_numa" "VM_ICOUNT=$vm_icount" "VM_BPF=$vm_bpf"; do
	case ${switch#*=} in
	0|1) ;;
	*) die "$switch: want 0 or 1" ;;
	esac
done
# tracepoint names go into the guest's init: names only
[[ ${VM_BPF_COUNT:-} =~ ^[a-z0-9_\ ]*$ ]] ||
	die "VM_BPF_COUNT: '$VM_BPF_COUNT': tracepoint names (a-z, 0-9, _) separated by spaces"
[ -z "${VM_BPF_COUNT:-}" ] || [ "$vm_bpf" = 1 ] ||
	die "VM_BPF_COUNT needs VM_BPF=1 (a kernel with the bpf() syscall)"
if [ "$vm_icount" = 1 ]; then
	[ "$vm_accel" = tcg ] || die "VM_ICOUNT=1 needs VM_ACCEL=tcg (qemu's -icount is TCG's), not $vm_accel"
	case " ${VM_QEMU_ARGS:-} " in
	*" -icount "*) die "VM_ICOUNT=1 and an -icount in VM_QEMU_ARGS: give one of them" ;;
	esac
fi
# VM_APPEND: words for the kernel's command line, checked one by one and
# joined by single spaces; the ones vmtest sets itself cannot be changed
case ${VM_APPEND:-} in
*$'\n'*) die "VM_APPEND: one line of words, no newline" ;;
esac
read -ra vm_append <<<"${VM_APPEND:-}"
for w in "${vm_append[@]}"; do
	[[ $w =~ ^[A-Za-z][A-Za-z0-9_.-]*(=[A-Za-z0-9_.,:/+-]*)?$ ]] ||
		die "VM_APPEND: '$w': want name or name=value (letters, digits and _ . , : / + -)"
	case $w in
	console=*|panic=*|init=*|rdinit=*) die "VM_APPEND: $w: ${w%%=*}= is vmtest's own" ;;
	esac
done
[ "$vm_numa" = 0 ] || [ "$sockets" -ge 2 ] ||
	die "VM_NUMA=1 needs VM_SOCKETS of 2 or more (one node per socket), not $sockets"
[ $((cpus % (sockets * threads))) = 0 ] ||
	die "VM_CPUS=$cpus is not a multiple of VM_SOCKETS x VM_THREADS ($sockets x $threads)"
[ $# -ge 1 ] || die "usage: $0 KSRC [kernel|run]"
for p in ${VM_KERNEL_PATCHES:-}; do
	[ -f "$p" ] && [ -r "$p" ] || die "VM_KERNEL_PATCHES: $p: no such file"
done
ksrc=$(realpath "$1")
what=${2:-run}
case $what in
kernel|image|run) ;;
*) die "usage: $0 KSRC [kernel|image|run], not '$what'" ;;
esac

# The host's tools (scripts/deps.list, target vmtest): each missing one
# named, then exit 2.
need_tools() {
	"$top/scripts/deps.sh" verify vmtest || die "missing tools (above)"
}

patches() {
	local p
	[ "$vm_patches" = 1 ] && { ls "$top"/kernel/sched/*.patch 2>/dev/null | sort || true; }
	for p in ${VM_KERNEL_PATCHES:-}; do
		realpath "$p"
	done
}

# A git tree's commit and uncommitted changes (the suite's copy aside) in
# kstate: a bisect changes the source, not its version.
git_state() {
	local gtop
	kstate=
	[ -e "$ksrc/.git" ] || return 0
	gtop=$(git -C "$ksrc" rev-parse --show-toplevel) &&
		kstate=$(git -C "$ksrc" rev-parse HEAD &&
			 git -C "$ksrc" diff HEAD -- . ':(exclude)tools/testing/selftests/sched_perf') ||
		die "$ksrc: git cannot read it (the kernel cache is keyed by its commit)"
	[ "$(realpath "$gtop")" = "$ksrc" ] || kstate=
}

# What a build tree is reused for: the tree's path and version and the
# configuration.  Kernels of one base differ in their commit or patches
# only, and kbuild rebuilds just the files that changed.
base_key() {
	{
		echo "$ksrc"
		sed -n '1,6p' "$ksrc/Makefile"
		echo tinyconfig
		cat "$suite/config" $(fragments)
	} | sha256sum | cut -c1-16
}

# The guest's config fragments after the suite's own.
fragments() {
	echo "$top/scripts/vmtest/vm.config"
	[ "$vm_numa" = 0 ] || echo "$top/scripts/vmtest/numa.config"
	[ "$vm_bpf" = 0 ] || echo "$top/scripts/vmtest/bpf.config"
}

# Everything the kernel depends on: the base, the commit, the patches.
kernel_key() {
	{
		base_key
		[ -z "$kstate" ] || printf '%s\n' "$kstate"
		patches | while read -r p; do cat "$p"; done
	} | sha256sum | cut -c1-16
}

# Options the suite cannot do without: a fragment line that kconfig
# dropped (a missing dependency) must stop us, not give a silent SKIP.
check_config() {
	local opt
	for opt in SMP ACPI SCHEDSTATS SCHED_DEBUG PERF_EVENTS IP_SCTP DEBUG_FS \
		   TRACING BLK_DEV_INITRD SERIAL_8250_CONSOLE PROC_SYSCTL TMPFS \
		   VIRTIO_BLK EXT4_FS XFS_FS; do
		grep -q "^CONFIG_$opt=y" "$1" || untestable "kernel config lost CONFIG_$opt=y"
	done
	[ "$vm_numa" = 0 ] || grep -q "^CONFIG_X86_64_ACPI_NUMA=y" "$1" ||
		untestable "kernel config lost CONFIG_X86_64_ACPI_NUMA=y (VM_NUMA=1)"
	for opt in BPF_SYSCALL BPF_JIT BPF_EVENTS; do
		[ "$vm_bpf" = 0 ] || grep -q "^CONFIG_$opt=y" "$1" ||
			untestable "kernel config lost CONFIG_$opt=y (VM_BPF=1)"
	done
}

# The tree kbuild builds from: links into KSRC, the patched files real,
# always at one path per base, so that the dependencies kbuild recorded
# last time name the files it builds from now.  A file patched last time
# but not now would be a link again with its old time stamp, older than
# its object: it is copied, a new time stamp and all, so that kbuild
# rebuilds what depends on it.
patched_tree() {	# src build
	local src=$1 build=$2 list f
	mapfile -t list < <(patches)
	say "a tree of links to $ksrc${list[0]:+, ${#list[@]} patch(es) applied}"
	"$top/scripts/vmtest/apply-patches.sh" "$ksrc" "$src" "${list[@]}" ||
		untestable "the kernel patches do not apply (above)"
	[ -f "$build/.sched_perf-patched" ] || return 0
	while read -r f; do
		[ -L "$src/$f" ] && cp --remove-destination "$ksrc/$f" "$src/$f"
	done <"$build/.sched_perf-patched"
	return 0
}

# One build tree per base (base_key), kept: a kernel that differs from the
# last one built there in a few files rebuilds only those.  Each kernel
# keeps its bzImage and .config in kernel-KEY.  A lock keeps two runs of
# one base out of each other's way.
build_kernel() {
	local key base src build out lock
	git_state
	key=$(kernel_key)
	base=$(base_key)
	out=$cache/kernel-$key
	kernel=$out/bzImage
	if [ -f "$kernel" ]; then
		say "kernel cached: $out"
		status kernel_build cached
		return
	fi
	mkdir -p "$cache"
	exec {lock}>"$cache/build-$base.lock"
	flock "$lock"
	# another run may have built it while this one waited for the lock
	if [ -f "$kernel" ]; then
		exec {lock}>&-
		say "kernel cached: $out (built while this run waited)"
		status kernel_build cached
		return
	fi
	build=$cache/build-$base
	src=$cache/src-$base
	mkdir -p "$build"
	patched_tree "$src" "$build"
	if [ -f "$build/vmlinux" ]; then
		say "building the kernel in $build (what changed since the last kernel built there)"
		status kernel_build incremental
	else
		say "building the kernel in $build (several minutes on 2 CPUs)"
		status kernel_build cold
	fi
	{ make -s -C "$src" O="$build" ARCH=x86_64 tinyconfig &&
	  "$src/scripts/kconfig/merge_config.sh" -m -O "$build" "$build/.config" \
		"$suite/config" $(fragments) &&
	  make -s -C "$src" O="$build" ARCH=x86_64 olddefconfig; } >"$build/config.log" 2>&1 ||
		{ tail -20 "$build/config.log" >&2; untestable "kernel configuration failed"; }
	check_config "$build/.config"
	make -s -C "$src" O="$build" ARCH=x86_64 -j"$jobs" bzImage >"$build/build.log" 2>&1 ||
		{ tail -20 "$build/build.log" >&2; untestable "kernel build failed"; }
	# what to make a copy of next time, whatever this build patched
	find "$src" -type f -printf '%P\n' >"$build/.sched_perf-patched"
	rm -rf "$out.tmp" && mkdir -p "$out.tmp" &&
		cp "$build/arch/x86/boot/bzImage" "$build/.config" "$build/build.log" "$out.tmp/" &&
		rm -rf "$out" && mv "$out.tmp" "$out" || die "cannot keep the kernel in $out"
	exec {lock}>&-
	say "kernel built: $kernel"
}

# This suite in the tree, as make sync puts it there: a tree being
# bisected does not have it, or has an older copy.
sync_suite() {
	local intree=$ksrc/tools/testing/selftests/sched_perf
	[ "$(realpath -m "$intree")" = "$(realpath "$suite")" ] && return
	[ -d "$intree" ] && ! diff -rq "$suite" "$intree" 2>&1 | grep -qv "^Only in $intree" &&
		return
	say "copying the suite into $intree"
	rm -rf "$intree" && cp -a "$suite" "$intree"
}

# What the static suite is built from: the suite, the kselftest framework
# and the compiler.
suite_key() {
	(cd "$ksrc/tools/testing/selftests" &&
	 { find sched_perf kselftest -type f -print0; find . -maxdepth 1 -type f -print0; } |
		sort -z | xargs -0 sha256sum && cc --version) | sha256sum | cut -c1-16
}

# The suite, static, installed as kselftest installs it, and kept in the
# cache by suite_key: the boots of a comparison or a bisect build it once
# (half a minute each on 2 CPUs otherwise).
build_suite() {
	local selftests=$ksrc/tools/testing/selftests kept tmp
	kept=$cache/suite-$(suite_key)
	tmp=$kept.tmp.$$
	rm -rf "$root/kselftest"
	if [ ! -f "$kept/kselftest-list.txt" ]; then
		rm -rf "$stage/obj" "$tmp"
		make -s -C "$selftests" TARGETS=sched_perf O="$stage/obj" USERLDFLAGS=-static \
			install INSTALL_PATH="$tmp" >"$stage/suite.log" 2>&1 ||
			{ rm -rf "$tmp"; tail -20 "$stage/suite.log" >&2; untestable "static suite build failed"; }
		# another run may have kept the same suite meanwhile: either will do
		mv -T "$tmp" "$kept" 2>/dev/null || rm -rf "$tmp"
		say "static suite built: $kept"
		status suite_build built
	else
		say "static suite cached: $kept"
		status suite_build cached
	fi
	mkdir -p "$root" && cp -a "$kept" "$root/kselftest" || die "cannot copy the suite from $kept"
	progs=$(sed -n 's/^sched_perf://p' "$root/kselftest/kselftest-list.txt")
}

# VM_PROGS, each a program of the suite, or all of them
select_progs() {
	local prog
	run_progs=${VM_PROGS:-$progs}
	for prog in $run_progs; do
		grep -qx "$prog" <<<"$progs" ||
			die "VM_PROGS: $prog is no program of the suite ($(echo $progs))"
	done
	run_progs=$(echo $run_progs)
	[ -n "$run_progs" ] || die "VM_PROGS: no program"
	[ -z "${VM_PROGS:-}" ] || say "running $run_progs only"
}

# VM_BASELINE's <prog>.results into /baseline, where /init finds them.
copy_baseline() {
	local f prog have=() none=()
	[ -n "$baseline" ] || return 0
	[ -d "$baseline" ] || die "VM_BASELINE=$baseline: not a directory"
	[ "$(realpath "$baseline")" != "$(realpath -m "$out/results")" ] ||
		die "VM_BASELINE=$baseline is where this run's results go (VM_OUT): use another VM_OUT"
	mkdir -p "$root/baseline"
	for f in "$baseline"/*.results; do
		[ -f "$f" ] || die "VM_BASELINE=$baseline has no <program>.results"
		prog=$(basename "$f" .results)
		grep -qx "$prog" <<<"$progs" ||
			die "VM_BASELINE: $(basename "$f") names no program of the suite (want <program>.results: $(echo $progs))"
		cp "$f" "$root/baseline/"
	done
	for prog in $run_progs; do
		if [ -f "$root/baseline/$prog.results" ]; then
			have+=("$prog")
		else
			none+=("$prog")
		fi
	done
	say "baseline from $baseline: ${have[*]}${none[*]:+ (none for ${none[*]}: judged by its bounds only)}"
}

# The BPF counter of VM_BPF_COUNT, static, in the guest's /bin
build_bpf_count() {
	cc -O2 -static -o "$root/bin/bpf_count" "$top/scripts/vmtest/bpf_count.c" ||
		die "cannot build scripts/vmtest/bpf_count.c (above)"
}

# busybox for the shell and tools; coreutils' timeout (the runner needs
# --foreground, busybox's lacks it) with its libraries.
make_initramfs() {
	local d lib
	for d in bin sbin usr/bin usr/sbin proc sys dev tmp mnt etc lib lib64 \
		 sys/kernel/debug; do
		mkdir -p "$root/$d"
	done
	cp "$(command -v busybox)" "$root/bin/busybox"
	for d in $("$root/bin/busybox" --list-full); do
		[ -e "$root/$d" ] || ln -s /bin/busybox "$root/$d"
	done
	rm -f "$root/usr/bin/timeout"
	cp /usr/bin/timeout "$root/usr/bin/timeout"
	for lib in $(ldd /usr/bin/timeout | grep -o '/[^ ]*'); do
		mkdir -p "$root/$(dirname "$lib")"
		cp -L "$lib" "$root/$lib"
	done
	cp "$top/scripts/vmtest/init" "$top/scripts/vmtest/checks.sh" \
		"$top/tests/kill_anywhere.sh" "$root/"
	chmod +x "$root/init" "$root/checks.sh" "$root/kill_anywhere.sh"
	printf '%s\n' "${VM_ARGS:-}" >"$root/etc/sched_perf_args"
	printf 'VM_CHECKS=%s\nVM_BISECT=%s\nVM_PROGS="%s"\nVM_RUN_ARGS="%s"\nVM_BPF_COUNT="%s"\n' \
		"$vm_checks" "$vm_bisect" "${VM_PROGS:+$run_progs}" "${VM_RUN_ARGS:-}" \
		"${VM_BPF_COUNT:-}" >"$root/etc/sched_perf_vm"
	[ -z "${VM_BPF_COUNT:-}" ] || build_bpf_count
	copy_baseline
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$stage/initrd.gz"
}

# TCG unless asked for KVM: in a VM, /dev/kvm is nested KVM, which here
# stopped the guest with "KVM internal error" (qemu then waits forever).
boot() {
	case $vm_accel in
	kvm) boot_with -enable-kvm -cpu host ;;
	tcg) boot_with -accel tcg -cpu max ;;
	*) die "VM_ACCEL=$vm_accel: want tcg or kvm" ;;
	esac
}

# An ext4 disk for dirdeep: the 0-day ran it on a disk filesystem, where
# its sync() per directory costs what it costs in real life.
make_disk() {
	disk=()
	command -v mkfs.ext4 >/dev/null || { say "no mkfs.ext4: dirdeep runs on tmpfs"; return; }
	truncate -s 1G "$stage/ext4.img"
	mkfs.ext4 -q -F "$stage/ext4.img"
	disk=(-drive "file=$stage/ext4.img,if=virtio,format=raw")
}

# VM_NUMA=1: a memory backend and a node per socket, the socket's CPUs
numa_args() {
	local mb per node first
	case $mem in
	*G) mb=$((${mem%G} * 1024)) ;;
	*M) mb=${mem%M} ;;
	*) die "VM_MEM=$mem: want a size in M or G" ;;
	esac
	per=$((cpus / sockets))
	for ((node = 0; node < sockets; node++)); do
		first=$((node * per))
		numa+=(-object "memory-backend-ram,id=m$node,size=$((mb / sockets))M"
		       -numa "node,nodeid=$node,cpus=$first-$((first + per - 1)),memdev=m$node")
	done
}

boot_with() {
	# sched_verbose: 6.12 lists the sched domains in debugfs only with it
	local append="console=ttyS0 quiet panic=-1 sched_verbose${vm_append[0]:+ ${vm_append[*]}}"
	local accel=("$@") numa=() icount=()

	[ "$vm_numa" = 0 ] || numa_args
	[ "$vm_icount" = 0 ] || icount=(-icount shift=0,sleep=off)
	say "booting: ${accel[*]}${icount[0]:+ ${icount[*]}} -smp $cpus,sockets=$sockets,cores=$((cpus / sockets / threads)),threads=$threads -m $mem${numa[0]:+, $sockets NUMA nodes}${vm_append[0]:+, kernel command line + ${vm_append[*]}}"
	set +e
	timeout "$vm_timeout" qemu-system-x86_64 -machine q35 "${accel[@]}" "${icount[@]}" \
		-smp "$cpus,sockets=$sockets,cores=$((cpus / sockets / threads)),threads=$threads" \
		-m "$mem" "${numa[@]}" -nographic -no-reboot -nodefaults -serial stdio \
		-kernel "$kernel" -initrd "$stage/initrd.gz" -append "$append" "${disk[@]}" \
		${VM_QEMU_ARGS:-} \
		</dev/null 2>&1 | stdbuf -oL tr -d '\r' | tee "$out/console.log"
	qemu_rc=${PIPESTATUS[0]}
	set -e
}

# The guest's "SCHED_PERF_RESULT <file>: <line>" lines back into files,
# one per program: results/<prog>.results (its file name names it), and
# results/<prog>.results.a for the A side of an --ab run saved with --save.
extract_results() {
	local dir=$out/results f prog got=()
	rm -rf "$dir" "$dir.tmp" && mkdir -p "$dir" "$dir.tmp"
	tr -d '\r' <"$out/console.log" | awk -v dir="$dir.tmp" '
		/^SCHED_PERF_RESULT [A-Za-z0-9._-]+\.results(\.a)?:/ {
			b = $2; sub(/:$/, "", b)
			line = substr($0, length("SCHED_PERF_RESULT " b ": ") + 1)
			if (!(b in seen)) { seen[b] = 1; print b > (dir "/order") }
			print line > (dir "/" b)
		}'
	[ -f "$dir.tmp/order" ] || { rm -rf "$dir.tmp"; say "no results files from the guest"; return; }
	while read -r f; do
		# named by the program: sched_perf-PROG-DATE-PID.results as the
		# suite names them, PROG.xxx.results as a --save of the host's
		# arguments does (the file's contents are the C code's to read)
		prog=$(echo "$f" | sed -n 's/^\(sched_perf-\)\{0,1\}\([a-z0-9_]*\)[-.].*/\2/p')
		[ -n "$prog" ] || { say "results file $f: no workload, ignored"; continue; }
		case $f in
		*.results.a) mv "$dir.tmp/$f" "$dir/$prog.results.a"; continue ;;
		esac
		mv "$dir.tmp/$f" "$dir/$prog.results"
		got+=("$prog")
	done <"$dir.tmp/order"
	rm -rf "$dir.tmp"
	say "results of ${got[*]} in $dir"
}

# The KTAP must be whole: the guest printed its exit marker, the top-level
# plan matches the results, and every program reported.
ktap_whole() {
	local plan results
	sed -n '/^TAP version 13$/,/^SCHED_PERF_VM_EXIT=/p' "$out/console.log" |
		tr -d '\r' | grep -v '^SCHED_PERF_VM_EXIT=\|^SCHED_PERF_RESULT ' >"$out/ktap"
	[ "$qemu_rc" = 124 ] && { failed "guest hung, killed after $vm_timeout s"; return 1; }
	status=$(tr -d '\r' <"$out/console.log" | sed -n 's/^SCHED_PERF_VM_EXIT=//p')
	[ -n "$status" ] || { failed "the guest died before the suite finished"; return 1; }
	plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$out/ktap" | head -n1)
	results=$(grep -cE '^(not )?ok [0-9]+ selftests: sched_perf: ' "$out/ktap" || true)
	[ -n "$plan" ] && [ "$plan" = "$results" ] ||
		{ failed "incomplete KTAP: plan '$plan', $results results"; return 1; }
	say "KTAP complete: $results programs; console log and KTAP in $out"
}

verdict() {
	ktap_whole || return 1
	if grep -qE '^not ok [0-9]+ selftests: sched_perf: ' "$out/ktap"; then
		failed "$(grep -E '^not ok [0-9]+ selftests:' "$out/ktap" | tr '\n' ';')"
		return 1
	fi
	[ "$status" = 0 ] || { failed "the runner exited $status"; return 1; }
	say "PASS"
}

# Why a program decided: its first failed comparison (else check), its
# error, the first comparison it could not judge.
reason() {	# prog code
	local section pats=() pat line
	case $2 in
	1) pats=("# not ok [0-9]+ $1\.(baseline|ab)\." "# not ok [0-9]+ $1\.") ;;
	128) pats=("# $1: ") ;;
	125) pats=("# ok [0-9]+ $1\.(baseline|ab)\.[a-z0-9_]+ # SKIP") ;;
	4) pats=("# (ok [0-9]+ [^ ]+ |1\.\.0 )?# SKIP") ;;
	timeout) echo "timed out"; return ;;
	missing) echo "no exit status"; return ;;
	*) echo "exit $2"; return ;;
	esac
	section=$(sed -n "/^# selftests: sched_perf: $1\$/,/^\(not \)\?ok [0-9]* selftests: sched_perf: $1\( \|\$\)/p" \
		"$out/ktap")
	for pat in "${pats[@]}"; do
		line=$(grep -m1 -E "^$pat" <<<"$section") || continue
		# "# ok 7 NAME # SKIP why" is "NAME: why"
		sed -E -e 's/^# (ok|not ok) [0-9]+ ([^ ]+) # (SKIP )?/\2: /' \
			-e 's/^# 1\.\.0 # SKIP /1..0: /' -e 's/^# //' <<<"$line" | cut -c1-160
		return
	done
}

# git bisect run's exit status from the runner's line per program: "ok"
# 0, "ok ... # SKIP" 4, "not ok ... # exit=RC" RC, anything else (a
# timeout, a missing program) cannot judge.  128 (bad input: a baseline
# this run cannot be compared with) aborts, then any 1 is bad, any other
# failure skips the commit, else good.
bisect_verdict() {
	local line n prog rc all=() bad=() skip=() abort=() code why
	local -A rcs
	if ! ktap_whole; then
		say "bisect: exit 125 (skip): no whole KTAP from the guest"
		return 125
	fi
	while read -r line; do
		n=${line#*selftests: sched_perf: }
		prog=${n%% *}
		case $line in
		"ok "*"# SKIP"*) rc=4 ;;
		"ok "*) rc=0 ;;
		*"# exit="[0-9]*) rc=${line##*# exit=} ;;
		*"# TIMEOUT"*) rc=timeout ;;
		*) rc=missing ;;
		esac
		all+=("$prog=$rc")
		rcs[$prog]=$rc
		case $rc in
		0) ;;
		1) bad+=("$prog") ;;
		128) abort+=("$prog") ;;
		*) skip+=("$prog") ;;
		esac
	done < <(grep -E '^(not )?ok [0-9]+ selftests: sched_perf: ' "$out/ktap")
	if [ ${#abort[@]} != 0 ]; then
		code="128 (abort: bad input)" prog=${abort[0]}
	elif [ ${#bad[@]} != 0 ]; then
		code="1 (bad)" prog=${bad[0]}
	elif [ ${#skip[@]} != 0 ]; then
		code="125 (skip)" prog=${skip[0]}
	else
		say "bisect: exit 0 (good): every program passed: ${all[*]}"
		return 0
	fi
	why=$(reason "$prog" "${rcs[$prog]}")
	say "bisect: exit $code: decided by $prog${why:+ ($why)}; ${all[*]}"
	return "${code%% *}"
}

need_tools
[ -f "$ksrc/Makefile" ] || die "$ksrc is not a kernel tree"
mkdir -p "$cache"
if [ -n "${VM_KERNEL:-}" ]; then
	[ -f "$VM_KERNEL" ] || die "VM_KERNEL: $VM_KERNEL: no such kernel image"
	kernel=$(realpath "$VM_KERNEL")
else
	build_kernel
fi
say "kernel: $kernel"
status kernel "$kernel"
[ "$what" = kernel ] && exit 0
out=${VM_OUT:-$(mktemp -d)}
mkdir -p "$out"
stage=$(mktemp -d)
root=$stage/root
sync_suite
build_suite
select_progs
make_initramfs
if [ "$what" = image ]; then
	cp "$kernel" "$out/bzImage" && cp "$stage/initrd.gz" "$out/initrd.gz" ||
		die "cannot copy the kernel and the initramfs into $out"
	decided=1
	say "image: $out/bzImage $out/initrd.gz"
	exit 0
fi
make_disk
boot
# Under TCG with a thread per vCPU, a vCPU can run a breakpoint that
# text_poke_bp() has already taken out again (static keys and tracepoints
# are patched live: schedstats, sched features, the tracepoint checks):
# "Oops: int3" with the final byte already at RIP.  Hardware orders the
# breakpoint and the sync IPI; the emulator does not, and the guest dies
# of it about once in 15 boots of the self-checks.  It is the emulator's,
# not the kernel's: boot once more, said, and keep the first console.  A
# kernel that oopses so twice fails.
if [ "$vm_accel" = tcg ] && ! grep -q '^SCHED_PERF_VM_EXIT=' "$out/console.log" &&
	grep -q 'Oops: int3' "$out/console.log"; then
	mv "$out/console.log" "$out/console-int3.log"
	say "the guest died of an int3 oops (TCG and live code patching; first console in $out/console-int3.log): booting once more"
	make_disk
	boot
fi
extract_results
decided=1
if [ "$vm_bisect" = 1 ]; then
	rc=0
	bisect_verdict || rc=$?
	exit "$rc"
fi
verdict
