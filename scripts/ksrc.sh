#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Make sure a kernel source tree with the kselftest framework is at $1.
# The default tree ($2) is the Debian package's source tarball, extracted
# (the package: scripts/programs.sh's SCHED_PERF_KSRC_PKG); the package is
# declared in scripts/deps.list (scripts/deps.sh install run).
set -eu
ksrc=$1 default=$2
. "$(dirname "$0")/programs.sh"
pkg=$SCHED_PERF_KSRC_PKG
tarball=/usr/src/$pkg.tar.xz

[ -f "$ksrc/tools/testing/selftests/lib.mk" ] && exit 0
if [ "$ksrc" != "$default" ]; then
	echo "sched_perf: KSRC=$ksrc has no tools/testing/selftests/lib.mk (not a kernel tree)" >&2
	exit 2
fi
if [ ! -f "$tarball" ]; then
	echo "sched_perf: $tarball missing: install the Debian package $pkg (as root: scripts/deps.sh install run) or pass KSRC=/path/to/linux" >&2
	exit 2
fi
echo "sched_perf: extracting $tarball into $(dirname "$default")"
mkdir -p "$(dirname "$default")"
tmp=$(mktemp -d "$(dirname "$default")/extract.XXXXXX")
tar -C "$tmp" -xf "$tarball"
mv "$tmp/$pkg" "$default"
rmdir "$tmp"
