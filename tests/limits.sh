#!/bin/sh
# limits.sh: what a file declares does not take graft's memory, nor its
# stack.  An ONNX
# ConstantOfShape of 4 GB (found by fuzzing, tests/fuzz/regress/onnx) and a
# broadcast of two small inputs to 10^10 elements are refused, with the
# limit and the option that raises it, before anything is allocated; the
# option's argument is checked.
. "${srcdir:-.}/tests/lib.sh"
# fails STATUS WANT ARGS...: graft ARGS exits with STATUS, WANT in its errors
fails() {
	want_st=$1 want=$2
	shift 2
	"$GRAFT" "$@" >/dev/null 2>"$tmpdir/err"
	st=$?
	[ "$st" -eq "$want_st" ] && grep -qF -- "$want" "$tmpdir/err"
	ok $? "exit $want_st: $want"
	[ "$st" -eq "$want_st" ] || sed 's/^/#   /' "$tmpdir/err" | head -n 5
}
big="$srcdir/tests/fuzz/regress/onnx/constantofshape_4gb.onnx"
fails 1 "node 'cos' (ConstantOfShape): the constant would have 536870916 elements, 4294967328 bytes, more than graft's limit of 1073741824 bytes for one tensor (raise it with --max-tensor-bytes)" "$big"
fails 1 "more than graft's limit of 1048576 bytes" --max-tensor-bytes=1M "$big"
printf 'def @main(%%x: Tensor[(100000, 1), float32], %%y: Tensor[(1, 100000), float32]) {\n  add(%%x, %%y)\n}\n' >"$tmpdir/big.relay"
for b in ref c llvm; do
	"$GRAFT" run --backend "$b" "$tmpdir/big.relay" >/dev/null 2>"$tmpdir/err"
	st=$?
	[ $st -ne 0 ] && grep -q "big.relay:2:3: error: a value of type Tensor\[(100000, 100000), float32\]: 10000000000 elements, more than graft's limit of 1073741824 bytes for one tensor (raise it with --max-tensor-bytes)" "$tmpdir/err"
	ok $? "graft run --backend $b refuses a 40 GB value of two small inputs at its place, before it reads any"
done
# a .npy or safetensors file declaring 4 TB with 16 bytes of data: refused
# from its header, whatever the limit
if [ -n "${PYTHON3:-}" ]; then
	"$PYTHON3" - "$tmpdir" <<'EOF'
import json, struct, sys
d = sys.argv[1]
h = b"{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000000,), }"
h += b" " * (118 - 10 - len(h) - 1) + b"\n"
open(d + "/huge.npy", "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h + bytes(16))
j = json.dumps({"a": {"dtype": "F32", "shape": [1000000, 1000000], "data_offsets": [0, 4000000000000]}}).encode()
open(d + "/huge.safetensors", "wb").write(struct.pack("<Q", len(j)) + j + bytes(16))
EOF
	printf 'def @main(%%x: Tensor[(1000000000000), float32]) {\n  negative(%%x)\n}\n' >"$tmpdir/h.relay"
	fails 1 "huge.npy: error: truncated: the shape (1000000000000,) of float32 needs 4000000000000 bytes of data, the file has 16" \
		run --max-tensor-bytes=8000G --input x="$tmpdir/huge.npy" "$tmpdir/h.relay"
	printf 'def @main(%%a: Tensor[(1000000, 1000000), float32]) {\n  negative(%%a)\n}\n' >"$tmpdir/h2.relay"
	fails 1 "huge.safetensors: error: tensor \"a\": data_offsets [0, 4000000000000] extend past the end of the 16-byte data buffer" \
		--params "$tmpdir/huge.safetensors" "$tmpdir/h2.relay"
else
	needs "huge .npy and safetensors declarations (python3 writes them)" python3
fi
# nesting does not take the stack: Bison's is bounded, and what fills it is named
awk 'BEGIN { printf "def @main(%%x: Tensor[(2), float32]) {\n  "; for (i = 0; i < 20000; i++) printf "negative("; printf "%%x"; for (i = 0; i < 20000; i++) printf ")"; printf "\n}\n" }' >"$tmpdir/deep.relay"
fails 1 "deep.relay:2:44948: error: too deeply nested (the parser's stack is full)" "$tmpdir/deep.relay"
awk 'BEGIN { printf "ruleset r\nrule x: "; for (i = 0; i < 20000; i++) printf "negative("; printf "x"; for (i = 0; i < 20000; i++) printf ")"; printf " => x\n" }' >"$tmpdir/deep.rules"
"$GRAFTC" check "$tmpdir/deep.rules" >/dev/null 2>"$tmpdir/err"
[ $? -eq 1 ] && grep -q "deep.rules:2:[0-9]*: error: too deeply nested (the parser's stack is full)" "$tmpdir/err"
ok $? "graftc: a pattern nested 20000 deep is an error at its place"
fails 2 "graft: error: --max-tensor-bytes takes a number of bytes from 1, with K, M or G after it for 2^10, 2^20 or 2^30, not '0'" --max-tensor-bytes=0 "$big"
fails 2 "not '12T'" --max-tensor-bytes=12T "$big"
done_testing
