// Compiling generated C with the system compiler and loading it, through an
// on-disk cache.
//
// The compiler is $CC (split at spaces, no shell) or `cc`; flags are the
// caller's, else $TILEC_CFLAGS, else "-O3 -march=native", followed by the
// flags the generated code's semantics need (no FP contraction, no strict
// aliasing). It runs through posix_spawnp with an argument vector.
//
// The cache directory is $TILEC_CACHE_DIR, else $XDG_CACHE_HOME/tilec, else
// ~/.cache/tilec. When it cannot be written the kernel is compiled in a
// temporary directory removed after loading, with a warning. A compiler run
// longer than $TILEC_CC_TIMEOUT seconds (default 300) is stopped. An entry is KEY.so plus KEY.ok (size and content hash of the
// .so), both written to temporary names and renamed; KEY hashes the source,
// the tilec version, the ABI, the compiler's `--version` output and the
// flags. An entry whose .ok is missing or does not match, that fails to load,
// or whose module names another key or ABI is rebuilt.
//
// With GCC, the system headers a module starts with (`pch_header`, the same
// #include lines) are compiled once per compiler and flags into a
// precompiled header under the cache directory (pch-HASH/tlc_sys.h.gch) and
// passed with -include: parsing <immintrin.h> is a third of a cold compile.
// GCC ignores a precompiled header that does not match the flags and reads
// the text header instead, and the module's own #include lines are then
// no-ops, so the shared object is the same either way. A module that fails to
// compile with it is compiled again without it (and the header rebuilt next
// time). TILEC_PCH=0 turns it off.
#ifndef TL_CPU_JIT_H
#define TL_CPU_JIT_H

#include <stdint.h>

#include "base/diag.h"

typedef struct {
    const char *cc;         // NULL: $CC, else "cc"
    const char *cflags;     // NULL: $TILEC_CFLAGS, else "-O3 -march=native"
    const char *cache_dir;  // NULL: the environment's (see above)
    const char *pch_header; // system #include lines worth precompiling, or NULL
} tl_jit_opts_t;

typedef struct {
    void *handle;
    const void *module; // the module's `tlk_module`
    bool cached;        // loaded from the cache (no compiler run)
    double compile_s;   // time in the compiler (0 when cached)
    bool pch_used;      // the compile was given the precompiled header
    char key[40];
    char path[4096]; // the shared object
} tl_jit_t;

// The cache key of a source compiled with the options (runs `cc --version`
// once per compiler and process).
tl_status_t tl_jit_key(const char *source, const tl_jit_opts_t *o, char key[40], tl_diag_t *d);
// Loads the module for `key` from the cache, or compiles `source` (which
// must export a tlc_module_t named tlk_module with that key) and caches it.
tl_status_t tl_jit_load(const char *source, const char *key, const tl_jit_opts_t *o, tl_jit_t *out,
                        tl_diag_t *d);
void tl_jit_unload(tl_jit_t *j);
// The cache directory the options resolve to (heap string; rt/proc.h's
// tl_proc_cache_dir).
char *tl_jit_cache_dir(const tl_jit_opts_t *o);

// --- the cache's upkeep (jit_cache.c) ---------------------------------------------------------
// Its size cap: $TILEC_CACHE_MAX_MB MiB, else 2048 MiB. After a compile the
// least recently used entries go until the entries take 90 % of it.
uint64_t tl_jit_cache_max_bytes(void);
void tl_jit_cache_trim(const char *dir, const char *keep_key);
void tl_jit_cache_touch(const char *ok_path); // marks an entry used now

typedef struct {
    char dir[4096];
    bool missing;           // the directory does not exist (yet)
    int entries;            // compiled kernels
    uint64_t entry_bytes;   // their .so, .ok and .c files
    int pch_dirs;           // precompiled system headers
    uint64_t pch_bytes;
    int other_files;        // failed sources, temporaries of stopped compiles
    uint64_t other_bytes;
    uint64_t max_bytes;     // the cap
} tl_jit_cache_info_t;
tl_status_t tl_jit_cache_info(const tl_jit_opts_t *o, tl_jit_cache_info_t *info, tl_diag_t *d);
// Removes every file tilec made in the cache directory (nothing else).
tl_status_t tl_jit_cache_clean(const tl_jit_opts_t *o, int *removed, uint64_t *bytes, tl_diag_t *d);
void tl_jit_cache_clean_dir(const char *dir, int *removed, uint64_t *bytes); // NULLs are fine

#endif
