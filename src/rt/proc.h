// Running other programs, and the files and directories their products go
// to: the system compilers the cpu target (cpu/jit.c) and the pto target
// (pto/run.c) build kernels with, and the pto kernels' child processes.
#ifndef TL_RT_PROC_H
#define TL_RT_PROC_H

#include <stdbool.h>
#include <stddef.h>

// Runs argv (NULL-terminated, found on $PATH, no shell) with stdout and
// stderr into *output (heap, "" when it printed nothing). Returns the exit
// status, 128 + the signal that ended it, -1 with errno set when it could not
// start, or TL_PROC_TIMED_OUT when it ran longer than limit_s seconds (0: no
// limit) and was killed (*output then has what it printed).
int tl_proc_run(char *const *argv, char **output, double limit_s);
enum { TL_PROC_TIMED_OUT = -2 };

// mkdir -p: 0, or -1 with errno set.
int tl_proc_mkdirs(const char *path);
// Writes len bytes to path (created or truncated); false on any error.
bool tl_proc_write_file(const char *path, const void *data, size_t len);
// Seconds on the monotonic clock.
double tl_proc_now(void);

// The directory compiled kernels are cached in (heap string): `dir` when not
// NULL, else $TILEC_CACHE_DIR, else $XDG_CACHE_HOME/tilec, else
// ~/.cache/tilec, else /tmp/tilec-cache. It may not exist yet.
char *tl_proc_cache_dir(const char *dir);

#endif
