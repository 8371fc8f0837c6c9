#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What the make targets need from the system, read from scripts/deps.list
# (the one place that names packages).
#
#   deps.sh packages TARGET...   the Debian packages, one a line
#   deps.sh verify TARGET...     every "need" there; one line per missing one
#   deps.sh install TARGET...    (root) apt-get install what is not installed,
#                                then verify
#
# TARGET: run, check, vmtest, lava, fuzz, bench or fresh.  DEPS_LIST overrides the
# list (make check-fresh drops a package from a copy of it to show that the
# check can fail).
# Exit: 0 everything there, 1 a need is missing, 2 bad usage or a bad list,
# 3 the install failed or needs root.
set -u
list=${DEPS_LIST:-$(dirname "$0")/deps.list}
targets_known=" run check vmtest lava fuzz bench fresh "
# Debian's packages install modules for Debian's python3, not another one
# that PATH may find first (pyenv).
python=/usr/bin/python3
[ -x $python ] || python=python3

die() { echo "deps: $1" >&2; exit "${2:-2}"; }

usage() {
	echo "usage: $0 packages|verify|install TARGET...  (TARGET:${targets_known% })" >&2
	exit 2
}

# "a,b,c" names one of the wanted targets?
for_wanted() {
	local t
	for t in ${1//,/ }; do
		[[ " $wanted " == *" $t "* ]] && return 0
	done
	return 1
}

# Fills pkgs[] and needs[] ("KIND:NAME<TAB>TARGETS<TAB>WHY") for the wanted
# targets; a malformed line stops everything with its line number.
read_list() {
	local n=0 dir a b c rest t
	[ -f "$list" ] && [ -r "$list" ] || die "$list: no such readable file"
	pkgs=() needs=()
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		[[ "$line" =~ ^[[:space:]]*(#|$) ]] && continue
		read -r dir a b c rest <<<"$line"
		case $dir in
		pkg)
			[ -n "$a" ] && [ -n "$b" ] && [ -z "$c" ] ||
				die "$list:$n: want 'pkg PACKAGE TARGETS'"
			[[ "$a" =~ ^[a-z0-9][a-z0-9+.-]+$ ]] ||
				die "$list:$n: '$a' is not a Debian package name"
			t=$b ;;
		need)
			[ -n "$a" ] && [ -n "$b" ] && [ -n "$c" ] ||
				die "$list:$n: want 'need TARGETS KIND:NAME WHY'"
			[[ "$b" =~ ^(cmd|py|file):.+ ]] ||
				die "$list:$n: '$b': want cmd:, py: or file: before the name"
			t=$a ;;
		*)
			die "$list:$n: '$dir': want pkg or need" ;;
		esac
		local x
		for x in ${t//,/ }; do
			[[ "$targets_known" == *" $x "* ]] || die "$list:$n: unknown target '$x'"
		done
		for_wanted "$t" || continue
		if [ "$dir" = pkg ]; then
			pkgs+=("$a")
		else
			needs+=("$b"$'\t'"$a"$'\t'"$c${rest:+ $rest}")
		fi
	done <"$list"
}

# One need there?  Commands are looked up in the sbin directories too.
have() {
	local kind=${1%%:*} name=${1#*:}
	case $kind in
	cmd) PATH=$PATH:/usr/local/sbin:/usr/sbin:/sbin command -v "$name" >/dev/null ;;
	py) "$python" -c "import $name" >/dev/null 2>&1 ;;
	file) [ -e "$name" ] ;;
	esac
}

describe() {
	local kind=${1%%:*} name=${1#*:}
	case $kind in
	cmd) echo "command $name" ;;
	py) echo "python3 module $name" ;;
	file) echo "file $name" ;;
	esac
}

verify() {
	local missing=0 e need t why
	for e in "${needs[@]}"; do
		IFS=$'\t' read -r need t why <<<"$e"
		have "$need" && continue
		echo "deps: missing $(describe "$need") ($why; for $t)" >&2
		missing=$((missing + 1))
	done
	[ $missing = 0 ] && return 0
	return 1
}

not_installed() {
	local p s
	for p in "${pkgs[@]}"; do
		s=$(dpkg-query -W -f '${db:Status-Status}' "$p" 2>/dev/null)
		[ "$s" = installed ] || echo "$p"
	done
}

install() {
	local todo
	command -v dpkg-query >/dev/null && command -v apt-get >/dev/null ||
		die "no apt-get here: install by hand: ${pkgs[*]}" 3
	mapfile -t todo < <(not_installed)
	[ ${#todo[@]} = 0 ] && return 0
	[ "$(id -u)" = 0 ] || die "not root: cannot install ${todo[*]}" 3
	echo "deps: installing ${todo[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null || die "apt-get update failed" 3
	apt-get install -y -q --no-install-recommends "${todo[@]}" >/dev/null ||
		die "apt-get install ${todo[*]} failed" 3
}

[ $# -ge 2 ] || usage
verb=$1
shift
for t in "$@"; do
	[[ "$targets_known" == *" $t "* ]] || die "unknown target '$t' (${targets_known# })"
done
wanted=" $* "
read_list

case $verb in
packages)
	printf '%s\n' "${pkgs[@]}" | sort -u ;;
verify)
	verify || die "as root, run: scripts/deps.sh install $* (the packages of $list)" 1 ;;
install)
	install
	verify || die "still missing after installing the packages of $list for $*: declare the Debian package that provides it there" 1
	echo "deps: $* ready: ${#pkgs[@]} packages, ${#needs[@]} needs met" ;;
*)
	usage ;;
esac
