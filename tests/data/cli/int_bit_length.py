# int.bit_length() / int.bit_count() in host Python (the npuir branch's
# sparse_attn_bwd rounds sizes up with `1 << (x - 1).bit_length()`): the block
# is the next power of two of N, and the asserts hold as in CPython.
import tilelang
import tilelang.language as T


def next_power_of_2(x: int) -> int:
    if x <= 1:
        return 1
    return 1 << (x - 1).bit_length()


assert (0).bit_length() == 0 and (1).bit_length() == 1 and (255).bit_length() == 8
assert (-256).bit_length() == 9 and (1 << 40).bit_length() == 41 and True.bit_length() == 1
assert (0).bit_count() == 0 and (-7).bit_count() == 3 and (0xF0F0).bit_count() == 8


def int_bit_length(N=48):
    B = next_power_of_2(N)

    @T.prim_func
    def main(A: T.Tensor((B,), "float32"), O: T.Tensor((B,), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((B,), "float32")
            if vid == 0:
                T.copy(A, a)
                T.copy(a, O)

    return main


