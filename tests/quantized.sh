#!/bin/sh
# quantized.sh: PyTorch's quantized networks, run by `make check-models`
# with the corpus (tests/corpus.sh).  tests/models/make_quantized.py
# quantizes torchvision's quantizable ResNet18, ResNet50, MobileNetV3-Large,
# Inception v3 and GoogLeNet post-training for qnnpack (random weights,
# realistic BatchNorm statistics, as tests/models.sh's MobileNetV2) and
# exports each with and without constant folding, with an input and
# PyTorch's quantized output, into the build tree; then for each export
# graft must
#   - import it and put at least 95% of its convolutions inside ethos-n
#     composites (--rules qdq --rules canonicalize --target ethos-n,host);
#   - run it on llvm; the export without folding must give PyTorch's
#     integers (the output before the final dequantize) within one step on
#     at least 99% of the elements and PyTorch's top-1.
# The folded export has lost PyTorch's biases (the exporter truncates
# b / scale to int32 where PyTorch's kernels round; docs/onnx.md): graft
# must warn of it, and the control NAME_folded_rounded.onnx (the same file
# with the integers PyTorch rounds to) must meet the bar the unfolded one
# does, which shows the biases are all the folded export loses.  Its own
# figures are printed, not asserted.  The last lines are a table, per
# network and export: % within one step, % equal, largest difference in
# steps, top-1 of graft and of PyTorch, convolutions offloaded.  Needs
# /usr/bin/python3 with torch, torchvision and onnx (tests/lib.sh, needs).
. "${srcdir:-.}/tests/lib.sh"

py=/usr/bin/python3
if ! "$py" -c 'import torch, torchvision, onnx' 2>/dev/null; then
	needs "PyTorch's quantized networks (torchvision.models.quantization)" "python3-torch python3-torchvision python3-onnx"
	done_testing
	exit $?
fi
d=${builddir:-.}/tests/models/quantized
mkdir -p "$d"
if ! "$py" "$srcdir/tests/models/make_quantized.py" "$d" >"$tmpdir/py.log" 2>&1; then
	ok 1 "make_quantized.py writes the networks"
	sed 's/^/#   /' "$tmpdir/py.log" | tail -n 20
	done_testing
	exit 1
fi
ok 0 "make_quantized.py writes the networks"
args='--rules qdq --rules canonicalize --target ethos-n,host'

: >"$tmpdir/table"
while read -r n; do
	for v in "" _folded _folded_rounded; do
		m=$n$v
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
		# (the control's integers are PyTorch's, but graft cannot tell)
		case $v in
		_folded)
			grep -q 'warning: [0-9]* int32 biases as PyTorch.s exporter folds them' "$tmpdir/stats"
			ok $? "$m.onnx: graft warns that its biases are truncated";;
		"")
			! grep -q 'int32 biases as PyTorch' "$tmpdir/stats"
			ok $? "$m.onnx: no warning of truncated biases";;
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
		echo "| $n | ${v#_} | $within | $exact | $maxd | $gtop / $ttop | $inside of $total ($pct%) |" \
			| sed 's/|  |/| plain |/' >>"$tmpdir/table"
		[ "$v" = _folded ] && continue
		awk -v w="$within" 'BEGIN { exit !(w >= 99) }'
		ok $? "$m.onnx on llvm within one step of PyTorch on at least 99% of the outputs ($within%)"
		[ "$gtop" -eq "$ttop" ]
		ok $? "$m.onnx on llvm: top-1 as PyTorch's ($ttop)"
	done
done <"$d/quantized.txt"
echo "# | network | export | within one step % | equal % | largest difference (steps) | top-1 graft / PyTorch | convolutions in ethos-n composites |"
echo "# | --- | --- | --- | --- | --- | --- | --- |"
sed 's/^/# /' "$tmpdir/table"
done_testing
