#!/usr/bin/env bash
# Compares two revisions on one in-turn benchmark of this module, the way bench_notes.md quotes
# "N runs alternating builds": builds the internal/peers test binary of each revision (in
# temporary git worktrees), then runs them in turn, ROUNDS times each, and prints every run's
# ratio against the peer (the x-<peer> metric of the *Ratio benchmarks; x-per-byte, the last
# x- metric of its lines, for BenchmarkEncodeLinearRatio) and the medians.
#
#   internal/peers/abtest.sh e0df7ce HEAD 'JSONDecodeRatio/rec=big50k$'        # 8 rounds
#   ROUNDS=16 BENCHTIME=400ms internal/peers/abtest.sh main HEAD 'CBORDecodeRatio/rec=stream10k$'
#
# Why alternate whole processes: on a shared machine a ratio timed in turn within one process
# still moves by a few percent from one process to the next (the heap's and stack's layout, the
# neighbours' load), often more than a change under test; alternating the two builds' processes
# spreads that over both. Run nothing else meanwhile.
set -euo pipefail
if [ $# -lt 3 ]; then
	echo "usage: $0 REV_A REV_B BENCH_REGEX" >&2
	exit 2
fi
revA=$1 revB=$2 bench=$3
ROUNDS=${ROUNDS:-8}
BENCHTIME=${BENCHTIME:-400ms}
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
tmp=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$tmp/a" >/dev/null 2>&1 || true; git -C "$root" worktree remove --force "$tmp/b" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
for side in a b; do
	rev=$revA
	[ "$side" = b ] && rev=$revB
	git -C "$root" worktree add --detach "$tmp/$side" "$rev" >/dev/null 2>&1
	(cd "$tmp/$side/internal/peers" && go test -c -o "$tmp/$side.test" .)
done
# The benchmarks read their inputs relative to the package directory: run both from this one.
cd "$root/internal/peers"
for r in $(seq "$ROUNDS"); do
	for side in a b; do
		"$tmp/$side.test" -test.run '^$' -test.bench "$bench" -test.benchtime "$BENCHTIME" 2>&1 |
			awk -v side="$side" '/^Benchmark/ && !/Collected/ {v = ""; for (i = 2; i <= NF; i++) if ($i ~ /^x-[a-z0-9-]+$/ && $i !~ /-best$/) v = $(i-1); if (v != "") print side, v}'
	done
done | awk -v a="$revA" -v b="$revB" '
	{ r[$1] = r[$1] " " $2; v[$1, ++n[$1]] = $2 }
	function median(s, k,   i, j, t, x) {
		for (i = 1; i <= k; i++) x[i] = v[s, i]
		for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
		return k % 2 ? x[(k + 1) / 2] : (x[k / 2] + x[k / 2 + 1]) / 2
	}
	END {
		ahead = 0
		for (i = 1; i <= n["b"] && i <= n["a"]; i++) if (v["b", i] > v["a", i]) ahead++
		printf "%s:%s\n%s:%s\n", a, r["a"], b, r["b"]
		printf "medians: %s %.3f, %s %.3f; %s ahead in %d of %d rounds\n", a, median("a", n["a"]), b, median("b", n["b"]), b, ahead, n["b"]
	}'
