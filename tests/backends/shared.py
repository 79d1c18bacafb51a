#!/usr/bin/python3
"""shared.py: a model whose int8 convolutions share the llvm backend's
kernels, for tests/backends.sh.

    python3 tests/backends/shared.py > MODEL.relay

Prints (Relay text, deterministic: Python's random.Random(11) draws the
weights) a @main of six MobileNetV2-like blocks (a 1x1 expand conv, a
3x3 depthwise conv, a 1x1 project conv, each requantized to uint8, the
first two fused into the next one's input buffer), one per input %a,
%b, %c, %d, %f and %g, and a 3x3 stride-2 conv of three channels on %e.
The llvm backend runs convolutions of one kind (taps, strides,
dilation, pixels and channel blocks per step, epilogue, sink) on one
shared kernel that reads the sizes from a descriptor, so blocks of
different sizes share them.  Their widths reach the kernels' edges:
13 and 9 columns (no step divides them: a row's last step overlaps
the one before), 10, 14 and 7 (steps of 5 or 7 pixels, fewer channel
blocks), 3 (fewer than any step); channel counts leave 1 to 3 blocks
of 16 after the steps' blocks, or a partial last block (8, 24, 40, 48,
80, 144).  Requantizes: float32 HALF_TO_EVEN, fixed-point TONEAREST
per tensor and per channel.  Blocks a and b share their three
kernels, f and g theirs: 19 convolutions on 13 kernels.
"""
import random
import sys

from dwconv import const

R = random.Random(11)


class Block:
    """prints the bindings of one block and numbers them"""

    def __init__(self):
        self.n = 0

    def bind(self, expr):
        print("  %%%d = %s;" % (self.n, expr))
        self.n += 1
        return "%%%d" % (self.n - 1)

    def conv(self, x, c, o, k, groups, attrs, xz, rq):
        # weights within 100 of the zero point: w - wz fits in int8, as the dot path needs
        wz = R.randint(100, 150)
        w = const([R.randint(wz - 100, wz + 100) for _ in range(o * (c // groups) * k * k)], [o, c // groups, k, k], "uint8")
        v = self.bind("qnn.conv2d(%s, %s, %d, %d, 0.02f, 0.01f, %sgroups=%d, channels=%d, kernel_size=[%d, %d], "
                      "out_dtype=\"int32\")" % (x, w, xz, wz, attrs, groups, o, k, k))
        v = self.bind("nn.bias_add(%s, %s)" % (v, const([R.randint(-3000, 3000) for _ in range(o)], [o], "int32")))
        if rq == "even":
            return self.bind('qnn.requantize(%s, 0.0002f, 0, 0.05f, %d, rounding="HALF_TO_EVEN", '
                             'compute_dtype="float32", out_dtype="uint8")' % (v, R.randint(0, 20)))
        if rq == "channel":
            sc = const(["%gf" % (0.0001 + 0.00001 * R.randint(0, 40)) for _ in range(o)], [o], "float32")
            return self.bind('qnn.requantize(%s, %s, 0, 0.04f, %d, axis=1, rounding="TONEAREST", out_dtype="uint8")'
                             % (v, sc, R.randint(0, 20)))
        return self.bind('qnn.requantize(%s, 0.00015f, 0, 0.03f, %d, rounding="TONEAREST", out_dtype="uint8")'
                         % (v, R.randint(0, 20)))


def main():
    blocks = [("a", 16, 13, 48, "even"), ("b", 24, 9, 80, "even"), ("c", 8, 3, 24, "channel"),
              ("d", 40, 10, 96, "tensor"), ("f", 32, 7, 64, "tensor"), ("g", 24, 14, 144, "tensor")]
    params = ", ".join("%%%s: Tensor[(1, %d, %d, %d), uint8]" % (name, c, h, h) for name, c, h, _, _ in blocks)
    print("def @main(%s, %%e: Tensor[(1, 3, 20, 20), uint8]) {" % params)
    b = Block()
    outs = []
    for name, c, h, e, rq in blocks:
        x = b.conv("%" + name, c, e, 1, 1, "", 7, rq)
        x = b.conv(x, e, e, 3, e, "padding=[1, 1, 1, 1], ", 9, rq)
        outs.append(b.conv(x, e, c, 1, 1, "", 11, rq))
    outs.append(b.conv("%e", 3, 32, 3, 1, "strides=[2, 2], padding=[1, 1, 1, 1], ", 5, "even"))
    print("  (%s)" % ", ".join(outs))
    print("}")


def big(w0):
    """a 1x1 conv of 256 channels to 256 whose weights (64 KiB, the first
    w0) the JIT reads from graft's memory (a blob), then a requantize"""
    w = [w0] + [R.randint(30, 230) for _ in range(256 * 256 - 1)]
    print("def @main(%a: Tensor[(1, 256, 5, 5), uint8]) {")
    print("  %%0 = qnn.conv2d(%%a, %s, 7, 130, 0.02f, 0.01f, channels=256, kernel_size=[1, 1], out_dtype=\"int32\");"
          % const(w, [256, 256, 1, 1], "uint8"))
    print('  qnn.requantize(%0, 0.0002f, 0, 1f, 128, rounding="HALF_TO_EVEN", compute_dtype="float32", out_dtype="uint8")')
    print("}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--big"]:
        big(int(sys.argv[2]))
    else:
        main()
