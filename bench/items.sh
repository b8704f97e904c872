#!/bin/sh
# items.sh - check-items throughput and memory against jansson's own parse
#
#   bench/items.sh [BUILDDIR]      (or: make bench-items; BENCH_MB=200 by default)
#
# Generates DynamoDB JSON of the stamp-rally sample (bench/gen_items.py) as
# export lines and as a scan result, then measures on each: jansson alone
# (json_loadb per line for export lines: the per-item floor; json_loadf of
# the whole file for the scan) and `ddbc check-items`, BENCH_RUNS times each
# (default 3, interleaved), and prints the best CPU time of each, its
# throughput, the ratio check-items / jansson, and peak RSS. The files are
# kept in BENCH_DIR (default: a temporary directory, removed afterwards;
# `make bench` keeps them in bench/out, named by the generator's arguments,
# where bench/export.sh and bench/bench.py find the same inputs; see
# bench/cache.sh).
#
# Then the single-table shape: export lines of a generated design of
# BENCH_ENTITIES (4000) entities in one table (bench/gen_design.py,
# bench/gen_design_items.py), BENCH_SINGLE_MB (60) of them, where each
# item's entity is one among thousands. The bar: at least half of jansson's
# speed, the design's own check included.
set -eu
builddir=${1:-.}
srcdir=$(cd "$(dirname "$0")/.." && pwd)
mb=${BENCH_MB:-200}
runs=${BENCH_RUNS:-3}
ddbc="$builddir/ddbc"
bench="$builddir/bench/items_bench"
design="$srcdir/samples/stamp-rally.ddb.yaml"
for f in "$ddbc" "$bench"; do
	[ -x "$f" ] || { echo "items.sh: build $f first (make bench)" >&2; exit 2; }
done
keep=${BENCH_DIR:-}
dir=${BENCH_DIR:-$(mktemp -d)}
mkdir -p "$dir"
[ -n "$keep" ] || trap 'rm -rf "$dir"' EXIT
. "$srcdir/bench/cache.sh"

ratio() {  # MB/s of check-items / MB/s of jansson, from the two report lines
	awk '/^jansson/ { j = $12 } /^check-items/ { c = $12 }
	     END { if (j > 0) printf "ratio       check-items / jansson = %.2f\n", c / j }'
}

entities=${BENCH_ENTITIES:-4000}
single_mb=${BENCH_SINGLE_MB:-60}
# The names bench/bench.py gives the same generator arguments.
single="$dir/single-$entities.ddb.yaml"
for shape in export scan single; do
	if [ "$shape" = single ]; then
		design=$single
		file="$dir/single-$entities-${single_mb}mb.json"
		made "$design" "$srcdir/bench/gen_design.py" -- sh -c 'python3 "$1" "$2" 1 "$2" > "$3"' \
			- "$srcdir/bench/gen_design.py" "$entities" "$design.tmp"
		made "$file" "$srcdir/bench/gen_design_items.py" -- python3 \
			"$srcdir/bench/gen_design_items.py" "$entities" "$entities" --mb "$single_mb" \
			"$file.tmp"
		echo "== single table of $entities entities: $file ($(wc -c < "$file") bytes)"
	else
		file="$dir/items-$shape-${mb}mb.json"
		made "$file" "$srcdir/bench/gen_items.py" -- python3 "$srcdir/bench/gen_items.py" \
			--shape "$shape" --mb "$mb" "$file.tmp"
		echo "== $shape: $file ($(wc -c < "$file") bytes)"
	fi
	if [ "$shape" = scan ]; then floor=floor-file; else floor=floor-lines; fi
	: > "$dir/runs"
	i=0
	while [ $i -lt "$runs" ]; do   # interleaved, so both see the same machine
		"$bench" "$floor" "$file" >> "$dir/runs"
		"$bench" run "$file" -- "$ddbc" check-items "$design" "$file" >> "$dir/runs"
		i=$((i + 1))
	done
	{
		grep '^jansson' "$dir/runs" | sort -n -k7 | head -n 1
		grep '^check-items' "$dir/runs" | sort -n -k7 | head -n 1
	} | tee "$dir/report"
	ratio < "$dir/report"
	"$ddbc" check-items "$design" "$file" 2>/dev/null | tail -n 1
done
