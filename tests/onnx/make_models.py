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


# ---------------------------------------------------------------- errors

def unsupported():
    model("unsupported", [
        helper.make_node("GridSample", ["x", "g"], ["a"], name="gs1"),
        helper.make_node("Einsum", ["a"], ["b"], name="e0", equation="ij->ij"),
        helper.make_node("GridSample", ["b", "g"], ["c"], name="gs2"),
        helper.make_node("Relu", ["c"], ["y"], name="r"),
    ], [("x", F, [1, 1, 2, 2]), ("g", F, [1, 2, 2, 2])], [("y", F, None)], check=False)


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
    model("opset9", [helper.make_node("Relu", ["x"], ["y"], name="r0")],
          [("x", F, [2])], [("y", F, [2])], opset=9)


for f in [relu, unsupported, symbolic, dangling, cycle, duplicate, oldopset]:
    f()
