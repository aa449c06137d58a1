// Command lines as data: one test per tests/data/cli/NAME.cli, which runs the
// tilec binary once and checks its exit status and output. The file's lines:
//   # ...               a comment
//   tilec ARGS...       the command (split at spaces; '...' quotes; {tmp} is a
//                       directory of this test's own)
//   exit N              the exit status it must have
//   has TEXT            TEXT must be in its output (stdout and stderr)
//   lacks TEXT          TEXT must not be
//   file PATH           PATH must exist afterwards ({tmp} allowed)
//   nofile PATH         PATH must not
//   make-file PATH      created (empty) before the command runs
//   env NAME=VALUE      set for the command
#include "../test.h"

#include <stdlib.h>
#include <sys/stat.h>

#include "base/buf.h"

enum { MAX_ARGS = 64 };

// `s` with {tmp} replaced by tmp (heap).
static char *expand(const char *s, const char *tmp)
{
    tl_buf_t b;
    tl_buf_init(&b);
    for (const char *p = s; *p;) {
        if (!strncmp(p, "{tmp}", 5)) {
            tl_buf_puts(&b, tmp);
            p += 5;
        } else {
            tl_buf_putn(&b, p++, 1);
        }
    }
    return tl_buf_take(&b);
}

// Splits the command line in place: spaces separate, '...' quotes.
static int split_args(char *s, char **argv)
{
    int n = 0;
    while (*s && n < MAX_ARGS - 1) {
        while (*s == ' ') s++;
        if (!*s) break;
        char *out = s;
        argv[n++] = out;
        while (*s && *s != ' ') {
            if (*s == '\'') {
                for (s++; *s && *s != '\''; s++) *out++ = *s;
                if (*s) s++;
            } else {
                *out++ = *s++;
            }
        }
        if (*s) s++;
        *out = 0;
    }
    argv[n] = NULL;
    return n;
}

static void run_cli_case(tl_test_t *t, void *arg)
{
    const char *path = arg;
    char *text = tl_test_read_file(path, NULL);
    REQUIRE(text);
    const char *base = strrchr(path, '/') + 1;
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s/cli-%.*s", tl_test_tmpdir(), (int)(strlen(base) - 4), base);
    mkdir(tmp, 0777);
    char *lines[128];
    int nlines = 0;
    char *save = NULL;
    for (char *l = strtok_r(text, "\n", &save); l && nlines < 128; l = strtok_r(NULL, "\n", &save))
        if (*l && *l != '#') lines[nlines++] = expand(l, tmp);
    char *cmd = NULL;
    int want_exit = -1;
    for (int i = 0; i < nlines; i++) {
        if (!strncmp(lines[i], "tilec ", 6))
            cmd = lines[i] + 6;
        else if (!strncmp(lines[i], "exit ", 5))
            want_exit = atoi(lines[i] + 5);
        else if (!strncmp(lines[i], "make-file ", 10))
            CHECK(tl_test_write_file(lines[i] + 10, "", 0));
        else if (!strncmp(lines[i], "env ", 4) && strchr(lines[i], '=')) {
            char *eq = strchr(lines[i], '='); // each test runs in a process of its own
            *eq = 0;
            setenv(lines[i] + 4, eq + 1, 1);
            *eq = '=';
        }
    }
    if (!cmd || want_exit < 0) {
        tl_test_fail(t, path, 0, "needs a 'tilec ...' line and an 'exit N' line");
    } else {
        char *argv[MAX_ARGS + 1];
        argv[0] = (char *)tl_test_tilec();
        split_args(cmd, argv + 1);
        char *out = NULL;
        int rc = tl_test_run(argv, &out);
        if (!out) out = strdup("");
        if (rc != want_exit)
            tl_test_fail(t, path, 0, "exit %d, want %d; output:\n%s", rc, want_exit, out);
        for (int i = 0; i < nlines; i++) {
            const char *l = lines[i];
            struct stat st;
            if (!strncmp(l, "has ", 4) && !strstr(out, l + 4))
                tl_test_fail(t, path, 0, "the output lacks '%s':\n%s", l + 4, out);
            else if (!strncmp(l, "lacks ", 6) && strstr(out, l + 6))
                tl_test_fail(t, path, 0, "the output has '%s':\n%s", l + 6, out);
            else if (!strncmp(l, "file ", 5) && stat(l + 5, &st) != 0)
                tl_test_fail(t, path, 0, "no file %s", l + 5);
            else if (!strncmp(l, "nofile ", 7) && stat(l + 7, &st) == 0)
                tl_test_fail(t, path, 0, "%s exists", l + 7);
        }
        free(out);
    }
    for (int i = 0; i < nlines; i++) free(lines[i]);
    free(text);
}

TEST_GENERATOR(cli_data)
{
    tl_test_add_dir("tests/data/cli", ".cli", "cli", run_cli_case);
}
