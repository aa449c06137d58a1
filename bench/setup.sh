#!/bin/sh
# Installs what the benchmarks compare against (Debian packages, needs root):
# oneDNN (int8 matmul) and OpenBLAS (sgemm). Already installed: nothing to do.
set -eu
need=""
for p in libdnnl-dev libopenblas-dev; do
    dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
done
[ -z "$need" ] && exit 0
if [ "$(id -u)" != 0 ]; then
    echo "bench/setup.sh: run as root to install:$need" >&2
    exit 1
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
