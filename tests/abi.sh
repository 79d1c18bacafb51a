#!/bin/sh
# abi.sh: graft's ABI never breaks silently (docs/embedding.md, "Versions").
#  - examples/out-of-tree's Acme plugin, built against the public headers
#    of an older graft (6823e7c, plugin ABI 1: tests/abi/v1/, with that
#    graft's graftc output of acme.rules), either works in this graft or is
#    refused with a message that names both ABI versions;
#  - the public headers number no op (a plugin knows ops by name alone);
#  - libgraft.so's ABI as abidw describes it (its exported functions and
#    variables, and the structs and enums they reach) is the one recorded
#    in tests/abi/libgraft.abi with the -version-info and GRAFT_PLUGIN_ABI
#    of tests/abi/libgraft.versions (tests/abi/compare.sh); a change fails
#    until they are bumped and `make abi-update` records it.
. "${srcdir:-.}/tests/lib.sh"
: "${LIBGRAFT_VERSION_INFO:?LIBGRAFT_VERSION_INFO must give libgraft's -version-info}"

b=${builddir:-.}
A="$b/tests/abi"
M="$srcdir/examples/out-of-tree/tests/block.relay"
abi=$(sed -n 's/^#define GRAFT_PLUGIN_ABI \([0-9]*\).*/\1/p' "$srcdir/plugin/plugin.h")

# run NAME ARGS...: graft ARGS; standard output, error and "[exit N]" into
# $tmpdir/NAME
run() {
	name=$1
	shift
	"$GRAFT" "$@" >"$tmpdir/$name.out" 2>"$tmpdir/$name.err"
	echo "[exit $?]" >"$tmpdir/$name.st"
	cat "$tmpdir/$name.out" "$tmpdir/$name.err" "$tmpdir/$name.st" >"$tmpdir/$name"
}

# ---------------------------------------------------------------- an older graft's plugin

grep -q '^#define GRAFT_PLUGIN_ABI 1$' "$srcdir/tests/abi/v1/graft/plugin.h" && [ "$abi" != 1 ]
ok $? "the older headers are plugin ABI 1, this graft's is $abi"
run now --plugin "$b/tests/plugin/acme.so" --stats --target "acme, host" "$M"
run old --plugin "$A/acme-v1.so" --stats --target "acme, host" "$M"
if grep -q '^\[exit 0\]' "$tmpdir/old.st"; then
	same_file "$tmpdir/old" "$tmpdir/now" "acme built for plugin ABI 1: works here, as the plugin built today does"
else
	grep -q "acme-v1.so was built for graft's plugin ABI 1; this graft has ABI $abi" "$tmpdir/old.err" &&
		grep -q '^\[exit 1\]' "$tmpdir/old.st" && [ ! -s "$tmpdir/old.out" ]
	ok $? "acme built for plugin ABI 1: refused, naming both ABI versions, before anything is matched"
	sed 's/^/#   /' "$tmpdir/old.err" | head -n 5
fi
run oldrun run --plugin "$A/acme-v1.so" --target "acme, host" --input x="$srcdir/examples/out-of-tree/tests/in.npy" "$M"
grep -q '^\[exit 0\]' "$tmpdir/oldrun.st" || { grep -q "ABI 1; this graft has ABI $abi" "$tmpdir/oldrun.err" && [ ! -s "$tmpdir/oldrun.out" ]; }
ok $? "graft run with it: the same"

# ---------------------------------------------------------------- op numbering

# what a plugin compiles against names no op by number: ops.def is not
# installed, and no public header has an op's OP_ id (compiled matchers
# name ops by name, bound where they run; tests/graftc checks graftc's)
[ ! -e "$b/tests/plugin/include/graft/ops.def" ] && ! grep -l '\bOP_[A-Z]' "$b"/tests/plugin/include/graft/*.h
ok $? "the public headers number no op"

# ---------------------------------------------------------------- libgraft's ABI

if ! command -v abidw >/dev/null 2>&1 || ! command -v abidiff >/dev/null 2>&1; then
	needs "libgraft's ABI against tests/abi/libgraft.abi" abigail-tools
elif ! abidw $ABIDW_FLAGS --headers-dir "$b/tests/plugin/include/graft" --out-file "$tmpdir/now.abi" \
	"$b/.libs/libgraft.so" 2>"$tmpdir/abidw.err" || ! grep -q "<class-decl name='graft_matcher'" "$tmpdir/now.abi"; then
	skip "libgraft's ABI against tests/abi/libgraft.abi" "abidw found no debug information in libgraft.so (CFLAGS without -g)"
else
	sh "$srcdir/tests/abi/compare.sh" "$srcdir/tests/abi/libgraft.abi" "$srcdir/tests/abi/libgraft.versions" \
		"$tmpdir/now.abi" "$LIBGRAFT_VERSION_INFO" "$abi" >"$tmpdir/verdict"
	ok $? "$(head -n 1 "$tmpdir/verdict")"
	sed '1d; s/^/#   /' "$tmpdir/verdict" | head -n 60
fi

done_testing
