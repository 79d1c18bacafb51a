#!/usr/bin/python3
"""make_qnet.py: writes tests/arm/qnet.relay, the quantized network of
tests/arm.sh, with weights from Python's random (seed 7), so that the
file is the same on every run:

    python3 tests/arm/make_qnet.py >tests/arm/qnet.relay

It has what the int8 kernels on Arm's dot product (backends/llvm, "the
dot path") must get right: int8 and uint8 data, a conv whose requantized
result feeds the next conv (16 channels: stored straight into its input
buffer), strides, padding, dilation, a row of pixels not a multiple of 4,
channels not a multiple of 16, per-channel kernel zero points and scales,
TVM's and QNNPACK's requantize, a depthwise conv (the generic loops), and
qnn.dense on int8 and uint8 data with K not a multiple of 4.
"""
import random

random.seed(7)


def const(dims, dtype, lo, hi):
    """const([...], dtype=...) of random integers in [lo, hi]"""
    def nest(d):
        if not d:
            return str(random.randint(lo, hi))
        return "[" + ", ".join(nest(d[1:]) for _ in range(d[0])) + "]"
    return 'const(%s, dtype="%s")' % (nest(dims), dtype)


def fconst(vals):
    return 'const([%s], dtype="float32")' % ", ".join("%gf" % v for v in vals)


lines = [
    "// made by tests/arm/make_qnet.py (python3 tests/arm/make_qnet.py >tests/arm/qnet.relay)",
    "// A quantized network for tests/arm.sh: int8 and uint8 convs, chained, strided, dilated, depthwise, and dense.",
    "def @main(%x: Tensor[(1, 3, 15, 13), float32]) {",
    '  %0 = qnn.quantize(%x, 0.02f, 3, out_dtype="int8");',
    "  %%1 = qnn.conv2d(%%0, %s, 3, 0, 0.02f, 0.01f, padding=[1, 1, 1, 1], channels=16, kernel_size=[3, 3], "
    'out_dtype="int32");' % const([16, 3, 3, 3], "int8", -127, 127),
    "  %%2 = nn.bias_add(%%1, %s);" % const([16], "int32", -3000, 3000),
    '  %3 = qnn.requantize(%2, 0.0002f, 0, 0.05f, -5, out_dtype="int8");',
    "  %%4 = qnn.conv2d(%%3, %s, -5, 0, 0.05f, 0.01f, strides=[2, 2], padding=[1, 1, 1, 1], channels=32, "
    'kernel_size=[3, 3], out_dtype="int32");' % const([32, 16, 3, 3], "int8", -127, 127),
    "  %%5 = nn.bias_add(%%4, %s);" % const([32], "int32", -5000, 5000),
    '  %6 = qnn.requantize(%5, 0.0005f, 0, 0.08f, 120, rounding="HALF_TO_EVEN", compute_dtype="float32", '
    'out_dtype="uint8");',
    "  %%7 = qnn.conv2d(%%6, %s, 120, %s, 0.08f, %s, padding=[2, 1, 2, 1], dilation=[2, 2], channels=20, "
    'kernel_size=[3, 2], out_dtype="int32");' % (
        const([20, 32, 3, 2], "uint8", 70, 190), const([20], "int32", 120, 136),
        fconst([0.004 + 0.0005 * i for i in range(20)])),
    "  %%8 = qnn.requantize(%%7, %s, 0, 0.3f, 7, axis=1, rounding=\"TONEAREST\", out_dtype=\"uint8\");"
    % fconst([0.08 * (0.004 + 0.0005 * i) for i in range(20)]),
    "  %%9 = qnn.conv2d(%%8, %s, 7, 2, 0.3f, 0.02f, padding=[1, 1, 1, 1], groups=20, channels=20, "
    'kernel_size=[3, 3], out_dtype="int32");' % const([20, 1, 3, 3], "int8", -100, 100),
    '  %10 = qnn.requantize(%9, 0.006f, 0, 0.25f, -3, out_dtype="int8");',
    "  %11 = reshape(%10, newshape=[-1, 14]);",
    "  %%12 = qnn.dense(%%11, %s, -3, 1, 0.25f, 0.01f, units=37, out_dtype=\"int32\");"
    % const([37, 14], "int8", -120, 120),
    '  %13 = qnn.requantize(%12, 0.0025f, 0, 0.5f, 0, out_dtype="uint8");',
    "  %14 = reshape(%8, newshape=[-1, 35]);",
    "  %%15 = qnn.dense(%%14, %s, 7, %s, 0.3f, 0.01f, units=21, out_dtype=\"int32\");"
    % (const([21, 35], "uint8", 1, 254), const([21], "int32", 127, 128)),
    "  %16 = qnn.dequantize(%13, 0.5f, 0);",
    "  (%10, %16, %15)",
    "}",
]
print("\n".join(lines))
