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
# FX graph mode (torch.ao.quantization.quantize_fx) quantizes torchvision's
# plain networks in the forms other qconfigs give (FORMS below; their names
# start with fx_):
#   fx_NAME       the qnnpack default: activations uint8, weights int8 per
#                 tensor, as eager mode;
#   fx_NAME_pc    x86's: weights int8 symmetric per channel (PyTorch's
#                 exporter writes a zero point per channel and the bias
#                 quantization per channel), activations uint8;
#   fx_NAME_s8    int8 symmetric activations and weights per tensor
#                 (XNNPACK's form, through the qnnpack backend config).  torch 1.13's exporter writes
#                 the outputs of qint8 layers as uint8 with their zero point
#                 (symbolic_helper.quantize_helper), clamping their negative
#                 values: NAME_s8_fixed.onnx, a control, is the same file
#                 with those zero points int8, as PyTorch computed.
# (and NAME_folded.onnx, NAME_folded_rounded.onnx as above, but for s8,
# whose folded export has lost both).
#
# OUTDIR/quantized.txt lists the files made, one a line: "NAME FILE ROLE",
# FILE without .onnx, ROLE one of exact (must match PyTorch), folded (a
# folded export: warned of, figures printed), control (a control that must
# match), exporter-int8 (the int8 export as written: warned of, figures
# printed).  With --layers, also
# OUTDIR/NAME.layers.npz: every quantized module's output for the input
# (forward hooks), its integers under the module's name, with
# "NAME.scale" and "NAME.zero_point" (tests/models/cmp_layers.py compares
# them with graft's).
import copy
import os
import sys
import warnings

import numpy as np
import onnx
from onnx import numpy_helper
import torch
import torchvision
import torchvision.models.quantization as tq
from torch.ao.quantization import (QConfig, QConfigMapping, HistogramObserver, MinMaxObserver,
                                   PerChannelMinMaxObserver, get_default_qconfig_mapping)
from torch.ao.quantization.backend_config import get_qnnpack_backend_config
from torch.ao.quantization.quantize_fx import prepare_fx, convert_fx

warnings.filterwarnings("ignore")
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

# FX graph mode: name: (constructor, input size, form)
FX = {
    "fx_resnet18": (lambda: torchvision.models.resnet18(weights=None), 112, "qnnpack"),
    "fx_resnet18_pc": (lambda: torchvision.models.resnet18(weights=None), 112, "pc"),
    "fx_mobilenet_v2_pc": (lambda: torchvision.models.mobilenet_v2(weights=None), 112, "pc"),
    "fx_resnet18_s8": (lambda: torchvision.models.resnet18(weights=None), 112, "s8"),
}


def rounded_biases(folded, unfolded, path):
    """folded (an onnx model) with its int32 bias constants as PyTorch
    rounds them: lrint(b * fl(1 / scale)) in float32, halves to even, per
    tensor or per channel (the float bias b is the unfolded export's
    Div(b, scale) operand whose truncation the folded constant is: the
    scopes of the two exports are not named alike)"""
    def consts(m):
        c = {n.output[0]: n.attribute[0].t for n in m.graph.node if n.op_type == "Constant"}
        c.update({i.name: i for i in m.graph.initializer})
        return c
    fc, uc = consts(folded), consts(unfolded)
    biases = []
    for n in unfolded.graph.node:
        if n.op_type == "Div" and n.input[0] in uc:
            b = numpy_helper.to_array(uc[n.input[0]])
            if b.dtype == np.float32 and b.ndim == 1:
                biases.append(b)
    changed = 0
    for n in folded.graph.node:
        if n.op_type != "DequantizeLinear" or n.input[0] not in fc:
            continue
        t = fc[n.input[0]]
        q = numpy_helper.to_array(t)
        if q.dtype != np.int32:
            continue
        s = numpy_helper.to_array(fc[n.input[1]]).astype(np.float32).reshape(-1)
        found = [r for r in (np.rint(b * (np.float32(1) / s)).astype(np.int32) for b in biases if b.shape == q.shape)
                 if (np.abs(r.astype(np.int64) - q) <= 1).all()]
        assert found and all((r == found[0]).all() for r in found), n.name
        r = found[0]
        changed += int((r != q).sum())
        t.CopyFrom(numpy_helper.from_array(r, t.name))
    assert changed, "no truncated bias found"
    onnx.save(folded, path)


def calibrated(make, size):
    """make()'s network in eval mode, its BatchNorm statistics those of a
    few random batches"""
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
    return m


def outputs(m, x):
    """the quantized network m's float output for x, and its quantized
    output before the model's DeQuantStub"""
    with torch.no_grad():
        y = m(x)
        deq = m.dequant
        m.dequant = torch.nn.Identity()
        yq = m(x)
        m.dequant = deq
    return y, yq


def quantized(make, size):
    m = calibrated(make, size)
    m.fuse_model()
    m.qconfig = torch.quantization.get_default_qconfig("qnnpack")
    torch.quantization.prepare(m, inplace=True)
    g = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for _ in range(4):
            m(torch.randn(2, 3, size, size, generator=g))
    torch.quantization.convert(m, inplace=True)
    return m


class ContiguousReLU6(torch.nn.Module):
    """ReLU6 as torch 1.13 computes it right when quantized: its quantized
    clamps (relu6, hardtanh, clamp) give wrong values on the channels-last
    tensors QNNPACK's convolutions return; on a contiguous copy they are
    right (the copy is nothing in the exported graph)"""
    def __init__(self):
        super().__init__()
        self.relu6 = torch.nn.ReLU6()

    def forward(self, x):
        return self.relu6(x.contiguous())


def contiguous_relu6(m):
    for name, mod in m.named_children():
        if isinstance(mod, torch.nn.ReLU6):
            setattr(m, name, ContiguousReLU6())
        else:
            contiguous_relu6(mod)


def fx_quantized(make, size, form):
    """make()'s network quantized in FX graph mode in form (FX), and the
    same returning the integers of its output (the final dequantize
    left out)"""
    m = calibrated(make, size)
    contiguous_relu6(m)
    bc = None
    if form == "qnnpack":
        qm = get_default_qconfig_mapping("qnnpack")
    else:
        w = PerChannelMinMaxObserver.with_args(dtype=torch.qint8, qscheme=torch.per_channel_symmetric)
        a = HistogramObserver.with_args(dtype=torch.quint8, qscheme=torch.per_tensor_affine)
        if form == "s8":
            # XNNPACK's constraints (the qnnpack backend config): [-127,
            # 127], scales at least 2^-12; weights per tensor (its
            # quantized::linear takes no per-channel qint8)
            w = MinMaxObserver.with_args(dtype=torch.qint8, qscheme=torch.per_tensor_symmetric,
                                         quant_min=-127, quant_max=127, eps=2 ** -12)
            a = HistogramObserver.with_args(dtype=torch.qint8, qscheme=torch.per_tensor_symmetric,
                                            quant_min=-127, quant_max=127, eps=2 ** -12)
            bc = get_qnnpack_backend_config()
        qm = QConfigMapping().set_global(QConfig(activation=a, weight=w))
    x = torch.randn(1, 3, size, size)
    kw = {"backend_config": bc} if bc else {}
    p = prepare_fx(m, qm, example_inputs=(x,), **kw)
    g = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for _ in range(4):
            p(torch.randn(2, 3, size, size, generator=g))
    q = convert_fx(copy.deepcopy(p), **kw)
    ints = convert_fx(p, **kw)
    out = [n for n in ints.graph.nodes if n.op == "output"][0]
    deq = out.args[0]
    assert deq.op == "call_method" and deq.target == "dequantize", deq
    out.args = (deq.args[0],)
    ints.graph.eliminate_dead_code()
    ints.recompile()
    return q, ints


def int8_fixed(m, path):
    """m (an onnx model from fx_quantized's s8 form) with every Cast of a
    zero point to uint8 a cast to int8: what PyTorch computed"""
    k = 0
    for n in m.graph.node:
        if n.op_type == "Cast" and n.attribute[0].i == onnx.TensorProto.UINT8:
            n.attribute[0].i = onnx.TensorProto.INT8
            k += 1
    assert k, "no uint8 zero point found"
    onnx.save(m, path)


def main():
    """makes the networks sys.argv names (see the top of the file)"""
    args = sys.argv[1:]
    layers = "--layers" in args
    args = [a for a in args if a != "--layers"]
    out = args[0] if args else "."
    only = args[1:]
    os.makedirs(out, exist_ok=True)
    made = []
    todo = [(n, mk, sz, None) for n, (mk, sz) in MODELS.items()] + [(n, mk, sz, f) for n, (mk, sz, f) in FX.items()]
    for name, make, size, form in todo:
        if only and name not in only:
            continue
        x = torch.randn(1, 3, size, size, generator=torch.Generator().manual_seed(2))
        if form:
            m, ints = fx_quantized(make, size, form)
            with torch.no_grad():
                y, yq = m(x), ints(x)
            np.save(os.path.join(out, name + ".in.npy"), x.numpy().astype(np.float32))
            np.save(os.path.join(out, name + ".int.npy"), yq.int_repr().numpy().astype(np.int32))
            with open(os.path.join(out, name + ".q.txt"), "w") as f:
                f.write("%.9g %d %d\n" % (yq.q_scale(), yq.q_zero_point(), int(y.argmax())))
            for suffix, fold in (("", False), ("_folded", True)):
                torch.onnx.export(m, x, os.path.join(out, name + suffix + ".onnx"), opset_version=13,
                                  input_names=["input"], output_names=["output"], do_constant_folding=fold)
            if form == "s8":
                int8_fixed(onnx.load(os.path.join(out, name + ".onnx")), os.path.join(out, name + "_fixed.onnx"))
                made += [(name, name + "_fixed", "control"), (name, name, "exporter-int8")]
            else:
                rounded_biases(onnx.load(os.path.join(out, name + "_folded.onnx")),
                               onnx.load(os.path.join(out, name + ".onnx")),
                               os.path.join(out, name + "_folded_rounded.onnx"))
                made += [(name, name, "exact"), (name, name + "_folded", "folded"),
                         (name, name + "_folded_rounded", "control")]
                print(name, flush=True)
                continue
            made.append((name, name + "_folded", "folded"))
            print(name, flush=True)
            continue
        m = quantized(make, size)
        record = {}
        hooks = []
        if layers:
            def hook(mod, inp, res, mname=None):
                if isinstance(res, torch.Tensor) and res.is_quantized and mname not in record:
                    record[mname] = res.clone()  # an in-place op after may change res
            for mname, mod in m.named_modules():
                if mname and not list(mod.children()):
                    hooks.append(mod.register_forward_hook(lambda mod, i, r, mname=mname: hook(mod, i, r, mname)))
        y, yq = outputs(m, x)   # the hooks keep the first call's tensors only
        for h in hooks:
            h.remove()
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
        made += [(name, name, "exact"), (name, name + "_folded", "folded"), (name, name + "_folded_rounded", "control")]
        print(name, flush=True)
    with open(os.path.join(out, "quantized.txt"), "w") as f:
        f.write("".join("%s %s %s\n" % t for t in made))


if __name__ == "__main__":
    main()
