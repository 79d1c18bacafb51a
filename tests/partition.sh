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
done_testing
