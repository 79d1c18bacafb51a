#!/usr/bin/python3
"""dwconv.py: a model of depthwise qnn.conv2d for tests/backends.sh.

    python3 tests/backends/dwconv.py > MODEL.relay
    python3 tests/backends/dwconv.py --split > MODEL.relay

Prints (Relay text, deterministic: Python's random.Random(7) draws the
weights) a @main of four depthwise convolutions that the llvm backend's
depthwise kernel takes, each geometry chosen to reach one of its edges:
channels that are not a multiple of 16 (one block, several, a partial
last block), output widths that are not a multiple of its 8 pixels,
strides, dilation, asymmetric padding, uint8 and int8 data, per-tensor
and per-channel weight zero points; and after them no epilogue (int32),
a requantize of each rounding graft has (TONEAREST and UPWARD in fixed
point, HALF_TO_EVEN in float32), per tensor and per channel.  The data
are %x (uint8, 1x40x13x13) and %y (int8, 1x33x17x17).

With --split, a model whose loops the llvm backend splits among threads
(graft run --threads): a depthwise conv of %x (uint8, 1x32x48x48), its
requantize, and a residual add of the result and %x in PyTorch's form
(cast, subtract, multiply, add, requantize: 73,728 elements, one fused
loop).
"""
import sys
import random

R = random.Random(7)


def const(vals, shape, dtype):
    """a const(...) literal of the flat vals in shape"""
    def nest(v, s):
        if not s:
            return str(v.pop(0))
        return "[" + ", ".join(nest(v, s[1:]) for _ in range(s[0])) + "]"
    return 'const(%s, dtype="%s")' % (nest(list(vals), shape), dtype)


def weights(c, kh, kw, dtype):
    lo, hi = (-128, 127) if dtype == "int8" else (0, 255)
    return const([R.randint(lo, hi) for _ in range(c * kh * kw)], [c, 1, kh, kw], dtype)


def conv(x, c, kh, kw, xz, wz, wdt, attrs):
    return "qnn.conv2d(%s, %s, %d, %s, 0.1f, 0.02f, %sgroups=%d, channels=%d, kernel_size=[%d, %d], out_dtype=\"int32\")" % (
        x, weights(c, kh, kw, wdt), xz, wz, attrs, c, c, kh, kw)


def bias(c):
    return const([R.randint(-3000, 3000) for _ in range(c)], [c], "int32")


def main():
    print("def @main(%x: Tensor[(1, 40, 13, 13), uint8], %y: Tensor[(1, 33, 17, 17), int8]) {")
    # uint8, 3x3, stride 1, padding 1, per-tensor zero point; float32 requantize
    print("  %%0 = %s;" % conv("%x", 40, 3, 3, 131, "119", "uint8", "padding=[1, 1, 1, 1], "))
    print("  %%1 = nn.bias_add(%%0, %s);" % bias(40))
    print('  %2 = qnn.requantize(%1, 0.002f, 0, 0.05f, 3, rounding="HALF_TO_EVEN", compute_dtype="float32", out_dtype="uint8");')
    # int8, 3x3, stride 2, asymmetric padding, per-channel zero points; TONEAREST per channel
    wz = const([R.randint(-3, 3) for _ in range(33)], [33], "int32")
    print("  %%3 = %s;" % conv("%y", 33, 3, 3, -5, wz, "int8", "strides=[2, 2], padding=[0, 1, 1, 0], "))
    print("  %%4 = nn.bias_add(%%3, %s);" % bias(33))
    sc = const(["%gf" % (0.001 + 0.0001 * R.randint(0, 40)) for _ in range(33)], [33], "float32")
    print('  %%5 = qnn.requantize(%%4, %s, 0, 0.04f, -7, axis=1, rounding="TONEAREST", out_dtype="int8");' % sc)
    # uint8, 5x3, dilation 2, padding 2/1: no epilogue
    print("  %%6 = %s;" % conv("%x", 40, 5, 3, 17, "3", "uint8", "dilation=[2, 2], padding=[2, 1, 2, 1], "))
    # int8, 3x3 stride 1 padding 1, int8 weights with zero point 0; UPWARD
    print("  %%7 = %s;" % conv("%y", 33, 3, 3, 2, "0", "int8", "padding=[1, 1, 1, 1], "))
    print('  %8 = qnn.requantize(%7, 0.0015f, 4, 0.03f, 120, rounding="UPWARD", out_dtype="uint8");')
    print("  (%2, %5, %6, %8)")
    print("}")


def split():
    print("def @main(%x: Tensor[(1, 32, 48, 48), uint8]) {")
    print("  %%0 = %s;" % conv("%x", 32, 3, 3, 128, "120", "uint8", "padding=[1, 1, 1, 1], "))
    print("  %%1 = nn.bias_add(%%0, %s);" % bias(32))
    print('  %2 = qnn.requantize(%1, 0.002f, 0, 0.05f, 3, rounding="HALF_TO_EVEN", compute_dtype="float32", out_dtype="uint8");')
    print('  %3 = multiply(subtract(cast(%2, dtype="int32"), 3), 1234567);')
    print('  %4 = multiply(subtract(cast(%x, dtype="int32"), 128), 2345678);')
    print('  qnn.requantize(add(%3, %4), 1e-08f, 0, 0.04f, 120, rounding="TONEAREST", out_dtype="uint8")')
    print("}")


if __name__ == "__main__":
    split() if sys.argv[1:] == ["--split"] else main()
