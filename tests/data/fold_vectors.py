#!/usr/bin/python3
"""fold_vectors.py: reference vectors for tests/unit/fold.c, written as the C
header tests/unit/fold_vectors.h.  Run once and commit the output:

    /usr/bin/python3 tests/data/fold_vectors.py > tests/unit/fold_vectors.h

It needs PyTorch (Debian's python3-torch) and is not run by `make check`.

Two references per vector:

  torch  what PyTorch itself computes: torch.quantize_per_tensor and
         torch.quantize_per_channel for qnn.quantize; for qnn.requantize,
         which PyTorch has no public fixed-point op for, its float route:
         dequantize, then quantize_per_tensor to the output parameters.
  tvm    TVM's own algorithm, computed here with torch tensor ops from the
         TVM sources that ref/fold.c cites: quantize divides in float32,
         rounds halves away from zero (llvm.round), adds the zero point in
         float32, clamps and casts; requantize uses the Q31 multiplier of
         src/relay/qnn/utils.cc in int64 arithmetic.

ir_fold must equal `tvm` bit for bit.  It must equal `torch` too, except
where the two libraries differ, which tests/unit/fold.c checks vector by
vector:
  - ties: PyTorch rounds x/scale halves to even, TVM away from zero;
  - PyTorch multiplies by the float32 reciprocal 1/scale where TVM divides,
    so a quotient next to a half can round the other way;
  - PyTorch adds the zero point in integers, TVM in float32 (differs only
    beyond 2^24, for int32 outputs);
  - requantize: PyTorch's float route may differ from TVM's fixed point by
    one unit in the last place (and always rounds halves to even).
"""
import math
import sys

import torch

SEED = 20240607
gen = torch.Generator().manual_seed(SEED)

QDTYPES = {
    "DT_INT8": (torch.qint8, -128, 127, torch.int8),
    "DT_UINT8": (torch.quint8, 0, 255, torch.uint8),
    "DT_INT32": (torch.qint32, -2147483648, 2147483647, torch.int32),
}


def f32bits(t):
    """The float32 tensor t as its IEEE bit patterns (uint32 values)."""
    return [v & 0xFFFFFFFF for v in t.contiguous().view(torch.int32).tolist()]


def f32(v):
    """The float32 nearest to the Python float v."""
    return torch.tensor(v, dtype=torch.float32).item()


def round_away(v):
    """float32 tensor v rounded to integers, halves away from zero."""
    t = torch.trunc(v)
    frac = (v - t).abs()            # exact: Sterbenz
    return t + torch.sign(v) * (frac >= 0.5).to(torch.float32)


def tvm_quantize(x, scale, zp, qmin, qmax):
    """qnn.quantize as TVM lowers it (src/relay/qnn/op/quantize.cc)."""
    # float32 division and addition: done in float64 and rounded once, which
    # is exactly the float32 result and avoids any reciprocal shortcut
    v = (x.double() / scale.double()).float()
    r = round_away(v)
    w = (r.double() + zp.to(torch.float32).double()).float()
    hi = torch.tensor(float(qmax), dtype=torch.float32)
    lo = torch.tensor(float(qmin), dtype=torch.float32)
    w = torch.where(w < hi, w, hi)
    w = torch.where(w > lo, w, lo)
    assert bool((w.double() <= qmax).all()), "int32 overflow: pick other data"
    return w.to(torch.int64)


def fixed(mult):
    """TVM's GetFixedPointMultiplierShift (src/relay/qnn/utils.cc)."""
    if mult == 0:
        return 0, 0
    sig, exp = math.frexp(mult)
    v = sig * 2.0 ** 31
    q = int(math.copysign(math.floor(abs(v) + 0.5), v))    # std::round
    if q == 1 << 31:
        q //= 2
        exp += 1
    return q, exp


def tvm_requantize(x, in_scales, in_zp, out_scale, out_zp, nearest, qmin, qmax, axis):
    """qnn.requantize with compute_dtype int64 (RequantizeLowerInt), in
    torch int64 arithmetic."""
    t = x.to(torch.int64) - in_zp
    shape = [1] * x.dim()
    if len(in_scales) > 1:
        shape[axis] = len(in_scales)
    per = [fixed(float(s) / float(out_scale)) for s in in_scales]
    mul = torch.tensor([p[0] for p in per], dtype=torch.int64).reshape(shape)
    sh = torch.tensor([p[1] for p in per], dtype=torch.int64).reshape(shape)
    ls = torch.clamp(sh, min=0)
    rs = torch.clamp(-sh, min=0)
    total = rs + 31
    if len(in_scales) == 1 and float(in_scales[0]) == float(out_scale):
        y = t
    else:
        p = (t << ls) * mul
        assert bool((p.abs() < 2 ** 62).all())
        half = (torch.ones_like(total) << (total - 1))
        if nearest:
            half = half - (p < 0).to(torch.int64)
        y = (p + half) >> total            # arithmetic shift
    y = y + out_zp
    assert bool(((y >= -2 ** 31) & (y < 2 ** 31)).all())
    return torch.clamp(y, qmin, qmax)


def torch_requantize(x, in_scales, in_zp, out_scale, out_zp, qdt, axis):
    """PyTorch's float route: dequantize, then quantize_per_tensor."""
    xi = x.to(torch.int32)
    if len(in_scales) == 1:
        q = torch._make_per_tensor_quantized_tensor(xi, float(in_scales[0]), in_zp)
    else:
        q = torch._make_per_channel_quantized_tensor(
            xi, torch.tensor([float(s) for s in in_scales], dtype=torch.float64),
            torch.full((len(in_scales),), in_zp, dtype=torch.int64), axis)
    return torch.quantize_per_tensor(q.dequantize(), float(out_scale), out_zp, qdt).int_repr()


def carray(ctype, name, vals, per_line=8):
    out = ["static const %s %s[%d] = {" % (ctype, name, len(vals))]
    for i in range(0, len(vals), per_line):
        out.append("\t" + ", ".join(vals[i:i + per_line]) + ",")
    out.append("};")
    return "\n".join(out)


def hexes(vals):
    return ["0x%08x" % v for v in vals]


def decs(vals):
    return ["%d" % v for v in vals]


QCASES = []
RCASES = []
BODY = []


def qcase(name, dt, x, scales, zps, axis):
    """One quantize case: x float32 of rank 1 or 2; scales/zps lists (one
    value: per tensor)."""
    qdt, qmin, qmax, _ = QDTYPES[dt]
    x = x.to(torch.float32).contiguous()
    sc = torch.tensor(scales, dtype=torch.float32)
    zp = torch.tensor(zps, dtype=torch.int32)
    shape = [1] * x.dim()
    if len(scales) > 1 or len(zps) > 1:
        shape[axis] = x.shape[axis]
    scb = sc.reshape(shape) if len(scales) > 1 else sc
    zpb = zp.reshape(shape) if len(zps) > 1 else zp
    tvm = tvm_quantize(x, scb, zpb, qmin, qmax)
    if len(scales) == 1 and len(zps) == 1:
        ref = torch.quantize_per_tensor(x, float(sc[0]), int(zp[0]), qdt).int_repr()
    else:
        n = x.shape[axis]
        s64 = (sc if len(scales) > 1 else sc.expand(n)).double()
        z64 = (zp if len(zps) > 1 else zp.expand(n)).to(torch.int64)
        ref = torch.quantize_per_channel(x, s64, z64, axis, qdt).int_repr()
    k = len(QCASES)
    BODY.append(carray("uint32_t", "qx%d" % k, hexes(f32bits(x.reshape(-1))), 6))
    BODY.append(carray("uint32_t", "qs%d" % k, hexes(f32bits(sc))))
    BODY.append(carray("int32_t", "qz%d" % k, decs(zp.tolist())))
    BODY.append(carray("int32_t", "qtorch%d" % k, decs(ref.to(torch.int64).reshape(-1).tolist()), 10))
    BODY.append(carray("int32_t", "qtvm%d" % k, decs(tvm.reshape(-1).tolist()), 10))
    dims = list(x.shape) + [1] * (2 - x.dim())
    QCASES.append("\t{ \"%s\", %s, %d, { %d, %d }, %d, %d, qs%d, %d, qz%d, %d, qx%d, qtorch%d, qtvm%d },"
                  % (name, dt, x.dim(), dims[0], dims[1], axis, len(scales), k, len(zps), k,
                     x.numel(), k, k, k))


def rcase(name, in_dt, out_dt, rounding, x, in_scales, in_zp, out_scale, out_zp, axis):
    qdt, qmin, qmax, _ = QDTYPES[out_dt]
    sc = [f32(s) for s in in_scales]
    osc = f32(out_scale)
    tvm = tvm_requantize(x, sc, in_zp, osc, out_zp, rounding == "TONEAREST", qmin, qmax, axis)
    ref = torch_requantize(x, sc, in_zp, osc, out_zp, qdt, axis).to(torch.int64)
    k = len(RCASES)
    BODY.append(carray("int32_t", "rx%d" % k, decs(x.reshape(-1).tolist()), 10))
    BODY.append(carray("uint32_t", "rs%d" % k, hexes(f32bits(torch.tensor(sc, dtype=torch.float32)))))
    BODY.append(carray("int32_t", "rtvm%d" % k, decs(tvm.reshape(-1).tolist()), 10))
    BODY.append(carray("int32_t", "rtorch%d" % k, decs(ref.reshape(-1).tolist()), 10))
    dims = list(x.shape) + [1] * (2 - x.dim())
    RCASES.append("\t{ \"%s\", %s, %s, \"%s\", %d, { %d, %d }, %d, %d, rs%d, %d, 0x%08x, %d, %d, rx%d, rtvm%d, rtorch%d },"
                  % (name, in_dt, out_dt, rounding, x.dim(), dims[0], dims[1], axis, len(sc), k,
                     in_zp, f32bits(torch.tensor([osc]))[0], out_zp, x.numel(), k, k, k))


def randn(*shape, std=1.0):
    return torch.randn(*shape, generator=gen, dtype=torch.float32) * std


def randint(lo, hi, *shape):
    return torch.randint(lo, hi, shape, generator=gen, dtype=torch.int64)


def ties(scale, n, span):
    """n float32 values that are exact halves of scale (scale a power of 2)."""
    k = randint(-span, span, n).to(torch.float32)
    return (k + 0.5) * scale


def near_halves(scale, n):
    """n float32 values whose quotient by scale rounds one way when divided
    (TVM) and the other when multiplied by the float32 1/scale (PyTorch),
    none of them an exact tie, found among random candidates."""
    x = randn(4000000, std=60.0)
    sc = torch.tensor(scale, dtype=torch.float32)
    d = (x.double() / sc.double()).float()
    p = (x.double() * (1.0 / sc).double()).float()
    differ = (round_away(d) != torch.round(p)) & ((d - torch.trunc(d)).abs() != 0.5)
    found = x[differ][:n]
    assert found.numel() == n
    return found


def main():
    # quantize, per tensor: the seed's weight scale, an activation scale, the
    # int32 bias scale, a negative zero point, and exact ties
    qcase("seed weights int8", "DT_INT8", randn(96, std=0.15), [0.00288958], [0], 0)
    qcase("activations uint8", "DT_UINT8", randn(96, std=2.0), [0.0186579], [114], 0)
    qcase("bias int32", "DT_INT32", randn(64, std=0.05), [5.39136e-05], [0], 0)
    qcase("negative zero point", "DT_INT8", randn(64, std=3.0), [0.05], [-3], 0)
    qcase("ties scale 0.25", "DT_INT8", ties(0.25, 64, 40), [0.25], [7], 0)
    qcase("ties scale 1", "DT_UINT8", ties(1.0, 48, 100), [1.0], [0], 0)
    qcase("saturating int8", "DT_INT8", randn(48, std=40.0), [0.1], [0], 0)
    qcase("near halves int32", "DT_INT32",
          torch.cat([near_halves(0.0731, 12), randn(20, std=60.0)]), [0.0731], [0], 0)
    # quantize, per channel
    qcase("per channel axis 0", "DT_INT8", randn(4, 24, std=0.3),
          [0.0021, 0.0043, 0.0017, 0.003], [0], 0)
    qcase("per channel axis 1", "DT_UINT8", randn(24, 3, std=1.0),
          [0.01, 0.02, 0.015], [128, 120, 135], 1)
    qcase("per channel ties", "DT_INT8", ties(0.5, 48, 60).reshape(16, 3),
          [0.5, 0.5, 0.5], [0, -1, 1], 1)
    # requantize, per tensor and per channel, both roundings
    rcase("conv accumulators UPWARD", "DT_INT32", "DT_INT8", "UPWARD",
          randint(-60000, 60000, 96), [0.00288958 * 0.0186579], 0, 0.0235, -5, 0)
    rcase("conv accumulators TONEAREST", "DT_INT32", "DT_INT8", "TONEAREST",
          randint(-60000, 60000, 96), [0.00288958 * 0.0186579], 0, 0.0235, -5, 0)
    rcase("ratio 0.5 UPWARD", "DT_INT32", "DT_INT8", "UPWARD",
          randint(-200, 200, 48), [0.5], 0, 1.0, 0, 0)
    rcase("ratio 0.5 TONEAREST", "DT_INT32", "DT_INT8", "TONEAREST",
          randint(-200, 200, 48), [0.5], 0, 1.0, 0, 0)
    rcase("uint8 to uint8", "DT_UINT8", "DT_UINT8", "UPWARD",
          randint(0, 256, 64), [0.0186579], 114, 0.0229, 120, 0)
    rcase("to int32", "DT_INT32", "DT_INT32", "TONEAREST",
          randint(-2000000, 2000000, 48), [0.00011], 3, 0.0007, -2, 0)
    rcase("per channel UPWARD", "DT_INT32", "DT_INT8", "UPWARD",
          randint(-40000, 40000, 4, 16), [4.1e-5, 5.3e-5, 3.9e-5, 6.6e-5], 0, 0.02, 1, 0)
    rcase("per channel TONEAREST", "DT_INT32", "DT_UINT8", "TONEAREST",
          randint(-40000, 40000, 16, 4), [4.1e-5, 5.3e-5, 3.9e-5, 6.6e-5], 0, 0.02, 128, 1)

    out = sys.stdout
    out.write("/* Generated by: /usr/bin/python3 tests/data/fold_vectors.py > tests/unit/fold_vectors.h */\n")
    out.write("/*\n** fold_vectors.h: reference vectors for tests/unit/fold.c, from PyTorch %s\n"
              "** (seed %d).  See tests/data/fold_vectors.py for what each column is.\n"
              "** Floats are IEEE float32 bit patterns.\n*/\n\n" % (torch.__version__, SEED))
    out.write("typedef struct FoldQCase {\n"
              "\tconst char *name;\n"
              "\tDType dt;                 /* out_dtype */\n"
              "\tint rank;\n"
              "\tint64_t dims[2];\n"
              "\tint axis;\n"
              "\tint nscale;\n"
              "\tconst uint32_t *scale;\n"
              "\tint nzp;\n"
              "\tconst int32_t *zp;\n"
              "\tint n;\n"
              "\tconst uint32_t *x;\n"
              "\tconst int32_t *torch;      /* torch.quantize_per_tensor/per_channel */\n"
              "\tconst int32_t *tvm;        /* TVM's QuantizeLower */\n"
              "} FoldQCase;\n\n")
    out.write("typedef struct FoldRCase {\n"
              "\tconst char *name;\n"
              "\tDType in_dt, out_dt;\n"
              "\tconst char *rounding;\n"
              "\tint rank;\n"
              "\tint64_t dims[2];\n"
              "\tint axis;\n"
              "\tint nscale;\n"
              "\tconst uint32_t *in_scale;\n"
              "\tint32_t in_zp;\n"
              "\tuint32_t out_scale;\n"
              "\tint32_t out_zp;\n"
              "\tint n;\n"
              "\tconst int32_t *x;\n"
              "\tconst int32_t *tvm;        /* TVM's RequantizeLowerInt */\n"
              "\tconst int32_t *torch;      /* PyTorch: dequantize, quantize_per_tensor */\n"
              "} FoldRCase;\n\n")
    out.write("\n\n".join(BODY) + "\n\n")
    out.write("static const FoldQCase fold_qcases[] = {\n" + "\n".join(QCASES) + "\n};\n\n")
    out.write("static const FoldRCase fold_rcases[] = {\n" + "\n".join(RCASES) + "\n};\n")


if __name__ == "__main__":
    main()
