#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# report.sh: one self-contained HTML page of a sched_perf run, for a CI
# system to attach: the run's header facts, its throughput per iteration,
# baseline vs new distributions of the gated metrics, latency, migrations
# per CPU and the evidence summary.  Plots are gnuplot's SVG, inline; the
# CSS is inline; the page references nothing outside itself and needs no
# JavaScript.
#
#   scripts/report.sh -o OUT.html RESULTS [--baseline OLD_RESULTS]
#                     [--evidence DIR] [--bounds FILE]
#
# RESULTS and OLD_RESULTS are results files with a run set (a program's
# --save FILE).  DIR is what a program's --evidence DIR wrote.  --bounds
# (default: the suite's bounds file) names the metrics to compare: its
# "change" lines for the workload.
#
# Exit: 0 written; 2 bad input, a bad option or no gnuplot (one line on
# stderr, nothing written); 1 gnuplot failed.  Needs bash, awk (any POSIX
# awk: mawk, gawk), gnuplot with its svg terminal (Debian: gnuplot-nox)
# and the suite's sched_perf_compare, which reads the results and bounds
# files and computes every figure shown (--dump: the runs and their
# statistics; --tsv: the comparison and its verdicts; SCHED_PERF_COMPARE=
# PATH, else the one in PATH, else the one make build builds); installs
# nothing.

set -u
export LC_ALL=C
me=report.sh
usage="usage: $me -o OUT.html RESULTS [--baseline OLD_RESULTS] [--evidence DIR] [--bounds FILE]"
here=$(cd "$(dirname "$0")" && pwd)
GNUPLOT=${GNUPLOT:-gnuplot}

die() { echo "$me: $*" >&2; exit 2; }

out='' res='' base='' ev='' bounds=''
while [ $# -gt 0 ]; do
	case $1 in
	--output=*|--baseline=*|--evidence=*|--bounds=*)
		opt=${1%%=*} arg=${1#*=}
		shift
		set -- "$opt" "$arg" "$@"
		continue ;;
	-o|--output|--baseline|--evidence|--bounds)
		[ $# -ge 2 ] && [ -n "$2" ] || die "$1 needs an argument ($usage)"
		case $1 in
		-o|--output) out=$2 ;;
		--baseline) base=$2 ;;
		--evidence) ev=$2 ;;
		--bounds) bounds=$2 ;;
		esac
		shift 2 ;;
	-h|--help)
		echo "$usage"
		exit 0 ;;
	--)
		shift
		[ $# = 0 ] && break
		[ $# = 1 ] && [ -z "$res" ] || die "more than one results file ($usage)"
		res=$1
		break ;;
	-?*)
		die "unknown option '$1' ($usage)" ;;
	*)
		[ -z "$res" ] || die "more than one results file: '$res' and '$1' ($usage)"
		res=$1
		shift ;;
	esac
done
[ -n "$out" ] || die "no -o OUT.html ($usage)"
[ -n "$res" ] || die "no RESULTS file ($usage)"

# A file we can read: its path, or one line why not.
readable() {
	if [ -d "$1" ]; then
		die "$1: is a directory, not a results file"
	elif [ ! -e "$1" ]; then
		die "$1: no such file"
	elif [ ! -f "$1" ] || [ ! -r "$1" ]; then
		die "$1: cannot read it"
	fi
}
readable "$res"
[ -z "$base" ] || readable "$base"
if [ -n "$ev" ]; then
	[ -d "$ev" ] || die "--evidence $ev: not a directory"
	[ -r "$ev" ] && [ -x "$ev" ] || die "--evidence $ev: cannot read it"
fi
if [ -n "$bounds" ]; then
	readable "$bounds"
else
	bounds=$here/../tools/testing/selftests/sched_perf/bounds
	[ -r "$bounds" ] || bounds=
fi
outdir=$(dirname "$out")
[ -d "$outdir" ] && [ -w "$outdir" ] || die "-o $out: cannot write into $outdir"
[ ! -d "$out" ] || die "-o $out: is a directory"
for f in "$res" "$base" "$bounds"; do
	[ -z "$f" ] || [ ! "$out" -ef "$f" ] || die "-o $out: is an input file"
done

command -v "$GNUPLOT" >/dev/null 2>&1 ||
	die "gnuplot not found: install it (Debian: gnuplot-nox; scripts/deps.sh install check)"
"$GNUPLOT" -e 'set terminal svg' >/dev/null 2>&1 ||
	die "$GNUPLOT has no svg terminal: install gnuplot-nox"

# sched_perf_compare reads the results files (--dump): SCHED_PERF_COMPARE,
# else the one in PATH, else the one make build builds
compare=${SCHED_PERF_COMPARE:-$(command -v sched_perf_compare)}
compare=${compare:-$(. "$here/programs.sh" && sched_perf_compare_bin "$here/..")}
[ -f "$compare" ] && [ -x "$compare" ] ||
	die "sched_perf_compare not found at $compare: make build, or set SCHED_PERF_COMPARE=PATH"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sched_perf-report.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM HUP

# ---------------------------------------------------------------------------
# awk helpers, shared by every awk program below (POSIX awk only)
AWKLIB='
function isnum(s) { return s ~ /^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$/ }
function isint(s) { return s ~ /^[0-9]+$/ }
function esc(s) {
	gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s)
	gsub(/"/, "\\&quot;", s); gsub(/[\001-\010\013\014\016-\037\177]/, "?", s)
	return s
}
function fmt(x,   a) {
	a = x < 0 ? -x : x
	if (a >= 10000) return sprintf("%.0f", x)
	if (a >= 100) return sprintf("%.1f", x)
	if (a >= 1) return sprintf("%.3f", x)
	if (a == 0) return "0"
	return sprintf("%.4g", x)
}
# a fraction of --tsv as a change: "+12.3%", "+inf", "n/a" for NaN ("-")
function pct(x) {
	if (x ~ /^-?inf$/) return (x ~ /^-/ ? "-" : "+") "inf"
	return x == "-" ? "n/a" : sprintf("%+.1f%%", 100 * x)
}
'
# xawk [-F FS | -v VAR=VALUE]... PROGRAM [FILE]...: awk with AWKLIB
xawk() {
	local opts=()
	while [ $# -gt 1 ]; do
		case $1 in
		-F|-v) opts+=("$1" "$2"); shift 2 ;;
		-F?*|-v?*) opts+=("$1"); shift ;;
		*) break ;;
		esac
	done
	awk "${opts[@]}" "$AWKLIB$1" "${@:2}"
}

# HTML text of stdin
esc() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g' \
	-e 's/[\x01-\x08\x0b\x0c\x0e-\x1f\x7f]/?/g'; }
# A gnuplot single-quoted string of $1
gq() { local s=${1//[$'\n\r\t']/ }; printf "'%s'" "${s//\'/\'\'}"; }

# ---------------------------------------------------------------------------
# Results files: read by sched_perf_compare --dump, the one reader of run
# sets and bounds (it refuses what is not a whole run set), its lines
# split into $tmp/SIDE.meta (key TAB value), SIDE.runs (metric TAB
# values), SIDE.stats (metric TAB n, median, mean, stddev, cv of those
# values, as the gate computes them), SIDE.scal (name TAB value: the
# summary figures) and SIDE.change (metric TAB fraction: the change
# thresholds that judge it).  No statistic is computed here.
load_results() {
	local file=$1 side=$2 kind
	if ! "$compare" ${bounds:+--bounds "$bounds"} --dump "$file" >"$tmp/$side.dump" 2>"$tmp/$side.err"; then
		die "$(sed -n '1s/^sched_perf_compare: //p' "$tmp/$side.err" | grep . ||
		       echo "$file: $compare --dump failed")"
	fi
	for kind in meta runs stats scal change; do
		: >"$tmp/$side.$kind"
	done
	awk -F'\t' -v o="$tmp/$side" '
	$1 == "meta" || $1 == "runs" || $1 == "stats" || $1 == "value" || $1 == "change" {
		kind = $1 == "value" ? "scal" : $1
		sub(/^[^\t]*\t/, "")
		print > (o "." kind)
	}' "$tmp/$side.dump"
}

# meta SIDE KEY: the value of meta.KEY
meta() { awk -F'\t' -v k="$2" '$1 == k { sub(/^[^\t]*\t/, ""); print; exit }' "$tmp/$1.meta"; }
# runs SIDE METRIC: the values of METRIC's iterations, or nothing
runs() { awk -F'\t' -v k="$2" '$1 == k { print $2; exit }' "$tmp/$1.runs"; }
scal() { awk -F'\t' -v k="$2" '$1 == k { print $2; exit }' "$tmp/$1.scal"; }

load_results "$res" new
[ -z "$base" ] || load_results "$base" old
wl=$(meta new workload)
newname=${base:+new}
newname=${newname:-this run}
variant=$(meta new variant)
if [ -n "$base" ]; then
	owl=$(meta old workload)
	[ "$owl" = "$wl" ] || die "--baseline $base: a $owl run set, $res is $wl"
fi

# ---------------------------------------------------------------------------
# Evidence tables: validated against their header, copied to $tmp/ev.NAME
# (tab-separated rows).  Types: i integer >= 0, n number, h number or inf,
# t text.
# Evidence table NAME (COLS of TYPES, as evidence_table) with a count
# above 0 in its third column: 0, ready to draw from $tmp/ev.NAME; else
# the reason, ending in EMPTY when there is nothing to draw, as a note.
drawable_evidence() {	# name cols types empty
	if [ -z "$ev" ]; then
		note "no evidence: run with --evidence DIR"
	elif ! evidence_table "$1" "$2" "$3"; then
		note "no $1 in $ev"
	elif ! awk -F'\t' '$3 > 0 { f = 1 } END { exit !f }' "$tmp/ev.$1"; then
		note "$1: $4"
	else
		return 0
	fi
	return 1
}

evidence_table() {
	local name=$1 cols=$2 types=$3 f=$ev/$1 msg
	[ -f "$ev/$name" ] || return 1
	[ -r "$f" ] || die "$f: cannot read it"
	msg=$(xawk -v cols="$cols" -v types="$types" -v out="$tmp/ev.$name" '
	BEGIN { FS = "\t"; nc = split(cols, want, " ") }
	function bad(m) { print FNR ": " m; err = 1; exit 2 }
	{ sub(/\r$/, "") }
	/^#/ {
		if (FNR > 1 || seen) next
		h = $0; sub(/^# */, "", h)
		n = split(h, got, "\t")
		for (i = 1; i <= nc; i++)
			if (i > n || got[i] != want[i]) {
				gsub(/ /, "<TAB>", cols)
				bad("header is \"" $0 "\", want \"# " cols "\"")
			}
		next
	}
	$0 == "" { next }
	{
		seen = 1
		if (NF < nc) bad("not " nc " tab-separated fields (" cols ")")
		for (i = 1; i <= nc; i++) {
			t = substr(types, i, 1)
			if (t == "i" && !isint($i) || t == "n" && !isnum($i) ||
			    t == "h" && !isnum($i) && $i != "inf" || t == "t" && $i == "")
				bad("field " i " (" want[i] ") is \"" $i "\", not " \
				    (t == "i" ? "a count" : t == "t" ? "a name" : "a number"))
		}
		row = $1
		for (i = 2; i <= nc; i++) row = row "\t" $i
		print row > out
	}
	END { if (!err) printf "" > out }' "$f") ||
		die "$f:${msg:- cannot read it}"
	return 0
}

# ---------------------------------------------------------------------------
# Plots: gnuplot's svg terminal, the XML prolog dropped and every id made
# unique in the page (each plot defines the same point symbols).
plotno=0
plot() {
	local w=$1 h=$2 title=$3 name
	plotno=$((plotno + 1))
	name=p$plotno
	{
		printf "set terminal svg size %d,%d noenhanced font 'sans-serif,11' background rgb 'white'\n" "$w" "$h"
		printf "set output '%s'\n" "$tmp/$name.raw"
		cat <<-'EOF'
		set border 3 lc rgb '#555555'
		set tics nomirror
		set grid ytics lc rgb '#e4e4e4'
		set style line 1 lc rgb '#1f6fb4' lw 2 pt 7 ps 0.7
		set style line 2 lc rgb '#e8731a' lw 2 pt 5 ps 0.7
		set style line 3 lc rgb '#7a3fb0' lw 2 pt 9 ps 0.7
		set key noautotitle
		EOF
		cat
	} >"$tmp/$name.gp"
	if ! "$GNUPLOT" "$tmp/$name.gp" >"$tmp/$name.log" 2>&1 || [ ! -s "$tmp/$name.raw" ]; then
		echo "$me: gnuplot failed drawing \"$title\": $(grep -v '^ *$' "$tmp/$name.log" | tail -n2 | tr '\n' ' ')" >&2
		exit 1
	fi
	sed -e '/^<?xml/d' -e '/^<!DOCTYPE/d' \
		-e "s/ id=\\(['\"]\\)/ id=\\1$name-/g" \
		-e "s/href=\\(['\"]\\)#/href=\\1#$name-/g" \
		-e "s/url(#/url(#$name-/g" \
		-e "s|<title>Gnuplot</title>|<title>$(printf '%s' "$title" | esc | sed 's/[|&\\]/\\&/g')</title>|" \
		"$tmp/$name.raw" >&3
}

# ---------------------------------------------------------------------------
exec 3>"$tmp/page.html"
html() { printf '%s\n' "$@" >&3; }
note() { printf '<p class="note">%s</p>\n' "$(printf '%s' "$*" | esc)" >&3; }

title="sched_perf report: $wl${variant:+ ($variant)}${base:+ against a baseline}"
cat >&3 <<EOF
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8"/>
<title>$(printf '%s' "$title" | esc)</title>
<style>
body { font-family: sans-serif; color: #222; margin: 1.5em auto; max-width: 1120px; padding: 0 1em; }
h1 { font-size: 1.45em; }
h2 { font-size: 1.2em; border-bottom: 1px solid #bbb; margin-top: 1.6em; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 2px 8px; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.diff { background: #fff3cd; }
.bad { color: #b00000; font-weight: bold; }
.good { color: #006000; }
.note { color: #555; font-style: italic; }
.warn { background: #fff3cd; border: 1px solid #d8b64c; padding: 0.4em 0.8em; }
.plots { display: flex; flex-wrap: wrap; gap: 6px; }
svg { max-width: 100%; height: auto; }
pre { background: #f6f6f6; border: 1px solid #ddd; padding: 0.6em; overflow-x: auto; }
footer { margin-top: 2em; color: #777; font-size: 0.85em; }
</style>
</head>
<body>
<h1>$(printf '%s' "$title" | esc)</h1>
EOF

# --- header -----------------------------------------------------------------
date_of() {
	local d
	d=$(meta "$1" date)
	[ -n "$d" ] && { echo "$d"; return; }
	date -u -r "$2" '+%Y-%m-%d %H:%M:%S UTC (file time)'
}
html '<section id="header">' '<h2>Run</h2>' '<table>'
if [ -n "$base" ]; then
	html '<tr><th></th><th>new</th><th>baseline</th></tr>'
fi
for row in "workload:workload" "variant:variant" "kernel:kernel" "CPUs:nr_cpus" \
	   "date:" "options:options" "kernel config digest:kconfig" "results file:"; do
	label=${row%%:*} key=${row#*:}
	case $label in
	date) a=$(date_of new "$res"); b=$([ -z "$base" ] || date_of old "$base") ;;
	"results file") a=$res; b=$base ;;
	*) a=$(meta new "$key"); b=$([ -z "$base" ] || meta old "$key") ;;
	esac
	[ "$label" != options ] || { a=${a:-(defaults)}; b=${b:-(defaults)}; }
	cls=
	case $label in workload|variant|CPUs|options|"kernel config digest")
		[ -z "$base" ] || [ "$a" = "$b" ] || cls=' class="diff"' ;;
	esac
	line="<tr><th>$label</th><td$cls>$(printf '%s' "$a" | esc)</td>"
	[ -z "$base" ] || line="$line<td$cls>$(printf '%s' "$b" | esc)</td>"
	html "$line</tr>"
done
html '</table>'
if [ -n "$base" ]; then
	differ=
	for k in variant options nr_cpus kconfig; do
		[ "$(meta new $k)" = "$(meta old $k)" ] || differ="$differ meta.$k"
	done
	[ -z "$differ" ] || html "<p class=\"warn\">The two runs differ in$differ: not comparable by the gate (sched_perf_compare refuses them); drawn anyway.</p>"
fi
html '<details><summary>every meta line</summary><table>'
for side in new old; do
	[ -f "$tmp/$side.meta" ] || continue
	xawk -F'\t' -v side="$([ -z "$base" ] || echo "$side: ")" \
		'{ printf "<tr><th>%smeta.%s</th><td>%s</td></tr>\n", esc(side), esc($1), esc($2) }' \
		"$tmp/$side.meta" >&3
done
html '</table></details>' '</section>'

# --- throughput per iteration ------------------------------------------------
# values of METRIC on SIDE as "iteration value" rows
series() { runs "$1" "$2" | awk '{ for (i = 1; i <= NF; i++) print i, $i }'; }
# describe SIDE METRIC: "n=.., median .., mean .., stddev .." (--dump's stats)
describe() {
	xawk -F'\t' -v k="$2" '$1 == k {
		printf "n=%d, median %s, mean %s, stddev %s (%.1f %% of the mean)\n", $2,
		       fmt($3), fmt($4), fmt($5), 100 * $6 }' "$tmp/$1.stats"
}
# whether $1 is 1000 or more: axis labels as whole numbers
big() { awk -v x="$1" 'BEGIN { exit !(x + 0 >= 1000 || x + 0 <= -1000) }'; }
# med SIDE METRIC: its median (--dump's stats)
med() { awk -F'\t' -v k="$2" '$1 == k { print $3; exit }' "$tmp/$1.stats"; }

html '<section id="throughput">' '<h2>Throughput per iteration</h2>'
tp=$(awk -F'\t' '$1 ~ /_per_sec$/ { print $1; exit }' "$tmp/new.runs")
if [ -z "$tp" ]; then
	note "no *_per_sec metric in the run set of $res"
else
	series new "$tp" >"$tmp/tp.new"
	nmax=$(wc -l <"$tmp/tp.new")
	newmed=$(med new "$tp")
	plotcmd="'$tmp/tp.new' using 1:2 with linespoints ls 1 title $(gq "$newname (median $(echo "$newmed" | xawk '{print fmt($1)}'))")"
	medlines="set arrow from graph 0, first $newmed to graph 1, first $newmed nohead ls 1 lw 1.5 dt 2"
	if [ -n "$base" ] && [ -n "$(runs old "$tp")" ]; then
		series old "$tp" >"$tmp/tp.old"
		n=$(wc -l <"$tmp/tp.old")
		[ "$n" -le "$nmax" ] || nmax=$n
		oldmed=$(med old "$tp")
		plotcmd="$plotcmd, '$tmp/tp.old' using 1:2 with linespoints ls 2 title $(gq "baseline (median $(echo "$oldmed" | xawk '{print fmt($1)}'))")"
		medlines="$medlines; set arrow from graph 0, first $oldmed to graph 1, first $oldmed nohead ls 2 lw 1.5 dt 2"
	fi
	plot 860 340 "$wl.$tp per iteration" <<-EOF
	set title $(gq "$wl.$tp per timed iteration (dashed: median)")
	set xlabel 'iteration'
	set ylabel $(gq "$tp")
	set xrange [0.5:$nmax + 0.5]
	$([ "$nmax" -le 30 ] && echo "set xtics 1")
	set offsets 0, 0, graph 0.08, graph 0.08
	$(big "$newmed" && echo "set format y '%.0f'")
	set key below
	$medlines
	plot $plotcmd
	EOF
	html "<p>${base:+new: }$(describe new "$tp")</p>"
	[ ! -f "$tmp/tp.old" ] || html "<p>baseline: $(describe old "$tp")</p>"
fi
html '</section>'

# --- baseline vs new ---------------------------------------------------------
# The comparison is sched_perf_compare's (--tsv): the metrics its change
# thresholds name, each with the gate's change, interval and verdict.
# Without a change threshold for the workload the default metrics are
# drawn with no verdict.  Nothing is judged here.

# tsv_cols FILE KEY...: those columns of each row of a --tsv FILE, by key
tsv_cols() {
	local file=$1
	shift
	awk -F'\t' -v keys="$*" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i
		nk = split(keys, k, " "); next }
	{ for (j = 1; j <= nk; j++) printf "%s%s", $(col[k[j]]), j < nk ? "\t" : "\n" }' "$file"
}

# plot_sides K METRIC TITLE: METRIC's runs of both sides, jittered, with
# their boxes and the medians of --dump's stats
plot_sides() {
	local k=$1 m=$2 title=$3 side x omd nmd
	for side in old new; do
		x=1
		[ $side = old ] || x=2
		runs $side "$m" | xawk -v x=$x '{ n = split($0, v, " ")
			for (i = 1; i <= n; i++) print x + 0.44 * ((i * 0.6180339887) % 1 - 0.5), v[i] }' \
			>"$tmp/d.$k.$side"
	done
	omd=$(med old "$m") nmd=$(med new "$m")
	printf '1 %s\n2 %s\n' "$omd" "$nmd" >"$tmp/d.$k.med"
	plot 360 300 "$wl.$m: baseline vs new" <<-EOF
	set title $(gq "$title")
	set xrange [0.4:2.6]
	set xtics ("baseline (n=$(wc -l <"$tmp/d.$k.old"))\nmedian $(fmtn "$omd")" 1, "new (n=$(wc -l <"$tmp/d.$k.new"))\nmedian $(fmtn "$nmd")" 2)
	set offsets 0, 0, graph 0.08, graph 0.08
	set bmargin 4
	$(big "$omd" && echo "set format y '%.0f'")
	set style boxplot nooutliers
	set style fill transparent solid 0.12 border
	set boxwidth 0.55
	set bars 0.3
	set key off
	plot '$tmp/d.$k.old' using (1):2 with boxplot ls 2 lw 1, \\
	     '$tmp/d.$k.new' using (2):2 with boxplot ls 1 lw 1, \\
	     '$tmp/d.$k.old' using 1:2 with points ls 2, \\
	     '$tmp/d.$k.new' using 1:2 with points ls 1, \\
	     '$tmp/d.$k.med' using (\$1 - 0.3):2:(0.6):(0) with vectors nohead lw 4 lc rgb '#222222'
	EOF
}
fmtn() { echo "$1" | xawk '{ print fmt($1) }'; }
# pct FRACTION: "+12.3%"
pct() { xawk -v x="$1" 'BEGIN { print pct(x) }'; }

html '<section id="distributions">' '<h2>Baseline vs new</h2>'
if [ -z "$base" ]; then
	note "no baseline: run with --baseline OLD_RESULTS to compare (OLD_RESULTS: a program's --save FILE on the base kernel)"
elif [ ! -s "$tmp/new.change" ]; then
	html "<p>No change threshold for $wl in $(printf '%s' "${bounds:-the bounds file beside $compare}" | esc): no verdict; the default metrics drawn, each iteration of both runs (points), their quartiles (box) and medians (thick line).</p>" '<div class="plots">'
	k=0
	for m in "$tp" task_clock_us_per_op ctx_switches_per_op migrations_per_1k_ops; do
		[ -n "$m" ] && [ -n "$(runs old "$m")" ] && [ -n "$(runs new "$m")" ] || continue
		k=$((k + 1))
		plot_sides $k "$m" "$m"
	done
	html '</div>'
else
	rc=0
	"$compare" --tsv ${bounds:+--bounds "$bounds"} "$base" "$res" >"$tmp/cmp.tsv" 2>"$tmp/cmp.err" || rc=$?
	if [ $rc = 2 ]; then
		note "sched_perf_compare refuses the comparison: $(sed -n '1s/^sched_perf_compare: //p' "$tmp/cmp.err")"
	else
		src="the change thresholds of ${bounds:-the bounds file beside $compare} for $wl"
		html "<p>Each iteration of both runs (points), their quartiles (box) and medians (thick line); metrics: $(printf '%s' "${src/"$here/../"/}" | esc); change, interval and verdict: sched_perf_compare's (exit $rc).</p>" '<div class="plots">'
		k=0
		tsv_cols "$tmp/cmp.tsv" metric change threshold verdict >"$tmp/cmp.rows"
		while IFS=$'\t' read -r name ch thr verdict; do
			k=$((k + 1))
			m=${name#"$wl".}
			if [ "$(runs old "$m")" ] && [ "$(runs new "$m")" ]; then
				plot_sides $k "$m" "$m  $(pct "$ch")  $verdict (threshold $(pct "$thr"))"
			fi
		done <"$tmp/cmp.rows"
		html '</div>' '<table>' '<tr><th>metric</th><th>baseline median</th><th>stddev</th><th>new median</th><th>stddev</th><th>change</th><th>interval</th><th>threshold</th><th>verdict</th></tr>'
		tsv_cols "$tmp/cmp.tsv" metric old_median old_stddev old_n new_median new_stddev new_n \
			change ci_lo ci_hi threshold verdict why |
			xawk -F'\t' 'function f(x) { return x == "-" ? "-" : fmt(x) }
			{ cls = $12 == "regressed" ? " class=\"bad\"" : $12 == "same" || $12 == "improved" || $12 == "better" ? " class=\"good\"" : ""
			printf "<tr class=\"cmp\"><td>%s</td><td class=\"num\">%s</td><td class=\"num\">%s, n=%s</td><td class=\"num\">%s</td><td class=\"num\">%s, n=%s</td><td class=\"num\">%s</td><td class=\"num\">%s to %s</td><td>%s</td><td%s title=\"%s\">%s</td></tr>\n",
			       esc($1), f($2), f($3), $4, f($5), f($6), $7, pct($8), pct($9), pct($10),
			       ($11 < 0 ? "&gt;= " : "&lt;= ") pct($11), cls, esc($13), $12 }' >&3
		html '</table>'
		note "the verdict: regressed / improved when the interval is beyond the threshold, same when it is shown within it, else worse, better or undecided (hover for the reason); the gate decides with the same figures"
	fi
fi
html '</section>'

# --- latency -------------------------------------------------------------------
html '<section id="latency">' '<h2>Latency</h2>'
# latency_pNN_us figures: "quantile label value"
percentiles() {
	awk -F'\t' '$1 ~ /^latency_p[0-9]+_us$/ {
		d = $1; sub(/^latency_p/, "", d); sub(/_us$/, "", d)
		lab = length(d) > 2 ? substr(d, 1, 2) "." substr(d, 3) : d
		print "0." d, "p" lab, $2
	}' "$tmp/$1.scal" | sort -n
}
percentiles new >"$tmp/lat.new"
[ -z "$base" ] || percentiles old >"$tmp/lat.old"
if [ -s "$tmp/lat.new" ]; then
	plotcmd="'$tmp/lat.new' using 0:3:xtic(2) with linespoints ls 1 title $(gq "$newname")"
	[ ! -s "${tmp}/lat.old" ] ||
		plotcmd="$plotcmd, '$tmp/lat.old' using 0:3 with linespoints ls 2 title 'baseline'"
	plot 560 320 "$wl request-response latency percentiles" <<-EOF
	set title $(gq "$wl: request-response latency percentiles, every transaction")
	set ylabel 'microseconds'
	set logscale y
	set xrange [-0.3:$(wc -l <"$tmp/lat.new") - 0.7]
	set offsets 0, 0, graph 0.08, graph 0.08
	set key top left
	plot $plotcmd
	EOF
	html '<table><tr><th>percentile</th><th>new (us)</th>'"${base:+<th>baseline (us)</th>}"'</tr>'
	xawk -v old="${base:+$tmp/lat.old}" 'BEGIN { if (old != "") while ((getline l < old) > 0) { split(l, f, " "); o[f[2]] = f[3] } }
	{ printf "<tr><td>%s</td><td class=\"num\">%s</td>%s</tr>\n", esc($2), fmt($3),
		old == "" ? "" : "<td class=\"num\">" ($2 in o ? fmt(o[$2]) : "-") "</td>" }' "$tmp/lat.new" >&3
	html '</table>'
else
	note "no latency percentiles in the results: only the request-response programs (tcp_rr, udp_rr, sctp_rr) publish them"
fi
html '<h3>Wakeup-to-run latency (trace)</h3>'
if drawable_evidence wakeup_latency.tsv "lo_us hi_us count" nhi \
	"no wakeup was followed by its switch-in"; then
	# boxes from lo to hi on a log axis (0 and inf drawn as half and twice the
	# other end), the cumulative share on the right axis
	xawk -F'\t' '{ lo[NR] = $1; hi[NR] = $2; c[NR] = $3; tot += $3; if ($3 > 0) { if (!first) first = NR; last = NR } }
	END {
		for (i = first; i <= last; i++) {
			l = lo[i] + 0; h = hi[i] == "inf" ? 2 * l : hi[i] + 0
			if (l <= 0) l = h / 2
			cum += c[i]
			printf "%.9g %.9g %.9g %.9g %.9g\n", sqrt(l * h), l, h, c[i], 100 * cum / tot
		}
		for (i = 1; i <= NR; i++) {
			run += c[i]
			if (!p50 && run >= 0.5 * tot) p50 = hi[i]
			if (!p99 && run >= 0.99 * tot) p99 = hi[i]
		}
		printf "%d wakeups; half woke to run within %s us, 99 %% within %s us (bucket bounds)\n", tot, p50, p99 > "/dev/stderr"
	}' "$tmp/ev.wakeup_latency.tsv" >"$tmp/wl.dat" 2>"$tmp/wl.txt"
	plot 760 340 "wakeup-to-run latency histogram" <<-EOF
	set title 'wakeup-to-run latency (traced re-run), log-spaced buckets'
	set xlabel 'microseconds'
	set ylabel 'wakeups'
	set y2label 'cumulative %'
	set logscale x
	set format x '%.0f'
	set yrange [0:*]
	set y2range [0:100]
	set y2tics 0, 25, 100
	set style fill solid 0.5 border
	set key below
	plot '$tmp/wl.dat' using 1:(\$4 / 2):2:3:(0):4 with boxxyerror ls 1 title 'wakeups per bucket', \\
	     '$tmp/wl.dat' using 3:5 axes x1y2 with steps ls 2 title 'cumulative share'
	EOF
	html "<p>$(esc <"$tmp/wl.txt")</p>"
fi
html '</section>'

# --- migrations per CPU ------------------------------------------------------
html '<section id="migrations">' '<h2>Migrations per CPU</h2>'
if drawable_evidence migrations.tsv "from_cpu to_cpu migrations" iii \
	"no migration in the traced re-run"; then
	ncpu=$(awk -F'\t' -v n="$(meta new nr_cpus)" 'BEGIN { n += 0 } $1 >= n { n = $1 + 1 } $2 >= n { n = $2 + 1 } END { print n }' "$tmp/ev.migrations.tsv")
	awk -F'\t' -v n="$ncpu" '{ sent[$1] += $3; recv[$2] += $3; cell[$2 " " $1] += $3 }
	END {
		for (c = 0; c < n; c++) printf "%d %d %d\n", c, sent[c], recv[c] > (dir "/mig.cpu")
		for (f = 0; f < n; f++)
			for (t = 0; t < n; t++)
				if (cell[t " " f] > 0) print t, f, cell[t " " f] > (dir "/mig.cells")
	}' dir="$tmp" "$tmp/ev.migrations.tsv"
	plot 760 320 "migrations sent and received per CPU" <<-EOF
	set title 'migrations per CPU (traced re-run)'
	set xlabel 'CPU'
	set ylabel 'migrations'
	set xrange [-0.6:$ncpu - 0.4]
	$([ "$ncpu" -le 32 ] && echo "set xtics 1")
	set yrange [0:*]
	set style fill solid 0.7 border
	set key below
	plot '$tmp/mig.cpu' using (\$1 - 0.2):2:(0.4) with boxes ls 2 title 'sent (from this CPU)', \\
	     '$tmp/mig.cpu' using (\$1 + 0.2):3:(0.4) with boxes ls 1 title 'received (to this CPU)'
	EOF
	side=$((ncpu <= 8 ? 420 : ncpu <= 32 ? 560 : 720))
	labels=
	[ "$ncpu" -gt 16 ] || labels=", '$tmp/mig.cells' using 1:2:(sprintf('%d', \$3)) with labels font ',9'"
	plot "$((side + 120))" "$side" "migrations per CPU pair" <<-EOF
	set title 'migrations from CPU (row) to CPU (column)'
	set xlabel 'to CPU'
	set ylabel 'from CPU'
	set size square
	set xrange [-0.5:$ncpu - 0.5]
	set yrange [$ncpu - 0.5:-0.5]
	$([ "$ncpu" -le 32 ] && echo "set xtics 1; set ytics 1")
	set grid noytics
	set palette defined (0 '#fff1e0', 1 '#f4a259', 2 '#b5371b', 3 '#4a0c0c')
	set cbrange [0:*]
	set cblabel 'migrations'
	plot '$tmp/mig.cells' using 1:2:(\$1 - 0.5):(\$1 + 0.5):(\$2 - 0.5):(\$2 + 0.5):3 with boxxyerror fs solid 1.0 noborder fc palette$labels
	EOF
	html '<p>Busiest CPU pairs:</p>' '<table><tr><th>from CPU</th><th>to CPU</th><th>migrations</th></tr>'
	sort -t"$(printf '\t')" -k3,3nr -k1,1n -k2,2n "$tmp/ev.migrations.tsv" | head -n 10 |
		awk -F'\t' '{ printf "<tr><td class=\"num\">%d</td><td class=\"num\">%d</td><td class=\"num\">%d</td></tr>\n", $1, $2, $3 }' >&3
	html '</table>'
	html "<p>$(awk -F'\t' '{ s += $3 } END { printf "%d migrations between %d CPU pairs", s, NR }' "$tmp/ev.migrations.tsv")</p>"
fi
html '</section>'

# --- evidence ----------------------------------------------------------------
# table FILE "th1 th2 ..." ROWS: the first ROWS rows, sorted by the last column
table() {
	local f=$1 heads=$2 top=$3
	html "<table><tr>$(for h in $heads; do printf '<th>%s</th>' "$h"; done)</tr>"
	awk -F'\t' '{ print $NF "\t" $0 }' "$f" | sort -t"$(printf '\t')" -k1,1nr | cut -f2- | head -n "$top" |
		xawk -F'\t' '{ printf "<tr>"
			for (i = 1; i <= NF; i++)
				printf (isint($i) ? "<td class=\"num\">%s</td>" : "<td>%s</td>"), esc($i)
			print "</tr>" }' >&3
	html '</table>'
	[ "$(wc -l <"$f")" -le "$top" ] || note "the first $top of $(wc -l <"$f") rows"
}

html '<section id="evidence">' '<h2>Evidence</h2>'
if [ -z "$ev" ]; then
	note "no evidence: run with --evidence DIR"
else
	html "<p>From $(printf '%s' "$ev" | esc):</p>" '<table><tr><th>file</th><th>bytes</th></tr>'
	for f in "$ev"/*; do
		[ -f "$f" ] || continue
		printf '<tr><td>%s</td><td class="num">%s</td></tr>\n' \
			"$(basename "$f" | esc)" "$(wc -c <"$f")" >&3
	done
	html '</table>'
	for f in trace.dat perf.data; do
		[ ! -f "$ev/$f" ] || note "$f: the binary trace, not drawn (trace-cmd report / perf script read it)"
	done
	html '<h3>Summary</h3>'
	if [ -f "$ev/summary.txt" ]; then
		[ -r "$ev/summary.txt" ] || die "$ev/summary.txt: cannot read it"
		size=$(wc -c <"$ev/summary.txt")
		printf '<pre>%s</pre>\n' "$(head -c 262144 "$ev/summary.txt" | esc)" >&3
		[ "$size" -le 262144 ] || note "summary.txt: the first 256 KiB of $size bytes"
	else
		note "no summary.txt in $ev"
	fi
	html '<h3>Top tasks</h3>'
	if evidence_table tasks.tsv "pid comm migrations wakeups preempted" itiii; then
		if [ -s "$tmp/ev.tasks.tsv" ]; then
			# by migrations: the third column moved last for table()
			awk -F'\t' -v OFS='\t' '{ print $1, $2, $4, $5, $3 }' "$tmp/ev.tasks.tsv" >"$tmp/tasks"
			table "$tmp/tasks" "pid comm wakeups times&#160;preempted migrations" 20
		else
			note "tasks.tsv: no task"
		fi
	else
		note "no tasks.tsv in $ev"
	fi
	html '<h3>Who preempted whom</h3>'
	if evidence_table preemptions.tsv "preemptor preempted count" tti; then
		if [ -s "$tmp/ev.preemptions.tsv" ]; then
			table "$tmp/ev.preemptions.tsv" "preemptor preempted times" 20
		else
			note "preemptions.tsv: no preemption"
		fi
	else
		note "no preemptions.tsv in $ev"
	fi
fi
html '</section>'

cat >&3 <<EOF
<footer>Generated by scripts/report.sh on $(date -u '+%Y-%m-%d %H:%M:%S UTC') from
$(printf '%s' "$res" | esc)${base:+ (baseline $(printf '%s' "$base" | esc))}${ev:+ (evidence $(printf '%s' "$ev" | esc))}.
Plots: $(printf '%s' "$("$GNUPLOT" --version 2>/dev/null)" | esc), svg terminal.</footer>
</body>
</html>
EOF
exec 3>&-

# invalid UTF-8 (a comm is bytes) would make the page ill-formed: dropped
iconv -c -f UTF-8 -t UTF-8 <"$tmp/page.html" >"$tmp/page.utf8" 2>/dev/null
[ -s "$tmp/page.utf8" ] || cp "$tmp/page.html" "$tmp/page.utf8"
# renamed into place: a reader never sees half a page
part=$out.part.$$
if ! cp "$tmp/page.utf8" "$part" 2>/dev/null || ! mv -f "$part" "$out"; then
	rm -f "$part"
	echo "$me: cannot write $out" >&2
	exit 1
fi
