#!/bin/sh
# onnx.sh: the ONNX frontend (frontends/onnx).  Models, expected outputs
# and goldens are in tests/onnx/, made by tests/onnx/make_models.py (its
# first lines give the command).
#   - golden: `graft tests/onnx/NAME.onnx` prints NAME.expected (standard
#     output, standard error, "[exit N]"), for every NAME.expected;
#   - runs: for every NAME.out0.npy, `graft run --backend ref` on the
#     inputs NAME.<input>.npy gives NAME.out<k>.npy: integers byte for
#     byte, floats within a relative 1e-5 (+ 1e-6 absolute);
#   - malformed files: every truncation and many bit flips of a model exit
#     with status 1 and one error line, never a crash.
. "${srcdir:-.}/tests/lib.sh"
d=tests/onnx

# ---------------------------------------------------------------- goldens
(cd "$srcdir" && ls $d/*.expected) >"$tmpdir/list"
while read -r e; do
	m=${e%.expected}.onnx
	(cd "$srcdir" && "$GRAFT" "$m") >"$tmpdir/got" 2>&1
	echo "[exit $?]" >>"$tmpdir/got"
	same_file "$tmpdir/got" "$srcdir/$e" "graft $m"
done <"$tmpdir/list"

# ---------------------------------------------------------------- runs
# npyfloats FILE: the elements of a float32 .npy file, one a line
npyfloats() {
	hl=$(od -An -tu2 -j8 -N2 "$1" | tr -d ' ')
	od -An -v -tf4 -j$((10 + hl)) "$1" | tr -s ' ' '\n' | sed '/^$/d'
}
# same_npy GOT WANT DESC
same_npy() {
	if cmp -s "$1" "$2"; then
		ok 0 "$3"
	elif head -c 64 "$2" | grep -q "'<f4'" && head -c 64 "$1" | grep -q "'<f4'"; then
		npyfloats "$1" >"$tmpdir/a"
		npyfloats "$2" >"$tmpdir/b"
		paste "$tmpdir/a" "$tmpdir/b" | awk -v n1="$(wc -l <"$tmpdir/a")" -v n2="$(wc -l <"$tmpdir/b")" '
			{ d = $1 - $2; if (d < 0) d = -d; m = $2 < 0 ? -$2 : $2
			  if (d > 1e-5 * m + 1e-6) { bad++; if (bad < 4) print "#   element " NR - 1 ": " $1 " want " $2 } }
			END { if (n1 != n2) { print "#   " n1 " elements, want " n2; exit 1 } exit bad > 0 }'
		ok $? "$3 (within 1e-5)"
	else
		ok 1 "$3"
		echo "#   $1 and $2 differ"
	fi
}
(cd "$srcdir" && ls $d/*.out0.npy) >"$tmpdir/list"
while read -r o; do
	name=${o%.out0.npy}
	set --
	for f in "$srcdir/$name".*.npy; do
		b=${f##*/}
		b=${b#"${name##*/}".}
		b=${b%.npy}
		case "$b" in out*) continue ;; esac
		set -- "$@" --input "$b=$f"
	done
	k=0
	while [ -f "$srcdir/$name.out$k.npy" ]; do
		set -- "$@" --output "$tmpdir/out$k.npy"
		k=$((k + 1))
	done
	if "$GRAFT" run --backend ref "$@" "$srcdir/$name.onnx" >"$tmpdir/log" 2>&1; then
		k=0
		while [ -f "$srcdir/$name.out$k.npy" ]; do
			same_npy "$tmpdir/out$k.npy" "$srcdir/$name.out$k.npy" "graft run $name.onnx: output $k"
			k=$((k + 1))
		done
	else
		ok 1 "graft run $name.onnx"
		sed 's/^/#   /' "$tmpdir/log"
	fi
done <"$tmpdir/list"

# ---------------------------------------------------------------- malformed files
# crashes FILE DESC: graft FILE must exit 1 with exactly one error line
malformed() {
	"$GRAFT" "$1" >/dev/null 2>"$tmpdir/err"
	st=$?
	if [ $st -ne 1 ] || [ "$(grep -c ': error: ' "$tmpdir/err")" -lt 1 ]; then
		echo "#   $2: exit $st"
		sed 's/^/#   /' "$tmpdir/err" | head -n 5
		return 1
	fi
	return 0
}
src=$srcdir/$d/conv.onnx
[ -f "$src" ] || src=$srcdir/$d/relu.onnx
size=$(wc -c <"$src")
bad=0
i=1
while [ $i -lt "$size" ]; do
	head -c $i "$src" >"$tmpdir/t.onnx"
	malformed "$tmpdir/t.onnx" "truncated to $i bytes" || bad=$((bad + 1))
	i=$((i + 1 + i / 16))
done
ok $bad "every truncation of $(basename "$src") is one error, exit 1"
: >"$tmpdir/t.onnx"
malformed "$tmpdir/t.onnx" "an empty file"
ok $? "an empty file is an error"
printf 'def @main() { 0 }' >"$tmpdir/t.onnx"
malformed "$tmpdir/t.onnx" "Relay text named .onnx"
ok $? "Relay text named .onnx is an error"
# bit flips: byte i gets its bit (i mod 8) flipped; the result may still be
# a valid model, so any exit status but a crash's is accepted, 0 or 1
bad=0
i=0
while [ $i -lt "$size" ]; do
	head -c $i "$src" >"$tmpdir/t.onnx"
	byte=$(od -An -tu1 -j$i -N1 "$src" | tr -d ' ')
	printf "\\$(printf '%03o' $((byte ^ (1 << (i % 8)))))" >>"$tmpdir/t.onnx"
	tail -c +$((i + 2)) "$src" >>"$tmpdir/t.onnx"
	"$GRAFT" "$tmpdir/t.onnx" >/dev/null 2>"$tmpdir/err"
	st=$?
	if [ $st -gt 1 ]; then
		echo "#   bit flip at byte $i: exit $st"
		head -n 5 "$tmpdir/err" | sed 's/^/#   /'
		bad=$((bad + 1))
	fi
	i=$((i + 1 + i / 64))
done
ok $bad "bit flips in $(basename "$src") exit 0 or 1, never crash"

# ---------------------------------------------------------------- frozen inputs
# says DESC STATUS WANT ARGS...: graft ARGS exits with STATUS and prints
# WANT (standard output and error; TMP for the temporary directory)
says() {
	desc=$1 st=$2 want=$3
	shift 3
	(cd "$srcdir" && "$GRAFT" "$@") >"$tmpdir/got" 2>&1
	echo "[exit $?]" >>"$tmpdir/got"
	printf '%s\n[exit %s]\n' "$want" "$st" >"$tmpdir/want"
	same_file "$tmpdir/got" "$tmpdir/want" "$desc"
}
says "graft --bind freezes an ONNX graph input the importer needs as a constant" 0 \
'def @main(%x: Tensor[(2, 3), float32]) {
  reshape(%x, newshape=[3, 2])
}' --bind s=$d/dynshape.s.npy $d/dynshape.onnx
says "graft --bind: a value of another shape than its ONNX input is an error" 1 \
"$d/dynshape.onnx: error: graph input 's' is Tensor[(2), int64]; the value given for it is Tensor[(3), int64]" \
	--bind s=$d/dynshape_s_bad.npy $d/dynshape.onnx
says "graft --bind: a name that is no input is an error" 1 \
"$d/dynshape.onnx: error: node 'r0' (Reshape): input 1 ('s', the shape) must be a constant: graft has no dynamic shapes
graft: error: --bind q=$d/dynshape.s.npy: the model has no input called q" --bind q=$d/dynshape.s.npy $d/dynshape.onnx
says "graft run --input: a frozen value of another shape is an error" 1 \
"$d/dynshape.onnx: error: graph input 's' is Tensor[(2), int64]; the value given for it is Tensor[(3), int64]" \
	run $d/dynshape.onnx --input x=$d/dynshape.x.npy --input s=$d/dynshape_s_bad.npy
says "graft run --input freezes only what the importer needs: x stays a parameter" 1 \
"graft: error: no --input for x, the Tensor[(2, 3), float32] parameter of @main" \
	run $d/dynshape.onnx --input s=$d/dynshape.s.npy
says "graft --bind binds a Relay model's @main parameter" 0 \
'def @main(%y: Tensor[(2, 3), int8]) {
  add(meta[relay.Constant][0], %y)
}' --bind x=tests/run/x.npy tests/run/add.relay
says "graft --bind: a Relay parameter of another type is an error" 1 \
"tests/run/add.relay:2:11: error: parameter %x is declared Tensor[(2, 3), int8], but tests/run/x_2x4.npy gives Tensor[(2, 4), int8]
 def @main(%x: Tensor[(2, 3), int8], %y: Tensor[(2, 3), int8]) {
           ^" --bind x=tests/run/x_2x4.npy tests/run/add.relay
says "graft --bind NAME given twice is a usage error" 2 \
"graft: error: --bind x is given twice ('x=a.npy' and 'x=b.npy')
Try 'graft --help'." --bind x=a.npy --bind x=b.npy tests/run/add.relay

# ---------------------------------------------------------------- QOperator
# ONNX Runtime's QOperator form (com.microsoft QLinear ops) imports as QDQ
# (the runs above: byte for byte ORT's definition); --rules qdq brings its
# add, mul and concat to QNN ops, whose requantizing rounds each input
# apart: every output within one step of ORT's
set --
for k in 0 1 2 3 4 5 6 7; do set -- "$@" --output "$tmpdir/q$k.npy"; done
if "$GRAFT" run --rules qdq --rules canonicalize --target "ethos-n, host" --stats \
	--input x="$srcdir/$d/qoperator.x.npy" --input w="$srcdir/$d/qoperator.w.npy" "$@" \
	"$srcdir/$d/qoperator.onnx" >/dev/null 2>"$tmpdir/qstats"; then
	grep -q 'qdq_add_qnnpack' "$tmpdir/qstats" && grep -q 'qdq_mul' "$tmpdir/qstats" &&
		grep -q 'qdq_concatenate2' "$tmpdir/qstats"
	ok $? "QLinearAdd, QLinearMul and QLinearConcat become qnn.add, qnn.mul and qnn.concatenate under --rules qdq"
	bad=0
	for k in 0 1 2 3 4 5 6 7; do
		a=$(od -An -v -tu1 -j128 "$tmpdir/q$k.npy" | tr -s ' ' '\n' | sed '/^$/d')
		b=$(od -An -v -tu1 -j128 "$srcdir/$d/qoperator.out$k.npy" | tr -s ' ' '\n' | sed '/^$/d')
		n=$(printf '%s\n' "$a" | paste - /dev/fd/3 3<<EOF3 | awk '{ d = $1 - $2; if (d < -1 || d > 1) bad++ } END { print bad + 0 }'
$b
EOF3
)
		bad=$((bad + n))
	done
	ok "$bad" "the QOperator model rewritten to QNN: every output within one step of ORT's"
else
	ok 1 "graft run --rules qdq ... qoperator.onnx"
	sed 's/^/#   /' "$tmpdir/qstats" | head
fi

# ---------------------------------------------------------------- --stats
"$GRAFT" --stats "$srcdir/$d/shapes.onnx" 2>"$tmpdir/stats" >/dev/null
cat >"$tmpdir/want" <<'EOF2'
onnx import: 11 nodes of 11 ops
  Add                               1 -> add 1
  Concat                            1 -> concatenate 1
  Constant                          1 -> constants 1
  ConstantOfShape                   1 -> constants 1
  Flatten                           1 -> reshape 1
  Reshape                           1 -> reshape 1
  Slice                             1 -> strided_slice 1
  Split                             1 -> split 1
  Squeeze                           1 -> squeeze 1
  Transpose                         1 -> transpose 1
  Unsqueeze                         1 -> reshape 1
EOF2
same_file "$tmpdir/stats" "$tmpdir/want" "graft --stats on an ONNX model: each op, its nodes and the calls they became"

# ---------------------------------------------------------------- types once
# the import infers each node's type as it makes it and leaves the module
# typed: the pipeline infers no more (no infer step), and the verifier
# finds every type what inference gives; binding afterwards (--params
# tensors that name no graph input) makes it infer again
# steps ARGS...: the --time steps of graft --time --verify ARGS, one line
steps() {
	"$GRAFT" --time --verify "$@" >/dev/null 2>"$tmpdir/err"
	echo "exit $?: $(sed -n 's/^time: \([^ ]*\) .*/\1/p' "$tmpdir/err" | tr '\n' ' ')"
}
got=$(steps "$srcdir/$d/conv.onnx")
ok "$([ "$got" = "exit 0: import verify print total " ]; echo $?)" \
	"an imported model is typed once: import, verify, print (got: $got)"
got=$(steps --params "$srcdir/examples/pytorch_qconv.safetensors" "$srcdir/$d/conv.onnx")
ok "$([ "$got" = "exit 0: params import infer verify print total " ]; echo $?)" \
	"bound after import, it is inferred again (got: $got)"

# a subgraph node whose input nothing makes (a Loop body reading 'acc2',
# which no node of it writes; found by the fuzzer): an error naming it,
# exit 1, where the import once failed without a word and printed nothing
"$GRAFT" "$srcdir/tests/fuzz/regress/onnx/loop_body_unbound_input.onnx" >"$tmpdir/out" 2>"$tmpdir/err"
st=$?
ok "$([ $st -eq 1 ] && [ ! -s "$tmpdir/out" ] &&
	grep -q "(Identity): input 0 ('acc2') is produced by no node, initializer or graph input before it" "$tmpdir/err"
	echo $?)" "a subgraph's input that nothing makes: its error, exit 1"

done_testing
