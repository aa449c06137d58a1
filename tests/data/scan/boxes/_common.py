# A sibling module of boxes/box_kernel.py, imported relatively (tests/unit/test_scripts.c).
def tile_rows(n):
    return n // 4
