// The JIT: cache lookup, compiler runs and dlopen (see jit.h).
#include "cpu/jit.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/hash.h"
#include "cpu/abi.h"
#include "rt/proc.h"

enum { MAX_ARGS = 64 };

static const char *fixed_flags[] = {
    "-std=gnu11",
    "-shared",
    "-fPIC",
    "-ffp-contract=off",
    "-fno-strict-aliasing",
    "-fno-math-errno",
    "-fvisibility=hidden",
    "-w",
    NULL,
};

static const char *compiler(const tl_jit_opts_t *o)
{
    if (o && o->cc) return o->cc;
    const char *cc = getenv("CC");
    return cc && *cc ? cc : "cc";
}

static const char *cflags(const tl_jit_opts_t *o)
{
    if (o && o->cflags) return o->cflags;
    const char *f = getenv("TILEC_CFLAGS");
    return f ? f : "-O3 -march=native";
}

// Splits s at spaces into argv (pointers into *store, a heap copy).
static int split(const char *s, char **store, char **argv, int max)
{
    *store = strdup(s ? s : "");
    int n = 0;
    char *save = NULL;
    if (!*store) return 0;
    for (char *p = strtok_r(*store, " \t\n", &save); p && n < max;
         p = strtok_r(NULL, " \t\n", &save))
        argv[n++] = p;
    return n;
}

// How long a compiler run may take: $TILEC_CC_TIMEOUT seconds, else 300.
static double cc_timeout(void)
{
    const char *e = getenv("TILEC_CC_TIMEOUT");
    double t = e && *e ? strtod(e, NULL) : 0;
    return t > 0 ? t : 300;
}

// A compiler run: stopped after $TILEC_CC_TIMEOUT seconds.
static int spawn_cc(char *const *argv, char **output)
{
    return tl_proc_run(argv, output, cc_timeout());
}

static tl_status_t no_compiler(tl_diag_t *d, const char *cc, int err)
{
    return tl_diag_fail(d, TL_ERR_UNSUPPORTED,
                        "cannot run the C compiler '%s' (%s): the cpu target needs one; install "
                        "gcc or clang, or set $CC",
                        cc, strerror(err));
}

// `cc --version`, once per compiler string and process.
static pthread_mutex_t ident_lock = PTHREAD_MUTEX_INITIALIZER;
static char *ident_cc, *ident_text;

static tl_status_t identity(const char *cc, char **out, tl_diag_t *d)
{
    pthread_mutex_lock(&ident_lock);
    if (ident_cc && !strcmp(ident_cc, cc)) {
        *out = strdup(ident_text);
        pthread_mutex_unlock(&ident_lock);
        return *out ? TL_OK : TL_ERR_NOMEM;
    }
    pthread_mutex_unlock(&ident_lock);
    char *store, *argv[MAX_ARGS + 2];
    int n = split(cc, &store, argv, MAX_ARGS);
    if (!n) {
        free(store);
        return no_compiler(d, cc, ENOENT);
    }
    argv[n++] = "--version";
    argv[n] = NULL;
    char *text;
    int rc = spawn_cc(argv, &text);
    int err = errno;
    free(store);
    if (rc == TL_PROC_TIMED_OUT) {
        free(text);
        return tl_diag_fail(d, TL_ERR_UNSUPPORTED, "'%s --version' did not finish within %g s", cc,
                            cc_timeout());
    }
    if (rc < 0) return no_compiler(d, cc, err);
    if (rc != 0) {
        tl_status_t st = tl_diag_fail(d, TL_ERR_UNSUPPORTED, "'%s --version' failed: %s", cc, text);
        free(text);
        return st;
    }
    pthread_mutex_lock(&ident_lock);
    free(ident_cc);
    free(ident_text);
    ident_cc = strdup(cc);
    ident_text = strdup(text);
    pthread_mutex_unlock(&ident_lock);
    *out = text;
    return TL_OK;
}

tl_status_t tl_jit_key(const char *source, const tl_jit_opts_t *o, char key[40], tl_diag_t *d)
{
    char *id;
    tl_status_t st = identity(compiler(o), &id, d);
    if (st) return st;
    tl_buf_t all;
    tl_buf_init(&all);
    tl_buf_printf(&all, "tilec %s abi %d\ncc %s\n%s\nflags %s\n", TILEC_VERSION, TL_CPU_ABI,
                  compiler(o), id, cflags(o));
    for (int i = 0; fixed_flags[i]; i++) tl_buf_printf(&all, "%s ", fixed_flags[i]);
    tl_buf_puts(&all, source);
    free(id);
    if (all.failed) {
        tl_buf_free(&all);
        return tl_diag_fail(d, TL_ERR_NOMEM, "out of memory");
    }
    uint64_t a = tl_hash_bytes(all.data, all.len, 0x243f6a8885a308d3u);
    uint64_t b = tl_hash_bytes(all.data, all.len, 0x13198a2e03707344u);
    snprintf(key, 40, "%016llx%016llx", (unsigned long long)a, (unsigned long long)b);
    tl_buf_free(&all);
    return TL_OK;
}

char *tl_jit_cache_dir(const tl_jit_opts_t *o)
{
    return tl_proc_cache_dir(o ? o->cache_dir : NULL);
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    tl_buf_t b;
    tl_buf_init(&b);
    char buf[65536];
    size_t r;
    while ((r = fread(buf, 1, sizeof buf, f)) > 0) tl_buf_putn(&b, buf, r);
    fclose(f);
    *len = b.len;
    char *p = tl_buf_take(&b);
    return p ? p : strdup("");
}

// "tilec-jit KEY SIZE HASH"
static void seal_text(char *out, size_t size, const char *key, const char *data, size_t len)
{
    snprintf(out, size, "tilec-jit %s %zu %016llx\n", key, len,
             (unsigned long long)tl_hash_bytes(data, len, 7));
}

// Opens a cache entry if it is sound.
static bool try_open(const char *so, const char *ok, const char *key, tl_jit_t *out)
{
    size_t slen, olen;
    char *seal = read_all(ok, &olen);
    char *data = seal ? read_all(so, &slen) : NULL;
    bool good = false;
    if (data) {
        char want[128];
        seal_text(want, sizeof want, key, data, slen);
        good = !strcmp(seal, want);
    }
    free(seal);
    free(data);
    if (!good) return false;
    void *h = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    if (!h) return false;
    const tlc_module_t *m = dlsym(h, "tlk_module");
    if (!m || m->abi != TL_CPU_ABI || !m->key || strcmp(m->key, key)) {
        dlclose(h);
        return false;
    }
    out->handle = h;
    out->module = m;
    return true;
}

// Runs the compiler on one input: cc CFLAGS FIXED [EXTRA...] -o OUT IN [-lm].
// `header` true compiles a header (-x c-header, no -shared, no libraries).
static int run_cc(const tl_jit_opts_t *o, const char *include, bool header, const char *out,
                  const char *in, char **text)
{
    char *s1, *s2, *argv[3 * MAX_ARGS];
    int n = split(compiler(o), &s1, argv, MAX_ARGS);
    n += split(cflags(o), &s2, argv + n, MAX_ARGS);
    for (int i = 0; fixed_flags[i]; i++)
        if (!header || strcmp(fixed_flags[i], "-shared")) argv[n++] = (char *)fixed_flags[i];
    if (include) {
        argv[n++] = "-include";
        argv[n++] = (char *)include;
    }
    if (header) {
        argv[n++] = "-x";
        argv[n++] = "c-header";
    }
    argv[n++] = "-o";
    argv[n++] = (char *)out;
    argv[n++] = (char *)in;
    if (!header) argv[n++] = "-lm";
    argv[n] = NULL;
    *text = NULL;
    int rc = argv[0] ? spawn_cc(argv, text) : (errno = ENOENT, -1);
    int err = errno;
    free(s1);
    free(s2);
    errno = err;
    return rc;
}

static int counter;

// A name beside `path` for a file being written (renamed into place after).
static void temp_name(char *out, size_t n, const char *path)
{
    snprintf(out, n, "%s.%ld.%d", path, (long)getpid(),
             __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED));
}

// The precompiled system header for these options, made on first use:
// <dir>/pch-HASH/tlc_sys.h and .gch (GCC only, see jit.h). Returns false when
// there is none to use (not GCC, turned off, or it could not be made; a
// failure is remembered in pch-HASH/failed so that it is not tried per compile).
static bool pch_ready(const char *dir, const tl_jit_opts_t *o, char *header, size_t n)
{
    const char *off = getenv("TILEC_PCH");
    if (!o || !o->pch_header || (off && !strcmp(off, "0"))) return false;
    char *id;
    if (identity(compiler(o), &id, NULL)) return false;
    if (!strstr(id, "Free Software Foundation")) {
        free(id);
        return false;
    }
    tl_buf_t all;
    tl_buf_init(&all);
    tl_buf_printf(&all, "tilec %s\ncc %s\n%s\nflags %s\n%s", TILEC_VERSION, compiler(o), id,
                  cflags(o), o->pch_header);
    free(id);
    uint64_t h = tl_hash_bytes(all.data ? all.data : "", all.len, 0x452821e638d01377u);
    tl_buf_free(&all);
    char pdir[4200], gch[4400], failed[4400], tmp[4500];
    snprintf(pdir, sizeof pdir, "%s/pch-%016llx", dir, (unsigned long long)h);
    snprintf(header, n, "%s/tlc_sys.h", pdir);
    snprintf(gch, sizeof gch, "%s.gch", header);
    snprintf(failed, sizeof failed, "%s/failed", pdir);
    struct stat st;
    if (stat(gch, &st) == 0 && st.st_size > 0 && access(header, R_OK) == 0) return true;
    if (access(failed, F_OK) == 0 || tl_proc_mkdirs(pdir) != 0) return false;
    temp_name(tmp, sizeof tmp, header);
    if (!tl_proc_write_file(tmp, o->pch_header, strlen(o->pch_header)) ||
        rename(tmp, header) != 0) {
        unlink(tmp);
        return false;
    }
    temp_name(tmp, sizeof tmp, gch);
    char *text;
    int rc = run_cc(o, NULL, true, tmp, header, &text);
    free(text);
    bool ok = rc == 0 && rename(tmp, gch) == 0;
    if (!ok) {
        unlink(tmp);
        if (rc != 0) tl_proc_write_file(failed, "", 0);
    }
    return ok;
}

static tl_status_t compile(const char *source, const char *dir, const char *key,
                           const tl_jit_opts_t *o, const char *so, const char *ok, bool *pch_used,
                           tl_diag_t *d)
{
    char entry[4200], base[4300], csrc[4400], tmp_so[4400], tmp_ok[4400], header[4300];
    snprintf(entry, sizeof entry, "%s/%s", dir, key);
    temp_name(base, sizeof base, entry);
    snprintf(csrc, sizeof csrc, "%s.c", base);
    snprintf(tmp_so, sizeof tmp_so, "%s.so", base);
    snprintf(tmp_ok, sizeof tmp_ok, "%s.ok", base);
    if (!tl_proc_write_file(csrc, source, strlen(source)))
        return tl_diag_fail(d, TL_ERR_IO, "cannot write %s: %s", csrc, strerror(errno));
    const char *cc = compiler(o);
    *pch_used = pch_ready(dir, o, header, sizeof header);
    char *text = NULL;
    int rc = run_cc(o, *pch_used ? header : NULL, false, tmp_so, csrc, &text);
    if (rc != 0 && *pch_used) {
        // a damaged or unusable precompiled header: drop it, compile without
        char gch[4400];
        snprintf(gch, sizeof gch, "%s.gch", header);
        unlink(gch);
        free(text);
        *pch_used = false;
        rc = run_cc(o, NULL, false, tmp_so, csrc, &text);
    }
    int err = errno;
    tl_status_t st = TL_OK;
    if (rc == TL_PROC_TIMED_OUT) {
        st = tl_diag_fail(d, TL_ERR_RUNTIME,
                          "the C compiler '%s' did not finish within %g s and was stopped "
                          "($TILEC_CC_TIMEOUT sets the limit)",
                          cc, cc_timeout());
    } else if (rc < 0) {
        st = no_compiler(d, cc, err);
    } else if (rc != 0) {
        // the source stays for a look, under one name per key (not one per attempt)
        char failed[4300];
        snprintf(failed, sizeof failed, "%s/%s-failed.c", dir, key);
        if (rename(csrc, failed) == 0) snprintf(csrc, sizeof csrc, "%s", failed);
        st = tl_diag_fail(d, TL_ERR_RUNTIME,
                          "the C compiler failed (exit %d) on the generated code %s:\n%.4000s", rc,
                          csrc, text ? text : "");
    } else {
        size_t len;
        char *data = read_all(tmp_so, &len);
        char seal[128];
        if (data) seal_text(seal, sizeof seal, key, data, len);
        free(data);
        if (!data)
            st = tl_diag_fail(d, TL_ERR_RUNTIME,
                              "the C compiler '%s' exited with status 0 but wrote no shared object "
                              "(%s): is $CC a C compiler?",
                              cc, tmp_so);
        else if (rename(tmp_so, so) != 0 || !tl_proc_write_file(tmp_ok, seal, strlen(seal)) ||
                 rename(tmp_ok, ok) != 0)
            st = tl_diag_fail(d, TL_ERR_IO, "cannot store the compiled kernel in %s: %s", dir,
                              strerror(errno));
    }
    free(text);
    if (st == TL_OK) {
        char keep[4300];
        snprintf(keep, sizeof keep, "%s/%s.c", dir, key);
        rename(csrc, keep);
    } else if (rc == 0 || rc < 0) { // the compiler is not to blame: no source kept
        unlink(csrc);
    }
    unlink(tmp_so);
    unlink(tmp_ok);
    return st;
}

// Compiles into `dir` and loads the result (out->path, out->cached false).
static tl_status_t compile_into(const char *source, const char *dir, const char *key,
                                const tl_jit_opts_t *o, tl_jit_t *out, tl_diag_t *d)
{
    char ok[4200];
    snprintf(out->path, sizeof out->path, "%s/%s.so", dir, key);
    snprintf(ok, sizeof ok, "%s/%s.ok", dir, key);
    unlink(ok);
    double t0 = tl_proc_now();
    tl_status_t st = compile(source, dir, key, o, out->path, ok, &out->pch_used, d);
    out->compile_s = tl_proc_now() - t0;
    if (!st && !try_open(out->path, ok, key, out))
        st = tl_diag_fail(d, TL_ERR_RUNTIME, "cannot load the compiled kernel %s: %s", out->path,
                          dlerror());
    return st;
}

// The cache directory cannot be written: compile in a private temporary
// directory, load, and remove it (the mapping stays); said as a warning.
static tl_status_t compile_uncached(const char *source, const char *dir, const char *why,
                                    const char *key, const tl_jit_opts_t *o, tl_jit_t *out,
                                    tl_diag_t *d)
{
    const char *t = getenv("TMPDIR");
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s/tilec-jit-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(tmp))
        return tl_diag_fail(
            d, TL_ERR_IO, "the cache directory %s cannot be written (%s), nor a temporary one: %s",
            dir, why, strerror(errno));
    tl_diag_report(
        d, TL_SEV_WARNING, (tl_loc_t){0}, TL_OK,
        "the cache directory %s cannot be written (%s): the kernel is compiled in a temporary "
        "directory and not cached (set $TILEC_CACHE_DIR)",
        dir, why);
    tl_jit_opts_t plain = o ? *o : (tl_jit_opts_t){0};
    plain.pch_header = NULL; // a precompiled header would be made for one use
    tl_status_t st = compile_into(source, tmp, key, &plain, out, d);
    tl_jit_cache_clean_dir(tmp, NULL, NULL);
    rmdir(tmp);
    return st;
}

// Takes the cache's lock of one key (DIR/KEY.lock, an fcntl lock released by
// closing the descriptor or by the process's end); -1 when it cannot (then
// the compile goes on unlocked, as before).
static int lock_key(const char *dir, const char *key)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s.lock", dir, key);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return -1;
    struct flock l = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    while (fcntl(fd, F_SETLKW, &l) != 0)
        if (errno != EINTR) {
            close(fd);
            return -1;
        }
    return fd;
}

tl_status_t tl_jit_load(const char *source, const char *key, const tl_jit_opts_t *o, tl_jit_t *out,
                        tl_diag_t *d)
{
    memset(out, 0, sizeof *out);
    snprintf(out->key, sizeof out->key, "%s", key);
    char *dir = tl_jit_cache_dir(o);
    if (!dir) return tl_diag_fail(d, TL_ERR_NOMEM, "out of memory");
    char ok[4200];
    snprintf(out->path, sizeof out->path, "%s/%s.so", dir, key);
    snprintf(ok, sizeof ok, "%s/%s.ok", dir, key);
    tl_status_t st = TL_OK;
    if (try_open(out->path, ok, key, out)) {
        out->cached = true;
        tl_jit_cache_touch(ok); // used now: the last to be evicted
    } else if (tl_proc_mkdirs(dir) != 0 || access(dir, W_OK) != 0) {
        st = compile_uncached(source, dir, strerror(errno), key, o, out, d);
    } else {
        // one compile of a key at a time: another process's compile of the
        // same kernel removes the seal first and replaces the .so (parallel
        // test runs did, and a load then failed); who waited finds it cached
        int lock = lock_key(dir, key);
        if (try_open(out->path, ok, key, out)) {
            out->cached = true;
            tl_jit_cache_touch(ok);
        } else {
            st = compile_into(source, dir, key, o, out, d);
        }
        if (lock >= 0) close(lock); // releases the lock
        if (st == TL_OK && !out->cached) tl_jit_cache_trim(dir, key);
    }
    free(dir);
    return st;
}

void tl_jit_unload(tl_jit_t *j)
{
    if (j && j->handle) dlclose(j->handle);
    if (j) j->handle = NULL;
}
