#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Make sure a kernel source tree with the kselftest framework is at $1.
# The default tree ($2) is the Debian linux-source-6.12 tarball, extracted;
# the package is declared in scripts/deps.list (scripts/deps.sh install run).
set -eu
ksrc=$1 default=$2
pkg=linux-source-6.12
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
