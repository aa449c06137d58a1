#!/bin/sh
# The C++ compiler of test_pto_run.c's same-key build test (TILEC_PTO_CXX):
# clang++-19 (else c++), but before its first link it runs $TL_NESTED_RUN, a
# whole `tilec run --target pto` of the same kernel into the same cache (with
# this compiler, so the same key): a second process that builds, links and
# cleans up between this build's compile and its link.
cxx=$(command -v clang++-19 || echo c++)
case " $* " in
*" -c "* | *" --version "*) ;;
*)
    if [ -n "$TL_NESTED_RUN" ]; then
        nested=$TL_NESTED_RUN
        unset TL_NESTED_RUN
        $nested > /dev/null 2>&1 || { echo "the nested build failed: $nested" >&2; exit 99; }
    fi
    ;;
esac
exec "$cxx" "$@"
