#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the sched_perf suite inside a kernel built from KSRC, under qemu:
# build (or reuse) the kernel, pack an initramfs with busybox and the suite
# built statically, boot it, stream the serial console, pull the KTAP out
# and exit with the suite's verdict.
#
# Usage: scripts/vmtest.sh KSRC [kernel|run]   ("kernel": build only)
# Environment:
#   VM_CPUS=4 VM_SOCKETS=1 VM_THREADS=1   guest topology (one LLC by default)
#   VM_MEM=2G  VM_TIMEOUT=1200            memory; seconds before a hung guest
#                                         is killed
#   VM_ACCEL=tcg|kvm                      tcg by default (nested KVM is flaky)
#   VM_ARGS="..."   extra KSELFTEST_*_ARGS lines, e.g. shorter budgets
#   SCHED_PERF_CACHE=~/.cache/sched_perf  kernels, outside the git tree
#   VM_OUT=DIR      where console log and KTAP go (default: a temp dir)
set -eu
ksrc=$(realpath "$1")
what=${2:-run}
top=$(cd "$(dirname "$0")/.." && pwd)
suite=$top/tools/testing/selftests/sched_perf
cache=${SCHED_PERF_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sched_perf}
cpus=${VM_CPUS:-4} sockets=${VM_SOCKETS:-1} threads=${VM_THREADS:-1}
mem=${VM_MEM:-2G}
vm_accel=${VM_ACCEL:-tcg}
vm_timeout=${VM_TIMEOUT:-1200}
jobs=$(($(nproc) + 1))

say() { echo "vmtest: $*"; }
die() { echo "vmtest: $*" >&2; exit 2; }

need_tools() {
	local missing=() t
	for t in qemu-system-x86_64:qemu-system-x86 busybox:busybox-static \
		 flex:flex bison:bison bc:bc cpio:cpio gcc:build-essential; do
		command -v "${t%%:*}" >/dev/null || missing+=("${t#*:}")
	done
	[ -e /usr/include/libelf.h ] || missing+=(libelf-dev)
	[ -e /usr/include/openssl/ssl.h ] || missing+=(libssl-dev)
	[ ${#missing[@]} = 0 ] && return
	[ "$(id -u)" = 0 ] || die "missing packages: ${missing[*]} (apt-get install them)"
	say "installing ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		"${missing[@]}" >/dev/null 2>&1 ||
		{ apt-get update -q >/dev/null &&
		  DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--no-install-recommends "${missing[@]}" >/dev/null; }
}

patches() { ls "$top"/kernel/sched/*.patch 2>/dev/null | sort || true; }

# Everything the kernel depends on: source version, fragments, patches.
kernel_key() {
	{
		sed -n '1,6p' "$ksrc/Makefile"
		echo tinyconfig
		cat "$suite/config" "$top/scripts/vmtest/vm.config"
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
		grep -q "^CONFIG_$opt=y" "$1" || die "kernel config lost CONFIG_$opt=y"
	done
}

build_kernel() {
	local key src out
	key=$(kernel_key)
	out=$cache/kernel-$key
	kernel=$out/arch/x86/boot/bzImage
	if [ -f "$kernel" ]; then
		say "kernel cached: $out"
		return
	fi
	src=$ksrc
	if [ -n "$(patches)" ]; then
		src=$cache/src-$key
		say "applying $(patches | wc -l) patch(es) from kernel/sched/ to a copy of $ksrc"
		rm -rf "$src" && mkdir -p "$src"
		(cd "$ksrc" && tar --exclude=./tools/testing/selftests/sched_perf -cf - .) |
			tar -C "$src" -xf -
		patches | while read -r p; do
			patch -d "$src" -p1 -s <"$p" || die "$(basename "$p") does not apply"
		done
	fi
	say "building the kernel in $out (several minutes on 2 CPUs)"
	rm -rf "$out.tmp" && mkdir -p "$out.tmp"
	make -s -C "$src" O="$out.tmp" ARCH=x86_64 tinyconfig >/dev/null
	"$src/scripts/kconfig/merge_config.sh" -m -O "$out.tmp" "$out.tmp/.config" \
		"$suite/config" "$top/scripts/vmtest/vm.config" >/dev/null
	make -s -C "$src" O="$out.tmp" ARCH=x86_64 olddefconfig >/dev/null
	check_config "$out.tmp/.config"
	make -s -C "$src" O="$out.tmp" ARCH=x86_64 -j"$jobs" bzImage >"$out.tmp/build.log" 2>&1 ||
		{ tail -20 "$out.tmp/build.log" >&2; die "kernel build failed"; }
	rm -rf "$out" && mv "$out.tmp" "$out"
	[ "$src" = "$ksrc" ] || rm -rf "$src"
	say "kernel built: $kernel"
}

# The suite, static, installed as kselftest installs it.
build_suite() {
	local selftests=$ksrc/tools/testing/selftests
	rm -rf "$stage/obj" "$root/kselftest"
	make -s -C "$selftests" TARGETS=sched_perf O="$stage/obj" USERLDFLAGS=-static \
		install INSTALL_PATH="$root/kselftest" >"$stage/suite.log" 2>&1 ||
		{ tail -20 "$stage/suite.log" >&2; die "static suite build failed"; }
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

boot_with() {
	local append="console=ttyS0 quiet panic=-1"
	local accel=("$@")

	say "booting: ${accel[*]} -smp $cpus,sockets=$sockets,cores=$((cpus / sockets / threads)),threads=$threads -m $mem"
	set +e
	timeout "$vm_timeout" qemu-system-x86_64 -machine q35 "${accel[@]}" \
		-smp "$cpus,sockets=$sockets,cores=$((cpus / sockets / threads)),threads=$threads" \
		-m "$mem" -nographic -no-reboot -nodefaults -serial stdio \
		-kernel "$kernel" -initrd "$stage/initrd.gz" -append "$append" "${disk[@]}" \
		</dev/null 2>&1 | stdbuf -oL tr -d '\r' | tee "$out/console.log"
	qemu_rc=${PIPESTATUS[0]}
	set -e
}

# The KTAP must be whole: the guest printed its exit marker, the top-level
# plan matches the results, and every program reported.
verdict() {
	local plan results status
	sed -n '/^TAP version 13$/,/^SCHED_PERF_VM_EXIT=/p' "$out/console.log" |
		tr -d '\r' | grep -v '^SCHED_PERF_VM_EXIT=' >"$out/ktap"
	[ "$qemu_rc" = 124 ] && { say "FAIL: guest hung, killed after $vm_timeout s"; return 1; }
	status=$(tr -d '\r' <"$out/console.log" | sed -n 's/^SCHED_PERF_VM_EXIT=//p')
	[ -n "$status" ] || { say "FAIL: the guest died before the suite finished"; return 1; }
	plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$out/ktap" | head -n1)
	results=$(grep -cE '^(not )?ok [0-9]+ selftests: sched_perf: ' "$out/ktap" || true)
	[ -n "$plan" ] && [ "$plan" = "$results" ] ||
		{ say "FAIL: incomplete KTAP: plan '$plan', $results results"; return 1; }
	say "KTAP complete: $results programs; console log and KTAP in $out"
	if grep -qE '^not ok [0-9]+ selftests: sched_perf: ' "$out/ktap"; then
		say "FAIL: $(grep -E '^not ok [0-9]+ selftests:' "$out/ktap" | tr '\n' ';')"
		return 1
	fi
	[ "$status" = 0 ] || { say "FAIL: the runner exited $status"; return 1; }
	say "PASS"
}

need_tools
[ -f "$ksrc/Makefile" ] || die "$ksrc is not a kernel tree"
mkdir -p "$cache"
build_kernel
[ "$what" = kernel ] && exit 0
out=${VM_OUT:-$(mktemp -d)}
mkdir -p "$out"
stage=$(mktemp -d)
root=$stage/root
trap 'rm -rf "$stage"' EXIT
build_suite
make_initramfs
make_disk
boot
verdict
