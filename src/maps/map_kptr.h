/* SPDX-License-Identifier: MIT */
/*
 * Allocated objects (bpf_obj_new) and the __kptr fields of map values
 * that own them: kernel/bpf/helpers.c's bpf_kptr_xchg and
 * bpf_obj_free_fields / bpf_map_free_record of kernel/bpf/syscall.c.
 */
#ifndef HR_MAPS_MAP_KPTR_H
#define HR_MAPS_MAP_KPTR_H

#include <stdbool.h>
#include <stdint.h>

struct hr_held_rec;
struct hr_run;

struct hr_map;

/* A zeroed object of @size bytes with one reference (NULL when out of
 * memory), of a type with a struct bpf_refcount when @refcounted; the
 * release of a reference, which frees it with its last
 * (__bpf_obj_drop_impl); one more reference to a refcounted object
 * (bpf_refcount_acquire's refcount_inc_not_zero), false for another. */
void *hr_obj_alloc(uint32_t size, bool refcounted);
void hr_obj_free(void *obj);
bool hr_obj_acquire(void *obj);

/*
 * A per-CPU object (bpf_percpu_obj_new): @ncopies zeroed copies of @size
 * bytes, kept apart from the object's own address, which reaches none
 * of them; NULL when out of memory. It goes with its last reference
 * (hr_obj_free), as the kernel's after an RCU grace period, so that a
 * run that reached a copy keeps it to its end. hr_obj_percpu_get takes
 * one more reference to the per-CPU object at @ptr when one is alive
 * there and a kptr field owns it, or when @held (the caller holds one
 * already); NULL otherwise, @ptr never read. hr_obj_percpu_copy is
 * copy @cpu of @obj, NULL from its number of copies on.
 */
void *hr_obj_alloc_percpu(uint32_t size, uint32_t ncopies);
void *hr_obj_percpu_get(uint64_t ptr, bool held);
uint8_t *hr_obj_percpu_copy(void *obj, uint32_t cpu);

/*
 * bpf_kptr_xchg on the kptr field @slot of a value of @map: the object
 * (with its size in *@old_size) the field owned is returned, and @obj
 * (of @size bytes, or NULL) is owned by the field instead, its address
 * written there. What the field owns is kept apart from its bytes, which
 * a program may overwrite: only an object put there is ever given back
 * or freed.
 */
void *hr_map_kptr_xchg(struct hr_map *map, void *slot, void *obj, uint32_t size,
		       uint32_t *old_size);

/*
 * A run's access to [@addr, @addr + @len) through a pointer it loaded
 * from a kptr field (v->p->a): the verifier types such a load, in the
 * RCU section every non-sleepable program runs in, MEM_RCU
 * (btf_ld_kptr_type), and the program reads and writes the object while
 * bpf_mem_alloc keeps it alive past a concurrent drop. The memory check
 * asks here last: when an object a field owns holds those bytes, the run
 * holds a reference to it until it ends (the grace period's stand-in)
 * and may touch all of it; 0, or -1 when none does (or no room is left).
 */
int hr_obj_rcu_mem_check(struct hr_run *run, uintptr_t addr, uint32_t len);
/* Whether @h is such a reach (which bpf_refcount_acquire takes, as the
 * kernel takes a MEM_RCU pointer of a refcounted type). */
bool hr_obj_rcu_reached(const struct hr_held_rec *h);

/* bpf_obj_free_fields for the kptrs of @value of @map: the objects its
 * fields own are freed and the fields zeroed. */
void hr_map_kptr_free_value(struct hr_map *map, void *value);
/* Every object a kptr field of @map owns is freed, as the map goes. */
void hr_map_kptrs_free(struct hr_map *map);

/* The size @obj was allocated with (of one copy, per-CPU). */
uint32_t hr_obj_size(void *obj);

/*
 * bpf_list_head (kernel/bpf/helpers.c's __bpf_list_add, __bpf_list_del):
 * the run's reference to @obj goes to the list at @head of a value of
 * @map, at its end when @back; -EINVAL (the reference dropped) when it is
 * in a list already. hr_map_list_take gives the first (last when @back)
 * object, or NULL, taking it off the list when @pop. As with kptrs, what
 * a list holds is kept here by the head's address, apart from its bytes.
 */
int hr_map_list_push(struct hr_map *map, void *head, void *obj, bool back);
void *hr_map_list_take(void *head, bool back, bool pop);
/* bpf_list_head_free for @value of @map, and for every value as it goes. */
void hr_map_list_free_value(struct hr_map *map, void *value);
/* An element's value @src written over @dst in place (array, LRU hash)
 * for a map whose values hold a list or tree: under the value's lock,
 * the lock word kept, the old list or tree taken out and freed. Other
 * maps: a plain hr_map_value_store. */
void hr_map_value_store_list(struct hr_map *map, void *dst, const void *src);
void hr_map_lists_free(struct hr_map *map);

/*
 * bpf_rb_root (kernel/bpf/helpers.c's __bpf_rbtree_add, bpf_rbtree_remove
 * over lib/rbtree.c): a red-black tree of objects kept by the root's
 * address, each object's links and owner before it, out of the program's
 * reach. hr_obj_owner is the list head or root holding @obj (NULL, or
 * HR_OBJ_CLAIMED while an add walks the tree for it); hr_obj_claim sets
 * it from NULL (false when it was not: the node is in a tree already),
 * hr_obj_unclaim back. The add's walk (the program's less()) is the
 * caller's: hr_map_rb_link links the claimed @obj as @parent's child
 * (right when @right; the root when @parent is NULL) and rebalances as
 * rb_insert_color; -ENOMEM, @obj dropped, when there is nowhere to keep
 * the tree. hr_map_rb_remove takes @obj out of @root's tree, false when
 * it is not there. The caller holds the value's lock throughout.
 */
#define HR_OBJ_CLAIMED 1UL
void *hr_obj_owner(void *obj);
bool hr_obj_claim(void *obj);
void hr_obj_unclaim(void *obj);
void *hr_map_rb_root(void *root);
void *hr_obj_rb_child(void *obj, bool right);
void *hr_map_rb_first(void *root);
int hr_map_rb_link(struct hr_map *map, void *root, void *obj, void *parent,
		   bool right);
bool hr_map_rb_remove(void *root, void *obj);

#endif /* HR_MAPS_MAP_KPTR_H */
