// Command lines as data: one test per tests/data/cli/NAME.cli, a script of
// tilec runs and checks, line by line:
//   # ...               a comment
//   tilec ARGS...       runs the command (split at spaces; '...' quotes; {tmp}
//                       is a directory of this test's own, in every line)
//   exit N              the last command's exit status must be N
//   has TEXT            TEXT must be in its output (stdout and stderr)
//   lacks TEXT          TEXT must not be
//   file PATH           PATH must exist now
//   nofile PATH         PATH must not
//   file-has PATH TEXT  PATH must exist and hold TEXT
//   make-file PATH      creates an empty file
//   make-script PATH TEXT  creates an executable file holding TEXT (\n: a newline)
//   env NAME=VALUE      set for the commands after it
//   not-sanitized WHY   skip the test under the sanitizers
// Every command must be followed by its `exit` line.
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

static void check_line(tl_test_t *t, const char *path, const char *l, const char *out)
{
    struct stat st;
    if (!strncmp(l, "has ", 4) && !strstr(out, l + 4))
        tl_test_fail(t, path, 0, "the output lacks '%s':\n%s", l + 4, out);
    else if (!strncmp(l, "lacks ", 6) && strstr(out, l + 6))
        tl_test_fail(t, path, 0, "the output has '%s':\n%s", l + 6, out);
    else if (!strncmp(l, "file ", 5) && stat(l + 5, &st) != 0)
        tl_test_fail(t, path, 0, "no file %s", l + 5);
    else if (!strncmp(l, "nofile ", 7) && stat(l + 7, &st) == 0)
        tl_test_fail(t, path, 0, "%s exists", l + 7);
    else if (!strncmp(l, "file-has ", 9) && strchr(l + 9, ' ')) {
        char *file = strndup(l + 9, (size_t)(strchr(l + 9, ' ') - (l + 9)));
        const char *want = strchr(l + 9, ' ') + 1;
        char *got = tl_test_read_file(file, NULL);
        if (!got || !strstr(got, want))
            tl_test_fail(t, path, 0, "%s lacks '%s':\n%s", file, want, got ? got : "(no file)");
        free(got);
        free(file);
    }
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
    char *out = NULL;
    int rc = -1, commands = 0;
    bool checked_exit = true, skipped = false;
    char *save = NULL;
    for (char *raw = strtok_r(text, "\n", &save); raw; raw = strtok_r(NULL, "\n", &save)) {
        if (!*raw || *raw == '#') continue;
        char *l = expand(raw, tmp);
        if (!strncmp(l, "not-sanitized ", 14) && tl_test_sanitized()) {
            tl_test_skip(t, l + 14);
            skipped = true;
            free(l);
            break;
        }
        if (!strncmp(l, "tilec ", 6)) {
            if (!checked_exit) tl_test_fail(t, path, 0, "a command without its 'exit N' line");
            char *argv[MAX_ARGS + 1];
            argv[0] = (char *)tl_test_tilec();
            split_args(l + 6, argv + 1);
            free(out);
            out = NULL;
            rc = tl_test_run(argv, &out);
            if (!out) out = strdup("");
            commands++;
            checked_exit = false;
        } else if (!strncmp(l, "exit ", 5)) {
            if (rc != atoi(l + 5))
                tl_test_fail(t, path, 0, "exit %d, want %s; output:\n%s", rc, l + 5, out);
            checked_exit = true;
        } else if (!strncmp(l, "make-file ", 10)) {
            CHECK(tl_test_write_file(l + 10, "", 0));
        } else if (!strncmp(l, "make-script ", 12) && strchr(l + 12, ' ')) {
            char *sp = strchr(l + 12, ' ');
            *sp = 0;
            tl_buf_t b;
            tl_buf_init(&b);
            for (const char *p = sp + 1; *p; p++) {
                if (p[0] == '\\' && p[1] == 'n')
                    tl_buf_putn(&b, "\n", 1), p++;
                else
                    tl_buf_putn(&b, p, 1);
            }
            CHECK(tl_test_write_file(l + 12, b.data ? b.data : "", b.len));
            CHECK(chmod(l + 12, 0755) == 0);
            tl_buf_free(&b);
        } else if (!strncmp(l, "env ", 4) && strchr(l, '=')) {
            char *eq = strchr(l, '='); // each test runs in a process of its own
            *eq = 0;
            setenv(l + 4, eq + 1, 1);
        } else {
            check_line(t, path, l, out ? out : "");
        }
        free(l);
    }
    if (!skipped && (!commands || !checked_exit))
        tl_test_fail(t, path, 0, "needs 'tilec ...' lines, each with its 'exit N'");
    free(out);
    free(text);
}

TEST_GENERATOR(cli_data)
{
    tl_test_add_dir("tests/data/cli", ".cli", "cli", run_cli_case);
}
