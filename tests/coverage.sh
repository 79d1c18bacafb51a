#!/bin/sh
# coverage.sh: graft --coverage FILE.json and graft coverage FILE.json:
# counts accumulate run after run, the file is deterministic and written
# whole, a damaged one is refused with its place; and the report of the
# shipped rulesets' coverage over the test models, as TAP comments.
. "${srcdir:-.}/tests/lib.sh"
# from the sources, as the rulesets' own paths read
cd "$srcdir" || exit 1
srcdir=.

M="$srcdir/examples/pytorch_qconv.relay"
P="$srcdir/examples/pytorch_qconv.safetensors"
c="$tmpdir/c.json"

"$GRAFT" --coverage "$c" --rules canonicalize --target "ethos-n, host" --params "$P" "$M" >/dev/null
ok $? "a first run writes the coverage file"
grep -q '"runs": 1,' "$c" && grep -q '{ "name": "fold_quantize", "kind": "rule", "line": 10, "matched": 2, "fired": 2,' "$c"
ok $? "fold_quantize matched and fired twice (the weights and the bias)"
cp "$c" "$tmpdir/once.json"
"$GRAFT" --coverage "$c" --rules canonicalize --target "ethos-n, host" --params "$P" "$M" >/dev/null
grep -q '"runs": 2,' "$c" && grep -q '{ "name": "fold_quantize", "kind": "rule", "line": 10, "matched": 4, "fired": 4,' "$c"
ok $? "a second run adds to the counts"
rm -f "$tmpdir/again.json"
"$GRAFT" --coverage "$tmpdir/again.json" --rules canonicalize --target "ethos-n, host" --params "$P" "$M" >/dev/null
same_file "$tmpdir/again.json" "$tmpdir/once.json" "the same run writes the same bytes"
grep -q '"pattern": "m:qnn.mul(c:const, x, const, const, const, const, const, const)"' "$c"
ok $? "commuted variants are counted apart"
"$GRAFT" coverage "$c" >"$tmpdir/report"
ok $? "graft coverage reads it back"
grep -q '^canonicalize (rulesets/canonicalize.rules): 2 of 4 fired' "$tmpdir/report" &&
	grep -q '^  rulesets/canonicalize.rules:20: rule requantize_clip_cast_int8 never fired' "$tmpdir/report"
ok $? "the report: what fired, and what never did with its place"

# the same counts from a ruleset loaded from its file
rm -f "$tmpdir/file.json"
"$GRAFT" --coverage "$tmpdir/file.json" --rules "$srcdir/rulesets/canonicalize.rules" --params "$P" "$M" >/dev/null
grep -q '{ "name": "fold_quantize", "kind": "rule", "line": 10, "matched": 2, "fired": 2,' "$tmpdir/file.json"
ok $? "a ruleset given as a file is counted the same"

# damage is refused with its place, and the file is left as it was
printf '{\n  "graft-coverage": 1,\n  "runs": x\n}\n' >"$tmpdir/bad.json"
cp "$tmpdir/bad.json" "$tmpdir/bad.orig"
"$GRAFT" --coverage "$tmpdir/bad.json" --rules canonicalize --params "$P" "$M" >/dev/null 2>"$tmpdir/err"
st=$?
[ $st -eq 1 ] && grep -q "bad.json:3:11: error: expected a count" "$tmpdir/err" && cmp -s "$tmpdir/bad.json" "$tmpdir/bad.orig"
ok $? "a damaged coverage file: its place, exit 1, left untouched"
printf '{ "graft-coverage": 2, "runs": 1, "rulesets": [] }' >"$tmpdir/v2.json"
"$GRAFT" coverage "$tmpdir/v2.json" 2>"$tmpdir/err"
[ $? -eq 1 ] && grep -q "another version" "$tmpdir/err"
ok $? "a coverage file of another version is refused"
"$GRAFT" coverage "$tmpdir/none.json" 2>"$tmpdir/err"
[ $? -eq 1 ] && grep -q "no coverage recorded there" "$tmpdir/err"
ok $? "graft coverage of a file that is not there: exit 1"

# the shipped rulesets over the test models: reported, not judged
all="$tmpdir/all.json"
n=0
for f in "$srcdir"/tests/rewrite/*.relay "$srcdir"/tests/partition/*.relay "$srcdir"/tests/golden/seed_*.relay; do
	"$GRAFT" --coverage "$all" --rules qdq --rules canonicalize --target "ethos-n, host" "$f" >/dev/null 2>&1 && n=$((n + 1))
	"$GRAFT" --coverage "$all" --rules qdq --rules canonicalize --target "cmsis-nn, host" "$f" >/dev/null 2>&1 && n=$((n + 1))
done
"$GRAFT" coverage "$all" >"$tmpdir/shipped"
ok $? "the shipped rulesets' coverage over the test models ($n runs)"
sed 's/^/# /' "$tmpdir/shipped" | grep -v '^# *$' | grep -v 'variant .* never' | head -n 80

done_testing
