#!/bin/sh
# man.sh: the man pages graft installs render without a warning, and name
# every option the commands' --help lists, so that they stay in step.
. "${srcdir:-.}/tests/lib.sh"
: "${GRAFTC:?GRAFTC must name graftc}"

for m in graft.1 graftc.1 graft-rules.5; do
	f="$srcdir/docs/man/$m"
	if command -v groff >/dev/null 2>&1; then
		groff -man -ww -z "$f" 2>"$tmpdir/err" && [ ! -s "$tmpdir/err" ]
		ok $? "docs/man/$m renders without a warning"
		sed 's/^/#   /' "$tmpdir/err" | head -n 5
	else
		needs "docs/man/$m renders without a warning" groff-base
	fi
done

# options: --long ones from --help, against the page with its \- read as -
options() {
	grep -o -- '--[a-z][a-z-]*' | sort -u
}
sed 's/\\-/-/g' "$srcdir/docs/man/graft.1" >"$tmpdir/graft.1"
sed 's/\\-/-/g' "$srcdir/docs/man/graftc.1" >"$tmpdir/graftc.1"
{ "$GRAFT" --help; "$GRAFT" run --help; } | options >"$tmpdir/graft.opts"
"$GRAFTC" --help | options >"$tmpdir/graftc.opts"
for t in graft graftc; do
	missing=
	while read -r o; do
		grep -q -- "$o" "$tmpdir/$t.1" || missing="$missing $o"
	done <"$tmpdir/$t.opts"
	ok "$([ -z "$missing" ]; echo $?)" "$t.1 names all $(wc -l <"$tmpdir/$t.opts") options of $t --help${missing:+ (missing:$missing)}"
done

done_testing
