// Small helpers used everywhere.
#ifndef TL_BASE_COMMON_H
#define TL_BASE_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#define TL_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define TL_MIN(a, b) ((a) < (b) ? (a) : (b))
#define TL_MAX(a, b) ((a) > (b) ? (a) : (b))
#define TL_ALIGN_UP(x, a) (((x) + (a)-1) / (a) * (a))

// How deeply a kernel may nest (docs/language.md, "Limits"). Every recursive
// walk of the compiler, the executors and the code generator stays within a
// few MiB of C stack for programs within these limits; the front end rejects
// deeper ones with a located error, and passes that build deeper expressions
// themselves (T.Parallel's substitution) report them.
//  - TL_MAX_NESTING: the depth of an expression or statement tree: each
//    operand, call, subscript, operator of a chain (a + b + c is two levels)
//    and enclosing statement counts one level;
//  - TL_MAX_BLOCKS: compound statements inside one another (for, while, if,
//    with, def; the elifs of an if are at its level);
//  - TL_MAX_ELIF: branches of one if/elif chain (a long chain on run-time
//    values is lowered flat: front/trace.c).
// TL_EVAL_MAX_BYTES: memory the front end may take for one kernel file (the
// values of compile-time evaluation and the traced IR).
enum { TL_MAX_NESTING = 2000, TL_MAX_BLOCKS = 200, TL_MAX_ELIF = 10000, TL_EVAL_MAX_BYTES = 1 << 30 };

#if defined(__GNUC__)
#define TL_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define TL_UNUSED __attribute__((unused))
// Keeps a helper's locals out of the frame of a recursive caller.
#define TL_NOINLINE __attribute__((noinline))
#else
#define TL_PRINTF(f, a)
#define TL_UNUSED
#define TL_NOINLINE
#endif

// The x86-64 code paths (intrinsics, our own assembly) need GCC or Clang;
// -DTILEC_PORTABLE builds the portable fallbacks instead (`make check`
// compiles every source that way, so that they keep building).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(TILEC_PORTABLE)
#define TL_X86_64 1
#else
#define TL_X86_64 0
#endif

#endif
