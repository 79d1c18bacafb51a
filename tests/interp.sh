#!/bin/sh
# interp.sh: a .rules file loaded at run time (interp/) does what the
# matcher graftc generated from it does.  Every rewrite and partition test
# and the real models (tests/models.sh's MobileNetV2, when it was made) run
# twice: with the built-in rulesets and targets they name, and with the
# same names given as their .rules files; standard output, standard error
# (--stats included) and the exit status must be the same bytes.
. "${srcdir:-.}/tests/lib.sh"
: "${GRAFT_TEST:?GRAFT_TEST must name tests/graft-test}"

# file NAME: the .rules file of built-in ruleset or target NAME
file() {
	case "$1" in
	algebra) echo rulesets/examples/algebra.rules ;;
	canonicalize|ccompiler|cmsis-nn|ethos-n|qdq) echo "rulesets/$1.rules" ;;
	lang|broken) echo "tests/rules/$1.rules" ;;
	test) echo tests/rules/parts.rules ;;
	*) echo "$1" ;;
	esac
}

# asfiles ARGS...: the words of a command, its rulesets and targets named
# by their files
asfiles() {
	out=""
	next=""
	for w in "$@"; do
		case "$next" in
		rules) w=$(file "$w") ;;
		target)
			t=""
			for n in $(echo "$w" | tr ',' ' '); do
				t="$t${t:+,}$(file "$n")"
			done
			w=$t ;;
		esac
		next=""
		case "$w" in
		--rules) next=rules ;;
		--target) next=target ;;
		esac
		out="$out $w"
	done
	echo "$out"
}

# same DESC TOOL ARGS...: TOOL ARGS with built-in names and with files
# give the same output
same() {
	desc=$1
	tool=$2
	shift 2
	(cd "$srcdir" && "$tool" "$@") >"$tmpdir/gen.out" 2>"$tmpdir/gen.err"
	echo "[exit $?]" >>"$tmpdir/gen.err"
	# shellcheck disable=SC2046
	(cd "$srcdir" && "$tool" $(asfiles "$@")) >"$tmpdir/int.out" 2>"$tmpdir/int.err"
	echo "[exit $?]" >>"$tmpdir/int.err"
	cat "$tmpdir/gen.out" "$tmpdir/gen.err" >"$tmpdir/gen"
	cat "$tmpdir/int.out" "$tmpdir/int.err" >"$tmpdir/int"
	same_file "$tmpdir/int" "$tmpdir/gen" "$desc"
}

n=0
for f in $(cd "$srcdir" && ls tests/rewrite/*.relay tests/partition/*.relay); do
	line1=$(sed -n '1p' "$srcdir/$f")
	case "$line1" in
	"// RUN: graft-test "*) tool=$GRAFT_TEST; run=${line1#// RUN: graft-test} ;;
	"// RUN: graft "*) tool=$GRAFT; run=${line1#// RUN: graft} ;;
	*) continue ;;
	esac
	case "$run" in
	*--rules*|*--target*) ;;
	*) continue ;;
	esac
	# shellcheck disable=SC2086
	same "$f:$run (interpreted as generated)" "$tool" $(echo "$run" | sed "s|%s|$f|g")
	n=$((n + 1))
done
ok "$([ "$n" -ge 37 ]; echo $?)" "$n rewrite and partition tests ran interpreted"

# the real models, as tests/models.sh runs them
for model in tests/models/mobilenet_v2.onnx tests/models/mobilenet_v2_folded.onnx; do
	m="${builddir:-.}/$model"
	if [ -f "$m" ]; then
		same "$model: --stats --rules qdq --rules canonicalize --target ethos-n,host (interpreted as generated)" \
			"$GRAFT" --stats --rules qdq --rules canonicalize --target ethos-n,host "$m"
		same "$model: --stats --rules qdq --rules canonicalize --target cmsis-nn,host (interpreted as generated)" \
			"$GRAFT" --stats --rules qdq --rules canonicalize --target cmsis-nn,host "$m"
	else
		needs "$model interpreted as generated (tests/models.sh makes it)" "python3-torch python3-torchvision python3-onnx"
	fi
done

# graft run takes files too
same "graft run --rules algebra --target ccompiler,host (interpreted as generated)" \
	"$GRAFT" run --rules algebra --target ccompiler,host --input x=tests/run/x.npy --input y=tests/run/y.npy \
	tests/run/add.relay

# errors in a file given at run time are graftc's, and exit 1
printf 'ruleset bad\nnn.relu(nosuch) => nosuch.op(x)\n' >"$tmpdir/bad.rules"
"$GRAFT" --rules "$tmpdir/bad.rules" "$srcdir/tests/run/add.relay" >"$tmpdir/out" 2>"$tmpdir/err"
st=$?
"$GRAFTC" check -Wno-all "$tmpdir/bad.rules" 2>"$tmpdir/cerr"
sed 's/^graftc:/graft:/' "$tmpdir/cerr" >"$tmpdir/cerr2"
ok "$([ "$st" -eq 1 ] && [ -s "$tmpdir/err" ] && cmp -s "$tmpdir/err" "$tmpdir/cerr2"; echo $?)" \
	"a .rules file with errors: graftc's messages, exit 1 (got $st)"
printf 'composite c: nn.relu(x)\n' >"$tmpdir/npu.rules"
"$GRAFT" --rules "$tmpdir/npu.rules" "$srcdir/tests/run/add.relay" >"$tmpdir/out" 2>"$tmpdir/err"
ok "$([ $? -eq 1 ] && grep -q "npu.rules: a target table, not a ruleset" "$tmpdir/err"; echo $?)" \
	"a target table given to --rules is refused"
printf 'qnn.quantize(const, const, const) => fold_const\n' >"$tmpdir/card.rules"
"$GRAFT" --stats --rules "$tmpdir/card.rules" --params "$srcdir/examples/pytorch_qconv.safetensors" \
	"$srcdir/examples/pytorch_qconv.relay" >"$tmpdir/out" 2>"$tmpdir/err"
ok "$([ $? -eq 0 ] && grep -q "^ruleset card: 2 rewrites" "$tmpdir/err"; echo $?)" \
	"the card's one-line file runs as the ruleset card"

# an extern that nothing defines is an error naming its function
printf 'ruleset ext\nextern pred nowhere(x)\nrule r: nn.relu(x) if nowhere(x) => x\n' >"$tmpdir/ext.rules"
"$GRAFT" --rules "$tmpdir/ext.rules" "$srcdir/tests/run/add.relay" >"$tmpdir/out" 2>"$tmpdir/err"
ok "$([ $? -eq 1 ] && grep -q "error: extern pred nowhere: no function graft_pred_nowhere is loaded" "$tmpdir/err"; echo $?)" \
	"an extern that nothing defines is an error naming graft_pred_nowhere"

done_testing
