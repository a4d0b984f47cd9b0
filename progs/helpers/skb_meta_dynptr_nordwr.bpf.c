// SPDX-License-Identifier: MIT
/*
 * skb_meta_dynptr.bpf.c without bpf_dynptr_slice_rdwr
 * (include/hr_rdwr_emul.h): the same records, for kernels that refuse
 * that kfunc at load, so that tests/helpers/test_skb_meta_dynptr_kernel.c can
 * still compare with them.
 */
#include "hr_rdwr_emul.h"
#include "skb_meta_dynptr.bpf.c"
