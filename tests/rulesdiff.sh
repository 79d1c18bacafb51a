#!/bin/sh
# rulesdiff.sh: graft rules-diff: the same rules change nothing (exit 0);
# a change shows as rules firing more or less, outputs that differ on
# the seeded inputs, and a diff of the printed result (exit 1); a target's
# rules show what moves on or off it; REV:PATH reads with git; errors exit 2.
. "${srcdir:-.}/tests/lib.sh"
D="$srcdir/tests/rulesdiff"

"$GRAFT" rules-diff "$D/old.rules" "$D/old.rules" "$D/m.relay" >"$tmpdir/out"
st=$?
[ $st -eq 0 ] && grep -q '^Nothing changes\.$' "$tmpdir/out" && grep -q 'the same, bit for bit (6 values)' "$tmpdir/out"
ok $? "the same rules: nothing changes, exit 0"

"$GRAFT" rules-diff "$D/old.rules" "$D/new.rules" "$D/m.relay" >"$tmpdir/out"
st=$?
[ $st -eq 1 ] && grep -q '^| `twice.keep` | 1 | 0 |$' "$tmpdir/out" && ! grep -q '`twice.double`' "$tmpdir/out"
ok $? "a change: the rules that fire more or less (and only those), as a Markdown table, exit 1 ($st)"
grep -q 'Outputs on random inputs (seed 1, ref): \*\*[1-6] of 6 values differ\*\*' "$tmpdir/out"
ok $? "a wrong change: the outputs on seeded random inputs differ"
grep -q '^-  %0 = add(%x, %x);$' "$tmpdir/out" && grep -q '^```diff$' "$tmpdir/out"
ok $? "a unified diff of the printed result"
"$GRAFT" rules-diff --seed 7 "$D/old.rules" "$D/new.rules" "$D/m.relay" | grep -q '(seed 7, ref)'
ok $? "--seed"

# from the sources (the paths are relative to them)
P=examples/pytorch_qconv.safetensors
M=examples/pytorch_qconv.relay
sed 's/a_min=0f, a_max=255f/a_min=0f, a_max=254f/' "$srcdir/rulesets/canonicalize.rules" >"$tmpdir/canonicalize.rules"
(cd "$srcdir" && "$GRAFT" rules-diff rulesets/canonicalize.rules "$tmpdir/canonicalize.rules" --target "ethos-n, host" \
	--params "$P" "$M") >"$tmpdir/out"
[ $? -eq 1 ] && grep -q '^| ethos-n | 4 | 0 |$' "$tmpdir/out" && grep -q '^| `ethos-n.qnn_conv2d` | 1 | 0 |$' "$tmpdir/out"
ok $? "a change to canonicalize: what moves off ethos-n"

if (cd "$srcdir" && git rev-parse --is-inside-work-tree >/dev/null 2>&1 && git cat-file -e HEAD:rulesets/canonicalize.rules 2>/dev/null); then
	(cd "$srcdir" && "$GRAFT" rules-diff HEAD:rulesets/canonicalize.rules rulesets/canonicalize.rules --params "$P" "$M") \
		>"$tmpdir/out"
	st=$?
	grep -q '^# graft rules-diff: `HEAD:rulesets/canonicalize.rules`' "$tmpdir/out" && [ $st -le 1 ]
	ok $? "REV:PATH is read with git"
else
	skip "REV:PATH is read with git" "not in a git work tree"
fi

"$GRAFT" rules-diff "$D/old.rules" "$tmpdir/none.rules" "$D/m.relay" >/dev/null 2>"$tmpdir/err"
[ $? -eq 2 ] && grep -q "none.rules" "$tmpdir/err"
ok $? "a file that is not there: exit 2"
printf 'ruleset twice\nrule double: multiply(x, _c) => nosuch(x)\n' >"$tmpdir/bad.rules"
"$GRAFT" rules-diff "$D/old.rules" "$tmpdir/bad.rules" "$D/m.relay" >/dev/null 2>"$tmpdir/err"
[ $? -eq 2 ] && grep -q "bad.rules:2:33: error:" "$tmpdir/err"
ok $? "a rules file with errors: its messages, exit 2"
"$GRAFT" rules-diff "$D/old.rules" 2>/dev/null
[ $? -eq 2 ]
ok $? "too few arguments: exit 2"
done_testing
