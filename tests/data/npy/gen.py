# The .npy test files of tests/unit/test_npy.c (Debian's python3 + numpy):
#   gen.py              regenerates the files in this folder:
#                       numpy/<dtype>_<what>.npy  written by NumPy; element i holds v(i) below
#                       bad/<case>.npy            malformed; bad/<case>.expect: expected message
#   gen.py numpy DIR    writes the numpy/ files into DIR (the live interop test)
#   gen.py check DIR    checks the files tilec wrote into DIR, named <dtype>-<shape>-v<N>.npy
#                       (shape "2x3", "0x4" or "scalar"), and prints "checked N files"
# Values: k = (7 * i) % 13; signed ints k - 6, unsigned k, bool k % 2, floats (k - 6) / 2.
import os
import struct
import sys

import numpy as np
from numpy.lib import format as npf

here = os.path.dirname(os.path.abspath(__file__))


def values(n, kind):
    k = (7 * np.arange(n)) % 13
    return {"i": k - 6, "u": k, "b": k % 2, "f": (k - 6) / 2}[kind]


def good(out):
    os.makedirs(out, exist_ok=True)

    def save(name, shape, dtype, version=None):
        dt = np.dtype(dtype)
        a = values(int(np.prod(shape)), dt.kind).astype(dt).reshape(shape)
        with open(os.path.join(out, name + ".npy"), "wb") as f:
            npf.write_array(f, a, version=version)

    for t in ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "bool",
              "float16", "float32", "float64"]:
        save(t + "_2x3", (2, 3), t)
    save("float32_be", (5,), ">f4")
    save("int64_be", (2, 2), ">i8")
    save("float64_scalar", (), "f8")
    save("int32_empty", (3, 0), "i4")
    save("float32_v2", (4, 4), "f4", (2, 0))
    save("int16_v3", (7,), "i2", (3, 0))
    # bfloat16 as tilec writes it: a one-field structured array of the raw bits.
    f = values(6, "f").astype(np.float32)
    bits = (f.view(np.uint32) >> 16).astype("<u2")
    a = np.zeros((2, 3), dtype=[("bfloat16", "<u2")])
    a["bfloat16"] = bits.reshape(2, 3)
    np.save(os.path.join(out, "bfloat16_2x3.npy"), a)


def header(d, version=(1, 0), pad=True):
    h = d.encode("latin1")
    pre = 10 if version[0] == 1 else 12
    if pad:
        h += b" " * (-(pre + len(h) + 1) % 64) + b"\n"
    size = struct.pack("<H" if version[0] == 1 else "<I", len(h))
    return b"\x93NUMPY" + bytes(version) + size + h


def bad():
    out = os.path.join(here, "bad")
    os.makedirs(out, exist_ok=True)
    f4 = "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }"
    data = b"\0" * 16
    cases = {
        "empty": (b"", "bad magic: not a .npy file"),
        "bad_magic": (b"\x93NUMPZ" + header(f4)[6:] + data, "bad magic"),
        "short_magic": (b"\x93NUM", "bad magic"),
        "version_4": (header(f4, (4, 0)) + data, "unsupported .npy format version 4.0"),
        "version_1_1": (header(f4, (1, 1)) + data, "unsupported .npy format version 1.1"),
        "length_cut": (b"\x93NUMPY\x02\x00\x10\x00", "ends inside the header length"),
        "header_past_eof": (b"\x93NUMPY\x01\x00\xe8\x03{'descr'",
                            "header length 1000 runs past the end of the file (18 bytes)"),
        "header_too_long": (b"\x93NUMPY\x02\x00\x00\x00\x20\x00" + b" " * 64,
                            "header length 2097152 exceeds the limit of 1048576 bytes"),
        "not_a_dict": (header("['descr', '<f4']") + data, "expected a dict literal '{', found '['descr'"),
        "missing_shape": (header("{'descr': '<f4', 'fortran_order': False}") + data,
                          "header is missing the key 'shape'"),
        "extra_key": (header(f4[:-1] + "'extra': 1, }") + data,
                      "header has an unexpected key 'extra'"),
        "repeated_key": (header("{'descr': '<f4', 'descr': '<f4'}") + data,
                         "header repeats the key 'descr'"),
        "bad_bool": (header(f4.replace("False", "0")) + data,
                     "fortran_order must be True or False"),
        "fortran_order": (header(f4.replace("False", "True")) + data,
                          "fortran_order True is unsupported"),
        "unknown_descr": (header(f4.replace("<f4", "<c8")) + data, "unsupported descr '<c8'"),
        "pipe_f4": (header(f4.replace("<f4", "|f4")) + data, "unsupported descr '|f4'"),
        "descr_not_string": (header(f4.replace("'<f4'", "5")) + data,
                             "expected a string, found '5"),
        "two_fields": (header(f4.replace("'<f4'", "[('bfloat16', '<u2'), ('x', '<u2')]")) + data,
                       "unsupported structured descr"),
        "unknown_field": (header(f4.replace("'<f4'", "[('x', '<u2')]")) + data,
                          "unsupported structured field 'x'"),
        "field_bits": (header(f4.replace("'<f4'", "[('bfloat16', '<f2')]")) + data,
                       "structured field 'bfloat16' must hold uint16 bits, not '<f2'"),
        "negative_dim": (header(f4.replace("(4,)", "(-4,)")) + data,
                         "shape has a negative dimension"),
        "huge_dim": (header(f4.replace("(4,)", "(99999999999999999999,)")) + data,
                     "dimension too large for 64 bits"),
        "size_overflow": (header(f4.replace("(4,)", "(4294967296, 4294967296)")) + data,
                          "shape [4294967296, 4294967296]: the array size overflows"),
        "nine_dims": (header(f4.replace("(4,)", "(1, 1, 1, 1, 1, 1, 1, 1, 4)")) + data,
                      "shape has more than 8 dimensions"),
        "shape_list": (header(f4.replace("(4,)", "[4]")) + data,
                       "expected '(' starting the shape tuple, found '[4]"),
        "shape_separator": (header(f4.replace("(4,)", "(2; 2)")) + data,
                            "expected ',' or ')' in the shape tuple, found ';"),
        "unterminated": (header("{'descr': '<f4") + data, "unterminated or escaped string"),
        "after_dict": (header(f4 + " x") + data, "header: characters after the dict"),
        "dict_cut": (header("{'descr': '<f4'", pad=False) + data,
                     "expected ',' or '}' in the header dict, found the end of the header"),
        "truncated": (header(f4) + data[:8], "truncated: expected 16 bytes of data, file has 8"),
        "trailing": (header(f4) + data + b"xyz",
                     "trailing garbage: 3 bytes after the 16 bytes of data"),
    }
    for name, (blob, msg) in cases.items():
        with open(os.path.join(out, name + ".npy"), "wb") as f:
            f.write(blob)
        with open(os.path.join(out, name + ".expect"), "w") as f:
            f.write(msg + "\n")


def decode_fp8(bits, ebits, mbits):
    # Value of every 8-bit pattern of a float8 format (bias 2^(ebits-1) - 1; e4m3fn: no Inf).
    bias = (1 << (ebits - 1)) - 1
    table = []
    for b in range(256):
        s = -1.0 if b & 0x80 else 1.0
        e = (b >> mbits) & ((1 << ebits) - 1)
        m = b & ((1 << mbits) - 1)
        if e == 0:
            table.append(s * m / (1 << mbits) * 2.0 ** (1 - bias))
        else:
            table.append(s * (1 + m / (1 << mbits)) * 2.0 ** (e - bias))
    return np.array(table)[bits]


STRUCTURED = {"bfloat16": "<u2", "float8_e4m3fn": "|u1", "float8_e5m2": "|u1"}


def check(path, dtype, shape, version):
    with open(path, "rb") as f:
        got_version = npf.read_magic(f)
    if got_version != (version, 0):
        return "version %s, expected %d.0" % (got_version, version)
    a = np.load(path)
    if a.shape != shape:
        return "shape %s, expected %s" % (a.shape, shape)
    if dtype in STRUCTURED:
        if a.dtype.names != (dtype,) or a.dtype[dtype] != np.dtype(STRUCTURED[dtype]):
            return "dtype %s, expected a structured %s field" % (a.dtype, dtype)
        bits = a[dtype]
        if dtype == "bfloat16":
            got = (bits.astype(np.uint32) << 16).view(np.float32)
        else:
            got = decode_fp8(bits, 4 if dtype == "float8_e4m3fn" else 5,
                             3 if dtype == "float8_e4m3fn" else 2)
        kind = "f"
    else:
        if a.dtype != np.dtype(dtype):
            return "dtype %s, expected %s" % (a.dtype, dtype)
        got, kind = a, a.dtype.kind
    want = values(a.size, kind).reshape(shape)
    if not np.array_equal(np.asarray(got, dtype=np.float64), want.astype(np.float64)):
        return "values %s, expected %s" % (got.ravel()[:8], want.ravel()[:8])
    return None


def check_dir(d):
    n, errors = 0, []
    for name in sorted(os.listdir(d)):
        if not name.endswith(".npy"):
            continue
        dtype, shape, version = name[:-4].split("-")
        shape = () if shape == "scalar" else tuple(int(x) for x in shape.split("x"))
        err = check(os.path.join(d, name), dtype, shape, int(version[1:]))
        if err:
            errors.append("%s: %s" % (name, err))
        n += 1
    for e in errors:
        print(e)
    print("checked %d files, %d bad" % (n, len(errors)))
    return 1 if errors else 0


if len(sys.argv) == 3 and sys.argv[1] == "numpy":
    good(sys.argv[2])
elif len(sys.argv) == 3 and sys.argv[1] == "check":
    sys.exit(check_dir(sys.argv[2]))
elif len(sys.argv) == 1:
    good(os.path.join(here, "numpy"))
    bad()
else:
    sys.exit("usage: gen.py [numpy DIR | check DIR]")
