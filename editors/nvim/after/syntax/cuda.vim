" metacu's constructs on top of Vim's CUDA syntax (docs/editors.md): what
" runs at generation time reads as a preprocessor keyword, the architecture
" names as constants.
syn match metacuMeta "@meta\>"
syn match metacuMetaControl "@meta\s\+\(for\(\s\+enum\)\?\|while\|if\|else\|break\|continue\)\>"
syn match metacuCodegen "\<if\s\+codegen\>"
syn match metacuSplice "@("me=e-1
syn keyword metacuArch __nvvm_arch nvvm_arch_t
syn match metacuArchName "\<sm_\d\+[af]\?\>"

hi def link metacuMeta PreProc
hi def link metacuMetaControl PreProc
hi def link metacuCodegen PreProc
hi def link metacuSplice PreProc
hi def link metacuArch Type
hi def link metacuArchName Constant
