"""The shapes and inputs upstream files' own drivers use, for scripts/upstream_check.py, where
tilec cannot find them by running the file (they come from torch tensors' contents or shapes).

Each entry: file (path suffix under the corpus root), kernel (-k, or None for the file's only
one), args (-a), inputs ({param: (values, dtype)}: exact contents, written as .npy), fills
({param: --fill spec}), where (the file's lines the values come from). The cases of
scripts/golden_cases.py count too (their args, and their inputs when NumPy is there).
Written from reading each file's driver; upstream files are never copied.
"""


def _grouped_blocks(sizes, block_m):
    """[batch, first row, valid rows] per block of block_m rows of each group."""
    out, offset = [], 0
    for b, size in enumerate(sizes):
        for start in range(0, size, block_m):
            out.append([b, offset + start, min(block_m, size - start)])
        offset += size
    return out


def _cumsum0(lengths):
    out, total = [0], 0
    for n in lengths:
        total += n
        out.append(total)
    return out


SHAPES = [
    dict(file="examples/chunk_gated_delta_rule/expert_chunk_gated_delta_rule.py", kernel=None,
         args=dict(N=1, H=8, T_total=2048, Hg=4, K=128, V=128, NT_max=32),
         inputs={"cu_seqlens": (_cumsum0([2048]), "int32")},
         where="__main__: --seqlens 2048 --H 8 --Hg 4 --K 128 --V 128; chunk_gated_delta_rule_fwd_h: "
               "N = len(cu_seqlens) - 1, NT_max = ceil(2048 / BT=64)"),
    dict(file="examples/chunk_gated_delta_rule/expert_chunk_gated_delta_rule_varlen.py", kernel=None,
         args=dict(N=1, H=8, T_total_pad=2048 + 64, Hg=4, K=128, V=128, NT_max=32),
         inputs={"cu_seqlens": (_cumsum0([2048]), "int32")},
         where="__main__: --varlen False (default), --B 1 --T 2048 --H 8 --Hg 4 --K 128 --V 128; "
               "chunk_gated_delta_rule_fwd_h: N = B, cu_seqlens = arange(0, T_total + 1, T), pad BT = 64"),
    dict(file="examples/fused_sigmoid_gating_delta_rule/fused_sigmoid_gating_delta_rule_varlen.py",
         kernel=None, args={},
         inputs={"cu_seqlens": (_cumsum0([4, 8] * 50), "int32"),
                 "ssm_state_indices": (list(range(100)), "int32")},
         where="__main__ test_cases: seqlens [4, 8] * 50; main(): ssm_state_indices = "
               "torch.arange(num_seqs)"),
    dict(file="examples/grouped_gemm/example_grouped_gemm_fwd.py", kernel=None, args={},
         inputs={"block_metadata": (_grouped_blocks([64, 128], 64), "int32")},
         where="__main__: --batch_sizes '64, 128', block_M 64; the metadata loop of its input builder"),
    dict(file="examples/moe_token_permute/moe_token_permute.py", kernel=None, args={},
         fills={"indices_gm": "int:0:3"},
         where="its test: indices = torch.randint(0, num_experts=4, (num_tokens, topk))"),
]
