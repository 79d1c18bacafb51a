# lib.sh: TAP helpers for graft's shell tests.  Source it, call the
# helpers, end with `done_testing`.
tap_n=0
tap_failed=0

# ok COND-STATUS DESCRIPTION: one test point from an exit status
ok() {
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_failed=$((tap_failed + 1))
	fi
}

# skip DESCRIPTION REASON
skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1 # SKIP $2"
}

# same_file GOT WANT DESCRIPTION: compare two files, show a diff on failure
same_file() {
	if cmp -s "$1" "$2"; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diff -u "$2" "$1" | sed 's/^/#   /' | head -n 40
	fi
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}

: "${GRAFT:?GRAFT must name the graft binary}"
: "${srcdir:=.}"
tmpdir=$(mktemp -d "${TMPDIR:-/tmp}/graft-test.XXXXXX")
trap 'rm -rf "$tmpdir"' EXIT
