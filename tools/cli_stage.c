// Outputs as one transaction (cli_stage.h).
#include "cli_stage.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *cli_stage_add(cli_stage_t *s, const char *opt, const char *path, bool announce)
{
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 8;
        cli_staged_t *f = realloc(s->files, (size_t)cap * sizeof *f);
        if (!f) return NULL;
        s->files = f;
        s->cap = cap;
    }
    // DIR/.BASE.tilec-PID: same directory (rename stays atomic), hidden
    const char *slash = strrchr(path, '/');
    int dirlen = slash ? (int)(slash - path + 1) : 0;
    size_t len = strlen(path) + 32;
    char *tmp = malloc(len), *dup = strdup(path);
    if (!tmp || !dup) {
        free(tmp);
        free(dup);
        return NULL;
    }
    snprintf(tmp, len, "%.*s.%s.tilec-%ld", dirlen, path, path + dirlen, (long)getpid());
    s->files[s->n++] = (cli_staged_t){.tmp = tmp, .path = dup, .opt = opt, .announce = announce};
    return tmp;
}

tl_status_t cli_stage_text(cli_stage_t *s, const char *opt, const char *path, tl_buf_t *text,
                           tl_diag_t *d)
{
    const char *tmp = cli_stage_add(s, opt, path, false);
    if (!tmp) return tl_diag_fail(d, TL_ERR_NOMEM, "%s %s: out of memory", opt, path);
    FILE *f = fopen(tmp, "wb");
    bool ok = f && fwrite(tl_buf_cstr(text), 1, text->len, f) == text->len;
    int err = errno;
    if (f && fclose(f) != 0 && ok) {
        ok = false;
        err = errno;
    }
    if (!ok) return tl_diag_fail(d, TL_ERR_IO, "%s %s: cannot write: %s", opt, path, strerror(err));
    return TL_OK;
}

// Commits s: the files already at the final paths are moved aside first (a
// directory there fails the commit before anything moved), then the new ones
// are renamed into place; a failure puts the old files back.
static tl_status_t commit(cli_stage_t *s, tl_diag_t *d)
{
    tl_status_t st = TL_OK;
    int moved = 0, placed = 0;
    struct stat sb;
    for (int i = 0; i < s->n && st == TL_OK; i++) {
        cli_staged_t *f = &s->files[i];
        if (lstat(f->path, &sb) != 0) continue;
        if (S_ISDIR(sb.st_mode)) {
            st = tl_diag_fail(d, TL_ERR_IO, "%s: cannot write %s: it is a directory", f->opt,
                              f->path);
            break;
        }
        size_t len = strlen(f->tmp) + 8;
        if (!(f->old = malloc(len))) {
            st = TL_ERR_NOMEM;
            break;
        }
        snprintf(f->old, len, "%s-old", f->tmp);
        if (rename(f->path, f->old) != 0) {
            int err = errno;
            free(f->old);
            f->old = NULL;
            // ENOENT: another process writing the same path moved it away since
            // the lstat; there is nothing to set aside (the last writer wins)
            if (err != ENOENT) {
                st = tl_diag_fail(d, TL_ERR_IO, "%s: cannot replace %s: %s", f->opt, f->path,
                                  strerror(err));
                break;
            }
        }
        moved = i + 1;
    }
    for (; st == TL_OK && placed < s->n; placed++) {
        cli_staged_t *f = &s->files[placed];
        if (rename(f->tmp, f->path) != 0)
            st = tl_diag_fail(d, TL_ERR_IO, "%s: cannot write %s: %s", f->opt, f->path,
                              strerror(errno));
    }
    if (st != TL_OK) { // undo: the new files out, the old ones back
        for (int i = 0; i < placed; i++) unlink(s->files[i].path);
        for (int i = 0; i < moved; i++)
            if (s->files[i].old) rename(s->files[i].old, s->files[i].path);
    }
    for (int i = 0; i < s->n; i++) {
        cli_staged_t *f = &s->files[i];
        if (f->old && st == TL_OK) unlink(f->old);
        if (st == TL_OK && f->announce) printf("wrote %s\n", f->path);
    }
    return st;
}

tl_status_t cli_stage_finish(cli_stage_t *s, bool keep, tl_diag_t *d)
{
    tl_status_t st = keep ? commit(s, d) : TL_OK;
    for (int i = 0; i < s->n; i++) {
        cli_staged_t *f = &s->files[i];
        if (!keep || st != TL_OK) unlink(f->tmp);
        free(f->tmp);
        free(f->path);
        free(f->old);
    }
    free(s->files);
    *s = (cli_stage_t){0};
    return st;
}
