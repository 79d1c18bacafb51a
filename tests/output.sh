#!/bin/sh
# output.sh: every file graft and graftc write (graft -o, --emit c|llvm|obj
# and their headers, --save-params, graft run --output, graftc -o and
# --header) goes through ir_out_open() (ir/file.c): a device or FIFO is
# written to and never replaced, a symbolic link is written through and
# stays a link, a regular file keeps its mode and its other hard links, a
# directory is refused, "-" is standard output, a failure leaves the old
# file whole, and no temporary file is left behind.  The device is a
# private node made here, never the system's /dev/null.
. "${srcdir:-.}/tests/lib.sh"
: "${GRAFTC:?GRAFTC must name graftc}"
model="$srcdir/examples/pytorch_qconv.relay"
params="$srcdir/examples/pytorch_qconv.safetensors"
addm="$srcdir/tests/run/add.relay"
rules="$srcdir/tests/graftc/card.rules"
x="$srcdir/tests/run/x.npy"
y="$srcdir/tests/run/y.npy"

# each writer, as "NAME|COMMAND WITH @OUT@": what a run writes to @OUT@ is
# also written to $tmpdir/ref/NAME by the same command, for comparison
writers="relay|\"\$GRAFT\" -o @OUT@ $model
dot|\"\$GRAFT\" --emit dot -o @OUT@ $model
params|\"\$GRAFT\" --params $params --rules canonicalize --save-params @OUT@ -o $tmpdir/ignored.relay $model
npy|\"\$GRAFT\" run --input x=$x --input y=$y --output @OUT@ $addm
llvm|\"\$GRAFT\" --emit llvm -o @OUT@ $addm
graftc|\"\$GRAFTC\" -o @OUT@ $rules
header|\"\$GRAFTC\" -o $tmpdir/ignored.c --header @OUT@ $rules"

# run NAME OUT: the writer NAME with its output at OUT; its exit status
run() {
	cmd=$(printf '%s\n' "$writers" | sed -n "s/^$1|//p" | sed "s|@OUT@|$2|g")
	eval "$cmd" >"$tmpdir/stdout" 2>"$tmpdir/err"
}

# notmp DIR DESC: no temporary file was left in DIR
notmp() {
	left=$(ls -a "$1" | grep '\.tmp[0-9]' || true)
	ok "$([ -z "$left" ]; echo $?)" "$2: no temporary file left${left:+ ($left)}"
}

mkdir "$tmpdir/ref"
names=$(printf '%s\n' "$writers" | sed 's/|.*//')
for n in $names; do
	run "$n" "$tmpdir/ref/$n"
	st=$?
	ok "$st" "$n: writes a new regular file"
	[ "$st" -eq 0 ] || sed 's/^/#   /' "$tmpdir/err"
done
# the link header's entry points: obj and its FILE.h, c and its FILE.h
"$GRAFT" --emit obj -o "$tmpdir/ref/m.o" "$addm" 2>"$tmpdir/err"
ok "$([ $? -eq 0 ] && [ -s "$tmpdir/ref/m.o" ] && [ -s "$tmpdir/ref/m.h" ]; echo $?)" "obj: writes FILE.o and FILE.h"
"$GRAFT" --emit c -o "$tmpdir/ref/m.c" "$addm" 2>"$tmpdir/err"
ok "$([ $? -eq 0 ] && [ -s "$tmpdir/ref/m.c" ] && grep -q 'include "m.h"' "$tmpdir/ref/m.c"; echo $?)" \
	"c: writes FILE.c and FILE.h"

# ---------------------------------------------------------------- a device
# A private character device with /dev/null's numbers: as root, the old
# writers replaced it with a regular file.
dev="$tmpdir/null"
if mknod "$dev" c 1 3 2>/dev/null; then
	for n in $names; do
		run "$n" "$dev"
		st=$?
		ok "$([ "$st" -eq 0 ] && [ -c "$dev" ]; echo $?)" "$n: writes to a device and leaves it a device"
		[ -c "$dev" ] || { rm -f "$dev"; mknod "$dev" c 1 3; }
	done
	"$GRAFT" --emit obj -o "$dev" "$addm" 2>"$tmpdir/err"
	ok "$([ $? -eq 0 ] && [ -c "$dev" ]; echo $?)" "obj: writes to a device and leaves it a device"
	# a device that fails every write (/dev/full's numbers): the error
	# is reported, exit 1
	mknod "$tmpdir/full" c 1 7
	for n in $names; do
		run "$n" "$tmpdir/full"
		st=$?
		ok "$([ "$st" -eq 1 ] && [ -c "$tmpdir/full" ] && grep -q "cannot write.*No space left on device" "$tmpdir/err"; echo $?)" \
			"$n: a device that fails writes is reported, exit 1 (got $st)"
	done
	notmp "$tmpdir" "devices"
else
	skip "writers on a device node" "mknod needs root (CAP_MKNOD)"
fi

# ---------------------------------------------------------------- a FIFO
# The reader gets every byte the writer would put in a file.
if command -v mkfifo >/dev/null 2>&1; then
	for n in $names; do
		rm -f "$tmpdir/fifo" "$tmpdir/got"
		mkfifo "$tmpdir/fifo"
		cat "$tmpdir/fifo" >"$tmpdir/got" &
		reader=$!
		run "$n" "$tmpdir/fifo"
		st=$?
		wait "$reader"
		ok "$([ "$st" -eq 0 ] && [ -p "$tmpdir/fifo" ]; echo $?)" "$n: writes to a FIFO and leaves it a FIFO"
		if [ "$n" = llvm ] || [ "$n" = graftc ] || [ "$n" = header ]; then
			# these name their output file inside it: compare all but that
			ok "$([ -s "$tmpdir/got" ]; echo $?)" "$n: the FIFO's reader got the output"
		else
			same_file "$tmpdir/got" "$tmpdir/ref/$n" "$n: the FIFO's reader got the whole output"
		fi
	done
	rm -f "$tmpdir/fifo"
	notmp "$tmpdir" "FIFOs"
fi

# ---------------------------------------------------------------- links and modes
mkdir "$tmpdir/real" "$tmpdir/links"
for n in $names; do
	f="$tmpdir/real/$n"
	echo old >"$f"
	chmod 0640 "$f"
	ln -s "../real/$n" "$tmpdir/links/$n"
	run "$n" "$tmpdir/links/$n"
	st=$?
	ok "$([ "$st" -eq 0 ] && [ -L "$tmpdir/links/$n" ]; echo $?)" "$n: writes through a symbolic link, which stays a link"
	ok "$([ "$(stat -c %a "$f")" = 640 ]; echo $?)" "$n: the file keeps its mode (0640, got $(stat -c %a "$f"))"
	ok "$(! grep -qx old "$f"; echo $?)" "$n: the link's target holds the output"
done
notmp "$tmpdir/real" "symbolic links"

# a dangling link: the file is made where it points
ln -s "$tmpdir/real/new.relay" "$tmpdir/links/dangling"
"$GRAFT" -o "$tmpdir/links/dangling" "$model" 2>"$tmpdir/err"
ok "$([ $? -eq 0 ] && [ -L "$tmpdir/links/dangling" ] && [ -f "$tmpdir/real/new.relay" ]; echo $?)" \
	"relay: a dangling link's target is created, and the link stays"
# a loop of links is refused
ln -s loop2 "$tmpdir/links/loop1"
ln -s loop1 "$tmpdir/links/loop2"
"$GRAFT" -o "$tmpdir/links/loop1" "$model" 2>"$tmpdir/err"
st=$?
ok "$([ "$st" -eq 1 ] && [ -L "$tmpdir/links/loop1" ] && grep -qx "graft: error: $tmpdir/links/loop1: cannot write it: Too many levels of symbolic links" "$tmpdir/err"; echo $?)" \
	"relay: a loop of symbolic links is refused, exit 1 (got $st)"

# hard links: every name sees the new contents
for n in relay npy graftc; do
	echo old >"$tmpdir/real/h1"
	ln -f "$tmpdir/real/h1" "$tmpdir/real/h2"
	run "$n" "$tmpdir/real/h1"
	ok "$([ $? -eq 0 ] && [ "$(stat -c %h "$tmpdir/real/h1")" = 2 ] && cmp -s "$tmpdir/real/h1" "$tmpdir/real/h2" && \
	      ! grep -qx old "$tmpdir/real/h2"; echo $?)" "$n: a file with two hard links keeps both, with the output"
	rm -f "$tmpdir/real/h1" "$tmpdir/real/h2"
done
notmp "$tmpdir/real" "hard links"

# ---------------------------------------------------------------- refusals
mkdir "$tmpdir/dir"
for n in $names; do
	run "$n" "$tmpdir/dir"
	st=$?
	ok "$([ "$st" -eq 1 ] && [ -d "$tmpdir/dir" ] && grep -q "cannot write .*Is a directory" "$tmpdir/err"; echo $?)" \
		"$n: a directory is refused, exit 1 (got $st)"
done
run relay "$tmpdir/nodir/x.relay"
ok "$([ $? -eq 1 ] && grep -qx "graft: error: $tmpdir/nodir/x.relay: cannot create a temporary file beside it: No such file or directory" "$tmpdir/err"; echo $?)" \
	"relay: a missing directory is refused with the reason"

# a failure after the text is printed (--save-params into a directory)
# leaves the old -o file as it was
echo old >"$tmpdir/keep.relay"
"$GRAFT" --params "$params" --save-params "$tmpdir/dir" -o "$tmpdir/keep.relay" "$model" 2>"$tmpdir/err"
st=$?
ok "$([ "$st" -eq 1 ] && grep -qx old "$tmpdir/keep.relay"; echo $?)" \
	"relay: when --save-params fails, -o's old file is untouched (exit $st)"
# an --emit c whose header cannot be written writes neither file
echo old >"$tmpdir/keep.c"
mkdir "$tmpdir/keep.h"
"$GRAFT" --emit c -o "$tmpdir/keep.c" "$addm" 2>"$tmpdir/err"
st=$?
ok "$([ "$st" -eq 1 ] && grep -qx old "$tmpdir/keep.c" && grep -q "^graft: error: $tmpdir/keep.h: cannot write it: Is a directory" "$tmpdir/err"; echo $?)" \
	"c: when FILE.h cannot be written, FILE.c is untouched (exit $st)"
# a rules file with errors leaves graftc's old output as it was
echo old >"$tmpdir/keep2.c"
printf 'ruleset bad\nnosuch.op(x) => x\n' >"$tmpdir/bad.rules"
"$GRAFTC" -o "$tmpdir/keep2.c" "$tmpdir/bad.rules" 2>"$tmpdir/err"
st=$?
ok "$([ "$st" -eq 1 ] && grep -qx old "$tmpdir/keep2.c"; echo $?)" "graftc: errors in the rules leave -o's old file untouched"
"$GRAFT" -o "$tmpdir/same" --params "$params" --save-params "$tmpdir/same" "$model" 2>"$tmpdir/err"
ok "$([ $? -eq 2 ] && grep -q "name the same file" "$tmpdir/err"; echo $?)" "-o and --save-params naming one file is a usage error"
notmp "$tmpdir" "refusals"

# ---------------------------------------------------------------- standard output
for n in relay npy graftc; do
	run "$n" -
	ok $? "$n: '-' writes standard output"
	if [ "$n" = graftc ]; then
		ok "$([ -s "$tmpdir/stdout" ] && [ ! -e ./- ]; echo $?)" "$n: standard output got the output, no file '-'"
	else
		same_file "$tmpdir/stdout" "$tmpdir/ref/$n" "$n: standard output got the whole output"
	fi
done

done_testing
