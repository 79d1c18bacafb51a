#!/bin/sh
# golden.sh: graft's golden tests.  Each tests/golden/NAME.relay names its
# command on line 1:
#
#   // RUN: graft [options] %s
#
# where %s is the file itself.  The expected output (standard output, then
# standard error, then a line "[exit N]") is NAME.expected; a file whose
# line 2 is "// EXPECT: roundtrip" must instead print exactly its own text
# without those two lines.  Every successful run is also run again on its
# own output, which must not change (printing is a fixed point).
. "${srcdir:-.}/tests/lib.sh"

cd "$srcdir" || exit 1
for f in tests/golden/*.relay; do
	name=${f%.relay}
	run=$(sed -n '1s|^// RUN: graft||p' "$f")
	if [ -z "$run" ]; then
		ok 1 "$f: line 1 must be '// RUN: graft ... %s'"
		continue
	fi
	args=$(echo "$run" | sed "s|%s|$f|g")
	# shellcheck disable=SC2086
	"$GRAFT" $args >"$tmpdir/out" 2>"$tmpdir/err"
	status=$?
	cat "$tmpdir/out" "$tmpdir/err" >"$tmpdir/got"
	echo "[exit $status]" >>"$tmpdir/got"
	if sed -n '2p' "$f" | grep -q '^// EXPECT: roundtrip'; then
		sed '1,2d' "$f" >"$tmpdir/want"
		echo "[exit 0]" >>"$tmpdir/want"
		same_file "$tmpdir/got" "$tmpdir/want" "$f round-trips: graft$run"
	elif [ -f "$name.expected" ]; then
		same_file "$tmpdir/got" "$name.expected" "$f: graft$run"
	else
		ok 1 "$f has neither '// EXPECT: roundtrip' nor $name.expected"
		continue
	fi
	# printing is a fixed point: print(parse(print(x))) == print(x)
	if [ "$status" -eq 0 ] && ! echo "$run" | grep -q -- '--params' && \
	   { echo "$run" | grep -q -- '--show-types' || ! grep -q 'meta\[' "$tmpdir/out"; }; then
		cp "$tmpdir/out" "$tmpdir/again.relay"
		# shellcheck disable=SC2086
		"$GRAFT" $(echo "$run" | sed "s|%s|$tmpdir/again.relay|g") >"$tmpdir/out2" 2>&1
		same_file "$tmpdir/out2" "$tmpdir/out" "$f: printing its output again changes nothing"
	fi
done
done_testing
