#!/bin/sh
# run.sh DIR [SECONDS]: each libFuzzer harness built in DIR (build.sh)
# fuzzes for SECONDS (default 60) from its corpus and regression inputs,
# new inputs going to DIR/corpus/NAME.  On a finding it prints the
# reproducer (a hex dump and the path of the file libFuzzer kept) and the
# exit status is 1, after the other harnesses ran.  One line per harness
# gives executions and coverage.
set -u
dir=${1:?usage: run.sh DIR [SECONDS]}
secs=${2:-60}
src=$(cd "$(dirname "$0")/../.." && pwd)
status=0
for h in relay rules onnx npy safetensors lsp models; do
	mkdir -p "$dir/corpus/$h" "$dir/crashes/$h"
	log="$dir/fuzz-$h.log"
	"$dir/tests/fuzz/fuzz-$h" -max_total_time="$secs" -timeout=20 -rss_limit_mb=4096 -max_len=65536 \
		-artifact_prefix="$dir/crashes/$h/" -print_final_stats=1 \
		"$dir/corpus/$h" "$src/tests/fuzz/corpus/$h" "$src/tests/fuzz/regress/$h" >"$log" 2>&1
	st=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
	echo "fuzz $h: ${execs:-?} executions, ${cov:-cov: ?} edges, exit $st"
	if [ "$st" -ne 0 ]; then
		status=1
		grep -E '^(==[0-9]+==ERROR|SUMMARY|fuzz: )' "$log" | head -n 5
		for f in "$dir/crashes/$h"/*; do
			[ -f "$f" ] || continue
			echo "reproducer: $f (run: tests/fuzz/replay-$h $f)"
			od -A x -t x1z -v "$f" | head -n 20
		done
	fi
done
exit $status
