// Reading .npy data into tensors (with the dtype rules of npy.h) and writing tensors as .npy.
#include "rt/npy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool host_little(void)
{
    const uint16_t one = 1;
    return *(const uint8_t *)&one == 1;
}

static void byteswap(void *data, size_t n, int size)
{
    unsigned char *p = data;
    for (size_t i = 0; i < n; i++, p += size)
        for (int a = 0, b = size - 1; a < b; a++, b--) {
            unsigned char c = p[a];
            p[a] = p[b];
            p[b] = c;
        }
}

// The tensor dtype for a file holding `file` when `want` is requested, and
// whether the values need converting (false: the bytes are taken as they are).
static tl_status_t pick_dtype(const tl_npy_header_t *h, tl_dtype_t want, const char *name,
                              tl_dtype_t *out, bool *convert, tl_diag_t *d)
{
    tl_dtype_t file = h->dtype;
    *out = want == TL_NPY_FILE_DTYPE ? file : want;
    *convert = false;
    if (want == TL_NPY_FILE_DTYPE || want == file) return TL_OK;
    if ((unsigned)want > TL_DTYPE_COUNT)
        return tl_diag_fail(d, TL_ERR_ARG, "%s: invalid dtype", name);
    if (tl_dtype_is_float(file) && tl_dtype_is_float(want)) {
        *convert = true;
        return TL_OK;
    }
    if (!h->structured && ((file == TL_U16 && want == TL_BF16) ||
                           (file == TL_U8 && (want == TL_F8E4M3 || want == TL_F8E5M2))))
        return TL_OK; // raw bits of the requested type
    return tl_diag_fail(d, TL_ERR_FORMAT, "%s: the file holds %s, which cannot be read as %s", name,
                        tl_dtype_name(file), tl_dtype_name(want));
}

// Where the data bytes come from: memory or an open file.
typedef struct {
    const unsigned char *mem;
    FILE *f;
} source_t;

static bool source_read(source_t *s, void *dst, size_t n)
{
    if (n == 0) return true;
    if (s->mem) {
        memcpy(dst, s->mem, n);
        s->mem += n;
        return true;
    }
    return fread(dst, 1, n, s->f) == n;
}

static tl_status_t load(const tl_npy_header_t *h, source_t *src, tl_dtype_t want, const char *name,
                        tl_tensor_t **out, tl_diag_t *d)
{
    *out = NULL;
    tl_dtype_t dtype;
    bool convert;
    tl_status_t s = pick_dtype(h, want, name, &dtype, &convert, d);
    if (s) return s;
    tl_tensor_t *t;
    if ((s = tl_tensor_create(&t, dtype, h->ndim, h->shape, d))) return s;
    int size = tl_dtype_size(h->dtype);
    size_t n = h->nbytes / (size_t)size;
    // Unconverted data goes straight into the tensor; converted data through
    // an aligned buffer of the file's type.
    void *raw = convert ? malloc(TL_MAX(h->nbytes, 1)) : t->data;
    if (!raw) {
        tl_tensor_destroy(t);
        return tl_diag_fail(d, TL_ERR_NOMEM, "%s: out of memory", name);
    }
    if (!source_read(src, raw, h->nbytes)) {
        if (convert) free(raw);
        tl_tensor_destroy(t);
        return tl_diag_fail(d, TL_ERR_IO, "%s: read error: %s", name, strerror(errno));
    }
    if (h->byteswap) byteswap(raw, n, size);
    if (convert) {
        tl_convert(dtype, t->data, h->dtype, raw, n, TL_CAST_RINT);
        free(raw);
    }
    *out = t;
    return TL_OK;
}

tl_status_t tl_npy_parse(const void *data, size_t len, const char *name, tl_dtype_t want,
                         tl_tensor_t **out, tl_diag_t *d)
{
    *out = NULL;
    name = name ? name : "<memory>";
    tl_npy_header_t h;
    tl_status_t s = tl_npy_header_parse(data, len, len, name, &h, d);
    if (s) return s;
    source_t src = {(const unsigned char *)data + h.data_offset, NULL};
    return load(&h, &src, want, name, out, d);
}

tl_status_t tl_npy_read(const char *path, tl_dtype_t want, tl_tensor_t **out, tl_diag_t *d)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return tl_diag_fail(d, TL_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (size < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return tl_diag_fail(d, TL_ERR_IO, "%s: cannot determine the file size: %s", path,
                            strerror(errno));
    }
    // The preamble and header come first; the data is read straight into the tensor.
    size_t prefix = TL_MIN((size_t)size, 12 + (size_t)TL_NPY_MAX_HEADER);
    unsigned char *head = malloc(TL_MAX(prefix, 1));
    tl_status_t s = TL_OK;
    if (!head)
        s = tl_diag_fail(d, TL_ERR_NOMEM, "%s: out of memory", path);
    else if (fread(head, 1, prefix, f) != prefix)
        s = tl_diag_fail(d, TL_ERR_IO, "%s: read error: %s", path, strerror(errno));
    tl_npy_header_t h;
    if (!s) s = tl_npy_header_parse(head, prefix, (size_t)size, path, &h, d);
    free(head);
    if (!s && fseek(f, (long)h.data_offset, SEEK_SET) != 0)
        s = tl_diag_fail(d, TL_ERR_IO, "%s: seek error: %s", path, strerror(errno));
    if (!s) {
        source_t src = {NULL, f};
        s = load(&h, &src, want, path, out, d);
    }
    fclose(f);
    return s;
}

// --- writing -------------------------------------------------------------------

static void put_descr(tl_buf_t *b, tl_dtype_t t)
{
    char order = host_little() ? '<' : '>';
    switch (t) {
    case TL_BF16: tl_buf_printf(b, "[('bfloat16', '%cu2')]", order); return;
    case TL_F8E4M3: tl_buf_puts(b, "[('float8_e4m3fn', '|u1')]"); return;
    case TL_F8E5M2: tl_buf_puts(b, "[('float8_e5m2', '|u1')]"); return;
    default: break;
    }
    int size = tl_dtype_size(t);
    char kind = t == TL_BOOL                      ? 'b'
                : tl_dtype_is_float(t)            ? 'f'
                : tl_dtype_kind(t) == TL_KIND_INT ? 'i'
                                                  : 'u';
    tl_buf_printf(b, "'%c%c%d'", size == 1 ? '|' : order, kind, size);
}

// Magic, version, header length and the padded header dict.
static tl_status_t put_header(tl_buf_t *out, const tl_tensor_t *t, int version, tl_diag_t *d)
{
    if (version < 0 || version > 3)
        return tl_diag_fail(d, TL_ERR_ARG, "npy: cannot write format version %d (1, 2 or 3)",
                            version);
    tl_buf_t dict;
    tl_buf_init(&dict);
    tl_buf_puts(&dict, "{'descr': ");
    put_descr(&dict, t->dtype);
    tl_buf_puts(&dict, ", 'fortran_order': False, 'shape': (");
    for (int i = 0; i < t->ndim; i++)
        tl_buf_printf(&dict, "%s%lld", i ? ", " : "", (long long)t->shape[i]);
    tl_buf_puts(&dict, t->ndim == 1 ? ",), }" : "), }");
    // Version 1.0 has a 16-bit header length; the data starts at a multiple of 64.
    size_t len = dict.len + 1; // with the final newline
    if (version == 0) version = TL_ALIGN_UP(10 + len, TL_NPY_DATA_ALIGN) - 10 <= 65535 ? 1 : 2;
    size_t pre = version == 1 ? 10 : 12;
    size_t hlen = TL_ALIGN_UP(pre + len, TL_NPY_DATA_ALIGN) - pre;
    if (version == 1 && hlen > 65535) {
        tl_buf_free(&dict);
        return tl_diag_fail(d, TL_ERR_ARG, "npy: the header does not fit format version 1.0");
    }
    tl_buf_putn(out, "\x93NUMPY", 6);
    tl_buf_putc(out, (char)version);
    tl_buf_putc(out, 0);
    for (size_t i = 0; i < pre - 8; i++) tl_buf_putc(out, (char)(hlen >> (8 * i) & 0xff));
    tl_buf_putn(out, dict.data, dict.len);
    for (size_t i = dict.len + 1; i < hlen; i++) tl_buf_putc(out, ' ');
    tl_buf_putc(out, '\n');
    tl_buf_free(&dict);
    return out->failed ? tl_diag_fail(d, TL_ERR_NOMEM, "npy: out of memory") : TL_OK;
}

// The data in C order: the tensor's own bytes when contiguous, else a gathered copy.
static const void *c_order_data(const tl_tensor_t *t, void **copy)
{
    *copy = NULL;
    if (tl_tensor_is_contiguous(t)) return t->data;
    size_t size = (size_t)tl_dtype_size(t->dtype), n = tl_tensor_numel(t);
    unsigned char *dst = malloc(TL_MAX(n * size, 1));
    if (!dst) return NULL;
    int64_t idx[TL_TENSOR_MAX_DIMS] = {0};
    for (size_t i = 0; i < n; i++, tl_tensor_next_index(t, idx))
        memcpy(dst + i * size, (const char *)t->data + tl_tensor_offset(t, idx) * (int64_t)size,
               size);
    *copy = dst;
    return dst;
}

tl_status_t tl_npy_encode(const tl_tensor_t *t, int version, tl_buf_t *out, tl_diag_t *d)
{
    tl_status_t s = put_header(out, t, version, d);
    if (s) return s;
    void *copy;
    const void *data = c_order_data(t, &copy);
    if (!data) return tl_diag_fail(d, TL_ERR_NOMEM, "npy: out of memory");
    tl_buf_putn(out, data, tl_tensor_nbytes(t));
    free(copy);
    return out->failed ? tl_diag_fail(d, TL_ERR_NOMEM, "npy: out of memory") : TL_OK;
}

tl_status_t tl_npy_write(const char *path, const tl_tensor_t *t, int version, tl_diag_t *d)
{
    tl_buf_t head;
    tl_buf_init(&head);
    tl_status_t s = put_header(&head, t, version, d);
    void *copy = NULL;
    const void *data = s ? NULL : c_order_data(t, &copy);
    if (!s && !data) s = tl_diag_fail(d, TL_ERR_NOMEM, "npy: out of memory");
    FILE *f = s ? NULL : fopen(path, "wb");
    if (!s && !f) s = tl_diag_fail(d, TL_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
    if (f) {
        size_t n = tl_tensor_nbytes(t);
        bool ok = fwrite(head.data, 1, head.len, f) == head.len && fwrite(data, 1, n, f) == n;
        if (fclose(f) != 0) ok = false;
        if (!ok) s = tl_diag_fail(d, TL_ERR_IO, "%s: write error: %s", path, strerror(errno));
    }
    free(copy);
    tl_buf_free(&head);
    return s;
}
