// The .npy preamble and header dict parser (see npy.h for the format).
//
// Grammar of the header (a Python literal, the subset NumPy writes):
//   header = ws dict ws
//   dict   = '{' [ item { ',' item } [ ',' ] ] '}'
//   item   = string ':' value      keys: 'descr', 'fortran_order', 'shape'
//   descr  = string | '[' '(' string ',' string ')' [ ',' ] ']'
//   bool   = 'True' | 'False'
//   shape  = '(' ')' | '(' int ',' ')' | '(' int { ',' int } [ ',' ] ')'
//   string = "'" chars "'" | '"' chars '"'    (no escapes)
// Every error names the file and stops at the first problem.
#include "rt/npy.h"

#include <stdarg.h>
#include <string.h>

typedef struct {
    const char *name;
    const char *p, *end; // the rest of the header text
    tl_diag_t *d;
} parser_t;

static tl_status_t fail(parser_t *ps, tl_status_t code, const char *fmt, ...) TL_PRINTF(3, 4);

static tl_status_t fail(parser_t *ps, tl_status_t code, const char *fmt, ...)
{
    if (!ps->d) return code;
    tl_buf_t msg;
    tl_buf_init(&msg);
    va_list ap;
    va_start(ap, fmt);
    tl_buf_vprintf(&msg, fmt, ap);
    va_end(ap);
    tl_diag_report(ps->d, TL_SEV_ERROR, (tl_loc_t){0}, code, "%s: %s", ps->name, tl_buf_cstr(&msg));
    tl_buf_free(&msg);
    return code;
}

static void skip_ws(parser_t *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
        ps->p++;
}

// Skips blanks, then consumes c if it is next.
static bool accept(parser_t *ps, char c)
{
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == c) {
        ps->p++;
        return true;
    }
    return false;
}

// A short printable description of what comes next, for "expected X, found Y".
static const char *found(parser_t *ps, char *buf, size_t size)
{
    skip_ws(ps);
    if (ps->p >= ps->end) return "the end of the header";
    size_t n = 0;
    buf[n++] = '\'';
    for (const char *q = ps->p; q < ps->end && n + 2 < size && n < 13; q++)
        buf[n++] = *q >= 0x20 && *q < 0x7f ? *q : '?';
    buf[n++] = '\'';
    buf[n] = 0;
    return buf;
}

static tl_status_t expect(parser_t *ps, char c, const char *what)
{
    if (accept(ps, c)) return TL_OK;
    char buf[20];
    return fail(ps, TL_ERR_FORMAT, "header: expected %s, found %s", what,
                found(ps, buf, sizeof buf));
}

static tl_status_t parse_string(parser_t *ps, const char **s, size_t *n)
{
    skip_ws(ps);
    if (ps->p >= ps->end || (*ps->p != '\'' && *ps->p != '"')) {
        char buf[20];
        return fail(ps, TL_ERR_FORMAT, "header: expected a string, found %s",
                    found(ps, buf, sizeof buf));
    }
    char q = *ps->p++;
    const char *start = ps->p;
    while (ps->p < ps->end && *ps->p != q && *ps->p != '\\' && *ps->p != '\n') ps->p++;
    if (ps->p >= ps->end || *ps->p != q)
        return fail(ps, TL_ERR_FORMAT, "header: unterminated or escaped string");
    *s = start;
    *n = (size_t)(ps->p - start);
    ps->p++;
    return TL_OK;
}

static bool word(parser_t *ps, const char *w)
{
    skip_ws(ps);
    size_t n = strlen(w);
    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, w, n) != 0) return false;
    const char *after = ps->p + n;
    if (after < ps->end && (*after == '_' || (unsigned)((*after | 0x20) - 'a') < 26u ||
                            (unsigned)(*after - '0') < 10u))
        return false;
    ps->p = after;
    return true;
}

// A simple descr such as '<f4': byte order, kind, size.
static tl_status_t simple_descr(parser_t *ps, const char *s, size_t n, tl_npy_header_t *h)
{
    static const struct {
        char kind;
        int size;
        tl_dtype_t dtype;
    } types[] = {{'b', 1, TL_BOOL}, {'i', 1, TL_I8},  {'u', 1, TL_U8},  {'i', 2, TL_I16},
                 {'u', 2, TL_U16},  {'i', 4, TL_I32}, {'u', 4, TL_U32}, {'i', 8, TL_I64},
                 {'u', 8, TL_U64},  {'f', 2, TL_F16}, {'f', 4, TL_F32}, {'f', 8, TL_F64}};
    const uint16_t one = 1;
    bool host_little = *(const uint8_t *)&one == 1;
    bool has_order = n > 0 && s[0] && strchr("<>|=", s[0]);
    char order = has_order ? s[0] : '=';
    const char *t = s + has_order;
    size_t tn = n - has_order;
    for (size_t i = 0; i < TL_ARRAY_LEN(types); i++) {
        if (tn != 2 || t[0] != types[i].kind || t[1] != '0' + types[i].size) continue;
        if (order == '|' && types[i].size > 1) break;
        h->dtype = types[i].dtype;
        h->byteswap =
            types[i].size > 1 && ((order == '<' && !host_little) || (order == '>' && host_little));
        return TL_OK;
    }
    return fail(ps, TL_ERR_FORMAT,
                "unsupported descr '%.*s' (tilec reads bool, int8..int64, "
                "uint8..uint64, float16/32/64 and its structured "
                "bfloat16/float8 types)",
                (int)TL_MIN(n, 40), s);
}

// [('bfloat16', '<u2')] and the float8 equivalents.
static tl_status_t structured_descr(parser_t *ps, tl_npy_header_t *h)
{
    static const struct {
        const char *field;
        tl_dtype_t bits, dtype;
    } fields[] = {{"bfloat16", TL_U16, TL_BF16},
                  {"float8_e4m3fn", TL_U8, TL_F8E4M3},
                  {"float8_e5m2", TL_U8, TL_F8E5M2}};
    const char *f, *t;
    size_t fn, tn;
    tl_status_t s;
    if ((s = expect(ps, '(', "'(' starting a structured field")) ||
        (s = parse_string(ps, &f, &fn)) || (s = expect(ps, ',', "',' after the field name")) ||
        (s = parse_string(ps, &t, &tn)))
        return s;
    // Anything else (a subarray shape, more fields) is a structured type we do not read.
    bool closed = accept(ps, ')');
    if (closed) accept(ps, ',');
    if (!closed || !accept(ps, ']'))
        return fail(ps, TL_ERR_FORMAT,
                    "unsupported structured descr: tilec reads only a single "
                    "field named bfloat16, float8_e4m3fn or float8_e5m2");
    for (size_t i = 0; i < TL_ARRAY_LEN(fields); i++) {
        if (strlen(fields[i].field) != fn || memcmp(fields[i].field, f, fn) != 0) continue;
        if ((s = simple_descr(ps, t, tn, h))) return s;
        if (h->dtype != fields[i].bits)
            return fail(ps, TL_ERR_FORMAT, "structured field '%s' must hold %s bits, not '%.*s'",
                        fields[i].field, tl_dtype_name(fields[i].bits), (int)TL_MIN(tn, 40), t);
        h->dtype = fields[i].dtype;
        h->structured = true;
        return TL_OK;
    }
    return fail(ps, TL_ERR_FORMAT,
                "unsupported structured field '%.*s' (tilec knows bfloat16, "
                "float8_e4m3fn and float8_e5m2)",
                (int)TL_MIN(fn, 40), f);
}

static tl_status_t parse_descr(parser_t *ps, tl_npy_header_t *h)
{
    if (accept(ps, '[')) return structured_descr(ps, h);
    const char *s;
    size_t n;
    tl_status_t st = parse_string(ps, &s, &n);
    return st ? st : simple_descr(ps, s, n, h);
}

static tl_status_t parse_dim(parser_t *ps, int64_t *out)
{
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == '-')
        return fail(ps, TL_ERR_FORMAT, "shape has a negative dimension");
    if (ps->p >= ps->end || (unsigned)(*ps->p - '0') >= 10u) {
        char buf[20];
        return fail(ps, TL_ERR_FORMAT, "header: expected a dimension, found %s",
                    found(ps, buf, sizeof buf));
    }
    uint64_t v = 0;
    while (ps->p < ps->end && (unsigned)(*ps->p - '0') < 10u) {
        unsigned digit = (unsigned)(*ps->p++ - '0');
        if (v > ((uint64_t)INT64_MAX - digit) / 10)
            return fail(ps, TL_ERR_FORMAT, "shape has a dimension too large for 64 bits");
        v = v * 10 + digit;
    }
    if (ps->p < ps->end && *ps->p == 'L') ps->p++; // Python 2 longs in old files
    *out = (int64_t)v;
    return TL_OK;
}

static tl_status_t parse_shape(parser_t *ps, tl_npy_header_t *h)
{
    tl_status_t s;
    if ((s = expect(ps, '(', "'(' starting the shape tuple"))) return s;
    h->ndim = 0;
    while (!accept(ps, ')')) {
        int64_t dim = 0;
        if ((s = parse_dim(ps, &dim))) return s;
        if (h->ndim == TL_TENSOR_MAX_DIMS)
            return fail(ps, TL_ERR_UNSUPPORTED, "shape has more than %d dimensions",
                        TL_TENSOR_MAX_DIMS);
        h->shape[h->ndim++] = dim;
        if (accept(ps, ')')) break;
        if ((s = expect(ps, ',', "',' or ')' in the shape tuple"))) return s;
    }
    return TL_OK;
}

enum { KEY_DESCR, KEY_FORTRAN, KEY_SHAPE, NKEYS };
static const char *const key_names[NKEYS] = {"descr", "fortran_order", "shape"};

static tl_status_t parse_item(parser_t *ps, tl_npy_header_t *h, bool seen[NKEYS])
{
    const char *k;
    size_t kn;
    tl_status_t s;
    if ((s = parse_string(ps, &k, &kn))) return s;
    int key = 0;
    while (key < NKEYS && (strlen(key_names[key]) != kn || memcmp(key_names[key], k, kn) != 0))
        key++;
    if (key == NKEYS)
        return fail(ps, TL_ERR_FORMAT, "header has an unexpected key '%.*s'", (int)TL_MIN(kn, 40),
                    k);
    if (seen[key]) return fail(ps, TL_ERR_FORMAT, "header repeats the key '%s'", key_names[key]);
    seen[key] = true;
    if ((s = expect(ps, ':', "':' after a key"))) return s;
    switch (key) {
    case KEY_DESCR: return parse_descr(ps, h);
    case KEY_SHAPE: return parse_shape(ps, h);
    default:
        if (word(ps, "False")) return TL_OK;
        if (word(ps, "True"))
            return fail(ps, TL_ERR_UNSUPPORTED,
                        "fortran_order True is unsupported (tilec reads C-order arrays only)");
        return fail(ps, TL_ERR_FORMAT, "header: fortran_order must be True or False");
    }
}

static tl_status_t parse_dict(parser_t *ps, tl_npy_header_t *h)
{
    bool seen[NKEYS] = {false};
    tl_status_t s;
    if ((s = expect(ps, '{', "a dict literal '{'"))) return s;
    while (!accept(ps, '}')) {
        if ((s = parse_item(ps, h, seen))) return s;
        if (accept(ps, '}')) break;
        if ((s = expect(ps, ',', "',' or '}' in the header dict"))) return s;
    }
    skip_ws(ps);
    if (ps->p != ps->end) return fail(ps, TL_ERR_FORMAT, "header: characters after the dict");
    for (int k = 0; k < NKEYS; k++)
        if (!seen[k])
            return fail(ps, TL_ERR_FORMAT, "header is missing the key '%s'", key_names[k]);
    return TL_OK;
}

static uint32_t le(const unsigned char *p, int n)
{
    uint32_t v = 0;
    for (int i = n - 1; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

tl_status_t tl_npy_header_parse(const void *buf, size_t len, size_t file_len, const char *name,
                                tl_npy_header_t *h, tl_diag_t *d)
{
    const unsigned char *b = buf;
    parser_t ps = {name ? name : "<memory>", NULL, NULL, d};
    memset(h, 0, sizeof *h);
    if (len < 8 || memcmp(b, "\x93NUMPY", 6) != 0)
        return fail(&ps, TL_ERR_FORMAT, "bad magic: not a .npy file");
    h->major = b[6], h->minor = b[7];
    if (h->major < 1 || h->major > 3 || h->minor != 0)
        return fail(&ps, TL_ERR_UNSUPPORTED,
                    "unsupported .npy format version %d.%d (tilec reads 1.0, 2.0 and 3.0)",
                    h->major, h->minor);
    size_t lenbytes = h->major == 1 ? 2 : 4;
    if (len < 8 + lenbytes)
        return fail(&ps, TL_ERR_FORMAT, "truncated: the file ends inside the header length");
    size_t hlen = le(b + 8, (int)lenbytes);
    if (hlen > TL_NPY_MAX_HEADER)
        return fail(&ps, TL_ERR_FORMAT, "header length %zu exceeds the limit of %u bytes", hlen,
                    TL_NPY_MAX_HEADER);
    h->data_offset = 8 + lenbytes + hlen;
    if (h->data_offset > len)
        return fail(&ps, TL_ERR_FORMAT,
                    "header length %zu runs past the end of the file (%zu bytes)", hlen, file_len);
    ps.p = (const char *)b + 8 + lenbytes;
    ps.end = ps.p + hlen;
    tl_status_t s = parse_dict(&ps, h);
    if (s) return s;
    // The non-zero extents must fit even in an empty array: a tensor's strides
    // are their products.
    uint64_t nbytes = (uint64_t)tl_dtype_size(h->dtype);
    uint64_t max = SIZE_MAX < INT64_MAX ? SIZE_MAX : INT64_MAX;
    bool empty = false;
    for (int i = 0; i < h->ndim; i++) {
        if (h->shape[i] == 0) {
            empty = true;
            continue;
        }
        if ((uint64_t)h->shape[i] > max / nbytes) {
            tl_buf_t shape;
            tl_buf_init(&shape);
            tl_tensor_format_dims(&shape, h->ndim, h->shape);
            fail(&ps, TL_ERR_FORMAT, "shape %s: the array size overflows", tl_buf_cstr(&shape));
            tl_buf_free(&shape);
            return TL_ERR_FORMAT;
        }
        nbytes *= (uint64_t)h->shape[i];
    }
    if (empty) nbytes = 0;
    h->nbytes = (size_t)nbytes;
    size_t have = file_len - h->data_offset;
    if (have < h->nbytes)
        return fail(&ps, TL_ERR_FORMAT, "truncated: expected %zu bytes of data, file has %zu",
                    h->nbytes, have);
    if (have > h->nbytes)
        return fail(&ps, TL_ERR_FORMAT, "trailing garbage: %zu bytes after the %zu bytes of data",
                    have - h->nbytes, h->nbytes);
    return TL_OK;
}
