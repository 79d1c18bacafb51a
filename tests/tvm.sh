#!/bin/sh
# tvm.sh: TVM's own tests of its pattern language and BYOC passes
# (tests/python/relay/test_dataflow_pattern.py and test_pass_*.py), case
# by case as graft rules and Relay text (tests/tvm/): each model names the
# rules it runs with, and its expected output.  Where a case matches, the
# expected output holds the composite or the rewrite TVM's assertion asks
# for; where it does not, the graph is unchanged.
. "${srcdir:-.}/tests/lib.sh"
golden tests/tvm relay
done_testing
