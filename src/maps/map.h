/* SPDX-License-Identifier: MIT */
/*
 * Maps: one operation table per map type, as the kernel's bpf_map_ops.
 *
 * Errors are negative errno values with the kernel's meaning for the same
 * operation (-E2BIG when full, -ENOENT on a missing key, -EEXIST for
 * BPF_NOEXIST on a present key, -EINVAL on bad flags or sizes).
 */
#ifndef HR_MAPS_MAP_H
#define HR_MAPS_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vm/vm.h"

/* Kernel map type numbers (enum bpf_map_type). */
enum hr_map_type {
	HR_MAP_UNSPEC = 0,
	HR_MAP_HASH = 1,
	HR_MAP_ARRAY = 2,
	HR_MAP_PROG_ARRAY = 3,
	HR_MAP_PERF_EVENT_ARRAY = 4,
	HR_MAP_PERCPU_HASH = 5,
	HR_MAP_PERCPU_ARRAY = 6,
	HR_MAP_STACK_TRACE = 7,
	HR_MAP_CGROUP_ARRAY = 8,
	HR_MAP_LRU_HASH = 9,
	HR_MAP_LRU_PERCPU_HASH = 10,
	HR_MAP_LPM_TRIE = 11,
	HR_MAP_ARRAY_OF_MAPS = 12,
	HR_MAP_HASH_OF_MAPS = 13,
	HR_MAP_DEVMAP = 14,
	HR_MAP_SOCKMAP = 15,
	HR_MAP_CPUMAP = 16,
	HR_MAP_XSKMAP = 17,
	HR_MAP_SOCKHASH = 18,
	HR_MAP_CGROUP_STORAGE = 19,
	HR_MAP_REUSEPORT_SOCKARRAY = 20,
	HR_MAP_PERCPU_CGROUP_STORAGE = 21,
	HR_MAP_QUEUE = 22,
	HR_MAP_STACK = 23,
	HR_MAP_SK_STORAGE = 24,
	HR_MAP_DEVMAP_HASH = 25,
	HR_MAP_STRUCT_OPS = 26,
	HR_MAP_RINGBUF = 27,
	HR_MAP_INODE_STORAGE = 28,
	HR_MAP_TASK_STORAGE = 29,
	HR_MAP_BLOOM_FILTER = 30,
	HR_MAP_USER_RINGBUF = 31,
	HR_MAP_CGRP_STORAGE = 32,
	HR_MAP_ARENA = 33,
	HR_MAP_TYPE__MAX,
};

/* Update flags (BPF_ANY, BPF_NOEXIST, BPF_EXIST, BPF_F_LOCK). */
#define HR_ANY 0
#define HR_NOEXIST 1
#define HR_EXIST 2
#define HR_F_LOCK 4

/* Map creation flags used here (BPF_F_*). */
#define HR_F_NO_PREALLOC (1U << 0)
#define HR_F_NO_COMMON_LRU (1U << 1)
#define HR_F_NUMA_NODE (1U << 2)
#define HR_F_RDONLY (1U << 3)
#define HR_F_WRONLY (1U << 4)
#define HR_F_ZERO_SEED (1U << 6)
#define HR_F_RDONLY_PROG (1U << 7)
#define HR_F_WRONLY_PROG (1U << 8)
#define HR_F_MMAPABLE (1U << 10)
#define HR_F_INNER_MAP (1U << 12)
#define HR_F_PRESERVE_ELEMS (1U << 11)
#define HR_F_ACCESS_MASK \
	(HR_F_RDONLY | HR_F_RDONLY_PROG | HR_F_WRONLY | HR_F_WRONLY_PROG)

struct hr_map_attr {
	uint32_t type;
	uint32_t key_size;
	uint32_t value_size;
	uint32_t max_entries;
	uint32_t map_flags;
	/* Number of per-CPU copies for PERCPU types (the worker count). */
	uint32_t ncpus;
	const char *name;
	/* ARRAY_OF_MAPS / HASH_OF_MAPS: the inner map template (the
	 * kernel's inner_map_fd); NULL is a bad descriptor. */
	struct hr_map *inner_map;
};

struct hr_map;
struct hr_worker;
struct hr_dev;
struct hr_xdp_buff;
struct hr_redirect_info;

struct hr_map_ops {
	/* Checks @attr with the kernel's rules; 0 or -errno. */
	int (*check)(const struct hr_map_attr *attr);
	/* Allocates the type's state into map->priv; 0 or -errno. */
	int (*alloc)(struct hr_map *map);
	void (*free)(struct hr_map *map);
	/* The program view: a pointer to the value (this CPU's for per-CPU
	 * maps) that stays valid for the run, or NULL. */
	void *(*lookup)(struct hr_map *map, const void *key, unsigned int cpu);
	/* Program and user update of this CPU's value / all values. */
	int (*update)(struct hr_map *map, const void *key, const void *value,
		      uint64_t flags, unsigned int cpu);
	int (*delete)(struct hr_map *map, const void *key);
	/* Next key after @key (first key when @key is NULL); -ENOENT at end. */
	int (*get_next_key)(struct hr_map *map, const void *key, void *next);
	/* User copy of a value: per-CPU maps copy all CPUs' values, each
	 * rounded up to 8 bytes, as the kernel's syscall does. */
	int (*copy_value)(struct hr_map *map, const void *key, void *value);
	int (*update_user)(struct hr_map *map, const void *key,
			   const void *value, uint64_t flags);
	/* Regions of value memory a program may touch; returns the count
	 * written to @out (at most @max). */
	unsigned int (*regions)(struct hr_map *map, struct hr_region *out,
				unsigned int max);
	/*
	 * Redirect maps (DEVMAP, DEVMAP_HASH, CPUMAP, XSKMAP):
	 * bpf_redirect_map's lookup (the kernel's map_redirect): fills @ri
	 * and returns XDP_REDIRECT, or on a miss the action in the low bits
	 * of @flags; XDP_ABORTED for bad flags.
	 */
	uint64_t (*redirect)(struct hr_map *map, uint64_t key, uint64_t flags,
			     struct hr_redirect_info *ri);
	/* xdp_do_redirect for this map type: enqueues @xdp (converted to
	 * a frame) to the entry @ri chose; 0 or -errno (the caller frees and
	 * counts the error by errno). */
	int (*xdp_enqueue)(struct hr_map *map, struct hr_worker *w,
			   const struct hr_redirect_info *ri,
			   struct hr_xdp_buff *xdp, struct hr_dev *dev_rx);
	/* QUEUE and STACK (map_push_elem, map_pop_elem, map_peek_elem);
	 * 0 or -errno. */
	int (*push)(struct hr_map *map, const void *value, uint64_t flags);
	int (*pop)(struct hr_map *map, void *value);
	int (*peek)(struct hr_map *map, void *value);
	/* The keys present, as the kernel's per-CPU map->elem_count sums
	 * (bpf_map_sum_elem_count); NULL for the types that keep no such
	 * count (the kernel's hash maps alone do), whose sum is 0. */
	int64_t (*elem_count)(struct hr_map *map);
};

/* The kptr fields a value may have (BTF_FIELDS_MAX, include/linux/bpf.h). */
#define HR_MAP_MAX_KPTRS 11

struct hr_map {
	char name[64];
	struct hr_map_attr attr;
	const struct hr_map_ops *ops;
	void *priv;
	/* Set when the program may not write the values (.rodata,
	 * BPF_F_RDONLY_PROG). */
	bool rdonly_prog;
	/* BPF_MAP_FREEZE: user space may no longer write it (libbpf freezes
	 * .rodata once its initial values are in, and so does the loader).
	 * Frozen and rdonly_prog, its values never change: the JIT reads
	 * them as constants, as the verifier does (bpf_map_is_rdonly). */
	bool frozen;
	/* Index in the owning object's map list. */
	int index;
	/* Offset of the value's struct bpf_timer (the kernel's btf_record
	 * timer_off, set by the loader from BTF); -1: the value has none. */
	int timer_off;
	/* Offset of the value's struct bpf_wq (btf_record wq_off); -1: none. */
	int wq_off;
	/* Offsets of the value's __kptr fields to allocated objects, set by
	 * the loader from BTF (map_kptr.c keeps what each owns). */
	int kptr_off[HR_MAP_MAX_KPTRS];
	unsigned int nkptrs;
	/* Bit i: kptr_off[i] is a __percpu_kptr, which owns per-CPU
	 * objects (bpf_percpu_obj_new) and no others. */
	uint32_t kptr_percpu;
	/* The value's struct bpf_list_head, the bpf_spin_lock guarding it
	 * and the offset of the bpf_list_node in the objects it holds
	 * (its __contains tag), set by the loader; list_off -1: none. With
	 * @list_rb it is a struct bpf_rb_root and its objects' bpf_rb_node
	 * (one or the other a value). */
	int list_off, list_lock_off, list_node_off;
	bool list_rb;
	/* The value's initialised bpf_timers and bpf_wqs and their thread,
	 * made on the first bpf_timer_init or bpf_wq_init (map_timer.c);
	 * NULL before. */
	struct hr_map_timers *timers;
};

/* Whether programs may not write @map's values (.rodata,
 * BPF_F_RDONLY_PROG). */
static inline bool hr_map_prog_rdonly(const struct hr_map *map)
{
	return map->rdonly_prog || (map->attr.map_flags & HR_F_RDONLY_PROG);
}

/*
 * Each map type's ops, named after the kernel's type: BPF_MAP_TYPE_DEVMAP
 * is hr_map_ops_devmap, defined in that type's src/maps file. map.c refers
 * to the ones not written yet weakly, so a missing type is just NULL.
 */
extern const struct hr_map_ops hr_map_ops_hash;
extern const struct hr_map_ops hr_map_ops_array;
extern const struct hr_map_ops hr_map_ops_percpu_hash;
extern const struct hr_map_ops hr_map_ops_percpu_array;

/* The ops for @type, or NULL when headroom does not implement it. */
const struct hr_map_ops *hr_map_ops_for(uint32_t type);

/* Kernel name of a map type ("BPF_MAP_TYPE_HASH"), or NULL if unknown. */
const char *hr_map_type_name(uint32_t type);

/* Creates a map with the kernel's checks; 0 or -errno. */
int hr_map_create(const struct hr_map_attr *attr, struct hr_map **out);
void hr_map_free(struct hr_map *map);

/* Value size of one CPU's copy as user space sees it (rounded to 8). */
static inline uint32_t hr_map_percpu_value_size(const struct hr_map *map)
{
	return (map->attr.value_size + 7) & ~7u;
}

bool hr_map_is_percpu(const struct hr_map *map);

#endif /* HR_MAPS_MAP_H */
