#!/bin/sh
# The emitted code of every --target pto check case built with -Werror (plus the
# target's -Wall -Wextra) by each compiler named, BATCH tests per run of
# build/run_tests -j 1 (one build at a time), each run under the shared lock
# when LOCK is set:
#
#   PTO_ISA_DIR=DIR [LOCK=/tmp/tilec-heavy.lock] [ONLY=REGEX] [BATCH=N] \
#       scripts/pto_werror.sh [CXX...]
#
# ONLY picks the test names (grep -E; default every '@pto' test: the check
# cases and the copy matrix's pairs, e.g. ONLY='^kernels:' for the cases);
# BATCH defaults to 1 (a batch of 10 holds the lock for about a minute).
# CXX defaults to g++ and clang++-19. A warning fails the case's build, so its
# test fails; the failures are listed per compiler with their first error line.
# Exit 0 when every case passes under every compiler. Run from the repository
# root after `make all`.
set -u
[ -n "${PTO_ISA_DIR:-}" ] || { echo "pto_werror: set PTO_ISA_DIR" >&2; exit 2; }
[ $# -gt 0 ] || set -- g++ clang++-19
export PTO_ISA_DIR TILEC_PTO_WERROR=1
cases=$(build/run_tests -l @pto | grep '@pto$' | grep -E "${ONLY:-.}")
total=$(printf '%s\n' "$cases" | grep -c .)
bad=0
for cxx in "$@"; do
    fails=0
    printf '%s\n' "$cases" | xargs -n "${BATCH:-1}" > /tmp/pto_werror.$$
    while read -r batch; do
        # shellcheck disable=SC2086 # a batch is several test names
        if [ -n "${LOCK:-}" ]; then
            out=$(TILEC_PTO_CXX=$cxx flock "$LOCK" timeout 1800 build/run_tests -j 1 $batch 2>&1)
        else
            out=$(TILEC_PTO_CXX=$cxx timeout 1800 build/run_tests -j 1 $batch 2>&1)
        fi
        for c in $batch; do
            line=$(printf '%s\n' "$out" | grep -A1 "^FAIL $c " | tail -1 | cut -c1-300)
            if [ -n "$line" ] || ! printf '%s\n' "$out" | grep -q ' failed$'; then
                fails=$((fails + 1))
                echo "$cxx FAIL $c: $line"
            fi
        done
    done < /tmp/pto_werror.$$
    rm -f /tmp/pto_werror.$$
    echo "$cxx: $((total - fails)) of $total tests pass with -Werror"
    [ $fails -eq 0 ] || bad=1
done
exit $bad
