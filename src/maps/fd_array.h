/* SPDX-License-Identifier: MIT */
/*
 * Maps whose values name other objects (the kernel's fd maps):
 * PROG_ARRAY (prog_array.c) and ARRAY_OF_MAPS / HASH_OF_MAPS
 * (map_in_map.c). User space stores handles (hr_prog_fd(), hr_map_fd());
 * programs see the objects.
 */
#ifndef HR_MAPS_FD_ARRAY_H
#define HR_MAPS_FD_ARRAY_H

#include <stdbool.h>
#include <stdint.h>

struct hr_map;
struct hr_prog;

/* The program in slot @index of PROG_ARRAY @map, or NULL (empty slot or
 * out of range), for bpf_tail_call. */
struct hr_prog *hr_prog_array_get(struct hr_map *map, uint32_t index);

/* bpf_check_tail_call(): a program that uses PROG_ARRAY @map must be of
 * the kind its programs are (the first one, stored or using it, sets the
 * kind); 0 or -EINVAL. Any other map: 0. */
int hr_prog_array_claim(struct hr_map *map, struct hr_prog *prog);

/* Whether @map may be an inner map of a map-in-map (bpf_map_meta_alloc());
 * 0 or -errno. */
int hr_map_inner_ok(const struct hr_map *inner);

/* Whether map-in-map @outer's inner map template (its inner_map_meta) has
 * exactly @in's type, key and value sizes, flags and entries, so that
 * @in may stand for it (headroom check); false for any other map. */
bool hr_map_inner_same(const struct hr_map *outer, const struct hr_map *in);

/* The array walk of fd arrays (0 .. max_entries - 1; an absent or
 * out-of-range key restarts at 0). */
int hr_fd_array_get_next_key(struct hr_map *map, const void *key, void *next);

#endif /* HR_MAPS_FD_ARRAY_H */
