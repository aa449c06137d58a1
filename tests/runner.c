// Test runner: runs every registered test in its own forked process (two at a
// time by default), prints failures with their messages, and ends with
// "N passed, N failed".
//
//   run_tests [-v] [-l] [-j N] [--no-fork] [FILTER...]
//
// A FILTER selects tests whose name contains it. Test names are "file:test".
// With $TILEC_TEST_FAIL_LOG set, each failure is also appended to that file
// with the time and the load average: evidence of a rare failure survives a
// run whose output nobody kept.
#include "test.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { EXIT_PASS = 0, EXIT_FAIL = 1, EXIT_SKIP = 77, TEST_TIMEOUT_S = 600 };

typedef struct {
    char *name;
    tl_test_fn fn;
    void *arg;
} test_case_t;

struct tl_test {
    int nfail;
    bool skipped;
    FILE *out;
};

static test_case_t *tests;
static int ntests, captests;
static void (*generators[256])(void);
static int ngenerators;
static char tmpdir[512];
static bool sanitized;
static FILE *fail_log;

// Appends one failure to $TILEC_TEST_FAIL_LOG (opened in main), if set.
static void log_failure(const char *name, double secs, const char *how, const char *out)
{
    if (!fail_log) return;
    char when[64] = "?", load[64] = "?";
    time_t t = time(NULL);
    struct tm tm;
    if (gmtime_r(&t, &tm)) strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm);
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (!fgets(load, sizeof load, f)) snprintf(load, sizeof load, "?\n");
        fclose(f);
        load[strcspn(load, "\n")] = 0;
    }
    fprintf(fail_log, "%s pid %ld load %s\nFAIL %s (%.2fs)%s\n%s\n", when, (long)getpid(), load,
            name, secs, how, out ? out : "");
    fflush(fail_log);
}

static void add_case(char *name, tl_test_fn fn, void *arg)
{
    if (ntests == captests) {
        captests = captests ? captests * 2 : 256;
        tests = realloc(tests, sizeof *tests * (size_t)captests);
        if (!tests) abort();
    }
    tests[ntests++] = (test_case_t){name, fn, arg};
}

void tl_test_register(const char *name, const char *file, tl_test_fn fn)
{
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    size_t n = strlen(base);
    if (n > 2 && strcmp(base + n - 2, ".c") == 0) n -= 2;
    if (strncmp(base, "test_", 5) == 0) base += 5, n -= 5;
    char *full = malloc(n + strlen(name) + 2);
    sprintf(full, "%.*s:%s", (int)n, base, name);
    add_case(full, fn, NULL);
}

void tl_test_register_generator(const char *name, void (*gen)(void))
{
    (void)name;
    if (ngenerators < (int)(sizeof generators / sizeof generators[0]))
        generators[ngenerators++] = gen;
}

void tl_test_add(const char *name, tl_test_fn fn, void *arg)
{
    add_case(strdup(name), fn, arg);
}

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n > k && strcmp(s + n - k, suffix) == 0;
}

int tl_test_add_dir(const char *dir, const char *suffix, const char *prefix, tl_test_fn fn)
{
    struct dirent **ents;
    int n = scandir(dir, &ents, NULL, alphasort), added = 0;
    for (int i = 0; i < n; i++) {
        const char *f = ents[i]->d_name;
        if (has_suffix(f, suffix)) {
            size_t stem = strlen(f) - strlen(suffix);
            char *name = malloc(strlen(prefix) + stem + 2), *path = malloc(strlen(dir) + strlen(f) + 2);
            if (!name || !path) abort();
            sprintf(name, "%s:%.*s", prefix, (int)stem, f);
            sprintf(path, "%s/%s", dir, f);
            add_case(name, fn, path); // both kept for the whole run
            added++;
        }
        free(ents[i]);
    }
    if (n >= 0) free(ents);
    return added;
}

void tl_test_fail(tl_test_t *t, const char *file, int line, const char *fmt, ...)
{
    t->nfail++;
    if (t->nfail > 20) return; // enough to go on
    fprintf(t->out, "    %s:%d: ", file, line);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(t->out, fmt, ap);
    va_end(ap);
    fputc('\n', t->out);
    fflush(t->out);
}

void tl_test_skip(tl_test_t *t, const char *reason)
{
    t->skipped = true;
    fprintf(t->out, "    skipped: %s\n", reason);
}

bool tl_test_failed(tl_test_t *t)
{
    return t->nfail > 0;
}

const char *tl_test_root(void)
{
    return ".";
}

const char *tl_test_tmpdir(void)
{
    return tmpdir;
}

const char *tl_test_tmp(const char *name)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    return path;
}

const char *tl_test_tmp_own(const char *name)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/%s-%ld", tmpdir, name, (long)getpid());
    return path;
}

const char *tl_test_tilec(void)
{
    const char *p = getenv("TILEC");
    return p && *p ? p : "build/tilec";
}

bool tl_test_sanitized(void)
{
    return sanitized;
}

char *tl_test_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t r;
    while (buf && (r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += r;
        if (cap - n - 1 == 0) {
            cap *= 2;
            char *nb = realloc(buf, cap);
            if (!nb) free(buf);
            buf = nb;
        }
    }
    fclose(f);
    if (!buf) return NULL;
    buf[n] = 0;
    if (len) *len = n;
    return buf;
}

bool tl_test_write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(data, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

int tl_test_run(char *const argv[], char **out)
{
    int fds[2];
    if (pipe(fds) != 0) return -1;
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0) dup2(devnull, 0);
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        close(fds[0]);
        close(fds[1]);
        execvp(argv[0], argv);
        fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    ssize_t r;
    while (buf && (r = read(fds[0], buf + n, cap - n - 1)) != 0) {
        if (r < 0) {
            if (errno == EINTR) continue;
            break;
        }
        n += (size_t)r;
        if (cap - n - 1 == 0) {
            cap *= 2;
            char *nb = realloc(buf, cap);
            if (!nb) free(buf);
            buf = nb;
        }
    }
    close(fds[0]);
    if (buf) buf[n] = 0;
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (out) *out = buf;
    else free(buf);
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return -1;
}

static int run_in_process(test_case_t *tc, FILE *out)
{
    tl_test_t t = {0, false, out};
    tc->fn(&t, tc->arg);
    fflush(out);
    if (t.nfail) return EXIT_FAIL;
    return t.skipped ? EXIT_SKIP : EXIT_PASS;
}

typedef struct {
    pid_t pid;
    int fd;
    int index;
    char *out;
    size_t len, cap;
    double start;
} running_t;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool start(running_t *r, int index)
{
    int fds[2];
    if (pipe(fds) != 0) return false;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) return false;
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        FILE *out = fdopen(fds[1], "w");
        setvbuf(out, NULL, _IONBF, 0);
        // exit(), not _exit(): LeakSanitizer checks the test's allocations at exit.
        exit(run_in_process(&tests[index], out));
    }
    close(fds[1]);
    *r = (running_t){pid, fds[0], index, NULL, 0, 0, now()};
    return true;
}

static void drain(running_t *r)
{
    char chunk[4096];
    ssize_t n = read(r->fd, chunk, sizeof chunk);
    if (n <= 0) return;
    if (r->len + (size_t)n + 1 > r->cap) {
        r->cap = (r->len + (size_t)n + 1) * 2;
        r->out = realloc(r->out, r->cap);
    }
    memcpy(r->out + r->len, chunk, (size_t)n);
    r->len += (size_t)n;
    r->out[r->len] = 0;
}

static void rmtree(const char *dir)
{
    char *argv[] = {"rm", "-rf", (char *)dir, NULL};
    tl_test_run(argv, NULL);
}

int main(int argc, char **argv)
{
    bool verbose = false, list = false, fork_tests = true;
    int jobs = 2;
    char **filters = calloc((size_t)argc, sizeof *filters);
    int nfilters = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-v")) verbose = true;
        else if (!strcmp(argv[i], "-l")) list = true;
        else if (!strcmp(argv[i], "--no-fork")) fork_tests = false;
        else if (!strcmp(argv[i], "-j") && i + 1 < argc) jobs = atoi(argv[++i]);
        else filters[nfilters++] = argv[i];
    }
    if (jobs < 1) jobs = 1;
    const char *san = getenv("TILEC_SANITIZED");
    sanitized = san && *san && strcmp(san, "0") != 0;
    const char *tmp = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/tilec-tests-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 2;
    }
    const char *log_path = getenv("TILEC_TEST_FAIL_LOG");
    if (log_path && *log_path && !list && !(fail_log = fopen(log_path, "a")))
        fprintf(stderr, "cannot open $TILEC_TEST_FAIL_LOG %s: %s\n", log_path, strerror(errno));
    for (int g = 0; g < ngenerators; g++) generators[g]();

    int *selected = malloc(sizeof(int) * (size_t)(ntests + 1)), nsel = 0;
    for (int i = 0; i < ntests; i++) {
        bool ok = nfilters == 0;
        for (int f = 0; f < nfilters && !ok; f++) ok = strstr(tests[i].name, filters[f]) != NULL;
        if (ok) selected[nsel++] = i;
    }
    if (list) {
        for (int i = 0; i < nsel; i++) printf("%s\n", tests[selected[i]].name);
        rmtree(tmpdir);
        free(selected);
        free(filters);
        return 0;
    }

    int passed = 0, failed = 0, skipped = 0;
    double t0 = now();
    if (!fork_tests) {
        for (int i = 0; i < nsel; i++) {
            test_case_t *tc = &tests[selected[i]];
            int rc = run_in_process(tc, stdout);
            if (rc == EXIT_PASS) passed++;
            else if (rc == EXIT_SKIP) skipped++;
            else failed++, printf("FAIL %s\n", tc->name), log_failure(tc->name, 0, "", NULL);
            if (verbose && rc != EXIT_FAIL) printf("%s %s\n", rc ? "skip" : "ok  ", tc->name);
        }
    } else {
        signal(SIGPIPE, SIG_IGN);
        running_t *run = calloc((size_t)jobs, sizeof *run);
        int next = 0, active = 0;
        while (next < nsel || active > 0) {
            while (active < jobs && next < nsel) {
                int slot = 0;
                while (run[slot].pid) slot++;
                if (!start(&run[slot], selected[next])) {
                    perror("fork");
                    return 2;
                }
                next++, active++;
            }
            struct pollfd pfd[64];
            int map[64], np = 0;
            for (int s = 0; s < jobs; s++)
                if (run[s].pid) pfd[np] = (struct pollfd){run[s].fd, POLLIN, 0}, map[np++] = s;
            poll(pfd, (nfds_t)np, 1000);
            for (int k = 0; k < np; k++) {
                running_t *r = &run[map[k]];
                bool timed_out = now() - r->start > TEST_TIMEOUT_S;
                if (!(pfd[k].revents & (POLLIN | POLLHUP)) && !timed_out) continue;
                if (pfd[k].revents & POLLIN) drain(r);
                if (!(pfd[k].revents & POLLHUP) && !timed_out) continue;
                while (pfd[k].revents & POLLIN) { // read what is left
                    size_t before = r->len;
                    drain(r);
                    if (r->len == before) break;
                }
                if (timed_out) kill(r->pid, SIGKILL);
                int status;
                waitpid(r->pid, &status, 0);
                close(r->fd);
                test_case_t *tc = &tests[r->index];
                int rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
                double dt = now() - r->start;
                if (rc == EXIT_PASS) {
                    passed++;
                    if (verbose) printf("ok   %s (%.2fs)\n", tc->name, dt);
                } else if (rc == EXIT_SKIP) {
                    skipped++;
                    printf("skip %s\n%s", tc->name, r->out ? r->out : "");
                } else {
                    failed++;
                    const char *how = timed_out             ? " timed out"
                                      : WIFSIGNALED(status) ? " crashed"
                                                            : "";
                    printf("FAIL %s (%.2fs)%s\n%s", tc->name, dt, how, r->out ? r->out : "");
                    log_failure(tc->name, dt, how, r->out);
                    if (WIFSIGNALED(status)) printf("    killed by signal %d\n", WTERMSIG(status));
                }
                free(r->out);
                memset(r, 0, sizeof *r);
                active--;
            }
        }
        free(run);
    }
    rmtree(tmpdir);
    free(selected);
    free(filters);
    if (fail_log) fclose(fail_log);
    if (skipped) printf("%d skipped\n", skipped);
    printf("ran %d tests in %.1fs\n", nsel, now() - t0);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
