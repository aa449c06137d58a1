#!/bin/sh
# The emitted code of every --target pto check case built with -Werror (plus the
# target's -Wall -Wextra) by each compiler named, one case at a time, each under
# the shared lock when LOCK is set:
#
#   PTO_ISA_DIR=DIR [LOCK=/tmp/tilec-heavy.lock] [ONLY=REGEX] scripts/pto_werror.sh [CXX...]
#
# ONLY picks the test names (grep -E; default every '@pto' test: the check
# cases and the copy matrix's pairs, e.g. ONLY='^kernels:' for the cases).
# CXX defaults to g++ and clang++-19. A warning fails the case's build, so its
# test fails; the failures are listed per compiler with the first error line.
# Exit 0 when every case passes under every compiler. Run from the repository
# root after `make all`.
set -u
[ -n "${PTO_ISA_DIR:-}" ] || { echo "pto_werror: set PTO_ISA_DIR" >&2; exit 2; }
[ $# -gt 0 ] || set -- g++ clang++-19
TILEC=${TILEC:-build/tilec}
export PTO_ISA_DIR TILEC TILEC_PTO_WERROR=1
cases=$(build/run_tests -l @pto | grep '@pto$' | grep -E "${ONLY:-.}")
bad=0
for cxx in "$@"; do
    n=0 fails=0
    for c in $cases; do
        n=$((n + 1))
        if [ -n "${LOCK:-}" ]; then
            out=$(TILEC_PTO_CXX=$cxx flock "$LOCK" timeout 900 build/run_tests -j 1 "$c" 2>&1)
        else
            out=$(TILEC_PTO_CXX=$cxx timeout 900 build/run_tests -j 1 "$c" 2>&1)
        fi
        if ! printf '%s\n' "$out" | grep -q ', 0 failed'; then
            fails=$((fails + 1))
            echo "$cxx FAIL $c: $(printf '%s\n' "$out" | grep -m1 -E 'error|warning|differs' | cut -c1-300)"
        fi
    done
    echo "$cxx: $((n - fails)) of $n cases pass with -Werror"
    [ $fails -eq 0 ] || bad=1
done
exit $bad
