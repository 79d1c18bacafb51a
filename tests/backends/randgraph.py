#!/usr/bin/python3
"""randgraph.py: the randomized differential test of graft's backends.

    python3 tests/backends/randgraph.py [--half] --seed S [--keep DIR] [--graft GRAFT]
    python3 tests/backends/randgraph.py [--half] --seeds A-B --graft GRAFT [--keep DIR] [-j N]

Each seed S makes one small random model (Relay text as graft prints it)
and its random inputs (.npy), deterministically: Python's random.Random(S)
drives everything, so the same seed gives the same files on any host.
Odd seeds make integer graphs (qnn.quantize, dequantize, requantize with
TVM's roundings and graft's HALF_TO_EVEN in float32, conv2d, dense, add,
mul, concatenate; bias_add, clip, cast, add, subtract, multiply, relu,
pools, pad, data movement and mean on int8/uint8/int16/int32), even
seeds float32 graphs (conv2d, dense, softmax, sigmoid, tanh, exp, mean,
pools, add, multiply, divide, float -> int casts with NaN, infinities
and out-of-range values); then one to three of sum, max, min, prod,
argmax, argmin, comparisons into where, sign and round, drawn from a
random stream of their own so that the ops before them are what the
seed always made.  With --half every seed makes a float graph of
float16 instead (the same ops, float16 literals and constants), and
its float16 results must equal ref's bit for bit.  Shapes are small (a
few hundred elements at most) so that the test is quick under ASan.

With --graft, the model runs on the ref, c and llvm backends through
`graft run`, and each of c and llvm is compared with ref: integer results
bit for bit, float results within |a - b| <= 1e-5 max(|a|, |b|) + 1e-6
(the c and llvm backends may sum reductions in another order; NaN equals
NaN).  One line per model and backend pair:

    ok<TAB>DESCRIPTION          or          not ok<TAB>DESCRIPTION
    #   details (the seed, the model, the first differing element)

--keep DIR keeps the model (DIR/SEED/model.relay), its inputs and all
results; without it they go to a temporary directory that is removed.
With --seed and no --graft, it only writes the files (into DIR) and
prints the model.

What the generator avoids, as undefined by design: integer division (by
zero, MIN / -1), float math that overflows to different infinities, NaN
flowing into anything but a cast, and integer averages over 128 taps or
more (TVM casts the count to the data's dtype; see docs/backends.md).
"""
import os
import random
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import npy  # noqa: E402

INTS = ("int8", "uint8", "int16", "int32")
QDT = ("int8", "uint8")
RANGE = {"int8": (-128, 127), "uint8": (0, 255), "int16": (-32768, 32767),
         "int32": (-2 ** 31, 2 ** 31 - 1)}
SUFFIX = {"int8": "i8", "uint8": "u8", "int16": "i16", "int32": ""}


def count(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def fmt_shape(shape):
    if len(shape) == 1:
        return "(%d)" % shape[0]
    return "(" + ", ".join(str(d) for d in shape) + ")"


def flit(x):
    """a float32 literal in Relay text, without an exponent"""
    s = ("%.6f" % x).rstrip("0").rstrip(".")
    return (s if s not in ("", "-", "-0") else "0") + "f"


def ilist(v):
    return "[" + ", ".join(str(x) for x in v) + "]"


def nested(shape, vals, lit):
    if not shape:
        return lit(vals[0])
    step = count(shape[1:])
    return "[" + ", ".join(nested(shape[1:], vals[k * step:(k + 1) * step], lit) for k in range(shape[0])) + "]"


class Val:
    """a value of the model: its name, shape and dtype"""

    def __init__(self, name, shape, dtype):
        self.name, self.shape, self.dtype = name, list(shape), dtype
        self.uses = 0


class Gen:
    """one random model"""

    def __init__(self, seed, half=False):
        self.rng = random.Random(seed)
        self.seed = seed
        self.half = half
        self.F = "float16" if half else "float32"      # the float graphs' dtype
        self.params = []        # (Val, values)
        self.lines = []
        self.vals = []
        self.n = 0
        self.ops = []           # op names, for the report

    # -------------------------------------------------------------- building blocks
    def choice(self, seq):
        return self.rng.choice(list(seq))

    def rint(self, a, b):
        return self.rng.randint(a, b)

    def scale(self):
        return self.choice((0.5, 0.25, 0.1, 0.05, 0.02, 0.0078125, 1.0, 2.0)) * self.rng.uniform(0.6, 1.6)

    def zp(self, dt):
        return {"int8": self.rint(-10, 10), "uint8": self.rint(110, 140)}.get(dt, self.rint(-5, 5))

    def lit(self, x):
        """a literal of the float graphs' dtype"""
        return flit(x) + ("16" if self.half else "")

    def input(self, shape, dtype, lo=None, hi=None):
        name = "%%p%d" % len(self.params)
        if dtype in ("float32", "float16"):
            lo = -2.0 if lo is None else lo
            hi = 2.0 if hi is None else hi
            vals = [self.rng.uniform(lo, hi) for _ in range(count(shape))]
        else:
            rlo, rhi = RANGE[dtype]
            if lo is None:
                lo, hi = (rlo, rhi) if dtype != "int32" else (-3000, 3000)
                if dtype == "int32" and self.rng.random() < 0.3:
                    lo, hi = rlo, rhi
            vals = [self.rint(lo, hi) for _ in range(count(shape))]
        v = Val(name, shape, dtype)
        self.params.append((v, vals))
        self.vals.append(v)
        return v

    def emit(self, text, shape, dtype, op, pool=True):
        name = "%%%d" % self.n
        self.n += 1
        self.lines.append("  %s = %s;" % (name, text))
        v = Val(name, shape, dtype)
        if pool:
            self.vals.append(v)
        self.ops.append(op)
        return v

    def use(self, v):
        v.uses += 1
        return v.name

    def const_ints(self, shape, dtype, lo, hi):
        vals = [self.rint(lo, hi) for _ in range(count(shape))]
        return 'const(%s, dtype="%s")' % (nested(shape, vals, str), dtype)

    def const_floats(self, shape, lo, hi):
        vals = [round(self.rng.uniform(lo, hi), 3) for _ in range(count(shape))]
        return 'const(%s, dtype="%s")' % (nested(shape, vals, self.lit), self.F)

    def pick(self, pred):
        c = [v for v in self.vals if pred(v)]
        if not c:
            return None
        # prefer values nobody uses yet, so that the graph is a chain more than a fan
        fresh = [v for v in c if v.uses == 0]
        return self.choice(fresh if fresh and self.rng.random() < 0.8 else c)

    def bshape(self, shape):
        """a shape that broadcasts against shape"""
        s = [d if self.rng.random() < 0.6 else 1 for d in shape]
        drop = self.rint(0, len(s)) if self.rng.random() < 0.4 else 0
        return s[drop:] or [1]

    def other(self, a, dtype=None, lo=None, hi=None):
        """a second operand for a broadcasting binary op with a"""
        dtype = dtype or a.dtype
        r = self.rng.random()
        if r < 0.3:
            b = self.pick(lambda v: v is not a and v.shape == a.shape and v.dtype == dtype)
            if b:
                return b
        return self.input(self.bshape(a.shape), dtype, lo, hi)

    # -------------------------------------------------------------- integer ops
    def op_quantize(self):
        x = self.pick(lambda v: v.dtype == "float32")
        if not x:
            x = self.input([self.rint(1, 3), self.rint(2, 5), self.rint(2, 5)], "float32", -4.0, 4.0)
        dt = self.choice(QDT + ("int16",) if self.rng.random() < 0.2 else QDT)
        if len(x.shape) >= 2 and self.rng.random() < 0.4:
            c = x.shape[1]
            s = 'const(%s, dtype="float32")' % ilist([flit(self.scale()) for _ in range(c)])
            z = self.const_ints([c], "int32", *( (-5, 5) if dt != "uint8" else (120, 135)))
            return self.emit('qnn.quantize(%s, %s, %s, out_dtype="%s", axis=1)' % (self.use(x), s, z, dt),
                             x.shape, dt, "qnn.quantize per-channel")
        return self.emit('qnn.quantize(%s, %s, %d, out_dtype="%s")' % (self.use(x), flit(self.scale()), self.zp(dt), dt),
                         x.shape, dt, "qnn.quantize")

    def op_dequantize(self):
        x = self.pick(lambda v: v.dtype in QDT + ("int32",))
        if not x:
            return None
        if len(x.shape) >= 2 and self.rng.random() < 0.4:
            c = x.shape[1]
            s = 'const(%s, dtype="float32")' % ilist([flit(self.scale()) for _ in range(c)])
            z = self.const_ints([c], "int32", -5, 5)
            return self.emit("qnn.dequantize(%s, %s, %s, axis=1)" % (self.use(x), s, z), x.shape, "float32",
                             "qnn.dequantize per-channel")
        return self.emit("qnn.dequantize(%s, %s, %d)" % (self.use(x), flit(self.scale()), self.zp(x.dtype)),
                         x.shape, "float32", "qnn.dequantize")

    def op_requantize(self):
        x = self.pick(lambda v: v.dtype in INTS)
        if not x:
            return None
        out = self.choice(("int8", "uint8", "int32", "int16"))
        rnd = self.choice(("UPWARD", "TONEAREST", None, "HALF_TO_EVEN"))
        attrs = ""
        iscale = flit(self.scale() * (0.05 if x.dtype == "int32" else 1))
        if len(x.shape) >= 2 and self.rng.random() < 0.4:
            c = x.shape[1]
            iscale = 'const(%s, dtype="float32")' % ilist(
                [flit(self.scale() * (0.05 if x.dtype == "int32" else 1)) for _ in range(c)])
            attrs += ", axis=1"
        if rnd:
            attrs += ', rounding="%s"' % rnd
        if rnd == "HALF_TO_EVEN":
            attrs += ', compute_dtype="float32"'    # graft's: QNNPACK's float32 requantization
        attrs += ', out_dtype="%s"' % out
        iz = self.zp(x.dtype) if x.dtype != "int32" else self.rint(-3, 3)
        return self.emit("qnn.requantize(%s, %s, %d, %s, %d%s)" % (self.use(x), iscale, iz, flit(self.scale()),
                                                                   self.zp(out), attrs),
                         x.shape, out, "qnn.requantize" + (" per-channel" if "axis" in attrs else "") + " " + str(rnd))

    def conv_geom(self, x4, nhwc):
        n, c, h, w = (x4[0], x4[3], x4[1], x4[2]) if nhwc else x4
        kh, kw = self.rint(1, 3), self.rint(1, 3)
        sh, sw = self.rint(1, 2), self.rint(1, 2)
        dh, dw = (self.rint(1, 2), self.rint(1, 2)) if self.rng.random() < 0.3 else (1, 1)
        pad = [self.rint(0, 1) for _ in range(4)] if self.rng.random() < 0.6 else [0, 0, 0, 0]
        oh = (h + pad[0] + pad[2] - (kh - 1) * dh - 1) // sh + 1
        ow = (w + pad[1] + pad[3] - (kw - 1) * dw - 1) // sw + 1
        if oh < 1 or ow < 1:
            kh = kw = 1
            dh = dw = 1
            oh = (h + pad[0] + pad[2] - 1) // sh + 1
            ow = (w + pad[1] + pad[3] - 1) // sw + 1
        r = self.rng.random()
        if r < 0.25 and c > 1:
            groups = c                                  # depthwise
            oc = c * self.choice((1, 2))
        elif r < 0.4 and c % 2 == 0:
            groups = 2
            oc = 2 * self.rint(1, 3)
        else:
            groups = 1
            oc = self.rint(1, 6)
        attrs = ""
        if (sh, sw) != (1, 1):
            attrs += ", strides=[%d, %d]" % (sh, sw)
        if pad != [0, 0, 0, 0]:
            attrs += ", padding=%s" % ilist(pad)
        if (dh, dw) != (1, 1):
            attrs += ", dilation=[%d, %d]" % (dh, dw)
        if groups != 1:
            attrs += ", groups=%d" % groups
        attrs += ", channels=%d, kernel_size=[%d, %d]" % (oc, kh, kw)
        if nhwc:
            attrs += ', data_layout="NHWC", kernel_layout="HWIO"'
            wshape = [kh, kw, c // groups, oc]
            oshape = [n, oh, ow, oc]
        else:
            wshape = [oc, c // groups, kh, kw]
            oshape = [n, oc, oh, ow]
        desc = "%s k%dx%d s%dx%d d%dx%d g%d" % ("NHWC" if nhwc else "NCHW", kh, kw, sh, sw, dh, dw, groups)
        return attrs, wshape, oshape, oc, desc

    def small4(self, dtype, lo=None, hi=None):
        c = self.choice((1, 2, 3, 4, 4, 6))
        return self.input([1, c, self.rint(3, 7), self.rint(3, 7)] if self.rng.random() < 0.5
                          else [1, self.rint(3, 7), self.rint(3, 7), c], dtype, lo, hi)

    def op_qconv2d(self):
        x = self.pick(lambda v: v.dtype in QDT and len(v.shape) == 4 and count(v.shape) <= 400)
        if not x:
            x = self.small4(self.choice(QDT))
        nhwc = self.rng.random() < 0.5
        attrs, wshape, oshape, oc, desc = self.conv_geom(x.shape, nhwc)
        wdt = "int8"
        w = self.const_ints(wshape, wdt, -128, 127)
        r = self.rng.random()
        kz = str(self.rint(-4, 4)) if r < 0.6 else self.const_ints([oc], "int32", -3, 3)
        ks = flit(self.scale()) if r < 0.6 else 'const(%s, dtype="float32")' % ilist(
            [flit(self.scale()) for _ in range(oc)])
        return self.emit('qnn.conv2d(%s, %s, %d, %s, %s, %s%s, out_dtype="int32")' % (
            self.use(x), w, self.zp(x.dtype), kz, flit(self.scale()), ks, attrs), oshape, "int32",
            "qnn.conv2d " + desc)

    def op_qdense(self):
        x = self.pick(lambda v: v.dtype in QDT and len(v.shape) == 2 and v.shape[1] <= 64)
        if not x:
            x = self.input([self.rint(1, 4), self.rint(1, 24)], self.choice(QDT))
        units = self.rint(1, 8)
        w = self.const_ints([units, x.shape[1]], "int8", -128, 127)
        kz = str(self.rint(-4, 4)) if self.rng.random() < 0.7 else self.const_ints([units], "int32", -3, 3)
        return self.emit('qnn.dense(%s, %s, %d, %s, %s, %s, units=%d, out_dtype="int32")' % (
            self.use(x), w, self.zp(x.dtype), kz, flit(self.scale()), flit(self.scale()), units),
            [x.shape[0], units], "int32", "qnn.dense")

    def op_qbinary(self):
        a = self.pick(lambda v: v.dtype in QDT)
        if not a:
            return None
        b = self.other(a)
        if self.rng.random() < 0.3:
            a, b = b, a
        shape = bshape_of(a.shape, b.shape)
        op = self.choice(("qnn.add", "qnn.mul"))
        dt = a.dtype
        return self.emit("%s(%s, %s, %s, %d, %s, %d, %s, %d)" % (
            op, self.use(a), self.use(b), flit(self.scale()), self.zp(dt), flit(self.scale()), self.zp(dt),
            flit(self.scale()), self.zp(dt)), shape, dt, op)

    def op_qconcat(self):
        a = self.pick(lambda v: v.dtype in QDT)
        if not a:
            return None
        ax = self.rint(0, len(a.shape) - 1)
        s = list(a.shape)
        s[ax] = self.rint(1, 3)
        b = self.input(s, a.dtype)
        params = [(flit(self.scale()), self.zp(a.dtype)) for _ in range(3)]
        if self.rng.random() < 0.3:
            params[0] = params[2]
        out = list(a.shape)
        out[ax] += s[ax]
        return self.emit("qnn.concatenate((%s, %s), (%s, %s), (%d, %d), %s, %d, axis=%d)" % (
            self.use(a), self.use(b), params[0][0], params[1][0], params[0][1], params[1][1], params[2][0],
            params[2][1], ax), out, a.dtype, "qnn.concatenate")

    def op_bias_add(self):
        x = self.pick(lambda v: len(v.shape) >= 2 and v.dtype in ("int32", self.F))
        if not x:
            return None
        ax = 1 if self.rng.random() < 0.7 else len(x.shape) - 1
        c = x.shape[ax]
        b = self.const_ints([c], "int32", -500, 500) if x.dtype == "int32" else self.const_floats([c], -1, 1)
        return self.emit("nn.bias_add(%s, %s%s)" % (self.use(x), b, "" if ax == 1 else ", axis=%d" % ax),
                         x.shape, x.dtype, "nn.bias_add")

    def op_clip(self):
        x = self.pick(lambda v: True)
        if x.dtype == self.F:
            lo, hi = self.rng.uniform(-2, 0), self.rng.uniform(0, 2)
        else:
            a, b = RANGE[x.dtype] if x.dtype != "int32" else (-3000, 3000)
            lo, hi = self.rng.uniform(a, (a + b) / 2), self.rng.uniform((a + b) / 2, b)
            if self.rng.random() < 0.2:
                # bounds that truncate toward zero to the dtype's (TVM refuses a
                # negative bound on an unsigned dtype: MakeConstScalar)
                lo, hi = a - 0.9 if a < 0 else a + 0.5, b + 0.9
        return self.emit("clip(%s, a_min=%s, a_max=%s)" % (self.use(x), flit(lo), flit(hi)), x.shape, x.dtype, "clip")

    def op_cast(self):
        x = self.pick(lambda v: v.dtype in INTS)
        if not x:
            return None
        dt = self.choice(INTS + ("float32",) if self.rng.random() < 0.2 else INTS)
        return self.emit('cast(%s, dtype="%s")' % (self.use(x), dt), x.shape, dt, "cast %s->%s" % (x.dtype, dt))

    def op_arith(self):
        a = self.pick(lambda v: v.dtype in ("int8", "int16", "int32"))
        if not a:
            return None
        b = self.other(a)
        if self.rng.random() < 0.3:
            a, b = b, a
        op = self.choice(("add", "subtract", "multiply"))
        return self.emit("%s(%s, %s)" % (op, self.use(a), self.use(b)), bshape_of(a.shape, b.shape), a.dtype,
                         "%s %s" % (op, a.dtype))

    def op_relu(self):
        x = self.pick(lambda v: v.dtype != "uint8")
        if not x:
            return None
        return self.emit("nn.relu(%s)" % self.use(x), x.shape, x.dtype, "nn.relu")

    def layout_of(self, v):
        # 4-d values: NHWC when the last dim looks like channels, chosen at random otherwise
        return self.choice(("NCHW", "NHWC"))

    def op_pool(self):
        ok = ("int32", "int8", self.F)
        x = self.pick(lambda v: len(v.shape) == 4 and v.dtype in ok and v.shape[1] * v.shape[2] * v.shape[3] <= 600)
        if not x:
            return None
        lay = self.layout_of(x)
        hp, wp = (2, 3) if lay == "NCHW" else (1, 2)
        H, W = x.shape[hp], x.shape[wp]
        op = self.choice(("nn.max_pool2d", "nn.avg_pool2d", "nn.global_avg_pool2d"))
        la = "" if lay == "NCHW" else ', layout="NHWC"'
        out = list(x.shape)
        if op == "nn.global_avg_pool2d":
            if H * W >= 128:
                return None
            out[hp] = out[wp] = 1
            return self.emit("%s(%s%s)" % (op, self.use(x), la), out, x.dtype, "%s %s %s" % (op, lay, x.dtype))
        ph, pw = self.rint(1, min(3, H)), self.rint(1, min(3, W))
        sh, sw = self.rint(1, 2), self.rint(1, 2)
        pad = [self.rint(0, min(1, ph - 1)), self.rint(0, min(1, pw - 1)), self.rint(0, min(1, ph - 1)),
               self.rint(0, min(1, pw - 1))]
        attrs = ", pool_size=[%d, %d]" % (ph, pw)
        if (sh, sw) != (1, 1):
            attrs += ", strides=[%d, %d]" % (sh, sw)
        if pad != [0, 0, 0, 0]:
            attrs += ", padding=%s" % ilist(pad)
        attrs += la
        incl = op == "nn.avg_pool2d" and self.rng.random() < 0.5
        if incl:
            attrs += ", count_include_pad=True"
        out[hp] = (H + pad[0] + pad[2] - ph) // sh + 1
        out[wp] = (W + pad[1] + pad[3] - pw) // sw + 1
        return self.emit("%s(%s%s)" % (op, self.use(x), attrs), out, x.dtype,
                         "%s %s %s p%dx%d s%dx%d pad%s%s" % (op, lay, x.dtype, ph, pw, sh, sw, pad,
                                                            " incl" if incl else ""))

    def op_pad(self):
        x = self.pick(lambda v: count(v.shape) <= 300)
        if not x:
            return None
        pw = [[self.rint(0, 1), self.rint(0, 2)] if self.rng.random() < 0.6 else [0, 0] for _ in x.shape]
        if x.dtype == self.F:
            pv = self.lit(self.rng.uniform(-1, 1))
        else:
            lo, hi = RANGE[x.dtype]
            pv = "%d%s" % (self.rint(max(lo, -100), min(hi, 100)), SUFFIX[x.dtype])
        out = [d + a + b for d, (a, b) in zip(x.shape, pw)]
        return self.emit("nn.pad(%s, %s, pad_width=%s)" % (self.use(x), pv, "[" + ", ".join(ilist(p) for p in pw) + "]"),
                         out, x.dtype, "nn.pad")

    def op_reshape(self):
        x = self.pick(lambda v: True)
        n = count(x.shape)
        dims = []
        m = n
        while m > 1 and len(dims) < 3:
            ds = [d for d in range(2, m + 1) if m % d == 0]
            d = self.choice(ds)
            dims.append(d)
            m //= d
        if m > 1:
            dims.append(m)
        if not dims:
            dims = [1]
        self.rng.shuffle(dims)
        return self.emit("reshape(%s, newshape=%s)" % (self.use(x), ilist(dims)), dims, x.dtype, "reshape")

    def op_transpose(self):
        x = self.pick(lambda v: len(v.shape) >= 2)
        if not x:
            return None
        axes = list(range(len(x.shape)))
        self.rng.shuffle(axes)
        return self.emit("transpose(%s, axes=%s)" % (self.use(x), ilist(axes)), [x.shape[a] for a in axes], x.dtype,
                         "transpose")

    def op_concat(self):
        a = self.pick(lambda v: True)
        ax = self.rint(0, len(a.shape) - 1)
        s = list(a.shape)
        s[ax] = self.rint(1, 3)
        b = self.input(s, a.dtype)
        out = list(a.shape)
        out[ax] += s[ax]
        vs = [a, b] if self.rng.random() < 0.5 else [b, a]
        return self.emit("concatenate((%s, %s), axis=%d)" % (self.use(vs[0]), self.use(vs[1]), ax), out, a.dtype,
                         "concatenate")

    def op_split(self):
        x = self.pick(lambda v: len(v.shape) > 0 and max(v.shape) >= 2)
        if not x:
            return None
        axs = [k for k, d in enumerate(x.shape) if d >= 2]
        ax = self.choice(axs)
        d = x.shape[ax]
        secs = [k for k in range(2, d + 1) if d % k == 0]
        if self.rng.random() < 0.5:
            n = self.choice(secs)
            ind = str(n)
            bounds = [d // n * k for k in range(n + 1)]
        else:
            cut = sorted(set(self.rint(1, d - 1) for _ in range(self.rint(1, 2))))
            ind = ilist(cut)
            bounds = [0] + cut + [d]
        t = self.emit("split(%s, indices_or_sections=%s, axis=%d)" % (self.use(x), ind, ax), [], x.dtype, "split",
                      pool=False)
        k = self.rint(0, len(bounds) - 2)
        s = list(x.shape)
        s[ax] = bounds[k + 1] - bounds[k]
        return self.emit("%s.%d" % (t.name, k), s, x.dtype, "tuple_get_item")

    def op_squeeze(self):
        x = self.pick(lambda v: 1 in v.shape and len(v.shape) >= 2)
        if not x:
            return None
        ones = [k for k, d in enumerate(x.shape) if d == 1]
        if self.rng.random() < 0.3 and len(ones) < len(x.shape):
            return self.emit("squeeze(%s)" % self.use(x), [d for d in x.shape if d != 1], x.dtype, "squeeze")
        k = self.choice(ones)
        return self.emit("squeeze(%s, axis=[%d])" % (self.use(x), k), x.shape[:k] + x.shape[k + 1:], x.dtype,
                         "squeeze")

    def op_expand_dims(self):
        x = self.pick(lambda v: len(v.shape) <= 3)
        if not x:
            return None
        k = self.rint(0, len(x.shape))
        return self.emit("expand_dims(%s, axis=%d)" % (self.use(x), k), x.shape[:k] + [1] + x.shape[k:], x.dtype,
                         "expand_dims")

    def op_slice(self):
        x = self.pick(lambda v: len(v.shape) > 0 and max(v.shape) >= 2)
        if not x:
            return None
        b, e, s, out = [], [], [], []
        for d in x.shape:
            lo = self.rint(0, d - 1)
            hi = self.rint(lo + 1, d)
            st = self.choice((1, 1, 2))
            b.append(lo), e.append(hi), s.append(st)
            out.append((hi - lo + st - 1) // st)
        return self.emit("strided_slice(%s, begin=%s, end=%s, strides=%s, axes=None)" % (
            self.use(x), ilist(b), ilist(e), ilist(s)), out, x.dtype, "strided_slice")

    def reduction(self, x, admit, scalar):
        """random axes of x to reduce: None if admit(reduced dims) says no,
        else (the result's shape, the attributes as Relay text); a result
        of rank 0 only if scalar"""
        r = len(x.shape)
        axes = sorted(set(self.rint(0, r - 1) for _ in range(self.rint(1, r))))
        excl = self.rng.random() < 0.2
        red = [k for k in range(r) if (k in axes) != excl]
        if not admit([x.shape[k] for k in red]):
            return None
        keep = self.rng.random() < 0.3 or (not scalar and len(red) == r)
        out = [(1 if k in red else d) for k, d in enumerate(x.shape)] if keep else \
              [d for k, d in enumerate(x.shape) if k not in red]
        attrs = ", axis=%s" % ilist(axes)
        if keep:
            attrs += ", keepdims=True"
        if excl:
            attrs += ", exclude=True"
        return out, attrs

    def op_mean(self):
        x = self.pick(lambda v: v.dtype in ("int8", "int16", "int32", "uint8", self.F) and v.shape)
        # integer averages over 128 taps or more are undefined (the count cast to the dtype)
        got = self.reduction(x, lambda d: x.dtype == self.F or count(d) < 128, True)
        if not got:
            return None
        return self.emit("mean(%s%s)" % (self.use(x), got[1]), got[0], x.dtype, "mean %s" % x.dtype)

    def op_reduce(self):
        x = self.pick(lambda v: v.dtype in ("int8", "int16", "int32", "uint8", self.F) and v.shape)
        if not x:
            return None
        op = self.choice(("sum", "max", "min", "prod", "argmax", "argmin"))
        # products of many floats overflow to infinities; a reduction of
        # every axis keeps them (the other ops want an axis)
        got = self.reduction(x, lambda d: op != "prod" or count(d) <= 8, False)
        if not got:
            return None
        out, attrs = got
        if op.startswith("arg") and self.rng.random() < 0.3:
            attrs += ", select_last_index=True"
        dt = "int32" if op.startswith("arg") else x.dtype
        return self.emit("%s(%s%s)" % (op, self.use(x), attrs), out, dt, "%s %s" % (op, x.dtype))

    def op_compare(self):
        a = self.pick(lambda v: v.dtype in ("int8", "int16", "int32", "uint8", self.F))
        if not a:
            return None
        b = self.other(a)
        op = self.choice(("equal", "not_equal", "less", "less_equal", "greater", "greater_equal"))
        cond = "%s(%s, %s)" % (op, self.use(a), self.use(b))
        if self.rng.random() < 0.3:
            cond = "logical_not(%s)" % cond
        return self.emit("where(%s, %s, %s)" % (cond, a.name, b.name), bshape_of(a.shape, b.shape), a.dtype,
                         "where %s %s" % (op, a.dtype))

    def op_sign(self):
        x = self.pick(lambda v: v.dtype in ("int8", "int16", "int32", self.F))
        if not x:
            return None
        op = self.choice(("sign", "round")) if x.dtype == self.F else "sign"
        return self.emit("%s(%s)" % (op, self.use(x)), x.shape, x.dtype, "%s %s" % (op, x.dtype))

    # -------------------------------------------------------------- float ops
    def op_fconv2d(self):
        x = self.pick(lambda v: v.dtype == self.F and len(v.shape) == 4 and count(v.shape) <= 400)
        if not x:
            x = self.small4(self.F)
        nhwc = self.rng.random() < 0.5
        attrs, wshape, oshape, oc, desc = self.conv_geom(x.shape, nhwc)
        w = self.const_floats(wshape, -0.5, 0.5)
        return self.emit("nn.conv2d(%s, %s%s)" % (self.use(x), w, attrs), oshape, self.F, "nn.conv2d " + desc)

    def op_fdense(self):
        x = self.pick(lambda v: v.dtype == self.F and len(v.shape) == 2 and v.shape[1] <= 64)
        if not x:
            x = self.input([self.rint(1, 4), self.rint(1, 24)], self.F)
        units = self.rint(1, 8)
        w = self.const_floats([units, x.shape[1]], -0.5, 0.5)
        return self.emit("nn.dense(%s, %s, units=%d)" % (self.use(x), w, units), [x.shape[0], units], self.F,
                         "nn.dense")

    def op_fmath(self):
        x = self.pick(lambda v: v.dtype == self.F)
        if not x:
            return None
        op = self.choice(("nn.softmax", "sigmoid", "tanh", "exp"))
        if op == "nn.softmax" and not x.shape:
            op = "sigmoid"      # a scalar has no axis
        if op == "nn.softmax":
            ax = self.rint(-1, len(x.shape) - 1)
            return self.emit("nn.softmax(%s%s)" % (self.use(x), "" if ax == -1 else ", axis=%d" % ax), x.shape,
                             self.F, op)
        if op == "exp":
            # keep exp far from overflow: squash first
            t = self.emit("tanh(%s)" % self.use(x), x.shape, self.F, "tanh", pool=False)
            return self.emit("exp(%s)" % t.name, x.shape, self.F, "exp")
        return self.emit("%s(%s)" % (op, self.use(x)), x.shape, self.F, op)

    def op_farith(self):
        a = self.pick(lambda v: v.dtype == self.F)
        if not a:
            return None
        op = self.choice(("add", "subtract", "multiply", "divide"))
        if op == "divide":
            # the divisor away from zero: a fresh input in [0.5, 2] times a sign
            b = self.input(self.bshape(a.shape), self.F, *((0.5, 2.0) if self.rng.random() < 0.5 else (-2.0, -0.5)))
        else:
            b = self.other(a)
        if op != "divide" and self.rng.random() < 0.3:
            a, b = b, a
        return self.emit("%s(%s, %s)" % (op, self.use(a), self.use(b)), bshape_of(a.shape, b.shape), self.F, op)

    def op_f2i(self):
        """float -> int casts of in-range, out-of-range, infinite and NaN values"""
        x = self.pick(lambda v: v.dtype == self.F)
        if not x:
            return None
        dt = self.choice(INTS)
        big = self.choice(("1000", "60000") if self.half else ("1000", "100000", "10000000000"))
        big = big + ("f16" if self.half else "f")
        m = self.emit("multiply(%s, %s)" % (self.use(x), big), x.shape, self.F, "multiply", pool=False)
        if self.rng.random() < 0.5:
            # x / (x * 0): +-inf; inf - inf: NaN
            z = self.emit("multiply(%s, %s)" % (x.name, self.lit(0)), x.shape, self.F, "multiply", pool=False)
            q = self.emit("divide(%s, %s)" % (x.name, z.name), x.shape, self.F, "divide", pool=False)
            nan = self.emit("subtract(%s, %s)" % (q.name, q.name), x.shape, self.F, "subtract", pool=False)
            ax = self.rint(0, len(x.shape) - 1)
            out = list(x.shape)
            out[ax] *= 3
            m = self.emit("concatenate((%s, %s, %s), axis=%d)" % (m.name, q.name, nan.name, ax), out, self.F,
                          "concatenate", pool=False)
        return self.emit('cast(%s, dtype="%s")' % (m.name, dt), m.shape, dt, "cast %s->%s (saturating)" % (self.F, dt))

    def op_fcast(self):
        x = self.pick(lambda v: v.dtype == self.F)
        if not x:
            return None
        dt = self.choice(INTS)
        return self.emit('cast(%s, dtype="%s")' % (self.use(x), dt), x.shape, dt, "cast %s->%s" % (self.F, dt))

    # -------------------------------------------------------------- models
    def make(self):
        integer = self.seed % 2 == 1 and not self.half
        if integer:
            for _ in range(self.rint(1, 2)):
                k = self.rng.random()
                if k < 0.5:
                    self.small4(self.choice(QDT + ("int32", "int8")))
                elif k < 0.7:
                    self.input([self.rint(1, 4), self.rint(2, 16)], self.choice(QDT))
                elif k < 0.85:
                    self.input([self.rint(1, 3), self.rint(2, 5), self.rint(2, 6)], self.choice(INTS))
                else:
                    self.input([self.rint(1, 3), self.rint(2, 4), self.rint(2, 6)], self.F, -3.0, 3.0)
            table = [(self.op_quantize, 2), (self.op_dequantize, 1), (self.op_requantize, 4), (self.op_qconv2d, 4),
                     (self.op_qdense, 2), (self.op_qbinary, 3), (self.op_qconcat, 2), (self.op_bias_add, 2),
                     (self.op_clip, 2), (self.op_cast, 2), (self.op_arith, 3), (self.op_relu, 1), (self.op_pool, 4),
                     (self.op_pad, 2), (self.op_reshape, 1), (self.op_transpose, 1), (self.op_concat, 1),
                     (self.op_split, 1), (self.op_squeeze, 1), (self.op_expand_dims, 1), (self.op_slice, 1),
                     (self.op_mean, 3)]
        else:
            for _ in range(self.rint(1, 2)):
                if self.rng.random() < 0.6:
                    self.small4(self.F)
                else:
                    self.input([self.rint(1, 4), self.rint(2, 16)], self.F)
            table = [(self.op_fconv2d, 4), (self.op_fdense, 2), (self.op_fmath, 4), (self.op_farith, 4),
                     (self.op_mean, 2), (self.op_pool, 4), (self.op_bias_add, 1), (self.op_clip, 1),
                     (self.op_relu, 1), (self.op_pad, 1), (self.op_reshape, 1), (self.op_transpose, 1),
                     (self.op_concat, 1), (self.op_split, 1), (self.op_squeeze, 1), (self.op_expand_dims, 1),
                     (self.op_slice, 1), (self.op_f2i, 1), (self.op_fcast, 1)]
        fns = [f for f, w in table for _ in range(w)]
        want = self.rint(4, 9)
        tries = 0
        while len(self.ops) < want and tries < 100:
            tries += 1
            v = self.choice(fns)()
            self.keep_small(v)
        # then the reductions, comparisons and sign, drawn from a stream of
        # their own, so that each seed's model above is the one it always
        # was (161 and 299 keep reproducing what they found)
        saved, self.rng = self.rng, random.Random(self.seed * 1000003 + 17)
        for _ in range(self.rint(1, 3)):
            self.keep_small(self.choice((self.op_reduce, self.op_reduce, self.op_compare, self.op_compare,
                                         self.op_sign))())
        self.rng = saved
        outs = [v for v in self.vals if v.uses == 0 and not v.name.startswith("%p")]
        if not outs:
            outs = [self.vals[-1]]
        outs = outs[-4:]
        return outs

    def keep_small(self, v):
        """v, just made, is dropped again if it is too big for a quick test"""
        if v is not None and count(v.shape) > 600:
            self.vals.remove(v)
            v.uses = -1
            self.lines.pop()
            self.ops.pop()
            self.n -= 1

    def text(self, outs):
        sig = ", ".join("%s: Tensor[%s, %s]" % (v.name, fmt_shape(v.shape), v.dtype) for v, _ in self.params)
        body = "\n".join(self.lines)
        res = outs[0].name if len(outs) == 1 else "(" + ", ".join(v.name for v in outs) + ")"
        return "// randgraph.py --seed %d: %s\ndef @main(%s) {\n%s\n  %s\n}\n" % (
            self.seed, ", ".join(self.ops), sig, body, res)


def bshape_of(a, b):
    n = max(len(a), len(b))
    a = [1] * (n - len(a)) + list(a)
    b = [1] * (n - len(b)) + list(b)
    return [max(x, y) for x, y in zip(a, b)]


def generate(seed, d, half=False):
    """writes d/model.relay and d/pN.npy; returns (model path, [input args], [out dtypes], ops)"""
    g = Gen(seed, half)
    outs = g.make()
    os.makedirs(d, exist_ok=True)
    model = os.path.join(d, "model.relay")
    with open(model, "w") as f:
        f.write(g.text(outs))
    args = []
    for v, vals in g.params:
        p = os.path.join(d, v.name[1:] + ".npy")
        npy.write(p, v.dtype, v.shape, vals)
        args += ["--input", "%s=%s" % (v.name[1:], p)]
    return model, args, [v.dtype for v in outs], g.ops


def compare(a, b, isfloat):
    """None if the .npy files a and b agree, else a description of the first
    difference; float results within the tolerance but float16 ones bit for
    bit (the backends round as ref does), so that -0 differs from +0"""
    ha, va = npy.read(a)
    hb, vb = npy.read(b)
    if ha != hb or len(va) != len(vb):
        return "headers differ: %s / %s" % (ha.strip(), hb.strip())
    if "<f2" in ha:
        with open(a, "rb") as fa, open(b, "rb") as fb:
            if fa.read() == fb.read():
                return None
        isfloat = False
        va, vb = npy.bits(a), npy.bits(b)
    for k, (x, y) in enumerate(zip(va, vb)):
        if not isfloat:
            if x != y:
                return "element %d: expected %r, got %r" % (k, x, y)
        elif x != y and not (x != x and y != y) and not abs(x - y) <= 1e-5 * max(abs(x), abs(y)) + 1e-6:
            return "element %d: expected %r, got %r" % (k, x, y)
    return None


def run_seed(graft, seed, d, half=False):
    """the lines of one model's report"""
    model, args, dts, ops = generate(seed, d, half)
    res = {}
    for be in ("ref", "c", "llvm"):
        outs = []
        for k in range(len(dts)):
            outs += ["--output", os.path.join(d, "%s%d.npy" % (be, k))]
        p = subprocess.run([graft, "run", "--backend", be] + args + outs + [model], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        res[be] = (p.returncode, p.stdout)
    kind = "float16" if half else "int" if seed % 2 else "float"
    lines = []
    for be in ("c", "llvm"):
        desc = "random seed %d (%s, %d ops): %s agrees with ref" % (seed, kind, len(ops), be)
        why = []
        if res["ref"][0] or res[be][0]:
            why.append("exit status: ref %d, %s %d" % (res["ref"][0], be, res[be][0]))
            why += [line for line in (res["ref"][1] + res[be][1]).splitlines()[:10]]
        else:
            for k, dt in enumerate(dts):
                err = compare(os.path.join(d, "ref%d.npy" % k), os.path.join(d, "%s%d.npy" % (be, k)),
                              dt == "float32")
                if err:
                    why.append("result %d (%s): %s" % (k, dt, err))
        if why:
            why = ["seed %d, model %s (tests/backends/randgraph.py%s --seed %d --keep DIR)" % (
                seed, model, " --half" if half else "", seed),
                   "ops: " + ", ".join(ops)] + why
        lines.append(("not ok" if why else "ok", desc, why))
    return lines


def seeds_of(s):
    out = []
    for part in s.split(","):
        if "-" in part:
            a, b = part.split("-")
            out += list(range(int(a), int(b) + 1))
        else:
            out.append(int(part))
    return out


def main(argv):
    opts = {"--seed": None, "--seeds": None, "--keep": None, "--graft": None, "-j": "1"}
    half = "--half" in argv
    argv = [a for a in argv if a != "--half"]
    k = 0
    while k < len(argv):
        if argv[k] not in opts or k + 1 >= len(argv):
            sys.stderr.write(__doc__)
            return 2
        opts[argv[k]] = argv[k + 1]
        k += 2
    seeds = seeds_of(opts["--seeds"] or opts["--seed"] or "")
    if not seeds:
        sys.stderr.write(__doc__)
        return 2
    keep = opts["--keep"]
    top = keep or tempfile.mkdtemp(prefix="graft-random.")
    try:
        if not opts["--graft"]:
            for s in seeds:
                model, args, dts, ops = generate(s, os.path.join(top, str(s)), half)
                sys.stdout.write(open(model).read())
                print("// graft run %s --output ...(%d) %s" % (" ".join(args), len(dts), model))
            return 0
        with ThreadPoolExecutor(max_workers=int(opts["-j"])) as ex:
            reports = list(ex.map(lambda s: run_seed(opts["--graft"], s, os.path.join(top, str(s)), half), seeds))
        bad = 0
        for rep in reports:
            for st, desc, why in rep:
                print("%s\t%s" % (st, desc))
                for w in why:
                    print("#   " + w)
                bad += st != "ok"
        return 1 if bad else 0
    finally:
        if not keep:
            shutil.rmtree(top, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
