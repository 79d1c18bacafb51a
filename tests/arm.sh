#!/bin/sh
# arm.sh: graft for an Arm host beside an NPU, tvmc's "ethos-n, llvm
# -device=arm_cpu -mtriple=aarch64-linux-gnu":
#
# 1. --target's host part in tvmc's form: each bad value's message and
#    exit status; graft run refusing to run code for another machine
#    (but on ref, which interprets); what --emit llvm and obj record.
# 2. Models compiled for AArch64 with --emit obj and with --emit c, linked
#    with tests/arm/npyrun.c by aarch64-linux-gnu-gcc and run under
#    qemu-aarch64 (directly on an AArch64 machine), their results bit for
#    bit those of graft run --backend ref here: a float CNN
#    (tests/arm/float_cnn.relay), a quantized network (tests/arm/qnet.relay,
#    made by make_qnet.py), with and without Arm's dot product, and
#    PyTorch's int8 MobileNetV2 when tests/models.sh has made it.  Every
#    tests/backends/*.relay's C compiles with aarch64-linux-gnu-gcc -Wall
#    -Wextra -Werror.
# 3. The int8 kernels on Arm's dot product: sdot in the disassembly of an
#    int8 conv with +dotprod or a CPU that has it (cortex-a55), none
#    without; qnn.dense on sdot too.
. "${srcdir:-.}/tests/lib.sh"
py=${PYTHON3:-python3}
d="$srcdir/tests/arm"
a64="llvm -device=arm_cpu -mtriple=aarch64-linux-gnu"
qconv="--rules canonicalize --params $srcdir/examples/pytorch_qconv.safetensors $srcdir/examples/pytorch_qconv.relay"
# a machine that is not this one, whatever this one is
case $(uname -m) in
riscv64) other=x86_64-linux-gnu; othern=x86_64-unknown-linux-gnu ;;
*) other=riscv64-linux-gnu; othern=riscv64-unknown-linux-gnu ;;
esac

# ---------------------------------------------------------------- 1. --target
m="$srcdir/tests/run/add.relay"
fails 1 'graft: error: --target "llvm -mtriple=nosuch": No available targets are compatible with triple "nosuch"' \
	--target "llvm -mtriple=nosuch" "$m"
fails 1 "graft: error: --target \"$a64 -mcpu=cortex-z9\": 'cortex-z9' is not a recognized processor for this target" \
	--target "ethos-n, $a64 -mcpu=cortex-z9" "$m"
fails 1 "graft: error: --target \"$a64 -mattr=+dotprod,+warp\": '+warp' is not a recognized feature for this target" \
	--target "$a64 -mattr=+dotprod,+warp" "$m"
fails 1 "graft: error: --target \"$a64 -mattr=dotprod\": -mattr=dotprod: each feature starts with + (on) or - (off): +dotprod" \
	--target "$a64 -mattr=dotprod" "$m"
fails 1 "graft: error: --target \"$a64 -mfloat-abi=hard\": llvm has no option '-mfloat-abi' (it takes -mtriple, -mcpu, -mattr and -device)" \
	--target "$a64 -mfloat-abi=hard" "$m"
fails 1 "graft: error: --target \"$a64 -mcpu\": -mcpu needs a value: -mcpu=CPU" --target "$a64 -mcpu" "$m"
fails 1 "graft: error: --target \"$a64 -mtriple=aarch64-linux-gnu\": -mtriple is given twice" \
	--target "$a64 -mtriple=aarch64-linux-gnu" "$m"
fails 1 "graft: error: --target \"llvm -mtriple=$other -mcpu=native\": -mcpu=native names this machine's CPU, and $othern is not this machine's target" \
	--target "llvm -mtriple=$other -mcpu=native" "$m"
fails 1 'graft: error: --target "llvm -mtriple=aarch64_be-linux-gnu": aarch64_be-unknown-linux-gnu is big-endian: graft lays out constants in this machine'"'"'s byte order' \
	--target "llvm -mtriple=aarch64_be-linux-gnu" "$m"
fails 2 "graft: error: --target \"$a64, host\": 'host' comes after the host target; partitioned targets come first" \
	--target "$a64, host" "$m"
# graft run: ref interprets whatever the target; c and llvm cannot run
# what they compile for another machine
for b in llvm c; do
	fails 1 "graft: error: --target \"llvm -mtriple=$other\": graft run cannot run code for another machine on this one (--backend $b runs what it compiles here); write it with graft --emit obj or --emit c and run it there, or run the model here with --backend ref" \
		run --backend $b --target "llvm -mtriple=$other" --input x="$srcdir/tests/run/x.npy" \
		--input y="$srcdir/tests/run/y.npy" "$m"
done
"$GRAFT" run --target "ethos-n, $a64" --input x="$srcdir/tests/run/x.npy" --input y="$srcdir/tests/run/y.npy" \
	--output "$tmpdir/sum.npy" "$m" 2>"$tmpdir/err"
same_file "$tmpdir/sum.npy" "$srcdir/tests/run/sum.npy" "graft run --backend ref runs a model whose host is AArch64"
"$GRAFT" run --backend llvm --target "llvm -mcpu=native" --input x="$srcdir/tests/run/x.npy" \
	--input y="$srcdir/tests/run/y.npy" --output "$tmpdir/sum.npy" "$m" 2>"$tmpdir/err"
same_file "$tmpdir/sum.npy" "$srcdir/tests/run/sum.npy" "graft run --backend llvm --target \"llvm -mcpu=native\" runs here"
# what the files say of the machine
"$GRAFT" --target "ethos-n, $a64 -mcpu=cortex-a55 -mattr=+dotprod" --emit llvm -o "$tmpdir/q.ll" $qconv &&
	grep -q '^target triple = "aarch64-unknown-linux-gnu"$' "$tmpdir/q.ll" &&
	grep -q '"target-cpu"="cortex-a55" "target-features"="+dotprod"' "$tmpdir/q.ll"
ok $? "--emit llvm: the AArch64 triple, and -mcpu and -mattr as the functions' attributes (for llc)"
"$GRAFT" --target "ethos-n, $a64 -mcpu=cortex-a55 -mattr=+dotprod" --emit obj -o "$tmpdir/q.o" $qconv &&
	grep -qxF '/* for aarch64-unknown-linux-gnu, -mcpu=cortex-a55 -mattr=+dotprod -device=arm_cpu */' "$tmpdir/q.h"
ok $? "--emit obj: its header names the machine, -device included"

# ---------------------------------------------------------------- 2. AArch64
cc=aarch64-linux-gnu-gcc
objdump=aarch64-linux-gnu-objdump
if [ "$(uname -m)" = aarch64 ]; then
	qemu=
else
	qemu=qemu-aarch64
fi
if ! command -v $cc >/dev/null || ! command -v $objdump >/dev/null || { [ -n "$qemu" ] && ! command -v $qemu >/dev/null; } ||
	! printf 'int main(void) { return 0; }\n' | $cc -static -x c - -o "$tmpdir/nop" 2>/dev/null; then
	needs "models cross-compiled for AArch64 and run under qemu-user" \
		"gcc-aarch64-linux-gnu libc6-dev-arm64-cross binutils-aarch64-linux-gnu qemu-user"
	done_testing
	exit $?
fi
if ! "$py" -c 'import struct' 2>/dev/null; then
	needs "models cross-compiled for AArch64 (python3 makes the inputs)" python3
	done_testing
	exit $?
fi
npy() { "$py" "$srcdir/tests/backends/npy.py" "$@"; }
$cc -std=c99 -O2 -Wall -Wextra -Werror -c "$d/npyrun.c" -o "$tmpdir/npyrun.o" 2>"$tmpdir/err"
ok $? "tests/arm/npyrun.c compiles for AArch64"

# armrun NAME DESC INPUTS -- GRAFT-ARGS...: compiles the model GRAFT-ARGS
# name for AArch64 with --emit obj and --emit c (the target: $tgt), runs
# each under qemu on the .npy INPUTS (@main's parameters, in order), and
# compares its results with $tmpdir/NAME.refK.npy, which graft run
# --backend ref made: one test point for each
armrun() {
	name=$1; desc=$2; shift 2
	ins=""
	while [ "$1" != -- ]; do ins="$ins $1"; shift; done
	shift
	outs=""
	for r in "$tmpdir/$name".ref*.npy; do
		outs="$outs -o ${r%.ref*}.got${r##*.ref} $r"
	done
	for how in obj c; do
		rm -f "$tmpdir/$name".got*.npy
		if [ $how = obj ]; then
			"$GRAFT" --target "$tgt" --emit obj -o "$tmpdir/$name.o" "$@" 2>"$tmpdir/err" &&
				$cc -static "$tmpdir/$name.o" "$tmpdir/npyrun.o" -lm -o "$tmpdir/$name" 2>>"$tmpdir/err"
		else
			# as the c backend compiles it: float operations as written
			"$GRAFT" --target "$tgt" --emit c -o "$tmpdir/$name.c" "$@" 2>"$tmpdir/err" &&
				$cc -std=c99 -O2 -ffp-contract=off -Wall -Wextra -Werror -static "$tmpdir/$name.c" "$tmpdir/npyrun.o" \
					-lm -o "$tmpdir/$name" 2>>"$tmpdir/err"
		fi &&
		# shellcheck disable=SC2086
		$qemu "$tmpdir/$name" $ins $outs 2>>"$tmpdir/err"
		st=$?
		for r in "$tmpdir/$name".ref*.npy; do
			[ $st -ne 0 ] || cmp -s "$r" "${r%.ref*}.got${r##*.ref}" || { st=1; echo "#   result ${r##*.ref} differs"; }
		done
		ok $st "$desc: --emit $how for AArch64, run under ${qemu:-this machine}, gives ref's results bit for bit"
		[ $st -eq 0 ] || sed 's/^/#   /' "$tmpdir/err" | head -n 10
	done
}

# the float CNN
npy "$tmpdir/fx.npy" float32 1,3,12,12 11
npy "$tmpdir/fw1.npy" float32 8,3,3,3 12 -0.5 0.5
npy "$tmpdir/fw2.npy" float32 8,2,3,3 13 -0.5 0.5
npy "$tmpdir/fwd.npy" float32 10,72 14 -0.5 0.5
npy "$tmpdir/fb.npy" float32 8 15
set -- "$tmpdir/fx.npy" "$tmpdir/fw1.npy" "$tmpdir/fw2.npy" "$tmpdir/fwd.npy" "$tmpdir/fb.npy"
"$GRAFT" run --input x="$1" --input w1="$2" --input w2="$3" --input wd="$4" --input b="$5" \
	--output "$tmpdir/float.ref0.npy" --output "$tmpdir/float.ref1.npy" "$d/float_cnn.relay"
tgt=$a64 armrun float "float_cnn.relay" "$@" -- "$d/float_cnn.relay"

# the quantized network: the dot path (+dotprod, and cortex-a55 that has
# it) and the generic loops (cortex-a53)
npy "$tmpdir/qx.npy" float32 1,3,15,13 21 -1 1
"$GRAFT" run --input x="$tmpdir/qx.npy" --output "$tmpdir/qnet.ref0.npy" --output "$tmpdir/qnet.ref1.npy" \
	--output "$tmpdir/qnet.ref2.npy" "$d/qnet.relay"
for cpu in "-mattr=+dotprod" "-mcpu=cortex-a55" "-mcpu=cortex-a53"; do
	tgt="$a64 $cpu" armrun qnet "qnet.relay ($cpu)" "$tmpdir/qx.npy" -- "$d/qnet.relay"
done
# the seed model's conv
npy "$tmpdir/img.npy" float32 1,3,224,224 1
# shellcheck disable=SC2086
"$GRAFT" run --input input="$tmpdir/img.npy" --output "$tmpdir/qconv.ref0.npy" $qconv
# shellcheck disable=SC2086
tgt="ethos-n, $a64 -mattr=+dotprod" armrun qconv "pytorch_qconv.relay --rules canonicalize" "$tmpdir/img.npy" -- $qconv

# PyTorch's int8 MobileNetV2, as tests/models.sh partitions it
mb=${builddir:-.}/tests/models
if [ -f "$mb/mobilenet_v2.onnx" ] && [ -f "$mb/input.npy" ]; then
	margs="--rules qdq --rules canonicalize $mb/mobilenet_v2.onnx"
	# shellcheck disable=SC2086
	"$GRAFT" run --input input="$mb/input.npy" --output "$tmpdir/mobilenet.ref0.npy" $margs
	# shellcheck disable=SC2086
	tgt="ethos-n, $a64 -mcpu=cortex-a55 -mattr=+dotprod" armrun mobilenet "int8 MobileNetV2" "$mb/input.npy" -- $margs
else
	skip "int8 MobileNetV2 for AArch64" "tests/models.sh did not make $mb/mobilenet_v2.onnx (it needs python3-torch python3-torchvision python3-onnx)"
fi

# every backend golden's C, as cc compiles it in tests/backends.sh
(cd "$srcdir" && ls tests/backends/*.relay) >"$tmpdir/files"
while read -r f; do
	args=$(sed -n '1s|^// RUN: graft \(.*\)%s$|\1|p' "$srcdir/$f")
	# shellcheck disable=SC2086
	(cd "$srcdir" && "$GRAFT" $args -o "$tmpdir/g.c" "$f") >/dev/null 2>&1 || continue
	(cd "$tmpdir" && $cc -std=c99 -Wall -Wextra -Werror -c g.c -o g.o) >"$tmpdir/err" 2>&1
	st=$?
	ok $st "$f: its C compiles with aarch64-linux-gnu-gcc -std=c99 -Wall -Wextra -Werror"
	[ $st -eq 0 ] || sed 's/^/#   /' "$tmpdir/err" | head -n 10
done <"$tmpdir/files"

# ---------------------------------------------------------------- 3. sdot
# sdots: the sdot instructions in the disassembly of $tmpdir/s.o
sdots() { $objdump -d "$tmpdir/s.o" | grep -c '	sdot	'; }
for cpu in "-mattr=+dotprod" "-mcpu=cortex-a55" "-mcpu=cortex-a53" "-mcpu=cortex-a55 -mattr=-dotprod" ""; do
	# shellcheck disable=SC2086
	"$GRAFT" --target "ethos-n, $a64 $cpu" --emit obj -o "$tmpdir/s.o" $qconv 2>"$tmpdir/err"
	n=$(sdots)
	case $cpu in
	*+dotprod|*a55) [ "$n" -gt 0 ]; ok $? "the int8 conv for AArch64 $cpu: $n sdot instructions" ;;
	*) [ "$n" -eq 0 ]; ok $? "the int8 conv for AArch64 ${cpu:-(no -mcpu, no -mattr)}: no sdot ($n)" ;;
	esac
done
"$GRAFT" --target "$a64 -mattr=+dotprod" --emit llvm -o "$tmpdir/q.ll" "$d/qnet.relay" 2>"$tmpdir/err"
[ "$(awk '/^define .*qnn\.dense/ { f = 1 } /^}/ { f = 0 } f && /call <4 x i32> @llvm\.aarch64\.neon\.sdot/ { n++ } END { print n + 0 }' "$tmpdir/q.ll")" -gt 0 ]
ok $? "qnn.dense for AArch64 with +dotprod runs on sdot"
done_testing
