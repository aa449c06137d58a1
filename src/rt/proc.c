// Running other programs and their files (proc.h).
#include "rt/proc.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"

extern char **environ;

double tl_proc_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int tl_proc_run(char *const *argv, char **output, double limit)
{
    *output = NULL;
    int fd[2];
    if (pipe(fd) != 0) return -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addclose(&fa, fd[0]);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 2);
    posix_spawn_file_actions_addclose(&fa, fd[1]);
    pid_t pid;
    int err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    if (err) {
        close(fd[0]);
        errno = err;
        return -1;
    }
    tl_buf_t out;
    tl_buf_init(&out);
    char buf[4096];
    double deadline = tl_proc_now() + limit;
    bool timed_out = false;
    for (;;) {
        double left = deadline - tl_proc_now();
        struct pollfd p = {fd[0], POLLIN, 0};
        int ready = limit <= 0 ? poll(&p, 1, -1)
                    : left > 0 ? poll(&p, 1, (int)(left * 1000) + 1)
                               : 0;
        if (ready < 0 && errno == EINTR) continue;
        if (ready == 0) { // out of time (its children may keep the pipe open)
            timed_out = true;
            kill(pid, SIGKILL);
            break;
        }
        ssize_t r = read(fd[0], buf, sizeof buf);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        tl_buf_putn(&out, buf, (size_t)r);
    }
    close(fd[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            tl_buf_free(&out);
            return -1;
        }
    *output = tl_buf_take(&out);
    if (!*output) *output = strdup("");
    if (timed_out) return TL_PROC_TIMED_OUT;
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

int tl_proc_mkdirs(const char *path)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(tmp, 0777) != 0 && errno != EEXIST) return -1;
            *p = '/';
        }
    return mkdir(tmp, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

bool tl_proc_write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(data, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

char *tl_proc_cache_dir(const char *dir)
{
    tl_buf_t b;
    tl_buf_init(&b);
    const char *e;
    if (dir)
        tl_buf_puts(&b, dir);
    else if ((e = getenv("TILEC_CACHE_DIR")) && *e)
        tl_buf_puts(&b, e);
    else if ((e = getenv("XDG_CACHE_HOME")) && *e)
        tl_buf_printf(&b, "%s/tilec", e);
    else if ((e = getenv("HOME")) && *e)
        tl_buf_printf(&b, "%s/.cache/tilec", e);
    else
        tl_buf_puts(&b, "/tmp/tilec-cache");
    return tl_buf_take(&b);
}
