#!/bin/sh
# doc_shapes.sh [DDBC] - ddbc doc's CPU time on the shapes that made it
# quadratic: one table of 500..4,000 entities (gen_design.py N 1 N) and a
# sparse GSI of 2,000..8,000 entities (gen_sparse.py N). Each line: the
# shape, N, user seconds, peak RSS in KiB. Linear means about twice the
# time per doubling.
set -eu
ddbc=${1:-./ddbc}
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() {  # run SHAPE N DESIGN
	/usr/bin/time -f "$1 $2 %U %M" "$ddbc" doc "$3" >"$tmp/out.md" 2>"$tmp/time" ||
		{ cat "$tmp/time"; exit 1; }
	tail -1 "$tmp/time"
}
for n in 500 1000 2000 4000; do
	python3 "$here/gen_design.py" "$n" 1 "$n" >"$tmp/d.ddb.yaml"
	run single-table "$n" "$tmp/d.ddb.yaml"
done
for n in 2000 4000 8000; do
	python3 "$here/gen_sparse.py" "$n" >"$tmp/d.ddb.yaml"
	run sparse-gsi "$n" "$tmp/d.ddb.yaml"
done
