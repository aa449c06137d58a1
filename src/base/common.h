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

#if defined(__GNUC__)
#define TL_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define TL_UNUSED __attribute__((unused))
#else
#define TL_PRINTF(f, a)
#define TL_UNUSED
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
