#!/bin/sh
# Installs what the tests (and, with the argument "fuzz", the fuzzers) use beyond
# gcc and make, on Debian 12:
#   python3-numpy            checks that our .npy files open in NumPy; the Python binding
#   pkg-config               the install test builds examples/embed.c with it
#   clang libclang-rt-14-dev libFuzzer (fuzz only)
# Runs apt-get only when something is missing and we are root; otherwise says
# what is missing (the tests that need it are then reported as skipped).
set -u
need=""
/usr/bin/python3 -c 'import numpy' 2>/dev/null || need="$need python3-numpy"
command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
if [ "${1:-}" = fuzz ]; then
    command -v clang >/dev/null 2>&1 || need="$need clang"
    ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 ||
        need="$need libclang-rt-14-dev"
fi
[ -z "$need" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing$need"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null && apt-get install -y -qq $need >/dev/null ||
        echo "setup: apt-get failed; continuing without$need"
else
    echo "setup: missing$need (run as root on Debian to install); dependent tests will be skipped"
fi
exit 0
