#!/usr/bin/python3
# cmp_fx_layers.py: where graft and PyTorch part, layer by layer, on an FX
# graph mode network of make_quantized.py (its FX table: fx_resnet18, ...).
#
#   /usr/bin/python3 tests/models/cmp_fx_layers.py GRAFT NAME [MODEL.onnx]
#
# cmp_layers.py's method for eager networks, for FX's: the network is made
# again as make_quantized.py makes it (the same seeds), PyTorch's
# torch.fx.Interpreter runs it and keeps a copy of every quantized value
# (a copy: an in-place op may change a value after it was made); every
# QuantizeLinear of the ONNX model (by default the unfolded export in the
# build tree, tests/models/quantized/NAME.onnx) becomes an output too, and
# graft runs it (--rules qdq --rules canonicalize --target ethos-n,host
# --backend llvm).  The ONNX scopes of an FX network do not name its
# modules, so each quantize is matched with PyTorch's values of the same
# scale, zero point and shape, the closest of them.  One line a quantize,
# in the graph's order: largest difference, % equal, % within one step,
# the op it quantized and PyTorch's node.  The first line with differences
# after lines without any is where the two part.
import os
import subprocess
import sys
import tempfile
import warnings

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto
import torch

warnings.filterwarnings("ignore")
graft, name = sys.argv[1:3]
here = os.path.dirname(os.path.abspath(__file__))
model = sys.argv[3] if len(sys.argv) > 3 else os.path.join("tests", "models", "quantized", name + ".onnx")

# make_quantized.py's definitions, without its main part
src = open(os.path.join(here, "make_quantized.py")).read()
defs = {"__name__": "make_quantized"}
saved = sys.argv
sys.argv = [sys.argv[0]]
exec(compile(src[:src.index("\nmade = []")], "make_quantized.py", "exec"), defs)
sys.argv = saved
make, size, form = defs["FX"][name]
_, ints = defs["fx_quantized"](make, size, form)
x = torch.randn(1, 3, size, size, generator=torch.Generator().manual_seed(2))

rec = []


class Recorder(torch.fx.Interpreter):
    def run_node(self, n):
        r = super().run_node(n)
        if isinstance(r, torch.Tensor) and r.is_quantized and \
                r.qscheme() in (torch.per_tensor_affine, torch.per_tensor_symmetric):
            rec.append((n.name, r.clone()))
        return r


with torch.no_grad():
    Recorder(ints).run(x)

m = onnx.load(model)
consts = {n.output[0]: numpy_helper.to_array(n.attribute[0].t) for n in m.graph.node if n.op_type == "Constant"}
consts.update({i.name: numpy_helper.to_array(i) for i in m.graph.initializer})
prod = {o: n for n in m.graph.node for o in n.output}


def const(t):
    while t in prod and prod[t].op_type == "Cast":
        t = prod[t].input[0]
    return consts.get(t)


rows = []
for n in m.graph.node:
    if n.op_type != "QuantizeLinear":
        continue
    s, z = const(n.input[1]), const(n.input[2]) if len(n.input) > 2 else np.zeros(1)
    if s is None or z is None or s.size != 1:
        continue
    s, z = float(s.reshape(-1)[0]), int(z.reshape(-1)[0])
    cand = [v for v in rec if abs(v[1].q_scale() - s) <= 1e-6 * s and v[1].q_zero_point() == z]
    if cand:
        rows.append((n, cand))
        m.graph.output.append(helper.make_tensor_value_info(n.output[0], TensorProto.UNDEFINED, None))

tmp = tempfile.mkdtemp()
onnx.save(m, os.path.join(tmp, "cut.onnx"))
np.save(os.path.join(tmp, "in.npy"), x.numpy())
outs = []
for i in range(len(rows) + 1):
    outs += ["--output", os.path.join(tmp, "o%d.npy" % i)]
r = subprocess.run([graft, "run", "--rules", "qdq", "--rules", "canonicalize", "--target", "ethos-n,host",
                    "--backend", "llvm", "--input", "input=" + os.path.join(tmp, "in.npy")] + outs +
                   [os.path.join(tmp, "cut.onnx")], capture_output=True, text=True)
if r.returncode:
    sys.stderr.write(r.stderr)
    sys.exit(1)
for i, (n, cand) in enumerate(rows):
    got = np.load(os.path.join(tmp, "o%d.npy" % (i + 1))).astype(np.int64)
    best = None
    for pname, v in cand:
        want = v.int_repr().numpy().astype(np.int64)
        if want.shape == got.shape:
            d = np.abs(want - got)
            if best is None or d.max() < best[0]:
                best = (d.max(), 100 * (d == 0).mean(), 100 * (d <= 1).mean(), pname)
    src = prod.get(n.input[0])
    op = src.op_type if src is not None else "input"
    if best is None:
        print("%-40s %-18s no PyTorch value of its shape" % (n.name, op))
    else:
        print("%-40s %-18s %4d %7.2f%% %7.2f%%  %s" % ((n.name, op) + best))
