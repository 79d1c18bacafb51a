#!/bin/sh
# whynot.sh: golden tests of graft --why-not (tests/whynot/): where a
# rule's or composite's matching stops, node by node, with both places
# quoted; guards with their terms' values; rules tried first; composites
# that match; --at; the errors.
. "${srcdir:-.}/tests/lib.sh"
golden tests/whynot relay
done_testing
