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

#endif
