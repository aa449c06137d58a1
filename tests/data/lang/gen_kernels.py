# Kernels generated as source text at import time, written beside the file and
# loaded back with importlib (upstream's normalization/rms_norm_optimized.py does
# this, issue 19). tilec runs the host code against an in-memory file system:
# nothing is written to disk, and the generated module's factories are kernels
# (`-k _mod.triple`). Also exercised: os.path, `with open(...) as f`, printf-style
# `%` formatting, str.splitlines and PassConfigKey members' `.name`.
import importlib.util
import os

import tilelang
import tilelang.language as T

pass_configs = {tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True}


def _make(name, scale):
    lines = """with T.Kernel(M // 64, is_npu=True) as (cid, vid):
    a = T.alloc_ub((64,), dtype)
    with T.Scope("V"):
        T.copy(A[cid * 64 : cid * 64 + 64], a)
        T.tile.mul(a, a, %s)
        T.copy(a, B[cid * 64 : cid * 64 + 64])""" % (repr(scale),)
    body = "\n".join("%8s%s" % ("", ln) for ln in lines.splitlines())
    return f'''
@tilelang.jit(out_idx=[1], pass_configs=pass_configs)
def {name}(M, dtype="float32"):
    @T.prim_func
    def main(A: T.Tensor((M,), dtype), B: T.Tensor((M,), dtype)):
{body}
    return main
'''


def _generate():
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "_gen_kernels_out.py")
    with open(path, "w") as f:
        f.write("import tilelang\nfrom tilelang import language as T\n\n")
        f.write("pass_configs = {\n")
        for k, v in pass_configs.items():
            f.write(f"    tilelang.PassConfigKey.{k.name}: {v},\n")
        f.write("}\n")
        for name, scale in (("double", 2.0), ("triple", 3.0)):
            f.write(_make(name, scale) + "\n")
    return path


_PATH = _generate()
_spec = importlib.util.spec_from_file_location("_gen_kernels_out", _PATH)
_mod = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_mod)


def scale(M, which):
    return getattr(_mod, which)(M)


if __name__ == "__main__":
    scale(256, "triple")
