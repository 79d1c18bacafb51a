" Vim syntax file for graft's rules language (.rules): see docs/rules.md.
" Install: copy editors/vim/syntax and editors/vim/ftdetect into ~/.vim,
" or add editors/vim to 'runtimepath'.
if exists("b:current_syntax")
  finish
endif

" items, rule heads and the words of patterns and results
syn keyword graftItem ruleset target include pattern extern composite supports rule once priority within finite
syn keyword graftExternKind pred action
syn match graftExternKind "\<op\>" contained
syn match graftExternOp "\<extern\s\+op\>" contains=graftItem,graftExternKind
syn keyword graftCond if
syn keyword graftPatternWord const var fold_const attrs
syn keyword graftConstant True False None
" guard builtins
syn keyword graftBuiltin dtype rank shape numel value splat is_const is_scalar is_splat present len uses floor log2 exp2 dominates
" op names: dotted identifiers before '(' (qnn.conv2d, nn.bias_add)
syn match graftOp "\<[A-Za-z_][A-Za-z0-9_]*\(\.[A-Za-z_][A-Za-z0-9_]*\)\+\ze\s*?\=("
" a binding, name:pattern
syn match graftBinding "\<[A-Za-z_][A-Za-z0-9_]*\ze:[^:]"
syn match graftArrow "=>"
syn match graftOperator "&&\|||\|==\|!=\|<=\|>=\|\.\.\."
syn match graftNumber "\<-\=\d\+\(\.\d*\)\=\([eE][-+]\=\d\+\)\=\(f\|f16\|f32\|f64\|i8\|i16\|i32\|i64\|u8\|u16\|u32\|u64\)\=\>"
syn region graftString start=+"+ skip=+\\\\\|\\"+ end=+"+ oneline
syn keyword graftTodo TODO FIXME XXX contained
syn match graftComment "//.*$" contains=graftTodo
syn region graftComment start="/\*" end="\*/" contains=graftTodo

hi def link graftItem Statement
hi def link graftExternKind Type
hi def link graftCond Conditional
hi def link graftPatternWord Keyword
hi def link graftConstant Constant
hi def link graftBuiltin Function
hi def link graftOp Identifier
hi def link graftBinding Label
hi def link graftArrow Operator
hi def link graftOperator Operator
hi def link graftNumber Number
hi def link graftString String
hi def link graftComment Comment
hi def link graftTodo Todo

let b:current_syntax = "graftrules"
