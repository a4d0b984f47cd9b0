/* SPDX-License-Identifier: MIT */
/*
 * What the bpf_timer and bpf_wq programs (progs/helpers/xdp_timer.bpf.c,
 * xdp_wq.bpf.c) share, for test_timer and test_wq: a value holding the
 * field (HR_ASYNC_FIELD, which the program defines first: struct
 * bpf_timer or struct bpf_wq) before what the callbacks add to, an array
 * and a hash of 16 such values, counts[] by value id (map * 16 + key),
 * and the count a callback makes.
 */
#ifndef HR_PROGS_ASYNC_H
#define HR_PROGS_ASYNC_H

struct aval {
	HR_ASYNC_FIELD f;
	__u64 fired;
	__u32 id;
	__u32 cb_key; /* each run adds its key, from 0 */
	__s64 cb_ret; /* what the callbacks record, from 0 */
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, struct aval);
} arr SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, struct aval);
} hmap SEC(".maps");

/* Callbacks counted by value id (map * 16 + key). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 32);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

/* One run of a callback of @v, given @key: counted in the value and in
 * counts[]; the runs so far. Every store a callback makes is atomic: the
 * test reads the values while callbacks may run (as ThreadSanitizer sees
 * it, in headroom). */
static __u64 count(struct aval *v, __u32 key)
{
	__u32 id = v->id;
	__u64 *c = bpf_map_lookup_elem(&counts, &id);
	__u64 n;

	__sync_fetch_and_add(&v->cb_key, key);
	n = __sync_add_and_fetch(&v->fired, 1);
	if (c)
		__sync_fetch_and_add(c, 1);
	return n;
}

#endif /* HR_PROGS_ASYNC_H */
