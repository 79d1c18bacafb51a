#!/bin/sh
# library.sh: libgraft as it installs.  The shared library has its
# versioned SONAME and exports exactly the documented API (libgraft.sym:
# what the public headers declare), no internals; graft exports the same
# API to its plugins; shipped.h declares every shipped ruleset; and a
# program linked against the shared library alone runs.
. "${srcdir:-.}/tests/lib.sh"
: "${GRAFT_HEADERS:?GRAFT_HEADERS must list the public headers}"
: "${LIBGRAFT_SOMAJOR:?LIBGRAFT_SOMAJOR must give the SONAME's number}"
b=${builddir:-.}
so=$b/.libs/libgraft.so

[ -f "$b/.libs/libgraft.so.$LIBGRAFT_SOMAJOR" ] && [ -f "$b/.libs/libgraft.a" ]
ok $? "libgraft is built shared (libgraft.so.$LIBGRAFT_SOMAJOR) and static (libgraft.a)"
readelf -d "$so" | grep -q "Library soname: \[libgraft.so.$LIBGRAFT_SOMAJOR\]"
ok $? "libgraft.so's SONAME is libgraft.so.$LIBGRAFT_SOMAJOR"

nm -D --defined-only "$so" | awk '{ print $3 }' | LC_ALL=C sort >"$tmpdir/exported"
same_file "$tmpdir/exported" "$b/libgraft.sym" "libgraft.so exports exactly the names the public headers declare ($(wc -l <"$b/libgraft.sym") of them)"
for f in graft_module_load graft_compile graft_program_run graft_arg graft_dtype graft_rw_call graft_rw_ir \
	graft_plugin_add_op graft_plugin_add_matcher graft_ref_run graft_register_plugin; do
	grep -qx "$f" "$b/libgraft.sym"
	ok $? "the API exports $f"
done
grep -v '^graft_' "$b/libgraft.sym" >"$tmpdir/unprefixed"
[ ! -s "$tmpdir/unprefixed" ]
ok $? "every name libgraft exports has the graft_ prefix"
sed 's/^/#   /' "$tmpdir/unprefixed" | head -n 10
for f in ir_module_new ir_parse ir_print ir_rewrite ir_partition ref_prepare interp_load plugin_load be_ref \
	onnx_import rw_call dsl_parse dsl_emit ref_op be_c_emit drv_ruleset_find drv_pipeline; do
	grep -qx "$f" "$b/libgraft.sym"
	ok $((!$?)) "internal $f stays hidden"
done
nm -D --defined-only "$GRAFT" | awk '{ print $3 }' | LC_ALL=C sort >"$tmpdir/graft.syms"
LC_ALL=C comm -23 "$b/libgraft.sym" "$tmpdir/graft.syms" >"$tmpdir/missing"
[ ! -s "$tmpdir/missing" ]
ok $? "graft exports the whole API to its plugins, whether it calls it or not"
[ -s "$tmpdir/missing" ] && sed 's/^/#   missing: /' "$tmpdir/missing" | head -n 5

# shipped.h: a line for every ruleset graft has built in
sed -n 's/^RULESET(\(.*\))$/\1/p' "$srcdir/driver/rulesets.def" >"$tmpdir/builtin"
n=0
while read -r r; do
	grep -q "extern const Ruleset graft_ruleset_$r;" "$srcdir/gen/shipped.h" || n=$((n + 1))
done <"$tmpdir/builtin"
ok "$n" "gen/shipped.h declares all $(wc -l <"$tmpdir/builtin") built-in rulesets"

# a program against the shared library alone, through <graft/graft.h>
mkdir -p "$tmpdir/api/graft"
for h in $GRAFT_HEADERS; do
	if [ -f "$srcdir/$h" ]; then cp "$srcdir/$h" "$tmpdir/api/graft/"; else cp "$b/$h" "$tmpdir/api/graft/"; fi
done
printf 'qnn.quantize(const, const, const) => fold_const\n' >"$tmpdir/card.rules"
# shellcheck disable=SC2086
${CC:-cc} -std=c11 -Wall -Wextra -Werror ${SAN_CFLAGS:-} -I"$tmpdir/api" -I"$tmpdir/api/graft" "$srcdir/tests/install/use.c" \
	-L"$b/.libs" -Wl,-rpath,"$b/.libs" -lgraft -o "$tmpdir/use" 2>"$tmpdir/err"
ok $? "tests/install/use.c links against libgraft.so"
sed 's/^/#   /' "$tmpdir/err" | head -n 10
"$tmpdir/use" "$tmpdir/card.rules" "$srcdir/tests/install/quantize.relay" >"$tmpdir/out" 2>&1 &&
	grep -q '^card: 1 rewrites' "$tmpdir/out"
ok $? "and runs: the card rule loaded at run time rewrites through the shared library"
ldd "$tmpdir/use" | grep -q "libgraft.so.$LIBGRAFT_SOMAJOR => $b/.libs/libgraft.so.$LIBGRAFT_SOMAJOR"
ok $? "it uses libgraft.so.$LIBGRAFT_SOMAJOR"

done_testing
