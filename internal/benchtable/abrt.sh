#!/bin/bash
# abrt.sh BASE_REV [COUNT]: A/B benchmarks of the runtime engine, the tree at
# BASE_REV against this one, in alternating rounds on one machine, for
# benchstat: small sessions (runtime BenchmarkSessions), the
# lifeline-removal corpus (BenchmarkLfrem, POR+LOC; needs ../shared) and
# JSON Lines to verdicts on one core (check BenchmarkLogs, i1: the runtime
# engine). This tree's benchmark files are copied into BASE_REV's tree, so
# that both trees run the same benchmarks. Output: $OUT/{base,new}.txt.
#
#	internal/benchtable/abrt.sh 76f5a7a 6
#	go run golang.org/x/perf/cmd/benchstat@latest -col .file $OUT/base.txt $OUT/new.txt
set -u
base_rev=$1
count=${2:-6}
here=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$(mktemp -d)}
base=$OUT/base-tree
git -C "$here" worktree add -q --detach "$base" "$base_rev"
trap 'git -C "$here" worktree remove --force "$base"' EXIT
# The base tree finds the shared corpus beside it, as this one does.
[ -e "$OUT/shared" ] || ln -s "$here/../shared" "$OUT/shared"
for f in runtime/bench_test.go check/bench_test.go; do
	cp "$here/$f" "$base/$f"
done
: >"$OUT/base.txt"
: >"$OUT/new.txt"
one() { # one TREE FILE
	(cd "$1" && go test -run '^$' -bench 'BenchmarkSessions' -benchtime 20x -count=1 ./runtime) >>"$2" 2>&1
	(cd "$1" && go test -run '^$' -bench 'BenchmarkLfrem/por\+loc$' -benchtime 1x -count=1 ./runtime) >>"$2" 2>&1
	(cd "$1" && go test -run '^$' -bench 'BenchmarkLogs/i1$/jsonl' -cpu 1 -benchtime 10x -count=1 ./check) >>"$2" 2>&1
}
for i in $(seq "$count"); do
	echo "round $i $(date +%T)"
	one "$base" "$OUT/base.txt"
	one "$here" "$OUT/new.txt"
done
echo "results in $OUT/base.txt and $OUT/new.txt"
