// SPDX-License-Identifier: MIT
/*
 * Allocated objects: bpf_obj_new_impl, bpf_obj_drop_impl,
 * bpf_refcount_acquire_impl, bpf_kptr_xchg (helper 194), the
 * bpf_list_head kfuncs (bpf_list_push_front_impl, _back_impl,
 * bpf_list_pop_front, _back, bpf_list_front, _back) and the bpf_rb_root
 * ones (bpf_rbtree_add_impl, _first, _remove, _root, _left, _right) of
 * kernel/bpf/helpers.c (Linux 6.18), over
 * headroom's own allocator and the kptr fields of maps/map_kptr.c.
 *
 * bpf_obj_new_impl(local_type_id, meta) gives an object of a struct of
 * the program's BTF (bpf_core_type_id_local()): the verifier rewrites
 * the call with the struct's size, which bpf_mem_alloc() turns into NULL
 * for 0 bytes and for more than its largest cache holds (4096 bytes with
 * its 8-byte llist node); here the size comes from the object's table
 * (loader/alloc_types.c). The kernel zeroes the special fields alone
 * (bpf_obj_init); here the whole object is zeroed, one of the contents
 * the kernel may give.
 *
 * The object is the run's reference, kept among its held records as a
 * conntrack entry is: the program reads and writes its bytes and no
 * other, until bpf_obj_drop_impl frees it; after that every access to
 * it ends the run as any access outside the run's memory does, and a
 * second drop (or a drop of anything but a held object's start, which
 * the verifier refuses) ends it as a bad argument. The verifier refuses a
 * program that can end holding one ("Unreleased reference"): such a
 * run here frees what it holds and ends with HR_ABORT_OBJ_LEAK
 * (vm/run.c), so a leak is seen and never grows.
 *
 * bpf_kptr_xchg(field, obj) moves the run's object (or NULL) into a
 * __kptr field of a map value, which then owns it (the run no longer
 * may touch it), and gives the run the object the field owned, or NULL.
 * The verifier makes the field a kptr of a map value and the object one
 * the run owns; a call breaking either stops the run here. A
 * __percpu_kptr field moves the run's per-CPU objects (kfuncs_percpu.c)
 * in and out alike, and no others.
 *
 * An object of a struct with a struct bpf_refcount may have several
 * owners: bpf_refcount_acquire_impl gives the run one more reference
 * (a held record of its own), and each drop, each kptr field's release
 * lets go of one; the object goes with the last. The count is kept
 * before the object, out of the program's reach (map_kptr.c), not in
 * its bpf_refcount field, which the kernel's verifier keeps programs
 * from touching and headroom cannot: a write there changes nothing.
 *
 * A list lives in a map value beside the bpf_spin_lock that guards it
 * (the loader finds both and the __contains tag's node, one list a
 * value); every list kfunc needs the run to hold that lock. A push
 * gives the list the run's object and leaves the run a reference that
 * is not its own (a held record that lets go of nothing), as does
 * bpf_list_front: its bytes are the run's until bpf_spin_unlock
 * (invalidate_non_owning_refs), so that no other run can free it under
 * the program. A pop gives the object back to the run. What a list
 * holds is kept apart from the head's bytes (maps/map_kptr.c) and
 * dropped when the element is overwritten or deleted and as the map
 * goes (bpf_list_head_free).
 *
 * A tree (bpf_rb_root, one a value, beside its lock as a list) is the
 * same with a red-black tree of lib/rbtree.c's shape, so that
 * bpf_rbtree_root, _left and _right see the kernel's. __bpf_rbtree_add
 * walks down from the root calling the program's less(new, node), left
 * when it answers true, else right (a new node goes right of equal
 * ones); each call runs as bpf_loop's callback does, charged to the
 * run's budget, with the two objects readable while it runs, and a run
 * it stops frees the new node. Inside less() the graph kfuncs and
 * bpf_spin_unlock end the run (the verifier refuses them there). A
 * node already in a tree gives -EINVAL, its reference dropped. Remove
 * takes a node the run reaches (a reference of its own or not) and
 * gives it back as the run's, NULL when it is not in this tree; the
 * run's references that are not its own to it go, as they do on a pop.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "helpers/helpers.h"
#include "maps/map.h"
#include "maps/map_impl.h"
#include "maps/map_kptr.h"
#include "progs/prog.h"
#include "vm/mem.h"

/* bpf_mem_alloc's largest cache (bpf_mem_cache_idx) and the llist node
 * it keeps before each object (LLIST_NODE_SZ). */
#define OBJ_CACHE_MAX 4096
#define OBJ_LLIST_NODE 8

/* Makes @p (@size bytes) the run's: its address, or 0 with @p freed
 * when the run holds all it can. */
static uint64_t hold(struct hr_run *run, void *p, uint32_t size)
{
	if (run->nheld >= HR_MAX_HELD_RECORDS) {
		hr_obj_free(p);
		return 0;
	}
	run->held[run->nheld++] = (struct hr_held_rec){
		.start = (uintptr_t)p,
		.end = (uintptr_t)p + size,
		.drop = hr_obj_free,
		.obj = p,
		.leak = true,
	};
	return (uintptr_t)p;
}

/* The run's object at @ptr, or NULL. */
static struct hr_held_rec *held(struct hr_run *run, uint64_t ptr)
{
	unsigned int i;

	for (i = 0; i < run->nheld; i++)
		if (run->held[i].drop == hr_obj_free &&
		    run->held[i].start == ptr)
			return &run->held[i];
	return NULL;
}

static void unhold(struct hr_run *run, struct hr_held_rec *h)
{
	*h = run->held[--run->nheld];
}

/* A reference to an object in a list or tree (after a push or add, of
 * bpf_list_front, bpf_rbtree_first ...): its bytes are the run's while
 * it holds the lock, and nothing is let go of when the reference goes. */
static void nonown(void *obj)
{
}

/* The struct @id of the running program's BTF, or NULL after stopping
 * the run: the verifier takes a struct of program BTF alone, and
 * headroom refuses one with fields it does not model. */
static const struct hr_local_type *local_type(struct hr_run *run, uint64_t id)
{
	const struct hr_prog *prog = run->vm ? run->vm->prog : NULL;
	const struct hr_object *obj = prog ? prog->obj : NULL;
	const struct hr_local_type *t;

	if (!obj || id >= obj->nlocal_types)
		goto bad;
	t = &obj->local_types[id];
	if (!t->alloc || t->unmodelled)
		goto bad;
	return t;
bad:
	hr_run_abort(run, HR_ABORT_HELPER_ARG, id);
	return NULL;
}

/* void *bpf_obj_new_impl(u64 local_type_id__k, void *meta__ign) */
static uint64_t obj_new_impl(uint64_t id, uint64_t meta, uint64_t r3,
			     uint64_t r4, uint64_t r5, struct hr_run *run)
{
	const struct hr_local_type *t = local_type(run, id);
	void *p;

	if (!t)
		return 0;
	if (!t->size || t->size + OBJ_LLIST_NODE > OBJ_CACHE_MAX)
		return 0;
	/* KF_RET_NULL: an allocation may fail, and the program checks. */
	if (run->nheld >= HR_MAX_HELD_RECORDS)
		return 0;
	p = hr_obj_alloc(t->size, t->refcounted);
	return p ? hold(run, p, t->size) : 0;
}

HR_KFUNC(obj_new_impl, obj_new_impl);

/* void bpf_obj_drop_impl(void *p__alloc, void *meta__ign) */
static uint64_t obj_drop_impl(uint64_t ptr, uint64_t meta, uint64_t r3,
			      uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct hr_held_rec *h = held(run, ptr);

	if (!h) {
		hr_run_abort(run, HR_ABORT_HELPER_ARG, ptr);
		return 0;
	}
	hr_obj_free(h->obj);
	unhold(run, h);
	return 0;
}

HR_KFUNC(obj_drop_impl, obj_drop_impl);

/* void *bpf_refcount_acquire_impl(void *p__refcounted_kptr, void *meta__ign) */
static uint64_t refcount_acquire_impl(uint64_t ptr, uint64_t meta, uint64_t r3,
				      uint64_t r4, uint64_t r5,
				      struct hr_run *run)
{
	struct hr_held_rec *h = NULL;
	unsigned int i;
	uint32_t size;

	/* The verifier takes a reference the program holds to a type with
	 * a struct bpf_refcount, its own or not (a node of a list or tree
	 * while the lock is held, an object loaded from a kptr field). */
	for (i = 0; i < run->nheld && !h; i++)
		if ((run->held[i].drop == hr_obj_free ||
		     run->held[i].drop == nonown ||
		     hr_obj_rcu_reached(&run->held[i])) &&
		    run->held[i].start == ptr)
			h = &run->held[i];
	/* Loaded from a field and passed on before any access reached it. */
	if (!h && !hr_obj_rcu_mem_check(run, ptr, 1) &&
	    run->held[run->nheld - 1].start == ptr)
		h = &run->held[run->nheld - 1];
	if (!h || !hr_obj_acquire(h->obj)) {
		hr_run_abort(run, HR_ABORT_HELPER_ARG, ptr);
		return 0;
	}
	size = (uint32_t)(h->end - h->start);
	return hold(run, h->obj, size);
}

HR_KFUNC(refcount_acquire_impl, refcount_acquire_impl);

/* The map whose writable value holds [@addr, @addr + @len), with that
 * value's start in *@value; NULL when none does. */
static struct hr_map *field_value(struct hr_run *run, uint64_t addr,
				  uint32_t len, uint8_t **value)
{
	unsigned int r;

	for (r = 0; r < run->nregions; r++) {
		const struct hr_region *reg = &run->regions[r];
		struct hr_map *map = (struct hr_map *)reg->map;
		uintptr_t stride, rel;

		if (!map || !(reg->flags & HR_REGION_WRITE) ||
		    !hr_region_ok(reg, addr, len))
			continue;
		/* As hr_async_arg finds a timer's value: an unstrided
		 * array's values are round_up(value_size, 8) apart. */
		stride = reg->stride ? reg->stride :
				       HR_ROUND8(map->attr.value_size);
		rel = (uintptr_t)addr - reg->start;
		*value = (uint8_t *)reg->start + (rel / stride) * stride +
			 (reg->stride ? reg->off : 0);
		return map;
	}
	return NULL;
}

/* The kptr field at @addr of a map value the run may write, or NULL
 * after stopping the run ("R1 doesn't point to kptr"); *@percpu tells a
 * __percpu_kptr. */
static struct hr_map *kptr_field(struct hr_run *run, uint64_t addr,
				 bool *percpu)
{
	uint8_t *value;
	struct hr_map *map = field_value(run, addr, 8, &value);
	unsigned int i;

	for (i = 0; map && i < map->nkptrs; i++)
		if ((uint8_t *)(uintptr_t)addr == value + map->kptr_off[i]) {
			*percpu = map->kptr_percpu & (1u << i);
			return map;
		}
	hr_run_abort(run, HR_ABORT_HELPER_ARG, addr);
	return NULL;
}

/* void *bpf_kptr_xchg(void *map_value, void *ptr): a __percpu_kptr
 * field takes the run's per-CPU objects alone, a __kptr one the others
 * (the verifier's type match). */
static uint64_t kptr_xchg(uint64_t dst, uint64_t ptr, uint64_t r3, uint64_t r4,
			  uint64_t r5, struct hr_run *run)
{
	bool percpu = false;
	struct hr_map *map = kptr_field(run, dst, &percpu);
	struct hr_held_rec *h = NULL;
	uint32_t size = 0, old_size;
	void *obj = NULL, *old;

	if (!map)
		return 0;
	if (ptr) {
		h = percpu ? hr_percpu_held(run, ptr) : held(run, ptr);
		if (!h) {
			hr_run_abort(run, HR_ABORT_HELPER_ARG, ptr);
			return 0;
		}
		obj = h->obj;
		size = hr_obj_size(obj);
		unhold(run, h);
	}
	old = hr_map_kptr_xchg(map, (void *)(uintptr_t)dst, obj, size,
			       &old_size);
	if (!old)
		return 0;
	return percpu ? hr_percpu_hold(run, old) : hold(run, old, old_size);
}

const struct hr_helper hr_helper_kptr_xchg = {
	.id = 194,
	.name = "bpf_kptr_xchg",
	.fn = kptr_xchg,
};

/* ---- bpf_list_head ---- */

void hr_obj_unlocked(struct hr_run *run)
{
	unsigned int i = 0;

	/* The verifier's invalidate_non_owning_refs at bpf_spin_unlock. */
	while (i < run->nheld)
		if (run->held[i].drop == nonown)
			unhold(run, &run->held[i]);
		else
			i++;
}

static uint64_t hold_nonown(struct hr_run *run, void *obj, uint32_t size)
{
	unsigned int i;

	for (i = 0; i < run->nheld; i++)
		if (run->held[i].drop == nonown && run->held[i].obj == obj)
			return (uintptr_t)obj;
	if (run->nheld >= HR_MAX_HELD_RECORDS)
		return 0;
	run->held[run->nheld++] = (struct hr_held_rec){
		.start = (uintptr_t)obj,
		.end = (uintptr_t)obj + size,
		.drop = nonown,
		.obj = obj,
	};
	return (uintptr_t)obj;
}

/* The run's references that are not its own to @obj let go of: it left
 * its list or tree, and the run may come to free it. */
static void forget_nonown(struct hr_run *run, void *obj)
{
	unsigned int i = 0;

	while (i < run->nheld)
		if (run->held[i].drop == nonown && run->held[i].obj == obj)
			unhold(run, &run->held[i]);
		else
			i++;
}

/* The map whose value's bpf_list_head (bpf_rb_root when @rb) is at
 * @addr, with that value's lock held by the run; NULL after stopping the
 * run (the verifier's "bpf_spin_lock at off=N must be held for
 * bpf_list_head"; no graph kfunc inside an rbtree's less()). */
static struct hr_map *graph_root(struct hr_run *run, uint64_t addr, bool rb)
{
	uint8_t *value;
	struct hr_map *map = field_value(run, addr, 16, &value);

	if (map && map->list_off >= 0 && map->list_rb == rb &&
	    !run->in_rb_less &&
	    (uint8_t *)(uintptr_t)addr == value + map->list_off &&
	    run->lock == (uint32_t *)(value + map->list_lock_off))
		return map;
	hr_run_abort(run, HR_ABORT_HELPER_ARG, addr);
	return NULL;
}

static struct hr_map *list_head(struct hr_run *run, uint64_t addr)
{
	return graph_root(run, addr, false);
}

static uint64_t list_push(struct hr_run *run, uint64_t head, uint64_t node,
			  bool back)
{
	struct hr_map *map = list_head(run, head);
	struct hr_held_rec *h;
	void *obj;
	int ret;

	if (!map)
		return 0;
	h = held(run, node - (uint64_t)map->list_node_off);
	if (!h) {
		hr_run_abort(run, HR_ABORT_HELPER_ARG, node);
		return 0;
	}
	obj = h->obj;
	unhold(run, h);
	ret = hr_map_list_push(map, (void *)(uintptr_t)head, obj, back);
	if (!ret)
		hold_nonown(run, obj, hr_obj_size(obj));
	return (uint64_t)(int64_t)ret;
}

/* int bpf_list_push_front_impl(struct bpf_list_head *head,
 *	struct bpf_list_node *node, void *meta__ign, u64 off) */
static uint64_t list_push_front_impl(uint64_t head, uint64_t node,
				     uint64_t meta, uint64_t off, uint64_t r5,
				     struct hr_run *run)
{
	return list_push(run, head, node, false);
}

HR_KFUNC(list_push_front_impl, list_push_front_impl);

static uint64_t list_push_back_impl(uint64_t head, uint64_t node, uint64_t meta,
				    uint64_t off, uint64_t r5,
				    struct hr_run *run)
{
	return list_push(run, head, node, true);
}

HR_KFUNC(list_push_back_impl, list_push_back_impl);

/* The first (last when @back) object's node, taken off the list as the
 * run's own when @pop, else a reference while the lock is held. */
static uint64_t list_take(struct hr_run *run, uint64_t head, bool back,
			  bool pop)
{
	struct hr_map *map = list_head(run, head);
	void *obj;
	uint64_t p;

	if (!map)
		return 0;
	if (run->nheld >= HR_MAX_HELD_RECORDS)
		return 0;
	obj = hr_map_list_take((void *)(uintptr_t)head, back, pop);
	if (!obj)
		return 0;
	if (pop)
		forget_nonown(run, obj);
	p = pop ? hold(run, obj, hr_obj_size(obj)) :
		  hold_nonown(run, obj, hr_obj_size(obj));
	return p ? p + (uint64_t)map->list_node_off : 0;
}

/* struct bpf_list_node *bpf_list_pop_front(struct bpf_list_head *head) */
static uint64_t list_pop_front(uint64_t head, uint64_t r2, uint64_t r3,
			       uint64_t r4, uint64_t r5, struct hr_run *run)
{
	return list_take(run, head, false, true);
}

HR_KFUNC(list_pop_front, list_pop_front);

static uint64_t list_pop_back(uint64_t head, uint64_t r2, uint64_t r3,
			      uint64_t r4, uint64_t r5, struct hr_run *run)
{
	return list_take(run, head, true, true);
}

HR_KFUNC(list_pop_back, list_pop_back);

/* struct bpf_list_node *bpf_list_front(struct bpf_list_head *head) */
static uint64_t list_front(uint64_t head, uint64_t r2, uint64_t r3, uint64_t r4,
			   uint64_t r5, struct hr_run *run)
{
	return list_take(run, head, false, false);
}

HR_KFUNC(list_front, list_front);

static uint64_t list_back(uint64_t head, uint64_t r2, uint64_t r3, uint64_t r4,
			  uint64_t r5, struct hr_run *run)
{
	return list_take(run, head, true, false);
}

HR_KFUNC(list_back, list_back);

/* ---- bpf_rb_root ---- */

/* A less() argument: an object the callback may read while it runs. */
static void less_arg(void *obj)
{
}

/* The program's less(@a, @b) on two objects' nodes, run as bpf_loop runs
 * its callback (one frame deeper, charged to the run's budget). */
static bool rb_less(struct hr_run *run, uint32_t pc, void *a, void *b,
		    int node_off)
{
	uint64_t args[5] = { (uintptr_t)a + node_off, (uintptr_t)b + node_off };
	void *objs[2] = { a, b };
	unsigned int i;
	uint64_t ret;

	for (i = 0; i < 2 && run->nheld < HR_MAX_HELD_RECORDS; i++)
		run->held[run->nheld++] = (struct hr_held_rec){
			.start = (uintptr_t)objs[i],
			.end = (uintptr_t)objs[i] + hr_obj_size(objs[i]),
			.drop = less_arg,
			.obj = objs[i],
		};
	if (!hr_run_charge_callback(run, pc))
		return false;
	run->in_rb_less++;
	ret = run->callback(run, pc, args);
	run->in_rb_less--;
	i = 0;
	while (i < run->nheld)
		if (run->held[i].drop == less_arg)
			unhold(run, &run->held[i]);
		else
			i++;
	return ret != 0;
}

/* int bpf_rbtree_add_impl(struct bpf_rb_root *root, struct bpf_rb_node
 *	*node, bool (less)(struct bpf_rb_node *a, const struct bpf_rb_node *b),
 *	void *meta__ign, u64 off) */
static uint64_t rbtree_add_impl(uint64_t root, uint64_t node, uint64_t less,
				uint64_t meta, uint64_t off, struct hr_run *run)
{
	struct hr_map *map = graph_root(run, root, true);
	void *rootp = (void *)(uintptr_t)root, *obj, *parent = NULL, *cur;
	struct hr_held_rec *h;
	bool right = false;
	int ret;

	if (!map)
		return 0;
	h = held(run, node - (uint64_t)map->list_node_off);
	if (!h || !run->callback || less >= run->vm->cnt) {
		hr_run_abort(run, HR_ABORT_HELPER_ARG, h ? less : node);
		return 0;
	}
	obj = h->obj;
	unhold(run, h);
	/* __bpf_rbtree_add: a node in a tree already is not added again,
	 * and the reference passed is dropped. */
	if (!hr_obj_claim(obj)) {
		hr_obj_free(obj);
		return (uint64_t)(int64_t)-EINVAL;
	}
	/* The walk down: left of each node the new one is less than, else
	 * right, so that it goes right of equal ones. */
	cur = hr_map_rb_root(rootp);
	while (cur) {
		parent = cur;
		right = !rb_less(run, (uint32_t)less, obj, cur,
				 map->list_node_off);
		if (run->abort) {
			hr_obj_unclaim(obj);
			hr_obj_free(obj);
			return 0;
		}
		cur = hr_obj_rb_child(cur, right);
	}
	ret = hr_map_rb_link(map, rootp, obj, parent, right);
	if (!ret)
		hold_nonown(run, obj, hr_obj_size(obj));
	return (uint64_t)(int64_t)ret;
}

HR_KFUNC(rbtree_add_impl, rbtree_add_impl);

/* @obj's node as a reference that is not the run's own, or NULL. */
static uint64_t rb_ref(struct hr_run *run, struct hr_map *map, void *obj)
{
	uint64_t p = obj ? hold_nonown(run, obj, hr_obj_size(obj)) : 0;

	return p ? p + (uint64_t)map->list_node_off : 0;
}

/* struct bpf_rb_node *bpf_rbtree_first(struct bpf_rb_root *root) */
static uint64_t rbtree_first(uint64_t root, uint64_t r2, uint64_t r3,
			     uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct hr_map *map = graph_root(run, root, true);

	return map ? rb_ref(run, map,
			    hr_map_rb_first((void *)(uintptr_t)root)) :
		     0;
}

HR_KFUNC(rbtree_first, rbtree_first);

/* struct bpf_rb_node *bpf_rbtree_root(struct bpf_rb_root *root) */
static uint64_t rbtree_root(uint64_t root, uint64_t r2, uint64_t r3,
			    uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct hr_map *map = graph_root(run, root, true);

	return map ? rb_ref(run, map, hr_map_rb_root((void *)(uintptr_t)root)) :
		     0;
}

HR_KFUNC(rbtree_root, rbtree_root);

/* The object whose node the run reaches at @node (its own or not), or
 * NULL after stopping the run. */
static void *rb_node_obj(struct hr_run *run, struct hr_map *map, uint64_t node)
{
	uint64_t start = node - (uint64_t)map->list_node_off;
	unsigned int i;

	for (i = 0; i < run->nheld; i++)
		if ((run->held[i].drop == hr_obj_free ||
		     run->held[i].drop == nonown) &&
		    run->held[i].start == start)
			return run->held[i].obj;
	hr_run_abort(run, HR_ABORT_HELPER_ARG, node);
	return NULL;
}

/* bpf_rbtree_left, _right: @node's child when @node is in @root's tree. */
static uint64_t rb_child_of(struct hr_run *run, uint64_t root, uint64_t node,
			    bool right)
{
	struct hr_map *map = graph_root(run, root, true);
	void *obj = map ? rb_node_obj(run, map, node) : NULL;

	if (!obj || hr_obj_owner(obj) != (void *)(uintptr_t)root)
		return 0;
	return rb_ref(run, map, hr_obj_rb_child(obj, right));
}

/* struct bpf_rb_node *bpf_rbtree_left(struct bpf_rb_root *root,
 *	struct bpf_rb_node *node) */
static uint64_t rbtree_left(uint64_t root, uint64_t node, uint64_t r3,
			    uint64_t r4, uint64_t r5, struct hr_run *run)
{
	return rb_child_of(run, root, node, false);
}

HR_KFUNC(rbtree_left, rbtree_left);

static uint64_t rbtree_right(uint64_t root, uint64_t node, uint64_t r3,
			     uint64_t r4, uint64_t r5, struct hr_run *run)
{
	return rb_child_of(run, root, node, true);
}

HR_KFUNC(rbtree_right, rbtree_right);

/* struct bpf_rb_node *bpf_rbtree_remove(struct bpf_rb_root *root,
 *	struct bpf_rb_node *node): the object the run's own again, NULL when
 *	it is not in @root's tree. */
static uint64_t rbtree_remove(uint64_t root, uint64_t node, uint64_t r3,
			      uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct hr_map *map = graph_root(run, root, true);
	void *obj = map ? rb_node_obj(run, map, node) : NULL;
	uint64_t p;

	if (!obj || !hr_map_rb_remove((void *)(uintptr_t)root, obj))
		return 0;
	/* The tree's reference is the run's now (dropped, NULL returned,
	 * when the run holds all it can). */
	forget_nonown(run, obj);
	p = hold(run, obj, hr_obj_size(obj));
	return p ? p + (uint64_t)map->list_node_off : 0;
}

HR_KFUNC(rbtree_remove, rbtree_remove);
