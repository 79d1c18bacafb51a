#!/usr/bin/python3
"""qconv.py: the quantized conv network of `make bench`, for graft and for
PyTorch, with the same weights, scales and input.

    /usr/bin/python3 bench/qconv.py OUTDIR [RUNS]

Writes to OUTDIR:
  qconv.relay         LAYERS int8 3x3 qnn.conv2d layers at 56x56x64, batch 1,
                      each with an int32 bias and a requantize to uint8
  qconv.safetensors   their weights and biases (the @main parameters %w<i>
                      and %b<i>)
  input.npy           the uint8 input, (1, 64, 56, 56)
  torch.npy           PyTorch's output for it (its first quantized engine)
  torch.txt           PyTorch's time per inference, single-threaded, one
                      line "torch_ns ENGINE MEDIAN" per quantized engine,
                      medians of RUNS runs (default 20)

Scales are binary fractions, so that the Relay text states them exactly.
PyTorch requantizes in floating point and rounds halves to even where TVM
(and graft) use a Q31 fixed-point multiplier: outputs may differ by one
step.  Only this script uses PyTorch; graft never does.
"""
import json
import os
import struct

import numpy as np
import torch

from torchtime import cmdline, timed

LAYERS = 4
C, H, W = 64, 56, 56
ZP = 3                      # every activation's zero point
WS = 2.0 ** -7              # the weights' scale (symmetric, zero point 0)
# activation scales, alternating so that no requantize ratio is a power of 2
ACT = [0.0625 if i % 2 == 0 else 0.09375 for i in range(LAYERS + 1)]


def fmt(x):
    """a float the Relay text reads back exactly (all are binary fractions)"""
    s = repr(float(x))
    assert float(s) == float(np.float32(x)), x
    return s + "f"


def write_safetensors(path, tensors):
    header, blobs, pos = {}, [], 0
    for name, arr in tensors:
        dt = {np.dtype("int8"): "I8", np.dtype("int32"): "I32"}[arr.dtype]
        b = np.ascontiguousarray(arr).astype(arr.dtype.newbyteorder("<")).tobytes()
        header[name] = {"dtype": dt, "shape": list(arr.shape), "data_offsets": [pos, pos + len(b)]}
        blobs.append(b)
        pos += len(b)
    text = json.dumps(header, sort_keys=True).encode()
    text += b" " * (-(8 + len(text)) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for b in blobs:
            f.write(b)


def relay(weights):
    params = ", ".join(["%%input: Tensor[(1, %d, %d, %d), uint8]" % (C, H, W)] +
                       ["%%w%d: Tensor[(%d, %d, 3, 3), int8], %%b%d: Tensor[(%d), int32]" % (i, C, C, i, C)
                        for i in range(LAYERS)])
    lines = ["// bench/qconv.py: %d int8 3x3 convolutions at %dx%dx%d, batch 1" % (LAYERS, H, W, C),
             "def @main(%s) {" % params]
    cur, k = "%input", 0
    for i in range(LAYERS):
        lines.append("  %%%d = qnn.conv2d(%s, %%w%d, %d, 0, %s, %s, padding=[1, 1, 1, 1], channels=%d, "
                     "kernel_size=[3, 3], out_dtype=\"int32\");" % (k, cur, i, ZP, fmt(ACT[i]), fmt(WS), C))
        lines.append("  %%%d = nn.bias_add(%%%d, %%b%d);" % (k + 1, k, i))
        last = i + 1 == LAYERS
        call = "qnn.requantize(%%%d, %s, 0, %s, %d, out_dtype=\"uint8\")" % (
            k + 1, fmt(ACT[i] * WS), fmt(ACT[i + 1]), ZP)
        lines.append("  " + call if last else "  %%%d = %s;" % (k + 2, call))
        cur, k = "%%%d" % (k + 2), k + 3
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    out, runs = cmdline("qconv.py")
    rng = np.random.default_rng(20261121)
    weights = [(rng.integers(-127, 128, size=(C, C, 3, 3), dtype=np.int8),
                rng.integers(-4000, 4000, size=(C,), dtype=np.int32)) for _ in range(LAYERS)]
    x = rng.integers(0, 256, size=(1, C, H, W), dtype=np.uint8)

    with open(os.path.join(out, "qconv.relay"), "w") as f:
        f.write(relay(weights))
    write_safetensors(os.path.join(out, "qconv.safetensors"),
                      [(n, a) for i, (w, b) in enumerate(weights) for n, a in (("w%d" % i, w), ("b%d" % i, b))])
    np.save(os.path.join(out, "input.npy"), x)

    # every quantized engine this PyTorch has: onednn (x86; it uses AMX or
    # VNNI where the CPU has them) and qnnpack (portable)
    engines = [e for e in ("onednn", "fbgemm", "qnnpack") if e in torch.backends.quantized.supported_engines]
    torch.set_num_threads(1)
    lines = []
    for engine in engines:
        torch.backends.quantized.engine = engine
        layers = []
        for i, (w, b) in enumerate(weights):
            conv = torch.ao.nn.quantized.Conv2d(C, C, 3, padding=1)
            qw = torch.quantize_per_tensor(torch.from_numpy(w.astype(np.float32) * WS), WS, 0, torch.qint8)
            conv.set_weight_bias(qw, torch.from_numpy(b.astype(np.float64) * ACT[i] * WS).float())
            conv.scale, conv.zero_point = ACT[i + 1], ZP
            layers.append(conv)
        net = torch.nn.Sequential(*layers)
        qx = torch.quantize_per_tensor(torch.from_numpy(x.astype(np.float32) - ZP) * ACT[0], ACT[0], ZP,
                                       torch.quint8)
        ns, y = timed(net, qx, runs)
        if engine == engines[0]:
            np.save(os.path.join(out, "torch.npy"), y.int_repr().numpy())
        lines.append("torch_ns %s %d\n" % (engine, ns))
    with open(os.path.join(out, "torch.txt"), "w") as f:
        f.write("".join(lines))

if __name__ == "__main__":
    main()
