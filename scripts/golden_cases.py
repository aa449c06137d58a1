"""The cases of scripts/upstream_golden.py: per upstream file, the kernel and arguments its test
uses, its inputs (the test's distributions, drawn from a seeded NumPy generator) and a NumPy
re-implementation of the file's reference code. Written from reading each file's test function;
where that function cannot run as written (noted per case), the nearest inputs that make the
file's reference meaningful are used and the note says so.

A case: name, root ('tla' newest tilelang-ascend, 'tla-old' its older snapshot, 'recipes'
cann-recipes-infer), file (path under the root), kernel (-k, or None), args (-a), dims (-d),
seed, shape (for the table), inputs(rng) -> {param: (array, dtype)}, golden(inputs) ->
{output param: array}, tol {output or '*': (rtol, atol)}.
"""
try:
    import numpy as np
except ImportError:
    np = None


def _bf16(x):
    u = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint32) << 16
    return r.astype(np.uint32).view(np.float32)


def _f16(x):
    return np.asarray(x, dtype=np.float32).astype(np.float16).astype(np.float32)


def _randn(rng, shape):
    return rng.standard_normal(shape, dtype=np.float32)


def _rand(rng, shape):
    return rng.random(shape, dtype=np.float32)


def _softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


# ------------------------------------------------------------------ developer_mode


def _gemm_inputs(M, N, K, with_d):
    def make(rng):
        d = {"A": (_f16(_randn(rng, (M, K))), "float16"), "B": (_f16(_randn(rng, (K, N))), "float16")}
        if with_d:
            d["D"] = (_f16(_randn(rng, (M, N))), "float16")
        return d
    return make


def _gemm_golden(x):
    c = _f16(x["A"] @ x["B"])  # torch: a @ b of float16 tensors is a float16 tensor
    if "D" in x:
        c = _f16(c + x["D"])
    return {"C": c}


def _gelu_mul_golden(x):
    a = x["A"].astype(np.float64)
    n2 = a.shape[1] // 2
    a1, a2 = a[:, :n2], a[:, n2:]
    gelu = 0.5 * a1 * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (a1 + 0.044715 * a1 ** 3)))
    return {"B": (gelu * a2).astype(np.float32)}


def _flash_attn_golden(x):
    q, k, v = (x[n].astype(np.float32) for n in ("Q", "K", "V"))
    acc = np.einsum("bhsd,bhkd->bhsk", q, k) * (1.0 / q.shape[-1]) ** 0.5
    return {"Output": _f16(np.einsum("bhsk,bhkd->bhsd", _softmax(acc), v))}


def _mla_decode_inputs(B, H, N, D, Dpe):
    """example_mla_decode.py's __main__: q, q_pe, kv, k_pe randn float16, col_indices arange(128)."""
    def make(rng):
        return {"Q": (_f16(_randn(rng, (B, H, D))), "float16"), "Q_pe": (_f16(_randn(rng, (B, H, Dpe))), "float16"),
                "KV": (_f16(_randn(rng, (B, N, 1, D))), "float16"),
                "K_pe": (_f16(_randn(rng, (B, N, 1, Dpe))), "float16"),
                "col_indices": (np.arange(128, dtype=np.float32), "float32")}
    return make


def _mla_decode_golden(x, actual=None):
    """Its inline check: softmax((q . kv + q_pe . k_pe) / sqrt(D + Dpe)) @ kv in float32, as float16;
    with actual_seqlen_kv the keys from `actual` on are masked (the kernel's tail mask)."""
    q, qp = x["Q"].astype(np.float32), x["Q_pe"].astype(np.float32)
    kv, kp = x["KV"][:, :actual, 0].astype(np.float32), x["K_pe"][:, :actual, 0].astype(np.float32)
    s = (np.einsum("bhd,bnd->bhn", q, kv) + np.einsum("bhd,bnd->bhn", qp, kp)) / np.sqrt(q.shape[-1] + qp.shape[-1])
    return {"Output": _f16(np.einsum("bhn,bnd->bhd", _softmax(s), kv))}


SFA_DEV = dict(B=1, S=128, SKV=32768, H=128, HKV=1, DQK=576, DV=512, topk=2048, q_start=4096 * 7, kv_stride=1)


def _sfa_dev_inputs(rng):
    c = SFA_DEV
    q = _f16(_randn(rng, (c["B"], c["S"], c["H"], c["DQK"])))
    kv = _f16(_randn(rng, (c["B"], c["SKV"], c["HKV"], c["DQK"])))
    idx = np.full((c["B"], c["S"], c["HKV"], c["topk"]), c["SKV"], dtype=np.int32)
    for t in range(c["S"]):  # torch.randperm(max(1, (t + q_start) // kv_stride))[:topk]
        sel = rng.permutation(max(1, (t + c["q_start"]) // c["kv_stride"]))[:c["topk"]]
        idx[0, t, 0, :len(sel)] = sel
    return {"Q": (q, "float16"), "KV": (kv, "float16"), "Indices": (idx, "int32")}


def _sfa_dev_golden(x):
    """ref_sparse_attention_fwd_interface: the causal mask keeps kv index <= t + q_start, the
    index mask keeps the selected kv rows (index SKV is the 'none' slot), softmax(q.k * 576^-0.5)
    over what is kept, times v = kv[..., :512]; one kv group, batch 1."""
    c = SFA_DEV
    q, kv, idx = x["Q"][0].astype(np.float32), x["KV"][0, :, 0].astype(np.float32), x["Indices"][0, :, 0]
    scale = c["DQK"] ** -0.5
    out = np.zeros((c["S"], c["H"], c["DV"]), np.float32)
    for t in range(c["S"]):
        sel = np.unique(idx[t][idx[t] < c["SKV"]])
        sel = sel[sel * c["kv_stride"] + c["kv_stride"] - 1 <= t + c["q_start"]]
        k = kv[sel]
        p = _softmax(q[t] @ k.T * scale)
        out[t] = p @ k[:, :c["DV"]]
    return {"Output": _f16(out[None])}


# ------------------------------------------------------------------ DeepSeek-V4


def _act_quant_inputs(M, N):
    return lambda rng: {"X": (_bf16(_randn(rng, (M, N))), "bfloat16")}


def _act_quant_golden(x):
    xf = x["X"].astype(np.float32)
    amax = np.maximum(np.abs(xf).max(axis=1, keepdims=True), np.float32(1e-4))
    scales = (amax / np.float32(127.0)).astype(np.float32)
    y = np.round(np.clip(xf / scales, -127, 127)).astype(np.float16).astype(np.int8)
    return {"Y": y, "S": scales.reshape(-1)}


def _quant_rows(rng, rows, cols):
    """The int8_gemm test's quantisation of a bf16 randn matrix: int8 values and row scales."""
    f = _bf16(_randn(rng, (rows, cols)))
    amax = np.maximum(np.abs(f).max(axis=1, keepdims=True), np.float32(1e-4))
    s = (amax / np.float32(127.0)).astype(np.float32)
    q = np.round(np.clip(f / s, -128, 127)).astype(np.int8)
    return q, s.reshape(-1)


def _int8_gemm_inputs(M, N, K):
    def make(rng):
        a, sa = _quant_rows(rng, M, K)
        b, sb = _quant_rows(rng, N, K)
        return {"A": (a, "int8"), "B": (b, "int8"), "scale_a": (sa, "float32"), "scale_b": (sb, "float32")}
    return make


def _int8_gemm_golden(x):
    acc = (x["A"].astype(np.float64) @ x["B"].astype(np.float64).T).astype(np.float32)  # exact: < 2^24
    scale = np.outer(x["scale_a"], x["scale_b"]).astype(np.float32)
    return {"C": _bf16((acc * scale).astype(np.float32))}


def _hc_inputs(N, hc):
    mix = (2 + hc) * hc
    return lambda rng: {"mixes": (_rand(rng, (N, mix)), "float32"), "hc_scale": (_rand(rng, (3,)), "float32"),
                        "hc_base": (_rand(rng, (mix,)), "float32")}


def _hc_golden(hc, iters, eps):
    def golden(x):
        m, s, b = x["mixes"], x["hc_scale"], x["hc_base"]
        n = m.shape[0]
        f32 = np.float32
        sig = lambda v: f32(1) / (f32(1) + np.exp(-v))
        pre = sig(m[:, :hc] * s[0] + b[:hc]) + f32(eps)
        post = f32(2) * sig(m[:, hc:2 * hc] * s[1] + b[hc:2 * hc])
        comb = m[:, 2 * hc:].reshape(n, hc, hc) * s[2] + b[2 * hc:].reshape(hc, hc)
        comb = np.exp(comb - comb.max(axis=2, keepdims=True))
        comb = comb / comb.sum(axis=2, keepdims=True) + f32(eps)
        comb = comb / (comb.sum(axis=1, keepdims=True) + f32(eps))
        for _ in range(iters - 1):
            comb = comb / (comb.sum(axis=2, keepdims=True) + f32(eps))
            comb = comb / (comb.sum(axis=1, keepdims=True) + f32(eps))
        return {"pre": pre.astype(f32), "post": post.astype(f32), "comb": comb.astype(f32)}
    return golden


def _sparse_attn_inputs(b, m, n, h, d, topk):
    """examples/deepseek_v4/sparse_attention.py's make_random_test_inputs."""
    return lambda rng: {"q": (_bf16(_randn(rng, (b, m, h, d))), "bfloat16"),
                        "kv": (_bf16(_randn(rng, (b, n, d))), "bfloat16"),
                        "attn_sink": (_randn(rng, (h,)), "float32"),
                        "topk_idxs": (rng.integers(0, n, (b, m, topk), dtype=np.int32), "int32")}


def _sparse_attn_golden(scale):
    """sparse_attention.py's sparse_attn: gather the top-k kv rows (-1 -> masked), scores =
    q @ kv^T (a bfloat16 matmul: bfloat16 result), softmax with the sink in the denominator,
    probs @ kv in float32."""
    def golden(x):
        q, kv, sink, idx = x["q"], x["kv"], x["attn_sink"], x["topk_idxs"]
        safe = np.where(idx == -1, 0, idx)
        g = kv[np.arange(kv.shape[0])[:, None, None], safe] * (idx != -1)[..., None]  # [b, m, topk, d]
        scores = _bf16(np.einsum("bmhd,bmkd->bmhk", q, g))
        s = scores * np.float32(scale) + np.where(idx == -1, -np.inf, 0.0)[:, :, None, :].astype(np.float32)
        mx = s.max(axis=-1, keepdims=True)
        e = np.exp(s - mx)
        probs = e / (e.sum(axis=-1, keepdims=True) + np.exp(sink[None, None, :, None] - mx))
        return {"output": np.einsum("bmhk,bmkd->bmhd", probs, g).astype(np.float32)}
    return golden


def _sfa_inputs(b, m, n, h, d, topk):
    """sparse_flash_attention.py's test draws topk_idxs with torch.rand(..., dtype=torch.int32),
    which torch rejects (rand has no integer kernel); its reference scatters the indices into a
    mask, so a row's indices must be distinct for kernel and reference to mean the same: each
    row is a random choice of topk distinct indices in [0, n)."""
    def make(rng):
        idx = np.stack([np.stack([rng.permutation(n)[:topk] for _ in range(m)]) for _ in range(b)]).astype(np.int32)
        return {"q": (_bf16(_rand(rng, (b, m, h, d))), "bfloat16"), "kv": (_bf16(_rand(rng, (b, n, d))), "bfloat16"),
                "attn_sink": (_rand(rng, (h,)), "float32"), "topk_idxs": (idx, "int32")}
    return make


def _sfa_golden(scale):
    """sparse_flash_attention.py's sparse_attn: per group of 64 heads, bfloat16 q @ kv^T times
    the scale (bfloat16 results), float32-min on the kv rows not in topk_idxs, the sink as one
    more logit, softmax, then the probabilities (without the sink) @ kv."""
    def golden(x):
        q, kv, sink, idx = x["q"], x["kv"], x["attn_sink"], x["topk_idxs"]
        b, m, h, d = q.shape
        n = kv.shape[1]
        w = _bf16(_bf16(np.einsum("bmhd,bnd->bmhn", q, kv)) * np.float32(scale))
        mask = np.full((b, m, n + 1), np.finfo(np.float32).min, np.float32)
        np.put_along_axis(mask, idx.astype(np.int64), 0.0, axis=-1)
        w = w + mask[:, :, None, :n]
        logits = np.concatenate([w, np.broadcast_to(sink[None, None, :, None], (b, m, h, 1))], axis=-1)
        probs = _softmax(logits - logits.max(axis=-1, keepdims=True))[..., :n]
        return {"output": np.einsum("bmhn,bnd->bmhd", probs, kv).astype(np.float32)}
    return golden


# ------------------------------------------------------------------ DeepSeek-V4 tile_kernels / tilekernels


def _mhc_inputs(n, mult, factor, bwd):
    """head_compute_mix_kernel.py's test_fwd / test_bwd: randn input_mix [n, mult] (and grad),
    scale [1], base [mult], reshaped to [n / factor, mult * factor] as the tests pass them."""
    def make(rng):
        d = {"input_mix": (_randn(rng, (n, mult)).reshape(-1, mult * factor), "float32"),
             "mhc_scale": (_randn(rng, (1,)), "float32"), "mhc_base": (_randn(rng, (mult,)), "float32")}
        if bwd:
            d["output_mix_grad"] = (_randn(rng, (n, mult)).reshape(-1, mult * factor), "float32")
        return d
    return make


def _mhc_sig(x, factor):
    z = x["input_mix"] * x["mhc_scale"][0] + np.tile(x["mhc_base"], factor)
    return np.float32(1) / (np.float32(1) + np.exp(-z))


def _mhc_fwd_golden(eps, factor):
    """mhc_head_compute_mix_ref: sigmoid(input_mix * scale + base) + eps (base repeated over the
    reshaped row's factor groups, as the reshape of [n, mult] rows gives)."""
    return lambda x: {"output_mix": (_mhc_sig(x, factor) + np.float32(eps)).astype(np.float32)}


def _mhc_bwd_golden(factor, sub_rows):
    """The file has no backward reference; this is the derivative of its forward reference
    (y = sigmoid(z) + eps, z = x * scale + base): dx = g * s(1 - s) * scale, and per partial row
    p (the kernel's cid * 2 + vid, rows p * sub_rows ...) the column sums of g * s(1 - s) * x
    (scale) and of g * s(1 - s) (base)."""
    def golden(x):
        s = _mhc_sig(x, factor).astype(np.float64)
        g = x["output_mix_grad"].astype(np.float64) * s * (1 - s)
        parts = g.shape[0] // sub_rows
        return {"input_mix_grad": (g * x["mhc_scale"][0]).astype(np.float32),
                "mhc_scale_grad_partial": (g * x["input_mix"]).reshape(parts, sub_rows, -1).sum(1).astype(np.float32),
                "mhc_base_grad_partial": g.reshape(parts, sub_rows, -1).sum(1).astype(np.float32)}
    return golden


def _cast_back_inputs(nt, h, npc, pm, pn):
    """test_cast_back.py's generate_test_data_per_token (fmt e4m3, round_sf False): x randn,
    sf = clamp(amax per npc group, 1e-4) / 448, x_casted = x * 448 / amax; then cast_back's host
    side: the scale factors expanded to [nt, h], both padded to the 128-multiples (x with 0,
    sf with 1) it passes the kernel."""
    def make(rng):
        x = _randn(rng, (nt, h))
        grp = x.reshape(nt, h // npc, npc)
        amax = np.maximum(np.abs(grp).max(axis=2), np.float32(1e-4))
        sf = (amax / np.float32(448.0)).astype(np.float32)
        xc = (grp * (np.float32(448.0) / amax)[:, :, None]).reshape(nt, h).astype(np.float32)
        xp = np.zeros((pm, pn), np.float32)
        xp[:nt, :h] = xc
        sp = np.ones((pm, pn), np.float32)
        sp[:nt, :h] = np.repeat(sf, npc, axis=1)
        return {"x": (xp, "float32"), "x_sf": (sp, "float32")}
    return make


def _cast_back_golden(x):
    """_ref_cast_back: out = x * sf[m // npt, k // npc] (the expanded factors)."""
    return {"out": (x["x"] * x["x_sf"]).astype(np.float32)}


def _e5m6_inputs(nt, h):
    """cast_back_e5m6's kernel takes the unpacked values (float16 with the low 4 mantissa bits
    zero: E5M6) and one scale per token. test_cast_back_e5m6.py makes them with
    per_token_cast_to_e5m6, a kernel file not in the examples: here x randn scaled by the
    per-token amax and truncated to E5M6, sf = amax / 448 (positive)."""
    def make(rng):
        x = _randn(rng, (nt, h))
        amax = np.maximum(np.abs(x).max(axis=1, keepdims=True), np.float32(1e-4))
        v = (x / amax * np.float32(448.0)).astype(np.float16).view(np.uint16) & np.uint16(0xFFF0)
        return {"x": (v.view(np.float16).astype(np.float32), "float32"),
                "x_sf": ((amax / np.float32(448.0)).astype(np.float32), "float32")}
    return make


def _e5m6_golden(x):
    """cast_back_e5m6's host reference: result = x_f32 * sf_expanded."""
    return {"out": (x["x"] * x["x_sf"]).astype(np.float32)}


def _transpose_inputs(experts, tokens, hidden, dtype):
    def make(rng):
        if dtype == "uint8":  # no test draws uint8: every byte value
            return {"x": (rng.integers(0, 256, (experts, tokens, hidden)).astype(np.uint8), dtype)}
        v = _bf16(_randn(rng, (experts, tokens, hidden)))
        return {"x": (v, dtype)}
    return make


def _transpose_golden(x):
    """The __main__ check: torch.transpose(x, 1, 2), equal (exact)."""
    return {"out": np.ascontiguousarray(np.transpose(x["x"], (0, 2, 1)))}


# ------------------------------------------------------------------ engram (npuir)


def _engram_ref(x, k, wh, we, eps, clamp):
    """engram_gate_ref in float64: rstd of x and k, the raw dot sum(x wh k we), the scaled dot,
    the signed square root (|dot| clamped below at clamp) and its sigmoid."""
    d = x.shape[-1]
    rx = 1.0 / np.sqrt((x * x).mean(-1) + eps)
    rk = 1.0 / np.sqrt((k * k).mean(-1) + eps)
    raw = np.einsum("thd,thd->th", x * wh[None], k * we[None])
    dot = raw * rx * rk * d ** -0.5
    gate = 1.0 / (1.0 + np.exp(-np.sqrt(np.maximum(np.abs(dot), clamp)) * np.sign(dot)))
    return rx, rk, raw, dot, gate


def _engram_inputs(n, hc, d, bwd, eps=1e-20):
    """run_test's tensors: x, k, v, weight_hidden, weight_embed (and grad_out) randn bfloat16,
    weight_fused = wh * we in float32; the backward also takes the reference's saved values."""
    def make(rng):
        x, k = _bf16(_randn(rng, (n, hc, d))), _bf16(_randn(rng, (n, hc, d)))
        v = _bf16(_randn(rng, (n, d)))
        wh, we = _bf16(_randn(rng, (hc, d))), _bf16(_randn(rng, (hc, d)))
        out = {"hidden_states": (x, "bfloat16"), "k": (k, "bfloat16"), "v": (v, "bfloat16"),
               "weight_fused": (wh * we, "float32"), "_wh": (wh, "float32"), "_we": (we, "float32")}
        if bwd:
            rx, rk, raw, _, gate = _engram_ref(x.astype(np.float64), k.astype(np.float64), wh, we, eps, 1e-6)
            out.update(grad_out=(_bf16(_randn(rng, (n, hc, d))), "bfloat16"),
                       dot_in=(raw.astype(np.float32), "float32"), gate_in=(gate.astype(np.float32), "float32"),
                       rstd_x_in=(rx.astype(np.float32), "float32"), rstd_k_in=(rk.astype(np.float32), "float32"))
        return out
    return make


def _engram_fwd_golden(eps, clamp):
    def golden(x):
        h, k, v = (x[n].astype(np.float64) for n in ("hidden_states", "k", "v"))
        rx, rk, raw, _, gate = _engram_ref(h, k, x["_wh"], x["_we"], eps, clamp)
        return {"output": _bf16(h + gate[..., None] * v[:, None, :]), "dot_out": raw, "gate_score": gate,
                "rstd_x": rx, "rstd_k": rk}
    return golden


def _engram_bwd_golden(eps, clamp):
    """The autograd of engram_gate_ref (run_test's o_ref.backward(grad_out)) written out: the gate's
    gradient sum_d G v through sigmoid' and the signed root (0.5 / sqrt|dot|, 0 where the clamp
    holds), then through the raw dot and both rstd; grad_w_partial summed over its blocks is the
    gradient of weight_fused (the test compares it times weight_embed / weight_hidden)."""
    def golden(x):
        h, k, v, g = (x[n].astype(np.float64) for n in ("hidden_states", "k", "v", "grad_out"))
        wh, we = x["_wh"].astype(np.float64), x["_we"].astype(np.float64)
        d = h.shape[-1]
        s = d ** -0.5
        rx, rk, raw, dot, gate = _engram_ref(h, k, wh, we, eps, clamp)
        dgate = np.einsum("thd,td->th", g, v)
        ddot = dgate * gate * (1 - gate) * np.where(np.abs(dot) >= clamp, 0.5 / np.sqrt(np.abs(dot)), 0.0)
        draw, drx, drk = ddot * rx * rk * s, ddot * raw * rk * s, ddot * raw * rx * s
        gx = g + draw[..., None] * wh * we * k - (drx * rx ** 3)[..., None] * h / d
        gk = draw[..., None] * wh * we * h - (drk * rk ** 3)[..., None] * k / d
        return {"grad_x": _bf16(gx), "grad_k": _bf16(gk), "grad_v": _bf16((g * gate[..., None]).sum(1)),
                "grad_w_partial": (draw[..., None] * h * k).sum(0)}
    return golden


# ------------------------------------------------------------------ npuir branch deepseek_v4


def _npuir_act_quant_golden(x):
    """example_act_quant_kernel.py's act_quant_torch: per-row scale max|x| (at least 1e-4) / 127,
    y = round(clamp(x / scale, -127, 127)) as int8; S is [M, 1]."""
    g = _act_quant_golden(x)
    return {"Y": g["Y"], "S": g["S"].reshape(-1, 1)}


def _fp8_like(rng, shape):
    """_gen_fp8_e4m3_like_tensor: randn * 96 clamped to +-448, rounded to float8_e4m3fn (3 mantissa
    bits, nearest even; subnormals below 2^-6 in steps of 2^-9), held as float16."""
    x = np.clip(_randn(rng, shape) * np.float32(96.0), -448.0, 448.0).astype(np.float64)
    e = np.floor(np.log2(np.maximum(np.abs(x), 2.0 ** -6)))
    step = 2.0 ** (e - 3)
    return _f16((np.round(x / step) * step).astype(np.float32))


def _npuir_fp8_gemm_inputs(m, n, k):
    def make(rng):
        a, b = _fp8_like(rng, (m, k)), _fp8_like(rng, (n, k))
        sa = (_rand(rng, (m, k // 128)) * np.float32(0.2) + np.float32(0.9)).astype(np.float32)
        sb = (_rand(rng, (n // 128, k // 128)) * np.float32(0.2) + np.float32(0.9)).astype(np.float32)
        return {"A": (a, "float16"), "B": (b, "float16"), "scales_a": (sa, "float32"), "scales_b": (sb, "float32")}
    return make


def _npuir_fp8_gemm_golden(out_dtype):
    """fp8_gemm_torch_ref: per 128-wide K group, A_g @ B_g^T (float32) times scales_a[:, g] and
    scales_b[n // 128, g], summed; cast to the output type."""
    def golden(x):
        a, b = x["A"].astype(np.float64), x["B"].astype(np.float64)
        sa, sb = x["scales_a"].astype(np.float64), x["scales_b"].astype(np.float64)
        out = np.zeros((a.shape[0], b.shape[0]))
        for g in range(sa.shape[1]):
            part = a[:, g * 128:(g + 1) * 128] @ b[:, g * 128:(g + 1) * 128].T * sa[:, g:g + 1]
            out += part * np.repeat(sb[:, g], 128)[None, :]
        out = out.astype(np.float32)
        return {"C": _bf16(out) if out_dtype == "bfloat16" else _f16(out) if out_dtype == "float16" else out}
    return golden


# ------------------------------------------------------------------ lightning_indexer


def _li_inputs(B, S1, S2, N1, D, s2_vec=512, s1_block=4, offsets=False):
    """lightning_indexer.py's example_bsnd_bsnd: q, k uniform(-1, 1), w |uniform(-1, 1)|, all
    float16, full lengths; and what its wrapper passes the kernel besides: per-batch lengths, a
    zero [1, 1] block table, and the per-(batch, s1 block) ranges of s2 blocks (BsnRf, BsnRl);
    attention/lightning_indexer/'s wrapper passes zero query and key offsets instead (BSND)."""
    def make(rng):
        if offsets:
            u = lambda shape: _f16(rng.uniform(-1, 1, shape).astype(np.float32))
            return {"Query": (u((B, S1, N1, D)), "float16"), "Key": (u((B, S2, 1, D)), "float16"),
                    "Weights": (np.abs(u((B, S1, N1))), "float16"),
                    "actual_q_len": (np.full(B, S1, np.int32), "int32"),
                    "actual_k_len": (np.full(B, S2, np.int32), "int32"),
                    "BlockTable": (np.zeros((1, 1), np.int32), "int32"),
                    "QOffset": (np.zeros(B, np.int32), "int32"), "KOffset": (np.zeros(B, np.int32), "int32")}
        u = lambda shape: _f16(rng.uniform(-1, 1, shape).astype(np.float32))
        s1_blocks = -(-S1 // s1_block)
        s2_r = -(-S2 // s2_vec)
        rf = np.zeros(B * s1_blocks, np.int32)
        rl = np.zeros(B * s1_blocks, np.int32)
        real = 0
        for b in range(B):
            for blk in range(s1_blocks):
                rf[b * s1_blocks + blk] = real
                rl[b * s1_blocks + blk] = real + s2_r - 1
                real += s2_r
        return {"Query": (u((B, S1, N1, D)), "float16"), "Key": (u((B, S2, 1, D)), "float16"),
                "Weights": (np.abs(u((B, S1, N1))), "float16"),
                "actual_q_len": (np.full(B, S1, np.int32), "int32"), "actual_k_len": (np.full(B, S2, np.int32), "int32"),
                "BlockTable": (np.zeros((1, 1), np.int32), "int32"), "BsnRf": (rf, "int32"), "BsnRl": (rl, "int32")}
    return make


def _li_attention_dropped(B, S1, S2, TOP_K, max_cores, block_n=256):
    """The s2 blocks attention/lightning_indexer/lightning_indexer.py leaves out of its top-K, by
    design (its comment at the tail merge: "cross-BSN last-block merge not done ... ~3% precision
    loss on multi-BSN cross-core cases only"). A core sorts each s2 block into one of three cache
    slots (slot = task % 3), merges the slots into its accumulator when slot 2 fills and, after
    its last task, the slots 0 and 1 still pending; when the core's next task belongs to another
    (batch, s1 block) it flushes the accumulator and clears the slots, and a task still sitting
    in a slot is lost. Mirrors the file's schedule (S1_BLOCK, core_num, tasks_per_core,
    s2_per_group) for N2 = 1; returns [(batch, s1 block, s2 block)]."""
    s1_block = 4 if TOP_K <= 2048 else 2
    s1_block = min(s1_block, max(S1, 1))
    s1_blocks = -(-S1 // s1_block)
    nblk = -(-S2 // block_n)
    block_num = B * s1_blocks * nblk
    cores = min(block_num, max_cores)
    tpc = -(-block_num // cores)
    pg = max(512 // block_n, 1)
    if tpc >= pg and tpc % pg == 0:
        spg = pg
    elif tpc >= nblk and tpc % nblk == 0:
        spg = nblk
    else:
        spg = 1
    if spg > 1 and nblk % spg:
        spg = 1
    if tpc == nblk and cores > 1:
        raise ValueError("the file's core-count adjustment (tasks_per_core == num_s2_blocks) is not modelled")
    lost = []
    for c in range(cores):
        prev, pending = None, {}
        for off in range(tpc // spg):
            gid = c * tpc + off * spg
            if prev is not None and gid // nblk != prev:
                lost += pending.values()
                pending = {}
            prev = gid // nblk
            for sl in range(spg):
                t = gid + sl
                if t >= block_num:
                    continue
                slot = (off * spg + sl) % 3
                pending[slot] = t
                if slot == 2 or (sl == spg - 1 and off == tpc // spg - 1):
                    pending = {}
        lost += pending.values()
    return [(t // (s1_blocks * nblk), (t // nblk) % s1_blocks, t % nblk) for t in sorted(lost)]


def _li_golden(K, sparse_mode, dropped=(), s1_block=1, block_n=0):
    """cpu_lightning_indexer (BSND query and key, N2 = 1): score[s1, s2] = sum over heads of
    relu(q . k) * w, s2 past the causal limit (sparse_mode 3) masked, a stable descending sort,
    the first K indices (-1 where masked) and their scores as float16. dropped: the (batch, s1
    block, s2 block) the kernel leaves out by design (s1_block rows, block_n keys each), which
    are then no candidates; the file's own reference ('_reference' in the result) has them."""
    def golden(x):
        q, k, w = x["Query"], x["Key"][:, :, 0, :], x["Weights"]
        B, S1 = q.shape[:2]
        S2 = k.shape[1]
        scores = np.zeros((B, S1, S2), np.float32)
        for b in range(B):
            qk = np.maximum(np.einsum("sgd,kd->sgk", q[b], k[b]), 0)
            sc = (qk * w[b][:, :, None]).sum(axis=1)
            if sparse_mode == 3:
                lim = S2 - S1 + np.arange(S1) + 1
                sc = np.where(np.arange(S2)[None, :] < lim[:, None], sc, np.float32(-3.0e38))
            scores[b] = sc
        ref = _li_top(scores, K)
        if not dropped:
            return {"Out": ref[0], "OutVal": ref[1], "_scores": scores}
        kept = scores.copy()
        for db, dblk, ds2 in dropped:
            kept[db, dblk * s1_block:(dblk + 1) * s1_block, ds2 * block_n:(ds2 + 1) * block_n] = -np.inf
        idx, val = _li_top(kept, K)
        return {"Out": idx, "OutVal": val, "_scores": scores, "_ref_Out": ref[0], "_ref_OutVal": ref[1]}
    return golden


def _li_top(scores, K):
    """Per row the first K indices of a stable descending sort (-1 where masked) and their
    scores as float16."""
    B, S1, S2 = scores.shape
    idx = np.full((B, S1, 1, K), -1, np.int32)
    val = np.full((B, S1, 1, K), -np.inf, np.float32)
    order = np.argsort(-scores, axis=2, kind="stable")[:, :, :min(K, S2)]
    top = np.take_along_axis(scores, order, axis=2)
    idx[:, :, 0, :order.shape[2]] = np.where(top <= -1e30, -1, order)
    val[:, :, 0, :order.shape[2]] = top
    return idx, _f16(val)


def _li_check(got, golden):
    """The file's _check_result: per row, the index sets equal, or every index in one set and not
    the other scores within a relative 1e-4 of the golden's K-th score; and the sorted top-K
    values as float16 within rtol 0.005, atol 2.5e-5 for at least 95% of them."""
    gi, ti, sc = golden["Out"], got["Out"].reshape(golden["Out"].shape), golden["_scores"]
    gv, tv = golden["OutVal"], got["OutVal"].reshape(golden["OutVal"].shape)
    B, S1 = gi.shape[:2]
    idx_fail = 0
    for b in range(B):
        for s in range(S1):
            gs = set(int(i) for i in gi[b, s, 0] if i >= 0)
            ts = set(int(i) for i in ti[b, s, 0] if i >= 0)
            if gs == ts:
                continue
            bound = min(sc[b, s, i] for i in gs) if gs else -np.inf
            for i in gs ^ ts:
                if not 0 <= i < sc.shape[2]:
                    idx_fail += 1
                    continue
                re = 0.0 if sc[b, s, i] == bound else abs(sc[b, s, i] - bound) / abs(bound) if bound else np.inf
                idx_fail += re > 1e-4
    g = _f16(-np.sort(-gv.reshape(-1, gv.shape[-1]), axis=1))
    t = _f16(-np.sort(-tv.reshape(-1, tv.shape[-1]).astype(np.float32), axis=1))
    close = np.isclose(t, g, rtol=0.005, atol=0.000025, equal_nan=True)
    val_fail = int((~close).sum())
    err = float(np.nanmax(np.abs(np.where(np.isfinite(g) & np.isfinite(t), g - t, 0))))
    return {"Out": (idx_fail == 0, float(idx_fail), idx_fail, gi.size),
            "OutVal": (val_fail / g.size < 0.05, err, val_fail, g.size)}


def _li_attention_check(got, golden):
    """attention/lightning_indexer/: _li_check's rule against the golden without the blocks the
    kernel drops (_li_attention_dropped), and the file's own test against its reference, as
    'file test': _validate, the distinct indices of the whole output shared with the
    reference's (at least 95%), and _validate_values, per row the reference's (index, score)
    pairs whose index the kernel also returns within 2% of the score (at least 95%). The
    value shown is the index share in percent."""
    res = _li_check(got, golden)
    gi, gv = golden["_ref_Out"], golden["_ref_OutVal"]
    ti = got["Out"].reshape(gi.shape)
    tv = got["OutVal"].reshape(gv.shape).astype(np.float32)
    r, t = set(gi[gi >= 0].tolist()), set(ti[ti >= 0].tolist())
    idx_pct = len(r & t) / max(len(r), len(t)) * 100 if r or t else 100.0
    matched = total = 0
    for row in range(gi.shape[0] * gi.shape[1]):
        g_i, g_v = gi.reshape(-1, gi.shape[-1])[row], gv.reshape(-1, gv.shape[-1])[row].astype(np.float32)
        t_i, t_v = ti.reshape(-1, ti.shape[-1])[row], tv.reshape(-1, tv.shape[-1])[row]
        tmap = {int(i): float(v) for i, v in zip(t_i, t_v) if i >= 0}
        for i, v in zip(g_i, g_v):
            if i >= 0 and int(i) in tmap:
                total += 1
                d = abs(float(v) - tmap[int(i)])
                matched += (d / abs(float(v)) if abs(float(v)) > 1e-6 else d) <= 2e-2
    val_pct = matched / total * 100 if total else 100.0
    ok = idx_pct >= 95.0 and val_pct >= 95.0
    res["file test"] = (ok, idx_pct, 0 if ok else 1, 1)
    return res


# ------------------------------------------------------------------ sparse_flash_mla (paged KV)

# sparse_flash_mla_golden.py's FAST_SCENARIOS (the api's __main__ runs all three): one batch of
# 1024 query tokens (TND) against 1024 KV tokens in 128-token pages; swa = the 128-token window,
# hca = window + every compressed token up to the causal limit (ratio 128), csa = window + top-k
# 512 compressed tokens (ratio 4).
MLA_SCENARIOS = {
    "swa": dict(scenario=1, T1=1024, K=0, block_num1=10, block_num2=1, block_size2=1, cmp_ratio=4),
    "hca": dict(scenario=2, T1=1024, K=512, block_num1=10, block_num2=2, block_size2=128, cmp_ratio=128),
    "csa": dict(scenario=3, T1=1024, K=512, block_num1=10, block_num2=3, block_size2=128, cmp_ratio=4),
}
MLA_FIXED = dict(N1=64, D=512, block_size1=128, seqused_kv=1024, softmax_scale=0.04419417, ori_win_left=127)


def _mla_paged(rng, seq, block_num, block_size, lo, hi):
    """gen_ori_kv_paged / gen_cmp_kv_paged (one batch, one KV head): the logical rows uniform in
    [lo, hi) as bfloat16, pages placed by a permutation of the physical block ids, table entries
    -1 past the used pages, unused page rows zero."""
    rows = _bf16(rng.uniform(lo, hi, (max(seq, 1), MLA_FIXED["D"])).astype(np.float32))
    used = -(-seq // block_size)
    table = np.full((1, max(used, 1)), -1, np.int32)
    table[0, :used] = rng.permutation(block_num)[:used]
    pa = np.zeros((block_num, block_size, 1, MLA_FIXED["D"]), np.float32)
    for i in range(used):
        take = min(block_size, seq - i * block_size)
        pa[table[0, i], :take, 0] = rows[i * block_size:i * block_size + take]
    return pa, table, rows


def _mla_shapes(sc, T1):
    """What sparse_flash_mla_api.py passes for a scenario with T1 query tokens: the kernel's size
    arguments and the last dimension of cmp_indices (topk_cmp; hca: max(128, the compressed
    length rounded up to 128); swa: 128)."""
    c, f = MLA_SCENARIOS[sc], MLA_FIXED
    kv = f["seqused_kv"]
    if c["scenario"] == 1:
        k, cmp_blocks, cmp_bs, cmp_len = 0, 1, 1, 1
    else:
        cmp_seq = kv // c["cmp_ratio"]
        cmp_blocks, cmp_bs, cmp_len = c["block_num2"], c["block_size2"], max(-(-cmp_seq // c["block_size2"]), 1)
        k = c["K"] if c["scenario"] == 3 else max(128, -(-cmp_seq // 128) * 128)
    args = dict(batch=1, max_seq=T1, total_tokens=T1, ori_block_num=c["block_num1"],
                ori_block_size=f["block_size1"], ori_table_len=-(-kv // f["block_size1"]), cmp_block_num=cmp_blocks,
                cmp_block_size=cmp_bs, cmp_table_len=cmp_len, n_heads=f["N1"], n_kv_heads=1, head_dim=f["D"],
                topk_cmp=k, cmp_ratio=c["cmp_ratio"] if c["scenario"] >= 2 else 4, scenario=c["scenario"],
                ori_win_left=f["ori_win_left"], softmax_scale=f["softmax_scale"], dtype="bfloat16", core_num=24)
    return args, max(k, 128) if c["scenario"] != 3 else k


def _mla_inputs(sc, T1):
    """build_case (seed 42) through the api: q uniform(-10, 10), the original KV pages
    uniform(-10, 10), the compressed ones uniform(-5, 10) (floor(kv / ratio) rows), csa's indices
    per token a random permutation of the compressed positions up to its causal limit
    floor((kv - q + s + 1) / ratio), first K kept, -1 after; hca and swa get the api's zero
    indices; sinks uniform(-1, 1); q_prefix 0, act_q_lens T1, seqused_kv 1024."""
    c, f = MLA_SCENARIOS[sc], MLA_FIXED
    args, kdim = _mla_shapes(sc, T1)
    kv, N1, D = f["seqused_kv"], f["N1"], f["D"]

    def make(rng):
        q = _bf16(rng.uniform(-10, 10, (T1, N1, D)).astype(np.float32))
        ori, ori_bt, _ = _mla_paged(rng, kv, c["block_num1"], f["block_size1"], -10, 10)
        if c["scenario"] >= 2:
            cmp, cmp_bt, _ = _mla_paged(rng, kv // c["cmp_ratio"], c["block_num2"], c["block_size2"], -5, 10)
        else:
            cmp, cmp_bt = np.zeros((1, 1, 1, D), np.float32), np.zeros((1, 1), np.int32)
        idx = np.zeros((T1, 1, kdim), np.int32)
        if c["scenario"] == 3:
            idx[:] = -1
            for s in range(T1):
                lim = max(0, (kv - T1 + s + 1) // c["cmp_ratio"])
                take = min(lim, kdim)
                idx[s, 0, :take] = rng.permutation(lim)[:take]
        return {"Q": (q, "bfloat16"), "ori_kv": (ori, "bfloat16"), "ori_block_table": (ori_bt, "int32"),
                "cmp_kv": (cmp, "bfloat16"), "cmp_block_table": (cmp_bt, "int32"), "cmp_indices": (idx, "int32"),
                "q_prefix": (np.zeros(1, np.int32), "int32"), "act_q_lens": (np.full(1, T1, np.int32), "int32"),
                "seqused_kv": (np.full(1, kv, np.int32), "int32"),
                "sinks": (rng.uniform(-1, 1, N1).astype(np.float32), "float32")}
    return make


def _mla_unpage(pa, table, seq):
    """unpack_paged_kv: the logical rows [0, seq) of one batch's pages."""
    bs = pa.shape[1]
    return np.concatenate([pa[table[0, i], :min(bs, seq - i * bs), 0] for i in range(-(-seq // bs))]) \
        if seq > 0 else np.zeros((0, pa.shape[-1]), np.float32)


def _mla_golden(sc, s2_tile=512):
    """sparse_flash_mla_golden_bnsd (B = 1, N2 = 1, mask modes 4 and 3) on the kernel's inputs:
    per query token s (global position kv - T1 + s) the window rows [s - 127, s], then the
    compressed rows (hca: those before floor((pos + 1) / ratio); csa: the token's indices in
    order up to the first -1, each kept when below that limit), in tiles of 512 rows: online
    softmax starting from the sink (row max = sink, row sum 1), p rounded to bfloat16 before
    p @ V, out = acc / sum as bfloat16, lse = max + log(sum)."""
    c, f = MLA_SCENARIOS[sc], MLA_FIXED

    def golden(x):
        T1, N1, D = x["Q"].shape
        kv, ratio = f["seqused_kv"], c["cmp_ratio"]
        ori = _mla_unpage(x["ori_kv"], x["ori_block_table"], kv)
        cmp = _mla_unpage(x["cmp_kv"], x["cmp_block_table"], kv // ratio) if c["scenario"] >= 2 else None
        out = np.zeros((T1, N1, D), np.float32)
        lse = np.zeros((T1, N1), np.float32)
        scale = np.float32(f["softmax_scale"])
        for s in range(T1):
            pos = kv - T1 + s
            tiles = [ori[max(pos - f["ori_win_left"], 0):pos + 1]]
            if c["scenario"] >= 2:
                lim = (pos + 1) // ratio
                if c["scenario"] == 2:
                    rows = cmp[:max(lim, 0)]
                else:
                    sel = []
                    for i in x["cmp_indices"][s, 0, :min(x["cmp_indices"].shape[-1], lim)]:
                        if i == -1:
                            break
                        if i < min(lim, kv // ratio):
                            sel.append(i)
                    rows = cmp[np.array(sel, np.int64)] if sel else cmp[:0]
                tiles += [rows[t:t + s2_tile] for t in range(0, len(rows), s2_tile)]
            q = x["Q"][s].astype(np.float32)
            m = x["sinks"].astype(np.float32).copy()
            l = np.ones(N1, np.float32)
            acc = np.zeros((N1, D), np.float32)
            for k in tiles:
                if len(k) == 0:
                    continue
                score = (q @ k.T) * scale
                m_new = np.maximum(m, score.max(axis=1))
                alpha = np.exp(m - m_new)
                p = np.exp(score - m_new[:, None])
                l = alpha * l + p.sum(axis=1)
                acc = acc * alpha[:, None] + _bf16(p) @ k
                m = m_new
            out[s] = _bf16(acc / l[:, None])
            lse[s] = m + np.log(l)
        return {"Output": out, "LSE": lse}
    return golden


def _mla_check(got, golden):
    """The golden file's _check_precision for bfloat16 (out and lse alike): at least 99% of the
    elements within 2^-10 + 2^-6 * |golden|, and no error above 1.0."""
    res = {}
    for name in ("Output", "LSE"):
        g = golden[name].astype(np.float64)
        t = got[name].reshape(g.shape).astype(np.float64)
        fin = np.isfinite(g)
        err = np.abs(t[fin] - g[fin])
        bad = ~(err <= 2.0 ** -10 + 2.0 ** -6 * np.abs(g[fin]))
        maxerr = float(np.nanmax(err)) if err.size else 0.0
        if np.isnan(err).any():
            maxerr = float("nan")
        ok = bad.mean() <= 0.01 and maxerr <= 1.0 and np.array_equal(np.isnan(t[~fin]), np.isnan(g[~fin]))
        res[name] = (bool(ok), maxerr, int(bad.sum()), int(g.size))
    return res


# ------------------------------------------------------------------ the table


def _dev(name, root, file, **kw):
    return dict(name=name, root=root, file="examples/developer_mode/" + file, **kw)


def _cases():
    out = []
    for root in ("tla", "tla-old"):
        sfx = "" if root == "tla" else " (old)"
        out.append(_dev("gemm_developer" + sfx, root, "gemm_developer.py", kernel=None,
                        args=dict(M=1024, N=1024, K=1024, block_M=128, block_N=256, K_L1=64), seed=0,
                        shape="M=N=K=1024 fp16", inputs=_gemm_inputs(1024, 1024, 1024, False),
                        golden=_gemm_golden, tol={"*": (1e-2, 1e-2)}, light=True))
        for M, N, bM, bN in ((256, 256, 64, 64), (1024, 1024, 128, 128)):
            out.append(_dev(f"gelu_mul_developer M={M}{sfx}", root, "gelu_mul_developer.py", kernel=None,
                            args=dict(M=M, N=N, block_M=bM, block_N=bN), seed=0,
                            shape=f"M={M} N={N} block {bM}x{bN} fp32",
                            inputs=lambda rng, M=M, N=N: {"A": (_randn(rng, (M, N)), "float32")},
                            golden=_gelu_mul_golden, tol={"*": (1e-2, 1e-2)}, light=True))
        for f in ("matmul_add_developer.py", "matmul_add_developer_vec_cast.py"):
            out.append(_dev(f[:-3] + sfx, root, f, kernel=None,
                            args=dict(M=1024, N=1024, K=1024, block_M=128, block_N=256, block_K=64), seed=0,
                            shape="M=N=K=1024 fp16", inputs=_gemm_inputs(1024, 1024, 1024, True),
                            golden=_gemm_golden, tol={"*": (1e-2, 1e-2)}, light=True))
        out.append(_dev("flash_attn_bshd_developer" + sfx, root, "flash_attn_bshd_developer.py", kernel=None,
                        args=dict(heads=1, dim=512), seed=0, shape="B=1 S=128 H=1 D=512 fp16",
                        inputs=lambda rng: {n: (_f16(_randn(rng, (1, 1, 128, 512))), "float16") for n in "QKV"},
                        golden=_flash_attn_golden, tol={"*": (1e-2, 1e-2)}, light=True))
        for f in ("sparse_flash_attn_developer.py", "sparse_flash_attn_developer_test.py",
                  "sparse_flash_attn_developer_vid_reduce.py"):
            out.append(_dev(f[:-3] + sfx, root, f, kernel=None,
                            args=dict(heads=128, dim=512, tail_dim=64, topk=2048, kv_stride=1), seed=0,
                            shape="S=128 H=128 SKV=32768 D=512+64 topk=2048 fp16",
                            inputs=_sfa_dev_inputs, golden=_sfa_dev_golden, tol={"*": (1e-2, 1e-2)}))
    # The newest pytest drivers (test_gemm_developer.py, test_matmul_add_developer*.py) run the files
    # at more shapes than their argparse default (1024 each, above): the others here.
    drv = {"gemm_developer.py": ((512, 512, 512), (2048, 1024, 512), (1024, 2048, 1024), (1024, 1024, 2048)),
           "matmul_add_developer.py": ((512, 512, 512), (256, 256, 256), (2048, 1024, 512), (1024, 2048, 1024)),
           "matmul_add_developer_vec_cast.py": ((512, 512, 512), (2048, 1024, 512), (1024, 2048, 1024),
                                                (1024, 1024, 2048))}
    for f, shapes in drv.items():
        add = f != "gemm_developer.py"
        for M, N, K in shapes:
            args = dict(M=M, N=N, K=K, block_M=128, block_N=256)
            args.update(block_K=64) if add else args.update(K_L1=64)
            out.append(_dev(f"{f[:-3]} {M}x{N}x{K}", "tla", f, kernel=None, args=args, seed=0,
                            shape=f"M={M} N={N} K={K} fp16", inputs=_gemm_inputs(M, N, K, add),
                            golden=_gemm_golden, tol={"*": (1e-2, 1e-2)}, light=True,
                            note="a shape of the file's pytest driver"))
    # Newest developer-mode test (half-height UB tiles handed to and from the cube): C = -((-A) @ B)
    # of float16 tensors (a float16 result, then float32), its assert_close at 1e-3.
    out.append(_dev("gemm_develop_test", "tla", "gemm_develop_test.py", kernel=None, args={}, seed=0,
                    shape="M=N=K=64 fp16, UB tiles of 16 rows", inputs=_gemm_inputs(64, 64, 64, False),
                    golden=lambda x: {"C": _gemm_golden(x)["C"].astype(np.float32)},
                    tol={"*": (1e-3, 1e-3)}, light=True))
    out.append(dict(name="mla_decode", root="tla", file="examples/deepseek_mla/example_mla_decode/example_mla_decode.py",
                    kernel=None, args={}, seed=0, shape="B=1 H=64 N=128 D=512 Dpe=64 fp16",
                    inputs=_mla_decode_inputs(1, 64, 128, 512, 64), golden=_mla_decode_golden,
                    tol={"*": (0.0, 0.1)}, light=True))
    # two stages of the manual double buffer (num_stages=2, two key blocks), and the tail-mask path
    # (num_stages=1, keys from 450 masked): both run the fused dual loop (dev_order)
    for actual, tag in ((-1, "two stages"), (450, "tail mask 450")):
        out.append(dict(name="mla_decode " + tag, root="tla",
                        file="examples/deepseek_mla/example_mla_decode/example_mla_decode.py", kernel=None,
                        args=dict(batch=2, heads=128, kv_head_num=1, seqlen_kv=512, dim=512, pe_dim=64,
                                  actual_seqlen_kv=actual),
                        seed=0, shape="B=2 H=128 N=512 D=512 Dpe=64 fp16" + (f" actual {actual}" if actual > 0 else ""),
                        inputs=_mla_decode_inputs(2, 128, 512, 512, 64),
                        golden=lambda x, a=actual: _mla_decode_golden(x, a if a > 0 else None),
                        tol={"*": (0.0, 0.1)}, light=True))
    v4 = "examples/deepseek_v4/"
    rec = "ops/tilelang/ds_v4/"
    for root, base in (("tla", v4), ("recipes", rec)):
        tag = "" if root == "tla" else " (recipes)"
        out.append(dict(name="act_quant" + tag, root=root, file=base + "act_quant.py", kernel=None,
                        args=dict(N=1024, block_M=16, block_N=1024, round_scale=False), seed=42,
                        shape="M=128 N=1024 bf16 -> int8", inputs=_act_quant_inputs(128, 1024),
                        golden=_act_quant_golden, tol={"Y": (1e-2, 1.0), "S": (1e-2, 1e-2)}, light=True))
        out.append(dict(name="int8_gemm" + tag, root=root, file=base + "int8_gemm.py", kernel=None,
                        args=dict(N=1024, K=1024, block_M=64, block_N=64, block_K=64, out_dtype="bfloat16"),
                        seed=42, shape="M=N=K=1024 int8 -> bf16", inputs=_int8_gemm_inputs(1024, 1024, 1024),
                        golden=_int8_gemm_golden, tol={"*": (1e-2, 1e-2)}, light=True))
        out.append(dict(name="hc_split_sinkhorn" + tag, root=root, file=base + "hc_split_sinkhorn.py", kernel=None,
                        args=dict(hc=4, sinkhorn_iters=20, eps=1e-6), seed=42, shape="n=5 hc=4 iters=20",
                        inputs=_hc_inputs(5, 4), golden=_hc_golden(4, 20, 1e-6), tol={"*": (1e-2, 1e-2)},
                        light=True))
        out.append(dict(name="sparse_flash_attention" + tag, root=root, file=base + "sparse_flash_attention.py",
                        kernel=None, args=dict(h=64, d=512, scale=512 ** -0.5), seed=42,
                        shape="b=1 m=256 n=256 h=64 d=512 topk=128 bf16",
                        inputs=_sfa_inputs(1, 256, 256, 64, 512, 128), golden=_sfa_golden(512 ** -0.5),
                        tol={"*": (1e-2, 1e-2)}, light=True))
    # cann-recipes-infer's DeepSeek-V4 flash model carries its own copies (tilelang_kernels/): the
    # sinkhorn kernel differs (TL_ASCEND_AUTO_CV_COMBINE off, a workspace), the attention one only
    # in layout. No test of their own: model.py calls them with the ds_v4 tests' arguments
    # (hc_mult 4, 20 iterations, eps 1e-6; 64 heads, head_dim 512), so these run at those shapes.
    af = "models/deepseek_v4_flash_tilelang_and_inductor_af/tilelang_kernels/"
    out.append(dict(name="hc_split_sinkhorn (recipes flash model)", root="recipes", file=af + "hc_split_sinkhorn_kernel.py",
                    kernel=None, args=dict(hc=4, sinkhorn_iters=20, eps=1e-6), seed=42, shape="n=5 hc=4 iters=20",
                    inputs=_hc_inputs(5, 4), golden=_hc_golden(4, 20, 1e-6), tol={"*": (1e-2, 1e-2)}, light=True,
                    note="no test of its own: ops/tilelang/ds_v4/example/test_mhc.py's shapes"))
    out.append(dict(name="sparse_attn (recipes flash model)", root="recipes", file=af + "sparse_attn_kernel.py",
                    kernel=None, args=dict(h=64, d=512, scale=512 ** -0.5), seed=42,
                    shape="b=1 m=256 n=256 h=64 d=512 topk=128 bf16",
                    inputs=_sfa_inputs(1, 256, 256, 64, 512, 128), golden=_sfa_golden(512 ** -0.5),
                    tol={"*": (1e-2, 1e-2)}, light=True,
                    note="no test of its own: ops/tilelang/ds_v4/example/test_sfa.py's shapes"))
    out.append(dict(name="sparse_attention", root="tla", file=v4 + "sparse_attention.py", kernel=None,
                    args=dict(h=64, d=512, scale=512 ** -0.5), seed=42, shape="b=1 m=256 n=256 h=64 d=512 topk=128 bf16",
                    inputs=_sparse_attn_inputs(1, 256, 256, 64, 512, 128), golden=_sparse_attn_golden(512 ** -0.5),
                    tol={"*": (1e-2, 1e-2)}, light=True))
    tk = v4 + "tile_kernels/"
    for n in (8192,):
        out.append(dict(name="mhc head_compute_mix fwd", root="tla", file=tk + "mhc/head_compute_mix_kernel.py",
                        kernel="_mhc_head_compute_mix_fwd",
                        args=dict(mhc_mult=16, mhc_pre_eps=1e-2, reshape_factor=4, token_block_size=128), seed=42,
                        shape=f"n={n} mult=4 reshaped [{n // 4}, 16]", inputs=_mhc_inputs(n, 4, 4, False),
                        golden=_mhc_fwd_golden(1e-2, 4), tol={"*": (1e-5, 1e-5)},
                        note="the test does not compare; tolerance 1e-5 chosen here", light=True))
        out.append(dict(name="mhc head_compute_mix bwd", root="tla", file=tk + "mhc/head_compute_mix_kernel.py",
                        kernel="_mhc_head_compute_mix_bwd",
                        args=dict(mhc_mult=16, reshape_factor=4, token_block_size=128, partial_size=32), seed=42,
                        shape=f"n={n} mult=4 reshaped [{n // 4}, 16] partials 32", inputs=_mhc_inputs(n, 4, 4, True),
                        golden=_mhc_bwd_golden(4, 64), tol={"*": (1e-4, 1e-4)},
                        note="no backward reference in the file: golden = derivative of the forward reference",
                        light=True))
    for e, t, hd, bm, bn in ((8, 8064, 576, 128, 64), (8, 8064, 3072, 128, 128)):
        out.append(dict(name=f"batched_transpose bf16 hidden={hd}", root="tla",
                        file=tk + "transpose/batched_transpose_kernel.py", kernel="_batched_transpose_kernel_db_serial",
                        args=dict(num_batches=e, shape_x=t, shape_y=hd, block_M=bm, block_N=bn, dtype="bfloat16"),
                        seed=42, shape=f"experts={e} tokens={t} hidden={hd} bf16",
                        inputs=_transpose_inputs(e, t, hd, "bfloat16"), golden=_transpose_golden,
                        tol={"*": (0.0, 0.0)}))
    # The test's float32 case (32 experts x 8064 x 2048: 2.1 GB a tensor) at 2 experts: the same
    # kernel (fp32_serial) and per-expert shape, a size this shared machine can hold twice over.
    out.append(dict(name="batched_transpose fp32 hidden=2048 (2 of 32 experts)", root="tla",
                    file=tk + "transpose/batched_transpose_kernel.py", kernel="_batched_transpose_kernel_fp32_serial",
                    args=dict(num_batches=2, shape_x=8064, shape_y=2048, block_M=128, block_N=128, dtype="float32"),
                    seed=42, shape="experts=2 (test: 32) tokens=8064 hidden=2048 fp32",
                    inputs=_transpose_inputs(2, 8064, 2048, "float32"), golden=_transpose_golden,
                    tol={"*": (1e-6, 1e-6)},
                    note="not bit-exact by design: the kernel casts float32 to float16 by value (copy_ub_to_ub "
                         "= Cast CAST_RINT), so values below 2^-14 round to float16 subnormals (122 of 33M at "
                         "seed 42); the file checks float32 at 1e-6 for that reason, bfloat16 with torch.equal"))
    # The npuir branch's deepseek_v4 files (run with --tla pointing at an archive of that branch's
    # examples/, docs/upstream.md): their own tests' shapes and tolerances.
    out.append(dict(name="npuir act_quant", root="tla", file=v4 + "example_act_quant_kernel.py", kernel=None,
                    args=dict(N=32, inplace=False), seed=888, shape="M=64 N=32 bf16 -> int8 (npuir)",
                    inputs=_act_quant_inputs(64, 32), golden=_npuir_act_quant_golden,
                    tol={"Y": (0.0, 1.0), "S": (1e-3, 1e-3)}, light=True))
    for m, odt in ((96, "float32"), (128, "bfloat16")):
        n = 128 if m == 96 else 256
        out.append(dict(name=f"npuir fp8_gemm {odt}", root="tla", file=v4 + "example_fp8_gemm_kernel.py",
                        kernel=None, args=dict(N=n, K=256, out_dtype=odt), seed=0,
                        shape=f"M={m} N={n} K=256 fp8-like fp16 -> {odt} (npuir)",
                        inputs=_npuir_fp8_gemm_inputs(m, n, 256), golden=_npuir_fp8_gemm_golden(odt),
                        tol={"*": (2e-2, 2e-2) if odt != "float32" else (1e-2, 1e-2)}, light=True))
    # engram (upstream's npuir dialect: target="npuir", T.clear, T.v*): run_test's shapes; its
    # check is calc_diff < 1e-2 on every output.
    eg = v4 + "engram/"
    out.append(dict(name="engram_gate fwd", root="tla", file=eg + "engram_gate_kernel_fwd.py", kernel=None,
                    args=dict(num_tokens=7, hidden_size=512, eps=1e-20, scalar=512 ** -0.5, clamp_value=1e-6,
                              hc_mult=4, save_for_backward=True),
                    seed=2026, shape="tokens=7 hc=4 hidden=512 bf16", inputs=_engram_inputs(7, 4, 512, False),
                    golden=_engram_fwd_golden(1e-20, 1e-6), tol={"*": ("calc_diff", 1e-2)}, light=True))
    out.append(dict(name="engram_gate bwd", root="tla", file=eg + "engram_gate_kernel_bwd.py", kernel=None,
                    args=dict(num_tokens=16, hidden_size=4096, scalar=4096 ** -0.5, num_persistent_blocks=4,
                              clamp_value=1e-6, hc_mult=4),
                    seed=0, shape="tokens=16 hc=4 hidden=4096 bf16, 4 blocks", inputs=_engram_inputs(16, 4, 4096, True),
                    golden=_engram_bwd_golden(1e-20, 1e-6), post={"grad_w_partial": lambda a: a.sum(0)},
                    tol={"*": ("calc_diff", 1e-2)}, light=True,
                    note="golden: the reference's autograd written out; grad_w_partial compared summed over blocks"))
    # The file's other kernels, which its own dispatch (_run_kernel) picks below GRID_THRESHOLD = 2048
    # blocks (the test's shapes are all above it): the non-serial bfloat16 and float32 kernels, and
    # the 8-bit one for uint8; block sizes as _select_block_size picks them. Shapes chosen here.
    for kern, e, t, hd, dt in (("_batched_transpose_kernel_db", 2, 1024, 576, "bfloat16"),
                               ("_batched_transpose_kernel_db", 1, 512, 3072, "bfloat16"),
                               ("_batched_transpose_kernel_fp32_vector", 1, 1024, 2048, "float32"),
                               ("_batched_transpose_kernel_8bit", 2, 256, 576, "uint8")):
        bm, bn = 128, (128 if hd % 128 == 0 else 64)
        out.append(dict(name=f"batched_transpose {kern[26:]} {dt} hidden={hd}", root="tla",
                        file=tk + "transpose/batched_transpose_kernel.py", kernel=kern,
                        args=dict(num_batches=e, shape_x=t, shape_y=hd, block_M=bm, block_N=bn, dtype=dt),
                        seed=42, shape=f"experts={e} tokens={t} hidden={hd} {dt} ({e * t // bm * hd // bn} blocks)",
                        inputs=_transpose_inputs(e, t, hd, dt), golden=_transpose_golden,
                        tol={"*": (1e-6, 1e-6) if dt == "float32" else (0.0, 0.0)},
                        note="shape chosen here: the file's dispatch takes this kernel below 2048 blocks"))
    q = v4 + "tilekernels/tile_kernels/quant/"
    # test_cast_back.py's grid: every (num_tokens, hidden) it draws (the kernel sees only the shape
    # padded to 128-multiples: fmt, round_sf and the output dtype are host-side), and its large_scale
    # case; num_per_channels 128, or the hidden size where 128 does not divide it.
    grid = [(nt, h) for nt in (4001, 8001) for h in (576, 2048, 2560, 3072, 4096, 6144, 7168)] + [(8192, 8192)]
    for nt, h, npc in ((nt, h, 128 if h % 128 == 0 else h) for nt, h in grid):
        pm, pn = -(-nt // 128) * 128, -(-h // 128) * 128
        out.append(dict(name=f"cast_back nt={nt} h={h}", root="tla", file=q + "cast_back_kernel.py", kernel=None,
                        args=dict(num_tokens=pm, hidden=pn, block_M=128, block_N=128), seed=42,
                        shape=f"nt={nt} h={h} npc={npc} (padded {pm}x{pn})", inputs=_cast_back_inputs(nt, h, npc, pm, pn),
                        golden=_cast_back_golden, tol={"*": ("calc_diff", 1e-5)}))
    # The file's wrapper dequantises on the host and never calls its kernel: shapes chosen here,
    # the test's 4096-ish tokens and hidden 576. With block_M > 1 the kernel's [block_M, 1] scale
    # copy cannot work on the device (DataCopyPad puts each 4-byte row in its own 32-byte block,
    # the loop reads them packed): tilec stops it with that error. block_M = 1 is the layout that works.
    for bm, bn in ((32, 192), (1, 576)):
        out.append(dict(name=f"cast_back_e5m6 kernel block {bm}x{bn}", root="tla", file=q + "cast_back_e5m6_kernel.py",
                        kernel=None, args=dict(num_tokens=4096, hidden=576, block_M=bm, block_N=bn), seed=42,
                        shape=f"nt=4096 h=576 block {bm}x{bn} (kernel not called by the file: shape chosen here)",
                        inputs=_e5m6_inputs(4096, 576), golden=_e5m6_golden, tol={"*": ("calc_diff", 5e-3)}))
    out.append(dict(name="lightning_indexer bsnd_bsnd", root="tla", file=v4 + "lightning_indexer.py",
                    kernel="make_lightning_indexer_kernel",
                    args=dict(B=2, S1=3, S2=32768, N1=64, D=128, N2=1, TOP_K=2048, sparse_mode=3, input_dtype="float16",
                              max_cores=24, layout_key="BSND", block_size=128, max_block_num=1, pp_slots=2,
                              return_value=True),
                    seed=42, shape="B=2 S1=3 S2=32768 N1=64 D=128 top-k 2048 mode 3 fp16",
                    inputs=_li_inputs(2, 3, 32768, 64, 128), golden=_li_golden(2048, 3), check=_li_check,
                    tol={}, note="max_cores: the a2's 24 cube cores"))
    out.append(dict(name="attention/lightning_indexer bsnd_bsnd", root="tla",
                    file=v4 + "attention/lightning_indexer/lightning_indexer.py", kernel="make_lightning_indexer_kernel",
                    args=dict(B=2, S1=3, S2=32768, N1=64, D=128, N2=1, TOP_K=2048, sparse_mode=3, input_dtype="float16",
                              seg_size=4096, max_cores=24, layout_query="BSND", layout_key="BSND", block_size=128,
                              max_block_num=1, pp_slots=2, return_value=True),
                    seed=42, shape="B=2 S1=3 S2=32768 N1=64 D=128 top-k 2048 mode 3 fp16",
                    inputs=_li_inputs(2, 3, 32768, 64, 128, offsets=True),
                    golden=_li_golden(2048, 3, _li_attention_dropped(2, 3, 32768, 2048, 24), 3, 256),
                    check=_li_attention_check, tol={},
                    note="max_cores: the a2's 24 cube cores; s2 block 127 of batch 0 is left out by the "
                         "kernel's design (_li_attention_dropped)"))
    # The newest layout of the same operator (a file of its own, examples/deepseek_v4/attention/
    # lightning_indexer.py): its example_bsnd_bsnd; the wrapper passes zero offsets (BSND).
    # S1 = 3 is not a multiple of its S1_BLOCK = 4: phase 2 writes -1 rows to Out[b, 3], past
    # dimension 1 (tilec stops there); S1 = 4 (a whole S1_BLOCK) checks the rest.
    for s1 in (3, 4):
        out.append(dict(name="attention/lightning_indexer.py bsnd_bsnd" + ("" if s1 == 3 else f" S1={s1}"), root="tla",
                        file=v4 + "attention/lightning_indexer.py", kernel="make_lightning_indexer_kernel",
                        args=dict(B=2, S1=s1, S2=32768, N1=64, D=128, N2=1, TOP_K=2048, sparse_mode=3,
                                  input_dtype="float16", seg_size=4096, max_cores=24, layout_query="BSND",
                                  layout_key="BSND", block_size=128, max_block_num=1, pp_slots=2, return_value=True),
                        seed=42, shape=f"B=2 S1={s1} S2=32768 N1=64 D=128 top-k 2048 mode 3 fp16",
                        inputs=_li_inputs(2, s1, 32768, 64, 128, offsets=True), golden=_li_golden(2048, 3),
                        check=_li_check, tol={}, note="max_cores: the a2's 24 cube cores"
                        + ("; S1 = 3 writes past Out's dimension 1" if s1 == 3 else "")))
    # The file's shapes (T1 = 1024), and the last 160 query tokens of the same KV: with T1 > 168
    # hca and csa set one cross-core flag (EV_PV, vector -> cube, never waited) more than 15 times.
    for sc in MLA_SCENARIOS:
        for t1 in (MLA_SCENARIOS[sc]["T1"],) + ((160,) if sc != "swa" else ()):
            args, _ = _mla_shapes(sc, t1)
            out.append(dict(name=f"sparse_flash_mla {sc}" + (f" T1={t1}" if t1 != 1024 else ""), root="tla",
                            file=v4 + "sparse_flash_mla/sparse_flash_mla_kernel.py",
                            kernel="build_sparse_flash_mla", args=args, seed=42,
                            shape=f"T1={t1} kv=1024 N1=64 D=512 K={args['topk_cmp']} "
                                  f"ratio={args['cmp_ratio']} pages 128 bf16",
                            inputs=_mla_inputs(sc, t1), golden=_mla_golden(sc), check=_mla_check, tol={},
                            note="the golden file's FAST_SCENARIOS through sparse_flash_mla_api.py"))
    out += _gemm_example_cases()
    out += _cann_bench_sfa_cases()
    out += _cann_bench_cases()
    out += _count_past_cases()
    out += _feature_cases()
    out += _quant_matmul_cases()
    return out


def _quant_matmul_cases():
    """quant_batch_matmul/example_quant_matmul_high_performance.py's __main__ (_run_example): x1, x2
    randint(-128, 128) int8, scale uniform(0.001, 0.01) [N]; the wrapper quant_matmul pads K with
    zeros to a multiple of block_K (256) before it calls the kernel (example 2: K 513 -> 768; its
    comment: T.copy does not zero-pad the K tail in Expert mode), so the kernel runs at the padded
    K on padded inputs; golden quant_matmul_golden (x1 @ x2 * scale in float64, rounded to the
    output dtype), the test's assert_close at 1e-2. The cube waits for the vector cores' V2C flag
    only from its third tile on: `tilec sim` reports the releases left (docs/upstream.md)."""
    out = []
    for B, M, N, K, sdt, odt in ((1, 128, 512, 512, "float32", "float16"), (2, 127, 255, 513, "bfloat16", "bfloat16")):
        Kp = -(-K // 256) * 256

        def inputs(rng, B=B, M=M, N=N, K=K, Kp=Kp, sdt=sdt):
            a, b = np.zeros((B, M, Kp), np.int8), np.zeros((B, Kp, N), np.int8)
            a[:, :, :K] = rng.integers(-128, 128, (B, M, K))
            b[:, :K, :] = rng.integers(-128, 128, (B, K, N))
            sc = _rand(rng, (N,)) * 0.009 + 0.001
            return {"A": (a, "int8"), "B": (b, "int8"),
                    "scale": (_bf16(sc) if sdt == "bfloat16" else sc, sdt),
                    "offset": (np.zeros(N, np.float32), "float32"),
                    "pertoken_scale": (np.zeros(-(-M // 128) * 128, np.float32), "float32"),
                    "bias": (np.zeros(N, np.int32), "int32")}

        def golden(x, odt=odt):
            y = (x["A"].astype(np.float64) @ x["B"].astype(np.float64)) * x["scale"].astype(np.float64)
            return {"C": _bf16(y) if odt == "bfloat16" else _f16(y)}
        out.append(dict(name=f"quant_matmul_high_performance K={K}", root="tla",
                        file="examples/quant_batch_matmul/example_quant_matmul_high_performance.py",
                        kernel="quant_matmul_kernel",
                        args=dict(Batch=B, M=M, N=N, K=Kp, N_scale=N, scale_size="N", has_int32_bias=False,
                                  has_float_bias=False, has_pertoken=False, has_offset=False, scale_dtype=sdt,
                                  out_dtype=odt, bias_dtype="int32"),
                        seed=0, shape=f"B={B} M={M} N={N} K={K} (padded {Kp}) int8, {odt} out",
                        inputs=inputs, golden=golden, tol={"*": (1e-2, 1e-2)}, light=True,
                        note="its __main__ example through the wrapper (K zero-padded to block_K)"))
    return out


def _count_past_cases():
    """Vector ops whose count runs past their buffers (issue 19): testing/.../elementwise.py's
    cast, cast_slice, cast_scale (count 4096 on 16x16 tiles) and clamp_slice (each row of a
    [32, 64] tile clamped with the tile's count 2048), with the test's inputs and expected
    outputs; cann-bench arg_max (its wholereduce kernel casts 8 float32 of a [1] buffer to
    int64; the wrapper keeps column 0) and its sort kernel (N > 2048), golden np.argmax."""
    out = []
    ew = "testing/python/language/test_tilelang_ascend_language_elementwise.py"
    tiles = dict(M=64, N=64, block_M=16, block_N=16, mode="CAST_RINT", count=4096)
    for k in ("cast", "cast_slice"):
        out.append(dict(name=f"elementwise {k}", root="tla", file=ew, kernel=k, args=tiles, seed=0,
                        shape="64x64 f32, count 4096 on 16x16 tiles",
                        inputs=lambda rng: {"A": (np.full((64, 64), 0.5, np.float32), "float32")},
                        golden=lambda x: {"B": np.zeros((64, 64), np.float32)}, tol={"*": (1e-2, 1e-2)},
                        light=True, note="the test's constant input 0.5 and expected 0.0"))
    out.append(dict(name="elementwise cast_scale", root="tla", file=ew, kernel="cast_scale",
                    args=dict(tiles, scale=1.0), seed=0, shape="64x64 int32 -> f16, count 4096 on 16x16 tiles",
                    inputs=lambda rng: {"A": (np.ones((64, 64), np.int32), "int32")},
                    golden=lambda x: {"B": np.ones((64, 64), np.float32)}, tol={"*": (1e-2, 1e-2)},
                    light=True, note="the test's constant input 1 and expected 1.0"))
    lo, hi = -3120.5, 4711.25  # the test draws both from uniform(-10000, 10000): fixed here
    for dt in ("float", "float16"):
        def inputs(rng, dt=dt):
            a = (_rand(rng, (1024, 1024)) - 0.5) * 2 * 10000
            return {"input": (_f16(a) if dt == "float16" else a, "float16" if dt == "float16" else "float32")}
        out.append(dict(name=f"elementwise clamp_slice {dt}", root="tla", file=ew, kernel="clamp_slice",
                        args=dict(M=1024, N=1024, block_M=64, block_N=64, max_val=hi, min_val=lo, dtype=dt),
                        seed=0, shape=f"1024x1024 {dt}, count 2048 per 64-element row",
                        inputs=inputs, golden=lambda x: {"output": np.clip(x["input"], lo, hi)},
                        tol={"*": (1e-2, 1e-2)}, light=True))
    am = "examples/cann-bench/arg_max/arg_max.py"
    for kern, M, N, bn, dt, rng_lo, rng_hi in (("_argmax_wholereduce_kernel", 1024, 1024, 1024, "float16", -1, 1),
                                               ("_argmax_sort_kernel", 512, 2049, 2048, "bfloat16", -0.5, 0.5)):
        def inputs(rng, M=M, N=N, dt=dt, a=rng_lo, b=rng_hi):
            x = _rand(rng, (M, N)) * (b - a) + a
            return {"A": ((_f16(x) if dt == "float16" else _bf16(x)), dt)}
        out.append(dict(name=f"arg_max {kern[8:-7]} {M}x{N} {dt}", root="tla", file=am, kernel=kern,
                        args=dict(M=M, N=N, block_N=bn, in_dtype=dt), seed=42, shape=f"{M}x{N} {dt}, dim -1",
                        inputs=inputs, golden=lambda x: {"Out": np.argmax(x["A"], axis=1).astype(np.int64)},
                        post={"Out": lambda g: g[:, 0]}, tol={"*": (0.0, 0.0)}, light=True,
                        note="the file's test cases 1 and 21 (torch.equal with torch.argmax); the wrapper "
                             "keeps column 0 of Out"))
    return out


# ------------------------------------------------------------------ cann-bench


def _sfa_cb_inputs(B, S1, S2, N1, N2, Dk, Dv, topK, form):
    """The __main__ cases' _make_inputs: q, k uniform(-1, 1) float16, v = k[..., :Dv], indices the
    first topK of a random permutation of S2 per (b, s, kv group). form 'bsnd' gives Q, K, V,
    Indices as the v3 / rev1 kernels take them; 'dense' the wrapper's dense-path inputs: Q and K
    transposed to BNSD and the [B, N2, S1, S2] bitmap (0 where selected, -inf elsewhere)."""
    def make(rng):
        q = _f16(_rand(rng, (B, S1, N1, Dk)) * 2 - 1)
        k = _f16(_rand(rng, (B, S2, N2, Dk)) * 2 - 1)
        si = np.stack([rng.permutation(S2)[:topK] for _ in range(B * S1 * N2)])
        si = si.reshape(B, S1, N2, topK).astype(np.int32)
        if form == "dense":
            bm = np.full((B, N2, S1, S2), -np.inf, np.float32)
            np.put_along_axis(bm, si.transpose(0, 2, 1, 3), 0.0, axis=-1)
            return {"Q": (q.transpose(0, 2, 1, 3).copy(), "float16"), "K": (k.transpose(0, 2, 1, 3).copy(), "float16"),
                    "Bitmap": (bm, "float16")}
        return {"Q": (q, "float16"), "K": (k, "float16"), "V": (k[..., :Dv].copy(), "float16"),
                "Indices": (si, "int32")}
    return make


def _sfa_cb_golden(Dv, scale, form):
    """__main__'s _golden (float64): scatter the top-k mask, q.k * scale, softmax over the kept
    keys, times v = k[..., :Dv]; the result in the output dtype (float16). BSND, or BNSD for the
    dense kernel."""
    def golden(x):
        if form == "dense":
            q, k = x["Q"].transpose(0, 2, 1, 3), x["K"].transpose(0, 2, 1, 3)
            keep = np.isfinite(x["Bitmap"])  # [B, N2, S1, S2]
        else:
            q, k = x["Q"], x["K"]
            si = x["Indices"].transpose(0, 2, 1, 3)
            keep = np.zeros(si.shape[:3] + (k.shape[1],), bool)
            np.put_along_axis(keep, si.astype(np.int64), True, axis=-1)
        B, S1, N1, Dk = q.shape
        N2 = k.shape[2]
        G = N1 // N2
        qg = q.astype(np.float64).transpose(0, 2, 1, 3).reshape(B, N2, G, S1, Dk)
        kk = k.astype(np.float64).transpose(0, 2, 1, 3)  # [B, N2, S2, Dk]
        sc = np.einsum("bngsd,bnkd->bngsk", qg, kk) * scale
        sc = np.where(keep[:, :, None], sc, -np.inf)
        p = np.exp(sc - sc.max(-1, keepdims=True))
        p /= p.sum(-1, keepdims=True)
        o = np.einsum("bngsk,bnkd->bngsd", p, kk[..., :Dv]).reshape(B, N1, S1, Dv)
        o = _f16(o.astype(np.float32))
        return {"Output": o if form == "dense" else o.transpose(0, 2, 1, 3).copy()}
    return golden


def _cann_bench_sfa_cases():
    """examples/cann-bench/sparse_flash_attention: example_sparse_flash_attention.py's __main__ runs
    one case per wrapper path (v3_decode, dense_reuse, rev1_fallback); sparse_flash_attention.py's
    its v3_decode case. The wrapper's arguments for each (core_num: the file's fallback, 20 cube
    cores of an A3), the file's check (rtol = atol = 1e-3 for float16)."""
    out, d = [], "examples/cann-bench/sparse_flash_attention/"
    v3 = dict(heads=32, kv_groups=8, dim_base=128, dim_tail=0, dim_v=128, topk=512, batch_size=16, seq_len=1,
              seq_len_kv=1024, m_base=32, n_base=256, gather_rows=64, is_causal=False, input_layout=0,
              dtype="float16", sm_scale=128 ** -0.5, core_num=20)
    dense = dict(heads=32, kv_groups=8, dim_base=128, dim_tail=0, dim_v=128, batch_size=2, seq_len=256,
                 seq_len_kv=1024, m_tile=64, n_base=256, dtype="float16", sm_scale=128 ** -0.5, core_num=20)
    rev1 = dict(heads=128, kv_groups=8, dim_base=128, dim_tail=0, dim_v=128, topk=384, block_I=64, head_block=64,
                is_causal=False, input_layout=0, dtype="float16", sm_scale=128 ** -0.5)
    runs = [("sparse_flash_attention.py", "v3_decode", "sparse_flash_attention_fwd_v3", v3, {},
             (16, 1, 1024, 32, 8, 128, 128, 512), "bsnd"),
            ("example_sparse_flash_attention.py", "v3_decode", "sparse_flash_attention_fwd_v3", v3, {},
             (16, 1, 1024, 32, 8, 128, 128, 512), "bsnd"),
            ("example_sparse_flash_attention.py", "dense_reuse", "sparse_flash_attention_fwd_dense", dense, {},
             (2, 256, 1024, 32, 8, 128, 128, 512), "dense"),
            ("example_sparse_flash_attention.py", "rev1_fallback", "sparse_flash_attention_fwd", rev1,
             dict(batch=1, seq_len=16, seq_len_kv=2048), (1, 16, 2048, 128, 8, 128, 128, 384), "bsnd"),
            # sparse_flash_attention.py's own __main__ has the v3 case only: its other two paths at the
            # sibling example's cases (the same wrapper)
            ("sparse_flash_attention.py", "dense_reuse", "sparse_flash_attention_fwd_dense", dense, {},
             (2, 256, 1024, 32, 8, 128, 128, 512), "dense"),
            ("sparse_flash_attention.py", "rev1_fallback", "sparse_flash_attention_fwd", rev1,
             dict(batch=1, seq_len=16, seq_len_kv=2048), (1, 16, 2048, 128, 8, 128, 128, 384), "bsnd")]
    for f, name, kern, args, dims, shp, form in runs:
        B, S1, S2, N1, N2, Dk, Dv, topK = shp
        out.append(dict(name=f"cann-bench {f[:-3]} {name}", root="tla", file=d + f, kernel=kern, args=args,
                        dims=dims, seed=42, shape=f"B={B} S1={S1} S2={S2} N1={N1} N2={N2} D={Dk} topK={topK} fp16",
                        inputs=_sfa_cb_inputs(*shp, form), golden=_sfa_cb_golden(Dv, 1.0 / Dk ** 0.5, form),
                        tol={"*": (1e-3, 1e-3)},
                        note="its __main__ case " + name + " (torch's generator replaced by NumPy's)"))
    return out


def _dsq_inputs(M, H, dt, has_ws, has_qs):
    """_run_case's inputs: x randint(-128, 128) int32, else uniform(-1, 1) in the dtype; weight_scale
    uniform(-0.1, 0.1) [1, 2H], activation_scale uniform(-0.5, 0.5) [M], quant_scale uniform(-1, 1)
    [1, H]; the wrapper's dummies (never read) as zeros, swiglu_ws (its scratch) zeros."""
    def make(rng):
        if dt == "int32":
            x = rng.integers(-128, 128, (M, 2 * H)).astype(np.int32)
        else:
            x = _rand(rng, (M, 2 * H)) * 2 - 1
            x = _f16(x) if dt == "float16" else _bf16(x)
        ws = _rand(rng, (1, 2 * H)) * 0.2 - 0.1 if has_ws else np.zeros((1, 2 * H), np.float32)
        act = _rand(rng, (M,)) - 0.5 if has_ws else np.zeros((M,), np.float32)
        qs = _rand(rng, (1, H)) * 2 - 1 if has_qs else np.zeros((1, H), np.float32)
        return {"x": (x, dt), "weight_scale": (ws, "float32"), "activation_scale": (act, "float32"),
                "quant_scale": (qs, "float32"), "swiglu_ws": (np.zeros((M, H), np.float32), "float32")}
    return make


def _dsq_golden(has_ws, has_qs, left):
    """golden_dequant_swiglu_quant in float32: dequant (int32 x * weight_scale * activation_scale),
    silu of one half times the other, times quant_scale, per-row scale max|.| / 127 (at least
    1e-12), y = round-half-even(v / scale) clamped to int8."""
    def golden(x):
        d = x["x"].astype(np.float32)
        if has_ws:
            d = d * x["weight_scale"] * x["activation_scale"][:, None]
        h = d.shape[1] // 2
        a, b = d[:, :h], d[:, h:]
        silu = lambda v: v / (np.float32(1) + np.exp(-v))
        sw = (silu(a) * b if left else silu(b) * a).astype(np.float32)
        if has_qs:
            sw = sw * x["quant_scale"]
        sc = np.maximum(np.abs(sw).max(-1) / np.float32(127.0), np.float32(1e-12)).astype(np.float32)
        y = np.clip(np.round(sw / sc[:, None]), -128, 127).astype(np.int8)
        return {"y": y, "scale": sc}
    return golden


def _dsq_check(got, golden):
    """precision_compare: y passes when under 1e-3 of its elements are off by more than 1; scale
    within atol 1e-5 + rtol 1e-3 (|golden| < 1e-5: atol 1e-7)."""
    gy, ty = golden["y"].astype(np.int64), got["y"].reshape(golden["y"].shape).astype(np.int64)
    dy = np.abs(ty - gy)
    gs = golden["scale"].astype(np.float64)
    ts = got["scale"].reshape(gs.shape).astype(np.float64)
    err = np.abs(ts - gs)
    bad = np.where(np.abs(gs) < 1e-5, err > 1e-7, err > 1e-5 + 1e-3 * np.abs(gs)) | np.isnan(ts)
    return {"y": (bool((dy > 1).mean() < 1e-3), float(dy.max()), int((dy > 1).sum()), int(gy.size)),
            "scale": (not bad.any(), float(np.nanmax(err)), int(bad.sum()), int(gs.size))}


def _moe_rr_inputs(A, H, N, E, dt):
    """__main__: tokens randn in the dtype, cnt = A // (N*E) per (rank, expert) with the remainder on
    the last, per_token_scales randn."""
    def make(rng):
        t = _randn(rng, (A, H))
        cnt = np.full((N * E,), A // (N * E), np.int32)
        cnt[-1] += A - cnt.sum()
        return {"tokens": (_f16(t) if dt == "float16" else _bf16(t), dt), "cnt_gm": (cnt, "int32"),
                "scales_gm": (_randn(rng, (A,)), "float32")}
    return make


def _moe_rr_golden(N, E):
    """golden_moe_re_routing: source blocks in (rank, expert) order move to (expert, rank) order."""
    def golden(x):
        cnt = x["cnt_gm"].astype(np.int64)
        src = np.concatenate([[0], np.cumsum(cnt)[:-1]])
        cd = cnt.reshape(N, E).T.reshape(-1)
        dst = np.concatenate([[0], np.cumsum(cd)[:-1]]).reshape(E, N).T.reshape(-1)
        A = int(cnt.sum())
        block = np.repeat(np.arange(N * E), cnt)
        pos = dst[block] + (np.arange(A) - src[block])
        idx = np.empty(A, np.int32)
        idx[pos] = np.arange(A, dtype=np.int32)
        return {"permute_tokens": x["tokens"][idx], "permute_scales": x["scales_gm"][idx], "permute_idx": idx,
                "expert_token_num": cnt.reshape(N, E).sum(0).astype(np.int32)}
    return golden


def _adamw_inputs(M, N, dt):
    """_run_l0_case: var, grad uniform(-1, 1), m uniform(-0.1, 0.1), v uniform(0, 0.1), in the dtype."""
    def make(rng):
        cast = {"float": lambda a: a, "float16": _f16, "bfloat16": _bf16}[dt]
        u = lambda lo, hi: cast(_rand(rng, (M, N)) * (hi - lo) + lo)
        return {"Var": (u(-1.0, 1.0), dt), "Grad": (u(-1.0, 1.0), dt), "M_in": (u(-0.1, 0.1), dt),
                "V_in": (u(0.0, 0.1), dt)}
    return make


def _adamw_golden(lr, b1, b2, wd, eps, step, maximize, dt):
    """golden_apply_adam_w in float32 (float16 / bfloat16 upcast, the result cast back)."""
    def golden(x):
        var, g, m, v = (x[n].astype(np.float32) for n in ("Var", "Grad", "M_in", "V_in"))
        m_new = np.float32(b1) * m + np.float32(1 - b1) * g
        v_new = np.float32(b2) * v + np.float32(1 - b2) * g * g
        upd = (m_new / np.float32(1 - b1 ** step)) / (np.sqrt(v_new / np.float32(1 - b2 ** step)) + np.float32(eps))
        if wd:
            upd = upd + var * np.float32(wd)
        y = var + np.float32(lr) * upd if maximize else var - np.float32(lr) * upd
        return {"Y": {"float": lambda a: a, "float16": _f16, "bfloat16": _bf16}[dt](y.astype(np.float32))}
    return golden


def _adamw_check(thr):
    """_run_l0_case: mean relative error (|a - g| / (|g| + 1e-7) over finite elements) below thr, its
    maximum below 10 thr, inf / nan where the golden has them."""
    def check(got, golden):
        g = golden["Y"].astype(np.float64)
        a = got["Y"].reshape(g.shape).astype(np.float64)
        fin = np.isfinite(a) & np.isfinite(g)
        rel = np.abs(a[fin] - g[fin]) / (np.abs(g[fin]) + 1e-7)
        special = np.array_equal(np.isnan(a), np.isnan(g)) and np.array_equal(np.isinf(a), np.isinf(g))
        ok = bool(rel.mean() < thr and rel.max() < 10 * thr and special)
        return {"Y": (ok, float(rel.max()), int((rel >= 10 * thr).sum()), int(g.size))}
    return check


def _cann_bench_cases():
    """examples/cann-bench files with a reference in the file: their first driver cases."""
    out, d = [], "examples/cann-bench/"
    f = d + "dequant_swiglu_quant/example_dequant_swiglu_quant.py"
    # test_l0's four cases; block_M / block_H / rows: _pick_block_m, _pick_block_h_and_rows
    for name, M, H, dt, ws, qs, left, bh in (("l0_fp16_base", 1024, 2048, "float16", False, False, False, 1024),
                                             ("l0_bf16_quant_scale", 1024, 2048, "bfloat16", False, True, False, 1024),
                                             ("l0_int32_w8a8", 512, 1024, "int32", True, False, True, 512),
                                             ("l0_int32_full_attrs", 1024, 2048, "int32", True, True, False, 512)):
        kern = ("_kernel_int32" if dt == "int32" else "_kernel_fp16") + ("_qs" if qs else "_noqs")
        args = dict(M=M, H_orig=H, block_M=8, block_H=bh)
        if dt != "int32":
            args["in_dtype"] = dt
        args.update(activate_left=left, rows=4)
        out.append(dict(name=f"cann-bench dequant_swiglu_quant {name}", root="tla", file=f, kernel=kern, args=args,
                        seed=42, shape=f"M={M} H={H} {dt}" + (" ws" if ws else "") + (" qs" if qs else "") +
                        (" left" if left else ""), inputs=_dsq_inputs(M, H, dt, ws, qs),
                        golden=_dsq_golden(ws, qs, left), check=_dsq_check, tol={}, light=True))
    f = d + "moe_re_routing/example_moe_re_routing.py"
    out.append(dict(name="cann-bench moe_re_routing L0", root="tla", file=f, kernel=None,
                    args=dict(A=1024, H=512, N=8, E=8, TILE_A=32, NUM_CORES=16, tokens_dtype="float16",
                              cnt_dtype="int32", has_scale=True, use_tables=True),
                    seed=0, shape="A=1024 H=512 N=8 E=8 fp16, scales", inputs=_moe_rr_inputs(1024, 512, 8, 8, "float16"),
                    golden=_moe_rr_golden(8, 8), tol={"*": (0.0, 0.0)}, light=True,
                    note="__main__'s L0 config; _compute_launch_cores(1024) = 16, _compute_tile_a = (32, True)"))
    f = d + "apply_adam_w/example_apply_adam_w.py"
    # L0_TEST_CASES l0_fp32_basic / l0_fp16_basic: lr 1e-3, betas 0.9 / 0.999, no weight decay, eps 1e-8,
    # step 1: the pipeline kernels; _select_tiling(1024, 1024) = (128, 320, 32), _precompute_scalars
    for dt, kern, thr in (("float", "_adam_w_pipeline_fp32", 0.005), ("float16", "_adam_w_pipeline_lowprec", 0.01)):
        out.append(dict(name=f"cann-bench apply_adam_w l0_{'fp32' if dt == 'float' else 'fp16'}_basic", root="tla",
                        file=f, kernel=kern,
                        args=dict(M=1024, N=1024, block_M=128, block_N=320, sub_M=32, eff_beta1=9.000000000000002,
                                  eff_ombeta1=1.0, eff_beta2=998.9999999999991, eff_ombeta2=1.0, lr_signed=-0.001,
                                  weight_decay=0.0, epsilon=1e-8, dtype=dt),
                        seed=42, shape=f"1024x1024 {dt}", inputs=_adamw_inputs(1024, 1024, dt),
                        golden=_adamw_golden(0.001, 0.9, 0.999, 0.0, 1e-8, 1, False, dt), check=_adamw_check(thr),
                        tol={}, light=True))
    return out


def _feature_cases():
    """testing/python/language's tests of ops tilec added in session 9: copy_pa (its three
    block-table configurations, float16 and bfloat16: q @ kv^T over the window gathered through
    the table, the file's _ref_qk)."""
    out = []
    f = "testing/python/language/test_tilelang_ascend_language_copy_pa.py"
    for bs, nphys, s2, bt, what in ((64, 2, 0, [1, 0], "single page"), (32, 4, 0, [2, 0, 3, 1], "2 pages"),
                                    (32, 4, 16, [2, 0, 3, 1], "3 pages, mid-page start")):
        for dt in ("float16", "bfloat16"):
            def inputs(rng, bs=bs, nphys=nphys, bt=bt, dt=dt):
                cv = _f16 if dt == "float16" else _bf16
                return {"Q": (cv(_randn(rng, (1, 32, 128))), dt), "KV": (cv(_randn(rng, (nphys * bs, 128))), dt),
                        "BT": (np.array(bt, np.int32), "int32")}

            def golden(x, bs=bs, s2=s2):
                rows = [s2 + i for i in range(64)]
                g = np.stack([x["KV"][int(x["BT"][r // bs]) * bs + r % bs] for r in rows])
                return {"S": (x["Q"][0] @ g.T)[None]}

            tol = (2e-2, 2e-2) if dt == "bfloat16" else (1e-2, 1e-2)
            out.append(dict(name=f"copy_pa {what} {dt}", root="tla", file=f, kernel=None,
                            args=dict(block_M=32, win=64, dim=128, block_size=bs, num_phys=nphys, s2_idx=s2,
                                      dtype=dt, accum_dtype="float"),
                            seed=0, shape=f"win 64 of pages of {bs}, table {bt}, {dt}", inputs=inputs,
                            golden=golden, tol={"*": tol}, light=True))
    # im2col: its _run_im2col (H = W = 5, C0 = 16, 3 x 3 kernel, pad 1): an fp16 NHWC feature map
    # [HW, C0] (the file draws NCHW randn and permutes it), Eye the identity; Out's first HW rows
    # are the im2col matrix, K ordered (kh, kw, c), the file's assert_close(1e-3, 1e-3)
    H = W = 5
    C0, KH, KW, pad = 16, 3, 3, 1

    def im2col_inputs(rng):
        x = _f16(_randn(rng, (H * W, C0)))
        return {"Fmap": (x, "float16"), "Eye": (np.eye(KH * KW * C0, dtype=np.float32), "float16")}

    def im2col_golden(x):
        xp = np.pad(x["Fmap"].reshape(H, W, C0), ((pad, pad), (pad, pad), (0, 0)))
        out = np.zeros((H * W, KH * KW * C0), np.float32)
        for m in range(H * W):
            oh, ow = divmod(m, W)
            out[m] = np.concatenate([xp[oh + i, ow + j] for i in range(KH) for j in range(KW)])
        return {"Out": out}

    out.append(dict(name="im2col 5x5 3x3 pad 1", root="tla",
                    file="testing/python/language/test_tilelang_ascend_language_im2col.py", kernel=None,
                    args=dict(target="ascendc"), seed=0, shape="5x5x16 fp16, kernel 3x3, pad 1",
                    inputs=im2col_inputs, golden=im2col_golden, tol={"*": (1e-3, 1e-3)}, light=True,
                    post={"Out": lambda g: g[:H * W]},
                    note="rows HW.. of Out (L0A rows past the outputs) are not compared, as the file"))
    # gemm_v0_int4: int4 tensors go to the kernel as their packed bytes (uint8 [..., N / 2], the
    # even element in the low nibble: the file's _pack_int4); A, B randint(-8, 8) int16 as in
    # test_gemm_v0_int4 (its parametrizations), golden a @ b in int32, exact (rtol = atol = 0);
    # the quant kernel (test_fp16_to_int4_quant_packed): fp16 randint(-8, 8), golden its packing
    f = "testing/python/language/test_tilelang_ascend_language_gemm_v0_int4.py"

    def pack4(t):
        b = (t.astype(np.int64) & 0xF).reshape(t.shape[0], -1, 2)
        return (b[:, :, 0] | (b[:, :, 1] << 4)).astype(np.uint8)

    def unpack4(p):
        n = np.stack([p & 0xF, p >> 4], axis=-1).reshape(p.shape[0], -1).astype(np.int64)
        return n - 16 * (n >> 3)

    for M, N, K, bm, bn, kl1 in ((128, 256, 64, 128, 256, 64), (128, 256, 1024, 128, 256, 64),
                                 (256, 512, 512, 128, 256, 64), (64, 64, 64, 64, 64, 64),
                                 (128, 256, 128, 128, 256, 128), (128, 256, 1024, 128, 256, 128),
                                 (128, 1024, 256, 128, 256, 64), (32, 1024, 64, 32, 1024, 64),
                                 (128, 256, 256, 128, 256, 256), (32, 1024, 512, 32, 1024, 256)):
        def inputs(rng, M=M, N=N, K=K):
            return {"A": (pack4(rng.integers(-8, 8, (M, K))), "uint8"),
                    "B": (pack4(rng.integers(-8, 8, (K, N))), "uint8")}

        def golden(x):
            return {"C": (unpack4(x["A"]) @ unpack4(x["B"])).astype(np.int32)}

        out.append(dict(name=f"gemm_v0_int4 M={M} N={N} K={K} K_L1={kl1}", root="tla", file=f,
                        kernel="_gemm_v0_int4_kernel",
                        args=dict(M=M, N=N, K=K, block_M=bm, block_N=bn, K_L1=kl1), seed=0,
                        shape=f"M={M} N={N} K={K} block {bm}x{bn} K_L1={kl1} int4", inputs=inputs,
                        golden=golden, tol={"*": (0, 0)}, light=True))

    def quant_inputs(rng):
        return {"A": (rng.integers(-8, 8, (128, 256)).astype(np.float32), "float16")}

    out.append(dict(name="gemm_v0_int4 quant fp16 -> int4", root="tla", file=f,
                    kernel="_fp16_to_int4_quant_kernel", args=dict(M=128, N=256, block_M=128, block_N=256),
                    seed=0, shape="128x256 fp16 -> packed int4", inputs=quant_inputs,
                    golden=lambda x: {"B": pack4(x["A"].astype(np.int64))}, tol={"*": (0, 0)}, light=True))
    return out


def _gemm_example_cases():
    """examples/gemm: float16 randn A [M, K] and B [K, N] (example_gemm_transpose_l1: B [N, K]),
    golden the float16 a @ b (a @ b.T), the files' assert_close(rtol=1e-2, atol=1e-2)."""
    out = []

    def case(name, file, args, shape, M, N, K, transpose_b=False, seed=0):
        def inputs(rng):
            a = _f16(_randn(rng, (M, K)))
            b = _f16(_randn(rng, (N, K) if transpose_b else (K, N)))
            return {"A": (a, "float16"), "B": (b, "float16")}

        def golden(x):
            return {"C": _f16(x["A"] @ (x["B"].T if transpose_b else x["B"]))}

        out.append(dict(name=name, root="tla", file="examples/gemm/" + file, kernel=None, args=args, seed=seed,
                        shape=shape, inputs=inputs, golden=golden, tol={"*": (1e-2, 1e-2)}, light=True))

    # the intrinsic examples' own M = K = 8192 (137 GFLOP) at 1024: the same kernel and tiles
    for f in ("example_gemm_intrinsic.py", "example_gemm_intrinsic_persistent.py"):
        case(f[:-3], f, dict(M=1024, N=1024, K=1024, block_M=128, block_N=256, block_K=64, K_L1=256, S1=2, S2=2),
             "M=N=K=1024 fp16 (test: M=K=8192 N=1024)", 1024, 1024, 1024)
    for f in ("example_gemm_persistent.py", "example_gemm_infer_scope.py", "example_gemm_pto_developer.py"):
        case(f[:-3], f, dict(M=1024, N=1024, K=1024, block_M=128, block_N=256, K_L1=64), "M=N=K=1024 fp16",
             1024, 1024, 1024)
    case("example_gemm_transpose_l1", "example_gemm_transpose_l1.py",
         dict(M=512, N=256, K=1024, block_M=256, block_N=128, K_L1=64), "M=512 N=256 K=1024 fp16, B [N, K]",
         512, 256, 1024, transpose_b=True, seed=42)
    for M, N, K, bm, bn, bk in ((126, 80, 159, 32, 32, 32), (557, 512, 539, 64, 64, 64),
                                (512, 611, 512, 128, 128, 128), (1142, 1230, 1079, 128, 256, 64)):
        case(f"example_gemm_tail_block_developer M={M}", "example_gemm_tail_block_developer.py",
             dict(M=M, N=N, K=K, block_M=bm, block_N=bn, K_L1=bk), f"M={M} N={N} K={K} block {bm}x{bn}x{bk} fp16",
             M, N, K)
    return out


CASES = _cases()
