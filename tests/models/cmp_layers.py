#!/usr/bin/python3
# cmp_layers.py: where graft and PyTorch part, layer by layer, on a
# quantized network of make_quantized.py (made with --layers).
#
#   /usr/bin/python3 tests/models/cmp_layers.py GRAFT DIR NAME [MODEL.onnx] [graft run options]
#
# The method: every QuantizeLinear of an activation in the ONNX model
# (PyTorch's exporter writes one for each quantized module's output, named
# by the module's scope: /features/4/block/2/fc1/QuantizeLinear) becomes
# an output of the graph too, and graft runs the model (by default with
# --rules qdq --rules canonicalize --target ethos-n,host --backend llvm),
# giving each quantized output's integers; they are compared with the
# quantized module's output PyTorch's forward hooks recorded
# (DIR/NAME.layers.npz: the module of the same dotted name, or the first
# module under it, with the same scale and zero point).  One line a layer,
# in the graph's order: % equal, % within one step, largest difference,
# and the ONNX op the quantize took.  The first layer with differences
# whose inputs were equal is where the two part.
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

graft, d, name = sys.argv[1:4]
rest = sys.argv[4:]
model = os.path.join(d, name + ".onnx")
if rest and rest[0].endswith(".onnx"):
    model, rest = rest[0], rest[1:]
opts = rest or ["--rules", "qdq", "--rules", "canonicalize", "--target", "ethos-n,host", "--backend", "llvm"]
layers = np.load(os.path.join(d, name + ".layers.npz"))
keys = [k for k in layers.files if not k.endswith(".scale") and not k.endswith(".zero_point")]

m = onnx.load(model)
inits = {i.name for i in m.graph.initializer}
prod = {o: n for n in m.graph.node for o in n.output}
consts = {n.output[0]: n for n in m.graph.node if n.op_type == "Constant"}


def scalar(t):
    if t in prod and prod[t].op_type == "Cast":
        return scalar(prod[t].input[0])
    if t in consts:
        return numpy_helper.to_array(consts[t].attribute[0].t).reshape(-1)[0]
    for i in m.graph.initializer:
        if i.name == t:
            return numpy_helper.to_array(i).reshape(-1)[0]
    return None


rows = []
for n in m.graph.node:
    if n.op_type != "QuantizeLinear" or n.input[0] in inits or n.input[0] in consts:
        continue
    src = prod.get(n.input[0])
    if src is not None and src.op_type in ("Constant", "Cast", "Div", "Mul") and \
            all(i in inits or i in consts or (i in prod and prod[i].op_type == "Cast") for i in src.input):
        continue
    scope = n.name.rsplit("/", 1)[0].strip("/").replace("/", ".")
    s, z = scalar(n.input[1]), scalar(n.input[2])
    # a concat's output often has one input's parameters (the widest
    # range): prefer the module named for the op
    hint = {"Concat": "cat", "Add": "add", "Mul": "mul"}.get(src.op_type if src is not None else "", "")
    match = None
    for k in keys:
        if (k == scope or k.startswith(scope + ".")) and \
                abs(float(layers[k + ".scale"]) - float(s)) <= 1e-6 * abs(float(s)) and \
                int(layers[k + ".zero_point"]) == int(z):
            if match is None or (hint and hint in k.rsplit(".", 2)[-2:][0] and hint not in match):
                match = k
    if match is None:
        continue
    rows.append((n, match, src.op_type if src is not None else "input"))
    m.graph.output.append(helper.make_tensor_value_info(n.output[0], TensorProto.UINT8, None))

tmp = os.environ.get("KEEP") or tempfile.mkdtemp()
onnx.save(m, os.path.join(tmp, "cut.onnx"))
cmd = [graft, "run"] + opts + ["--input", "input=" + os.path.join(d, name + ".in.npy"),
                               "--output", os.path.join(tmp, "out.npy")]
for i in range(len(rows)):
    cmd += ["--output", os.path.join(tmp, "l%d.npy" % i)]
cmd.append(os.path.join(tmp, "cut.onnx"))
subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
print("%-8s %-8s %5s  %-18s %s" % ("equal%", "within1%", "max", "op", "layer"))
for i, (n, k, op) in enumerate(rows):
    got = np.load(os.path.join(tmp, "l%d.npy" % i)).astype(np.int64)
    want = layers[k].astype(np.int64)
    if got.shape != want.shape:
        print("shape %s, want %s: %s" % (got.shape, want.shape, k))
        continue
    diff = np.abs(got - want)
    print("%-8.2f %-8.2f %5d  %-18s %s  l%d" % (100 * (diff == 0).mean(), 100 * (diff <= 1).mean(), diff.max(), op, k, i))
