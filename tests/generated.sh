#!/bin/sh
# generated.sh: what graftc generates is code a reviewer can read:
#  - every shipped ruleset's and test ruleset's C compiles with
#    -Wall -Wextra -Werror -pedantic (a user's own build may use them),
#    with only the public <graft/rules.h>, <graft/graph.h> and
#    <graft/kernel.h> to include, as a plugin compiles it;
#  - no generated function is longer than MAXFN lines, and nothing nests
#    deeper than 10 levels;
#  - a change to a .rules file changes gen/ only where it must: on copies
#    of rulesets/ethos-n.rules, cmsis-nn.rules and qdq.rules, re-wrapping one line
#    of a guard changes at most one hunk of the generated C, adding a rule
#    in the middle at most four (five when it names an op the file did
#    not, which its table of ops gains), and editing one rule's guard only the
#    lines of that rule's function.
. "${srcdir:-.}/tests/lib.sh"
: "${GRAFTC:?GRAFTC must name graftc}"
cc=${CC:-cc}
MAXFN=150

# ---------------------------------------------------------------- warnings
mkdir "$tmpdir/pub"
for h in passes/rules.h ir/graph.h ir/kernel.h; do
	cp "$srcdir/$h" "$tmpdir/pub/"
done
n=0
for r in $(cd "$srcdir" && ls rulesets/*.rules rulesets/examples/*.rules tests/rules/*.rules tests/graftc/*.rules tests/tvm/*.rules \
	bench/*.rules); do
	if ! (cd "$srcdir" && "$GRAFTC" check "$r") >/dev/null 2>&1; then
		continue        # the test rulesets that hold errors on purpose
	fi
	(cd "$srcdir" && "$GRAFTC" -o "$tmpdir/w.c" "$r") 2>"$tmpdir/err"
	"$cc" -std=c11 -Wall -Wextra -Werror -pedantic -fsyntax-only -I"$tmpdir/pub" "$tmpdir/w.c" 2>"$tmpdir/err"
	st=$?
	ok "$st" "$r: its generated C compiles with -Wall -Wextra -Werror -pedantic"
	[ "$st" -eq 0 ] || sed 's/^/#   /' "$tmpdir/err" | head -n 20
	n=$((n + 1))
done
ok "$([ "$n" -ge 10 ]; echo $?)" "generated C of $n rulesets was compiled"

# ---------------------------------------------------------------- shape
# funcshape FILE: "LONGEST-FUNCTION-LINES NAME DEEPEST-TABS"
funcshape() {
	awk '
	/^[A-Za-z_][A-Za-z0-9_]*\(/ { name = $1; sub(/\(.*/, "", name); start = NR }
	/^}/ { if (name != "" && NR - start > max) { max = NR - start; mname = name }; name = "" }
	{ n = 0; while (substr($0, n + 1, 1) == "\t") n++; if (n > deep) deep = n }
	END { print max + 0, mname, deep + 0 }' "$1"
}
for g in $(cd "$srcdir" && ls gen/*.c gen/examples/*.c); do
	set -- $(funcshape "$srcdir/$g")
	ok "$([ "$1" -le "$MAXFN" ]; echo $?)" "$g: its longest function, $2, has $1 lines (at most $MAXFN)"
	ok "$([ "$3" -le 10 ]; echo $?)" "$g: it nests $3 levels deep (at most 10)"
done

# ---------------------------------------------------------------- diffs
# gen NAME OUT: graftc on $tmpdir/rulesets/NAME.rules, as `make regen` runs it
gen() {
	(cd "$tmpdir" && "$GRAFTC" -o "$2" "rulesets/$1.rules") 2>"$tmpdir/err" || sed 's/^/#   /' "$tmpdir/err"
}

# hunks A B: the hunks of a unified diff from A to B
hunks() {
	diff -U3 "$1" "$2" | grep -c '^@@'
}

# within A B FUNC: every line that differs lies inside function FUNC, in
# A's lines and in B's
within() {
	diff -U0 "$1" "$2" | awk -v fa="$(range "$1" "$3")" -v fb="$(range "$2" "$3")" '
	BEGIN { split(fa, ra, " "); split(fb, rb, " ") }
	/^@@/ {
		split($2, o, ","); split($3, n, ",")
		os = -o[1]; oc = (o[2] == "" ? 1 : o[2]); ns = substr(n[1], 2); nc = (n[2] == "" ? 1 : n[2])
		if (oc > 0 && (os < ra[1] || os + oc - 1 > ra[2])) bad = 1
		if (nc > 0 && (ns < rb[1] || ns + nc - 1 > rb[2])) bad = 1
	}
	END { exit bad }'
}

# range FILE FUNC: the first and last lines of FUNC's comment and body
range() {
	awk -v f="$2" '
	$0 ~ "^/\\* [a-z]+ " f "$" || $0 ~ "^/\\* [a-z]+ " f "[ ,]" { if (!s) s = NR }
	s && !e && /^}/ { e = NR }
	END { print s + 0, e + 0 }' "$1"
}

mkdir "$tmpdir/rulesets"
for name in ethos-n cmsis-nn qdq; do
	src="$srcdir/rulesets/$name.rules"
	lines=$(wc -l <"$src")
	cp "$src" "$tmpdir/rulesets/$name.rules"
	gen "$name" base.c

	# re-wrap: the first guard line past the middle that holds " && " is
	# split at its last " && "
	awk -v mid=$((lines / 2)) '
	!done && NR > mid && /^  (if |&& )/ && index(substr($0, 6), " && ") {
		i = length($0); while (substr($0, i, 4) != " && ") i--
		print substr($0, 1, i - 1); print "  && " substr($0, i + 4); done = 1; next }
	{ print }' "$src" >"$tmpdir/rulesets/$name.rules"
	gen "$name" rewrap.c
	h=$(hunks "$tmpdir/base.c" "$tmpdir/rewrap.c")
	ok "$( ! cmp -s "$src" "$tmpdir/rulesets/$name.rules" && [ "$h" -le 1 ]; echo $?)" \
		"$name: re-wrapping one line of a guard changes $h hunk(s) of the generated C (at most 1)"

	# add: a new rule (a composite for a target) before the first item
	# past the middle of the file
	if [ "$name" != qdq ]; then
		new='composite probe_added:\n  q:qnn.quantize(nn.relu(qnn.dequantize(x, is:const, izp:const)), os:const, ozp:const)\n  if dtype(x) == "int8" && is_scalar(os)\n'
	else
		new='rule probe_added:\n  q:qnn.quantize(nn.relu(nn.relu(x)), s:const, z:const)\n  if is_scalar(s)\n  => qnn.quantize(nn.relu(x), s, z, attrs(q))\n'
	fi
	awk -v mid=$((lines / 2)) -v new="$new" '
	!done && NR > mid && /^(rule|composite|supports) / { printf "%s\n", new; done = 1 }
	{ print }' "$src" >"$tmpdir/rulesets/$name.rules"
	gen "$name" add.c
	h=$(hunks "$tmpdir/base.c" "$tmpdir/add.c")
	most=4
	grep -q '"nn.relu"' "$tmpdir/base.c" || most=5
	ok "$(grep -q probe_added "$tmpdir/add.c" && [ "$h" -le $most ]; echo $?)" \
		"$name: adding a rule in the middle changes $h hunk(s) of the generated C (at most $most)"

	# edit: one rule's guard, in place
	if [ "$name" = ethos-n ]; then
		sed 's|value(os) == 1.0 / 256|value(os) == 1.0 / 512|' "$src" >"$tmpdir/rulesets/$name.rules"
		rule=qnn_sigmoid
	elif [ "$name" = cmsis-nn ]; then
		sed '/^composite qnn_fully_connected/,/^$/s|value(kzp) == 0|value(kzp) == 1|' "$src" >"$tmpdir/rulesets/$name.rules"
		rule=qnn_fully_connected
	else
		sed '/^rule qdq_add_qnnpack/,/^$/s|log2(value(as) / value(ys)) >= -10|log2(value(as) / value(ys)) >= -11|' "$src" >"$tmpdir/rulesets/$name.rules"
		rule=qdq_add_qnnpack
	fi
	gen "$name" edit.c
	h=$(hunks "$tmpdir/base.c" "$tmpdir/edit.c")
	ok "$( ! cmp -s "$tmpdir/base.c" "$tmpdir/edit.c" && within "$tmpdir/base.c" "$tmpdir/edit.c" "$rule"; echo $?)" \
		"$name: editing rule $rule's guard changes only its function ($h hunk(s))"
	diff -U0 "$tmpdir/base.c" "$tmpdir/edit.c" | grep '^[-+][^-+]' | head -n 4 | sed 's/^/#   /'
done

done_testing
