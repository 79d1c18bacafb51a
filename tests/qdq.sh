#!/bin/sh
# qdq.sh: the numerics of the qdq ruleset.  Every tests/rewrite/qdq_*.relay
# with a "// STEP: S" line is run on the ref backend with tests/qdq/x.npy,
# as it is and after --rules qdq --rules canonicalize; the outputs (float32)
# must differ by at most S, one quantization step of the output (the
# requantizes round an integer accumulator, the convolutions' and dense
# layers' as QNNPACK's float32 product to even, the others halves upward,
# where ONNX's QuantizeLinear rounds the float result to even).  The rewritten model must also be integer from its inputs'
# quantizes to its output's dequantize, the one dequantize left.  Then
# tests/qdq/*.relay, rewritten, must give PyTorch's integers exactly.
. "${srcdir:-.}/tests/lib.sh"

# floats FILE.npy: the values of a little-endian float32 .npy, one a line
floats() {
	off=$(( $(od -A n -t u2 -j 8 -N 2 "$1") + 10 ))
	od -A n -v -t f4 -j "$off" "$1" | tr -s ' ' '\n' | sed '/^$/d'
}

(cd "$srcdir" && ls tests/rewrite/qdq_*.relay) >"$tmpdir/files"
while read -r f; do
	step=$(sed -n 's|^// STEP: ||p' "$srcdir/$f")
	[ -n "$step" ] || continue
	(cd "$srcdir" && "$GRAFT" run --backend ref --input x=tests/qdq/x.npy --output "$tmpdir/a.npy" "$f") &&
	(cd "$srcdir" && "$GRAFT" run --backend ref --rules qdq --rules canonicalize \
		--input x=tests/qdq/x.npy --output "$tmpdir/b.npy" "$f")
	ok $? "$f runs, as it is and rewritten"
	floats "$tmpdir/a.npy" >"$tmpdir/a.txt"
	floats "$tmpdir/b.npy" >"$tmpdir/b.txt"
	res=$(paste "$tmpdir/a.txt" "$tmpdir/b.txt" | awk -v s="$step" '
		{ d = $1 - $2; if (d < 0) d = -d; if (d > max) max = d; n++; if ($1 != $2) diff++ }
		END { printf "%d %g %d", (n > 0 && max <= s * 1.0001), max, diff + 0 }')
	set -- $res
	ok $((1 - $1)) "$f: rewritten within one step ($step): largest difference $2, $3 values differ"
	(cd "$srcdir" && "$GRAFT" --rules qdq --rules canonicalize "$f") >"$tmpdir/out" 2>&1
	nd=$(grep -c 'qnn\.dequantize(' "$tmpdir/out")
	[ "$nd" -eq 1 ]
	ok $? "$f: integer after rewriting (only the output's dequantize left: $nd)"
done <"$tmpdir/files"

# PyTorch's own integers, bit for bit, on the cases where TVM's roundings
# part from its kernels' (by hand and by PyTorch 1.13 in each file's
# comment): a conv's float bias quantized as lrint(b x fl(1 / s)), halves
# to even, per tensor and per channel (in the exporter's per-channel form);
# a global average pool's ties to even; XNNPACK's int8 add, its halves
# upward and its 21-bit multipliers.  ref and llvm.  Each: the file, od's
# type of the output's elements (u1 uint8, d1 int8), PyTorch's.
for t in "bias_round u1 189 102 98 104" "per_channel u1 227 4" "gap_ties u1 3 5 1 5" \
	"add_xnnpack_ties d1 2 1 3 -128 127" "add_xnnpack_bits d1 71 71"; do
	set -- $t
	f=$1 ty=$2
	shift 2
	for b in ref llvm; do
		(cd "$srcdir" && "$GRAFT" run --backend $b --rules qdq --rules canonicalize --output "$tmpdir/e.npy" \
			"tests/qdq/$f.relay") >"$tmpdir/e.log" 2>&1
		got=$(od -An -t"$ty" -j128 "$tmpdir/e.npy" 2>/dev/null | xargs)
		[ "$got" = "$*" ]
		ok $? "tests/qdq/$f.relay on $b: PyTorch's $* ($got)"
	done
done
done_testing
