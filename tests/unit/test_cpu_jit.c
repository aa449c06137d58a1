// The cpu target's JIT and cache: a cold compile writes an entry, the second
// load hits it without the compiler, a corrupt or truncated entry is rebuilt,
// different flags are different entries, a missing compiler and a compile
// error are clear errors, the precompiled system header (GCC) is made once,
// reused, survives damage and can be turned off; `tilec ir --emit=c` prints
// the module and `tilec run --target cpu` runs it.
#include "../test.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "driver/compile.h"

static const char *src =
    "import tilelang\n"
    "import tilelang.language as T\n"
    "\n"
    "@tilelang.jit(out_idx=[1])\n"
    "def scale(N, block):\n"
    "    M = T.symbolic('M')\n"
    "\n"
    "    @T.prim_func\n"
    "    def main(X: T.Tensor((M, N), 'float32'), Y: T.Tensor((M, N), 'float32')):\n"
    "        with T.Kernel(T.ceildiv(M, block), is_npu=True) as (cid, vid):\n"
    "            x = T.alloc_ub((block, N), 'float32')\n"
    "            with T.Scope('V'):\n"
    "                if vid == 0:\n"
    "                    T.copy(X[cid * block, 0], x)\n"
    "                    for i, j in T.Parallel(block, N):\n"
    "                        x[i, j] = x[i, j] * 2.0 + 1.0\n"
    "                    T.copy(x, Y[cid * block, 0])\n"
    "\n"
    "    return main\n";

typedef struct {
    tl_arena_t arena;
    tl_diag_t d;
    tl_kernel_t *k;
} kern_t;

static bool kernel(kern_t *e, const char *text)
{
    tl_arena_init(&e->arena);
    tl_diag_init(&e->d);
    tl_front_arg_t args[] = {{"N", "16"}, {"block", "4"}};
    tl_compile_opts_t o = {.path = "k.py",
                           .source = text,
                           .front = {.nargs = 2, .args = args},
                           .pipeline = TL_PIPELINE_CPU};
    return !tl_compile(&e->arena, &o, &e->d, &e->k);
}

static void kernel_free(kern_t *e)
{
    tl_diag_free(&e->d);
    tl_arena_free(&e->arena);
}

// Creates the cpu kernel with the options; returns whether it loaded from cache.
static tl_status_t load(kern_t *e, const tl_cpu_opts_t *o, bool *cached, char *path, size_t n)
{
    tl_cpu_t *c;
    tl_status_t st = tl_cpu_create(&c, e->k, o, &e->d);
    if (st) return st;
    *cached = tl_cpu_jit(c)->cached;
    if (path) snprintf(path, n, "%s", tl_cpu_jit(c)->path);
    // and it runs: Y = 2 X + 1 on 10 rows
    int64_t shape[2] = {10, 16};
    tl_tensor_t *x;
    tl_tensor_create(&x, TL_F32, 2, shape, NULL);
    for (int i = 0; i < 160; i++) ((float *)x->data)[i] = (float)i;
    tl_bind_set_tensor(tl_cpu_args(c), "X", x);
    st = tl_cpu_run(c);
    tl_tensor_t *y = tl_bind_tensor(tl_cpu_args(c), "Y");
    for (int i = 0; !st && i < 160; i++)
        if (((float *)y->data)[i] != 2.0f * (float)i + 1.0f) st = TL_ERR_MISMATCH;
    tl_tensor_destroy(x);
    tl_cpu_destroy(c);
    return st;
}

TEST(cpu_jit_cache_cold_hit_corrupt)
{
    kern_t e;
    REQUIRE(kernel(&e, src));
    char dir[1024], path[4096];
    snprintf(dir, sizeof dir, "%s", tl_test_tmp("jitcache"));
    tl_cpu_opts_t o = {.threads = 2};
    o.jit.cache_dir = dir;
    bool cached = true;
    REQUIRE(load(&e, &o, &cached, path, sizeof path) == TL_OK);
    CHECK(!cached); // empty cache: compiled
    REQUIRE(load(&e, &o, &cached, NULL, 0) == TL_OK);
    CHECK(cached); // second time: loaded
    // a corrupt shared object (same size, other bytes) is rebuilt, not loaded
    size_t len;
    char *data = tl_test_read_file(path, &len);
    REQUIRE(data != NULL && len > 100);
    memset(data + len / 2, 0x5a, 64);
    REQUIRE(tl_test_write_file(path, data, len));
    REQUIRE(load(&e, &o, &cached, NULL, 0) == TL_OK);
    CHECK(!cached);
    // a truncated one too
    REQUIRE(tl_test_write_file(path, data, len / 3));
    free(data);
    REQUIRE(load(&e, &o, &cached, NULL, 0) == TL_OK);
    CHECK(!cached);
    REQUIRE(load(&e, &o, &cached, NULL, 0) == TL_OK);
    CHECK(cached);
    // other flags: another entry
    o.jit.cflags = "-O1";
    REQUIRE(load(&e, &o, &cached, NULL, 0) == TL_OK);
    CHECK(!cached);
    CHECK_EQ(e.d.nerrors, 0);
    kernel_free(&e);
}

// Whether the compiler the JIT uses is GCC (the precompiled header is GCC's).
static bool compiler_is_gcc(void)
{
    const char *cc = getenv("CC");
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --version 2>/dev/null", cc && *cc ? cc : "cc");
    FILE *p = popen(cmd, "r");
    if (!p) return false;
    char line[512];
    bool gcc = false;
    while (fgets(line, sizeof line, p))
        if (strstr(line, "Free Software Foundation")) gcc = true;
    pclose(p);
    return gcc;
}

// The .gch under dir/pch-*/ (path into out), or false when there is none.
static bool find_pch(const char *dir, char *out, size_t n)
{
    DIR *dp = opendir(dir);
    if (!dp) return false;
    struct dirent *de;
    bool found = false;
    while (!found && (de = readdir(dp)))
        if (!strncmp(de->d_name, "pch-", 4)) {
            snprintf(out, n, "%s/%s/tlc_sys.h.gch", dir, de->d_name);
            found = access(out, R_OK) == 0;
        }
    closedir(dp);
    return found;
}

// Compiles (entry removed first, so never from the cache), checks the values
// (load) and returns whether the compile used the precompiled header.
static bool compile_uncached(kern_t *e, const tl_cpu_opts_t *o, tl_status_t *st)
{
    tl_cpu_t *c;
    if ((*st = tl_cpu_create(&c, e->k, o, &e->d))) return false;
    bool used = tl_cpu_jit(c)->pch_used, cached = tl_cpu_jit(c)->cached;
    char so[4096], ok[4096];
    snprintf(so, sizeof so, "%s", tl_cpu_jit(c)->path);
    snprintf(ok, sizeof ok, "%.*s.ok", (int)strlen(so) - 3, so);
    tl_cpu_destroy(c);
    bool again;
    if (!cached && (*st = load(e, o, &again, NULL, 0)) == TL_OK && !again) *st = TL_ERR_MISMATCH;
    unlink(so);
    unlink(ok);
    return used && !cached;
}

TEST(cpu_jit_precompiled_system_header)
{
    kern_t e;
    REQUIRE(kernel(&e, src));
    bool gcc = compiler_is_gcc();
    char dir[1024], gch[4096];
    snprintf(dir, sizeof dir, "%s", tl_test_tmp("pchcache"));
    tl_cpu_opts_t o = {.threads = 1};
    o.jit.cache_dir = dir;
    // (the mechanism with a small header; cgen's is tl_cgen_pch_header)
    o.jit.pch_header = "#include <stdint.h>\n#include <string.h>\n#include <math.h>\n";
    tl_status_t st;
    // first compile: made and used (GCC); the module runs right
    CHECK_EQ(compile_uncached(&e, &o, &st), gcc);
    CHECK_EQ(st, TL_OK);
    CHECK_EQ(find_pch(dir, gch, sizeof gch), gcc);
    if (gcc) {
        struct stat s1, s2;
        REQUIRE(stat(gch, &s1) == 0);
        // the next compile reuses it (not rebuilt)
        CHECK(compile_uncached(&e, &o, &st));
        CHECK_EQ(st, TL_OK);
        REQUIRE(stat(gch, &s2) == 0);
        CHECK(s1.st_ino == s2.st_ino && s1.st_mtime == s2.st_mtime);
        // a damaged one: the module still compiles and runs right
        REQUIRE(tl_test_write_file(gch, "gpch damaged", 12));
        compile_uncached(&e, &o, &st);
        CHECK_EQ(st, TL_OK);
    }
    // TILEC_PCH=0: none made, none used
    snprintf(dir, sizeof dir, "%s", tl_test_tmp("pchcache_off"));
    setenv("TILEC_PCH", "0", 1);
    CHECK(!compile_uncached(&e, &o, &st));
    CHECK_EQ(st, TL_OK);
    CHECK(!find_pch(dir, gch, sizeof gch));
    unsetenv("TILEC_PCH");
    // no header in the options: the module's own (its inline loops include
    // the vector helpers, tl_cgen_pch_header)
    snprintf(dir, sizeof dir, "%s", tl_test_tmp("pchcache_module"));
    o.jit.pch_header = NULL;
    CHECK_EQ(compile_uncached(&e, &o, &st), gcc);
    CHECK_EQ(st, TL_OK);
    CHECK_EQ(find_pch(dir, gch, sizeof gch), gcc);
    CHECK_EQ(e.d.nerrors, 0);
    kernel_free(&e);
}

TEST(cpu_jit_missing_compiler_is_a_clear_error)
{
    kern_t e;
    REQUIRE(kernel(&e, src));
    tl_cpu_opts_t o = {0};
    o.jit.cache_dir = tl_test_tmp("jitcache2");
    o.jit.cc = "/nonexistent/tilec-test-cc";
    tl_cpu_t *c = NULL;
    CHECK(tl_cpu_create(&c, e.k, &o, &e.d) != TL_OK);
    CHECK(c == NULL);
    CHECK_CONTAINS(tl_diag_text(&e.d), "cannot run the C compiler '/nonexistent/tilec-test-cc'");
    CHECK_CONTAINS(tl_diag_text(&e.d), "set $CC");
    kernel_free(&e);
}

TEST(cpu_jit_compiler_failure_is_reported)
{
    kern_t e;
    REQUIRE(kernel(&e, src));
    tl_cpu_opts_t o = {0};
    o.jit.cache_dir = tl_test_tmp("jitcache3");
    o.jit.cflags = "-O2 --tilec-no-such-flag";
    tl_cpu_t *c = NULL;
    CHECK(tl_cpu_create(&c, e.k, &o, &e.d) != TL_OK);
    CHECK_CONTAINS(tl_diag_text(&e.d), "the C compiler failed");
    CHECK_CONTAINS(tl_diag_text(&e.d), "tilec-no-such-flag");
    kernel_free(&e);
}

TEST(cpu_jit_environment_cache_dir)
{
    kern_t e;
    REQUIRE(kernel(&e, src));
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", tl_test_tmp("envcache/nested"));
    setenv("TILEC_CACHE_DIR", dir, 1);
    tl_jit_opts_t jo = {0};
    char *resolved = tl_jit_cache_dir(&jo);
    CHECK_STREQ(resolved, dir);
    free(resolved);
    tl_cpu_opts_t o = {0};
    bool cached;
    REQUIRE(load(&e, &o, &cached, NULL, 0) == TL_OK);
    struct stat st;
    CHECK(stat(dir, &st) == 0 && S_ISDIR(st.st_mode)); // created on demand
    unsetenv("TILEC_CACHE_DIR");
    setenv("XDG_CACHE_HOME", "/somewhere", 1);
    resolved = tl_jit_cache_dir(&jo);
    CHECK_STREQ(resolved, "/somewhere/tilec");
    free(resolved);
    unsetenv("XDG_CACHE_HOME");
    kernel_free(&e);
}

TEST(cpu_cli_emit_c_and_run)
{
    char *out = NULL;
    char *ir[] = {(char *)tl_test_tilec(), "ir", "kernels/examples/elementwise_add.py", "--emit=c",
                  NULL};
    CHECK_EQ(tl_test_run(ir, &out), 0);
    CHECK_CONTAINS(out, "static int tlk_cube(const tlc_rt_t *rt");
    CHECK_CONTAINS(out, "const tlc_module_t tlk_module");
    free(out);
    setenv("TILEC_CACHE_DIR", tl_test_tmp("clicache"), 1);
    char *run[] = {(char *)tl_test_tilec(),
                   "run",
                   "kernels/examples/elementwise_add.py",
                   "--target",
                   "cpu",
                   "-j",
                   "2",
                   NULL};
    CHECK_EQ(tl_test_run(run, &out), 0);
    CHECK_CONTAINS(out, "ran main on the cpu: 16 blocks");
    free(out);
    char *bad[] = {(char *)tl_test_tilec(),
                   "run",
                   "kernels/examples/elementwise_add.py",
                   "--target",
                   "gpu",
                   NULL};
    CHECK_EQ(tl_test_run(bad, &out), 2);
    free(out);
    unsetenv("TILEC_CACHE_DIR");
}
