// Progress of long compile steps (issue 22): a compile step (the front end, a
// pass, the verifier after it) that runs for longer than a threshold is
// reported on stderr while it runs, at the threshold and each doubling of it
//   tilec: compile step 'intra_sync' running for 2.0 s
// by a watcher thread; and a step that took more than a second says so when it
// ends ("took 2.6 s"). TILEC_PROGRESS=SECONDS sets the threshold (0: no
// reports while running); unset, it is 1 s when stderr is a terminal, else off.
#ifndef TL_TOOLS_CLI_PROGRESS_H
#define TL_TOOLS_CLI_PROGRESS_H

#include <pthread.h>
#include <stdbool.h>

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t thread;
    bool watching; // the thread runs
    bool stop;
    double threshold;   // seconds; 0: no watcher
    const char *step;   // the step running, NULL between steps
    double started;     // when it started (monotonic seconds)
    double next_report; // seconds after `started` of the next report
} cli_progress_t;

// Starts watching (a thread, when a threshold is in effect).
void cli_progress_begin(cli_progress_t *p);
// tl_step_start_fn and tl_step_fn for tl_compile_opts_t (arg: the cli_progress_t).
void cli_progress_step_start(void *arg, const char *step);
void cli_progress_step_done(void *arg, const char *step, double seconds);
// Stops the watcher.
void cli_progress_end(cli_progress_t *p);

#endif
