#!/usr/bin/python3
# make_models.py: writes the ONNX models of tests/onnx/ and, for those that
# tests/onnx.sh runs, their inputs and expected outputs as .npy files
# (computed with NumPy by hand: Debian 12's onnx 1.12 has no reference
# evaluator).  Run from the source tree, with Debian's python3-onnx:
#
#   /usr/bin/python3 tests/onnx/make_models.py tests/onnx
#
# The output is deterministic (fixed seeds, no producer version), so
# rerunning it changes nothing unless this script changed.
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
F = TensorProto.FLOAT


def model(name, nodes, inputs, outputs, inits=(), opset=13, check=True):
    """Writes OUT/name.onnx: a graph of nodes, inputs and outputs given as
    (name, elem_type, shape) and initializers as (name, array)."""
    g = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info(n, t, s) for n, t, s in inputs],
        [helper.make_tensor_value_info(n, t, s) for n, t, s in outputs],
        [numpy_helper.from_array(a, n) for n, a in inits])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], producer_name="graft")
    m.ir_version = 8
    if check:
        onnx.checker.check_model(m)
    path = os.path.join(OUT, name + ".onnx")
    with open(path, "wb") as f:
        f.write(m.SerializeToString())
    return path


def save(name, a):
    np.save(os.path.join(OUT, name + ".npy"), a)


def rng(seed):
    return np.random.default_rng(seed)


# ---------------------------------------------------------------- ops

def relu():
    x = rng(1).standard_normal((2, 3)).astype(np.float32)
    model("relu", [helper.make_node("Relu", ["x"], ["y"], name="r0")],
          [("x", F, [2, 3])], [("y", F, [2, 3])])
    save("relu.x", x)
    save("relu.out0", np.maximum(x, 0))


def run(name, nodes, inputs, outputs, feeds, expect, inits=(), opset=13, check=True):
    """A model that tests/onnx.sh also runs: feeds are its input arrays,
    expect its expected outputs."""
    model(name, nodes, inputs, outputs, inits, opset, check)
    for k, a in feeds.items():
        save(name + "." + k, a)
    for i, a in enumerate(expect):
        save(name + ".out%d" % i, a)


def conv2d(x, w, b, stride, pads, group=1):
    """NCHW convolution in float64, pads = [t, l, b, r]."""
    x = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    n, c, h, wd = x.shape
    o, ci, kh, kw = w.shape
    oh, ow = (h - kh) // stride + 1, (wd - kw) // stride + 1
    y = np.zeros((n, o, oh, ow))
    og = o // group
    for oc in range(o):
        g = oc // og
        for i in range(oh):
            for j in range(ow):
                y[:, oc, i, j] = (x[:, g * ci:(g + 1) * ci, i * stride:i * stride + kh, j * stride:j * stride + kw]
                                  * w[oc]).sum(axis=(1, 2, 3))
    if b is not None:
        y += b.reshape(1, -1, 1, 1)
    return y


def convs():
    r = rng(2)
    x = r.standard_normal((1, 2, 5, 5)).astype(np.float32)
    w = r.standard_normal((4, 2, 3, 3)).astype(np.float32)
    b = r.standard_normal(4).astype(np.float32)
    run("conv", [helper.make_node("Conv", ["x", "w", "b"], ["y"], name="c0", strides=[2, 2], auto_pad="SAME_UPPER")],
        [("x", F, [1, 2, 5, 5])], [("y", F, [1, 4, 3, 3])], {"x": x},
        [conv2d(x, w, b, 2, [1, 1, 1, 1]).astype(np.float32)], inits=[("w", w), ("b", b)])
    wg = r.standard_normal((2, 1, 3, 3)).astype(np.float32)
    run("conv_group", [helper.make_node("Conv", ["x", "w"], ["y"], name="c0", group=2, pads=[1, 0, 1, 0])],
        [("x", F, [1, 2, 5, 5])], [("y", F, [1, 2, 5, 3])], {"x": x},
        [conv2d(x, wg, None, 1, [1, 0, 1, 0], 2).astype(np.float32)], inits=[("w", wg)])


def dense():
    r = rng(3)
    a = r.standard_normal((3, 4)).astype(np.float32)
    b = r.standard_normal((5, 4)).astype(np.float32)
    c = r.standard_normal((5,)).astype(np.float32)
    run("gemm", [helper.make_node("Gemm", ["a", "b", "c"], ["y"], name="g0", transB=1, alpha=0.5, beta=2.0)],
        [("a", F, [3, 4])], [("y", F, [3, 5])], {"a": a},
        [(0.5 * a.astype(np.float64) @ b.T.astype(np.float64) + 2 * c).astype(np.float32)],
        inits=[("b", b), ("c", c)])
    x = r.standard_normal((2, 3, 4)).astype(np.float32)
    w = r.standard_normal((4, 6)).astype(np.float32)
    y = r.standard_normal((2, 4, 5)).astype(np.float32)
    run("matmul", [helper.make_node("MatMul", ["x", "w"], ["p"], name="m0"),
                   helper.make_node("MatMul", ["x", "y"], ["q"], name="m1")],
        [("x", F, [2, 3, 4]), ("y", F, [2, 4, 5])], [("p", F, [2, 3, 6]), ("q", F, [2, 3, 5])], {"x": x, "y": y},
        [(x.astype(np.float64) @ w).astype(np.float32), (x.astype(np.float64) @ y).astype(np.float32)],
        inits=[("w", w)])


def elementwise():
    r = rng(4)
    x = (r.standard_normal((2, 3)) * 4).astype(np.float32)
    y = r.standard_normal((3,)).astype(np.float32) + 3
    hs = np.clip(x / 6 + 0.5, 0, 1)
    run("elementwise", [
        helper.make_node("Add", ["x", "y"], ["a"], name="add"),
        helper.make_node("Sub", ["a", "y"], ["s"], name="sub"),
        helper.make_node("Mul", ["s", "y"], ["m"], name="mul"),
        helper.make_node("Div", ["m", "y"], ["d"], name="div"),
        helper.make_node("Clip", ["d", "lo", "hi"], ["c"], name="clip"),
        helper.make_node("HardSigmoid", ["x"], ["h"], name="hsig", alpha=0.25),
        helper.make_node("HardSwish", ["x"], ["w"], name="hswish"),
        helper.make_node("Sigmoid", ["x"], ["g"], name="sig"),
        helper.make_node("Cast", ["c"], ["i"], name="cast", to=TensorProto.INT32),
    ], [("x", F, [2, 3]), ("y", F, [3])],
        [("c", F, [2, 3]), ("h", F, [2, 3]), ("w", F, [2, 3]), ("g", F, [2, 3]), ("i", TensorProto.INT32, [2, 3])],
        {"x": x, "y": y},
        [np.clip((((x + y) - y) * y) / y, -1.5, 2.5).astype(np.float32),
         np.clip(0.25 * x + 0.5, 0, 1).astype(np.float32), (x * hs).astype(np.float32),
         (1 / (1 + np.exp(-x.astype(np.float64)))).astype(np.float32),
         np.trunc(np.clip((((x + y) - y) * y) / y, -1.5, 2.5)).astype(np.int32)],
        inits=[("lo", np.array(-1.5, np.float32)), ("hi", np.array(2.5, np.float32))], opset=14)
    model("clip_opset10", [helper.make_node("Clip", ["x"], ["y"], name="c0", min=-1.0, max=1.0)],
          [("x", F, [4])], [("y", F, [4])], opset=10)


def shapes():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    run("shapes", [
        helper.make_node("Reshape", ["x", "shape"], ["r"], name="reshape"),
        helper.make_node("Transpose", ["x"], ["t"], name="transpose", perm=[2, 0, 1]),
        helper.make_node("Flatten", ["x"], ["f"], name="flatten", axis=2),
        helper.make_node("Concat", ["x", "x"], ["c"], name="concat", axis=-1),
        helper.make_node("Split", ["x", "split"], ["s0", "s1"], name="split", axis=2),
        helper.make_node("Slice", ["x", "starts", "ends", "axes", "steps"], ["l"], name="slice"),
        helper.make_node("Unsqueeze", ["x", "uaxes"], ["u"], name="unsqueeze"),
        helper.make_node("Squeeze", ["u", "uaxes"], ["q"], name="squeeze"),
        helper.make_node("Constant", [], ["k"], name="const", value_floats=[1.0, 2.0, 3.0, 4.0]),
        helper.make_node("Add", ["q", "k"], ["qk"], name="addk"),
        helper.make_node("ConstantOfShape", ["cshape"], ["z"], name="cos",
                         value=helper.make_tensor("v", TensorProto.INT64, [1], [7])),
    ], [("x", F, [2, 3, 4])],
        [("r", F, None), ("t", F, None), ("f", F, None), ("c", F, None), ("s0", F, None), ("s1", F, None),
         ("l", F, None), ("qk", F, None), ("z", TensorProto.INT64, None)],
        {"x": x},
        [x.reshape(2, 12), x.transpose(2, 0, 1), x.reshape(6, 4), np.concatenate([x, x], -1), x[:, :, :1], x[:, :, 1:],
         x[:, 1:, ::2], x + np.array([1, 2, 3, 4], np.float32), np.full((2, 2), 7, np.int64)],
        inits=[("shape", np.array([0, -1], np.int64)), ("split", np.array([1, 3], np.int64)),
               ("starts", np.array([1, 0], np.int64)), ("ends", np.array([100, -1], np.int64)),
               ("axes", np.array([1, 2], np.int64)), ("steps", np.array([1, 2], np.int64)),
               ("uaxes", np.array([0, 3], np.int64)), ("cshape", np.array([2, 2], np.int64))], check=False)
    model("squeeze_opset11", [helper.make_node("Unsqueeze", ["x"], ["u"], name="u0", axes=[0]),
                              helper.make_node("Squeeze", ["u"], ["y"], name="s0", axes=[0]),
                              helper.make_node("Split", ["y"], ["a", "b"], name="sp", axis=0, split=[1, 1])],
          [("x", F, [2, 3])], [("a", F, [1, 3]), ("b", F, [1, 3])], opset=11)


def nn():
    r = rng(5)
    x = r.standard_normal((1, 2, 4, 4)).astype(np.float32)
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), constant_values=-np.inf)
    mp = np.array([[[[xp[0, c, i * 2:i * 2 + 3, j * 2:j * 2 + 3].max() for j in range(2)] for i in range(2)]
                    for c in range(2)]], np.float32)
    ap = np.array([[[[x[0, c, i * 2:i * 2 + 2, j * 2:j * 2 + 2].mean() for j in range(2)] for i in range(2)]
                    for c in range(2)]], np.float32)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    run("nn", [
        helper.make_node("MaxPool", ["x"], ["mp"], name="maxpool", kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
        helper.make_node("AveragePool", ["x"], ["ap"], name="avgpool", kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("GlobalAveragePool", ["x"], ["gap"], name="gap"),
        helper.make_node("Pad", ["x", "pads", "value"], ["pad"], name="pad"),
        helper.make_node("Softmax", ["x"], ["sm"], name="softmax", axis=1),
        helper.make_node("ReduceMean", ["x"], ["rm"], name="mean", axes=[2, 3], keepdims=0),
    ], [("x", F, [1, 2, 4, 4])],
        [("mp", F, None), ("ap", F, None), ("gap", F, None), ("pad", F, None), ("sm", F, None), ("rm", F, None)],
        {"x": x},
        [mp, ap, x.mean(axis=(2, 3), keepdims=True),
         np.pad(x, ((0, 0), (0, 0), (1, 0), (0, 2)), constant_values=0.5),
         (e / e.sum(axis=1, keepdims=True)).astype(np.float32), x.mean(axis=(2, 3))],
        inits=[("pads", np.array([0, 0, 1, 0, 0, 0, 0, 2], np.int64)), ("value", np.array(0.5, np.float32))],
        check=False)
    model("softmax_opset11", [helper.make_node("Softmax", ["x"], ["y"], name="s0", axis=1)],
          [("x", F, [2, 3, 4])], [("y", F, [2, 3, 4])], opset=11)


def quantized():
    r = rng(6)
    x = np.array([[-1.0, -0.5, 0.25, 0.75, 1.0, 0.3]], np.float32)
    q = np.clip(np.round_(x / 0.5) + 0, -128, 127).astype(np.int8)   # numpy rounds halves to even
    run("quantize", [helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"], name="q0"),
                     helper.make_node("DequantizeLinear", ["q", "s", "z"], ["d"], name="d0")],
        [("x", F, [1, 6])], [("q", TensorProto.INT8, [1, 6]), ("d", F, [1, 6])], {"x": x},
        [q, (q.astype(np.float32) * 0.5).astype(np.float32)],
        inits=[("s", np.array(0.5, np.float32)), ("z", np.array(0, np.int8))])
    xq = r.integers(0, 255, (1, 2, 4, 4), dtype=np.uint8)
    wq = r.integers(-100, 100, (3, 2, 3, 3), dtype=np.int8)
    bq = r.integers(-500, 500, (3,), dtype=np.int32)
    acc = conv2d(xq.astype(np.int64) - 128, wq.astype(np.int64), bq, 1, [1, 1, 1, 1])
    xs, ws, ys = 0.02, 0.01, 0.5
    yq = np.clip(np.floor(acc * (xs * ws / ys) + 0.5) + 10, 0, 255).astype(np.uint8)
    run("qlinearconv", [helper.make_node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"], ["y"],
                                         name="qc0", pads=[1, 1, 1, 1])],
        [("x", TensorProto.UINT8, [1, 2, 4, 4])], [("y", TensorProto.UINT8, [1, 3, 4, 4])], {"x": xq}, [yq],
        inits=[("xs", np.array(xs, np.float32)), ("xz", np.array(128, np.uint8)), ("w", wq),
               ("ws", np.array(ws, np.float32)), ("wz", np.array(0, np.int8)), ("ys", np.array(ys, np.float32)),
               ("yz", np.array(10, np.uint8)), ("b", bq)], opset=13)
    model("qlinearmatmul", [helper.make_node("QLinearMatMul", ["a", "as", "az", "b", "bs", "bz", "ys", "yz"], ["y"],
                                             name="qm0")],
          [("a", TensorProto.UINT8, [2, 4])], [("y", TensorProto.UINT8, [2, 3])],
          [("as", np.array(0.1, np.float32)), ("az", np.array(128, np.uint8)),
           ("b", r.integers(0, 255, (4, 3), dtype=np.uint8)), ("bs", np.array(0.05, np.float32)),
           ("bz", np.array(100, np.uint8)), ("ys", np.array(0.2, np.float32)), ("yz", np.array(0, np.uint8))])
    model("integer", [helper.make_node("ConvInteger", ["x", "w", "xz"], ["c"], name="ci0"),
                      helper.make_node("MatMulInteger", ["a", "b"], ["m"], name="mi0")],
          [("x", TensorProto.UINT8, [1, 1, 3, 3]), ("a", TensorProto.UINT8, [2, 3])],
          [("c", TensorProto.INT32, [1, 1, 2, 2]), ("m", TensorProto.INT32, [2, 2])],
          [("w", np.ones((1, 1, 2, 2), np.uint8)), ("xz", np.array(1, np.uint8)),
           ("b", np.ones((3, 2), np.uint8))])


# ---------------------------------------------------------------- errors

def unsupported():
    model("unsupported", [
        helper.make_node("TfIdfVectorizer", ["x"], ["a"], name="tf1"),
        helper.make_node("StringNormalizer", ["a"], ["b"], name="s0"),
        helper.make_node("TfIdfVectorizer", ["b"], ["c"], name="tf2"),
        helper.make_node("Relu", ["c"], ["y"], name="r"),
    ], [("x", F, [1, 1, 2, 2]), ("g", F, [1, 2, 2, 2])], [("y", F, None)], check=False)


def manynodes():
    # fifty nodes of an unknown op: a few named, the rest counted
    model("many_unsupported", [helper.make_node("TfIdfVectorizer", ["x" if i == 0 else "y%d" % (i - 1)], ["y%d" % i], name="g%d" % i)
                               for i in range(50)],
          [("x", F, [2])], [("y49", F, [2])], check=False)


def symbolic():
    model("symbolic", [helper.make_node("Relu", ["x"], ["y"], name="r0")],
          [("x", F, ["N", 3])], [("y", F, ["N", 3])])


def dangling():
    model("dangling", [helper.make_node("Relu", ["nowhere"], ["y"], name="r0")],
          [("x", F, [2])], [("y", F, [2])], check=False)


def cycle():
    model("cycle", [helper.make_node("Relu", ["b"], ["a"], name="r0"),
                    helper.make_node("Relu", ["a"], ["b"], name="r1")],
          [("x", F, [2])], [("b", F, [2])], check=False)


def duplicate():
    model("duplicate", [helper.make_node("Relu", ["x"], ["y"], name="r0"),
                        helper.make_node("Relu", ["x"], ["y"], name="r1")],
          [("x", F, [2])], [("y", F, [2])], check=False)


def oldopset():
    # opsets 9 and 6 import (graft reads 6 to 17); opset 5 is refused
    model("opset9", [helper.make_node("Relu", ["x"], ["y"], name="r0")],
          [("x", F, [2])], [("y", F, [2])], opset=9)
    model("opset6", [helper.make_node("Relu", ["x"], ["y"], name="r0")],
          [("x", F, [2])], [("y", F, [2])], opset=6)
    model("opset5", [helper.make_node("Relu", ["x"], ["y"], name="r0")],
          [("x", F, [2])], [("y", F, [2])], opset=5)


def badfields():
    # an attribute of the wrong type; a tensor whose data is short
    model("badattr", [helper.make_node("Flatten", ["x"], ["y"], name="f0", axis=1.5)],
          [("x", F, [2, 3])], [("y", F, [2, 3])], check=False)
    t = numpy_helper.from_array(np.zeros((2, 3), np.float32), "w")
    t.raw_data = t.raw_data[:20]
    g = helper.make_graph([helper.make_node("Add", ["x", "w"], ["y"], name="a0")], "badtensor",
                          [helper.make_tensor_value_info("x", F, [2, 3])],
                          [helper.make_tensor_value_info("y", F, [2, 3])], [t])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="graft")
    m.ir_version = 8
    with open(os.path.join(OUT, "badtensor.onnx"), "wb") as f:
        f.write(m.SerializeToString())
    # a shape that is a graph input: an error for graft, which graft run
    # freezes to its --input (and graft --bind to its file)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    run("dynshape", [helper.make_node("Reshape", ["x", "s"], ["y"], name="r0")],
        [("x", F, [2, 3]), ("s", TensorProto.INT64, [2])], [("y", F, None)],
        {"x": x, "s": np.array([3, 2], np.int64)}, [x.reshape(3, 2)], check=False)
    save("dynshape_s_bad", np.array([3, 2, 1], np.int64))


def erf(x):
    """erf by math.erf, elementwise (numpy has none)."""
    import math
    return np.vectorize(math.erf)(x.astype(np.float64))


def opsets18to21():
    """Ops new or changed in opsets 18 to 21 (ONNX's own test data in
    Debian stops at 17), expected outputs from their spec's formulas."""
    x = rng(18).standard_normal((2, 4, 3, 3)).astype(np.float32)
    v = np.arange(7, dtype=np.float32)
    # opset 18: Split's num_outputs (parts of ceil(7 / 3) = 3: 3, 3, 1), ReduceMax's axes input,
    # Mish, GroupNormalization (scale and bias per group), CenterCropPad
    sc, bi = np.array([0.5, 2.0], np.float32), np.array([1.0, -1.0], np.float32)
    g = x.reshape(2, 2, -1).astype(np.float64)
    gn = (g - g.mean(-1, keepdims=True)) / np.sqrt(g.var(-1, keepdims=True) + 1e-5)
    gn18 = (gn * sc.reshape(1, 2, 1) + bi.reshape(1, 2, 1)).reshape(x.shape)
    sp = np.log1p(np.exp(x.astype(np.float64)))
    c = np.arange(20, dtype=np.float32).reshape(4, 5)
    ccp = np.zeros((2, 7), np.float32)
    ccp[:, 1:6] = c[1:3, :]
    run("opset18", [
        helper.make_node("Split", ["v"], ["s0", "s1", "s2"], name="split", num_outputs=3),
        helper.make_node("ReduceMax", ["x", "ax"], ["rm"], name="rmax", keepdims=0),
        helper.make_node("Mish", ["x"], ["mi"], name="mish"),
        helper.make_node("GroupNormalization", ["x", "sc", "bi"], ["gn"], name="gn", num_groups=2),
        helper.make_node("CenterCropPad", ["c", "shape"], ["cc"], name="ccp"),
    ], [("v", F, [7]), ("x", F, [2, 4, 3, 3]), ("c", F, [4, 5])],
        [("s0", F, None), ("s1", F, None), ("s2", F, None), ("rm", F, None), ("mi", F, None), ("gn", F, None),
         ("cc", F, None)],
        {"v": v, "x": x, "c": c},
        [v[:3], v[3:6], v[6:], x.max(axis=(1, 3)), (x * np.tanh(sp)).astype(np.float32), gn18.astype(np.float32), ccp],
        inits=[("ax", np.array([1, 3], np.int64)), ("sc", sc), ("bi", bi), ("shape", np.array([2, 7], np.int64))],
        opset=18, check=False)
    # TopK's k an attribute before opset 10: the two largest, and their indices
    t = np.array([[3, 1, 4, 1, 5], [9, 2, 6, 5, 3]], np.float32)
    run("topk_opset9", [helper.make_node("TopK", ["t"], ["tv", "ti"], name="topk", k=2)],
        [("t", F, [2, 5])], [("tv", F, None), ("ti", TensorProto.INT64, None)], {"t": t},
        [np.array([[5, 4], [9, 6]], np.float32), np.array([[4, 2], [0, 2]], np.int64)], opset=9, check=False)
    # opset 19: Pad's wrap mode, AveragePool's dilations
    p = np.arange(6, dtype=np.float32).reshape(2, 3)
    a = np.arange(25, dtype=np.float32).reshape(1, 1, 5, 5)
    ap = np.array([[[[(a[0, 0, i, j] + a[0, 0, i, j + 2] + a[0, 0, i + 2, j] + a[0, 0, i + 2, j + 2]) / 4
                      for j in range(3)] for i in range(3)]]], np.float32)
    run("opset19", [
        helper.make_node("Pad", ["p", "pads"], ["pw"], name="pad", mode="wrap"),
        helper.make_node("AveragePool", ["a"], ["av"], name="avg", kernel_shape=[2, 2], dilations=[2, 2]),
    ], [("p", F, [2, 3]), ("a", F, [1, 1, 5, 5])], [("pw", F, None), ("av", F, None)],
        {"p": p, "a": a}, [np.pad(p, ((0, 0), (1, 2)), mode="wrap"), ap],
        inits=[("pads", np.array([0, 1, 0, 2], np.int64))], opset=19, check=False)
    # opset 20: Gelu (both forms), DFT's axis input
    ge = (0.5 * x * (1 + erf(x / np.sqrt(2)))).astype(np.float32)
    gt = (0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x.astype(np.float64) ** 3)))).astype(np.float32)
    sig = np.arange(12, dtype=np.float32).reshape(1, 3, 4, 1)
    f = np.fft.fft(sig[..., 0].astype(np.float64), axis=2)
    run("opset20", [
        helper.make_node("Gelu", ["x"], ["ge"], name="gelu"),
        helper.make_node("Gelu", ["x"], ["gt"], name="gelut", approximate="tanh"),
        helper.make_node("DFT", ["sig", "", "dax"], ["df"], name="dft"),
    ], [("x", F, [2, 4, 3, 3]), ("sig", F, [1, 3, 4, 1])], [("ge", F, None), ("gt", F, None), ("df", F, None)],
        {"x": x, "sig": sig}, [ge, gt, np.stack([f.real, f.imag], -1).astype(np.float32)],
        inits=[("dax", np.array(2, np.int64))], opset=20, check=False)
    # opset 21: GroupNormalization with scale and bias per channel
    sc4, bi4 = np.array([1, 2, 3, 4], np.float32), np.array([0, 1, 0, -1], np.float32)
    gn21 = gn.reshape(x.shape) * sc4.reshape(1, 4, 1, 1) + bi4.reshape(1, 4, 1, 1)
    run("opset21", [
        helper.make_node("GroupNormalization", ["x", "sc", "bi"], ["gn"], name="gn", num_groups=2),
        helper.make_node("Reshape", ["x", "shape"], ["r"], name="reshape"),
    ], [("x", F, [2, 4, 3, 3])], [("gn", F, None), ("r", F, None)],
        {"x": x}, [gn21.astype(np.float32), x.reshape(2, 36)],
        inits=[("sc", sc4), ("bi", bi4), ("shape", np.array([2, -1], np.int64))], opset=21, check=False)


def resize_axis(x, axis, out, scale, mode, coord, nearest="round_prefer_floor", a=-0.75):
    """x resized along axis to out elements as the Resize spec says, in
    float64: output j's input coordinate by coord, then nearest's one
    element (by nearest, the mode's rounding of the coordinate), linear's
    two or cubic's four around it (Keys' kernel with a), indices clamped to
    the edge."""
    n = x.shape[axis]
    cols = []
    for j in range(out):
        c = {"asymmetric": j / scale,
             "align_corners": 0 if scale * n == 1 else j * (n - 1) / (scale * n - 1),
             "tf_half_pixel_for_nn": (j + 0.5) / scale,
             "pytorch_half_pixel": -0.5 if scale * n == 1 else (j + 0.5) / scale - 0.5,
             "half_pixel": (j + 0.5) / scale - 0.5}[coord]
        f = np.floor(c)
        t = c - f
        if mode == "nearest":
            taps = [{"floor": f, "ceil": np.ceil(c), "round_prefer_floor": np.ceil(c - 0.5),
                     "round_prefer_ceil": np.floor(c + 0.5)}[nearest]]
            w = [1.0]
        elif mode == "linear":
            taps, w = [f, f + 1], [1 - t, t]
        else:
            taps = [f - 1, f, f + 1, f + 2]
            w = [a * (t ** 3 - 2 * t ** 2 + t), (a + 2) * t ** 3 - (a + 3) * t ** 2 + 1,
                 -(a + 2) * t ** 3 + (2 * a + 3) * t ** 2 - a * t, -a * t ** 3 + a * t ** 2]
        cols.append(sum(wk * np.take(x.astype(np.float64), int(min(max(k, 0), n - 1)), axis)
                        for k, wk in zip(taps, w)))
    return np.stack(cols, axis)


def resizes():
    """Resize: linear by 2 and 1.5 along H and W, which the importer makes
    one image.resize2d, and by 0.6, whose coordinates (j + 0.5) / 0.6 -
    0.5 are not image.resize2d's (j + 0.5) * 5 / 3 - 0.5: takes.  And
    tf_half_pixel_for_nn moves an axis it keeps the size of by half an
    element (linear: the mean of neighbours, the last row kept)."""
    x = rng(10).standard_normal((1, 2, 3, 4)).astype(np.float32)
    up = resize_axis(resize_axis(x, 2, 6, 2.0, "linear", "half_pixel"), 3, 6, 1.5, "linear", "half_pixel")
    down = resize_axis(x, 2, 1, np.float32(0.6), "linear", "half_pixel")
    run("resize_linear", [
        helper.make_node("Resize", ["x", "", "up"], ["y"], name="up", mode="linear"),
        helper.make_node("Resize", ["x", "", "down"], ["z"], name="down", mode="linear"),
    ], [("x", F, [1, 2, 3, 4])], [("y", F, [1, 2, 6, 6]), ("z", F, [1, 2, 1, 4])], {"x": x},
        [up.astype(np.float32), down.astype(np.float32)],
        inits=[("up", np.array([1, 1, 2, 1.5], np.float32)), ("down", np.array([1, 1, 0.6, 1], np.float32))])
    # PyTorch's export of a quantized nearest upsampling: QDQ around a
    # Resize (asymmetric, floor), which --rules qdq makes an image.resize2d
    # of the uint8 values.  Quantize rounds x / s (float32) halves to even.
    s, z = np.float32(0.02), 128
    xq = rng(11).standard_normal((1, 3, 4, 4)).astype(np.float32)
    q = np.clip(np.round(xq / s) + z, 0, 255)
    dq = ((q - z) * s).astype(np.float32)
    run("qdq_resize", [
        helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"], name="q0"),
        helper.make_node("DequantizeLinear", ["q", "s", "z"], ["d"], name="d0"),
        helper.make_node("Resize", ["d", "", "scales"], ["r"], name="up", mode="nearest",
                         coordinate_transformation_mode="asymmetric", nearest_mode="floor"),
        helper.make_node("QuantizeLinear", ["r", "s", "z"], ["q2"], name="q1"),
        helper.make_node("DequantizeLinear", ["q2", "s", "z"], ["y"], name="d1"),
    ], [("x", F, [1, 3, 4, 4])], [("y", F, [1, 3, 8, 8])], {"x": xq}, [dq.repeat(2, axis=2).repeat(2, axis=3)],
        inits=[("s", np.array(s)), ("z", np.array(z, np.uint8)), ("scales", np.array([1, 1, 2, 2], np.float32))])
    x = np.array([[[[1, 2, 4], [8, 16, 32]]]], np.float32)
    y = resize_axis(resize_axis(x, 2, 2, 1.0, "linear", "tf_half_pixel_for_nn"), 3, 6, 2.0, "linear",
                    "tf_half_pixel_for_nn")
    # the same in 3-D, which stays takes
    run("resize_shift", [helper.make_node("Resize", ["x", "", "", "sizes"], ["y"], name="rs", mode="linear",
                                          coordinate_transformation_mode="tf_half_pixel_for_nn"),
                         helper.make_node("Reshape", ["x", "shape3"], ["x3"], name="r3"),
                         helper.make_node("Resize", ["x3", "", "", "sizes3"], ["y3"], name="rs3", mode="linear",
                                          coordinate_transformation_mode="tf_half_pixel_for_nn")],
        [("x", F, [1, 1, 2, 3])], [("y", F, [1, 1, 2, 6]), ("y3", F, [1, 2, 6])], {"x": x},
        [y.astype(np.float32), y.reshape(1, 2, 6).astype(np.float32)],
        inits=[("sizes", np.array([1, 1, 2, 6], np.int64)), ("shape3", np.array([1, 2, 3], np.int64)),
               ("sizes3", np.array([1, 2, 6], np.int64))])


def norms():
    """LayerNormalization (opset 17), which becomes nn.layer_norm unless its
    Mean or InvStdDev is asked for or its scale broadcasts, and
    InstanceNormalization, which becomes nn.instance_norm; expected outputs
    from their spec's formulas in float64."""
    x = rng(17).standard_normal((2, 3, 4)).astype(np.float32)
    w4, b4 = np.array([0.5, 1, 2, -1], np.float32), np.array([0, 1, -1, 0.25], np.float32)
    w34 = rng(18).standard_normal((3, 4)).astype(np.float32)
    w3, b3 = np.array([1, -2, 0.5], np.float32), np.array([0.5, 0, -0.5], np.float32)

    def norm(a, axes, eps=1e-5):
        a = a.astype(np.float64)
        m = a.mean(axes, keepdims=True)
        return (a - m) / np.sqrt(((a - m) ** 2).mean(axes, keepdims=True) + eps), m

    ln, _ = norm(x, (2,))
    ln12, _ = norm(x, (1, 2), 1e-3)
    lnm, mu = norm(x, (2,))
    inn, _ = norm(x, (2,), 1e-2)
    run("norms", [
        helper.make_node("LayerNormalization", ["x", "w4", "b4"], ["ln"], name="ln"),
        helper.make_node("LayerNormalization", ["x", "w34"], ["ln12"], name="ln12", axis=1, epsilon=1e-3),
        helper.make_node("LayerNormalization", ["x", "w4", "b4"], ["lnm", "mu"], name="lnm"),
        helper.make_node("LayerNormalization", ["x", "w14"], ["lnb"], name="lnb", axis=1),
        helper.make_node("InstanceNormalization", ["x", "w3", "b3"], ["in"], name="in", epsilon=1e-2),
    ], [("x", F, [2, 3, 4])], [("ln", F, None), ("ln12", F, None), ("lnm", F, None), ("mu", F, None),
                               ("lnb", F, None), ("in", F, None)],
        {"x": x},
        [(ln * w4 + b4).astype(np.float32), (ln12 * w34).astype(np.float32), (lnm * w4 + b4).astype(np.float32),
         mu.astype(np.float32), (norm(x, (1, 2))[0] * w4).astype(np.float32),
         (inn * w3.reshape(1, 3, 1) + b3.reshape(1, 3, 1)).astype(np.float32)],
        inits=[("w4", w4), ("b4", b4), ("w34", w34), ("w14", w4.reshape(1, 4)), ("w3", w3), ("b3", b3)],
        opset=17, check=False)


def qoperator():
    """ONNX Runtime's QOperator form (com.microsoft QLinear ops), expected
    outputs as ORT defines them: dequantize (float32), the op, quantize
    (halves to even, saturated).  Scales are powers of two, so the float
    steps are exact but for sigmoid's and softmax's functions."""
    r = rng(21)
    x = r.integers(0, 256, (1, 2, 4, 4)).astype(np.uint8)
    w = r.integers(0, 256, (1, 2, 4, 4)).astype(np.uint8)
    xs, xz, ws, wz, ys, yz = np.float32(0.125), np.uint8(128), np.float32(0.25), np.uint8(100), np.float32(0.5), np.uint8(120)

    def dq(q, s, z):
        return (q.astype(np.int32) - np.int32(z)).astype(np.float32) * np.float32(s)

    def qz(f, s, z):
        return np.clip(np.rint(f.astype(np.float32) / np.float32(s)) + np.float32(z), 0, 255).astype(np.uint8)

    fx, fw = dq(x, xs, xz), dq(w, ws, wz)
    sg = (1 / (1 + np.exp(-fx.astype(np.float32)))).astype(np.float32)
    e = np.exp((fx - fx.max(axis=-1, keepdims=True)).astype(np.float32))
    sm = (e / e.sum(axis=-1, keepdims=True)).astype(np.float32)
    ap = fx.reshape(1, 2, 2, 2, 2, 2).mean(axis=(3, 5), dtype=np.float32)
    sq = [("xs", xs), ("xz", xz), ("ws", ws), ("wz", wz), ("ys", ys), ("yz", yz)]
    MS = "com.microsoft"
    nodes = [
        helper.make_node("QLinearAdd", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz"], ["add"], name="qadd", domain=MS),
        helper.make_node("QLinearMul", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz"], ["mul"], name="qmul", domain=MS),
        helper.make_node("QLinearSigmoid", ["x", "xs", "xz", "ys2", "yz2"], ["sig"], name="qsig", domain=MS),
        helper.make_node("QLinearLeakyRelu", ["x", "xs", "xz", "ys", "yz"], ["lrelu"], name="qlr", domain=MS,
                         alpha=0.25),
        helper.make_node("QLinearGlobalAveragePool", ["x", "xs", "xz", "ys", "yz"], ["gap"], name="qgap", domain=MS),
        helper.make_node("QLinearAveragePool", ["x", "xs", "xz", "ys", "yz"], ["avg"], name="qavg", domain=MS,
                         kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("QLinearConcat", ["ys", "yz", "x", "xs", "xz", "w", "ws", "wz"], ["cat"], name="qcat",
                         domain=MS, axis=1),
        helper.make_node("QLinearSoftmax", ["x", "xs", "xz", "ys2", "yz2"], ["soft"], name="qsoft", domain=MS,
                         axis=-1, opset=13),
    ]
    g = helper.make_graph(
        nodes, "qoperator",
        [helper.make_tensor_value_info("x", TensorProto.UINT8, [1, 2, 4, 4]),
         helper.make_tensor_value_info("w", TensorProto.UINT8, [1, 2, 4, 4])],
        [helper.make_tensor_value_info(n, TensorProto.UINT8, None)
         for n in ["add", "mul", "sig", "lrelu", "gap", "avg", "cat", "soft"]],
        [numpy_helper.from_array(np.array(v), n) for n, v in sq] +
        [numpy_helper.from_array(np.array(np.float32(1 / 256)), "ys2"), numpy_helper.from_array(np.array(np.uint8(0)), "yz2")])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13), helper.make_opsetid(MS, 1)],
                          producer_name="graft")
    m.ir_version = 8
    with open(os.path.join(OUT, "qoperator.onnx"), "wb") as f:
        f.write(m.SerializeToString())
    save("qoperator.x", x)
    save("qoperator.w", w)
    outs = [qz(fx + fw, ys, yz), qz(fx * fw, ys, yz), qz(sg, 1 / 256, 0),
            qz(np.where(fx < 0, fx * np.float32(0.25), fx), ys, yz), qz(fx.mean(axis=(2, 3), keepdims=True, dtype=np.float32), ys, yz),
            qz(ap, ys, yz), qz(np.concatenate([fx, fw], axis=1), ys, yz), qz(sm, 1 / 256, 0)]
    for i, o in enumerate(outs):
        save("qoperator.out%d" % i, o)


def control():
    """If, Loop and Scan: subgraphs seeing the outer scope's values."""
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    c = helper.make_tensor_value_info
    # If on a data condition (both branches, selected by where) and on a constant one
    then_g = helper.make_graph([helper.make_node("Add", ["x", "one"], ["t"])], "then", [], [c("t", F, [2, 3])])
    else_g = helper.make_graph([helper.make_node("Neg", ["x"], ["e"])], "else", [], [c("e", F, [2, 3])])
    # Loop: 3 iterations, carrying a sum of x times the iteration number; the scan output each sum
    body = helper.make_graph([
        helper.make_node("Cast", ["i"], ["fi"], to=TensorProto.FLOAT),
        helper.make_node("Mul", ["x", "fi"], ["xi"]),
        helper.make_node("Add", ["acc", "xi"], ["acc2"]),
        helper.make_node("Identity", ["cond"], ["cond2"]),
        helper.make_node("Identity", ["acc2"], ["scan"]),
    ], "body", [c("i", TensorProto.INT64, []), c("cond", TensorProto.BOOL, []), c("acc", F, [2, 3])],
        [c("cond2", TensorProto.BOOL, []), c("acc2", F, [2, 3]), c("scan", F, [2, 3])])
    # Scan over x's rows: a running sum, and each row doubled
    sbody = helper.make_graph([
        helper.make_node("Add", ["s", "row"], ["s2"]),
        helper.make_node("Add", ["row", "row"], ["dbl"]),
    ], "sbody", [c("s", F, [3]), c("row", F, [3])], [c("s2", F, [3]), c("dbl", F, [3])])
    run("control", [
        helper.make_node("ReduceSum", ["x"], ["tot"], keepdims=0),
        helper.make_node("Greater", ["tot", "ten"], ["big"]),
        helper.make_node("If", ["big"], ["y1"], then_branch=then_g, else_branch=else_g),
        helper.make_node("If", ["no"], ["y2"], then_branch=then_g, else_branch=else_g),
        helper.make_node("Loop", ["three", "", "z23"], ["last", "all"], body=body),
        helper.make_node("Scan", ["zeros", "x"], ["sum", "dbls"], body=sbody, num_scan_inputs=1),
    ], [("x", F, [2, 3])], [("y1", F, None), ("y2", F, None), ("last", F, None), ("all", F, None),
                            ("sum", F, None), ("dbls", F, None)],
        {"x": x},
        [x + 1, -x, 3 * x, np.stack([0 * x, x, 3 * x]), x.sum(axis=0), 2 * x],
        inits=[("one", np.array(1, np.float32)), ("ten", np.array(10, np.float32)), ("no", np.array(False)),
               ("three", np.array(3, np.int64)), ("zeros", np.zeros(3, np.float32)),
               ("z23", np.zeros((2, 3), np.float32))], opset=16, check=False)


for f in [badfields, relu, convs, dense, elementwise, shapes, nn, quantized, unsupported, manynodes, symbolic, dangling, cycle, duplicate, oldopset, opsets18to21, norms, qoperator, control, resizes]:
    f()
