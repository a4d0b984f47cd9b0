// SPDX-License-Identifier: MIT
/*
 * xdp_user_ringbuf.bpf.c with a 32 MiB urb_big: room for a sample larger
 * than a dynptr can hold (DYNPTR_MAX_SIZE, 16 MiB - 1), which the drain
 * refuses with -E2BIG (test_user_ringbuf).
 */
#define UR_BIG (32 << 20)
#include "xdp_user_ringbuf.bpf.c"
