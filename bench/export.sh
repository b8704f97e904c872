#!/bin/sh
# export.sh - check-items on a gzipped export folder: per core, -j 2, memory
#
#   bench/export.sh [BUILDDIR]    (or: make bench-export; BENCH_MB=200 of JSON by default)
#
# Generates export lines of the stamp-rally sample (bench/gen_items.py) and
# deals them over BENCH_FILES (8) gzip data files of an export folder with
# its manifests (bench/gen_export.py). Then, BENCH_RUNS times (3), interleaved:
#   floor        zcat data/*.json.gz | jansson json_loadb per line
#   check -j 1   ddbc check-items DESIGN FOLDER
#   check -j 2   ddbc check-items -j 2 DESIGN FOLDER
# and prints the best run of each: CPU and wall seconds, MB/s of
# uncompressed JSON on CPU time (per core) and the peak resident set of the
# process (threads share it; the floor's is its largest process). The
# speed-up of -j 2 is its wall time against -j 1's; on a shared machine the
# wall times measure the neighbours too. The files are kept in BENCH_DIR as
# bench/items.sh keeps them (the export lines are the same file).
set -eu
builddir=${1:-.}
srcdir=$(cd "$(dirname "$0")/.." && pwd)
mb=${BENCH_MB:-200}
runs=${BENCH_RUNS:-3}
files=${BENCH_FILES:-8}
ddbc="$builddir/ddbc"
bench="$builddir/bench/items_bench"
design="$srcdir/samples/stamp-rally.ddb.yaml"
for f in "$ddbc" "$bench"; do
	[ -x "$f" ] || { echo "export.sh: build $f first (make bench)" >&2; exit 2; }
done
keep=${BENCH_DIR:-}
dir=${BENCH_DIR:-$(mktemp -d)}
mkdir -p "$dir"
[ -n "$keep" ] || trap 'rm -rf "$dir"' EXIT
. "$srcdir/bench/cache.sh"

lines="$dir/items-export-${mb}mb.json"
folder="$dir/export-${mb}mb-${files}files"
made "$lines" "$srcdir/bench/gen_items.py" -- python3 "$srcdir/bench/gen_items.py" \
	--shape export --mb "$mb" "$lines.tmp"
# The folder is made of the lines: remade when they are newer too.
fresh "$folder" "$lines" || rm -rf "$folder"
made "$folder" "$srcdir/bench/gen_export.py" -- python3 "$srcdir/bench/gen_export.py" \
	--files "$files" "$lines" "$folder.tmp"
bytes=$(wc -c < "$lines")
gz=$(cat "$folder"/AWSDynamoDB/*/data/*.json.gz | wc -c)
echo "== export folder: $files gzip files, $gz bytes ($bytes bytes of JSON)"
: > "$dir/runs"
i=0
while [ $i -lt "$runs" ]; do
	"$bench" run-as floor "$bytes" -- sh -c \
		"zcat '$folder'/AWSDynamoDB/*/data/*.json.gz | '$bench' floor-lines - >/dev/null" \
		>> "$dir/runs"
	"$bench" run-as check-j1 "$bytes" -- "$ddbc" check-items "$design" "$folder" >> "$dir/runs"
	"$bench" run-as check-j2 "$bytes" -- "$ddbc" check-items -j 2 "$design" "$folder" \
		>> "$dir/runs"
	i=$((i + 1))
done
for what in floor check-j1 check-j2; do
	grep "^$what " "$dir/runs" | sort -n -k7 | head -n 1
done | tee "$dir/report"
awk '/^floor/ { f = $12 } /^check-j1/ { c = $12; w1 = $10 } /^check-j2/ { w2 = $10 }
     END { if (f > 0) printf "ratio       check-items -j 1 / floor (per core) = %.2f\n", c / f
           if (w2 > 0) printf "speed-up    -j 2 wall / -j 1 wall = %.2fx\n", w1 / w2 }' "$dir/report"
"$ddbc" check-items -j 2 "$design" "$folder" 2>/dev/null | tail -n 2
