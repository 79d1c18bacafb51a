#!/bin/sh
# verify.sh: graftc verify.  Every shipped ruleset and target table
# verifies (its rules' and composites' random instances agree with what
# they rewrite, bit for bit or within the tolerance a rule declares), with
# the figures of how many instances each rule got printed as TAP comments;
# a wrong rule is caught, its counterexample written as a Relay module and
# .npy inputs that graft reads back; the same seed gives the same report.
. "${srcdir:-.}/tests/lib.sh"
: "${GRAFTC:?GRAFTC must name graftc}"
cd "$srcdir" || exit 1

for f in rulesets/*.rules rulesets/examples/*.rules; do
	"$GRAFTC" verify "$f" >"$tmpdir/out" 2>&1
	ok $? "$f verifies: $(tail -n 1 "$tmpdir/out" | sed 's/.*: //')"
	sed -e '$d' -e '1d' -e 's/^ */# /' "$tmpdir/out"
done

mkdir "$tmpdir/cex"
"$GRAFTC" verify --out "$tmpdir/cex" tests/verify/wrong.rules >"$tmpdir/out" 2>&1
st=$?
[ $st -eq 1 ] && grep -q '^tests/verify/wrong.rules:4: rule sum: COUNTEREXAMPLE: outputs differ' "$tmpdir/out" &&
	grep -q 'rule twice: [0-9]* instances agree bit for bit' "$tmpdir/out"
ok $? "a wrong rule: a counterexample at its place, exit 1; the right one passes"
grep -q '^tests/verify/wrong.rules:6: rule swap: COUNTEREXAMPLE: applying it fails: .*rewriting does not terminate' "$tmpdir/out"
ok $? "a rule that rewrites forever: a counterexample"
grep -q '^tests/verify/wrong.rules:10: rule twice_any: COUNTEREXAMPLE: applying it fails: .*lhs is .* but rhs is int8' "$tmpdir/out"
ok $? "a rule whose result is ill-typed for some dtypes: a counterexample"
[ -s "$tmpdir/cex/sum.relay" ] && ls "$tmpdir/cex"/sum.p*.npy >/dev/null 2>&1
ok $? "the counterexample is written: a Relay module and its inputs as .npy"
"$GRAFT" "$tmpdir/cex/sum.relay" >/dev/null
ok $? "graft reads the counterexample's module"
"$GRAFTC" verify --out "$tmpdir/cex" tests/verify/wrong.rules >"$tmpdir/again" 2>&1
same_file "$tmpdir/again" "$tmpdir/out" "the same seed, the same instances and report"
"$GRAFTC" verify --seed 2 tests/verify/wrong.rules >"$tmpdir/other" 2>&1
[ $? -eq 1 ]
ok $? "another seed catches the wrong rule too"
printf 'ruleset t\nrule a within 1e99: add(x, x) => multiply(x, 2f)\n' >"$tmpdir/tol.rules"
"$GRAFTC" check "$tmpdir/tol.rules" 2>"$tmpdir/err"
[ $? -eq 1 ] && grep -q "tol.rules:2:15: error: a tolerance is a number from 0" "$tmpdir/err"
ok $? "a tolerance out of range is an error at its place"
# a rule wrong only where an input is NaN: caught, unless it says finite
printf 'ruleset t\nrule nan: logical_not(less(x, y)) if dtype(x) == "float32" => greater_equal(x, y)\n' >"$tmpdir/nan.rules"
"$GRAFTC" verify "$tmpdir/nan.rules" >"$tmpdir/out" 2>&1
[ $? -eq 1 ] && grep -q "nan.rules:2: rule nan: COUNTEREXAMPLE: outputs differ by 1" "$tmpdir/out"
ok $? "not(x < y) => x >= y is caught: a NaN input makes them differ"
sed 's/rule nan:/rule nan finite:/' "$tmpdir/nan.rules" >"$tmpdir/finite.rules"
"$GRAFTC" verify "$tmpdir/finite.rules" >"$tmpdir/out" 2>&1
ok $? "the same rule declared finite verifies: $(grep 'rule nan' "$tmpdir/out" | sed 's/^ *//')"
printf 'ruleset t\nrule add0 finite: add(x, const(0f)) => x\n' >"$tmpdir/negzero.rules"
"$GRAFTC" verify "$tmpdir/negzero.rules" >"$tmpdir/out" 2>&1
[ $? -eq 1 ] && grep -q "rule add0: COUNTEREXAMPLE: outputs differ in the sign of a zero (-0 against 0)" "$tmpdir/out"
ok $? "x + const(0f) => x is caught, finite or not: -0 + 0 is +0"
done_testing
