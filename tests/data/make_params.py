#!/usr/bin/env python3
"""make_params.py: writes the parameter files of tests/params.sh.

Standard library only (struct, json), independent of graft's own writer.
Values come from a fixed linear congruential generator, so every run
writes the same bytes.

Usage: make_params.py KIND OUTPUT, KIND one of
  pytorch   %features.0.0_weight float32 (32, 3, 3, 3), %features.0.0_bias float32 (32)
  pytorch_exact  the same, holding tflite's integers times the seed's scales
  tflite    meta[relay.Constant][0] int8 (32, 3, 3, 3), meta[relay.Constant][1] int32 (32)
  badshape  %features.0.0_weight float32 (32, 3, 3, 2)
  extra     the pytorch tensors and one that matches nothing
or: make_params.py compare A B [OLD=NEW ...]: exit 0 if every tensor of A
is in B (renamed OLD=NEW) with the same dtype, shape and bytes.
"""
import json
import struct
import sys


def values(n, lo, hi, seed):
    x = seed
    out = []
    for _ in range(n):
        x = (x * 1103515245 + 12345) % (1 << 31)
        out.append(lo + (x % (hi - lo + 1)))
    return out


def tensor(name, dtype, shape, fmt, vals):
    return (name, dtype, shape, struct.pack("<%d%s" % (len(vals), fmt), *vals))


def pytorch():
    w = [v / 1000.0 for v in values(32 * 3 * 3 * 3, -300, 300, 1)]
    b = [v / 10000.0 for v in values(32, -50, 50, 2)]
    return [tensor("features.0.0_weight", "F32", [32, 3, 3, 3], "f", w),
            tensor("features.0.0_bias", "F32", [32], "f", b)]


def tflite():
    return [tensor("meta[relay.Constant][0]", "I8", [32, 3, 3, 3], "b", values(864, -128, 127, 3)),
            tensor("meta[relay.Constant][1]", "I32", [32], "i", values(32, -1000, 1000, 4))]


def f32(x):
    """x rounded to the nearest float32, as a Python float"""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def pytorch_exact():
    """The tflite constants as PyTorch's frontend leaves them: float weights
    and bias that qnn.quantize with the seed's scales maps back exactly."""
    w = [f32(q * f32(0.00288958)) for q in values(864, -128, 127, 3)]
    b = [f32(q * f32(5.39136e-05)) for q in values(32, -1000, 1000, 4)]
    return [tensor("features.0.0_weight", "F32", [32, 3, 3, 3], "f", w),
            tensor("features.0.0_bias", "F32", [32], "f", b)]


KINDS = {
    "pytorch_exact": pytorch_exact,
    "pytorch": pytorch,
    "tflite": tflite,
    "badshape": lambda: [tensor("features.0.0_weight", "F32", [32, 3, 3, 2], "f", [0.0] * 576)],
    "extra": lambda: pytorch() + [tensor("classifier.1.weight", "F32", [2], "f", [1.0, 2.0])],
}


def write(path, tensors):
    header, data = {}, b""
    for name, dtype, shape, raw in tensors:
        header[name] = {"dtype": dtype, "shape": shape,
                        "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    text = json.dumps(header).encode()
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + data)




def read(path):
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    data = raw[8 + n:]
    out = {}
    for name, t in header.items():
        if name == "__metadata__":
            continue
        b, e = t["data_offsets"]
        out[name] = (t["dtype"], t["shape"], data[b:e])
    return out


def compare(a, b, renames):
    """Exit 0 if every tensor of file a is in file b (under its new name
    from renames OLD=NEW) with the same dtype, shape and bytes."""
    ta, tb = read(a), read(b)
    names = dict(r.split("=", 1) for r in renames)
    for name, t in ta.items():
        other = tb.get(names.get(name, name))
        if other != t:
            print("# %s differs or is missing in %s" % (name, b))
            return 1
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "compare":
        sys.exit(compare(sys.argv[2], sys.argv[3], sys.argv[4:]))
    write(sys.argv[2], KINDS[sys.argv[1]]())
