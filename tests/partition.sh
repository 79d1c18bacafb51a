#!/bin/sh
# partition.sh: partitioning tests on IR text (tests/partition/): each
# model names its graft --target command, and its expected output (the
# partitioned module, and --explain's reasons on standard error).
. "${srcdir:-.}/tests/lib.sh"
golden tests/partition relay
# seed 004: its MergeComposite output is what the seed shows
sed '1,2d' "$srcdir/tests/golden/seed004_composite.relay" >"$tmpdir/seed004"
echo "[exit 0]" >>"$tmpdir/seed004"
same_file "$srcdir/tests/partition/seed004_ccompiler.expected" "$tmpdir/seed004" \
	"seed 004 with the ccompiler table prints the seed's MergeComposite output"
# --target names built-in targets, before the host
m="$srcdir/tests/partition/seed004.relay"
usage() {   # usage WANT ARGS...: exit status 2 and the message WANT
	want=$1
	shift
	"$GRAFT" "$@" "$m" >/dev/null 2>"$tmpdir/err"
	st=$?
	[ "$st" -eq 2 ] && grep -qF -- "$want" "$tmpdir/err"
	ok $? "graft $*: $want"
}
usage "graft: error: --target: no target called 'npu' (built-in targets: ccompiler, cmsis-nn, ethos-n, and host)" --target "npu, host"
usage "not a target table, but the ruleset 'canonicalize'" --target canonicalize
usage "not a ruleset, but the target table 'ethos-n'" --rules ethos-n
usage "'ethos-n' comes after the host target" --target "host, ethos-n"
usage "'ethos-n' is listed twice" --target "ethos-n, ethos-n"
usage "--explain needs --target" --explain
usage "option '--emit' takes relay, dot, c, llvm or obj" --emit nosuch
done_testing
