#!/bin/sh
# The include rules of docs/architecture.md, checked: every `#include "dir/x.h"`
# of src/*/*.[ch] and tools/*.[ch] must be one its folder's row in the table
# "Folders and what they may include" allows. The table is read from the doc
# itself, so the doc and the check cannot disagree:
#  - the first column names the folders of a row (`src/NAME/`, `tools/`);
#  - the third lists what they may include, each item in backquotes: a folder
#    (`ir`: any of its public headers) or one header (`exec/tileop.h`); the words
#    "everything above" allow every folder of the rows above;
#  - a folder always includes its own headers, those of the other folders of its
#    row (one layer) and the headers of the public C API (include/, no folder in
#    the name);
#  - a folder's private headers (`*_int.h`, `*_impl.h`) are its own: no other
#    folder includes them, whatever its row says;
#  - a folder without a row is an error (a new folder needs its row).
# Usage: sh scripts/check_layers.sh [ROOT]   (default: the repository root)
# Prints each violation as FILE:LINE and exits 1, else one summary line.
set -eu
root=${1:-$(dirname "$0")/..}
cd "$root"
doc=docs/architecture.md
[ -f "$doc" ] || { echo "check_layers: no $doc in $root" >&2; exit 2; }
files=$(ls src/*/*.[ch] tools/*.[ch] 2>/dev/null || true)
[ -n "$files" ] || { echo "check_layers: no sources in $root" >&2; exit 2; }
# shellcheck disable=SC2086
awk -v doc="$doc" '
function folder_of(path,   p) {
    p = path
    sub(/^src\//, "", p)
    sub(/\/.*$/, "", p)
    return p
}
function private(hdr) { return hdr ~ /_(int|impl)\.h$/ }
BEGIN {
    intable = 0; nrows = 0
    while ((getline line < doc) > 0) {
        if (line ~ /^## /) { intable = (line ~ /^## Folders and what they may include/); continue }
        if (!intable || line !~ /^\| *`(src|tools)/) continue
        n = split(line, col, "|")   # col[1] is empty: the line starts with |
        if (n < 4) continue
        nrows++
        # what the row allows
        allow = ""
        if (col[4] ~ /everything above/) allow = above
        rest = col[4]
        while (match(rest, /`[^`]*`/)) {
            item = substr(rest, RSTART + 1, RLENGTH - 2)
            rest = substr(rest, RSTART + RLENGTH)
            allow = allow " " item
        }
        # the row folders: one layer, they may include each other
        rest = col[2]
        nf = 0
        while (match(rest, /`[^`]*`/)) {
            f = substr(rest, RSTART + 1, RLENGTH - 2)
            rest = substr(rest, RSTART + RLENGTH)
            sub(/\/$/, "", f)
            sub(/^src\//, "", f)
            row[++nf] = f
        }
        for (i = 1; i <= nf; i++) {
            allowed[row[i]] = allow
            for (j = 1; j <= nf; j++) if (j != i) allowed[row[i]] = allowed[row[i]] " " row[j]
            allowed[row[i]] = allowed[row[i]] " "
            has_row[row[i]] = 1
        }
        for (i = 1; i <= nf; i++) above = above " " row[i]
    }
    if (!nrows) { print "check_layers: no folder table in " doc > "/dev/stderr"; fatal = 1; exit 2 }
}
FNR == 1 {
    dir = (FILENAME ~ /^tools\//) ? "tools" : folder_of(FILENAME)
    nfiles++
    if (!(dir in has_row) && !(dir in missing)) {
        missing[dir] = 1
        printf "%s: the folder has no row in %s'"'"'s table of what each folder may include\n", \
            (dir == "tools" ? "tools/" : "src/" dir "/"), doc
        bad++
    }
}
/^[ \t]*#[ \t]*include[ \t]*"/ {
    hdr = $0
    sub(/^[^"]*"/, "", hdr)
    sub(/".*$/, "", hdr)
    if (hdr !~ /\//) next                     # own folder, or the public API (include/)
    to = hdr
    sub(/\/.*$/, "", to)
    if (to == dir) next
    cross++
    if (private(hdr)) {
        printf "%s:%d: includes %s, a private header of %s/\n", FILENAME, FNR, hdr, to
        bad++
        next
    }
    if (!(dir in has_row)) next
    if (index(allowed[dir], " " to " ") || index(allowed[dir], " " hdr " ")) next
    list = allowed[dir]
    gsub(/^ +| +$/, "", list)
    gsub(/ +/, ", ", list)
    printf "%s:%d: includes %s, but %s may include only: %s\n", FILENAME, FNR, hdr, \
        (dir == "tools" ? "tools/" : "src/" dir "/"), (list == "" ? "nothing" : list)
    bad++
}
END {
    if (fatal) exit 2
    if (bad) exit 1
    printf "check_layers: %d files, %d includes across folders, all as %s allows\n", nfiles, cross, doc
}
' $files
