#!/bin/sh
# fmt.sh: graftc fmt.  The shipped rulesets are in the canonical layout;
# a badly laid-out file comes out as tests/fmt/messy.expected, with every
# comment, and means the same (the same C once comments are set aside);
# formatting is idempotent on every .rules file here; -w and --check; a
# file that does not tokenize is refused.
. "${srcdir:-.}/tests/lib.sh"
: "${GRAFTC:?GRAFTC must name graftc}"
cd "$srcdir" || exit 1

"$GRAFTC" fmt --check rulesets/*.rules rulesets/examples/*.rules >"$tmpdir/out"
ok $? "the shipped rulesets are in the canonical layout$( [ -s "$tmpdir/out" ] && echo " (not: $(tr '\n' ' ' <"$tmpdir/out"))")"

"$GRAFTC" fmt tests/fmt/messy.rules >"$tmpdir/messy.rules"
same_file "$tmpdir/messy.rules" tests/fmt/messy.expected "a badly laid-out file: the canonical layout"
grep -q '// keep me' "$tmpdir/messy.rules" && grep -q '^/\* a block$' "$tmpdir/messy.rules"
ok $? "comments are kept"
"$GRAFTC" -Wno-all -o "$tmpdir/before.c" tests/fmt/messy.rules && "$GRAFTC" -Wno-all -o "$tmpdir/after.c" "$tmpdir/messy.rules"
ok $? "both compile"
# the generated C, less its comments (which quote the source) and file names
strip() { sed -e '/^ \*/d' -e '/^\/\*/d' -e 's|"[^"]*messy.rules", [0-9]*|"F", L|' -e 's|"[^"]*messy.rules"|"F"|' "$1"; }
strip "$tmpdir/before.c" >"$tmpdir/b"
strip "$tmpdir/after.c" >"$tmpdir/a"
same_file "$tmpdir/a" "$tmpdir/b" "formatting changes no meaning: the same matcher"

n=0 bad=
for f in rulesets/*.rules rulesets/examples/*.rules tests/*/*.rules examples/out-of-tree/*.rules; do
	"$GRAFTC" fmt "$f" >"$tmpdir/once" 2>/dev/null || continue
	"$GRAFTC" fmt "$tmpdir/once" >"$tmpdir/twice" 2>/dev/null
	cmp -s "$tmpdir/once" "$tmpdir/twice" || bad="$bad $f"
	n=$((n + 1))
done
ok "$([ -z "$bad" ] && [ "$n" -gt 50 ]; echo $?)" "formatting twice is formatting once, on all $n .rules files here${bad:+ (not:$bad)}"

cp tests/fmt/messy.rules "$tmpdir/w.rules"
cp tests/fmt/messy.expected "$tmpdir/done.rules"
"$GRAFTC" fmt --check "$tmpdir/w.rules" "$tmpdir/done.rules" >"$tmpdir/out"
[ $? -eq 1 ] && [ "$(cat "$tmpdir/out")" = "$tmpdir/w.rules" ]
ok $? "--check lists the files not laid out so, and exits 1"
"$GRAFTC" fmt -w "$tmpdir/w.rules" && cmp -s "$tmpdir/w.rules" tests/fmt/messy.expected &&
	"$GRAFTC" fmt --check "$tmpdir/w.rules" >/dev/null
ok $? "-w rewrites the file in place"
printf 'ruleset s\nrule a: f(x, "unterminated) => x\n' >"$tmpdir/bad.rules"
cp "$tmpdir/bad.rules" "$tmpdir/bad.orig"
"$GRAFTC" fmt -w "$tmpdir/bad.rules" 2>"$tmpdir/err"
[ $? -eq 1 ] && grep -q "bad.rules: a string or comment does not end" "$tmpdir/err" && cmp -s "$tmpdir/bad.rules" "$tmpdir/bad.orig"
ok $? "a string that does not end: refused, exit 1, the file untouched"
done_testing
