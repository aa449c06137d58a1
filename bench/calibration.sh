#!/bin/sh
# The simulator against published NPU measurements (`make bench-calibration`).
# For each record of bench/calibration.rows: `tilec sim` of the same work, its
# device time (time_us: kernel start + the busiest core), the measured time,
# their ratio and what the row's role makes of it. Ends with the line
# "calibration: A of B within [0.80, 1.25]" over the fit and test rows that ran.
#
#   sh bench/calibration.sh [ID...]     (from the repository root)
#   TILEC=build/tilec                   the binary
#   TILEC_UPSTREAM=/work/upstream       where @up/ kernel files are (never committed)
#   BENCH_JSON_DIR=DIR                  keep each row's JSON report there
set -u
TILEC=${TILEC:-build/tilec}
UP=${TILEC_UPSTREAM:-/work/upstream}
ROWS=${ROWS:-bench/calibration.rows}
LO=0.80
HI=1.25
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
json_dir=${BENCH_JSON_DIR:-$tmp}
ids="$*"
mkdir -p "$json_dir" || exit 2

# One line per record, fields separated by the unit separator (an empty field stays one): id role measured arch source chip method work note run.
awk -v OFS="$(printf '\037')" '
function flush() {
    if (id != "") print id, role, meas, arch, f["source"], f["chip"], f["method"], f["work"], f["note"], f["run"]
    id = ""; split("", f)
}
/^#/ || /^[ \t]*$/ { next }
/^[^ \t]/ { flush(); id = $1; role = $2; meas = $3; arch = $4; next }
{ key = $1; sub(/^[ \t]*[a-z]+[ \t]+/, ""); f[key] = $0 }
END { flush() }' "$ROWS" >"$tmp/rows" || exit 2

printf '%-5s %-7s %11s %11s %7s  %s\n' row role "tilec us" "measured" ratio verdict
fit=0
fit_ok=0
skipped=""
sep=$(printf '\037')
while IFS="$sep" read -r id role meas arch source chip method work note run; do
    case " ${ids:-$id} " in *" $id "*) ;; *) continue ;; esac
    if [ "$run" = "-" ]; then
        printf '%-5s %-7s %11s %11s %7s  %s\n' "$id" "$role" - "$meas" - "not runnable: $note"
        continue
    fi
    kernel=${run%% *}
    rest=${run#"$kernel"}
    case $kernel in @up/*) kernel="$UP/${kernel#@up/}" ;; esac
    if [ ! -f "$kernel" ]; then
        printf '%-5s %-7s %11s %11s %7s  %s\n' "$id" "$role" - "$meas" - "skipped: $kernel not present"
        skipped="$skipped $id"
        continue
    fi
    js="$json_dir/$id.json"
    key=$(printf '%s %s' "$arch" "$run" | cksum | tr ' ' _)
    eval "set -- $rest" # the row's arguments are shell words
    if [ -f "$tmp/$key" ]; then # a row on the same run as an earlier one
        cp "$tmp/$key" "$js"
    elif "$TILEC" sim "$kernel" "$@" --arch "$arch" --no-races --json "$js" >"$tmp/out" 2>&1; then
        cp "$js" "$tmp/$key"
    else
        printf '%-5s %-7s %11s %11s %7s  %s\n' "$id" "$role" - "$meas" - \
            "failed: $(grep -m1 -i 'error' "$tmp/out")"
        [ "$role" = fit ] || [ "$role" = test ] && fit=$((fit + 1))
        continue
    fi
    pred=$(sed -n 's/.*"time_us": \([0-9.]*\).*/\1/p' "$js" | head -n 1)
    verdict=$(awk -v p="$pred" -v m="$meas" -v r="$role" -v lo=$LO -v hi=$HI 'BEGIN {
        q = p / m
        if (r == "fit" || r == "test") v = (q >= lo && q <= hi) ? "ok" : "OUT"
        else if (r == "bound") v = q >= lo ? "bound ok" : "bound violated (tilec faster than the measured implementation)"
        else if (r == "host") v = q <= hi ? "bound ok (host-inclusive measurement)" : "bound violated"
        else if (r == "outlier") v = "outlier"
        else v = "held out"
        printf "%.3f %s", q, v }')
    ratio=${verdict%% *}
    verdict=${verdict#* }
    [ "$role" = outlier ] && verdict="outlier: $note"
    printf '%-5s %-7s %11.2f %11.2f %7s  %s\n' "$id" "$role" "$pred" "$meas" "$ratio" "$verdict"
    if [ "$role" = fit ] || [ "$role" = test ]; then
        fit=$((fit + 1))
        [ "$verdict" = ok ] && fit_ok=$((fit_ok + 1))
    fi
done <"$tmp/rows"
[ -n "$skipped" ] && echo "skipped (upstream kernel file not under $UP):$skipped"
echo "calibration: $fit_ok of $fit within [$LO, $HI]"
