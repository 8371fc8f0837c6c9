#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-fresh: the README's two commands on a new Debian 12 machine.
#
#   scripts/check-fresh.sh DIR [DROP_PKG]
#
# debootstrap makes a minimal bookworm root in DIR/root; HEAD is cloned into
# it (with a copy of ../shared beside it, as CI has); then, chrooted there,
#   1. scripts/deps.sh install run; make run
#   2. bash .ci/run          (scripts/deps.sh install check && make check)
#   3. bash .ci/run again, beside a CPU hog (two busy loops on the host),
#      unless FRESH_HOG=0: a test that depends on this machine's speed
#      fails here, not on a newcomer's loaded machine (FRESH_HOG=only:
#      this one without step 2)
# Each step's wall time is printed; the logs stay in DIR.  Nothing but the
# packages of scripts/deps.list is installed, so a package missing there
# fails here.  DROP_PKG removes one "pkg" line from the clone's list: the
# check must then fail, naming what is missing (the proof that it can).
#
# What a machine has, the root has too: its / is a mount point (the root
# bind-mounted onto itself), so that unshare -m and a private mount
# propagation work there as on a machine (the runs' own mount namespaces,
# tests/side_by_side.sh); a plain chroot's / is no mount point, and there
# side_by_side was a SKIP and the runs mounted in the shared namespace.
# That bind, /proc, /sys and /dev are mounted in a mount namespace of this
# script's own (unshare), so they vanish with the last process in it;
# processes left in the root and the hog are killed on exit, and the root
# is removed unless FRESH_KEEP=1.  FRESH_MIRROR overrides the Debian mirror.
# Exit: 0 both commands passed, 1 one failed, 2 bad usage or not root,
# 3 the root could not be made.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:?usage: $0 DIR [DROP_PKG]}
drop=${2:-}
hog=${FRESH_HOG:-1}
mirror=${FRESH_MIRROR:-http://deb.debian.org/debian}
say() { echo "check-fresh: $*"; }
die() { echo "check-fresh: $1" >&2; exit "${2:-2}"; }

[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot, mounts)"
[ $# -le 2 ] || die "usage: $0 DIR [DROP_PKG]"
case $hog in 0 | 1 | only) ;; *) die "FRESH_HOG=$hog: want 0, 1 or only" ;; esac
if [ -n "$drop" ]; then
	grep -qE "^pkg[[:space:]]+$drop[[:space:]]" "$top/scripts/deps.list" ||
		die "FRESH_DROP=$drop: no such package in scripts/deps.list"
fi
[ -z "$(git -C "$top" status --porcelain --untracked-files=no)" ] ||
	say "uncommitted changes are not in the clone: it is HEAD $(git -C "$top" rev-parse --short HEAD)"

mkdir -p "$dir" && dir=$(cd "$dir" && pwd) || die "cannot make $dir"
root=$dir/root
[ ! -e "$root" ] || die "$root exists: remove it first (a root from an earlier check?)"

# Two busy loops on the host, one per CPU of a 2-CPU machine.
hog_pids=
hog_start() {
	sh -c 'while :; do :; done' &
	hog_pids="$hog_pids $!"
	sh -c 'while :; do :; done' &
	hog_pids="$hog_pids $!"
}
hog_stop() {
	# shellcheck disable=SC2086
	[ -z "$hog_pids" ] || kill $hog_pids 2>/dev/null
	hog_pids=
}

# The hog, anything still running inside the root, then the root itself.
cleanup() {
	local p
	hog_stop
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/root" 2>/dev/null)" = "$root" ] && kill -9 "${p#/proc/}" 2>/dev/null
	done
	if [ "${FRESH_KEEP:-0}" = 1 ]; then
		say "root kept in $root"
	else
		rm -rf --one-file-system "$root"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Seconds since $1 (date +%s.%N), one decimal.
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

t=$(date +%s.%N)
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$dir/debootstrap.log" 2>&1 ||
	die "debootstrap failed: $(tail -n 1 "$dir/debootstrap.log")" 3
cat >"$root/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb ${mirror%/debian}/debian-security bookworm-security main
EOF
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
git clone -q "$top" "$root/src/sched_perf" || die "git clone of $top failed" 3
[ -d "$top/../shared" ] && cp -a "$top/../shared" "$root/src/shared"
if [ -n "$drop" ]; then
	sed -i -E "/^pkg[[:space:]]+$drop[[:space:]]/d" "$root/src/sched_perf/scripts/deps.list"
	say "dropped $drop from the clone's scripts/deps.list"
fi
say "root: $(since "$t") s (debootstrap --variant=minbase bookworm, $(du -sh "$root" | cut -f1))"

# STEP NAME COMMAND: COMMAND in the root, its log in DIR/NAME.log, its time.
step() {
	local name=$1 cmd=$2 t rc
	t=$(date +%s.%N)
	unshare --mount --propagation private /bin/bash -c '
		root=$1
		mount --bind "$root" "$root" &&
		mount -t proc proc "$root/proc" &&
		mount --rbind /sys "$root/sys" &&
		mount --rbind /dev "$root/dev" || exit 3
		exec chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb CI=true \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			/bin/bash -c "cd /src/sched_perf && $2"
	' check-fresh "$root" "$cmd" </dev/null >"$dir/$name.log" 2>&1
	rc=$?
	say "$name: '$cmd': exit $rc in $(since "$t") s (log: $dir/$name.log)"
	if [ $rc != 0 ]; then
		tail -n 15 "$dir/$name.log" | sed 's/^/  | /'
		die "$name failed on a new Debian 12 root: exit $rc" 1
	fi
}

step deps-run 'scripts/deps.sh install run'
step make-run 'make run'
[ "$hog" = only ] || step ci-run 'bash .ci/run'
if [ "$hog" != 0 ]; then
	hog_start
	say "hog: two busy loops beside the next step (pids$hog_pids)"
	step ci-run-hog 'bash .ci/run'
	hog_stop
	if [ "$hog" = only ]; then
		say "PASS: make run, and .ci/run beside a CPU hog, on a new Debian 12 root"
	else
		say "PASS: make run and .ci/run on a new Debian 12 root, .ci/run again beside a CPU hog"
	fi
else
	say "PASS: make run and .ci/run on a new Debian 12 root"
fi
