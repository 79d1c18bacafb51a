#!/bin/sh
# lsp.sh: graftc lsp driven by a scripted client speaking JSON-RPC with
# Content-Length headers: initialize; a document with an error and a
# warning, published as diagnostics at their places; hover over an op
# (its operands and attributes from the registry) and a builtin; go to a
# named pattern's definition; completion of ops, and of the attributes of
# the op whose parentheses the cursor is in; the fixed document clears its
# diagnostics; an unknown request gets MethodNotFound; shutdown and exit.
. "${srcdir:-.}/tests/lib.sh"
: "${GRAFTC:?GRAFTC must name graftc}"

msg() {
	printf 'Content-Length: %d\r\n\r\n%s' "$(printf '%s' "$1" | wc -c)" "$1"
}
U=file:///nowhere/a.rules
BAD='ruleset a\npattern p(x) = nn.relu(x)\nrule r: qnn.conv2d(x, w) => x\nrule s: p(y) if dtype(y) == \"int8\" => y\nrule t: add(x, u) => x\n'
GOOD='ruleset a\npattern p(x) = nn.relu(x)\nrule r: qnn.conv2d(x, _w, _a, _b, _c, _d) => x\nrule s: p(y) if dtype(y) == \"int8\" => y\n'
{
	msg '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}'
	msg '{"jsonrpc":"2.0","method":"initialized","params":{}}'
	msg "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":{\"uri\":\"$U\",\"languageId\":\"graft-rules\",\"version\":1,\"text\":\"$BAD\"}}}"
	msg "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"textDocument/hover\",\"params\":{\"textDocument\":{\"uri\":\"$U\"},\"position\":{\"line\":2,\"character\":12}}}"
	msg "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"textDocument/hover\",\"params\":{\"textDocument\":{\"uri\":\"$U\"},\"position\":{\"line\":3,\"character\":17}}}"
	msg "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"textDocument/definition\",\"params\":{\"textDocument\":{\"uri\":\"$U\"},\"position\":{\"line\":3,\"character\":8}}}"
	msg "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"textDocument/completion\",\"params\":{\"textDocument\":{\"uri\":\"$U\"},\"position\":{\"line\":2,\"character\":22}}}"
	msg "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":{\"textDocument\":{\"uri\":\"$U\",\"version\":2},\"contentChanges\":[{\"text\":\"$GOOD\"}]}}"
	msg '{"jsonrpc":"2.0","id":6,"method":"textDocument/formatting","params":{}}'
	msg '{"jsonrpc":"2.0","id":7,"method":"shutdown"}'
	msg '{"jsonrpc":"2.0","method":"exit"}'
} >"$tmpdir/in"
"$GRAFTC" lsp <"$tmpdir/in" >"$tmpdir/out" 2>"$tmpdir/err"
ok $? "graftc lsp runs the session and exits 0 after shutdown"
# one message per line, for grep
sed 's/Content-Length: [0-9]*\r//' "$tmpdir/out" | tr -d '\r' | grep -v '^$' >"$tmpdir/msgs"
grep -q '"id":1,"result":{"capabilities":{"textDocumentSync":1,"hoverProvider":true' "$tmpdir/msgs"
ok $? "initialize: its capabilities"
sed -n 2p "$tmpdir/msgs" | grep -q '{"range":{"start":{"line":2,"character":8},"end":{"line":2,"character":18}},"severity":1,"source":"graftc","message":"qnn.conv2d takes 6 arguments, not 2"}'
ok $? "didOpen: the error, at qnn.conv2d on line 3"
sed -n 2p "$tmpdir/msgs" | grep -q '"severity":2,"source":"graftc","message":"'"'"'u'"'"' is bound and never used'
ok $? "didOpen: the warning too"
grep '"id":2,' "$tmpdir/msgs" | grep -q '\*\*qnn.conv2d\*\*: 6 operands.*kernel_layout: str = \\"OIHW\\"'
ok $? "hover over an op: its operands and attributes from the registry"
grep '"id":3,' "$tmpdir/msgs" | grep -q "dtype(x): the dtype of x's type"
ok $? "hover over a builtin: what it gives"
grep -q '"id":4,"result":{"uri":"file:///nowhere/a.rules","range":{"start":{"line":1,"character":8},"end":{"line":1,"character":9}}}' "$tmpdir/msgs"
ok $? "definition: the named pattern p"
grep '"id":5,' "$tmpdir/msgs" | grep -q '"items":\[{"label":"strides=","kind":5' && grep '"id":5,' "$tmpdir/msgs" | grep -q '"label":"nn.bias_add","kind":3'
ok $? "completion inside qnn.conv2d(...): its attributes first, then the ops"
grep 'publishDiagnostics' "$tmpdir/msgs" | sed -n 2p | grep -q '"diagnostics":\[\]'
ok $? "didChange: the fixed document clears its diagnostics"
grep -q '"id":6,"error":{"code":-32601' "$tmpdir/msgs"
ok $? "a request it does not answer: MethodNotFound"
grep -q '"id":7,"result":null' "$tmpdir/msgs"
ok $? "shutdown"

# what a broken client sends: positions that are not numbers, missing
# documents, a body shorter than its Content-Length, then the end of input
{
	msg "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":{\"uri\":\"$U\",\"text\":\"ruleset a\\n\"}}}"
	msg "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"textDocument/hover\",\"params\":{\"textDocument\":{\"uri\":\"$U\"},\"position\":{\"line\":\"x\"}}}"
	msg '{"jsonrpc":"2.0","id":2,"method":"textDocument/definition","params":{"position":7}}'
	msg '{"jsonrpc":"2.0","id":3,"method":"textDocument/completion"}'
	msg '{"jsonrpc":"2.0","id":4,"method":"textDocument/hover","params":[1,2,'
	printf 'Content-Length: 99\r\n\r\n{"id":5}'
} >"$tmpdir/in2"
"$GRAFTC" lsp <"$tmpdir/in2" >"$tmpdir/out2" 2>"$tmpdir/err2"
st=$?
[ $st -eq 1 ] && [ ! -s "$tmpdir/err2" ] && grep -q '"id":1,"result":null' "$tmpdir/out2" && grep -q '"id":2,"result":null' "$tmpdir/out2" &&
	grep -q '"id":3,"result":{"isIncomplete":false' "$tmpdir/out2"
ok $? "a broken client: null answers, no crash, exit 1 without a shutdown"
done_testing
