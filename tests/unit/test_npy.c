// .npy I/O: round trips of every dtype and version, reading with a requested
// dtype, NumPy-written files checked in under tests/data/npy/numpy, and one test
// per malformed file under tests/data/npy/bad (each with its expected message).
#include "../test.h"

#include <dirent.h>
#include <sys/stat.h>
#include <stdlib.h>

#include "rt/npy.h"

// The values tests/data/npy/gen.py writes: k = 7i mod 13; signed k - 6,
// unsigned k, bool k mod 2, floats (k - 6) / 2.
static double formula(tl_dtype_t dt, size_t i)
{
    int k = (int)(7 * i % 13);
    if (dt == TL_BOOL) return k % 2;
    if (tl_dtype_is_float(dt)) return (k - 6) / 2.0;
    return tl_dtype_kind(dt) == TL_KIND_UINT ? k : k - 6;
}

static tl_tensor_t *make_formula(tl_dtype_t dt, int ndim, const int64_t *shape)
{
    tl_tensor_t *x;
    if (tl_tensor_create(&x, dt, ndim, shape, NULL) != TL_OK) return NULL;
    for (size_t i = 0; i < tl_tensor_numel(x); i++) tl_tensor_set_flat(x, i, formula(dt, i));
    return x;
}

static int formula_mismatches(const tl_tensor_t *x)
{
    int bad = 0;
    for (size_t i = 0; i < tl_tensor_numel(x); i++)
        bad += tl_tensor_get_flat(x, i) != formula(x->dtype, i);
    return bad;
}

TEST(npy_round_trip_every_dtype_and_version)
{
    static const int64_t shapes[3][3] = {{2, 3, 5}, {0}, {0, 4}};
    static const int ranks[3] = {3, 0, 2};
    for (int dt = 0; dt < TL_DTYPE_COUNT; dt++)
        for (int version = 1; version <= 3; version++)
            for (int s = 0; s < 3; s++) {
                tl_tensor_t *x = make_formula((tl_dtype_t)dt, ranks[s], shapes[s]), *y = NULL;
                REQUIRE(x);
                tl_buf_t b;
                tl_buf_init(&b);
                tl_diag_t d;
                tl_diag_init(&d);
                CHECK(tl_npy_encode(x, version, &b, &d) == TL_OK);
                tl_npy_header_t h;
                CHECK(tl_npy_header_parse(b.data, b.len, b.len, "rt", &h, &d) == TL_OK);
                CHECK_EQ(h.major, version);
                CHECK_EQ(h.data_offset % 64, 0);
                CHECK_EQ(h.structured, dt == TL_BF16 || dt == TL_F8E4M3 || dt == TL_F8E5M2);
                CHECK(tl_npy_parse(b.data, b.len, "rt", TL_NPY_FILE_DTYPE, &y, &d) == TL_OK);
                if (!y) {
                    tl_test_fail(t, __FILE__, __LINE__, "%s v%d: %s", tl_dtype_name(dt), version,
                                 tl_diag_text(&d));
                } else {
                    CHECK_EQ(y->dtype, dt);
                    CHECK(tl_tensor_same_shape(x, y));
                    CHECK(memcmp(x->data, y->data, tl_tensor_nbytes(x)) == 0);
                    CHECK_EQ(formula_mismatches(y), 0);
                }
                tl_tensor_destroy(x);
                tl_tensor_destroy(y);
                tl_buf_free(&b);
                tl_diag_free(&d);
            }
}

TEST(npy_header_text_and_file_round_trip)
{
    int64_t shape[] = {3};
    tl_tensor_t *x = make_formula(TL_BF16, 1, shape), *y;
    REQUIRE(x);
    tl_buf_t b;
    tl_buf_init(&b);
    REQUIRE(tl_npy_encode(x, 0, &b, NULL) == TL_OK);
    CHECK_EQ(b.len, 128 + 6);
    CHECK(memcmp(b.data, "\x93NUMPY\x01\x00\x76\x00", 10) == 0);
    const char *dict = "{'descr': [('bfloat16', '<u2')], 'fortran_order': False, 'shape': (3,), }";
    CHECK(memcmp(b.data + 10, dict, strlen(dict)) == 0);
    CHECK_EQ(b.data[127], '\n');
    char path[1024];
    snprintf(path, sizeof path, "%s", tl_test_tmp("npy_rt_bf16.npy"));
    tl_diag_t d;
    tl_diag_init(&d);
    REQUIRE(tl_npy_write(path, x, 0, &d) == TL_OK);
    size_t len;
    char *file = tl_test_read_file(path, &len);
    REQUIRE(file);
    CHECK(len == b.len && memcmp(file, b.data, len) == 0); // write == encode
    REQUIRE(tl_npy_read(path, TL_NPY_FILE_DTYPE, &y, &d) == TL_OK);
    CHECK_EQ(y->dtype, TL_BF16);
    CHECK_EQ(formula_mismatches(y), 0);
    free(file);
    tl_buf_free(&b);
    tl_diag_free(&d);
    tl_tensor_destroy(x);
    tl_tensor_destroy(y);
}

TEST(npy_writes_strided_tensors_in_c_order)
{
    int16_t mem[6] = {0, 1, 2, 3, 4, 5};
    int64_t shape[] = {3, 2}, strides[] = {1, 3};
    tl_tensor_t *x, *y;
    REQUIRE(tl_tensor_wrap(&x, TL_I16, 2, shape, strides, mem, NULL) == TL_OK);
    tl_buf_t b;
    tl_buf_init(&b);
    REQUIRE(tl_npy_encode(x, 1, &b, NULL) == TL_OK);
    REQUIRE(tl_npy_parse(b.data, b.len, NULL, TL_NPY_FILE_DTYPE, &y, NULL) == TL_OK);
    static const int16_t expect[6] = {0, 3, 1, 4, 2, 5};
    CHECK(memcmp(y->data, expect, sizeof expect) == 0);
    CHECK(y->shape[0] == 3 && y->shape[1] == 2);
    tl_buf_free(&b);
    tl_tensor_destroy(x);
    tl_tensor_destroy(y);
}

// Encodes `x` and reads it back as `want`; NULL (and the message in d) on error.
static tl_tensor_t *reread(const tl_tensor_t *x, tl_dtype_t want, tl_diag_t *d)
{
    tl_buf_t b;
    tl_buf_init(&b);
    tl_tensor_t *y = NULL;
    if (tl_npy_encode(x, 0, &b, d) == TL_OK) tl_npy_parse(b.data, b.len, "x.npy", want, &y, d);
    tl_buf_free(&b);
    return y;
}

TEST(npy_read_converts_floats_with_rint)
{
    static const float v[] = {1.0f + 0x1p-8f, 1.0f + 3 * 0x1p-8f, -3.14159f,
                              1e-3f,          70000.0f,           0x1p-20f};
    int64_t shape[] = {6};
    tl_tensor_t *f32;
    REQUIRE(tl_tensor_wrap(&f32, TL_F32, 1, shape, NULL, (void *)v, NULL) == TL_OK);
    static const tl_dtype_t targets[] = {TL_BF16, TL_F16, TL_F64, TL_F8E4M3, TL_F8E5M2};
    for (size_t k = 0; k < TL_ARRAY_LEN(targets); k++) {
        tl_tensor_t *y = reread(f32, targets[k], NULL);
        REQUIRE(y);
        CHECK_EQ(y->dtype, targets[k]);
        unsigned char expect[6 * 8];
        tl_convert(targets[k], expect, TL_F32, v, 6, TL_CAST_RINT);
        CHECK(memcmp(y->data, expect, tl_tensor_nbytes(y)) == 0);
        // And back: every narrow float widens exactly to float32.
        tl_tensor_t *z = reread(y, TL_F32, NULL);
        REQUIRE(z);
        for (size_t i = 0; i < 6; i++) CHECK(tl_tensor_get_flat(z, i) == tl_tensor_get_flat(y, i));
        tl_tensor_destroy(y);
        tl_tensor_destroy(z);
    }
    tl_tensor_destroy(f32);
}

TEST(npy_read_raw_bits_and_rejects_other_types)
{
    int64_t shape[] = {4};
    tl_tensor_t *u16 = make_formula(TL_U16, 1, shape), *u8 = make_formula(TL_U8, 1, shape);
    tl_tensor_t *i32 = make_formula(TL_I32, 1, shape), *bf = make_formula(TL_BF16, 1, shape);
    REQUIRE(u16 && u8 && i32 && bf);
    tl_tensor_t *y = reread(u16, TL_BF16, NULL);
    REQUIRE(y);
    CHECK_EQ(y->dtype, TL_BF16);
    CHECK(memcmp(y->data, u16->data, 8) == 0);
    tl_tensor_destroy(y);
    static const tl_dtype_t fp8[] = {TL_F8E4M3, TL_F8E5M2};
    for (int k = 0; k < 2; k++) {
        REQUIRE((y = reread(u8, fp8[k], NULL)) != NULL);
        CHECK_EQ(y->dtype, fp8[k]);
        CHECK(memcmp(y->data, u8->data, 4) == 0);
        tl_tensor_destroy(y);
    }
    tl_diag_t d;
    tl_diag_init(&d);
    CHECK(reread(i32, TL_F32, &d) == NULL);
    CHECK_CONTAINS(tl_diag_text(&d),
                   "x.npy: the file holds int32, which cannot be read as float32");
    CHECK(reread(i32, TL_I64, &d) == NULL);
    CHECK(reread(u16, TL_F16, &d) == NULL); // '<u2' stands for bfloat16 bits only
    CHECK(reread(bf, TL_U16, &d) == NULL);  // a structured bfloat16 file is a float
    CHECK_CONTAINS(tl_diag_text(&d), "holds bfloat16, which cannot be read as uint16");
    CHECK_EQ(d.nerrors, 4);
    tl_diag_free(&d);
    tl_tensor_destroy(u16);
    tl_tensor_destroy(u8);
    tl_tensor_destroy(i32);
    tl_tensor_destroy(bf);
}

TEST(npy_io_errors_name_the_file)
{
    tl_diag_t d;
    tl_diag_init(&d);
    tl_tensor_t *x;
    CHECK(tl_npy_read("tests/data/npy/no-such-file.npy", TL_F32, &x, &d) == TL_ERR_IO);
    CHECK(x == NULL);
    CHECK_CONTAINS(tl_diag_text(&d), "no-such-file.npy: cannot open");
    int64_t shape[] = {2};
    REQUIRE(tl_tensor_create(&x, TL_F32, 1, shape, NULL) == TL_OK);
    CHECK(tl_npy_write(tl_test_tmp("no-dir/x.npy"), x, 0, &d) == TL_ERR_IO);
    CHECK_CONTAINS(tl_diag_text(&d), "no-dir/x.npy: cannot create");
    CHECK(tl_npy_write(tl_test_tmp("v9.npy"), x, 9, &d) == TL_ERR_ARG);
    CHECK_CONTAINS(tl_diag_text(&d), "cannot write format version 9");
    tl_diag_free(&d);
    tl_tensor_destroy(x);
}

// The files tests/data/npy/gen.py makes NumPy write, checked in DIR.
static void check_numpy_files(tl_test_t *t, const char *dir)
{
    static const struct {
        const char *file;
        tl_dtype_t dtype;
        int ndim;
        int64_t shape[2];
    } files[] = {
        {"int8_2x3", TL_I8, 2, {2, 3}},       {"uint8_2x3", TL_U8, 2, {2, 3}},
        {"int16_2x3", TL_I16, 2, {2, 3}},     {"uint16_2x3", TL_U16, 2, {2, 3}},
        {"int32_2x3", TL_I32, 2, {2, 3}},     {"uint32_2x3", TL_U32, 2, {2, 3}},
        {"int64_2x3", TL_I64, 2, {2, 3}},     {"uint64_2x3", TL_U64, 2, {2, 3}},
        {"bool_2x3", TL_BOOL, 2, {2, 3}},     {"float16_2x3", TL_F16, 2, {2, 3}},
        {"float32_2x3", TL_F32, 2, {2, 3}},   {"float64_2x3", TL_F64, 2, {2, 3}},
        {"bfloat16_2x3", TL_BF16, 2, {2, 3}}, {"float32_be", TL_F32, 1, {5}},
        {"int64_be", TL_I64, 2, {2, 2}},      {"float64_scalar", TL_F64, 0, {0}},
        {"int32_empty", TL_I32, 2, {3, 0}},   {"float32_v2", TL_F32, 2, {4, 4}},
        {"int16_v3", TL_I16, 1, {7}},
    };
    for (size_t f = 0; f < TL_ARRAY_LEN(files); f++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s.npy", dir, files[f].file);
        tl_diag_t d;
        tl_diag_init(&d);
        tl_tensor_t *x;
        if (tl_npy_read(path, TL_NPY_FILE_DTYPE, &x, &d) != TL_OK) {
            tl_test_fail(t, __FILE__, __LINE__, "%s", tl_diag_text(&d));
        } else {
            CHECK_EQ(x->dtype, files[f].dtype);
            CHECK_EQ(x->ndim, files[f].ndim);
            for (int i = 0; i < x->ndim; i++) CHECK_EQ(x->shape[i], files[f].shape[i]);
            if (formula_mismatches(x)) tl_test_fail(t, __FILE__, __LINE__, "%s: values", path);
            tl_tensor_destroy(x);
        }
        // Every proper prefix of a good file is an error, never a crash or an over-read.
        size_t len;
        char *data = tl_test_read_file(path, &len);
        REQUIRE(data);
        for (size_t n = 0; n < len; n++) {
            char *copy = malloc(n ? n : 1);
            memcpy(copy, data, n);
            tl_tensor_t *y = NULL;
            CHECK(tl_npy_parse(copy, n, path, TL_NPY_FILE_DTYPE, &y, NULL) != TL_OK);
            tl_tensor_destroy(y);
            free(copy);
        }
        free(data);
        tl_diag_free(&d);
    }
}

// Written by NumPy 1.24 and checked in, so this runs without Python too.
TEST(npy_reads_checked_in_numpy_files)
{
    check_numpy_files(t, "tests/data/npy/numpy");
}

// --- live NumPy interop (skipped without /usr/bin/python3 + numpy) ------------

static bool have_numpy(tl_test_t *t)
{
    char *argv[] = {"/usr/bin/python3", "-c", "import numpy", NULL};
    if (tl_test_run(argv, NULL) == 0) return true;
    tl_test_skip(t, "needs /usr/bin/python3 with numpy (Debian python3-numpy; `make setup` "
                    "installs it as root)");
    return false;
}

TEST(npy_numpy_writes_tilec_reads)
{
    if (!have_numpy(t)) return;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", tl_test_tmp("npy_from_numpy"));
    char *argv[] = {"/usr/bin/python3", "tests/data/npy/gen.py", "numpy", dir, NULL}, *out;
    int rc = tl_test_run(argv, &out);
    if (rc != 0) tl_test_fail(t, __FILE__, __LINE__, "gen.py numpy: exit %d\n%s", rc, out);
    free(out);
    if (rc == 0) check_numpy_files(t, dir);
}

// Writes name "<dtype>-<shape>-v<version>.npy" for gen.py check.
static void write_for_numpy(tl_test_t *t, const char *dir, tl_tensor_t *x, int version)
{
    REQUIRE(x);
    for (size_t i = 0; i < tl_tensor_numel(x); i++) tl_tensor_set_flat(x, i, formula(x->dtype, i));
    char shape[64] = "scalar", path[1200];
    for (int i = 0, n = 0; i < x->ndim; i++)
        n += snprintf(shape + n, sizeof shape - (size_t)n, "%s%lld", i ? "x" : "",
                      (long long)x->shape[i]);
    snprintf(path, sizeof path, "%s/%s-%s-v%d.npy", dir, tl_dtype_name(x->dtype), shape,
             version ? version : 1);
    tl_diag_t d;
    tl_diag_init(&d);
    if (tl_npy_write(path, x, version, &d) != TL_OK)
        tl_test_fail(t, __FILE__, __LINE__, "%s", tl_diag_text(&d));
    tl_diag_free(&d);
}

TEST(npy_tilec_writes_numpy_reads)
{
    if (!have_numpy(t)) return;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", tl_test_tmp("npy_for_numpy"));
    REQUIRE(mkdir(dir, 0777) == 0);
    int64_t shape[] = {2, 3, 5};
    int nfiles = 0;
    for (int dt = 0; dt < TL_DTYPE_COUNT; dt++, nfiles++) {
        tl_tensor_t *x = make_formula((tl_dtype_t)dt, 3, shape);
        write_for_numpy(t, dir, x, 0);
        tl_tensor_destroy(x);
    }
    // Versions 2 and 3, a scalar, an empty array and a strided (transposed) view.
    static const struct {
        tl_dtype_t dtype;
        int version, ndim;
        int64_t shape[2];
    } extra[] = {{TL_F32, 2, 2, {4, 4}},
                 {TL_BF16, 3, 1, {7}},
                 {TL_I64, 1, 0, {0}},
                 {TL_F8E4M3, 1, 0, {0}},
                 {TL_F16, 1, 2, {0, 4}}};
    for (size_t i = 0; i < TL_ARRAY_LEN(extra); i++, nfiles++) {
        tl_tensor_t *x;
        REQUIRE(tl_tensor_create(&x, extra[i].dtype, extra[i].ndim, extra[i].shape, NULL) == TL_OK);
        write_for_numpy(t, dir, x, extra[i].version);
        tl_tensor_destroy(x);
    }
    uint16_t mem[10];
    int64_t vshape[] = {5, 2}, vstrides[] = {1, 5};
    tl_tensor_t *view;
    REQUIRE(tl_tensor_wrap(&view, TL_BF16, 2, vshape, vstrides, mem, NULL) == TL_OK);
    write_for_numpy(t, dir, view, 1);
    tl_tensor_destroy(view);
    nfiles++;
    char *argv[] = {"/usr/bin/python3", "tests/data/npy/gen.py", "check", dir, NULL}, *out;
    int rc = tl_test_run(argv, &out);
    char expect[64];
    snprintf(expect, sizeof expect, "checked %d files, 0 bad", nfiles);
    if (rc != 0 || !out || !strstr(out, expect))
        tl_test_fail(t, __FILE__, __LINE__, "gen.py check: exit %d, want \"%s\":\n%s", rc, expect,
                     out ? out : "");
    free(out);
}

// --- malformed files --------------------------------------------------------

static void bad_file(tl_test_t *t, void *arg)
{
    const char *path = arg;
    char expect_path[1024];
    snprintf(expect_path, sizeof expect_path, "%.*s.expect", (int)(strlen(path) - 4), path);
    char *expect = tl_test_read_file(expect_path, NULL);
    REQUIRE(expect);
    expect[strcspn(expect, "\n")] = 0;
    tl_diag_t d;
    tl_diag_init(&d);
    tl_tensor_t dummy, *x = &dummy;
    CHECK(tl_npy_read(path, TL_F32, &x, &d) != TL_OK);
    CHECK(x == NULL);
    CHECK_EQ(d.nerrors, 1);
    CHECK_CONTAINS(tl_diag_text(&d), path); // the message names the file
    CHECK_CONTAINS(tl_diag_text(&d), expect);
    // The in-memory entry point says the same. No prefix of the file makes the
    // reader crash or read past its input (buffers sized exactly, for ASan).
    size_t len;
    char *data = tl_test_read_file(path, &len);
    REQUIRE(data);
    for (size_t n = 0; n <= len; n++) {
        char *copy = malloc(n ? n : 1);
        memcpy(copy, data, n);
        tl_diag_clear(&d);
        tl_status_t s = tl_npy_parse(copy, n, "mem", TL_F32, &x, &d);
        if (n == len) {
            CHECK(s != TL_OK);
            CHECK_CONTAINS(tl_diag_text(&d), expect);
        }
        tl_tensor_destroy(x);
        free(copy);
    }
    free(data);
    free(expect);
    tl_diag_free(&d);
}

TEST_GENERATOR(npy_bad)
{
    const char *dir = "tests/data/npy/bad";
    DIR *dp = opendir(dir);
    if (!dp) return;
    struct dirent *e;
    while ((e = readdir(dp))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".npy") != 0) continue;
        char name[300], *path = malloc(n + strlen(dir) + 2); // the runner keeps path
        snprintf(name, sizeof name, "npy_bad:%.*s", (int)(n - 4), e->d_name);
        sprintf(path, "%s/%s", dir, e->d_name);
        tl_test_add(name, bad_file, path);
    }
    closedir(dp);
}
