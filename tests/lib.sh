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

# needs DESCRIPTION PACKAGES: a test point that cannot run without Debian's
# PACKAGES, which the README's first command installs: it fails, naming
# them; GRAFT_ALLOW_SKIPS=1 makes it a SKIP instead
needs() {
	if [ -n "${GRAFT_ALLOW_SKIPS:-}" ]; then
		skip "$1" "needs $2 (apt-get install $2)"
	else
		ok 1 "$1: needs $2 (apt-get install $2; or GRAFT_ALLOW_SKIPS=1 to skip it)"
	fi
}

# same_file GOT WANT DESCRIPTION: compare two files, show a diff on failure
same_file() {
	# GRAFT_UPDATE=1 make check: rewrite the expected file
	if [ "${GRAFT_UPDATE:-}" = 1 ] && ! cmp -s "$1" "$2"; then
		cp "$1" "$2"
	fi
	if cmp -s "$1" "$2"; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diff -u "$2" "$1" | sed 's/^/#   /' | head -n 40
	fi
}

# fails STATUS WANT ARGS...: graft ARGS exits with STATUS, and WANT is a
# line of its standard error (the temporary directory named TMP in the
# description)
fails() {
	st=$1
	want=$2
	shift 2
	"$GRAFT" "$@" >"$tmpdir/out" 2>"$tmpdir/err"
	got=$?
	desc=$(echo "exit $st: $want" | sed "s|$tmpdir|TMP|g")
	if [ "$got" -eq "$st" ] && grep -qxF -- "$want" "$tmpdir/err"; then
		ok 0 "$desc"
	else
		ok 1 "$desc"
		echo "#   exit $got; standard error:"
		sed 's/^/#   /' "$tmpdir/err"
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

# golden DIR EXT: run every DIR/*.EXT by the command on its line 1,
#   "// RUN: graft ... %s" or "// RUN: graftc ... %s" (%s is the file),
# from the source directory, and compare standard output, then standard
# error, then "[exit N]" with DIR/NAME.expected; or, when line 2 is
# "// EXPECT: roundtrip", with the file itself less its first two lines.
# Every successful graft run is repeated on its own output, which must not
# change (printing is a fixed point).
golden() {
	dir=$1
	ext=$2
	(cd "$srcdir" && ls "$dir"/*."$ext") >"$tmpdir/files" || return
	while read -r f; do
		name=${f%.*}
		line1=$(sed -n '1p' "$srcdir/$f")
		case "$line1" in
		"// RUN: graftc "*) tool=${GRAFTC:?GRAFTC must name graftc}; run=${line1#// RUN: graftc} ;;
		"// RUN: graft-test "*) tool=${GRAFT_TEST:?GRAFT_TEST must name tests/graft-test}; run=${line1#// RUN: graft-test} ;;
		"// RUN: graft "*) tool=$GRAFT; run=${line1#// RUN: graft} ;;
		*) ok 1 "$f: line 1 must be '// RUN: graft[c] ... %s'"; continue ;;
		esac
		args=$(echo "$run" | sed "s|%s|$f|g")
		# shellcheck disable=SC2086
		(cd "$srcdir" && "$tool" $args) >"$tmpdir/out" 2>"$tmpdir/err"
		status=$?
		cat "$tmpdir/out" "$tmpdir/err" >"$tmpdir/got"
		echo "[exit $status]" >>"$tmpdir/got"
		if sed -n '2p' "$srcdir/$f" | grep -q '^// EXPECT: roundtrip'; then
			sed '1,2d' "$srcdir/$f" >"$tmpdir/want"
			echo "[exit 0]" >>"$tmpdir/want"
			same_file "$tmpdir/got" "$tmpdir/want" "$f round-trips:$run"
		elif [ -f "$srcdir/$name.expected" ] || [ "${GRAFT_UPDATE:-}" = 1 ]; then
			# GRAFT_UPDATE=1 make check: rewrite the expected output
			if [ "${GRAFT_UPDATE:-}" = 1 ] && ! cmp -s "$tmpdir/got" "$srcdir/$name.expected"; then
				cp "$tmpdir/got" "$srcdir/$name.expected"
				echo "# updated $name.expected"
			fi
			same_file "$tmpdir/got" "$srcdir/$name.expected" "$f:$run"
		else
			ok 1 "$f has neither '// EXPECT: roundtrip' nor $name.expected"
			continue
		fi
		if [ "$tool" != "${GRAFTC:-}" ] && [ "$status" -eq 0 ] && ! echo "$run" | grep -q -- '--params' && \
		   ! echo "$run" | grep -q -- '--emit dot' && ! echo "$run" | grep -q -- '--why-not' && \
		   { echo "$run" | grep -q -- '--show-types' || ! grep -q 'meta\[' "$tmpdir/out"; }; then
			cp "$tmpdir/out" "$tmpdir/again.relay"
			# the fixed point is of printing alone: no rules the second time
			again=$(echo "$run" | sed -e "s|%s|$tmpdir/again.relay|g" -e 's/--rules [^ ]*//g' -e 's/--stats//g' \
			        -e 's/--target [^ ]*//g' -e 's/--explain//g' -e 's/--stop-after [^ ]*//g')
			# shellcheck disable=SC2086
			"$tool" $again >"$tmpdir/out2" 2>&1
			same_file "$tmpdir/out2" "$tmpdir/out" "$f: printing its output again changes nothing"
		fi
	done <"$tmpdir/files"
}
