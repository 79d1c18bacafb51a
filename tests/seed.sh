#!/bin/sh
# seed.sh: graft's founding problem (../shared/seeds/ 000 and 001).  The
# quantized conv that TVM imports from PyTorch (float weights quantized in
# the graph; requantize to int32, clip, cast), with its weights bound from a
# parameter file, canonicalizes to the block TVM imports from TFLite: the
# same ops, attributes, dtypes and constant values.
. "${srcdir:-.}/tests/lib.sh"

if [ -z "$PYTHON3" ]; then
	needs "seed canonicalization (python3 writes the parameter files)" python3
	done_testing
	exit $?
fi
src=$(cd "$srcdir" && pwd)
mk="$PYTHON3 $src/tests/data/make_params.py"
cd "$tmpdir" || exit 1
sed '1,2d' "$src/tests/golden/seed_pytorch.relay" >pytorch.relay
sed '1,2d' "$src/tests/golden/seed_tflite.relay" >tflite.relay
$mk pytorch_exact pytorch.safetensors && $mk tflite tflite.safetensors || echo "Bail out! make_params.py failed"

"$GRAFT" --verify --show-types --rules canonicalize --params pytorch.safetensors \
	--save-params canon.safetensors pytorch.relay >canon.relay 2>canon.err
ok $? "graft --rules canonicalize runs on the PyTorch fragment"
same_file canon.relay tflite.relay "it prints exactly the TFLite fragment, ty= annotations included"
$mk compare tflite.safetensors canon.safetensors
ok $? "the folded int8 weights and int32 bias equal the TFLite constants, byte for byte"
$mk compare canon.safetensors tflite.safetensors
ok $? "and there are no other constants"

cmp -s "$src/examples/pytorch_qconv.safetensors" pytorch.safetensors
ok $? "the README's bundled weights are the ones this test makes"
cmp -s "$src/examples/pytorch_qconv.relay" pytorch.relay || sed '1,2d' "$src/examples/pytorch_qconv.relay" | cmp -s - pytorch.relay
ok $? "and the README's bundled model is the PyTorch fragment"

# the TFLite fragment is already canonical: nothing fires
"$GRAFT" --stats --rules canonicalize --params tflite.safetensors tflite.relay >/dev/null 2>stats.txt
grep -qx 'ruleset canonicalize: 0 rewrites in 1 match attempt' stats.txt
ok $? "the TFLite fragment is a fixed point of canonicalize (0 rewrites)"

# --stats names each rule with its place
"$GRAFT" --stats --rules canonicalize --params pytorch.safetensors pytorch.relay >/dev/null 2>stats.txt
cat >want.txt <<'END'
ruleset canonicalize: 3 rewrites in 4 match attempts
         2  fold_quantize  (rulesets/canonicalize.rules:10)
         1  requantize_clip_cast_uint8  (rulesets/canonicalize.rules:16)
END
same_file stats.txt want.txt "--stats counts each rule's firings"

# issue 4: partitioned for Ethos-N, both fragments give the same module:
# one ethos-n.qnn_conv2d composite (nn.pad included) inside one partition
"$GRAFT" --verify --show-types --target "ethos-n,host" --params tflite.safetensors \
	--save-params tflite_part.safetensors tflite.relay >tflite_part.relay 2>tflite_part.err
ok $? "graft --target ethos-n,host runs on the TFLite fragment"
"$GRAFT" --verify --show-types --rules canonicalize --target "ethos-n,host" --params pytorch.safetensors \
	--save-params pytorch_part.safetensors pytorch.relay >pytorch_part.relay 2>pytorch_part.err
ok $? "graft --rules canonicalize --target ethos-n,host runs on the PyTorch fragment"
same_file pytorch_part.relay tflite_part.relay "both print the same partitioned module"
$mk compare tflite_part.safetensors pytorch_part.safetensors && $mk compare pytorch_part.safetensors tflite_part.safetensors
ok $? "with the same constants, byte for byte"
[ "$(grep -c 'Composite="ethos-n.qnn_conv2d"' tflite_part.relay)" -eq 1 ] &&
	[ "$(grep -c 'PartitionedFromPattern="nn.pad_qnn.conv2d_nn.bias_add_qnn.requantize_"' tflite_part.relay)" -eq 1 ]
ok $? "one ethos-n.qnn_conv2d composite, of nn.pad, qnn.conv2d, nn.bias_add and qnn.requantize"
[ "$(grep -c '^def @tvmgen_default_ethos_n_main_0(.*Compiler="ethos-n"' tflite_part.relay)" -eq 1 ] &&
	[ "$(grep -c '^def ' tflite_part.relay)" -eq 2 ]
ok $? "inside one ethos-n partition, called from @main"
grep -q '^  %0 = qnn.quantize(%input' tflite_part.relay && grep -q '^  @tvmgen_default_ethos_n_main_0(%0)' tflite_part.relay
ok $? "@main quantizes the input on the host and calls the partition"
"$GRAFT" --target "ethos-n,host" --explain --params tflite.safetensors tflite.relay 2>explain.txt >/dev/null
echo "tflite.relay:2:8: qnn.quantize stays on the host: no pattern of ethos-n matches it" >want.txt
same_file explain.txt want.txt "--explain: the quantize stays on the host because no pattern matches it"
done_testing
