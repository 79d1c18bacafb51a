#!/bin/sh
# params.sh: binding parameters from safetensors files (--params), saving
# them (--save-params), and the errors for files that do not fit the model.
# The files are written by tests/data/make_params.py, not by graft.
. "${srcdir:-.}/tests/lib.sh"

if [ -z "$PYTHON3" ]; then
	needs "parameter binding tests (python3 writes the test files)" python3
	done_testing
	exit $?
fi
src=$(cd "$srcdir" && pwd)
mk="$PYTHON3 $src/tests/data/make_params.py"
want="$src/tests/params"
cd "$tmpdir" || exit 1
sed '1,2d' "$src/tests/golden/seed_pytorch.relay" >pytorch.relay
sed '1,2d' "$src/tests/golden/seed_tflite.relay" >tflite.relay
for k in pytorch tflite badshape extra; do
	$mk $k $k.safetensors || echo "Bail out! make_params.py $k failed"
done

# run NAME ARGS...: graft's output, errors and exit status into NAME.got
run() {
	name=$1
	shift
	"$GRAFT" "$@" >"$name.got" 2>&1
	echo "[exit $?]" >>"$name.got"
}

run pytorch_bound --params pytorch.safetensors pytorch.relay
same_file pytorch_bound.got "$want/pytorch_bound.expected" \
	"PyTorch weights bind %features.0.0_weight and bias; @main keeps %input"

"$GRAFT" --show-types --params pytorch.safetensors --save-params saved.safetensors -o printed.relay pytorch.relay
ok $? "--save-params writes the bound constants"
$mk compare pytorch.safetensors saved.safetensors \
	'features.0.0_weight=meta[relay.Constant][0]' 'features.0.0_bias=meta[relay.Constant][1]'
ok $? "saved tensors hold the original bytes, dtypes and shapes under their meta names"
"$GRAFT" --show-types --params saved.safetensors --save-params saved2.safetensors printed.relay >again.relay
same_file again.relay printed.relay "the printed model and its saved parameters read back to the same text"
cmp -s saved.safetensors saved2.safetensors
ok $? "saving again writes the same bytes"

run tflite_bound --show-types --params tflite.safetensors --save-params tflite2.safetensors tflite.relay
cp tflite.relay tflite_bound.want
echo "[exit 0]" >>tflite_bound.want
same_file tflite_bound.got tflite_bound.want "TFLite meta constants bind by index and print unchanged"
$mk compare tflite.safetensors tflite2.safetensors
ok $? "meta constants save under their own names with their own data"

run badshape --params badshape.safetensors pytorch.relay
same_file badshape.got "$want/badshape.expected" "a tensor of the wrong shape is an error naming both types"

run extra --params extra.safetensors pytorch.relay
tail -n 1 extra.got | grep -qx '\[exit 0\]' && grep -qx "extra.safetensors: warning: tensor 'classifier.1.weight' matches no parameter of @main and no meta constant" extra.got
ok $? "a tensor that matches nothing is a warning, not an error"

head -c 100 pytorch.safetensors >trunc.safetensors
run trunc --params trunc.safetensors pytorch.relay
same_file trunc.got "$want/trunc.expected" "a truncated parameter file is an error"

run missing --params nosuch.safetensors pytorch.relay
same_file missing.got "$want/missing.expected" "a missing parameter file is an error"

run notypes --show-types tflite.relay
same_file notypes.got tflite_bound.want "meta constants without data keep their annotated types"

done_testing
