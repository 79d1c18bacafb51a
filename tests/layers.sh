#!/bin/sh
# layers.sh: graft's folders are layers, and every #include points down
# (or within its own folder), never up or sideways.  The order, lowest
# first; folders on one line are siblings and may not include each other:
#
#   ir
#   text formats ref
#   passes
#   backends frontends dsl gen
#   interp plugin
#   explain
#   driver
#
# (bench/ and tests/ may include anything.)  Each test point is one source
# file; a failure names the include that breaks the order.
. "${srcdir:-.}/tests/lib.sh"

# rank FOLDER: the layer of a top-level folder, or nothing
rank() {
	case "$1" in
	ir) echo 0 ;;
	text|formats|ref) echo 1 ;;
	passes) echo 2 ;;
	backends|frontends|dsl|gen) echo 3 ;;
	interp|plugin) echo 4 ;;
	explain) echo 5 ;;
	driver) echo 6 ;;
	esac
}

# the folder of every header, by its base name: the sources' own, and
# those the build makes from grammar/ and frontends/onnx/onnx.proto
(cd "$srcdir" && find ir text formats ref passes backends frontends dsl gen interp plugin explain driver \
	\( -name '*.h' -o -name '*.def' \) | grep -v '\.tab\.h$\|\.pb-c\.h$') \
	| sed 's|^\([^/]*\)/\(.*/\)*\([^/]*\)$|\3 \1|' >"$tmpdir/headers"
printf 'relay.tab.h text\nrules.tab.h dsl\nonnx.pb-c.h frontends\n' >>"$tmpdir/headers"
dups=$(cut -d' ' -f1 "$tmpdir/headers" | sort | uniq -d)
ok "$([ -z "$dups" ]; echo $?)" "no two layers hold headers of one name${dups:+ ($dups)}"

(cd "$srcdir" && find ir text formats ref passes backends frontends dsl gen interp plugin explain driver \
	\( -name '*.c' -o -name '*.h' -o -name '*.re' -o -name '*.def' \) \
	! -name '*.tab.[ch]' ! -name '*.pb-c.[ch]' ! -name 'relay_lex.c' ! -name 'lex.c' | sort) >"$tmpdir/files"
# grammar/ belongs to the layer that builds its parser
printf 'grammar/relay.y text\ngrammar/rules.y dsl\n' >"$tmpdir/grammars"

n=0
while read -r f; do
	top=${f%%/*}
	r=$(rank "$top")
	bad=""
	for inc in $(sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$srcdir/$f"); do
		b=${inc##*/}
		at=$(awk -v h="$b" '$1 == h { print $2; exit }' "$tmpdir/headers")
		[ -n "$at" ] || { bad="$bad $inc (no such header in a layer)"; continue; }
		[ "$at" = "$top" ] && continue
		ar=$(rank "$at")
		if [ "$ar" -ge "$r" ]; then
			bad="$bad $inc ($at/ is not below $top/)"
		fi
	done
	n=$((n + 1))
	ok "$([ -z "$bad" ]; echo $?)" "$f includes only its own layer's headers and those below${bad:+:$bad}"
done <"$tmpdir/files"
while read -r f top; do
	r=$(rank "$top")
	bad=""
	for inc in $(sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$srcdir/$f"); do
		at=$(awk -v h="${inc##*/}" '$1 == h { print $2; exit }' "$tmpdir/headers")
		[ "$at" = "$top" ] && continue
		[ -n "$at" ] && [ "$(rank "$at")" -lt "$r" ] && continue
		bad="$bad $inc"
	done
	ok "$([ -z "$bad" ]; echo $?)" "$f (the $top layer's grammar) includes nothing above it${bad:+:$bad}"
done <"$tmpdir/grammars"
ok "$([ "$n" -gt 50 ]; echo $?)" "every layer's sources were read ($n files)"

done_testing
