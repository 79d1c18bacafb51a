#!/bin/sh
# plugin.sh: plugins (plugin/plugin.h).  examples/out-of-tree's Acme plugin,
# built by make check from its own sources against the staged public
# headers (tests/plugin/acme.so), loaded by `graft --plugin`: its op reads,
# prints and type-checks, its rulesets rewrite and partition, its codegen
# emits and runs acme's partitions, and the same .rules files loaded at run
# time give the same output.  The loader's errors, from broken plugins
# (tests/plugin/bad.c).  And acme-run, the example's program that drives
# graft through the C API with the plugin linked in.
. "${srcdir:-.}/tests/lib.sh"

P="$builddir/tests/plugin"
A="$srcdir/examples/out-of-tree"
M="$srcdir/examples/out-of-tree/tests/block.relay"

# run_graft ARGS...: graft's standard output, standard error and exit
# status, in that order, into $tmpdir/got
run_graft() {
	"$GRAFT" "$@" >"$tmpdir/out" 2>"$tmpdir/err"
	echo "[exit $?]" >"$tmpdir/status"
	cat "$tmpdir/out" "$tmpdir/err" "$tmpdir/status" >"$tmpdir/got"
}

# expect NAME DESCRIPTION: $tmpdir/got against tests/plugin/NAME.expected
# (GRAFT_UPDATE=1 rewrites it)
expect() {
	want="$srcdir/tests/plugin/$1.expected"
	if [ "${GRAFT_UPDATE:-}" = 1 ] && ! cmp -s "$tmpdir/got" "$want"; then
		cp "$tmpdir/got" "$want"
		echo "# updated $want"
	fi
	same_file "$tmpdir/got" "$want" "$2"
}

# the loader refuses what is not a plugin, or not this graft's, with exit 1
run_graft --plugin "$P/bad1.so" "$M"
grep -q "bad1.so is not a graft plugin: it defines no 'graft_plugin'" "$tmpdir/err" && grep -q '^\[exit 1\]' "$tmpdir/status"
ok $? "a shared object without the entry point: a clear error, exit 1"
run_graft --plugin "$P/bad2.so" "$M"
abi=$(sed -n 's/^#define GRAFT_PLUGIN_ABI \([0-9]*\).*/\1/p' "$srcdir/plugin/plugin.h")
grep -q "bad2.so was built for graft's plugin ABI $((abi + 1)); this graft has ABI $abi" "$tmpdir/err" &&
	grep -q '^\[exit 1\]' "$tmpdir/status"
ok $? "a plugin built for another ABI: refused before anything of it runs, exit 1"
# a plugin file cut short is refused with the loader's message, never a
# crash: dlopen() faults on segments past a file's end, so plugin/peek.c
# checks them first
for n in 40 3000 20000; do
	head -c $n "$P/acme.so" >"$tmpdir/cut.so"
	run_graft --plugin "$tmpdir/cut.so" "$M"
	grep -q "cannot load plugin $tmpdir/cut.so" "$tmpdir/err" && grep -q '^\[exit 1\]' "$tmpdir/status"
	ok $? "a plugin file cut to $n bytes: refused, exit 1"
done
run_graft --plugin "$P/bad3.so" "$M"
grep -q "bad3.so (failing): the license file is missing" "$tmpdir/err" && grep -q '^\[exit 1\]' "$tmpdir/status"
ok $? "a plugin whose init fails: its own message, exit 1"
run_graft --plugin "$P/bad4.so" "$M"
grep -q "ruleset orphan uses op nobody.op, which no loaded plugin registers" "$tmpdir/err" && grep -q '^\[exit 1\]' "$tmpdir/status"
ok $? "a plugin ruleset that uses an op nobody registered: refused, exit 1"
run_graft --plugin "$tmpdir/none.so" "$M"
grep -q "cannot load plugin $tmpdir/none.so" "$tmpdir/err" && grep -q '^\[exit 1\]' "$tmpdir/status"
ok $? "a plugin that is not there: exit 1"
run_graft --plugin "$P/acme.so" --plugin "$P/acme.so" "$M"
grep -q "acme.so is loaded already" "$tmpdir/err" && grep -q '^\[exit 1\]' "$tmpdir/status"
ok $? "a plugin given twice: exit 1"
run_graft run --plugin "$P/bad2.so" "$M"
abi=$(sed -n 's/^#define GRAFT_PLUGIN_ABI \([0-9]*\).*/\1/p' "$srcdir/plugin/plugin.h")
grep -q "ABI $abi" "$tmpdir/err" && grep -q '^\[exit 1\]' "$tmpdir/status"
ok $? "graft run --plugin checks the ABI too"

# acme's op: unknown without the plugin; with it, it reads, prints and
# type-checks through its relation
printf 'def @main(%%x: Tensor[(2, 3), int32]) {\n  acme.clip_cast(%%x, a_min=-128f, a_max=127f)\n}\n' >"$tmpdir/op.relay"
run_graft "$tmpdir/op.relay"
grep -q "op.relay:2:3: error: unknown op 'acme.clip_cast'" "$tmpdir/err"
ok $? "acme.clip_cast without the plugin: unknown op, at its line and column"
run_graft --plugin "$P/acme.so" --show-types "$tmpdir/op.relay"
cat >"$tmpdir/want" <<'EOF'
def @main(%x: Tensor[(2, 3), int32] /* ty=Tensor[(2, 3), int32] */) -> Tensor[(2, 3), int8] {
  acme.clip_cast(%x, a_min=-128f, a_max=127f) /* ty=Tensor[(2, 3), int8] */
}
[exit 0]
EOF
same_file "$tmpdir/got" "$tmpdir/want" "acme.clip_cast with the plugin: parsed, typed by its relation (int8 by default), printed"
printf 'def @main(%%x: Tensor[(2, 3), float32]) {\n  acme.clip_cast(%%x, a_min=0f, a_max=1f, dtype="uint8")\n}\n' >"$tmpdir/bad.relay"
run_graft --plugin "$P/acme.so" "$tmpdir/bad.relay"
grep -q "bad.relay:2:3: error: .*acme.clip_cast takes a tensor of integers" "$tmpdir/err" && grep -q '^\[exit 1\]' "$tmpdir/status"
ok $? "acme.clip_cast of floats: its type relation's error, at the call"

# its C kernel, against values worked by hand: clip to [-128, 127], then
# int8; and to [0, 200] as uint8; on ref, c and llvm alike
printf 'def @main(%%x: Tensor[(6), int32]) {\n  (acme.clip_cast(%%x, a_min=-128f, a_max=127f), acme.clip_cast(%%x, a_min=0f, a_max=200f, dtype="uint8"))\n}\n' >"$tmpdir/k.relay"
printf '\223NUMPY\001\000v\000{'"'"'descr'"'"': '"'"'<i4'"'"', '"'"'fortran_order'"'"': False, '"'"'shape'"'"': (6,), }' >"$tmpdir/x.npy"
# pad the header to 118 bytes (10 + 118 = 128), ending in a newline
n=$(wc -c <"$tmpdir/x.npy")
while [ "$n" -lt 127 ]; do printf ' ' >>"$tmpdir/x.npy"; n=$((n + 1)); done
printf '\n' >>"$tmpdir/x.npy"
# -300, -128, 0, 100, 200, 70000 as little-endian int32
printf '\324\376\377\377\200\377\377\377\000\000\000\000\144\000\000\000\310\000\000\000\160\021\001\000' >>"$tmpdir/x.npy"
run_graft run --plugin "$P/acme.so" --input x="$tmpdir/x.npy" "$tmpdir/k.relay"
cat >"$tmpdir/want" <<'EOF'
result 0: Tensor[(6), int8]
[-128, -128, 0, 100, 127, 127]
result 1: Tensor[(6), uint8]
[0, 0, 0, 100, 200, 200]
[exit 0]
EOF
same_file "$tmpdir/got" "$tmpdir/want" "acme.clip_cast's C kernel on ref: the values worked by hand"
for be in c llvm; do
	run_graft run --plugin "$P/acme.so" --backend $be --input x="$tmpdir/x.npy" "$tmpdir/k.relay"
	same_file "$tmpdir/got" "$tmpdir/want" "acme.clip_cast's C kernel on $be: the same values"
done

# acme.chan_scale, registered with a C kernel (ir/kernel.h;
# examples/out-of-tree/acme-kernels.c) that every backend calls.  On
# chan.relay, with the values worked by hand: channel 0 of x is -300, -3,
# 0 and channel 1 is 5, 70, -100; result 0 scales them by 0.5 and -2,
# rounds halves away from zero, adds 1 and -3 and saturates to int8;
# result 1 scales by 0.25 and 3, rounds down, and adds 1 on the host
T="$srcdir/examples/out-of-tree/tests"
"$GRAFT" run --plugin "$P/acme.so" --input x="$T/chan.npy" --output "$tmpdir/k0.npy" --output "$tmpdir/k1.npy" "$T/chan.relay"
ok $? "acme.chan_scale's C kernel on ref: its results as .npy files"
run_graft run --plugin "$P/acme.so" --input x="$T/chan.npy" "$T/chan.relay"
cat >"$tmpdir/want" <<'EOF'
result 0: Tensor[(1, 2, 3), int8]
[[[-128, -1, 1],
  [-13, -128, 127]]]
result 1: Tensor[(1, 2, 3), int32]
[[[-74, 0, 1],
  [16, 211, -299]]]
[exit 0]
EOF
same_file "$tmpdir/got" "$tmpdir/want" "acme.chan_scale's C kernel on ref: the values worked by hand"
# each backend, outside partitions, in acme's (run by its codegen) and in
# those of a target without a codegen (tests/kt.rules: compiled by the
# backend): ref's results bit for bit
for be in ref c llvm; do
	for t in "" "acme, host" "$T/kt.rules, host"; do
		ACME_TRACE=1 "$GRAFT" run --plugin "$P/acme.so" --backend $be ${t:+--target "$t"} --input x="$T/chan.npy" \
			--output "$tmpdir/r0.npy" --output "$tmpdir/r1.npy" "$T/chan.relay" 2>"$tmpdir/trace"
		st=$?
		case "$t" in
		acme*) grep -q '^acme: ran @tvmgen_default_acme_main_1$' "$tmpdir/trace" || st=1 ;;
		*) [ ! -s "$tmpdir/trace" ] || st=1 ;;
		esac
		[ $st -eq 0 ] && cmp -s "$tmpdir/r0.npy" "$tmpdir/k0.npy" && cmp -s "$tmpdir/r1.npy" "$tmpdir/k1.npy"
		ok $? "acme.chan_scale on $be${t:+ with --target \"${t##*/}\"}: ref's results bit for bit"
	done
done
"$GRAFT" --plugin "$P/acme.so" --target "$T/kt.rules, host" "$T/chan.relay" | grep -c '^def @tvmgen_default_kt_main_[01](' |
	grep -q '^2$'
ok $? "tests/kt.rules makes both calls partitions of a target without a codegen"
# --emit c and --emit obj: code that calls acme_chan_scale by name, linked
# with the kernel's own object (it needs only <graft/kernel.h>) and run by
# tests/arm/npyrun.c
"$CC" -std=c99 -O2 -Wall -Wextra -Werror -I"$P/include" -c "$A/acme-kernels.c" -o "$tmpdir/kernels.o"
ok $? "acme-kernels.c compiles with <graft/kernel.h> alone"
for t in "" "$T/kt.rules, host"; do
	for e in c obj; do
		rm -f "$tmpdir/model.c" "$tmpdir/model.o" "$tmpdir/e0.npy" "$tmpdir/e1.npy"
		if [ $e = c ]; then
			"$GRAFT" --plugin "$P/acme.so" ${t:+--target "$t"} --emit c -o "$tmpdir/model.c" "$T/chan.relay" &&
				"$CC" -std=c99 -O2 -Wall -Wextra -Werror -c "$tmpdir/model.c" -o "$tmpdir/model.o"
		else
			"$GRAFT" --plugin "$P/acme.so" ${t:+--target "$t"} --emit obj -o "$tmpdir/model.o" "$T/chan.relay"
		fi &&
			"$CC" -std=c99 -O2 "$srcdir/tests/arm/npyrun.c" "$tmpdir/model.o" "$tmpdir/kernels.o" -lm -o "$tmpdir/npyrun" &&
			"$tmpdir/npyrun" "$T/chan.npy" -o "$tmpdir/e0.npy" "$tmpdir/k0.npy" -o "$tmpdir/e1.npy" "$tmpdir/k1.npy" &&
			cmp -s "$tmpdir/e0.npy" "$tmpdir/k0.npy" && cmp -s "$tmpdir/e1.npy" "$tmpdir/k1.npy"
		ok $? "--emit $e${t:+ with --target kt.rules} linked with acme-kernels.c: ref's results bit for bit"
	done
done
# the kernel's run-time error (a NaN): exit 1 on every backend, inside and
# outside partitions; --emit c's code returns 4
for be in ref c llvm; do
	for t in "" "$T/kt.rules, host"; do
		run_graft run --plugin "$P/acme.so" --backend $be ${t:+--target "$t"} --input x="$T/nan.npy" "$T/nan.relay"
		grep -q '^\[exit 1\]' "$tmpdir/status" && [ ! -s "$tmpdir/out" ] &&
			grep -q "acme.chan_scale: its kernel reported an error (it returned 2)\|the C kernel of a plugin's op reported an error" "$tmpdir/err"
		ok $? "a kernel that returns nonzero on $be${t:+ in a partition}: its error, exit 1, no result"
	done
done
"$GRAFT" --plugin "$P/acme.so" --emit c -o "$tmpdir/model.c" "$T/nan.relay" && grep -q '^			return 4;$' "$tmpdir/model.c"
ok $? "--emit c: a kernel's error returns 4 from graft_main"
# registration refuses what the backends could not call
run_graft --plugin "$P/bad5.so" "$M"
grep -q "bad5.so (badkernel): op bad.k: its kernel's symbol 'graft_k' is not a C identifier outside graft's own graft_ names" \
	"$tmpdir/err" && grep -q '^\[exit 1\]' "$tmpdir/status"
ok $? "a C kernel whose symbol takes graft's graft_ prefix: refused at registration, exit 1"

run_graft --plugin "$P/bad6.so" "$M"
grep -q "bad6.so (badscalar): bad.s: P(1) is not a float or integer attribute of the op" "$tmpdir/err" &&
	grep -q '^\[exit 1\]' "$tmpdir/status"
ok $? "a scalar row that reads an attribute the op lacks: refused at registration, exit 1"

# acme.softsign, given as a row in scalar.def's form (no kernel, no type
# relation): x / (1 + |x|) plus alpha x below zero.  On softsign.npy
# (0, 1, -1, 3, -3, 7, -7, NaN), by hand: x / (1 + |x|) is 0, 0.5,
# -0.5, 0.75, -0.75, 0.875, -0.875 and NaN; alpha 0.5 adds -0.5, -1.5
# and -3.5 to the negative ones
cat >"$tmpdir/want" <<'EOF'
result 0: Tensor[(8), float32]
[0, 0.5, -0.5, 0.75, -0.75, 0.875, -0.875, nan]
result 1: Tensor[(8), float32]
[0, 0.5, -1, 0.75, -2.25, 0.875, -4.375, nan]
[exit 0]
EOF
run_graft run --plugin "$P/acme.so" --input x="$T/softsign.npy" "$T/softsign.relay"
same_file "$tmpdir/got" "$tmpdir/want" "acme.softsign's row on ref: the values worked by hand"
"$GRAFT" run --plugin "$P/acme.so" --input x="$T/softsign.npy" --output "$tmpdir/s0.npy" --output "$tmpdir/s1.npy" \
	"$T/softsign.relay"
ok $? "acme.softsign on ref: its results as .npy files"
for be in ref c llvm; do
	for t in "" "$T/kt.rules, host"; do
		"$GRAFT" run --plugin "$P/acme.so" --backend $be ${t:+--target "$t"} --input x="$T/softsign.npy" \
			--output "$tmpdir/r0.npy" --output "$tmpdir/r1.npy" "$T/softsign.relay" &&
			cmp -s "$tmpdir/r0.npy" "$tmpdir/s0.npy" && cmp -s "$tmpdir/r1.npy" "$tmpdir/s1.npy"
		ok $? "acme.softsign on $be${t:+ in kt.rules' partitions}: ref's results bit for bit"
	done
done
"$GRAFT" --plugin "$P/acme.so" --target "$T/kt.rules, host" "$T/softsign.relay" | grep -c '^def @tvmgen_default_kt_main_[01](' |
	grep -q '^2$'
ok $? "tests/kt.rules makes both softsign calls partitions"
# --emit c and obj: the row is compiled in, so the code links with nothing
# of the plugin's
for e in c obj; do
	rm -f "$tmpdir/model.c" "$tmpdir/model.o"
	if [ $e = c ]; then
		"$GRAFT" --plugin "$P/acme.so" --emit c -o "$tmpdir/model.c" "$T/softsign.relay" &&
			"$CC" -std=c99 -O2 -Wall -Wextra -Werror -c "$tmpdir/model.c" -o "$tmpdir/model.o"
	else
		"$GRAFT" --plugin "$P/acme.so" --emit obj -o "$tmpdir/model.o" "$T/softsign.relay"
	fi &&
		"$CC" -std=c99 -O2 "$srcdir/tests/arm/npyrun.c" "$tmpdir/model.o" -lm -o "$tmpdir/npyrun" &&
		"$tmpdir/npyrun" "$T/softsign.npy" -o "$tmpdir/e0.npy" "$tmpdir/s0.npy" -o "$tmpdir/e1.npy" "$tmpdir/s1.npy" &&
		cmp -s "$tmpdir/e0.npy" "$tmpdir/s0.npy" && cmp -s "$tmpdir/e1.npy" "$tmpdir/s1.npy"
	ok $? "acme.softsign: --emit $e's code, linked with no plugin code, gives ref's results bit for bit"
done

# acme.atan2(y, x), a row of two operands (FN2, ISNAN): y = (1, 1, -1, 0,
# 1, NaN), x = (1, -1, -1, -1, 0, 1), and y against the constant 2
# broadcast.  The values are Python's math.atan2 in double, rounded to
# float32: pi/4, 3pi/4, -3pi/4, pi, pi/2; atan(1/2) = 0.4636476; NaN
cat >"$tmpdir/want" <<'EOF'
result 0: Tensor[(6), float32]
[0.7853982, 2.3561945, -2.3561945, 3.1415927, 1.5707964, nan]
result 1: Tensor[(6), float32]
[0.4636476, 0.4636476, -0.4636476, 0, 0.4636476, nan]
[exit 0]
EOF
AT="--input y=$T/atan2_y.npy --input x=$T/atan2_x.npy $T/atan2.relay"
run_graft run --plugin "$P/acme.so" $AT
same_file "$tmpdir/got" "$tmpdir/want" "acme.atan2's row on ref: Python's values"
"$GRAFT" run --plugin "$P/acme.so" --output "$tmpdir/s0.npy" --output "$tmpdir/s1.npy" $AT
ok $? "acme.atan2 on ref: its results as .npy files"
for be in c llvm; do
	for t in "" "$T/kt.rules, host"; do
		"$GRAFT" run --plugin "$P/acme.so" --backend $be ${t:+--target "$t"} --output "$tmpdir/r0.npy" \
			--output "$tmpdir/r1.npy" $AT &&
			cmp -s "$tmpdir/r0.npy" "$tmpdir/s0.npy" && cmp -s "$tmpdir/r1.npy" "$tmpdir/s1.npy"
		ok $? "acme.atan2 on $be${t:+ in kt.rules' partitions}: ref's results bit for bit"
	done
done
"$GRAFT" --plugin "$P/acme.so" --target "$T/kt.rules, host" "$T/atan2.relay" | grep -c '^def @tvmgen_default_kt_main_[0-9]*(' |
	grep -q '^2$'
ok $? "tests/kt.rules makes both atan2 calls partitions"
rm -f "$tmpdir/model.c" "$tmpdir/model.o"
"$GRAFT" --plugin "$P/acme.so" --emit c -o "$tmpdir/model.c" "$T/atan2.relay" &&
	"$CC" -std=c99 -O2 -Wall -Wextra -Werror -c "$tmpdir/model.c" -o "$tmpdir/model.o" &&
	"$CC" -std=c99 -O2 "$srcdir/tests/arm/npyrun.c" "$tmpdir/model.o" -lm -o "$tmpdir/npyrun" &&
	"$tmpdir/npyrun" "$T/atan2_y.npy" "$T/atan2_x.npy" -o "$tmpdir/e0.npy" "$tmpdir/s0.npy" -o "$tmpdir/e1.npy" "$tmpdir/s1.npy" &&
	cmp -s "$tmpdir/e0.npy" "$tmpdir/s0.npy" && cmp -s "$tmpdir/e1.npy" "$tmpdir/s1.npy"
ok $? "acme.atan2: --emit c's code (atan2f inline), linked with no plugin code, gives ref's results bit for bit"

# acme's target table, compiled into the plugin: its rewrite rule, then
# its composites and supported ops
run_graft --plugin "$P/acme.so" --stats --target "acme, host" "$M"
sed 's|[^ (]*examples/out-of-tree/|examples/out-of-tree/|' "$tmpdir/got" >"$tmpdir/g2" && mv "$tmpdir/g2" "$tmpdir/got"
expect partition "the plugin's target table by name: its rule makes acme.clip_cast, both convolutions and the add offloaded"
cp "$tmpdir/out" "$tmpdir/generated.relay"

# the same .rules file loaded at run time: the extern op and extern pred
# found in the plugin, the same output byte for byte
run_graft --plugin "$P/acme.so" --target "$A/acme.rules, host" "$M"
same_file "$tmpdir/out" "$tmpdir/generated.relay" "acme.rules loaded at run time: the output of the compiled table"
run_graft --target "$A/acme.rules, host" "$M"
grep -q "acme.rules:12:11: error: extern op acme.clip_cast: no loaded plugin registers this op (load it with --plugin)" "$tmpdir/err" &&
	grep -q '^\[exit 1\]' "$tmpdir/status"
ok $? "an extern op no plugin registers: an error at its declaration"
sed 's/acme_fits/acme_fast/g' "$A/acme.rules" >"$tmpdir/fast.rules"
run_graft --plugin "$P/acme.so" --target "$tmpdir/fast.rules, host" "$M"
grep -q "fast.rules:15:13: error: extern pred acme_fast: no function graft_pred_acme_fast is loaded" "$tmpdir/err"
ok $? "an extern pred that neither graft nor its plugins define: the missing symbol named"

# acme's codegen: its command stream, and graft run through it
run_graft --plugin "$P/acme.so" --target "acme, host" --emit-target acme "$M"
expect emit "--emit-target acme: the partitions handed to acme's codegen"
run_graft --rules canonicalize --emit-target acme "$M"
grep -q "emit-target acme: no loaded plugin registers a codegen for this target" "$tmpdir/err" && grep -q '^\[exit 2\]' "$tmpdir/status"
ok $? "--emit-target of a target without a codegen: a usage error"
cp "$srcdir/examples/out-of-tree/tests/in.npy" "$tmpdir/in.npy"
ACME_TRACE=1 "$GRAFT" run --plugin "$P/acme.so" --target "acme, host" --input x="$tmpdir/in.npy" \
	--output "$tmpdir/acme.npy" "$M" 2>"$tmpdir/trace"
ok $? "graft run with acme's partitions"
grep -q '^acme: ran @tvmgen_default_acme_main_0$' "$tmpdir/trace"
ok $? "graft run: the partition ran through acme's codegen"
"$GRAFT" run --input x="$tmpdir/in.npy" --output "$tmpdir/plain.npy" "$M"
cmp -s "$tmpdir/acme.npy" "$tmpdir/plain.npy"
ok $? "graft run: acme's result is the unpartitioned model's, bit for bit"
for be in ref c llvm; do
	ACME_TRACE=1 "$GRAFT" run --plugin "$P/acme.so" --backend $be --target "acme, host" \
		--input x="$tmpdir/in.npy" --output "$tmpdir/$be.npy" "$M" 2>"$tmpdir/trace"
	st=$?
	[ $st -eq 0 ] && grep -q '^acme: ran @tvmgen_default_acme_main_0$' "$tmpdir/trace" && cmp -s "$tmpdir/$be.npy" "$tmpdir/plain.npy"
	ok $? "graft run --backend $be: acme's partition through its codegen, the rest on $be, the same result"
	# a codegen that fails says why, and nothing takes it for something else
	ACME_FAIL=1 "$GRAFT" run --plugin "$P/acme.so" --backend $be --target "acme, host" \
		--input x="$tmpdir/in.npy" "$M" >"$tmpdir/out" 2>"$tmpdir/err"
	st=$?
	[ $st -eq 1 ] && grep -q "acme's simulator is switched off" "$tmpdir/err" && ! grep -q "division by zero" "$tmpdir/err" &&
		[ ! -s "$tmpdir/out" ]
	ok $? "graft run --backend $be: a failing codegen's own message, exit 1, no result"
done

# acme-run: the example's program, the plugin linked in, graft driven
# through its C API
ACME_TRACE=1 "$P/acme-run" "$M" >"$tmpdir/got" 2>"$tmpdir/trace"
echo "[exit $?]" >>"$tmpdir/got"
expect acme-run "acme-run: lowered, partitioned, printed and run through the C API"
grep -q '^acme: ran @tvmgen_default_acme_main_0$' "$tmpdir/trace"
ok $? "acme-run: the partition ran through acme's codegen"

done_testing
