// Goldens for the nibble-packed int4 dtype (upstream's int4, AscendC int4b_t):
// two elements a byte, the even element in the low nibble, each a two's
// complement 4-bit value. Written from the layout alone (docs/language.md), not
// from the tile-op library.
#include "ref/ref.h"

#include <math.h>

static const char *OP = "int4";

int tl_ref_int4_get(const uint8_t *packed, int64_t i)
{
    int nib = (packed[i / 2] >> (i % 2 ? 4 : 0)) & 0xF;
    return nib >= 8 ? nib - 16 : nib;
}

void tl_ref_int4_set(uint8_t *packed, int64_t i, int v)
{
    int shift = i % 2 ? 4 : 0;
    packed[i / 2] = (uint8_t)((packed[i / 2] & ~(0xF << shift)) | ((v & 0xF) << shift));
}

tl_status_t tl_ref_int4_gemm(int64_t m, int64_t n, int64_t k, const uint8_t *a, const uint8_t *b,
                             bool b_nk, int32_t *c, tl_diag_t *d)
{
    if (m < 0 || n < 0 || k < 0 || k % 2 || (!b_nk && n % 2))
        return tl_ref_error(d, OP, "bad gemm sizes m=%lld n=%lld k=%lld", (long long)m,
                            (long long)n, (long long)k);
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            int64_t acc = 0;
            for (int64_t q = 0; q < k; q++)
                acc += (int64_t)tl_ref_int4_get(a, i * k + q) *
                       tl_ref_int4_get(b, b_nk ? j * k + q : q * n + j);
            c[i * n + j] = (int32_t)(uint32_t)(uint64_t)acc; // modulo 2^32, as L0C wraps
        }
    return TL_OK;
}

void tl_ref_int4_quant(const float *x, int64_t count, uint8_t *packed)
{
    for (int64_t i = 0; i < count; i++) {
        double r = x[i] != x[i] ? 0.0 : nearbyint((double)x[i]); // ties to even (default mode)
        tl_ref_int4_set(packed, i, r < -8 ? -8 : r > 7 ? 7 : (int)r);
    }
}
