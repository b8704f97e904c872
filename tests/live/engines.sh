# engines.sh - local DynamoDB engines for the live tests; sourced after test-lib.sh
#
#   need_engine NAME WHY     skip (77) when an engine is missing, fail under CI=true
#   start_dynalite           dynalite on 127.0.0.1, a free port: sets $dynalite (URL)
#   start_moto               moto's server likewise: sets $moto (URL)
#   wait_table URL TABLE     until the table is ACTIVE
# Engines started here are stopped when the test exits. Credentials are
# set for them (neither checks a signature, both want one).
: "${top_srcdir:?}" "${top_builddir:?}" "${tmp:?}"

AWS_ACCESS_KEY_ID=AKIDLOCAL AWS_SECRET_ACCESS_KEY=localsecretlocalsecret AWS_REGION=us-east-1
export AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_REGION
unset AWS_SESSION_TOKEN AWS_PROFILE AWS_ENDPOINT_URL AWS_ENDPOINT_URL_DYNAMODB
export AWS_CONFIG_FILE=/nonexistent AWS_SHARED_CREDENTIALS_FILE=/nonexistent
call="$top_builddir/tests/dynamo_call"
engine_pids=
trap 'for p in $engine_pids; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT

missing_engine() {
	if [ "${CI:-}" = true ]; then
		echo "FAIL: $1 (CI=true: install it before make check)"
		exit 1
	fi
	echo "SKIP: $1"
	exit 77
}

# The node_modules folder that holds dynalite, in the tree or above it.
dynalite_dir() {
	d=$(cd "$top_srcdir" && pwd)
	while [ ! -d "$d/node_modules/dynalite" ] && [ "$d" != / ]; do d=$(dirname "$d"); done
	[ -d "$d/node_modules/dynalite" ] && echo "$d/node_modules/dynalite"
}
have_dynalite() { command -v node >/dev/null 2>&1 && [ -n "$(dynalite_dir)" ]; }
have_moto() { command -v moto_server >/dev/null 2>&1; }

free_port() {
	node -e 'const s = require("net").createServer();
s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });' 2>/dev/null ||
		python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_up URL: until the engine answers ListTables (10 s at most).
wait_up() {
	i=0
	until "$call" --endpoint "$1" --max-attempts 1 ListTables '{}' >/dev/null 2>&1; do
		i=$((i + 1))
		[ $i -lt 100 ] || stop "no engine answers at $1"
		sleep 0.1
	done
}

start_dynalite() {
	port=$(free_port)
	node "$(dynalite_dir)/cli.js" --host 127.0.0.1 --port "$port" --createTableMs 0 \
		--deleteTableMs 0 --updateTableMs 0 >"$tmp/dynalite.log" 2>&1 &
	engine_pids="$engine_pids $!"
	dynalite_pid=$!
	dynalite="http://127.0.0.1:$port"
	wait_up "$dynalite"
}

start_moto() {
	port=$(free_port)
	moto_server -H 127.0.0.1 -p "$port" >"$tmp/moto.log" 2>&1 &
	engine_pids="$engine_pids $!"
	moto="http://127.0.0.1:$port"
	wait_up "$moto"
}

wait_table() {
	i=0
	until "$call" --endpoint "$1" DescribeTable "{\"TableName\": \"$2\"}" 2>/dev/null |
		grep -q '"TableStatus":"ACTIVE"'; do
		i=$((i + 1))
		[ $i -lt 100 ] || stop "table $2 is not ACTIVE at $1"
		sleep 0.1
	done
}
