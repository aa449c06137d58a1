// Golden Tile IR of our kernels: one test per tests/data/ir/<name>.args.
//
// An .args file is one line, the `tilec ir` command line without the command:
// the kernel file (relative to the repository root) and its options, -k NAME,
// -a NAME=VALUE, --out-idx EXPR, --pass-config KEY=VALUE, with shell-style
// quoting ('...' and "..." group and are removed, backslash escapes one
// character), so  -a 'dtype="float16"'  passes the Python string "float16".
// The test compiles the kernel in-process (tl_front_compile), prints it
// (tl_ir_print_kernel) and compares the text with <name>.ir, reporting the
// first line that differs. A golden kernel must compile without warnings.
//
// tests/data/pto/<name>.args are the same command lines for the PTO target:
// the kernel goes through the NPU pipeline and tl_pto_emit, and the C++ is
// compared with <name>.cpp (`tilec ir --emit=pto`).
//
// To regenerate after an intended change, run the tests with
// TILEC_UPDATE_GOLDEN=1 (e.g. `TILEC_UPDATE_GOLDEN=1 build/run_tests ir_golden`):
// every .ir is then rewritten from the current output instead of compared.
// Read the diff before committing it: each .ir must show exactly the program
// the kernel means.
#include "../test.h"

#include <dirent.h>
#include <stdlib.h>

#include "driver/compile.h"
#include "front/front.h"
#include "pto/pto.h"

#define GOLDEN_DIR "tests/data/ir"
#define PTO_DIR    "tests/data/pto"
#define MAX_WORDS  64

// Splits `line` in place into words (shell-style quoting); returns the count,
// or -1 for an unterminated quote or too many words.
static int split_words(char *line, char **words, int max)
{
    int n = 0;
    char *r = line, *w = line;
    for (;;) {
        while (*r == ' ' || *r == '\t' || *r == '\n' || *r == '\r') r++;
        if (!*r) return n;
        if (n == max) return -1;
        words[n++] = w;
        char quote = 0;
        while (*r && (quote || !(*r == ' ' || *r == '\t' || *r == '\n' || *r == '\r'))) {
            if (quote && *r == quote) {
                quote = 0, r++;
            } else if (!quote && (*r == '\'' || *r == '"')) {
                quote = *r++;
            } else if (*r == '\\' && quote != '\'' && r[1]) {
                *w++ = r[1], r += 2;
            } else {
                *w++ = *r++;
            }
        }
        if (quote) return -1;
        bool end = !*r;
        *w++ = 0;
        if (end) return n;
        r++;
    }
}

typedef struct {
    const char *file;
    tl_front_opts_t opts;
    tl_front_arg_t args[MAX_WORDS], configs[MAX_WORDS];
} golden_cmd_t;

// "NAME=VALUE" into an argument (the word is split in place).
static bool name_value(char *word, tl_front_arg_t *out)
{
    char *eq = strchr(word, '=');
    if (!eq || eq == word) return false;
    *eq = 0;
    out->name = word;
    out->value = eq + 1;
    return true;
}

// Parses the words of an .args line; on error returns a message.
static const char *parse_cmd(int n, char **words, golden_cmd_t *c)
{
    memset(c, 0, sizeof *c);
    c->opts.args = c->args;
    c->opts.pass_configs = c->configs;
    for (int i = 0; i < n; i++) {
        const char *w = words[i];
        bool takes = !strcmp(w, "-k") || !strcmp(w, "-a") || !strcmp(w, "--out-idx") ||
                     !strcmp(w, "--pass-config");
        if (takes && i + 1 == n) return "option without a value";
        if (!strcmp(w, "-k")) {
            c->opts.kernel = words[++i];
        } else if (!strcmp(w, "--out-idx")) {
            c->opts.out_idx = words[++i];
        } else if (!strcmp(w, "-a")) {
            if (!name_value(words[++i], &c->args[c->opts.nargs++])) return "-a needs NAME=VALUE";
        } else if (!strcmp(w, "--pass-config")) {
            if (!name_value(words[++i], &c->configs[c->opts.npass_configs++]))
                return "--pass-config needs KEY=VALUE";
        } else if (w[0] == '-') {
            return "unknown option";
        } else if (c->file) {
            return "more than one kernel file";
        } else {
            c->file = w;
        }
    }
    return c->file ? NULL : "no kernel file";
}

// Reports the first line where `want` and `got` differ.
static void report_diff(tl_test_t *t, const char *ir_path, const char *want, const char *got)
{
    int line = 1;
    while (*want && *want == *got) {
        if (*want == '\n') line++;
        want++, got++;
    }
    while (line > 1 && want[-1] != '\n') want--, got--;
    const char *we = strchr(want, '\n'), *ge = strchr(got, '\n');
    int wl = we ? (int)(we - want) : (int)strlen(want);
    int gl = ge ? (int)(ge - got) : (int)strlen(got);
    tl_test_fail(t, __FILE__, __LINE__,
                 "%s:%d differs (TILEC_UPDATE_GOLDEN=1 rewrites it)\n  expected: %.*s%s\n"
                 "  got:      %.*s%s",
                 ir_path, line, wl, want, *want ? "" : "(end of file)", gl, got,
                 *got ? "" : "(end of output)");
}

// Compares got with the golden file (or rewrites it under TILEC_UPDATE_GOLDEN=1).
static void compare_golden(tl_test_t *t, const char *path, const char *got)
{
    const char *update = getenv("TILEC_UPDATE_GOLDEN");
    if (update && !strcmp(update, "1")) {
        CHECK(tl_test_write_file(path, got, strlen(got)));
        return;
    }
    char *want = tl_test_read_file(path, NULL);
    if (!want)
        tl_test_fail(t, __FILE__, __LINE__, "%s is missing (TILEC_UPDATE_GOLDEN=1 writes it)",
                     path);
    else if (strcmp(want, got) != 0)
        report_diff(t, path, want, got);
    free(want);
}

// Runs the .args command line of dir/name: the IR after the front end
// (pipeline < 0) or the PTO-ISA C++ after the NPU pipeline, compared with
// dir/name + suffix.
static void run_golden(tl_test_t *t, const char *dir, const char *name, const char *suffix,
                       bool pto)
{
    char args_path[512], out_path[512];
    snprintf(args_path, sizeof args_path, "%s/%s/%s.args", tl_test_root(), dir, name);
    snprintf(out_path, sizeof out_path, "%s/%s/%s%s", tl_test_root(), dir, name, suffix);

    char *line = tl_test_read_file(args_path, NULL);
    REQUIRE(line != NULL);
    char *words[MAX_WORDS];
    int n = split_words(line, words, MAX_WORDS);
    golden_cmd_t cmd;
    const char *err = n < 0 ? "bad quoting or too many words" : parse_cmd(n, words, &cmd);
    if (err) {
        tl_test_fail(t, __FILE__, __LINE__, "%s: %s", args_path, err);
        free(line);
        return;
    }
    char kernel_path[512];
    snprintf(kernel_path, sizeof kernel_path, "%s/%s", tl_test_root(), cmd.file);

    tl_arena_t arena;
    tl_arena_init(&arena);
    tl_diag_t d;
    tl_diag_init(&d);
    tl_kernel_t *k = NULL;
    tl_compile_opts_t how = {
        .path = kernel_path, .front = cmd.opts, .front_only = !pto, .pipeline = TL_PIPELINE_PTO};
    tl_status_t st = tl_compile(&arena, &how, &d, &k);
    tl_buf_t out;
    tl_buf_init(&out);
    if (st == TL_OK && k)
        st = pto ? tl_pto_emit(k, &out, NULL, &d) : (tl_ir_print_kernel(&out, k), TL_OK);
    if (st != TL_OK || !k || d.nwarnings)
        tl_test_fail(t, __FILE__, __LINE__, "%s: %s (status %d):\n%s", args_path,
                     st != TL_OK ? "does not compile" : "compiles with warnings", (int)st,
                     tl_diag_text(&d));
    if (st == TL_OK && k) compare_golden(t, out_path, tl_buf_cstr(&out));
    tl_buf_free(&out);
    tl_diag_free(&d);
    tl_arena_free(&arena);
    free(line);
}

static void golden_test(tl_test_t *t, void *arg)
{
    run_golden(t, GOLDEN_DIR, arg, ".ir", false);
}

static void pto_golden_test(tl_test_t *t, void *arg)
{
    run_golden(t, PTO_DIR, arg, ".cpp", true);
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

// The golden names (file names without .args), sorted; caller frees.
static int list_golden(const char *sub, char ***out)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s/%s", tl_test_root(), sub);
    *out = NULL;
    DIR *dp = opendir(dir);
    if (!dp) return 0;
    int n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(dp))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".args") != 0) continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 32;
            char **grown = realloc(*out, sizeof **out * (size_t)cap);
            if (!grown) break;
            *out = grown;
        }
        (*out)[n++] = strndup(e->d_name, len - 5);
    }
    closedir(dp);
    if (n) qsort(*out, (size_t)n, sizeof **out, cmp_names);
    return n;
}

TEST_GENERATOR(ir_golden)
{
    char **names;
    int n = list_golden(GOLDEN_DIR, &names);
    for (int i = 0; i < n; i++) {
        char test[300];
        snprintf(test, sizeof test, "ir_golden:%s", names[i]);
        tl_test_add(test, golden_test, names[i]); // the runner keeps names[i]
    }
    free(names);
    n = list_golden(PTO_DIR, &names);
    for (int i = 0; i < n; i++) {
        char test[300];
        snprintf(test, sizeof test, "pto_golden:%s", names[i]);
        tl_test_add(test, pto_golden_test, names[i]);
    }
    free(names);
}

// Every kernel under kernels/ has at least one golden, and every .args has its .ir.
TEST(every_kernel_has_a_golden)
{
    char **names;
    int n = list_golden(GOLDEN_DIR, &names);
    CHECK(n >= 16);
    static const char *const kernels[] = {
        "kernels/ds_v4/sparse_attn.py",        "kernels/ds_v4/hc_split_sinkhorn.py",
        "kernels/ds_v4/int8_gemm.py",          "kernels/ds_v4/act_quant.py",
        "kernels/examples/elementwise_add.py", "kernels/examples/gemm.py",
        "kernels/examples/gemm_dev.py",        "kernels/examples/gemm_transpose_b.py",
        "kernels/examples/matmul_add.py",      "kernels/examples/matmul_add_dev.py",
        "kernels/examples/online_softmax.py",  "kernels/examples/layer_norm.py",
        "kernels/examples/flash_attention.py", "kernels/examples/gemm_pipelined.py",
    };
    bool used[sizeof kernels / sizeof kernels[0]] = {0};
    for (int i = 0; i < n; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s/%s.args", tl_test_root(), GOLDEN_DIR, names[i]);
        char *line = tl_test_read_file(path, NULL);
        CHECK(line != NULL);
        for (size_t j = 0; line && j < sizeof kernels / sizeof kernels[0]; j++)
            if (strstr(line, kernels[j])) used[j] = true;
        free(line);
        snprintf(path, sizeof path, "%s/%s/%s.ir", tl_test_root(), GOLDEN_DIR, names[i]);
        char *ir = tl_test_read_file(path, NULL);
        if (!ir) tl_test_fail(t, __FILE__, __LINE__, "%s is missing", path);
        free(ir);
        free(names[i]);
    }
    free(names);
    for (size_t j = 0; j < sizeof kernels / sizeof kernels[0]; j++)
        if (!used[j]) tl_test_fail(t, __FILE__, __LINE__, "no golden IR for %s", kernels[j]);
}

TEST(args_quoting)
{
    char line[] = "kernels/a.py -a 'f=lambda a, b: a + b' -a \"d=\\\"x y\\\"\" -a s='\"bf16\"'\n";
    char *w[8];
    REQUIRE(split_words(line, w, 8) == 7);
    CHECK_STREQ(w[0], "kernels/a.py");
    CHECK_STREQ(w[2], "f=lambda a, b: a + b");
    CHECK_STREQ(w[4], "d=\"x y\"");
    CHECK_STREQ(w[6], "s=\"bf16\"");
    golden_cmd_t c;
    CHECK(parse_cmd(7, w, &c) == NULL);
    CHECK_EQ(c.opts.nargs, 3);
    CHECK_STREQ(c.args[0].name, "f");
    CHECK_STREQ(c.args[2].value, "\"bf16\"");

    char bad[] = "k.py -a 'unterminated";
    CHECK_EQ(split_words(bad, w, 8), -1);
    char two[] = "a.py b.py";
    REQUIRE(split_words(two, w, 8) == 2);
    CHECK_STREQ(parse_cmd(2, w, &c), "more than one kernel file");
    char opt[] = "a.py -k";
    REQUIRE(split_words(opt, w, 8) == 2);
    CHECK_STREQ(parse_cmd(2, w, &c), "option without a value");
}
