# test-lib.sh - what the shell tests share; a test sources it after its
# `set` line and its checks of top_srcdir/top_builddir:
#   . "$top_srcdir/tests/test-lib.sh"
#
# $tmp is a fresh folder, removed at exit. `fail MESSAGE` says what failed
# (and shows the file $show_err names, when a test sets it: the standard
# error of the command checked) and the test goes on, so one run shows every failure; `stop MESSAGE`
# does the same and ends the test, for a failure the rest cannot run
# without. A test ends with `finish NAME [DETAIL]`: "NAME: ok" and status
# 0, or the number of failures and status 1.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() {
	echo "FAIL: $*"
	if [ -n "${show_err:-}" ] && [ -s "$show_err" ]; then
		sed 's/^/    /' "$show_err" | head -20
	fi
	failures=$((failures + 1))
}

stop() {
	fail "$@"
	exit 1
}

finish() {
	if [ "$failures" -ne 0 ]; then
		echo "$1: $failures failure(s)"
		exit 1
	fi
	echo "$1: ok${2:+ $2}"
	exit 0
}
