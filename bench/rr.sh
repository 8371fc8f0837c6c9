#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Our request-response rate side by side with sockperf ping-pong, at the
# nearest settings sockperf has: one client/server pair over 127.0.0.1,
# 14-byte messages (sockperf's minimum) both ways, one message in flight,
# TCP with TCP_NODELAY (sockperf's default), --mps=max, same duration.
# Runs interleaved; prints medians, the ratio and the settings.
# Usage: bench/rr.sh DIR_WITH_OUR_PROGRAMS [ROUNDS] [SECONDS]
set -eu
dir=$1
rounds=${2:-5}
secs=${3:-3}
command -v sockperf >/dev/null || { echo "sockperf not installed (scripts/deps.sh install bench)" >&2; exit 2; }
tmp=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
trap 'kill $server 2>/dev/null; rm -rf "$tmp"' EXIT

ours() {	# proto -> transactions/s and p50 RTT (us)
	local opt=
	[ "$1" = tcp ] && opt=-D
	"$dir/${1}_rr" --pairs 1 -r 14,14 $opt --duration "$secs" --iterations 1 \
		--results none --no-counters |
		awk '/Throughput_total_tps:/ { t = $3 } /latency_p50_us:/ { l = $3 }
		     END { print t, l }'
}

peer() {	# proto -> transactions/s and p50 RTT (us; sockperf prints RTT/2)
	local opt=
	[ "$1" = tcp ] && opt=--tcp
	sockperf ping-pong -i 127.0.0.1 -p "$port" $opt -t "$secs" -m 14 --mps=max 2>&1 |
		sed 's/\x1b\[[0-9;]*m//g' |
		awk '/Valid Duration/ { split($0, a, /RunTime=| sec;|ReceivedMessages=/); t = a[4] / a[2] }
		     /percentile 50.000/ { l = 2 * $NF } END { print t, l }'
}

. "$(dirname "$0")/../scripts/programs.sh"

echo "request-response, 1 pair, 14-byte messages, ${secs} s per run, $rounds interleaved rounds, $(nproc) CPUs, kernel $(uname -r)"
echo "  ours: {tcp,udp}_rr --pairs 1 -r 14,14 [-D for TCP] --duration $secs"
echo "  peer: sockperf ping-pong -i 127.0.0.1 -m 14 --mps=max -t $secs [--tcp]; sockperf server"
for proto in udp tcp; do
	opt=
	[ $proto = tcp ] && opt=--tcp
	sockperf server -i 127.0.0.1 -p "$port" $opt >/dev/null 2>&1 &
	server=$!
	sleep 0.5
	for i in $(seq "$rounds"); do
		if [ $((i % 2)) = 0 ]; then
			ours $proto >>"$tmp/ours.$proto"; peer $proto >>"$tmp/peer.$proto"
		else
			peer $proto >>"$tmp/peer.$proto"; ours $proto >>"$tmp/ours.$proto"
		fi
	done
	kill $server
	wait $server 2>/dev/null || true
	o=$(cut -d' ' -f1 "$tmp/ours.$proto" | median) p=$(cut -d' ' -f1 "$tmp/peer.$proto" | median)
	ol=$(cut -d' ' -f2 "$tmp/ours.$proto" | median) pl=$(cut -d' ' -f2 "$tmp/peer.$proto" | median)
	printf '%s: ours %.0f tps (p50 RTT %.1f us)  sockperf %.0f tps (p50 RTT %.1f us)  ratio ours/sockperf %.3f\n' \
		"$proto" "$o" "$ol" "$p" "$pl" "$(awk -v o="$o" -v p="$p" 'BEGIN { print o / p }')"
	echo "  runs ours: $(cut -d' ' -f1 "$tmp/ours.$proto" | tr '\n' ' ')"
	echo "  runs peer: $(cut -d' ' -f1 "$tmp/peer.$proto" | tr '\n' ' ')"
done
