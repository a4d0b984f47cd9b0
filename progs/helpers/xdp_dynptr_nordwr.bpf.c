// SPDX-License-Identifier: MIT
/*
 * xdp_dynptr.bpf.c without bpf_dynptr_slice_rdwr (include/hr_rdwr_emul.h):
 * the same results, for kernels that refuse that kfunc at load, so that
 * tests/helpers/test_dynptr.c can still compare with them.
 */
#include "hr_rdwr_emul.h"
#include "xdp_dynptr.bpf.c"
