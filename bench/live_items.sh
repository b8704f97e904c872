#!/bin/sh
# live_items.sh - check-items --table against dynalite, next to check-items of a file
#
#   bench/live_items.sh [BUILDDIR]     (BENCH_ITEMS=20000, BENCH_RUNS=3 by default)
#
# Writes BENCH_ITEMS items of tests/fixtures/live/shop.ddb.yaml
# (tests/live/shop_items.py) to a table of a dynalite started on a free
# port of 127.0.0.1, then times, BENCH_RUNS times each (interleaved, the
# best kept): `check-items` of the same items in a file, and
# `check-items --table` with -j 1 and -j 4. Prints items per second of
# each and the ratio to the file's. The engine dominates: dynalite (Node.js,
# LevelDB in memory) serves a Scan page of 1 MB in tens of milliseconds,
# while the checker takes a few. Needs Node.js with dynalite and python3.
set -eu
builddir=${1:-.}
srcdir=$(cd "$(dirname "$0")/.." && pwd)
n=${BENCH_ITEMS:-20000}
runs=${BENCH_RUNS:-3}
ddbc="$builddir/ddbc"
call="$builddir/tests/dynamo_call"
design="$srcdir/tests/fixtures/live/shop.ddb.yaml"
[ -x "$call" ] || make -C "$builddir" tests/dynamo_call >/dev/null
tmp=$(mktemp -d)
trap 'kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT

export AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=benchbenchbench AWS_REGION=us-east-1
export AWS_CONFIG_FILE=/nonexistent AWS_SHARED_CREDENTIALS_FILE=/nonexistent
port=$(node -e 'const s = require("net").createServer();
s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });')
dynalite=$(cd "$srcdir" && node -e 'console.log(require.resolve("dynalite/cli.js"))')
node "$dynalite" --host 127.0.0.1 --port "$port" --createTableMs 0 >/dev/null 2>&1 &
pid=$!
url="http://127.0.0.1:$port"
until "$call" --endpoint "$url" --max-attempts 1 ListTables '{}' >/dev/null 2>&1; do sleep 0.1; done

"$ddbc" export --format create-table "$design" |
	node -e 'let s = ""; process.stdin.on("data", d => s += d).on("end", () =>
	  console.log(JSON.stringify(JSON.parse(s)[0])))' >"$tmp/create.json"
"$call" --endpoint "$url" CreateTable "$(cat "$tmp/create.json")" >/dev/null
python3 "$srcdir/tests/live/shop_items.py" "$n" >"$tmp/items.jsonl"
start=$(date +%s.%N)
"$call" --endpoint "$url" --put-items Shop "$tmp/items.jsonl"
echo "wrote $n items in $(echo "$(date +%s.%N) - $start" | bc) s (BatchWriteItem, 25 a request)"

# elapsed CMD...: the wall-clock seconds of one run.
elapsed() {
	s=$(date +%s.%N)
	"$@" >/dev/null 2>&1 || true
	echo "$(date +%s.%N) - $s" | bc
}
best_file= best_j1= best_j4=
min() { if [ -z "$1" ] || [ "$(echo "$2 < $1" | bc)" = 1 ]; then echo "$2"; else echo "$1"; fi; }
i=0
while [ $i -lt "$runs" ]; do
	best_file=$(min "$best_file" "$(elapsed "$ddbc" check-items "$design" "$tmp/items.jsonl")")
	best_j1=$(min "$best_j1" "$(elapsed "$ddbc" check-items "$design" --endpoint "$url" --table Shop -j 1)")
	best_j4=$(min "$best_j4" "$(elapsed "$ddbc" check-items "$design" --endpoint "$url" --table Shop -j 4)")
	i=$((i + 1))
done
row() { printf '%-28s %8.3f s %10.0f items/s %8.1fx the file\n' "$1" "$2" "$(echo "$n / $2" | bc -l)" "$(echo "$2 / $best_file" | bc -l)"; }
echo "check-items of $n items (best of $runs):"
row "file" "$best_file"
row "--table, dynalite, -j 1" "$best_j1"
row "--table, dynalite, -j 4" "$best_j4"
