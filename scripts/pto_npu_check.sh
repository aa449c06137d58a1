#!/bin/sh
# The NPU flavour of an emitted PTO kernel, type-checked without CANN: the
# kernel's two passes (bisheng's __DAV_C220_CUBE__ and __DAV_C220_VEC__) built
# with g++ -fsyntax-only against pto-isa's A2/A3 instruction templates as its
# costmodel build compiles them on a host (-D__COSTMODEL: the a2a3 headers with
# the hardware intrinsics stubbed). The host launch (bisheng's <<<>>>) is cut
# off, and TFILLPAD / TFILLPAD_INPLACE, which that build does not implement,
# are stubbed. It checks types, static assertions (tile layouts, dtypes) and
# warnings, not what runs on a device.
#
#   PTO_ISA_DIR=~/pto-isa scripts/pto_npu_check.sh KERNEL.py [tilec emit options]
#
# Exit status 0 when both passes compile with -Wall -Wextra -Werror, 1 when one
# does not, 3 when one uses an instruction the costmodel build does not
# implement (TEXPANDS, TCOLEXPAND, ...: not covered; nothing else failed).
set -eu
: "${PTO_ISA_DIR:?set PTO_ISA_DIR to a pto-isa checkout}"
TILEC=${TILEC:-build/tilec}
CXX=${CXX:-g++}
[ $# -ge 1 ] || { echo "usage: $0 KERNEL.py [tilec emit options]" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/pto-npu-XXXXXX")
trap 'rm -rf "$work"' EXIT
# pto-isa's costmodel headers include two generated files: generate them in a copy
cp -r "$PTO_ISA_DIR/include" "$work/inc"
for arch in a2a3 a5; do
    gen="$work/inc/pto/costmodel/$arch/formula_costmodel/gen_formula_params_header.py"
    [ -f "$gen" ] && python3 "$gen" >/dev/null
done
src=$1
shift
"$TILEC" emit "$src" --target pto -o "$work/out" "$@" >/dev/null
python3 - "$work/out/main.cpp" "$work/out/body.cpp" <<'PY'
import sys
s = open(sys.argv[1]).read()
cut = s.find("#if !defined(__CPU_SIM) && !defined(__CCE_AICORE__)")
if cut >= 0:
    s = s[:cut]
s += """
// pto-isa's costmodel build has no TFILLPAD implementation: stubs for the type check
namespace pto {
template <typename D, typename S> void TFILLPAD_IMPL(D &, S &) {}
template <typename T, PadValue P> void TFILLPAD_IMPL(T &, T &) {}
template <typename D, typename S> void TFILLPAD_INPLACE_IMPL(D &, S &) {}
}
"""
open(sys.argv[2], "w").write(s)
PY
rc=0
for pass in __DAV_C220_CUBE__ __DAV_C220_VEC__; do
    if ! "$CXX" -std=c++23 -fsyntax-only -Wall -Wextra -Werror -D__COSTMODEL -D__NPU_ARCH__=2201 \
        -DPTO_COMM_NOT_SUPPORTED -D$pass -isystem "$work/inc" -I"$work/out" "$work/out/body.cpp" \
        >"$work/log" 2>&1; then
        # an instruction the costmodel build does not implement is not a finding
        missing=$(grep -o "T[A-Z0-9_]*_IMPL[^ ]* was not declared" "$work/log" | sed 's/_IMPL.*//' | sort -u |
            tr '\n' ' ')
        if [ -n "$missing" ] && [ "$(grep -c 'error:' "$work/log")" -eq \
            "$(grep -c "_IMPL[^ ]* was not declared" "$work/log")" ]; then
            echo "$src: the $pass pass is not covered: pto-isa's costmodel build lacks $missing" >&2
            [ $rc -eq 0 ] && rc=3
        else
            cat "$work/log" >&2
            echo "$src: the $pass pass does not compile" >&2
            rc=1
        fi
    fi
done
[ $rc -eq 0 ] && echo "$src: both NPU passes compile (pto-isa costmodel, $CXX)"
exit $rc
