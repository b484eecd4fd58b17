" Syntax of cute-lsp's layout sheets (.cute). Neovim 0.7 shows neither
" semantic tokens nor inlay hints, so this is the colour a sheet has there;
" newer versions layer the server's semantic tokens on top.
if exists('b:current_syntax')
  finish
endif

" Later items win where two start at the same column: numbers first, then
" the forms that begin with a number (basis strides), then the rest.
syn match cuteNumber '\%(\w\|\.\)\@<!-\=\d\+b\=\>'
syn match cuteNumber '\<0x\x\+\>'
syn match cuteStatic '\%(\w\)\@<!_-\=\d\+\>'
syn match cuteBasis '\%(\w\)\@<!-\=\d\+\%(/\d\+\)\=\%(@\%(\d\+\|\h\w*\)\)\+'
syn match cuteDynamic '?\%({[^}]*}\)\='
syn match cuteLayoutColon ':'
syn match cuteTilerSeparator ';'
syn match cuteOperator '==\|!=\|+\|='
syn match cuteFunction '\<\h\w*\ze\s*('
syn match cuteBinding '^\s*\zs\h\w*\ze\s*=\%(=\)\@!'
syn match cuteSwizzle '\<Sw<\s*-\=\d\+\s*,\s*-\=\d\+\s*,\s*-\=\d\+\s*>'
syn match cuteSwizzle '\<SW_-\=\d\+_-\=\d\+_-\=\d\+\>'
syn match cutePointer '\<\lmem_ptr\ze\['
syn match cuteTirx '\<[SR]\ze\['
syn match cuteCompose '\s\zso\ze\s'
syn keyword cuteAssert assert
syn keyword cuteIs is

syn cluster cuteDescriptor contains=cuteNumber,cuteStatic,cuteBasis,cuteDynamic,cuteLayoutColon,cuteSwizzle,cuteCompose,cutePointer
syn region cuteString start=+"+ skip=+\\.+ end=+"\|$+ contains=@cuteDescriptor
syn region cuteMlirType matchgroup=cuteMlirDialect start='!cute\.\h\w*<' end='>' contains=cuteString,@cuteDescriptor

" Comments last: '#' and '//' start one anywhere outside a string.
syn match cuteComment '\%(#\|//\).*$' contains=@Spell

hi def link cuteComment Comment
hi def link cuteAssert Statement
hi def link cuteIs Operator
hi def link cuteOperator Operator
hi def link cuteCompose Operator
hi def link cuteNumber Number
hi def link cuteStatic Number
hi def link cuteBasis Special
hi def link cuteDynamic Special
hi def link cuteLayoutColon Delimiter
hi def link cuteTilerSeparator Delimiter
hi def link cuteSwizzle Type
hi def link cutePointer Type
hi def link cuteTirx Type
hi def link cuteMlirDialect Type
hi def link cuteFunction Function
hi def link cuteBinding Identifier
hi def link cuteString String

let b:current_syntax = 'cute'
