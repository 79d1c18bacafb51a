#!/bin/sh
# corpus.sh: the model corpus, run by `make check-models` (heavier than
# make check's tests; CI runs it).  tests/models/make_corpus.py builds
# models of several families with torchvision and torch.nn, random weights
# and realistic BatchNorm statistics, exports them with PyTorch's exporter
# as a user would, with an input and PyTorch's output for it, into the
# build tree; then each must import, run with graft run on ref and on llvm
# and match PyTorch within rtol 1e-3 and atol 1e-4.  The last lines are a
# table: each model's ops, and its largest difference on each backend.
# Needs /usr/bin/python3 with torch, torchvision and onnx (tests/lib.sh,
# needs).
. "${srcdir:-.}/tests/lib.sh"

py=/usr/bin/python3
if ! "$py" -c 'import torch, torchvision, onnx' 2>/dev/null; then
	needs "the model corpus (torchvision and torch.nn models)" "python3-torch python3-torchvision python3-onnx"
	done_testing
	exit $?
fi
d=${builddir:-.}/tests/models/corpus
mkdir -p "$d"
if ! "$py" "$srcdir/tests/models/make_corpus.py" "$d" >"$tmpdir/py.log" 2>&1; then
	ok 1 "make_corpus.py writes the models"
	sed 's/^/#   /' "$tmpdir/py.log" | tail -n 20
	done_testing
	exit 1
fi
ok 0 "make_corpus.py writes the models"

# cmp GOT WANT: "OK|DIFFER maxabs", as numpy.allclose(rtol 1e-3, atol 1e-4),
# or TRIVIAL where PyTorch's output is a constant (a model that tests nothing)
cmp_npy() {
	"$py" - "$1" "$2" <<'PY'
import sys
import numpy as np
a, b = np.load(sys.argv[1]), np.load(sys.argv[2])
if a.shape != b.shape:
    print("DIFFER shape %s, want %s" % (a.shape, b.shape))
elif b.size < 2 or float(np.ptp(b)) == 0:
    print("TRIVIAL PyTorch's output is one value everywhere, which tests nothing")
else:
    e = float(np.abs(a.astype(np.float64) - b).max()) if a.size else 0.0
    print("%s %.2g" % ("OK" if np.allclose(a, b, rtol=1e-3, atol=1e-4) else "DIFFER", e))
PY
}

: >"$tmpdir/table"
while read -r m; do
	ops=$("$GRAFT" "$d/$m.onnx" 2>/dev/null | grep -c ' = ')
	row="| $m | $ops"
	for b in ref llvm; do
		if "$GRAFT" run --backend "$b" --input input="$d/$m.in.npy" --output "$tmpdir/out.npy" "$d/$m.onnx" \
			>"$tmpdir/run.log" 2>&1; then
			set -- $(cmp_npy "$tmpdir/out.npy" "$d/$m.out.npy")
			[ "$1" = OK ]
			ok $? "$m on $b matches PyTorch (largest difference $2)"
			row="$row | $2"
		else
			ok 1 "$m on $b runs"
			sed 's/^/#   /' "$tmpdir/run.log" | head -n 5
			row="$row | fails"
		fi
	done
	echo "$row |" >>"$tmpdir/table"
done <"$d/corpus.txt"
echo "# | model | calls | ref: largest difference | llvm: largest difference |"
echo "# | --- | --- | --- | --- |"
sed 's/^/# /' "$tmpdir/table"
done_testing
