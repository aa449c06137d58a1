// Progress of long compile steps (cli_progress.h).
#include "cli_progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

// TILEC_PROGRESS=SECONDS, else 1 s on a terminal, else 0 (off).
static double threshold(void)
{
    const char *s = getenv("TILEC_PROGRESS");
    if (s && *s) {
        char *end;
        double v = strtod(s, &end);
        if (*end == 0 && v >= 0 && v < 1e6) return v;
    }
    return isatty(STDERR_FILENO) ? 1.0 : 0.0;
}

static void *watch(void *arg)
{
    cli_progress_t *p = arg;
    pthread_mutex_lock(&p->mu);
    while (!p->stop) {
        if (!p->step) {
            pthread_cond_wait(&p->cv, &p->mu);
            continue;
        }
        double due = p->started + p->next_report, t = now();
        if (t >= due) {
            double ran = t - p->started;
            fprintf(stderr, "tilec: compile step '%s' running for %.*f s\n", p->step,
                    ran < 1 ? 2 : 1, ran);
            p->next_report *= 2;
            continue;
        }
        struct timespec ts = {.tv_sec = (time_t)due,
                              .tv_nsec = (long)((due - (double)(time_t)due) * 1e9)};
        pthread_cond_timedwait(&p->cv, &p->mu, &ts);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

void cli_progress_begin(cli_progress_t *p)
{
    *p = (cli_progress_t){.threshold = threshold()};
    if (p->threshold <= 0) return;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC); // the clock of now()
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, &ca);
    pthread_condattr_destroy(&ca);
    p->watching = pthread_create(&p->thread, NULL, watch, p) == 0;
    if (!p->watching) { // no reports while running; the compile goes on
        pthread_cond_destroy(&p->cv);
        pthread_mutex_destroy(&p->mu);
    }
}

void cli_progress_step_start(void *arg, const char *step)
{
    cli_progress_t *p = arg;
    if (!p->watching) return;
    pthread_mutex_lock(&p->mu);
    p->step = step;
    p->started = now();
    p->next_report = p->threshold;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

void cli_progress_step_done(void *arg, const char *step, double seconds)
{
    cli_progress_t *p = arg;
    if (p->watching) {
        pthread_mutex_lock(&p->mu);
        p->step = NULL;
        pthread_mutex_unlock(&p->mu);
    }
    if (seconds > 1.0) fprintf(stderr, "tilec: compile step '%s' took %.1f s\n", step, seconds);
}

void cli_progress_end(cli_progress_t *p)
{
    if (!p->watching) return;
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->thread, NULL);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    p->watching = false;
}
