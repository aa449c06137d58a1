# Regenerates the .npy test files in this folder (run with Debian's python3 + numpy):
#   numpy/<dtype>_<what>.npy  written by NumPy; element i holds v(i) below
#   bad/<case>.npy            malformed files; bad/<case>.expect is the expected message
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


def good():
    out = os.path.join(here, "numpy")
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


good()
bad()
print("wrote", os.path.join(here, "numpy"), "and", os.path.join(here, "bad"), file=sys.stderr)
