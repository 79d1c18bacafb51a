#!/bin/sh
# editors.sh: editors/ names every keyword of the rules language (from
# dsl/lex.re) and every guard builtin (from dsl/check.c), in the Vim syntax
# file and in the TextMate grammar; the grammar is valid JSON; Vim, if
# there is one, loads the syntax file without an error.
. "${srcdir:-.}/tests/lib.sh"

vimf="$srcdir/editors/vim/syntax/graftrules.vim"
tm="$srcdir/editors/textmate/graft-rules.tmLanguage.json"
{
	grep -o '^[[:space:]]*"[A-Za-z_][A-Za-z0-9_]*"' "$srcdir/dsl/lex.re" | tr -d ' \t"' | grep -v '^_$'
	sed -n '/^} builtins\[\] = {/,/^};/p; /builtins\[\] = {/,/^};/p' "$srcdir/dsl/check.c" | grep -o '{ "[a-z_0-9]*"' | tr -d '{ "'
} | sort -u >"$tmpdir/words"
n=$(wc -l <"$tmpdir/words")
[ "$n" -gt 20 ]
ok $? "the language's keywords and builtins read from its sources ($n)"
for f in "$vimf" "$tm"; do
	missing=
	while read -r w; do
		grep -Eq "(^|[^A-Za-z0-9_])$w([^A-Za-z0-9_]|$)" "$f" || missing="$missing $w"
	done <"$tmpdir/words"
	ok "$([ -z "$missing" ]; echo $?)" "${f#"$srcdir"/} names them all${missing:+ (missing:$missing)}"
done
if [ -n "${PYTHON3:-}" ] && "$PYTHON3" -c 'import json' 2>/dev/null; then
	"$PYTHON3" -c 'import json, sys; g = json.load(open(sys.argv[1])); assert g["scopeName"] and g["patterns"]' "$tm"
	ok $? "the TextMate grammar is valid JSON with a scope and patterns"
else
	needs "the TextMate grammar is valid JSON" python3
fi
if command -v vim >/dev/null 2>&1; then
	printf 'target "t"\ncomposite c: nn.relu(x) if dtype(x) == "int8"\n' >"$tmpdir/t.rules"
	vim -Es -u NONE -N -c 'syntax on' -c "source $vimf" -c 'q' "$tmpdir/t.rules" >"$tmpdir/vim.out" 2>&1
	ok $? "vim loads the syntax file without an error"
else
	needs "vim loads the syntax file without an error" vim
fi
done_testing
