# Host code of a language test (a fork's test_tilelang_ascend_language_merge_sort.py):
# its CPU reference sorts with list.sort(key=...), which tilec did not model, so the
# test stopped there and the 4-way builder, compiled later in the same loop, got no
# pass configs (5 races on sim). The list/dict methods below shape the kernels, so a
# wrong model changes a shape; a Python method tilec does not model warns, located.
import tilelang
import tilelang.language as T

PASS_CONFIGS = {tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True}

# stable, also reversed: ("b", 2) stays before ("a", 2)
ORDER = sorted([("c", 1), ("b", 2), ("a", 2)], key=lambda e: e[1], reverse=True)
FIRST = {"a": 48, "b": 32, "c": 16}[ORDER[0][0]]
L = [16, 32]
L.insert(0, 8)  # [8, 16, 32]
L.remove(32)
L2 = L.copy()
L2.reverse()  # [16, 8]; L stays [8, 16]
k, v = {"x": 4, "y": 2}.copy().popitem()  # ("y", 2)
SIZE = L2[0] * v + L2[1] + L[0]  # 48
NAME = "tile" + "aba".count("a") * "x" + str("abab".find("ba")) + "mUL".capitalize()  # "tilexx1Mul"
SCALED = {"tilexx1Mul": 24}[NAME]
tag = "7".zfill(3)  # not modelled: a warning, the driver goes on


def copy_kernel(n):
    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a_ub = T.alloc_ub((n,), "float32")
            T.copy(A, a_ub)
            T.copy(a_ub, B)

    return main


def first_kernel():
    return copy_kernel(FIRST)


def size_kernel():
    return copy_kernel(SIZE)


def named_kernel():
    return copy_kernel(SCALED)


def titled_kernel():
    return copy_kernel(len("ab".title()))


def two_way(n):
    @T.prim_func
    def main(A: T.Tensor((2 * n,), "float32"), B: T.Tensor((2 * n,), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a_ub = T.alloc_ub((2 * n,), "float32")
            T.copy(A, a_ub)
            T.copy(a_ub, B)

    return main


def four_way(n):
    @T.prim_func
    def main(A: T.Tensor((4 * n,), "float32"), B: T.Tensor((4 * n,), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a_ub = T.alloc_ub((4 * n,), "float32")
            T.copy(A, a_ub)
            T.copy(a_ub, B)

    return main


def other_kernel(n):
    return copy_kernel(n)


def pick(ways):
    if ways == 2:
        return two_way(16)
    return four_way(16)


def cpu_ref(blocks):
    elems = []
    for bi, b in enumerate(blocks):
        for j, x in enumerate(b):
            elems.append((x, bi, j))
    elems.sort(key=lambda e: (-e[0], e[1], e[2]))
    return [e[0] for e in elems]


def test_ways():
    for ways in (2, 4):
        ref = cpu_ref([[3, 1]] * ways)
        assert ref[0] == 3 and ref[-1] == 1
        kernel = pick(ways)
        tilelang.compile(kernel, out_idx=[-1], pass_configs=PASS_CONFIGS)


def test_other():
    width = "x".center(5)
    tilelang.compile(other_kernel(len(width)), out_idx=[-1], pass_configs=PASS_CONFIGS)
