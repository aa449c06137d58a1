// Building an emitted kernel against pto-isa's CPU implementation and running
// it in a child process (pto.h).
//
// Cache: <cache dir>/pto-KEY/ holds the kernel (NAME.cpp), tilec_pto.h, the
// harness, the executable `kernel` and `ok` (written last); KEY hashes the
// kernel text, the support files, the compilers' `--version`, the flags and
// pto-isa's identity (its path and the size and time of pto-inst.hpp). An
// entry without `ok` is rebuilt.
//
// A run: the GM tensors are copied into one temporary file, the child maps it
// (MAP_SHARED), runs every block and exits; the outputs are read back from
// the file. Scalar parameters and dims go on the command line.
#include "pto/pto.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/hash.h"
#include "rt/proc.h"

struct tl_pto {
    const tl_kernel_t *k;
    tl_diag_t *d;
    tl_pto_opts_t o;
    char dir[4096], exe[4200];
    bool cached;
    double build_s, run_s;
    int64_t blocks; // of the last run
};

static bool on_path(const char *prog)
{
    const char *path = getenv("PATH");
    if (!path) return false;
    char *copy = strdup(path), *save = NULL;
    bool found = false;
    for (char *p = strtok_r(copy, ":", &save); p && !found; p = strtok_r(NULL, ":", &save)) {
        char full[4096];
        snprintf(full, sizeof full, "%s/%s", p, prog);
        found = access(full, X_OK) == 0;
    }
    free(copy);
    return found;
}

static const char *cxx(const tl_pto_opts_t *o)
{
    const char *e = getenv("TILEC_PTO_CXX");
    if (o->cxx) return o->cxx;
    if (e && *e) return e;
    return on_path("clang++-19") ? "clang++-19" : "c++";
}

// Written beside path, then renamed into place: a build of the same key in
// another process never reads a half-written file.
static bool write_text(const char *path, const char *text)
{
    char tmp[4500];
    snprintf(tmp, sizeof tmp, "%s.%ld", path, (long)getpid());
    if (tl_proc_write_file(tmp, text, strlen(text)) && rename(tmp, path) == 0) return true;
    unlink(tmp);
    return false;
}

// The flags of the kernel's compile (the cache key includes them), at most 12.
// -ffp-contract=off: every float operation of pto-isa's CPU code rounds on its
// own, as written (and as tilec computes), whichever compiler builds it; the
// default contracts a * b + c into one fma under -march=x86-64-v3 (measured:
// TAXPY 58 of 256 float32 results 1 ulp off under both g++ and clang).
static int kernel_flags(const char *inc, const char *dir, char **argv)
{
    int n = 0;
    static const char *const fixed[] = {"-std=c++20", "-O2",     "-march=x86-64-v3", "-D__CPU_SIM",
                                        "-Wall",      "-Wextra", "-ffp-contract=off"};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) argv[n++] = (char *)fixed[i];
    // TILEC_PTO_WERROR=1: warnings of the emitted kernel are errors (scripts/pto_werror.sh)
    const char *werror = getenv("TILEC_PTO_WERROR");
    if (werror && *werror && strcmp(werror, "0") != 0) argv[n++] = "-Werror";
    argv[n++] = "-isystem";
    argv[n++] = (char *)inc;
    argv[n++] = "-I";
    argv[n++] = (char *)dir;
    return n;
}

static tl_status_t build(tl_pto_t *p, const char *cpp, const char *inc, const char *compiler)
{
    char path[4400], obj[4400], hobj[4400], hsrc[4400], tmp_exe[4400], okp[4400];
    snprintf(path, sizeof path, "%s/%s.cpp", p->dir, p->k->name);
    snprintf(hsrc, sizeof hsrc, "%s/tilec_pto_harness.c", p->dir);
    // objects of this process's own (removed after the link): processes building the same
    // key at once (runs of one kernel, parallel tests) would link or remove each other's
    snprintf(obj, sizeof obj, "%s/%s.%ld.o", p->dir, p->k->name, (long)getpid());
    snprintf(hobj, sizeof hobj, "%s/tilec_pto_harness.%ld.o", p->dir, (long)getpid());
    snprintf(tmp_exe, sizeof tmp_exe, "%s/kernel.%ld", p->dir, (long)getpid());
    snprintf(okp, sizeof okp, "%s/ok", p->dir);
    char sup[4400];
    snprintf(sup, sizeof sup, "%s/tilec_pto.h", p->dir);
    if (!write_text(path, cpp) || !write_text(hsrc, tl_pto_harness_c) ||
        !write_text(sup, tl_pto_support_h))
        return tl_diag_fail(p->d, TL_ERR_IO, "cannot write the PTO kernel into %s: %s", p->dir,
                            strerror(errno));
    char *argv[40], *text = NULL;
    int n = 0;
    argv[n++] = (char *)compiler;
    n += kernel_flags(inc, p->dir, argv + n);
    argv[n++] = "-c", argv[n++] = path, argv[n++] = "-o", argv[n++] = obj, argv[n] = NULL;
    int rc = tl_proc_run(argv, &text, 0);
    if (rc != 0) {
        tl_status_t st = rc < 0 ? tl_diag_fail(p->d, TL_ERR_UNSUPPORTED,
                                               "cannot run the C++ compiler '%s' (%s): "
                                               "the pto target needs one (set TILEC_PTO_CXX)",
                                               compiler, strerror(errno))
                                : tl_diag_fail(p->d, TL_ERR_RUNTIME,
                                               "the C++ compiler failed (exit %d) on %s:\n%.6000s",
                                               rc, path, text);
        free(text);
        return st;
    }
    free(text);
    char *hargv[] = {"cc", "-std=c11", "-O2", "-c", hsrc, "-o", hobj, NULL};
    if ((rc = tl_proc_run(hargv, &text, 0)) != 0) {
        tl_status_t st =
            tl_diag_fail(p->d, TL_ERR_RUNTIME, "cannot compile the PTO harness (exit %d):\n%s", rc,
                         text ? text : "");
        free(text);
        unlink(obj);
        return st;
    }
    free(text);
    char *largv[] = {(char *)compiler, "-pthread", obj, hobj, "-o", tmp_exe, NULL};
    if ((rc = tl_proc_run(largv, &text, 0)) != 0 || rename(tmp_exe, p->exe) != 0 ||
        !write_text(okp, "ok\n")) {
        tl_status_t st =
            tl_diag_fail(p->d, TL_ERR_RUNTIME, "cannot link the PTO kernel (exit %d):\n%s", rc,
                         text ? text : "");
        free(text);
        unlink(tmp_exe);
        unlink(obj);
        unlink(hobj);
        return st;
    }
    free(text);
    unlink(obj);
    unlink(hobj);
    return TL_OK;
}

tl_status_t tl_pto_create(tl_pto_t **out, const tl_kernel_t *k, const tl_pto_opts_t *o,
                          tl_diag_t *d)
{
    *out = NULL;
    tl_pto_t *p = calloc(1, sizeof *p);
    if (!p) return tl_diag_fail(d, TL_ERR_NOMEM, "out of memory");
    p->k = k, p->d = d;
    if (o) p->o = *o;
    const char *isa = p->o.pto_isa ? p->o.pto_isa : getenv("PTO_ISA_DIR");
    char inc[4096], hdr[4200];
    struct stat st_hdr;
    if (!isa || !*isa) {
        free(p);
        return tl_diag_fail(d, TL_ERR_UNSUPPORTED,
                            "--target pto needs a pto-isa checkout: set PTO_ISA_DIR or pass "
                            "--pto-isa DIR (https://gitcode.com/cann/pto-isa)");
    }
    snprintf(inc, sizeof inc, "%s/include", isa);
    snprintf(hdr, sizeof hdr, "%s/pto/pto-inst.hpp", inc);
    if (stat(hdr, &st_hdr) != 0) {
        free(p);
        return tl_diag_fail(d, TL_ERR_UNSUPPORTED,
                            "%s is not a pto-isa checkout (no include/pto/pto-inst.hpp)", isa);
    }
    tl_buf_t cpp;
    tl_buf_init(&cpp);
    tl_status_t st = tl_pto_emit(k, &cpp, NULL, d);
    const char *compiler = cxx(&p->o);
    char *version = NULL;
    if (!st) {
        char *vargv[] = {(char *)compiler, "--version", NULL};
        if (tl_proc_run(vargv, &version, 0) != 0)
            st = tl_diag_fail(d, TL_ERR_UNSUPPORTED,
                              "cannot run the C++ compiler '%s': the pto target needs one "
                              "(set TILEC_PTO_CXX)",
                              compiler);
    }
    if (!st) {
        tl_buf_t all;
        tl_buf_init(&all);
        char *fl[20];
        int nf = kernel_flags(inc, "", fl);
        tl_buf_printf(&all, "tilec %s pto\n%s\n%s\n%s %lld %lld\n", TILEC_VERSION, compiler,
                      version, hdr, (long long)st_hdr.st_size, (long long)st_hdr.st_mtime);
        for (int i = 0; i < nf; i++) tl_buf_printf(&all, "%s ", fl[i]);
        tl_buf_puts(&all, tl_pto_support_h);
        tl_buf_puts(&all, tl_pto_harness_c);
        tl_buf_puts(&all, tl_buf_cstr(&cpp));
        uint64_t a = tl_hash_bytes(all.data, all.len, 0x243f6a8885a308d3u);
        uint64_t b = tl_hash_bytes(all.data, all.len, 0x13198a2e03707344u);
        tl_buf_free(&all);
        char *cache = tl_proc_cache_dir(p->o.cache_dir);
        snprintf(p->dir, sizeof p->dir, "%s/pto-%016llx%016llx", cache ? cache : "/tmp",
                 (unsigned long long)a, (unsigned long long)b);
        free(cache);
        snprintf(p->exe, sizeof p->exe, "%s/kernel", p->dir);
        char okp[4200];
        snprintf(okp, sizeof okp, "%s/ok", p->dir);
        if (access(okp, F_OK) == 0 && access(p->exe, X_OK) == 0) {
            p->cached = true;
        } else if (tl_proc_mkdirs(p->dir) != 0) {
            st = tl_diag_fail(d, TL_ERR_IO, "cannot create %s: %s", p->dir, strerror(errno));
        } else {
            double t0 = tl_proc_now();
            st = build(p, tl_buf_cstr(&cpp), inc, compiler);
            p->build_s = tl_proc_now() - t0;
        }
    }
    free(version);
    tl_buf_free(&cpp);
    if (st) {
        free(p);
        return st;
    }
    *out = p;
    return TL_OK;
}

tl_status_t tl_pto_run(tl_pto_t *p, tl_bind_t *args)
{
    const tl_kernel_t *k = p->k;
    tl_status_t st = tl_bind_check(args);
    if (st) return st;
    // the tensors, each at a 64-byte aligned offset of one file
    size_t off[256], total = 0;
    tl_tensor_t *t[256];
    int nt = 0;
    for (int i = 0; i < k->nparams && nt < 256; i++) {
        if (!k->params[i].buf) continue;
        t[nt] = tl_bind_gm(args, k->params[i].buf);
        if (!t[nt])
            return tl_diag_fail(p->d, TL_ERR_INTERNAL, "no tensor bound for '%s'",
                                k->params[i].name);
        off[nt] = total;
        total += (tl_tensor_nbytes(t[nt]) + 63) / 64 * 64;
        nt++;
    }
    char path[] = "/tmp/tilec-pto-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return tl_diag_fail(p->d, TL_ERR_IO, "cannot create a temporary file: %s", strerror(errno));
    uint8_t *mem = NULL;
    if (total &&
        (ftruncate(fd, (off_t)total) != 0 ||
         (mem = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) == MAP_FAILED)) {
        close(fd);
        unlink(path);
        return tl_diag_fail(p->d, TL_ERR_IO, "cannot map a temporary file of %zu bytes: %s", total,
                            strerror(errno));
    }
    close(fd);
    for (int i = 0; i < nt; i++) memcpy(mem + off[i], t[i]->data, tl_tensor_nbytes(t[i]));
    // argv: exe FILE BYTES GRID WAVE NT OFF... NV VAL...
    tl_buf_t words;
    tl_buf_init(&words);
    tl_buf_printf(&words, "%s %zu %" PRId64 " %d %d", path, total, tl_bind_num_blocks(args),
                  p->o.wave > 0 ? p->o.wave : 8, nt);
    for (int i = 0; i < nt; i++) tl_buf_printf(&words, " %zu", off[i]);
    const tl_var_t *vars[256];
    int nv = 0;
    for (int i = 0; i < k->nparams; i++)
        if (k->params[i].var) vars[nv++] = k->params[i].var;
    for (int i = 0; i < k->dims.len; i++) vars[nv++] = k->dims.items[i];
    tl_buf_printf(&words, " %d", nv);
    for (int i = 0; i < nv; i++) {
        int64_t iv = 0;
        double fv = 0;
        tl_bind_value(args, vars[i], &iv, &fv);
        if (tl_dtype_is_float(vars[i]->dtype))
            tl_buf_printf(&words, " f:%a", fv);
        else
            tl_buf_printf(&words, " i:%" PRId64, iv);
    }
    char *store = tl_buf_take(&words), *argv[600], *save = NULL;
    int n = 0;
    argv[n++] = p->exe;
    for (char *w = strtok_r(store, " ", &save); w && n < 598; w = strtok_r(NULL, " ", &save))
        argv[n++] = w;
    argv[n] = NULL;
    char *text = NULL;
    p->blocks = tl_bind_num_blocks(args);
    double t0 = tl_proc_now();
    int rc = tl_proc_run(argv, &text, 0);
    p->run_s = tl_proc_now() - t0;
    if (rc == 0) {
        for (int i = 0; i < nt; i++) memcpy(t[i]->data, mem + off[i], tl_tensor_nbytes(t[i]));
        tl_bind_copy_back(args);
    } else if (rc < 0) {
        st = tl_diag_fail(p->d, TL_ERR_RUNTIME, "cannot run the PTO kernel %s: %s", p->exe,
                          strerror(errno));
    } else if (rc > 128) {
        st = tl_diag_fail(p->d, TL_ERR_RUNTIME,
                          "the PTO kernel stopped with signal %d (pto-isa's CPU "
                          "implementation asserts on inconsistent tiles):\n%.4000s",
                          rc - 128, text);
    } else {
        st = tl_diag_fail(p->d, TL_ERR_RUNTIME, "the PTO kernel failed:\n%.4000s", text);
    }
    free(text);
    free(store);
    if (mem) munmap(mem, total);
    unlink(path);
    return st;
}

bool tl_pto_cached(const tl_pto_t *p)
{
    return p->cached;
}

double tl_pto_build_s(const tl_pto_t *p)
{
    return p->build_s;
}

double tl_pto_run_s(const tl_pto_t *p)
{
    return p->run_s;
}

int64_t tl_pto_blocks(const tl_pto_t *p)
{
    return p->blocks;
}

void tl_pto_destroy(tl_pto_t *p)
{
    free(p);
}
