#!/bin/sh
# Builds and runs the libFuzzer targets in fuzz/ for a bounded time each.
#   scripts/fuzz.sh CC FLAGS SECONDS TARGET...
# The library is compiled once with FLAGS (instrumented for fuzzing and the
# sanitizers) into build/fuzz/obj/, then each target is linked with
# -fsanitize=fuzzer. Seed corpora: kernel files and the nesting generators of
# fuzz/seeds/front (front; fuzz/nest.h), the .npy test files
# (npy), random bytes (passes). A finding (crash, sanitizer report, leak,
# time-out, out-of-memory) stops that target and fails the run; the script
# prints the first error line and the input, kept under build/fuzz/TARGET/crashes/.
set -u
cc=$1 flags=$2 secs=$3
shift 3
if ! command -v "$cc" >/dev/null 2>&1; then
    echo "fuzz: $cc not found (apt-get install clang libclang-rt-14-dev)"; exit 1
fi
obj=build/fuzz/obj
mkdir -p "$obj"
echo "fuzz: compiling the library"
# shellcheck disable=SC2086
ls src/*/*.c | xargs -P 2 -I{} sh -c 'o='"$obj"'/$(echo {} | tr / _).o; [ "$o" -nt {} ] || '"$cc $flags"' -DTILEC_VERSION="\"fuzz\"" -c {} -o "$o"' || exit 1
status=0
for t in "$@"; do
    dir=build/fuzz/$t
    mkdir -p "$dir/corpus" "$dir/crashes"
    case $t in
    front) find kernels tests/data/bad tests/data/ir tests/data/parse fuzz/seeds/front -name '*.py' -exec cp {} "$dir/corpus/" \; 2>/dev/null ;;
    npy) find tests/data/npy -name '*.npy' -exec cp {} "$dir/corpus/" \; 2>/dev/null ;;
    passes) [ -e "$dir/corpus/seed0" ] || head -c 96 /dev/urandom > "$dir/corpus/seed0" ;;
    esac
    # shellcheck disable=SC2086
    if ! $cc $flags -fsanitize=fuzzer -DTILEC_VERSION='"fuzz"' -o "$dir/fuzz_$t" "fuzz/fuzz_$t.c" "$obj"/*.o -lm -lpthread -ldl; then
        echo "fuzz: building $t failed"; status=1; continue
    fi
    echo "fuzz: running $t for ${secs}s"
    if ! "$dir/fuzz_$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=4096 \
        -artifact_prefix="$dir/crashes/" -print_final_stats=1 "$dir/corpus" >"$dir/log.txt" 2>&1; then
        tail -40 "$dir/log.txt"
        # the finding: the sanitizer's or libFuzzer's first error line, and the input
        why=$(grep -m1 -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|SUMMARY: ' "$dir/log.txt")
        unit=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$dir/log.txt" | tail -1)
        echo "fuzz: $t FAILED: ${why:-no error line, see $dir/log.txt}"
        if [ -n "$unit" ]; then
            echo "fuzz: $t reproducer: $unit (reproduce with: $dir/fuzz_$t $unit)"
        fi
        status=1
    else
        grep -E "stat::number_of_executed_units|stat::new_units_added" "$dir/log.txt" | sed "s/^/fuzz: $t /"
    fi
done
exit $status
