// The compile cache's upkeep (see jit.h): its size cap with least-recently-
// used eviction, `tilec cache info` and `tilec cache clean`.
//
// Files tilec makes in the cache directory all start with a 32-hex-digit key
// (KEY.so, KEY.ok, KEY.c, KEY-failed.c, KEY.lock, and KEY.PID.N.* while a compile
// runs) or are precompiled-header folders pch-HASH/; nothing else in the
// directory is touched. An entry's last use is its KEY.ok's modification time,
// set on every load from the cache.
#include "cpu/jit.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { KEY_LEN = 32 };

static bool is_key_file(const char *name)
{
    for (int i = 0; i < KEY_LEN; i++) {
        char c = name[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    }
    return name[KEY_LEN] == '.' || name[KEY_LEN] == '-';
}

static bool is_pch_dir(const char *name)
{
    return !strncmp(name, "pch-", 4);
}

// A finished entry's own files: KEY.so, KEY.ok, KEY.c (not temporaries).
static bool is_entry_file(const char *name)
{
    const char *ext = name + KEY_LEN;
    return is_key_file(name) && (!strcmp(ext, ".so") || !strcmp(ext, ".ok") || !strcmp(ext, ".c"));
}

uint64_t tl_jit_cache_max_bytes(void)
{
    const char *e = getenv("TILEC_CACHE_MAX_MB");
    double mb = e && *e ? strtod(e, NULL) : 0;
    return (uint64_t)((mb > 0 ? mb : 2048) * 1048576.0);
}

void tl_jit_cache_touch(const char *ok_path)
{
    utimensat(AT_FDCWD, ok_path, NULL, 0);
}

static uint64_t file_bytes(const char *dir, const char *name, time_t *mtime)
{
    char path[4400];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) return 0;
    struct stat st;
    if (stat(path, &st) != 0) return 0;
    if (mtime) *mtime = st.st_mtime;
    return (uint64_t)st.st_size;
}

typedef struct {
    char key[KEY_LEN + 1];
    uint64_t bytes;
    time_t used;
} entry_t;

static int oldest_first(const void *a, const void *b)
{
    const entry_t *x = a, *y = b;
    return (x->used > y->used) - (x->used < y->used);
}

// The entries of dir (grouped by key) with their bytes; *n of them (heap).
static entry_t *list_entries(const char *dir, int *n, uint64_t *total)
{
    *n = 0;
    *total = 0;
    DIR *dp = opendir(dir);
    if (!dp) return NULL;
    entry_t *e = NULL;
    int cap = 0;
    for (struct dirent *de; (de = readdir(dp));) {
        if (!is_entry_file(de->d_name)) continue;
        time_t mtime = 0;
        uint64_t bytes = file_bytes(dir, de->d_name, &mtime);
        *total += bytes;
        int i = 0;
        while (i < *n && strncmp(e[i].key, de->d_name, KEY_LEN)) i++;
        if (i == *n) {
            if (*n == cap) {
                cap = cap ? 2 * cap : 64;
                entry_t *g = realloc(e, sizeof *e * (size_t)cap);
                if (!g) break;
                e = g;
            }
            memset(&e[i], 0, sizeof e[i]);
            memcpy(e[i].key, de->d_name, KEY_LEN);
            ++*n;
        }
        e[i].bytes += bytes;
        if (!strcmp(de->d_name + KEY_LEN, ".ok")) e[i].used = mtime;
    }
    closedir(dp);
    return e;
}

static void remove_entry(const char *dir, const char *key)
{
    static const char *const ext[] = {".ok", ".so",
                                      ".c"}; // the seal first: no half entry is trusted
    for (size_t i = 0; i < sizeof ext / sizeof *ext; i++) {
        char path[4400];
        if (snprintf(path, sizeof path, "%s/%s%s", dir, key, ext[i]) < (int)sizeof path)
            unlink(path);
    }
}

void tl_jit_cache_trim(const char *dir, const char *keep)
{
    uint64_t cap = tl_jit_cache_max_bytes(), total;
    int n;
    entry_t *e = list_entries(dir, &n, &total);
    if (e && total > cap) {
        qsort(e, (size_t)n, sizeof *e, oldest_first);
        for (int i = 0; i < n && total > cap - cap / 10; i++) { // down to 90 %: not one per compile
            if (keep && !strcmp(e[i].key, keep)) continue;
            remove_entry(dir, e[i].key);
            total -= e[i].bytes;
        }
    }
    free(e);
}

tl_status_t tl_jit_cache_info(const tl_jit_opts_t *o, tl_jit_cache_info_t *info, tl_diag_t *d)
{
    memset(info, 0, sizeof *info);
    char *dir = tl_jit_cache_dir(o);
    if (!dir) return tl_diag_fail(d, TL_ERR_NOMEM, "out of memory");
    snprintf(info->dir, sizeof info->dir, "%s", dir);
    info->max_bytes = tl_jit_cache_max_bytes();
    DIR *dp = opendir(dir);
    if (!dp) {
        info->missing = errno == ENOENT;
        tl_status_t st = info->missing
                             ? TL_OK
                             : tl_diag_fail(d, TL_ERR_IO, "cannot read the cache directory %s: %s",
                                            dir, strerror(errno));
        free(dir);
        return st;
    }
    for (struct dirent *de; (de = readdir(dp));) {
        const char *name = de->d_name;
        if (is_entry_file(name)) {
            info->entry_bytes += file_bytes(dir, name, NULL);
            info->entries += !strcmp(name + KEY_LEN, ".so");
        } else if (is_key_file(name)) {
            info->other_bytes += file_bytes(dir, name, NULL);
            info->other_files++; // failed sources, temporaries of compiles that were stopped
        } else if (is_pch_dir(name)) {
            char sub[4400];
            if (snprintf(sub, sizeof sub, "%s/%s", dir, name) >= (int)sizeof sub) continue;
            DIR *sp = opendir(sub);
            for (struct dirent *se; sp && (se = readdir(sp));)
                if (se->d_name[0] != '.') info->pch_bytes += file_bytes(sub, se->d_name, NULL);
            if (sp) closedir(sp);
            info->pch_dirs++;
        }
    }
    closedir(dp);
    free(dir);
    return TL_OK;
}

void tl_jit_cache_clean_dir(const char *dir, int *removed, uint64_t *bytes)
{
    DIR *dp = opendir(dir);
    if (!dp) return;
    for (struct dirent *de; (de = readdir(dp));) {
        const char *name = de->d_name;
        char path[4400];
        if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) continue;
        if (is_key_file(name)) {
            uint64_t b = file_bytes(dir, name, NULL);
            if (unlink(path) == 0) {
                if (removed) ++*removed;
                if (bytes) *bytes += b;
            }
        } else if (is_pch_dir(name)) {
            DIR *sp = opendir(path);
            for (struct dirent *se; sp && (se = readdir(sp));) {
                if (!strcmp(se->d_name, ".") || !strcmp(se->d_name, "..")) continue;
                char f[4700];
                if (snprintf(f, sizeof f, "%s/%s", path, se->d_name) >= (int)sizeof f) continue;
                uint64_t b = file_bytes(path, se->d_name, NULL);
                if (unlink(f) == 0) {
                    if (removed) ++*removed;
                    if (bytes) *bytes += b;
                }
            }
            if (sp) closedir(sp);
            rmdir(path);
        }
    }
    closedir(dp);
}

tl_status_t tl_jit_cache_clean(const tl_jit_opts_t *o, int *removed, uint64_t *bytes, tl_diag_t *d)
{
    *removed = 0;
    *bytes = 0;
    char *dir = tl_jit_cache_dir(o);
    if (!dir) return tl_diag_fail(d, TL_ERR_NOMEM, "out of memory");
    tl_jit_cache_clean_dir(dir, removed, bytes);
    free(dir);
    return TL_OK;
}
