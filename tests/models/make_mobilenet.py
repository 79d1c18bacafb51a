#!/usr/bin/python3
# make_mobilenet.py: writes the real-model test's files (tests/models.sh)
# into a directory of the build tree; nothing it writes is committed.
#
#   /usr/bin/python3 tests/models/make_mobilenet.py OUTDIR
#
# needs Debian's python3-torch, python3-torchvision and python3-onnx.
# torchvision's quantizable MobileNetV2, randomly initialised (no weight
# downloads), is quantized post-training for the qnnpack engine as
# PyTorch's eager-mode tutorial does it (fuse_model, prepare, calibrate,
# convert) and exported to ONNX, which writes PyTorch's quantized ops as
# QDQ (QuantizeLinear/DequantizeLinear around float ops).  Fixed seeds:
# the files are the same on every run of the same versions.
#
#   OUTDIR/mobilenet_v2.onnx  the QDQ model (opset 13, input "input" 1x3x224x224),
#                             exported without constant folding
#   OUTDIR/mobilenet_v2_folded.onnx  the same with the exporter's folding
#   OUTDIR/input.npy          a fixed input (float32)
#   OUTDIR/torch_out.npy      PyTorch's output for it (float32, 1x1000)
#   OUTDIR/torch_q.txt        "scale zero_point top1" of PyTorch's quantized
#                             output (before the final dequantize)
#   OUTDIR/torch_int.npy      that output's integers (int32)
import os
import sys
import warnings

import numpy as np
import torch
import torchvision

from make_quantized import outputs

warnings.filterwarnings("ignore")
out = sys.argv[1] if len(sys.argv) > 1 else "."
os.makedirs(out, exist_ok=True)
torch.manual_seed(0)
torch.backends.quantized.engine = "qnnpack"

m = torchvision.models.quantization.mobilenet_v2(weights=None, quantize=False)
# Random weights with BatchNorm's initial statistics (mean 0, variance 1)
# make activations vanish layer after layer (the output is all zeros); the
# statistics of a few random batches, taken in training mode, keep every
# layer's activations at a useful scale, as trained statistics would.
g = torch.Generator().manual_seed(3)
with torch.no_grad():
    for bn in m.modules():
        if isinstance(bn, torch.nn.BatchNorm2d):
            bn.momentum = None
    m.train()
    for _ in range(4):
        m(torch.randn(4, 3, 224, 224, generator=g))
m.eval()
m.fuse_model()
m.qconfig = torch.quantization.get_default_qconfig("qnnpack")
torch.quantization.prepare(m, inplace=True)
g = torch.Generator().manual_seed(1)
with torch.no_grad():
    for _ in range(4):
        m(torch.randn(2, 3, 224, 224, generator=g))
torch.quantization.convert(m, inplace=True)

x = torch.randn(1, 3, 224, 224, generator=torch.Generator().manual_seed(2))
y, yq = outputs(m, x)   # the float output, and the quantized one before the DeQuantStub
np.save(os.path.join(out, "input.npy"), x.numpy().astype(np.float32))
np.save(os.path.join(out, "torch_out.npy"), y.numpy().astype(np.float32))
np.save(os.path.join(out, "torch_int.npy"), yq.int_repr().numpy().astype(np.int32))
with open(os.path.join(out, "torch_q.txt"), "w") as f:
    f.write("%.9g %d %d\n" % (yq.q_scale(), yq.q_zero_point(), int(y.argmax())))

# Twice: with the exporter's constant folding (its default), the biases
# are int32 constants truncated from b / scale (Cast), where PyTorch's
# kernels round; without it, the graph keeps the float bias and the
# Cast(Div(...)), from which the qdq rules take the float bias as PyTorch
# does (rulesets/qdq.rules, pytorch_bias).  The test's numbers are of the
# second; the first must import and partition as well.
for name, fold in (("mobilenet_v2.onnx", False), ("mobilenet_v2_folded.onnx", True)):
    torch.onnx.export(m, x, os.path.join(out, name), opset_version=13,
                      input_names=["input"], output_names=["output"], do_constant_folding=fold)
