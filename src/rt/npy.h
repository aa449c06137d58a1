// NumPy .npy files: read and write, format versions 1.0, 2.0 and 3.0, C order.
//
// File layout: "\x93NUMPY", major and minor version bytes, the header length
// (uint16 LE in 1.0, uint32 LE in 2.0/3.0), then the header, a Python dict
// literal such as {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// padded with spaces and ended by '\n' (3.0 allows UTF-8 in it), then the raw
// data. tilec writes the data at a multiple of 64 bytes.
//
// bfloat16 and float8 have no NumPy dtype. tilec stores them as a structured
// dtype with one named field that holds the raw bits:
//   bfloat16       [('bfloat16', '<u2')]
//   float8_e4m3fn  [('float8_e4m3fn', '|u1')]
//   float8_e5m2    [('float8_e5m2', '|u1')]
// numpy.load opens such a file as a structured array (a['bfloat16'] is the
// uint16 bits), and tilec reads the real type back, so files round-trip.
//
// Reading with a requested dtype (TL_NPY_FILE_DTYPE keeps the file's type):
//   - any floating file (f2/f4/f8 or the structured types) is accepted for any
//     floating tensor and converted with round-to-nearest-even;
//   - a plain '<u2' file is accepted as bfloat16 bits, '|u1' as float8 bits;
//   - integer and bool files only for the same type.
// Big-endian descrs ('>f4') are byte-swapped. Malformed files are errors that
// name the file and say what is wrong; the reader never reads past its input.
#ifndef TL_RT_NPY_H
#define TL_RT_NPY_H

#include "rt/tensor.h"

#define TL_NPY_FILE_DTYPE TL_DTYPE_COUNT // "the dtype stored in the file"
#define TL_NPY_MAX_HEADER (1u << 20)     // longer headers are rejected
#define TL_NPY_DATA_ALIGN 64

typedef struct {
    int major, minor;
    size_t data_offset; // where the data starts
    tl_dtype_t dtype;   // '<u2' is uint16; [('bfloat16', '<u2')] is bfloat16
    bool structured;    // the descr was a one-field structured dtype
    bool byteswap;      // the file's byte order is not the host's
    int ndim;
    int64_t shape[TL_TENSOR_MAX_DIMS];
    size_t nbytes; // numel * element size
} tl_npy_header_t;

// Parses magic, version and header dict from buf[0, len); file_len is the
// whole file's length (>= len; len may be a prefix of it). Checks that the data
// size matches file_len - data_offset. `name` is used in messages.
tl_status_t tl_npy_header_parse(const void *buf, size_t len, size_t file_len, const char *name,
                                tl_npy_header_t *h, tl_diag_t *d);

// Reads a whole .npy file, or an in-memory image of one (the fuzz entry point).
tl_status_t tl_npy_read(const char *path, tl_dtype_t want, tl_tensor_t **out, tl_diag_t *d);
tl_status_t tl_npy_parse(const void *data, size_t len, const char *name, tl_dtype_t want,
                         tl_tensor_t **out, tl_diag_t *d);

// Writes t (any strides) in C order. version 0 picks 1.0 (2.0 if the header
// needs it); 1, 2 and 3 force that version.
tl_status_t tl_npy_write(const char *path, const tl_tensor_t *t, int version, tl_diag_t *d);
// The same file image appended to out.
tl_status_t tl_npy_encode(const tl_tensor_t *t, int version, tl_buf_t *out, tl_diag_t *d);

#endif
