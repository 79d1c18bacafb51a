#!/bin/sh
# headers.sh: every public header (GRAFT_HEADERS, what make install puts
# in $(includedir)/graft) compiles on its own, included as <graft/NAME>,
# as C11 with -Wall -Wextra -pedantic -Werror and as C++ (many NPU
# toolchains are C++): declarations only, so -fsyntax-only.  Together they
# are at most 1,000 lines, and every name they declare (macros, types,
# tags, enumerators, functions) starts with graft_ or GRAFT_, but for the
# words of <graft/scalar.h>, documented as short.
. "${srcdir:-.}/tests/lib.sh"
: "${GRAFT_HEADERS:?GRAFT_HEADERS must list the public headers}"
cc=${CC:-cc}
cxx=${CXX:-c++}

# the installed layout: one folder graft/ holding every header
mkdir "$tmpdir/graft"
for h in $GRAFT_HEADERS; do
	if [ -f "$srcdir/$h" ]; then
		ln -s "$(cd "$srcdir" && pwd)/$h" "$tmpdir/graft/${h##*/}"
	else
		ln -s "$(cd "${builddir:-.}" && pwd)/$h" "$tmpdir/graft/${h##*/}"
	fi
done
n=0
for h in $GRAFT_HEADERS; do
	b=${h##*/}
	case "$b" in *.def) continue ;; esac
	printf '#include <graft/%s>\ntypedef int graft_header_test;\n' "$b" >"$tmpdir/t.c"
	"$cc" -std=c11 -Wall -Wextra -pedantic -Werror -fsyntax-only -I"$tmpdir" "$tmpdir/t.c" 2>"$tmpdir/err"
	st=$?
	ok "$st" "<graft/$b> compiles on its own as C11 -Wall -Wextra -pedantic -Werror"
	[ "$st" -eq 0 ] || sed 's/^/#   /' "$tmpdir/err" | head -n 10
	if command -v "$cxx" >/dev/null 2>&1; then
		cp "$tmpdir/t.c" "$tmpdir/t.cpp"
		"$cxx" -std=c++11 -Wall -Wextra -Werror -fsyntax-only -I"$tmpdir" "$tmpdir/t.cpp" 2>"$tmpdir/err"
		st=$?
		ok "$st" "<graft/$b> compiles on its own as C++11"
		[ "$st" -eq 0 ] || sed 's/^/#   /' "$tmpdir/err" | head -n 10
	else
		ok 1 "<graft/$b> as C++: no C++ compiler ($cxx): apt-get install g++"
	fi
	n=$((n + 1))
done
# the umbrella header and the version macros
printf '#include <graft/graft.h>\n#if GRAFT_VERSION < 100\n#error version\n#endif\nconst char *v = GRAFT_VERSION_STRING;\n' >"$tmpdir/v.c"
"$cc" -std=c11 -Wall -Wextra -pedantic -Werror -c -I"$tmpdir" "$tmpdir/v.c" -o "$tmpdir/v.o" 2>"$tmpdir/err"
ok $? "<graft/graft.h> gives GRAFT_VERSION and GRAFT_VERSION_STRING"
ok "$([ "$n" -ge 7 ]; echo $?)" "$n public headers compiled"

# ---------------------------------------------------------------- size

lines=$(cat "$tmpdir"/graft/* | wc -l)
echo "# the public headers: $(ls "$tmpdir/graft" | wc -l) files, $lines lines"
ok "$([ "$lines" -le 1000 ]; echo $?)" "the public headers total $lines lines, at most 1000"

# ---------------------------------------------------------------- names

# names: the names header $1 declares, one a line: #define's, typedef
# names, struct and enum tags, enumerators, functions and objects (a
# tokenizer and a brace-depth walk over its text without comments; the
# extern "C" braces of C++ are not a block)
names() {
	"$cc" -w -fpreprocessed -dD -E -P -x c "$1" | awk '
	/^#[ \t]*define/ { sub(/^#[ \t]*define[ \t]+/, ""); sub(/[( \t].*/, ""); print; skip = /\\$/; next }
	skip { skip = /\\$/; next }
	/^#/ || /^extern "C" \{/ { if (/^#ifdef __cplusplus/) cpp = 1; next }
	cpp && /^}$/ { cpp = 0; next }
	{ cpp = 0
	  gsub(/"([^"\\]|\\.)*"/, " ")
	  gsub(/[A-Za-z_][A-Za-z0-9_]*|[^A-Za-z0-9_ \t]/, " & ")
	  for (i = 1; i <= NF; i++) tok($i) }
	function isid(t) { return t ~ /^[A-Za-z_][A-Za-z0-9_]*$/ }
	function tok(t) {
		if (t == "{") { kind[++depth] = (stmt ~ / enum( |$)/) ? "enum" : "block"; after = "{"; return }
		if (t == "}") { depth--; after = ""; return }
		if (depth > 0 && kind[depth] == "enum") {
			if ((after == "{" || after == ",") && isid(t)) print t
			if (t == "=") after = "="; else if (t == ",") after = ","; else if (after != "=") after = ""
			return
		}
		if ((prev == "struct" || prev == "enum") && isid(t)) print t
		if (depth == 0) {
			if (t == "(" && !paren++ && isid(prev)) fname = prev
			if (t == ";") {
				if (stmt ~ /^ typedef/ && fname == "") print last
				else if (fname != "") print fname
				else if (isid(last) && last != "enum" && last != "struct" && stmt !~ /^ (struct|enum) [A-Za-z_0-9]+$/) print last
				stmt = ""; fname = ""; paren = 0; last = ""
			} else {
				stmt = stmt " " t
				if (isid(t) && !paren) last = t
			}
		}
		prev = t
	}'
}
for h in "$tmpdir"/graft/*.h; do
	names "$h" | sed "s|^|${h##*/} |"
done | LC_ALL=C sort -u >"$tmpdir/names"
echo "# $(wc -l <"$tmpdir/names") names declared"
grep -v -E '^[a-z_.]+ (graft_|GRAFT_)' "$tmpdir/names" |
	grep -v -E '^scalar\.h (X|K|P|NEG|FN|ADD|SUB|MUL|DIV|MIN|MAX|GT|LT|SEL|Y|FN2|RND|ISNAN)$' >"$tmpdir/bad"
[ ! -s "$tmpdir/bad" ]
ok $? "every name the public headers declare has the graft_ or GRAFT_ prefix (or is a word of scalar.h)"
sed 's/^/#   /' "$tmpdir/bad" | head -n 20
grep -q '^api\.h graft_module_load$' "$tmpdir/names" && grep -q '^rules\.h graft_rw$' "$tmpdir/names" &&
	grep -q '^graph\.h GRAFT_NK_CALL$' "$tmpdir/names" && grep -q '^opdef\.h graft_op_def$' "$tmpdir/names" &&
	grep -q '^plugin\.h GRAFT_PLUGIN_ABI$' "$tmpdir/names" && grep -q '^kernel\.h graft_kernel$' "$tmpdir/names"
ok $? "(the names found include a function, a typedef, an enumerator, a macro of each kind of header)"
done_testing
