#!/bin/sh
# compare.sh RECORDED.abi RECORDED.versions NOW.abi VERSION-INFO PLUGIN-ABI:
# whether libgraft's ABI now (abidw's description NOW.abi, its
# -version-info and GRAFT_PLUGIN_ABI) keeps the rules of docs/embedding.md
# ("Versions") against the recorded one.  Says why on standard output, and
# exits
#   0  the ABI and the versions are the ones recorded (REVISION aside)
#   1  the ABI changed and the versions were not bumped as the rules say
#   2  the versions were bumped as the rules say (or the ABI is the same
#      and only they changed): `make abi-update` records them
#   3  abidiff failed
# tests/abi.sh passes on 0 alone; `make abi-update` records on 0 and 2.
rec=$1 recvers=$2 now=$3 vi=$4 abi=$5

rvi=$(sed -n 's/^version-info //p' "$recvers")
rabi=$(sed -n 's/^plugin-abi //p' "$recvers")
# field N of a CURRENT:REVISION:AGE
f() { echo "$1" | cut -d: -f"$2"; }
c=$(f "$vi" 1) a=$(f "$vi" 3) rc=$(f "$rvi" 1) ra=$(f "$rvi" 3)
out=${TMPDIR:-/tmp}/graft-abidiff.$$
trap 'rm -f "$out"' EXIT

abidiff "$rec" "$now" >"$out"
st=$?
if [ $((st & 1)) -ne 0 ]; then
	echo "abidiff $rec $now failed:"
	cat "$out"
	exit 3
fi
if [ "$st" -eq 0 ]; then
	if [ "$c:$a" = "$rc:$ra" ] && [ "$abi" = "$rabi" ]; then
		echo "libgraft's ABI is the one recorded for -version-info $rvi and GRAFT_PLUGIN_ABI $rabi"
		exit 0
	fi
	echo "libgraft's ABI is the one recorded, for -version-info $rvi and GRAFT_PLUGIN_ABI $rabi;" \
	     "they are now $vi and $abi: run \`make abi-update\` to record them"
	exit 2
fi

# what changed: additions alone (every summary's Removed and Changed 0)
# keep old programs and plugins running; anything else breaks them
if grep 'changes summary:' "$out" | grep -q '[1-9][0-9]* \(Removed\|Changed\)'; then
	kind=incompatible
	[ "$c" -gt "$rc" ] && [ "$a" -eq 0 ] && [ "$abi" -gt "$rabi" ]
else
	kind=compatible
	[ "$c" -gt "$rc" ] && [ $((a - ra)) -eq $((c - rc)) ] && [ "$abi" -ge "$rabi" ]
fi
bumped=$?
if [ $kind = incompatible ]; then
	want="-version-info $((rc + 1)):0:0 and GRAFT_PLUGIN_ABI $((rabi + 1)) (CURRENT + 1, AGE 0, the plugin ABI + 1)"
else
	want="-version-info $((rc + 1)):0:$((ra + 1)) (CURRENT + 1, AGE + 1; GRAFT_PLUGIN_ABI may stay $rabi)"
fi
if [ "$bumped" -eq 0 ]; then
	echo "libgraft's ABI changed ($kind) from the one recorded for -version-info $rvi and GRAFT_PLUGIN_ABI $rabi," \
	     "and they are bumped to $vi and $abi: run \`make abi-update\` to record it"
else
	echo "libgraft's ABI changed ($kind) from the one recorded for -version-info $rvi and GRAFT_PLUGIN_ABI $rabi," \
	     "and they are still $vi and $abi: a change of this kind takes $want, as docs/embedding.md (\"Versions\") says;" \
	     "bump them, then run \`make abi-update\` and commit tests/abi/"
fi
cat "$out"
[ "$bumped" -eq 0 ] && exit 2
exit 1
