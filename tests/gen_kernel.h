// A generator of random developer-mode kernels (TileLang-Ascend source text)
// for checking the developer-mode passes: the reference executor runs the
// program as written; after the NPU pipeline (CV split, syncs, planning...) the
// simulator must find no race and produce the same values.
//
// The program: per block two row tiles of X [R, N] (float32), one per vector
// core (rows offset by vid, so the two cores never share GM bytes, as real
// developer kernels do), UB tiles t0..t3 [M, N], a row-sum vector, cube tiles
// for one GEMM over the block's first tile whose result is handed to both
// vector cores, a sequence of statements drawn from the input bytes (copies,
// vector ops, scalar-operand ops, T.Parallel nests, reductions, the GEMM and
// its hand-off, loops that reuse buffers), and a final store of t0 into Y. Only
// tiles already written are read, so a race-free program's values are fully
// determined.
#ifndef TL_TESTS_GEN_KERNEL_H
#define TL_TESTS_GEN_KERNEL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/buf.h"

typedef struct {
    const uint8_t *p;
    size_t n, i;
    bool pipelined; // loops may be T.Pipelined (a byte more per loop decides)
} gen_bytes_t;

static inline unsigned gen_take(gen_bytes_t *g, unsigned mod)
{
    unsigned v = g->i < g->n ? g->p[g->i++] : 0;
    return mod ? v % mod : v;
}

static inline void gen_line(tl_buf_t *o, int ind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static inline void gen_line(tl_buf_t *o, int ind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tl_buf_indent(o, ind);
    tl_buf_vprintf(o, fmt, ap);
    tl_buf_putc(o, '\n');
    va_end(ap);
}

// One statement at indentation `ind`; `written` is a bit set of written tiles
// (bits 0-3 t0..t3, bit 4 the row sum s, bit 5 the GEMM result handed over).
static inline void gen_stmt(gen_bytes_t *g, tl_buf_t *o, int ind, unsigned *written, int depth)
{
    static const char *bin[] = {"add", "sub", "mul", "max", "min"};
    static const char *un[] = {"exp", "abs", "relu"};
    int dst = (int)gen_take(g, 4);
    unsigned have = *written & 15;
    // Pick sources among written tiles; with none written, load first.
    int a = -1, b = -1;
    for (int k = 0, s = (int)gen_take(g, 4); k < 4; k++)
        if (have & (1u << ((s + k) % 4))) { a = (s + k) % 4; break; }
    for (int k = 0, s = (int)gen_take(g, 4); k < 4; k++)
        if (have & (1u << ((s + k) % 4))) { b = (s + k) % 4; break; }
    unsigned kind = a < 0 ? 0 : gen_take(g, depth < 2 ? 11 : 10);
    switch (kind) {
    case 0: // load a tile of X (or of X shifted by a column block)
        gen_line(o, ind, "T.copy(X[row, 0], t%d)", dst);
        *written |= 1u << dst;
        break;
    case 1:
        gen_line(o, ind, "T.tile.%s(t%d, t%d, t%d)", bin[gen_take(g, 5)], dst, a, b);
        *written |= 1u << dst;
        break;
    case 2:
        gen_line(o, ind, "T.tile.%s(t%d, t%d, %d.5)", bin[gen_take(g, 3)], dst, a, (int)gen_take(g, 3));
        *written |= 1u << dst;
        break;
    case 3:
        gen_line(o, ind, "T.tile.%s(t%d, t%d)", un[gen_take(g, 3)], dst, a);
        // exp of unbounded values overflows to inf identically on both sides; keep magnitudes small
        gen_line(o, ind, "T.tile.min(t%d, t%d, 4.0)", dst, dst);
        *written |= 1u << dst;
        break;
    case 4:
        gen_line(o, ind, "T.tile.fill(t%d, %d.25)", dst, (int)gen_take(g, 5));
        *written |= 1u << dst;
        break;
    case 5: // a T.Parallel nest with a row broadcast of the row sum (or a scalar)
        if (*written & 16) {
            gen_line(o, ind, "for i, j in T.Parallel(M, N):");
            gen_line(o, ind + 4, "t%d[i, j] = t%d[i, j] * 0.5 + s[i]", dst, a);
        } else {
            gen_line(o, ind, "for i, j in T.Parallel(M, N):");
            gen_line(o, ind + 4, "t%d[i, j] = t%d[i, j] + t%d[i, j] * 2.0", dst, a, b);
        }
        *written |= 1u << dst;
        break;
    case 6:
        gen_line(o, ind, "T.reduce_sum(t%d, s, dim=-1)", a);
        *written |= 16;
        break;
    case 7: // the GEMM on the cube and its hand-off to the vector side
        gen_line(o, ind, "T.copy(X[cid * 2 * M, 0], a_l1)");
        gen_line(o, ind, "T.copy(W, b_l1)");
        gen_line(o, ind, "T.gemm_v0(a_l1, b_l1, c_l0, init=True)");
        gen_line(o, ind, "T.copy(c_l0, t%d)", dst);
        *written |= (1u << dst) | 32;
        break;
    case 8: // store a tile, then read it back (a GM round trip within the block)
        gen_line(o, ind, "T.copy(t%d, Y[row, 0])", a);
        gen_line(o, ind, "T.copy(Y[row, 0], t%d)", dst);
        *written |= 1u << dst;
        break;
    case 9: // a scalar store into a written tile (scalar pipe on UB)
        gen_line(o, ind, "t%d[%d, %d] = t%d[0, 0] + 1.0", a, (int)gen_take(g, 4), (int)gen_take(g, 8), a);
        break;
    default: { // a loop whose body reuses tiles (loop-carried dependences)
        int trips = 1 + (int)gen_take(g, 3);
        if (g->pipelined && gen_take(g, 2)) // the unrolled, multi-buffered form
            gen_line(o, ind, "for it in T.Pipelined(%d, num_stages=2):", trips + 2);
        else
            gen_line(o, ind, "for it in T.serial(%d):", trips);
        unsigned before = *written;
        int body = 1 + (int)gen_take(g, 3);
        for (int k = 0; k < body; k++) gen_stmt(g, o, ind + 4, written, depth + 1);
        *written |= before;
        break;
    }
    }
}

// The kernel source for the bytes (NUL-terminated in o); with `pipelined`, a
// loop is T.Pipelined(trips + 2, num_stages=2) when a byte more says so.
static inline void gen_kernel_loops(const uint8_t *bytes, size_t n, bool pipelined, tl_buf_t *o)
{
    gen_bytes_t g = {bytes, n, 0, pipelined};
    int M = gen_take(&g, 2) ? 16 : 8;
    int N = gen_take(&g, 2) ? 64 : 32;
    int blocks = 1 + (int)gen_take(&g, 3);
    tl_buf_printf(o, "import tilelang\nimport tilelang.language as T\n\n"
                     "@tilelang.jit(out_idx=[2], pass_configs={\n"
                     "    tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_COMBINE: True,\n"
                     "    tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_SYNC: True,\n"
                     "    tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,\n"
                     "    tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: %s})\n"
                     "def gen(M=%d, N=%d, blocks=%d):\n"
                     "    @T.prim_func\n"
                     "    def main(X: T.Tensor((2 * M * blocks, N), \"float32\"), W: T.Tensor((N, N), \"float32\"),\n"
                     "             Y: T.Tensor((2 * M * blocks, N), \"float32\")):\n"
                     "        with T.Kernel(blocks, is_npu=True) as (cid, vid):\n"
                     "            row = (cid * 2 + vid) * M\n",
                   gen_take(&g, 4) ? "True" : "False", M, N, blocks);
    const int ind = 12;
    for (int i = 0; i < 4; i++) gen_line(o, ind, "t%d = T.alloc_shared((M, N), \"float32\")", i);
    gen_line(o, ind, "s = T.alloc_shared((M,), \"float32\")");
    gen_line(o, ind, "a_l1 = T.alloc_shared((M, N), \"float32\")");
    gen_line(o, ind, "b_l1 = T.alloc_shared((N, N), \"float32\")");
    gen_line(o, ind, "c_l0 = T.alloc_fragment((M, N), \"float32\")");
    unsigned written = 0;
    int nstmt = 2 + (int)gen_take(&g, 14);
    for (int i = 0; i < nstmt; i++) gen_stmt(&g, o, ind, &written, 0);
    // Every tile written counts in the result.
    if (!(written & 1)) gen_line(o, ind, "T.copy(X[row, 0], t0)");
    for (int k = 1; k < 4; k++)
        if (written & (1u << k)) gen_line(o, ind, "T.tile.add(t0, t0, t%d)", k);
    gen_line(o, ind, "T.copy(t0, Y[row, 0])");
    tl_buf_puts(o, "    return main\n");
}

// The kernel source for the bytes, loops always T.serial.
static inline void gen_kernel(const uint8_t *bytes, size_t n, tl_buf_t *o)
{
    gen_kernel_loops(bytes, n, false, o);
}

#endif
