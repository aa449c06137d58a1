// Golden for DeepSeek-V4 hc_split_sinkhorn (mHC), dsv4_ops.md §3.2, per token:
//   z[t]    = mixes[t] * hc_scale[t < hc ? 0 : t < 2hc ? 1 : 2] + hc_base[t]
//   pre[r]  = sigmoid(z[r]) + pre_eps
//   post[r] = post_mult * sigmoid(z[hc + r])
//   C[r][c] = z[2hc + r*hc + c]
//   C = row_softmax(C) + eps          (divide by the row sum, then add eps)
//   C = C / (column sums + eps)
//   iters - 1 times: C = C / (row sums + eps); C = C / (column sums + eps)
// Computed in double, stored as float.
#include <math.h>
#include <stdlib.h>

#include "ref/ref.h"

static const char *OP = "hc_split_sinkhorn";

tl_hc_sinkhorn_params_t tl_hc_sinkhorn_defaults(int64_t n)
{
    tl_hc_sinkhorn_params_t p = {
        .n = n, .hc = 4, .iters = 20, .eps = 1e-6f, .pre_eps = 1e-6f, .post_mult = 2.0f};
    return p;
}

static double sigmoid(double z)
{
    return 1.0 / (1.0 + exp(-z));
}

static void normalize_rows(double *c, int64_t hc, double eps)
{
    for (int64_t r = 0; r < hc; r++) {
        double sum = 0;
        for (int64_t j = 0; j < hc; j++) sum += c[r * hc + j];
        for (int64_t j = 0; j < hc; j++) c[r * hc + j] /= sum + eps;
    }
}

static void normalize_cols(double *c, int64_t hc, double eps)
{
    for (int64_t j = 0; j < hc; j++) {
        double sum = 0;
        for (int64_t r = 0; r < hc; r++) sum += c[r * hc + j];
        for (int64_t r = 0; r < hc; r++) c[r * hc + j] /= sum + eps;
    }
}

static void softmax_rows_plus_eps(double *c, int64_t hc, double eps)
{
    for (int64_t r = 0; r < hc; r++) {
        double *row = c + r * hc, mx = row[0], sum = 0;
        for (int64_t j = 1; j < hc; j++)
            if (row[j] > mx) mx = row[j];
        for (int64_t j = 0; j < hc; j++) sum += (row[j] = exp(row[j] - mx));
        for (int64_t j = 0; j < hc; j++) row[j] = row[j] / sum + eps;
    }
}

tl_status_t tl_hc_sinkhorn_ref(const tl_hc_sinkhorn_params_t *p, const float *mixes,
                               const float *hc_scale, const float *hc_base, float *pre, float *post,
                               float *comb, tl_diag_t *d)
{
    if (!p) return tl_ref_error(d, OP, "no parameters");
    // hc is tiny in practice (4); the bound keeps (2+hc)*hc and hc*hc small.
    if (p->hc < 1 || p->hc > 4096) return tl_ref_error(d, OP, "hc must be in [1, 4096]");
    if (p->iters < 1) return tl_ref_error(d, OP, "sinkhorn iterations must be >= 1");
    const int64_t hc = p->hc, mix = (2 + hc) * hc;
    size_t count;
    tl_status_t st;
    int64_t three = 3;
    int64_t mixdims[] = {p->n, mix}, vecdims[] = {p->n, hc}, combdims[] = {p->n, hc, hc};
    if ((st = tl_ref_tensor(d, OP, "mixes", mixes, false, 2, mixdims, &count)) ||
        (st = tl_ref_tensor(d, OP, "hc_scale", hc_scale, false, 1, &three, &count)) ||
        (st = tl_ref_tensor(d, OP, "hc_base", hc_base, false, 1, &mix, &count)) ||
        (st = tl_ref_tensor(d, OP, "pre", pre, false, 2, vecdims, &count)) ||
        (st = tl_ref_tensor(d, OP, "post", post, false, 2, vecdims, &count)) ||
        (st = tl_ref_tensor(d, OP, "comb", comb, false, 3, combdims, &count)))
        return st;

    double *z = tl_ref_alloc((size_t)mix, sizeof *z);
    if (!z) return tl_ref_nomem(d, OP);
    const double eps = p->eps;
    for (int64_t t = 0; t < p->n; t++) {
        const float *mt = mixes + (size_t)(t * mix);
        for (int64_t i = 0; i < mix; i++) {
            float a = hc_scale[i < hc ? 0 : i < 2 * hc ? 1 : 2];
            z[i] = (double)mt[i] * (double)a + (double)hc_base[i];
        }
        for (int64_t r = 0; r < hc; r++) {
            pre[t * hc + r] = (float)(sigmoid(z[r]) + (double)p->pre_eps);
            post[t * hc + r] = (float)((double)p->post_mult * sigmoid(z[hc + r]));
        }
        double *c = z + 2 * hc;
        softmax_rows_plus_eps(c, hc, eps);
        normalize_cols(c, hc, eps);
        for (int64_t it = 1; it < p->iters; it++) {
            normalize_rows(c, hc, eps);
            normalize_cols(c, hc, eps);
        }
        for (int64_t i = 0; i < hc * hc; i++) comb[(size_t)(t * hc * hc + i)] = (float)c[i];
    }
    free(z);
    return TL_OK;
}
