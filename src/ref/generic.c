// Golden references for the generic example kernels: elementwise add, GEMM
// (with bias/addend fusion), row softmax, layer norm, RMS norm and dense
// attention. Every value is computed in double and rounded once on output.
#include <math.h>
#include <stdlib.h>

#include "ref/ref.h"

tl_status_t tl_generic_add(const float *a, const float *b, float *out, int64_t n,
                           tl_ref_prec_t out_prec, tl_diag_t *d)
{
    size_t count;
    tl_status_t st;
    if ((st = tl_ref_tensor(d, "add", "a", a, false, 1, &n, &count)) ||
        (st = tl_ref_tensor(d, "add", "b", b, false, 1, &n, &count)) ||
        (st = tl_ref_tensor(d, "add", "out", out, false, 1, &n, &count)))
        return st;
    if (!tl_ref_prec_valid(out_prec)) return tl_ref_error(d, "add", "invalid output precision");
    for (size_t i = 0; i < count; i++)
        out[i] = (float)tl_ref_round((double)a[i] + (double)b[i], out_prec);
    return TL_OK;
}

tl_status_t tl_generic_gemm(const tl_generic_gemm_params_t *p, const float *a, const float *b,
                            const float *bias, const float *addend, float *c, tl_diag_t *d)
{
    const char *op = "gemm";
    if (!p) return tl_ref_error(d, op, "no parameters");
    size_t count;
    tl_status_t st;
    int64_t adims[] = {p->trans_a ? p->k : p->m, p->trans_a ? p->m : p->k};
    int64_t bdims[] = {p->trans_b ? p->n : p->k, p->trans_b ? p->k : p->n};
    int64_t cdims[] = {p->m, p->n};
    if ((st = tl_ref_tensor(d, op, "A", a, false, 2, adims, &count)) ||
        (st = tl_ref_tensor(d, op, "B", b, false, 2, bdims, &count)) ||
        (st = tl_ref_tensor(d, op, "bias", bias, true, 1, &p->n, &count)) ||
        (st = tl_ref_tensor(d, op, "addend", addend, true, 2, cdims, &count)) ||
        (st = tl_ref_tensor(d, op, "C", c, false, 2, cdims, &count)))
        return st;
    if (!tl_ref_prec_valid(p->acc_prec) || !tl_ref_prec_valid(p->out_prec))
        return tl_ref_error(d, op, "invalid precision option");
    const int64_t m = p->m, n = p->n, k = p->k;
    for (int64_t i = 0; i < m; i++) {
        for (int64_t j = 0; j < n; j++) {
            double acc = 0;
            for (int64_t l = 0; l < k; l++) {
                double x = a[p->trans_a ? l * m + i : i * k + l];
                double y = b[p->trans_b ? j * k + l : l * n + j];
                acc += x * y;
            }
            double v = tl_ref_round(acc, p->acc_prec);
            if (bias) v += (double)bias[j];
            if (addend) v += (double)addend[i * n + j];
            c[i * n + j] = (float)tl_ref_round(v, p->out_prec);
        }
    }
    return TL_OK;
}

// Checks x, out (and the optional per-column vectors) of a row-wise op.
static tl_status_t check_rows(tl_diag_t *d, const char *op, const float *x, const float *out,
                              const float *gamma, const float *beta, int64_t rows, int64_t cols,
                              tl_ref_prec_t out_prec)
{
    size_t count;
    tl_status_t st;
    int64_t dims[] = {rows, cols};
    if ((st = tl_ref_tensor(d, op, "x", x, false, 2, dims, &count)) ||
        (st = tl_ref_tensor(d, op, "out", out, false, 2, dims, &count)) ||
        (st = tl_ref_tensor(d, op, "gamma", gamma, true, 1, &cols, &count)) ||
        (st = tl_ref_tensor(d, op, "beta", beta, true, 1, &cols, &count)))
        return st;
    if (!tl_ref_prec_valid(out_prec)) return tl_ref_error(d, op, "invalid output precision");
    return TL_OK;
}

tl_status_t tl_generic_softmax(const float *x, float *out, int64_t rows, int64_t cols,
                               tl_ref_prec_t out_prec, tl_diag_t *d)
{
    tl_status_t st = check_rows(d, "softmax", x, out, NULL, NULL, rows, cols, out_prec);
    if (st) return st;
    for (int64_t r = 0; r < rows; r++) {
        const float *xr = x + r * cols;
        float *o = out + r * cols;
        double mx = -INFINITY, sum = 0;
        for (int64_t j = 0; j < cols; j++) mx = fmax(mx, (double)xr[j]);
        for (int64_t j = 0; j < cols; j++) sum += exp((double)xr[j] - mx);
        for (int64_t j = 0; j < cols; j++)
            o[j] = (float)tl_ref_round(exp((double)xr[j] - mx) / sum, out_prec);
    }
    return TL_OK;
}

// Shared tail of the two norms: out = (x - mean) * rstd * gamma + beta.
static void norm_row(const float *x, const float *gamma, const float *beta, float *o, int64_t cols,
                     double mean, double rstd, tl_ref_prec_t out_prec)
{
    for (int64_t j = 0; j < cols; j++) {
        double v = ((double)x[j] - mean) * rstd;
        if (gamma) v *= (double)gamma[j];
        if (beta) v += (double)beta[j];
        o[j] = (float)tl_ref_round(v, out_prec);
    }
}

tl_status_t tl_generic_layer_norm(const float *x, const float *gamma, const float *beta, float *out,
                                  int64_t rows, int64_t cols, float eps, tl_ref_prec_t out_prec,
                                  tl_diag_t *d)
{
    tl_status_t st = check_rows(d, "layer_norm", x, out, gamma, beta, rows, cols, out_prec);
    if (st) return st;
    for (int64_t r = 0; r < rows; r++) {
        const float *xr = x + r * cols;
        double mean = 0, var = 0;
        for (int64_t j = 0; j < cols; j++) mean += (double)xr[j];
        mean /= (double)(cols ? cols : 1);
        for (int64_t j = 0; j < cols; j++) var += ((double)xr[j] - mean) * ((double)xr[j] - mean);
        var /= (double)(cols ? cols : 1);
        norm_row(xr, gamma, beta, out + r * cols, cols, mean, 1.0 / sqrt(var + (double)eps),
                 out_prec);
    }
    return TL_OK;
}

tl_status_t tl_generic_rms_norm(const float *x, const float *gamma, float *out, int64_t rows,
                                int64_t cols, float eps, tl_ref_prec_t out_prec, tl_diag_t *d)
{
    tl_status_t st = check_rows(d, "rms_norm", x, out, gamma, NULL, rows, cols, out_prec);
    if (st) return st;
    for (int64_t r = 0; r < rows; r++) {
        const float *xr = x + r * cols;
        double ms = 0;
        for (int64_t j = 0; j < cols; j++) ms += (double)xr[j] * (double)xr[j];
        ms /= (double)(cols ? cols : 1);
        norm_row(xr, gamma, NULL, out + r * cols, cols, 0.0, 1.0 / sqrt(ms + (double)eps),
                 out_prec);
    }
    return TL_OK;
}

tl_status_t tl_generic_attn(const tl_generic_attn_params_t *p, const float *q, const float *k,
                            const float *v, float *out, tl_diag_t *d)
{
    const char *op = "attention";
    if (!p) return tl_ref_error(d, op, "no parameters");
    size_t count;
    tl_status_t st;
    int64_t qdims[] = {p->b, p->h, p->sq, p->d}, kdims[] = {p->b, p->h, p->skv, p->d};
    if ((st = tl_ref_tensor(d, op, "q", q, false, 4, qdims, &count)) ||
        (st = tl_ref_tensor(d, op, "k", k, false, 4, kdims, &count)) ||
        (st = tl_ref_tensor(d, op, "v", v, false, 4, kdims, &count)) ||
        (st = tl_ref_tensor(d, op, "out", out, false, 4, qdims, &count)))
        return st;
    if (!tl_ref_prec_valid(p->p_prec) || !tl_ref_prec_valid(p->out_prec))
        return tl_ref_error(d, op, "invalid precision option");
    const int64_t sq = p->sq, skv = p->skv, dim = p->d;
    double *s = tl_ref_alloc((size_t)(skv + dim), sizeof *s), *acc = s + skv;
    if (!s) return tl_ref_nomem(d, op);
    for (int64_t bh = 0; bh < p->b * p->h; bh++) {
        const float *kb = k + bh * skv * dim, *vb = v + bh * skv * dim;
        for (int64_t i = 0; i < sq; i++) {
            const float *qr = q + (bh * sq + i) * dim;
            float *o = out + (bh * sq + i) * dim;
            // Keys 0..last-1 are visible to query i.
            int64_t last = p->causal ? TL_MIN(i + 1, skv) : skv;
            double mx = -INFINITY, sum = 0;
            for (int64_t j = 0; j < last; j++) {
                double dot = 0;
                for (int64_t c = 0; c < dim; c++) dot += (double)qr[c] * (double)kb[j * dim + c];
                s[j] = (double)p->scale * dot;
                mx = fmax(mx, s[j]);
            }
            for (int64_t c = 0; c < dim; c++) acc[c] = 0;
            for (int64_t j = 0; j < last; j++) {
                double e = exp(s[j] - mx);
                sum += e;
                double w = tl_ref_round(e, p->p_prec);
                for (int64_t c = 0; c < dim; c++) acc[c] += w * (double)vb[j * dim + c];
            }
            for (int64_t c = 0; c < dim; c++)
                o[c] = last ? (float)tl_ref_round(acc[c] / sum, p->out_prec) : 0.0f;
        }
    }
    free(s);
    return TL_OK;
}
