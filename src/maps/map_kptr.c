// SPDX-License-Identifier: MIT
/*
 * The objects bpf_obj_new allocates and the __kptr fields of map values
 * that own them, after kernel/bpf/helpers.c (bpf_obj_new_impl's
 * bpf_mem_alloc, __bpf_obj_drop_impl, bpf_kptr_xchg) and the field
 * release of kernel/bpf/syscall.c (bpf_obj_free_fields: a kptr field's
 * object is dropped when its element is overwritten or deleted and when
 * the map is freed), and the lists and red-black trees of objects a map
 * value's bpf_list_head and bpf_rb_root hold (bpf_list_head_free,
 * bpf_rb_root_free; the tree's balancing is lib/rbtree.c's __rb_insert,
 * __rb_erase_augmented and ____rb_erase_color, so that its shape is the
 * kernel's).
 *
 * The kernel's verifier lets a program change a kptr field only through
 * bpf_kptr_xchg; headroom's map values are plain memory a program may
 * write, so what each field owns is kept here, by the field's address,
 * apart from its bytes (which mirror it for the program to read): a
 * forged pointer written there is never freed nor handed out.
 */
#include <errno.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "maps/map.h"
#include "maps/map_impl.h"
#include "maps/map_kptr.h"
#include "vm/vm.h"

#define KPTR_BUCKETS 1024

struct kptr_own {
	struct kptr_own *next;
	void *slot;
	void *obj;
	uint32_t size;
	const struct hr_map *map;
};

static pthread_mutex_t kptr_lock = PTHREAD_MUTEX_INITIALIZER;
static struct kptr_own *kptr_table[KPTR_BUCKETS];

/*
 * What headroom keeps before each object, out of the program's reach (as
 * the kernel keeps bpf_mem_alloc's llist node): its references, so that
 * no write of the program's can free it early. The kernel counts them in
 * the object's struct bpf_refcount, which its verifier keeps programs
 * from touching.
 */
struct obj_head {
	uint32_t refs;
	uint32_t flags;
	uint32_t size;
	/* A per-CPU object's copies (0 for another object). */
	uint32_t ncopies;
	/* The list head or rbtree root that holds it (its bpf_list_node's
	 * or bpf_rb_node's owner), or NULL; of a per-CPU object, the kptr
	 * field that owns it. */
	void *list;
	union {
		/* In an rbtree: its children and parent (objects), its
		 * colour. */
		struct {
			void *rb_left, *rb_right, *rb_parent;
			uint64_t rb_red;
		};
		/* A per-CPU object: its copies, apart from it so that no
		 * access through its own address reaches them; the next
		 * in its bucket of pcpu_table. */
		struct {
			uint8_t *copies;
			void *pcpu_next;
		};
	};
	uint64_t pad2; /* the object 16-aligned, as kmalloc's */
};

#define OBJ_REFCOUNTED 0x1

/* Every per-CPU object alive, by its address, under kptr_lock: what
 * bpf_per_cpu_ptr takes is looked up here, never read first. */
static void *pcpu_table[KPTR_BUCKETS];

static struct obj_head *head_of(void *obj)
{
	return (struct obj_head *)obj - 1;
}

void *hr_obj_alloc(uint32_t size, bool refcounted)
{
	struct obj_head *h = calloc(1, sizeof(*h) + size);

	if (!h)
		return NULL;
	h->refs = 1;
	h->flags = refcounted ? OBJ_REFCOUNTED : 0;
	h->size = size;
	return h + 1;
}

/* refcount_inc_not_zero, saturating as refcount_t does: an object
 * whose last reference is going is not taken again. */
static bool inc_not_zero(struct obj_head *h)
{
	uint32_t n = __atomic_load_n(&h->refs, __ATOMIC_RELAXED);

	do {
		if (n == 0 || n == UINT32_MAX)
			return false;
	} while (!__atomic_compare_exchange_n(
		&h->refs, &n, n + 1, true, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED));
	return true;
}

bool hr_obj_acquire(void *obj)
{
	struct obj_head *h = head_of(obj);

	return (h->flags & OBJ_REFCOUNTED) && inc_not_zero(h);
}

static void **pcpu_bucket(const void *obj)
{
	uintptr_t h = (uintptr_t)obj >> 4;

	return &pcpu_table[(h ^ (h >> 10)) % KPTR_BUCKETS];
}

void *hr_obj_alloc_percpu(uint32_t size, uint32_t ncopies)
{
	struct obj_head *h = calloc(1, sizeof(*h));
	void **b;

	if (!h)
		return NULL;
	h->copies = calloc(ncopies, HR_ROUND8(size));
	if (!h->copies) {
		free(h);
		return NULL;
	}
	h->refs = 1;
	h->size = size;
	h->ncopies = ncopies;
	pthread_mutex_lock(&kptr_lock);
	b = pcpu_bucket(h + 1);
	h->pcpu_next = *b;
	*b = h + 1;
	pthread_mutex_unlock(&kptr_lock);
	return h + 1;
}

/* Under kptr_lock: the per-CPU object at @ptr's bucket link to it, or
 * to the bucket's end. */
static void **pcpu_find(const void *ptr)
{
	void **p = pcpu_bucket(ptr);

	while (*p && *p != ptr)
		p = &head_of(*p)->pcpu_next;
	return p;
}

void *hr_obj_percpu_get(uint64_t ptr, bool held)
{
	void *obj = (void *)(uintptr_t)ptr;
	struct obj_head *h;
	void *got = NULL;

	pthread_mutex_lock(&kptr_lock);
	if (ptr && *pcpu_find(obj)) {
		h = head_of(obj);
		/* Found, it is not freed before the lock is let go of; its
		 * last reference may be going already. */
		if ((held || h->list) && inc_not_zero(h))
			got = obj;
	}
	pthread_mutex_unlock(&kptr_lock);
	return got;
}

uint8_t *hr_obj_percpu_copy(void *obj, uint32_t cpu)
{
	struct obj_head *h = head_of(obj);

	if (cpu >= h->ncopies)
		return NULL;
	return h->copies + (size_t)cpu * HR_ROUND8(h->size);
}

void hr_obj_free(void *obj)
{
	struct obj_head *h = head_of(obj);

	/* __bpf_obj_drop_impl: a refcounted object goes with its last
	 * reference; a per-CPU one leaves the table of the living first. */
	if (__atomic_sub_fetch(&h->refs, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	if (h->ncopies) {
		pthread_mutex_lock(&kptr_lock);
		*pcpu_find(obj) = h->pcpu_next;
		pthread_mutex_unlock(&kptr_lock);
		free(h->copies);
	}
	free(h);
}

/* Under kptr_lock: a per-CPU object's field (@slot, or NULL as it
 * leaves it), which bpf_per_cpu_ptr takes its address from. */
static void owned_by(void *obj, void *slot)
{
	if (obj && head_of(obj)->ncopies)
		head_of(obj)->list = slot;
}

static struct kptr_own **bucket(const void *slot)
{
	uintptr_t h = (uintptr_t)slot >> 3;

	return &kptr_table[(h ^ (h >> 10)) % KPTR_BUCKETS];
}

/* The owner record of @slot's pointer to it, or of the bucket's end. */
static struct kptr_own **find(const void *slot)
{
	struct kptr_own **p = bucket(slot);

	while (*p && (*p)->slot != slot)
		p = &(*p)->next;
	return p;
}

void *hr_map_kptr_xchg(struct hr_map *map, void *slot, void *obj, uint32_t size,
		       uint32_t *old_size)
{
	/* Got before the lock: a per-CPU object freed takes it. */
	struct kptr_own **p, *o, *spare = obj ? malloc(sizeof(*o)) : NULL;
	void *old = NULL, *dropped = NULL;

	*old_size = 0;
	pthread_mutex_lock(&kptr_lock);
	p = find(slot);
	o = *p;
	if (o) {
		old = o->obj;
		*old_size = o->size;
	}
	if (obj && !o) {
		o = spare;
		spare = NULL;
		if (!o) {
			/* Nowhere to keep it: the field stays empty and
			 * the object is freed, as a full map would drop it. */
			dropped = obj;
			obj = NULL;
		} else {
			o->next = NULL;
			o->slot = slot;
			o->map = map;
			*p = o;
		}
	}
	owned_by(old, NULL);
	owned_by(obj, slot);
	if (obj) {
		o->obj = obj;
		o->size = size;
	} else if (o) {
		*p = o->next;
		free(o);
	}
	__atomic_store_n((uint64_t *)slot, (uint64_t)(uintptr_t)obj,
			 __ATOMIC_RELAXED);
	pthread_mutex_unlock(&kptr_lock);
	free(spare);
	if (dropped)
		hr_obj_free(dropped);
	return old;
}

/* What a run's reach through a kptr field leaves it holding: the
 * reference taken below (hr_obj_rcu_mem_check), let go of as it ends. */
static void rcu_put(void *obj)
{
	hr_obj_free(obj);
}

/* Under kptr_lock: the object (not per-CPU) a kptr field owns that holds
 * [@addr, @addr + @len), with a reference taken; NULL when none does. */
static void *owned_holding(uintptr_t addr, uint32_t len)
{
	struct kptr_own *o;
	unsigned int b;

	for (b = 0; b < KPTR_BUCKETS; b++)
		for (o = kptr_table[b]; o; o = o->next) {
			uintptr_t lo = (uintptr_t)o->obj;

			if (head_of(o->obj)->ncopies || addr < lo ||
			    addr - lo > o->size || o->size - (addr - lo) < len)
				continue;
			return inc_not_zero(head_of(o->obj)) ? o->obj : NULL;
		}
	return NULL;
}

int hr_obj_rcu_mem_check(struct hr_run *run, uintptr_t addr, uint32_t len)
{
	void *obj;

	if (run->nheld >= HR_MAX_HELD_RECORDS)
		return -1;
	pthread_mutex_lock(&kptr_lock);
	obj = owned_holding(addr, len);
	pthread_mutex_unlock(&kptr_lock);
	if (!obj)
		return -1;
	run->held[run->nheld++] = (struct hr_held_rec){
		.start = (uintptr_t)obj,
		.end = (uintptr_t)obj + hr_obj_size(obj),
		.drop = rcu_put,
		.obj = obj,
	};
	return 0;
}

bool hr_obj_rcu_reached(const struct hr_held_rec *h)
{
	return h->drop == rcu_put;
}

void hr_map_kptr_free_value(struct hr_map *map, void *value)
{
	struct kptr_own **p, *o;
	unsigned int i;

	for (i = 0; i < map->nkptrs; i++) {
		void *slot = (uint8_t *)value + map->kptr_off[i];

		pthread_mutex_lock(&kptr_lock);
		p = find(slot);
		o = *p;
		if (o) {
			*p = o->next;
			owned_by(o->obj, NULL);
		}
		pthread_mutex_unlock(&kptr_lock);
		if (o) {
			hr_obj_free(o->obj);
			free(o);
		}
		hr_map_value_zero(slot, 8);
	}
}

void hr_map_kptrs_free(struct hr_map *map)
{
	struct kptr_own **p, *o, *gone = NULL;
	unsigned int b;

	if (!map->nkptrs)
		return;
	pthread_mutex_lock(&kptr_lock);
	for (b = 0; b < KPTR_BUCKETS; b++) {
		p = &kptr_table[b];
		while ((o = *p)) {
			if (o->map != map) {
				p = &o->next;
				continue;
			}
			*p = o->next;
			owned_by(o->obj, NULL);
			o->next = gone;
			gone = o;
		}
	}
	pthread_mutex_unlock(&kptr_lock);
	/* Freed with the lock let go of: a per-CPU object's last
	 * reference takes it (hr_obj_free). */
	while ((o = gone)) {
		gone = o->next;
		hr_obj_free(o->obj);
		free(o);
	}
}

uint32_t hr_obj_size(void *obj)
{
	return head_of(obj)->size;
}

/* ---- bpf_list_head: the objects each holds, by the head's address ---- */

struct list_own {
	struct list_own *next;
	void *slot;
	const struct hr_map *map;
	void **objs;
	uint32_t n, cap;
	/* An rbtree's root object (its objs unused). */
	void *root;
};

static struct list_own *list_table[KPTR_BUCKETS];

static struct list_own **list_find(const void *slot)
{
	uintptr_t h = (uintptr_t)slot >> 3;
	struct list_own **p = &list_table[(h ^ (h >> 10)) % KPTR_BUCKETS];

	while (*p && (*p)->slot != slot)
		p = &(*p)->next;
	return p;
}

int hr_map_list_push(struct hr_map *map, void *head, void *obj, bool back)
{
	struct obj_head *h = head_of(obj);
	struct list_own **p, *l;
	void **grown;
	int ret = 0;

	pthread_mutex_lock(&kptr_lock);
	/* __bpf_list_add: a node already in a list is not added again, and
	 * the reference passed is dropped. */
	if (h->list) {
		ret = -EINVAL;
		goto out;
	}
	p = list_find(head);
	l = *p;
	if (!l) {
		l = calloc(1, sizeof(*l));
		if (!l) {
			ret = -ENOMEM;
			goto out;
		}
		l->slot = head;
		l->map = map;
		*p = l;
	}
	if (l->n == l->cap) {
		grown = realloc(l->objs,
				(l->cap ? 2 * l->cap : 8) * sizeof(*grown));
		if (!grown) {
			ret = -ENOMEM;
			goto out;
		}
		l->objs = grown;
		l->cap = l->cap ? 2 * l->cap : 8;
	}
	if (back) {
		l->objs[l->n] = obj;
	} else {
		memmove(l->objs + 1, l->objs, l->n * sizeof(*l->objs));
		l->objs[0] = obj;
	}
	l->n++;
	h->list = head;
out:
	pthread_mutex_unlock(&kptr_lock);
	if (ret)
		hr_obj_free(obj);
	return ret;
}

void *hr_map_list_take(void *head, bool back, bool pop)
{
	struct list_own **p, *l;
	void *obj = NULL;

	pthread_mutex_lock(&kptr_lock);
	p = list_find(head);
	l = *p;
	if (l && l->n) {
		obj = back ? l->objs[l->n - 1] : l->objs[0];
		if (pop) {
			if (!back)
				memmove(l->objs, l->objs + 1,
					(l->n - 1) * sizeof(*l->objs));
			l->n--;
			head_of(obj)->list = NULL;
		}
	}
	pthread_mutex_unlock(&kptr_lock);
	return obj;
}

static void rb_free(void *obj);

/* bpf_list_head_free, bpf_rb_root_free: every object of @l dropped, and
 * @l freed. */
static void list_free(struct list_own *l)
{
	uint32_t i;

	rb_free(l->root);
	for (i = 0; i < l->n; i++) {
		head_of(l->objs[i])->list = NULL;
		hr_obj_free(l->objs[i]);
	}
	free(l->objs);
	free(l);
}

/* The list or tree of @value taken out of the table; NULL if none. */
static struct list_own *list_detach(struct hr_map *map, void *value)
{
	struct list_own **p, *l;

	pthread_mutex_lock(&kptr_lock);
	p = list_find((uint8_t *)value + map->list_off);
	l = *p;
	if (l)
		*p = l->next;
	pthread_mutex_unlock(&kptr_lock);
	return l;
}

/*
 * Takes @value's bpf_spin_lock as bpf_list_head_free and
 * bpf_rb_root_free take it: a run of another worker holding it may still
 * read the nodes through references it does not own, which it gives up
 * at bpf_spin_unlock. A run holding it itself never gets here (its map
 * update or delete ends it first); a word no run holds but a program
 * wrote is waited for only up to the bound. The lock word, or NULL when
 * it was not got.
 */
static uint32_t *value_lock(struct hr_map *map, void *value)
{
	uint32_t *lock;

	if (map->list_lock_off < 0)
		return NULL;
	lock = (uint32_t *)((uint8_t *)value + map->list_lock_off);
	return hr_spin_wait(lock, HR_SPIN_LOCK_TIMEOUT_NS) ? lock : NULL;
}

static void value_unlock(uint32_t *lock)
{
	if (lock)
		__atomic_store_n(lock, 0, __ATOMIC_RELEASE);
}

void hr_map_list_free_value(struct hr_map *map, void *value)
{
	struct list_own *l;
	uint32_t *lock;

	if (map->list_off < 0)
		return;
	lock = value_lock(map, value);
	l = list_detach(map, value);
	value_unlock(lock);
	if (l)
		list_free(l);
	hr_map_value_zero((uint8_t *)value + map->list_off, 16);
}

void hr_map_value_store_list(struct hr_map *map, void *dst, const void *src)
{
	uint32_t size = map->attr.value_size, off;
	const uint8_t *in = src;
	uint8_t *out = dst;
	struct list_own *l;
	uint32_t *lock;

	if (map->list_off < 0 || map->list_lock_off < 0) {
		hr_map_value_store(dst, src, size);
		return;
	}
	/* The lock word is left as it is (copy_map_value skips the
	 * special fields): it is held while the rest is written and the
	 * old list taken out. */
	off = (uint32_t)map->list_lock_off;
	lock = value_lock(map, dst);
	hr_map_value_store(out, in, off);
	hr_map_value_store(out + off + 4, in + off + 4, size - off - 4);
	l = list_detach(map, dst);
	value_unlock(lock);
	if (l)
		list_free(l);
}

void hr_map_lists_free(struct hr_map *map)
{
	struct list_own **p, *l, *gone = NULL;
	unsigned int b;

	if (map->list_off < 0)
		return;
	pthread_mutex_lock(&kptr_lock);
	for (b = 0; b < KPTR_BUCKETS; b++) {
		p = &list_table[b];
		while ((l = *p)) {
			if (l->map != map) {
				p = &l->next;
				continue;
			}
			*p = l->next;
			l->next = gone;
			gone = l;
		}
	}
	pthread_mutex_unlock(&kptr_lock);
	while ((l = gone)) {
		gone = l->next;
		list_free(l);
	}
}

/* ---- bpf_rb_root: a red-black tree of objects, as lib/rbtree.c ---- */

static void *rb_parent(void *o)
{
	return head_of(o)->rb_parent;
}

static void **rb_child(void *o, bool right)
{
	return right ? &head_of(o)->rb_right : &head_of(o)->rb_left;
}

static bool rb_is_red(void *o)
{
	return o && head_of(o)->rb_red;
}

/* @old's parent (or the root) made to point to @new. */
static void rb_change_child(struct list_own *t, void *old, void *new,
			    void *parent)
{
	if (!parent)
		t->root = new;
	else if (head_of(parent)->rb_left == old)
		head_of(parent)->rb_left = new;
	else
		head_of(parent)->rb_right = new;
}

/* @x rotated down to the left (@right false) or right side. */
static void rb_rotate(struct list_own *t, void *x, bool right)
{
	void *y = *rb_child(x, !right);
	void *c = *rb_child(y, right);

	*rb_child(x, !right) = c;
	if (c)
		head_of(c)->rb_parent = x;
	head_of(y)->rb_parent = rb_parent(x);
	rb_change_child(t, x, y, rb_parent(x));
	*rb_child(y, right) = x;
	head_of(x)->rb_parent = y;
}

/* __rb_insert: @node, red, linked as a leaf, the colours mended. */
static void rb_insert_color(struct list_own *t, void *node)
{
	void *parent, *gparent, *uncle;
	bool right;

	for (;;) {
		parent = rb_parent(node);
		if (!parent) {
			head_of(node)->rb_red = 0;
			return;
		}
		if (!rb_is_red(parent))
			return;
		gparent = rb_parent(parent);
		right = head_of(gparent)->rb_right == parent;
		uncle = *rb_child(gparent, !right);
		if (rb_is_red(uncle)) {
			head_of(parent)->rb_red = 0;
			head_of(uncle)->rb_red = 0;
			head_of(gparent)->rb_red = 1;
			node = gparent;
			continue;
		}
		if (node == *rb_child(parent, !right)) {
			rb_rotate(t, parent, right);
			parent = node;
		}
		rb_rotate(t, gparent, !right);
		head_of(parent)->rb_red = 0;
		head_of(gparent)->rb_red = 1;
		return;
	}
}

/* ____rb_erase_color: a black taken from below @parent, on the side of
 * @node (NULL or black). */
static void rb_erase_color(struct list_own *t, void *node, void *parent)
{
	void *sib;
	bool right;

	while (parent) {
		/* As lib/rbtree.c: node is the left one unless it is the
		 * right child (a NULL node on the left side has a sibling). */
		right = head_of(parent)->rb_right == node;
		sib = *rb_child(parent, !right);
		if (rb_is_red(sib)) {
			rb_rotate(t, parent, right);
			head_of(sib)->rb_red = 0;
			head_of(parent)->rb_red = 1;
			sib = *rb_child(parent, !right);
		}
		if (!rb_is_red(*rb_child(sib, !right))) {
			if (!rb_is_red(*rb_child(sib, right))) {
				head_of(sib)->rb_red = 1;
				if (rb_is_red(parent)) {
					head_of(parent)->rb_red = 0;
					return;
				}
				node = parent;
				parent = rb_parent(node);
				continue;
			}
			rb_rotate(t, sib, !right);
			sib = *rb_child(parent, !right);
		}
		rb_rotate(t, parent, right);
		head_of(sib)->rb_red = head_of(parent)->rb_red;
		head_of(parent)->rb_red = 0;
		head_of(*rb_child(sib, !right))->rb_red = 0;
		return;
	}
}

/* __rb_erase_augmented: @node out of @t, the colours mended. */
static void rb_erase(struct list_own *t, void *node)
{
	struct obj_head *n = head_of(node);
	void *child = n->rb_right, *tmp = n->rb_left, *parent, *rebalance;
	void *succ, *child2;

	if (!tmp) {
		parent = n->rb_parent;
		rb_change_child(t, node, child, parent);
		if (child) {
			head_of(child)->rb_parent = parent;
			head_of(child)->rb_red = n->rb_red;
			rebalance = NULL;
		} else {
			rebalance = n->rb_red ? NULL : parent;
		}
	} else if (!child) {
		parent = n->rb_parent;
		head_of(tmp)->rb_parent = parent;
		head_of(tmp)->rb_red = n->rb_red;
		rb_change_child(t, node, tmp, parent);
		rebalance = NULL;
	} else {
		succ = child;
		tmp = head_of(child)->rb_left;
		if (!tmp) {
			parent = succ;
			child2 = head_of(succ)->rb_right;
		} else {
			do {
				parent = succ;
				succ = tmp;
				tmp = head_of(tmp)->rb_left;
			} while (tmp);
			child2 = head_of(succ)->rb_right;
			head_of(parent)->rb_left = child2;
			head_of(succ)->rb_right = child;
			head_of(child)->rb_parent = succ;
		}
		tmp = n->rb_left;
		head_of(succ)->rb_left = tmp;
		head_of(tmp)->rb_parent = succ;
		rb_change_child(t, node, succ, n->rb_parent);
		if (child2) {
			head_of(child2)->rb_parent = parent;
			head_of(child2)->rb_red = 0;
			rebalance = NULL;
		} else {
			rebalance = head_of(succ)->rb_red ? NULL : parent;
		}
		head_of(succ)->rb_parent = n->rb_parent;
		head_of(succ)->rb_red = n->rb_red;
	}
	if (rebalance)
		rb_erase_color(t, NULL, rebalance);
	n->rb_left = n->rb_right = n->rb_parent = NULL;
	n->rb_red = 0;
}

/* Every object of the subtree at @obj dropped (the depth a left walk
 * recurses to is the tree's, which red-black keeps logarithmic). */
static void rb_free(void *obj)
{
	struct obj_head *h;
	void *right;

	while (obj) {
		h = head_of(obj);
		right = h->rb_right;
		rb_free(h->rb_left);
		h->list = NULL;
		h->rb_left = h->rb_right = h->rb_parent = NULL;
		hr_obj_free(obj);
		obj = right;
	}
}

void *hr_map_rb_root(void *root)
{
	struct list_own *l;

	pthread_mutex_lock(&kptr_lock);
	l = *list_find(root);
	pthread_mutex_unlock(&kptr_lock);
	return l ? l->root : NULL;
}

void *hr_obj_rb_child(void *obj, bool right)
{
	return *rb_child(obj, right);
}

void *hr_obj_owner(void *obj)
{
	return __atomic_load_n(&head_of(obj)->list, __ATOMIC_ACQUIRE);
}

bool hr_obj_claim(void *obj)
{
	void *none = NULL;

	return __atomic_compare_exchange_n(&head_of(obj)->list, &none,
					   (void *)HR_OBJ_CLAIMED, false,
					   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

void hr_obj_unclaim(void *obj)
{
	__atomic_store_n(&head_of(obj)->list, NULL, __ATOMIC_RELEASE);
}

int hr_map_rb_link(struct hr_map *map, void *root, void *obj, void *parent,
		   bool right)
{
	struct obj_head *h = head_of(obj);
	struct list_own **p, *l;

	pthread_mutex_lock(&kptr_lock);
	p = list_find(root);
	l = *p;
	if (!l) {
		l = calloc(1, sizeof(*l));
		if (!l) {
			pthread_mutex_unlock(&kptr_lock);
			h->list = NULL;
			hr_obj_free(obj);
			return -ENOMEM;
		}
		l->slot = root;
		l->map = map;
		*p = l;
	}
	h->rb_parent = parent;
	h->rb_left = h->rb_right = NULL;
	h->rb_red = 1;
	if (parent)
		*rb_child(parent, right) = obj;
	else
		l->root = obj;
	rb_insert_color(l, obj);
	__atomic_store_n(&h->list, root, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&kptr_lock);
	return 0;
}

void *hr_map_rb_first(void *root)
{
	void *o = hr_map_rb_root(root);

	while (o && head_of(o)->rb_left)
		o = head_of(o)->rb_left;
	return o;
}

bool hr_map_rb_remove(void *root, void *obj)
{
	struct list_own *l;

	if (hr_obj_owner(obj) != root)
		return false;
	pthread_mutex_lock(&kptr_lock);
	l = *list_find(root);
	if (l)
		rb_erase(l, obj);
	head_of(obj)->list = NULL;
	pthread_mutex_unlock(&kptr_lock);
	return l != NULL;
}
