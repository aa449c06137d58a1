#!/bin/sh
# The simulator against published NPU measurements (`make bench-calibration`).
# For each record of bench/calibration.rows: `tilec sim` of the same work, its
# device time (time_us: kernel start + the busiest core), the measured time,
# their ratio and what the row's role makes of it. Ends with the line
# "calibration: A of B within [0.80, 1.25]" over the fit and test rows that ran
# (the developer-mode brackets and the bounds are counted on lines of their own).
# A run whose kernel file fails one of tilec's checks (exit 1, e.g. its own
# unconsumed cross-core flags) still has its time: the verdict names the check.
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

# One line per record, fields separated by the unit separator (an empty field
# stays one): id role measured arch source chip method work note run pipes.
awk -v OFS="$(printf '\037')" '
function flush() {
    if (id != "") print id, role, meas, arch, f["source"], f["chip"], f["method"], f["work"], f["note"], f["run"], f["pipes"]
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
brackets=0
brackets_ok=0
bounds=0
bounds_ok=0
while IFS="$sep" read -r id role meas arch source chip method work note run pipes; do
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
    checked="" # a check tilec failed (exit 1: the file's own sync misuse) on a run it timed
    rm -f "$js"
    if [ -f "$tmp/$key" ]; then # a row on the same run as an earlier one
        cp "$tmp/$key" "$js"
    elif "$TILEC" sim "$kernel" "$@" --arch "$arch" --no-races --json "$js" >"$tmp/out" 2>&1; then
        cp "$js" "$tmp/$key"
    elif [ $? -eq 1 ] && [ -s "$js" ]; then
        checked=" (tilec: $(grep -m1 'error:' "$tmp/out" | sed 's/.*error: //'))"
    else
        printf '%-5s %-7s %11s %11s %7s  %s\n' "$id" "$role" - "$meas" - \
            "failed: $(grep -m1 -i 'error' "$tmp/out")"
        [ "$role" = fit ] || [ "$role" = test ] && fit=$((fit + 1))
        continue
    fi
    pred=$(sed -n 's/.*"time_us": \([0-9.]*\).*/\1/p' "$js" | head -n 1)
    base=0
    if [ "$role" = bracket ]; then # the same kernel with a barrier after every op
        "$TILEC" sim "$kernel" "$@" --arch "$arch" --no-races --json "$tmp/base.json" \
            --pass-config tl.tilec_sync_baseline=True >"$tmp/out" 2>&1 &&
            base=$(sed -n 's/.*"time_us": \([0-9.]*\).*/\1/p' "$tmp/base.json" | head -n 1)
    fi
    verdict=$(awk -v p="$pred" -v b="$base" -v m="$meas" -v r="$role" -v lo=$LO -v hi=$HI 'BEGIN {
        q = p / m
        if (r == "fit" || r == "test") v = (q >= lo && q <= hi) ? "ok" : "OUT"
        else if (r == "bracket")
            v = sprintf("%s: tilec sync %.3f, barrier after every op %.3f (%.2f us)",
                        q <= hi && b / m >= lo ? "bracket holds" : "bracket FAILS", q, b / m, b)
        else if (r == "bound") v = q >= lo ? "bound ok" : "bound violated (tilec faster than the measured implementation)"
        else if (r == "host") v = q <= hi ? "bound ok (host-inclusive measurement)" : "bound violated"
        else if (r == "outlier") v = "outlier"
        else v = "held out"
        printf "%.3f %s", q, v }')
    ratio=${verdict%% *}
    verdict=${verdict#* }
    [ "$role" = outlier ] && verdict="outlier: $note"
    printf '%-5s %-7s %11.2f %11.2f %7s  %s\n' "$id" "$role" "$pred" "$meas" "$ratio" "$verdict$checked"
    if [ -n "$pipes" ]; then # msprof's per-pipe time per core against tilec's
        # tilec's busy time (occupancy) .. its time in flight (start to completion)
        awk -v want="$pipes" -v js="$js" '
        function pcts(l, into,    v, n, kv, x, i) {
            v = l; sub(".*\"" core "\": [{]", "", v); sub(/\}.*/, "", v)
            n = split(v, kv, /, /)
            for (i = 1; i <= n; i++) { split(kv[i], x, /": /); gsub(/"/, "", x[1]); into[x[1]] = x[2] }
        }
        BEGIN {
            core = "aiv"
            if (want ~ /^ai[cv] /) { core = substr(want, 1, 3); want = substr(want, 5) }
            while ((getline l < js) > 0) {
                if (l ~ /"cycles":/) { c = l; sub(/.*"cycles": /, "", c); sub(/,.*/, "", c) }
                if (l ~ /"clock_mhz":/) { k = l; sub(/.*"clock_mhz": /, "", k); sub(/,.*/, "", k) }
                if (l ~ /^  "pipes":/) pcts(l, busy)
                if (l ~ /^  "in_flight":/) pcts(l, fly)
            }
            line = "      per " (core == "aic" ? "cube" : "vector") " core, tilec busy..in flight / msprof us:"
            n = split(want, w, / /)
            for (i = 1; i <= n; i++) {
                split(w[i], x, /=/)
                line = line sprintf(" %s %.0f..%.0f / %s", x[1], busy[x[1]] / 100 * c / k,
                                    fly[x[1]] / 100 * c / k, x[2])
            }
            print line }'
    fi
    case $role in
    fit | test)
        fit=$((fit + 1))
        [ "$verdict" = ok ] && fit_ok=$((fit_ok + 1))
        ;;
    bracket)
        brackets=$((brackets + 1))
        case $verdict in "bracket holds"*) brackets_ok=$((brackets_ok + 1)) ;; esac
        ;;
    bound | host)
        bounds=$((bounds + 1))
        case $verdict in "bound ok"*) bounds_ok=$((bounds_ok + 1)) ;; esac
        ;;
    esac
done <"$tmp/rows"
[ -n "$skipped" ] && echo "skipped (upstream kernel file not under $UP):$skipped"
echo "developer-mode brackets: $brackets_ok of $brackets hold (measured between tilec's sync and a barrier after every op)"
echo "bounds (other implementations, host-inclusive timings): $bounds_ok of $bounds hold"
echo "calibration: $fit_ok of $fit within [$LO, $HI]"
