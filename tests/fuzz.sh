#!/bin/sh
# fuzz.sh: every fuzz harness of tests/fuzz/ (linked with replay.c, no
# clang needed) runs its corpus and the inputs that once found a bug
# (tests/fuzz/regress/): no crash, no sanitizer report, no finding.  The
# models harness runs the c backend too here (GRAFT_FUZZ_C), and the rules
# harness compiles the C that graftc emits and checks it against the
# interpreter (GRAFT_FUZZ_CC).
. "${srcdir:-.}/tests/lib.sh"
for h in relay rules onnx npy safetensors lsp models; do
	n=$(find "$srcdir/tests/fuzz/corpus/$h" "$srcdir/tests/fuzz/regress/$h" -type f ! -name '.*' | wc -l)
	GRAFT_FUZZ_C=1 GRAFT_FUZZ_CC="${CC:-cc} -I$srcdir/ir -I$srcdir/passes -I$srcdir/ref" \
		"./tests/fuzz/replay-$h" "$srcdir/tests/fuzz/corpus/$h" "$srcdir/tests/fuzz/regress/$h" \
		>"$tmpdir/out" 2>"$tmpdir/err"
	st=$?
	ok $st "fuzz harness $h: its $n corpus and regression inputs run clean"
	[ $st -eq 0 ] || { tail -n 3 "$tmpdir/out"; sed 's/^/#   /' "$tmpdir/err" | head -n 30; }
done
done_testing
