#!/bin/sh
# Builds and runs the libFuzzer targets in fuzz/ for a bounded time each.
#   scripts/fuzz.sh CC FLAGS SECONDS TARGET...
# Seed corpora: kernel files (front) and .npy test files (npy). A crash stops
# that target and fails the run; its input is kept under build/fuzz/TARGET/.
set -u
cc=$1 flags=$2 secs=$3
shift 3
if ! command -v "$cc" >/dev/null 2>&1; then
    echo "fuzz: $cc not found (apt-get install clang libclang-rt-14-dev)"; exit 1
fi
lib_src=$(ls src/*/*.c)
status=0
for t in "$@"; do
    dir=build/fuzz/$t
    mkdir -p "$dir/corpus" "$dir/crashes"
    case $t in
    front) find kernels tests/data/bad tests/data/ir tests/data/parse -name '*.py' -exec cp {} "$dir/corpus/" \; 2>/dev/null ;;
    npy) find tests/data/npy -name '*.npy' -exec cp {} "$dir/corpus/" \; 2>/dev/null ;;
    passes) head -c 96 /dev/urandom > "$dir/corpus/seed0" ;;
    esac
    echo "fuzz: building $t"
    # shellcheck disable=SC2086
    if ! $cc $flags -o "$dir/fuzz_$t" "fuzz/fuzz_$t.c" $lib_src -lm -lpthread -ldl; then
        echo "fuzz: building $t failed"; status=1; continue
    fi
    echo "fuzz: running $t for ${secs}s"
    if ! "$dir/fuzz_$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=4096 \
        -artifact_prefix="$dir/crashes/" -print_final_stats=1 "$dir/corpus" >"$dir/log.txt" 2>&1; then
        echo "fuzz: $t FAILED (see $dir/log.txt and $dir/crashes/)"; tail -30 "$dir/log.txt"; status=1
    else
        grep -E "stat::number_of_executed_units|stat::new_units_added" "$dir/log.txt" | sed "s/^/fuzz: $t /"
    fi
done
exit $status
