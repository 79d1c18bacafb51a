" graft rules files
autocmd BufRead,BufNewFile *.rules setfiletype graftrules
