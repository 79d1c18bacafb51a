#!/usr/bin/python3
# make_quantized.py: writes the quantized networks of `make check-models`
# (tests/quantized.sh) into a directory of the build tree; nothing it
# writes is committed.
#
#   /usr/bin/python3 tests/models/make_quantized.py [--layers] OUTDIR [NAME ...]
#
# needs Debian's python3-torch, python3-torchvision and python3-onnx.  Each
# network of torchvision.models.quantization is made as
# make_mobilenet.py makes MobileNetV2: random weights (fixed seeds, no
# downloads), BatchNorm statistics of a few random batches in training
# mode, then PyTorch's eager-mode post-training quantization for the
# qnnpack engine (fuse_model, the default qnnpack qconfig, prepare,
# calibrate on random batches, convert), exported to ONNX (opset 13, QDQ)
# with and without the exporter's constant folding.  For each NAME:
#
#   OUTDIR/NAME.onnx         the model, input "input", without folding
#   OUTDIR/NAME_folded.onnx  the same with the exporter's constant folding,
#                            which leaves each bias as the int32 constant
#                            Cast(Div(b, scale)) truncated to (PyTorch's
#                            kernels round b / scale instead)
#   OUTDIR/NAME_folded_rounded.onnx  a control: NAME_folded.onnx with those
#                            int32 constants replaced by PyTorch's rounding
#                            of the float biases of NAME.onnx
#   OUTDIR/NAME.in.npy       a fixed input (float32)
#   OUTDIR/NAME.int.npy      PyTorch's quantized output for it, before the
#                            final dequantize: its integers (int32)
#   OUTDIR/NAME.q.txt        "scale zero_point top1" of that output
#
# and the names made, OUTDIR/quantized.txt.  With --layers, also
# OUTDIR/NAME.layers.npz: every quantized module's output for the input
# (forward hooks), its integers under the module's name, with
# "NAME.scale" and "NAME.zero_point" (tests/models/cmp_layers.py compares
# them with graft's).
import os
import sys
import warnings

import numpy as np
import onnx
from onnx import numpy_helper
import torch
import torchvision
import torchvision.models.quantization as tq

warnings.filterwarnings("ignore")
args = sys.argv[1:]
layers = "--layers" in args
args = [a for a in args if a != "--layers"]
out = args[0] if args else "."
only = args[1:]
os.makedirs(out, exist_ok=True)
torch.backends.quantized.engine = "qnnpack"

# name: (constructor, input size); inception_v3 needs at least 75 x 75.
# (shufflenet_v2 does not export: torch 1.13's exporter fails on its
# quantized channel split.)
MODELS = {
    "q_resnet18": (lambda: tq.resnet18(weights=None, quantize=False), 112),
    "q_resnet50": (lambda: tq.resnet50(weights=None, quantize=False), 112),
    "q_mobilenet_v3_large": (lambda: tq.mobilenet_v3_large(weights=None, quantize=False), 112),
    "q_inception_v3": (lambda: tq.inception_v3(weights=None, quantize=False, aux_logits=False,
                                               init_weights=True), 107),
    "q_googlenet": (lambda: tq.googlenet(weights=None, quantize=False, aux_logits=False,
                                         init_weights=True), 112),
}


def rounded_biases(folded, unfolded, path):
    """folded (an onnx model) with its int32 bias constants as PyTorch
    rounds them: lrint(b * fl(1 / scale)) in float32, halves to even (the
    float bias b from the unfolded export's Div(b, scale) of the same
    scope, the scale the folded DequantizeLinear's)."""
    def consts(m):
        c = {n.output[0]: n.attribute[0].t for n in m.graph.node if n.op_type == "Constant"}
        c.update({i.name: i for i in m.graph.initializer})
        return c
    fc, uc = consts(folded), consts(unfolded)
    bias = {}
    for n in unfolded.graph.node:
        if n.op_type == "Div" and n.input[0] in uc:
            b = numpy_helper.to_array(uc[n.input[0]])
            if b.dtype == np.float32 and b.ndim == 1:
                bias[n.name.rsplit("/", 1)[0]] = b
    changed = 0
    for n in folded.graph.node:
        if n.op_type != "DequantizeLinear" or n.input[0] not in fc:
            continue
        t = fc[n.input[0]]
        q = numpy_helper.to_array(t)
        if q.dtype != np.int32:
            continue
        b = bias[n.name.rsplit("/", 1)[0]]
        s = numpy_helper.to_array(fc[n.input[1]]).astype(np.float32).reshape(-1)[0]
        r = np.rint(b * (np.float32(1) / s)).astype(np.int32)
        assert (np.abs(r.astype(np.int64) - q) <= 1).all(), n.name
        changed += int((r != q).sum())
        t.CopyFrom(numpy_helper.from_array(r, t.name))
    assert changed, "no truncated bias found"
    onnx.save(folded, path)


def quantized(make, size):
    torch.manual_seed(0)
    m = make()
    # BatchNorm's statistics of a few random batches (momentum None: their
    # mean), so that activations keep a useful scale layer after layer
    g = torch.Generator().manual_seed(3)
    with torch.no_grad():
        for bn in m.modules():
            if isinstance(bn, torch.nn.modules.batchnorm._BatchNorm):
                bn.momentum = None
        m.train()
        for _ in range(4):
            m(torch.randn(4, 3, size, size, generator=g))
    m.eval()
    m.fuse_model()
    m.qconfig = torch.quantization.get_default_qconfig("qnnpack")
    torch.quantization.prepare(m, inplace=True)
    g = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for _ in range(4):
            m(torch.randn(2, 3, size, size, generator=g))
    torch.quantization.convert(m, inplace=True)
    return m


made = []
for name, (make, size) in MODELS.items():
    if only and name not in only:
        continue
    m = quantized(make, size)
    x = torch.randn(1, 3, size, size, generator=torch.Generator().manual_seed(2))
    record = {}
    hooks = []
    if layers:
        def hook(mod, inp, res, mname=None):
            if isinstance(res, torch.Tensor) and res.is_quantized and mname not in record:
                record[mname] = res
        for mname, mod in m.named_modules():
            if mname and not list(mod.children()):
                hooks.append(mod.register_forward_hook(lambda mod, i, r, mname=mname: hook(mod, i, r, mname)))
    with torch.no_grad():
        y = m(x)
        for h in hooks:
            h.remove()
        deq = m.dequant
        m.dequant = torch.nn.Identity()
        yq = m(x)
        m.dequant = deq
    np.save(os.path.join(out, name + ".in.npy"), x.numpy().astype(np.float32))
    np.save(os.path.join(out, name + ".int.npy"), yq.int_repr().numpy().astype(np.int32))
    with open(os.path.join(out, name + ".q.txt"), "w") as f:
        f.write("%.9g %d %d\n" % (yq.q_scale(), yq.q_zero_point(), int(y.argmax())))
    if layers:
        arrs = {}
        for k, v in record.items():
            if v.qscheme() != torch.per_tensor_affine:
                continue
            arrs[k] = v.int_repr().numpy().astype(np.int32)
            arrs[k + ".scale"] = np.array(v.q_scale(), np.float64)
            arrs[k + ".zero_point"] = np.array(v.q_zero_point(), np.int64)
        np.savez(os.path.join(out, name + ".layers.npz"), **arrs)
    for suffix, fold in (("", False), ("_folded", True)):
        torch.onnx.export(m, x, os.path.join(out, name + suffix + ".onnx"), opset_version=13,
                          input_names=["input"], output_names=["output"], do_constant_folding=fold)
    rounded_biases(onnx.load(os.path.join(out, name + "_folded.onnx")), onnx.load(os.path.join(out, name + ".onnx")),
                   os.path.join(out, name + "_folded_rounded.onnx"))
    made.append(name)
    print(name, flush=True)
with open(os.path.join(out, "quantized.txt"), "w") as f:
    f.write("".join(n + "\n" for n in made))
