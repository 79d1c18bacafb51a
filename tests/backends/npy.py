#!/usr/bin/python3
"""npy.py: deterministic random .npy inputs for the backend tests, without
NumPy.

    python3 tests/backends/npy.py OUT.npy DTYPE SHAPE SEED [LO HI]
    python3 tests/backends/npy.py cmp A.npy B.npy TOL

SHAPE is comma-separated ("1,3,8,8"; "" for a scalar); DTYPE one of int8,
uint8, int16, int32, float32, float16.  Values are uniform in [LO, HI] (integers)
or [LO, HI) (floats), from Python's random with SEED.
"""
import random
import struct
import sys

CODES = {"int8": ("|i1", "b"), "uint8": ("|u1", "B"), "int16": ("<i2", "h"),
         "int32": ("<i4", "i"), "float32": ("<f4", "f"), "float16": ("<f2", "e")}
RANGES = {"int8": (-128, 127), "uint8": (0, 255), "int16": (-300, 300),
          "int32": (-1000, 1000), "float32": (-2.0, 2.0), "float16": (-2.0, 2.0)}


def write(path, dtype, shape, values):
    descr, fmt = CODES[dtype]
    shp = "(" + "".join("%d, " % d for d in shape).rstrip(" ") + ")" if len(shape) != 1 else "(%d,)" % shape[0]
    if not shape:
        shp = "()"
    head = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shp)
    pad = 64 - (10 + len(head) + 1) % 64
    head = head + " " * pad + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(head)) + head.encode())
        f.write(struct.pack("<%d%s" % (len(values), fmt), *values))


def main():
    path, dtype, shape, seed = sys.argv[1:5]
    shape = [int(s) for s in shape.split(",") if s]
    lo, hi = RANGES[dtype]
    if len(sys.argv) > 6:
        lo, hi = float(sys.argv[5]), float(sys.argv[6])
    rng = random.Random(int(seed))
    n = 1
    for d in shape:
        n *= d
    if dtype in ("float32", "float16"):
        vals = [rng.uniform(lo, hi) for _ in range(n)]
    else:
        vals = [rng.randint(int(lo), int(hi)) for _ in range(n)]
    write(path, dtype, shape, vals)




def read(path):
    with open(path, "rb") as f:
        data = f.read()
    hlen = struct.unpack("<H", data[8:10])[0]
    head = data[10:10 + hlen].decode()
    descr = head.split("'descr': '")[1].split("'")[0]
    body = data[10 + hlen:]
    fmt = {"|i1": "b", "|u1": "B", "<i2": "h", "<u2": "H", "<i4": "i", "<u4": "I", "<i8": "q",
           "<f2": "e", "<f4": "f", "<f8": "d", "|b1": "B"}[descr]
    n = len(body) // struct.calcsize(fmt)
    return head, struct.unpack("<%d%s" % (n, fmt), body)


def bits(path):
    """the elements of float16 file path as their bit patterns (hex)"""
    with open(path, "rb") as f:
        data = f.read()
    body = data[10 + struct.unpack("<H", data[8:10])[0]:]
    return ["0x%04x" % h for h in struct.unpack("<%dH" % (len(body) // 2), body)]


def close(a, b, tol):
    """cmp A B TOL: same header, values within TOL (relative and absolute)"""
    ha, va = read(a)
    hb, vb = read(b)
    if ha != hb or len(va) != len(vb):
        return "headers differ: %s / %s" % (ha.strip(), hb.strip())
    for k, (x, y) in enumerate(zip(va, vb)):
        if abs(x - y) > tol * max(1.0, abs(x), abs(y)):
            return "element %d: %r != %r" % (k, x, y)
    return None


if __name__ == "__main__" and len(sys.argv) > 1 and sys.argv[1] == "cmp":
    err = close(sys.argv[2], sys.argv[3], float(sys.argv[4]))
    if err:
        print(err)
        sys.exit(1)
    sys.exit(0)
if __name__ == "__main__" and sys.argv[1] != "cmp":
    main()
