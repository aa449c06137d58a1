// Golden for DeepSeek-V4 sparse (top-k gathered) MQA attention with a per-head
// attention sink, dsv4_ops.md §2.2/§2.3. For each (batch, query, head):
//   V   = slots s with 0 <= idx[s] < n (a list: duplicates count)
//   x_s = scale * q . kv[idx[s]]
//   M   = max(max_s x_s, sink)
//   Z   = exp(sink - M) + sum_s exp(x_s - M)
//   out = sum_s exp(x_s - M) / Z * kv[idx[s]]
// With p_prec, exp(x_s - M) is rounded before the P.V product while Z keeps the
// unrounded values (the kernels sum their fp32 scores and cast P for the matmul);
// for k <= 64 and sink <= max x_s this M is the kernels' running max too.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ref/ref.h"

static const char *OP = "sparse_attn";

static tl_status_t check(const tl_sparse_attn_params_t *p, const float *q, const float *kv,
                         const float *sink, const int32_t *idx, const float *out, tl_diag_t *d)
{
    if (!p) return tl_ref_error(d, OP, "no parameters");
    size_t count;
    tl_status_t st;
    int64_t qdims[] = {p->b, p->m, p->h, p->d};
    int64_t kvdims[] = {p->b, p->n, p->d};
    int64_t idxdims[] = {p->b, p->m, p->k};
    if ((st = tl_ref_tensor(d, OP, "q", q, false, 4, qdims, &count)) ||
        (st = tl_ref_tensor(d, OP, "kv", kv, false, 3, kvdims, &count)) ||
        (st = tl_ref_tensor(d, OP, "topk_idxs", idx, false, 3, idxdims, &count)) ||
        (st = tl_ref_tensor(d, OP, "attn_sink", sink, true, 1, &p->h, &count)) ||
        (st = tl_ref_tensor(d, OP, "out", out, false, 4, qdims, &count)))
        return st;
    if (!tl_ref_prec_valid(p->qk_prec) || !tl_ref_prec_valid(p->p_prec) ||
        !tl_ref_prec_valid(p->out_prec))
        return tl_ref_error(d, OP, "invalid precision option");
    return TL_OK;
}

tl_status_t tl_sparse_attn_ref(const tl_sparse_attn_params_t *p, const float *q, const float *kv,
                               const float *sink, const int32_t *idx, float *out, tl_diag_t *d)
{
    tl_status_t st = check(p, q, kv, sink, idx, out, d);
    if (st) return st;
    const int64_t dim = p->d, k = p->k, n = p->n;
    // Scores of the k slots, then the d accumulators.
    double *x = tl_ref_alloc((size_t)(k + dim), sizeof *x), *acc = x + k;
    if (!x) return tl_ref_nomem(d, OP);
    for (int64_t bi = 0; bi < p->b; bi++) {
        const float *kvb = kv + (size_t)(bi * n * dim);
        for (int64_t i = 0; i < p->m; i++) {
            const int32_t *slot = idx + (size_t)((bi * p->m + i) * k);
            for (int64_t j = 0; j < p->h; j++) {
                size_t row = (size_t)(((bi * p->m + i) * p->h + j) * dim);
                const float *qr = q + row;
                float *o = out + row;
                double sk = sink ? (double)sink[j] : -INFINITY;

                int64_t nvalid = 0;
                double xmax = -INFINITY;
                for (int64_t s = 0; s < k; s++) {
                    if (slot[s] < 0 || slot[s] >= n) continue;
                    const float *kr = kvb + (size_t)slot[s] * (size_t)dim;
                    double dot = 0;
                    for (int64_t c = 0; c < dim; c++) dot += (double)qr[c] * (double)kr[c];
                    x[s] = (double)p->scale * tl_ref_round(dot, p->qk_prec);
                    if (nvalid == 0 || x[s] > xmax) xmax = x[s];
                    nvalid++;
                }
                // No key, or all the mass on the sink: the limit is 0.
                if (nvalid == 0 || sk == INFINITY) {
                    for (int64_t c = 0; c < dim; c++) o[c] = 0.0f;
                    continue;
                }
                double mx = xmax > sk ? xmax : sk;
                if (isnan(sk)) mx = sk;
                double z = exp(sk - mx);
                for (int64_t c = 0; c < dim; c++) acc[c] = 0;
                for (int64_t s = 0; s < k; s++) {
                    if (slot[s] < 0 || slot[s] >= n) continue;
                    const float *kr = kvb + (size_t)slot[s] * (size_t)dim;
                    double e = exp(x[s] - mx);
                    z += e;
                    double w = tl_ref_round(e, p->p_prec);
                    for (int64_t c = 0; c < dim; c++) acc[c] += w * (double)kr[c];
                }
                for (int64_t c = 0; c < dim; c++)
                    o[c] = (float)tl_ref_round(acc[c] / z, p->out_prec);
            }
        }
    }
    free(x);
    return TL_OK;
}
