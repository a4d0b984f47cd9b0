mov %r1, 0
ja32 L2
L1:
mov %r2, 0
exit
L2:
mov %r0, 0
ja32 L1
