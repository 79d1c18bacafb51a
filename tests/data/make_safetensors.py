#!/usr/bin/env python3
"""make_safetensors.py: writes a safetensors file for tests/unit/safetensors.c.

A second, independent writer of the format, using only the standard library
(struct and json): the header has a "__metadata__" entry, JSON with spaces
and newlines, names with non-ASCII characters written as \\u escapes
(including a surrogate pair), keys in a different order from the data, and
a header length that leaves the data buffer misaligned.  The C test knows
the same table and checks every name, dtype, shape and value.

Usage: make_safetensors.py OUTPUT
"""
import json
import struct
import sys

# (name, dtype, shape, struct format, values), in header order
TENSORS = [
    ("features.0.0_weight", "F32", [2, 2], "<4f", [1.5, -2.0, 3.25, 0.0]),
    ("meta[relay.Constant][0]", "I64", [3], "<3q", [1, -2, 1 << 40]),
    ("b\u00e9ta \"q\"\\", "U16", [], "<H", [65535]),
    ("emoji \U0001F600", "I8", [0], "<", []),
    ("mask", "BOOL", [2, 1], "<2B", [1, 0]),
    ("half", "F16", [2], "<2e", [1.0, -2.0]),
    ("f64", "F64", [1], "<d", [0.1]),
    ("i32", "I32", [2], "<2i", [-7, 2147483647]),
    ("u8", "U8", [3], "<3B", [0, 128, 255]),
    ("i16", "I16", [1, 1, 1], "<h", [-32768]),
    ("u32", "U32", [1], "<I", [4294967295]),
    ("i8", "I8", [2], "<2b", [-128, 127]),
]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_safetensors.py OUTPUT")
    blobs = [struct.pack(fmt, *vals) for _, _, _, fmt, vals in TENSORS]
    # lay the data out in reverse header order
    offsets = {}
    pos = 0
    for i in reversed(range(len(TENSORS))):
        offsets[i] = (pos, pos + len(blobs[i]))
        pos += len(blobs[i])
    header = {}
    for i, (name, dtype, shape, _, _) in enumerate(TENSORS):
        if i == 3:
            header["__metadata__"] = {"format": "pt", "writer": "make_safetensors.py"}
        header[name] = {"dtype": dtype, "shape": shape,
                        "data_offsets": list(offsets[i])}
    text = json.dumps(header, indent=1).encode("utf-8")
    # pad so that the data starts 3 bytes past a multiple of 8
    while (8 + len(text)) % 8 != 3:
        text += b" "
    data = b"".join(blobs[i] for i in reversed(range(len(TENSORS))))
    with open(sys.argv[1], "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        f.write(data)


if __name__ == "__main__":
    main()
