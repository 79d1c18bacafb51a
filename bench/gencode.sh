#!/bin/sh
# gencode.sh [SRCDIR [RUNS]]: what the generated matchers in SRCDIR/gen
# cost to build: per file, its lines and functions, the bytes of code the
# C compiler makes of it at -O2 (.text), and the median of RUNS compiles
# (default 5).  Run it on another checkout's SRCDIR to compare two
# versions of graftc side by side.
src=${1:-.}
runs=${2:-5}
cc=${CC:-cc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/graft-gencode.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

inc="-I$src/ir -I$src/passes"
[ -d "$src/passes" ] || inc="-I$src/ir"     # before the layout of 795a00d

printf '%-24s %7s %6s %10s %11s\n' file lines funcs ".text B" "compile ms"
tl=0 tf=0 tt=0 tm=0
for f in $(cd "$src" && ls gen/*.c gen/examples/*.c); do
	lines=$(wc -l <"$src/$f")
	funcs=$(grep -c '^[A-Za-z_][A-Za-z0-9_]*(' "$src/$f")
	: >"$tmp/times"
	i=0
	while [ "$i" -lt "$runs" ]; do
		s=$(date +%s%N)
		"$cc" -std=c11 -O2 $inc -c "$src/$f" -o "$tmp/o.o" || exit 1
		e=$(date +%s%N)
		echo $(((e - s) / 1000000)) >>"$tmp/times"
		i=$((i + 1))
	done
	ms=$(sort -n "$tmp/times" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	text=$(size -A "$tmp/o.o" | awk '$1 == ".text" { print $2 }')
	printf '%-24s %7d %6d %10d %11d\n' "$f" "$lines" "$funcs" "$text" "$ms"
	tl=$((tl + lines)) tf=$((tf + funcs)) tt=$((tt + text)) tm=$((tm + ms))
done
printf '%-24s %7d %6d %10d %11d\n' total "$tl" "$tf" "$tt" "$tm"
