mov %r0, %r2
exit
