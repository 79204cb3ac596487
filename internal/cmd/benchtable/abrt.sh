#!/bin/bash
# abrt.sh BASE_REV [COUNT [REV...]]: A/B benchmarks of the runtime engine,
# the tree at BASE_REV (and at each further REV, to see what each change
# gave) against this one, in alternating rounds on one machine, for
# benchstat: small sessions (runtime BenchmarkSessions: repeated ones;
# BenchmarkDistinct: distinct ones), the lifeline-removal corpus
# (BenchmarkLfrem, POR+LOC; needs ../shared) and JSON Lines to verdicts on
# one core (check BenchmarkLogs, distinct-i0 and repeated-i1: the runtime
# engine). This tree's benchmark files (and testutil's CPU clock, which
# they use: cpu-ns metrics, less sensitive to the load than the time
# elapsed) are copied into the other trees, so that all run the same
# benchmarks. Output: $OUT/base.txt, $OUT/REV.txt, $OUT/new.txt.
#
#	internal/cmd/benchtable/abrt.sh 76f5a7a 6
#	go run golang.org/x/perf/cmd/benchstat@latest -col .file $OUT/base.txt $OUT/new.txt
# Both trees must have the layout of 67925e9 or later (the packages moved
# under internal/ then): compare revisions from that one on.
set -u
base_rev=$1
count=${2:-6}
shift 2 2>/dev/null || shift $#
here=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$(mktemp -d)}
# The other trees find the shared corpus beside them, as this one does.
[ -e "$OUT/shared" ] || ln -s "$(cd "$here/.." && pwd)/shared" "$OUT/shared"
names=(base "$@")
revs=("$base_rev" "$@")
trees=()
cleanup() {
	for t in "${trees[@]}"; do git -C "$here" worktree remove --force "$t"; done
}
trap cleanup EXIT
for k in "${!revs[@]}"; do
	t=$OUT/tree-${names[$k]}
	git -C "$here" worktree add -q --detach "$t" "${revs[$k]}"
	trees+=("$t")
	for f in internal/engine/rewrite/bench_test.go check/bench_test.go internal/testutil/bench.go internal/testutil/cpu_unix.go internal/testutil/cpu_other.go; do
		cp "$here/$f" "$t/$f"
	done
	# An older testutil may call the clock by its former name.
	sed -i 's/\bcpuTime()/CPUTime()/g' "$t"/internal/testutil/*.go
	: >"$OUT/${names[$k]}.txt"
done
: >"$OUT/new.txt"
one() { # one TREE FILE
	(cd "$1" && go test -run '^$' -bench 'BenchmarkSessions' -benchtime 20x -count=1 ./internal/engine/rewrite) >>"$2" 2>&1
	(cd "$1" && go test -run '^$' -bench 'BenchmarkDistinct' -cpu 1 -benchtime 2x -count=1 ./internal/engine/rewrite) >>"$2" 2>&1
	(cd "$1" && go test -run '^$' -bench 'BenchmarkLfrem/por\+loc$' -benchtime 1x -count=1 ./internal/engine/rewrite) >>"$2" 2>&1
	(cd "$1" && go test -run '^$' -bench 'BenchmarkLogs/(distinct-i0|repeated-i1)/jsonl$' -cpu 1 -benchtime 3x -count=1 ./check) >>"$2" 2>&1
}
for i in $(seq "$count"); do
	echo "round $i $(date +%T)"
	for k in "${!trees[@]}"; do
		one "${trees[$k]}" "$OUT/${names[$k]}.txt"
	done
	one "$here" "$OUT/new.txt"
done
echo "results in $OUT: ${names[*]} new (.txt)"
