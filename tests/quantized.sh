#!/bin/sh
# quantized.sh: PyTorch's quantized networks, run by `make check-models`
# with the corpus (tests/corpus.sh).  tests/models/make_quantized.py
# quantizes, into the build tree, with random weights and realistic
# BatchNorm statistics (as tests/models.sh's MobileNetV2):
#   - torchvision's quantizable ResNet18, ResNet50, MobileNetV3-Large,
#     Inception v3 and GoogLeNet in eager mode for qnnpack;
#   - ResNet18 and MobileNetV2 in FX graph mode in the forms other
#     qconfigs give: qnnpack's, x86's (weights int8 symmetric per channel),
#     and int8 symmetric activations (XNNPACK's);
# and exports each with and without constant folding, with an input and
# PyTorch's quantized output.  For each export graft must
#   - import it and put at least 95% of its convolutions inside ethos-n
#     composites (--rules qdq --rules canonicalize --target ethos-n,host);
#   - run it on llvm; an export without folding must give PyTorch's
#     integers (the output before the final dequantize) within one step on
#     at least 99% of the elements and PyTorch's top-1.
# Where the file has lost PyTorch's numbers, graft must warn, and a
# control must meet that bar instead, which shows what was lost is all
# that differs; the lossy file's own figures are printed, not asserted:
#   - a folded export truncates the biases (b / scale to int32 where
#     PyTorch's kernels round; docs/onnx.md); the control
#     NAME_folded_rounded.onnx has the integers PyTorch rounds to;
#   - torch 1.13's exporter writes the outputs of qint8 layers as uint8;
#     the control NAME_fixed.onnx has them int8.
# The last lines are a table, per network and export: % within one step,
# % equal, largest difference in steps, top-1 of graft and of PyTorch,
# convolutions offloaded.  Needs /usr/bin/python3 with torch, torchvision
# and onnx (tests/lib.sh, needs).
. "${srcdir:-.}/tests/lib.sh"

py=/usr/bin/python3
if ! "$py" -c 'import torch, torchvision, onnx' 2>/dev/null; then
	needs "PyTorch's quantized networks (torchvision.models.quantization)" "python3-torch python3-torchvision python3-onnx"
	done_testing
	exit $?
fi
d=${builddir:-.}/tests/models/quantized
mkdir -p "$d"
# GRAFT_QUANTIZED_ONLY="NAME ...": only those networks
# shellcheck disable=SC2086
if ! "$py" "$srcdir/tests/models/make_quantized.py" "$d" ${GRAFT_QUANTIZED_ONLY:-} >"$tmpdir/py.log" 2>&1; then
	ok 1 "make_quantized.py writes the networks"
	sed 's/^/#   /' "$tmpdir/py.log" | tail -n 20
	done_testing
	exit 1
fi
ok 0 "make_quantized.py writes the networks"
args='--rules qdq --rules canonicalize --target ethos-n,host'

: >"$tmpdir/table"
while read -r n m role; do
	# ------------------------------------------------ partitioning
	# shellcheck disable=SC2086
	if ! "$GRAFT" --stats $args "$d/$m.onnx" >"$tmpdir/part.relay" 2>"$tmpdir/stats"; then
		ok 1 "graft --stats $args $m.onnx"
		sed 's/^/#   /' "$tmpdir/stats" | head -n 20
		continue
	fi
	total=$("$GRAFT" "$d/$m.onnx" 2>/dev/null | grep -c 'nn\.conv2d(')
	inside=$(sed -n 's/^ *\([0-9]*\)  composite ethos-n\.qnn_conv2d .*/\1/p' "$tmpdir/stats")
	inside=${inside:-0}
	pct=$(awk -v a="$inside" -v b="$total" 'BEGIN { printf "%.1f", b ? 100 * a / b : 0 }')
	awk -v a="$inside" -v b="$total" 'BEGIN { exit !(b > 0 && a >= 0.95 * b) }'
	ok $? "$m.onnx: at least 95% of the convolutions offloaded to ethos-n ($inside of $total)"
	# (a control's numbers are PyTorch's, but graft cannot tell)
	case $role in
	folded)
		grep -q 'warning: [0-9]* int32 biases as PyTorch.s exporter folds them' "$tmpdir/stats"
		ok $? "$m.onnx: graft warns that its biases are truncated";;
	exporter-int8)
		grep -q 'warning: [0-9]* QuantizeLinear to int8 but [0-9]* to uint8 with zero point 0' "$tmpdir/stats"
		ok $? "$m.onnx: graft warns that its int8 outputs were written as uint8";;
	exact)
		! grep -q 'warning:' "$tmpdir/stats"
		ok $? "$m.onnx: no warning";;
	esac
	# ------------------------------------------------ numbers
	# shellcheck disable=SC2086
	if ! "$GRAFT" run $args --backend llvm --input input="$d/$n.in.npy" --output "$tmpdir/out.npy" \
		"$d/$m.onnx" >"$tmpdir/run.log" 2>&1; then
		ok 1 "graft run --backend llvm $m.onnx"
		sed 's/^/#   /' "$tmpdir/run.log" | head -n 20
		continue
	fi
	# within-one-step %, equal %, largest difference in steps,
	# graft's top-1, PyTorch's
	"$py" - "$d/$n" "$tmpdir/out.npy" >"$tmpdir/cmp" <<'EOF'
import sys
import numpy as np
base, got = sys.argv[1], np.load(sys.argv[2])
want = np.load(base + ".int.npy")
s, z, top = open(base + ".q.txt").read().split()
# graft's float output back to the integers before its dequantize
q = np.rint(got.astype(np.float64) / float(s)).astype(np.int64) + int(z)
diff = np.abs(q - want)
print("%.2f %.2f %d %d %d" % (100 * (diff <= 1).mean(), 100 * (diff == 0).mean(), diff.max(),
                              int(got.argmax()), int(top)))
EOF
	read -r within exact maxd gtop ttop <"$tmpdir/cmp"
	v=${m#"$n"}
	echo "| $n | ${v#_} | $within | $exact | $maxd | $gtop / $ttop | $inside of $total ($pct%) |" \
		| sed 's/|  |/| plain |/' >>"$tmpdir/table"
	case $role in folded|exporter-int8) continue;; esac
	awk -v w="$within" 'BEGIN { exit !(w >= 99) }'
	ok $? "$m.onnx on llvm within one step of PyTorch on at least 99% of the outputs ($within%)"
	[ "$gtop" -eq "$ttop" ]
	ok $? "$m.onnx on llvm: top-1 as PyTorch's ($ttop)"
done <"$d/quantized.txt"
echo "# | network | export | within one step % | equal % | largest difference (steps) | top-1 graft / PyTorch | convolutions in ethos-n composites |"
echo "# | --- | --- | --- | --- | --- | --- | --- |"
sed 's/^/# /' "$tmpdir/table"
done_testing
