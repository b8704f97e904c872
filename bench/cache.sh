# cache.sh - generated bench inputs, made once and shared (sourced by items.sh
# and export.sh).
#
# A generated file is named by its generator's arguments (items-export-200mb.json
# is gen_items.py --shape export --mb 200), so every script that wants the same
# input finds the one already made, and a file of other arguments is never
# taken for it. It is remade when a generator is newer than it, and written
# under a temporary name first, so an interrupted run leaves nothing to reuse.

# fresh FILE GENERATOR...: FILE exists, is not empty, and is newer than each generator.
fresh() {
	_file=$1
	shift
	[ -s "$_file" ] || [ -d "$_file" ] || return 1
	for _gen in "$@"; do
		[ "$_file" -nt "$_gen" ] || return 1
	done
}

# made FILE GENERATOR -- COMMAND...: makes FILE by COMMAND unless it is fresh;
# COMMAND writes to "$FILE.tmp" (a file or a folder), then moved into place.
made() {
	_file=$1
	_gen=$2
	shift 3
	fresh "$_file" "$_gen" && return 0
	rm -rf "$_file" "$_file.tmp"
	"$@" || return
	mv "$_file.tmp" "$_file"
}
