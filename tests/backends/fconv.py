#!/usr/bin/python3
"""fconv.py: a model of float32 convolutions of many geometries and of
dense layers, for the llvm backend's float path (tests/backends.sh
compares it with ref bit for bit), and its inputs.

    python3 tests/backends/fconv.py DIR

writes DIR/fconv.relay, whose @main takes %x (1, 3, 9, 11), %y (1, 6, 12,
37), %z (2, 5, 13, 70) and %r (1, 20, 8, 13) and returns one result per
case of CASES, then of DENSES, and DIR/x.npy, y.npy, z.npy, r.npy (tests/backends/npy.py's
values).  The weights and biases are constants of Python's random.Random
(1); some are zero, some negative zero.  Each case: its data, output
channels, kernel, then the attributes and what follows the conv.
"""
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = {"x": (1, 3, 9, 11), "y": (1, 6, 12, 37), "z": (2, 5, 13, 70), "r": (1, 20, 8, 13)}

# name: data, O, (KH, KW), attributes, groups, epilogue
#   epilogue letters: b bias_add, a add %r after it (A: %r first), r relu,
#   c clip(0, 6), C clip(-0.5, 0.25)
CASES = [
    ("3x3 pad 1", "x", 5, (3, 3), "padding=[1, 1, 1, 1]", 1, "br"),
    ("1x1 17 channels", "x", 33, (1, 1), "", 1, "b"),
    ("3x2 strides 2x1 dilation 1x2 asymmetric padding", "x", 20, (3, 2),
     "strides=[2, 1], dilation=[1, 2], padding=[0, 1, 2, 0]", 1, ""),
    ("7x7 stride 2 pad 3", "y", 16, (7, 7), "strides=[2, 2], padding=[3, 3, 3, 3]", 1, "bc"),
    ("depthwise 3x3 stride 2 pad 1", "y", 6, (3, 3), "strides=[2, 2], padding=[1, 1, 1, 1]", 6, "bc"),
    ("depthwise 5x5 dilation 2 asymmetric padding", "y", 6, (5, 5), "dilation=[2, 2], padding=[2, 3, 1, 2]", 6, "r"),
    ("depthwise 3x3 stride 3", "y", 6, (3, 3), "strides=[3, 3], padding=[1, 1, 1, 1]", 6, ""),
    ("depthwise 3x3 70 columns, two images", "z", 5, (3, 3), "padding=[1, 1, 1, 1]", 5, "bC"),
    ("groups 2 (the generic loops)", "y", 4, (3, 3), "padding=[1, 1, 1, 1]", 2, "br"),
    ("1x1 two images stride 2", "z", 19, (1, 1), "strides=[2, 2]", 1, "bC"),
    ("3x3 into a residual add and relu", "y", 20, (3, 3), "strides=[2, 3], padding=[3, 1, 2, 1]", 1, "bar"),
    ("1x1 residual first, no bias, clip", "y", 20, (1, 1), "strides=[2, 3], padding=[2, 0, 1, 0]", 1, "Ac"),
    ("3x3 18 output channels, 70 columns", "z", 18, (3, 3), "padding=[0, 1, 0, 1]", 1, "b"),
    ("1x9: kernel columns in a loop", "z", 3, (1, 9), "strides=[1, 2], padding=[0, 4, 0, 3]", 1, "b"),
]


# nn.dense: data reshaped to (M, K), units N
DENSES = [("x", (1, 297), 70), ("y", (72, 37), 21)]


def flit(x):
    """a float32 literal without an exponent; -0 keeps its sign"""
    if x == 0:
        return "-0f" if str(x).startswith("-") else "0f"
    return ("%.6f" % x).rstrip("0").rstrip(".") + "f"


def nested(shape, vals):
    if len(shape) == 1:
        return "[" + ", ".join(flit(v) for v in vals) + "]"
    step = len(vals) // shape[0]
    return "[" + ", ".join(nested(shape[1:], vals[k * step:(k + 1) * step]) for k in range(shape[0])) + "]"


def floats(rng, n):
    out = []
    for _ in range(n):
        u = rng.random()
        out.append(0.0 if u < 0.05 else -0.0 if u < 0.1 else rng.uniform(-1.5, 1.5))
    return out


def main():
    d = sys.argv[1]
    rng = random.Random(1)
    lines, outs = [], []
    for k, (name, src, o, (kh, kw), attrs, groups, epi) in enumerate(CASES):
        c = INPUTS[src][1]
        w = 'const(%s, dtype="float32")' % nested([o, c // groups, kh, kw], floats(rng, o * c // groups * kh * kw))
        a = ", ".join(s for s in (attrs, "groups=%d" % groups if groups > 1 else "",
                                   "channels=%d" % o, "kernel_size=[%d, %d]" % (kh, kw)) if s)
        lines.append("  // %s" % name)
        v = "%%c%d" % k
        lines.append("  %s = nn.conv2d(%%%s, %s, %s);" % (v, src, w, a))
        for e in epi:
            nv = v + e
            if e == "b":
                rhs = 'nn.bias_add(%s, const(%s, dtype="float32"))' % (v, nested([o], floats(rng, o)))
            elif e in "aA":
                rhs = "add(%s, %%r)" % v if e == "a" else "add(%%r, %s)" % v
            elif e == "r":
                rhs = "nn.relu(%s)" % v
            else:
                rhs = "clip(%s, a_min=%s, a_max=%s)" % ((v, "0f", "6f") if e == "c" else (v, "-0.5f", "0.25f"))
            lines.append("  %s = %s;" % (nv, rhs))
            v = nv
        outs.append(v)
    for k, (src, (m, kk), n) in enumerate(DENSES):
        w = 'const(%s, dtype="float32")' % nested([n, kk], floats(rng, n * kk))
        lines.append("  // dense %d x %d, %d units" % (m, kk, n))
        lines.append("  %%d%d = nn.dense(reshape(%%%s, newshape=[%d, %d]), %s, units=%d);" % (k, src, m, kk, w, n))
        outs.append("%%d%d" % k)
    params = ", ".join("%%%s: Tensor[(%s), float32]" % (n, ", ".join(map(str, s))) for n, s in INPUTS.items())
    with open(os.path.join(d, "fconv.relay"), "w") as f:
        f.write("def @main(%s) {\n%s\n  (%s)\n}\n" % (params, "\n".join(lines), ", ".join(outs)))
    for seed, (n, s) in enumerate(INPUTS.items()):
        subprocess.check_call([sys.executable, os.path.join(HERE, "npy.py"), os.path.join(d, n + ".npy"), "float32",
                               ",".join(map(str, s)), str(seed + 11)])


if __name__ == "__main__":
    main()
