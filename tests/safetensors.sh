#!/bin/sh
# safetensors.sh: runs tests/unit/safetensors on a file written by an
# independent writer (tests/data/make_safetensors.py).
: "${srcdir:=.}"
if [ -z "$PYTHON3" ]; then
	exec "$builddir/tests/unit/safetensors"
fi
tmp=$(mktemp "${TMPDIR:-/tmp}/graft-st.XXXXXX")
trap 'rm -f "$tmp"' EXIT
"$PYTHON3" "$srcdir/tests/data/make_safetensors.py" "$tmp" || { echo "Bail out! make_safetensors.py failed"; exit 1; }
"$builddir/tests/unit/safetensors" "$tmp"
