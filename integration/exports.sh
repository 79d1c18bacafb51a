#!/bin/sh
# exports.sh: the names libgraft exports, one per line, sorted: the
# functions and objects the archives define that the public headers name
# (their comments left out).  What no public header declares stays hidden.
#
#   CC=cc NM=nm sh exports.sh 'HEADER...' ARCHIVE...
set -eu
headers=$1
shift
tmp=${TMPDIR:-/tmp}/graft-exports.$$
trap 'rm -f "$tmp".*' EXIT
# the identifiers of the headers, comments stripped by the preprocessor
for h in $headers; do
	${CC:-cc} -w -fpreprocessed -dD -E -P -x c "$h"
done | tr -c 'A-Za-z0-9_' '\n' | grep -E '^[A-Za-z_][A-Za-z0-9_]*$' | LC_ALL=C sort -u >"$tmp.names"
# the global functions and data the archives define
${NM:-nm} -g --defined-only "$@" 2>/dev/null | awk 'NF == 3 && $2 ~ /^[TDRB]$/ { print $3 }' |
	LC_ALL=C sort -u >"$tmp.defined"
LC_ALL=C comm -12 "$tmp.names" "$tmp.defined"
