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
#   api
#   driver
#
# (bench/ and tests/ may include anything.)  Each test point is one source
# file; a failure names the include that breaks the order.
#
# Functions keep the same order: a file names (calls, declares, takes the
# address of) only functions defined in its own folder or a layer below, so
# ir/ir.h declares nothing that text/print.c defines and ir/infer.c calls
# nothing in text/.  A failure names the function and the folder defining it.
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
	api) echo 6 ;;
	driver) echo 7 ;;
	esac
}
layers="ir text formats ref passes backends frontends dsl gen interp plugin explain api driver"

# The function check, in awk.  code() drops comments and string and
# character literals (incom: inside a comment that a line left open).
awkcode=$(cat <<'EOF'
function code(s,    out, t, re, p) {
	out = ""
	for (;;) {
		if (incom) {
			if (!(p = index(s, "*/")))
				return out
			s = substr(s, p + 2)
			incom = 0
		}
		if (!match(s, /\/\*|\/\/|["']/))
			return out s
		out = out substr(s, 1, RSTART - 1) " "
		t = substr(s, RSTART, RLENGTH)
		s = substr(s, RSTART + RLENGTH)
		if (t == "/*") {
			incom = 1
			continue
		}
		if (t == "//")
			return out
		re = t == "\"" ? "^([^\"\\\\]|\\\\.)*\"" : "^([^'\\\\]|\\\\.)*'"
		s = match(s, re) ? substr(s, RLENGTH + 1) : ""
	}
}
EOF
)

# defs FILE...: "NAME FILE" for each function FILE defines with external
# linkage, in graft's layout: the type on a line of its own, then the name
# at the start of the next line
defs() {
	awk "$awkcode"'
	FNR == 1 { incom = 0; prev = "" }
	{
		c = code($0)
		if (c ~ /^[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/ && prev ~ /[A-Za-z_*]$/ && prev !~ /static|^#/) {
			n = c
			sub(/[ \t]*\(.*/, "", n)
			if (n != "main")
				print n, FILENAME
		}
		if (c ~ /[^ \t]/)
			prev = c
		sub(/[ \t]+$/, "", prev)
	}' "$@"
}

# uprefs DEFS FILE...: "FILE: NAME (DIR/)" for each function FILE names
# that DEFS (defs' output) puts in a folder DIR not below FILE's own (as
# rank orders them; grammar/relay.y is text's, grammar/rules.y dsl's).
# Members (x.f, p->f) are not names of functions.
uprefs() {
	awk -v ranks="$(for d in $layers; do echo "$d $(rank "$d")"; done)" "$awkcode"'
	BEGIN {
		n = split(ranks, r, " ")
		for (i = 1; i < n; i += 2)
			rank[r[i]] = r[i + 1]
	}
	NR == FNR { d = $2; sub(/\/.*/, "", d); at[$1] = d; next }
	FNR == 1 {
		incom = 0
		top = FILENAME
		sub(/\/.*/, "", top)
		if (top == "grammar")
			top = FILENAME ~ /relay/ ? "text" : "dsl"
	}
	{
		s = " " code($0)
		while (match(s, /[^A-Za-z0-9_.>][A-Za-z_][A-Za-z0-9_]*/)) {
			id = substr(s, RSTART + 1, RLENGTH - 1)
			s = substr(s, RSTART + RLENGTH)
			if ((id in at) && at[id] != top && rank[at[id]] >= rank[top] && !((FILENAME, id) in seen)) {
				seen[FILENAME, id] = 1
				print FILENAME ": " id " (" at[id] "/)"
			}
		}
	}' "$@"
}

# the folder of every header, by its base name: the sources' own, and
# those the build makes from grammar/ and frontends/onnx/onnx.proto
(cd "$srcdir" && find $layers \
	\( -name '*.h' -o -name '*.def' \) | grep -v '\.tab\.h$\|\.pb-c\.h$') \
	| sed 's|^\([^/]*\)/\(.*/\)*\([^/]*\)$|\3 \1|' >"$tmpdir/headers"
printf 'relay.tab.h text\nrules.tab.h dsl\nonnx.pb-c.h frontends\n' >>"$tmpdir/headers"
dups=$(cut -d' ' -f1 "$tmpdir/headers" | sort | uniq -d)
ok "$([ -z "$dups" ]; echo $?)" "no two layers hold headers of one name${dups:+ ($dups)}"

(cd "$srcdir" && find $layers \
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

# the functions each file names, against where they are defined
(cd "$srcdir" && defs $(grep '\.c$\|\.re$' "$tmpdir/files")) >"$tmpdir/defs"
(cd "$srcdir" && uprefs "$tmpdir/defs" $(cat "$tmpdir/files") grammar/relay.y grammar/rules.y) >"$tmpdir/uprefs"
ndefs=$(wc -l <"$tmpdir/defs" | tr -d ' ')
ok "$([ "$ndefs" -gt 300 ]; echo $?)" "the functions every layer defines were found ($ndefs)"
for f in $(cat "$tmpdir/files") grammar/relay.y grammar/rules.y; do
	bad=$(awk -v f="$f" 'index($0, f ": ") == 1 { printf " %s %s", $2, $3 }' "$tmpdir/uprefs")
	ok "$([ -z "$bad" ]; echo $?)" "$f names no function defined above or beside its layer${bad:+:$bad}"
done

# the check itself: a tree as ir/ and text/ once were (ir/ir.h declaring
# and ir/infer.c calling what text/print.c defines) fails it, the
# declaration and the call each named; a member, a string or a comment
# naming the function does not
mkdir -p "$tmpdir/tree/ir" "$tmpdir/tree/text"
printf '/* ir_type_str(), in text/ */\nchar *ir_type_str(const Module *m, TypeId t, char *buf, size_t size);\n' \
	>"$tmpdir/tree/ir/ir.h"
printf 'static char *\ntystr(Module *m, TypeId t, char *b, size_t n)\n{\n\treturn ir_type_str(m, t, b, n);\n}\n' \
	>"$tmpdir/tree/ir/infer.c"
printf 'int\nir_verify(Module *m)\n{\n\treturn m->ir_type_str(0) + puts("ir_type_str(");\n}\n' \
	>"$tmpdir/tree/ir/verify.c"
printf 'char *\nir_type_str(const Module *m, TypeId t, char *buf, size_t size)\n{\n\treturn ir_verify(0);\n}\n' \
	>"$tmpdir/tree/text/print.c"
(cd "$tmpdir/tree" && defs ir/infer.c ir/verify.c text/print.c >defs &&
	uprefs defs ir/ir.h ir/infer.c ir/verify.c text/print.c) >"$tmpdir/tree/got"
printf 'ir/ir.h: ir_type_str (text/)\nir/infer.c: ir_type_str (text/)\n' >"$tmpdir/tree/want"
same_file "$tmpdir/tree/got" "$tmpdir/tree/want" \
	"the check catches a lower layer's header declaring, and its code calling, a higher layer's function"
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
