#!/bin/sh
# time.sh: graft --time prints one line a step to standard error, in the
# order the steps ran, as "time: STEP SECONDS s" and KEY=N pairs, then the
# total; the output is the same with it as without.  Its format, never its
# numbers (figures are `make bench`'s).
. "${srcdir:-.}/tests/lib.sh"
model="$srcdir/examples/pytorch_qconv.relay"
params="$srcdir/examples/pytorch_qconv.safetensors"
# the steps as the options give them: make check's GRAFT_VERIFY=1 would
# add a verify step to every run
GRAFT_VERIFY=0
export GRAFT_VERIFY

# steps FILE: the STEP words of a --time report, one line
steps() {
	sed 's/^time: \([^ ]*\) .*/\1/' "$1" | tr '\n' ' ' | sed 's/ $//'
}

# wellformed FILE DESC: every line of FILE is a --time line
wellformed() {
	bad=$(grep -Ev '^time: [a-z][a-z.-]*[a-z0-9_]* [0-9]+\.[0-9]{6} s( [a-z]+=[0-9]+)*$' "$1")
	ok "$([ -s "$1" ] && [ -z "$bad" ]; echo $?)" "$2${bad:+ (not a --time line: $bad)}"
}

"$GRAFT" --rules canonicalize -o "$tmpdir/plain.relay" "$model" 2>"$tmpdir/plain.err"
ok $? "graft --rules canonicalize without --time"
ok "$([ ! -s "$tmpdir/plain.err" ]; echo $?)" "without --time nothing goes to standard error"

"$GRAFT" --time --rules canonicalize -o "$tmpdir/timed.relay" "$model" 2>"$tmpdir/t1"
ok $? "graft --time --rules canonicalize"
wellformed "$tmpdir/t1" "--time: every line is time: STEP SECONDS s [KEY=N ...]"
same_file "$tmpdir/timed.relay" "$tmpdir/plain.relay" "--time changes nothing in the output"
got=$(steps "$tmpdir/t1")
ok "$([ "$got" = "parse infer rules.canonicalize print total" ]; echo $?)" \
	"the steps in the order they ran (got: $got)"
size=$(wc -c <"$model" | tr -d ' ')
ok "$(grep -q "^time: parse [0-9.]* s bytes=$size nodes=[1-9][0-9]*\$" "$tmpdir/t1"; echo $?)" \
	"parse gives the model's bytes ($size) and the nodes read"
size=$(wc -c <"$tmpdir/timed.relay" | tr -d ' ')
ok "$(grep -q "^time: print [0-9.]* s bytes=$size\$" "$tmpdir/t1"; echo $?)" \
	"print gives the bytes written ($size)"
ok "$(grep -q '^time: rules.canonicalize [0-9.]* s rewrites=[1-9][0-9]*$' "$tmpdir/t1"; echo $?)" \
	"a ruleset's line gives its rewrites"

"$GRAFT" --time --verify --params "$params" --rules qdq --rules canonicalize --target "ethos-n, host" \
	--save-params "$tmpdir/saved.safetensors" -o "$tmpdir/part.relay" "$model" 2>"$tmpdir/t2"
ok $? "graft --time with --params, two rulesets, --target and --save-params"
wellformed "$tmpdir/t2" "--time with every step: well formed"
got=$(steps "$tmpdir/t2")
want="params parse bind infer verify rules.qdq rules.canonicalize partition print save-params total"
ok "$([ "$got" = "$want" ]; echo $?)" "every step, in order (got: $got)"

{ "$GRAFT" --time --emit dot "$model" 2>"$tmpdir/t3"; echo $? >"$tmpdir/st"; } | cat >"$tmpdir/dot"
ok "$(cat "$tmpdir/st")" "graft --time --emit dot to a pipe"
got=$(steps "$tmpdir/t3")
ok "$([ "$got" = "parse infer print total" ]; echo $?)" "to a pipe: parse, infer, print, total (got: $got)"
ok "$(grep -q '^time: print [0-9.]* s$' "$tmpdir/t3"; echo $?)" "to a pipe, print gives no bytes"

printf 'def @main(%%x: Tensor[(2), float32]) {\n  add(%%x, %%y)\n}\n' >"$tmpdir/bad.relay"
"$GRAFT" --time "$tmpdir/bad.relay" >/dev/null 2>"$tmpdir/t4"
ok "$([ $? -eq 1 ] && ! grep -q '^time: total' "$tmpdir/t4"; echo $?)" "a failed run prints no total"

done_testing
