/* SPDX-License-Identifier: MIT */
/*
 * The struct bpf_timer and struct bpf_wq fields of a map's values
 * (kernel/bpf/helpers.c: __bpf_async_init, __bpf_async_set_callback,
 * bpf_timer_start, bpf_timer_cancel, bpf_timer_cancel_and_free,
 * bpf_timer_cb; bpf_wq_start, bpf_wq_work, bpf_wq_cancel_and_free): the
 * state behind each initialised timer or wq, and the thread that runs the
 * callbacks of a map's armed timers when they expire, as the kernel's
 * hrtimers do, and of its started wqs at once, as a kernel worker does.
 *
 * A timer or wq is known by its address in the map's value memory; the
 * 16 bytes of the struct bpf_timer or bpf_wq themselves hold nothing
 * headroom reads, so a program writing them can break nothing but its
 * own timer.
 */
#ifndef HR_MAPS_MAP_TIMER_H
#define HR_MAPS_MAP_TIMER_H

#include <stdbool.h>
#include <stdint.h>

struct hr_map;
struct hr_prog;
struct hr_object;

/* sizeof(struct bpf_timer): the kernel's struct bpf_async_kern fits. */
#define HR_BPF_TIMER_SIZE 16
/* sizeof(struct bpf_wq). */
#define HR_BPF_WQ_SIZE 16
/* bpf_timer_start's flags (enum in uapi/linux/bpf.h). */
#define HR_F_TIMER_ABS (1ull << 0)
#define HR_F_TIMER_CPU_PIN (1ull << 1)

/* The map types map_check_btf lets a value hold a bpf_timer in. */
bool hr_map_timer_type_ok(uint32_t map_type);

/*
 * bpf_timer_init on the timer at @slot, in the value at @value of @map,
 * whose key the callback will be handed at @key (an array's index is
 * passed as @index with @key NULL), on @clock (already checked). 0,
 * -EBUSY when it is initialised, -EPERM when the map is being freed,
 * -ENOMEM.
 */
int hr_map_timer_init(struct hr_map *map, void *slot, int clock,
		      const void *key, uint32_t index);
/* bpf_wq_init on the wq at @slot, as hr_map_timer_init (no clock). */
int hr_map_wq_init(struct hr_map *map, void *slot, const void *key,
		   uint32_t index);
/* bpf_timer_set_callback and bpf_wq_set_callback_impl: the function at
 * instruction @pc of @prog. 0, -EINVAL when not initialised, -EPERM when
 * the map is being freed. */
int hr_map_timer_set_callback(struct hr_map *map, void *slot,
			      const struct hr_prog *prog, uint32_t pc);
/* bpf_timer_start: @flags checked; fires on @cpu's behalf. 0, -EINVAL
 * when not initialised or without a callback. */
int hr_map_timer_start(struct hr_map *map, void *slot, uint64_t nsecs,
		       uint64_t flags, unsigned int cpu);
/* bpf_wq_start: schedule_work, so the callback runs once however many
 * starts came before it ran; fires on @cpu's behalf. With @hold it is not
 * run before hr_map_wq_release(): the run that started it goes on, as a
 * kernel work item queued on this CPU's pool runs only once the program
 * that queued it has returned. 0, -EINVAL when not initialised or without
 * a callback (then nothing is held). */
int hr_map_wq_start(struct hr_map *map, void *slot, unsigned int cpu,
		    bool hold);
/* The end of the run that started the wq at @slot with @hold: it may run.
 * Nothing when the slot was freed since. */
void hr_map_wq_release(struct hr_map *map, void *slot);
/* bpf_timer_cancel: 1 when it was armed, 0 when not, -EINVAL when not
 * initialised, -EDEADLK from its own callback (or from a callback that
 * one cancelling it waits for). Waits for its running callback. */
int hr_map_timer_cancel(struct hr_map *map, void *slot);

/*
 * bpf_timer_cancel_and_free and bpf_wq_cancel_and_free for the value at
 * @value (bpf_obj_free_fields when an element is deleted, replaced or
 * overwritten): the timer and the wq, where one was initialised, are
 * disarmed (a started wq that has not run never runs) and forgotten, so
 * the slots are uninitialised again. Takes no map lock and never waits (a callback
 * running now finishes; its record is freed after it), so map code calls
 * it under its own locks. Nothing for maps without either.
 */
void hr_map_timer_free_value(struct hr_map *map, void *value);

/* After a value was stored at @value: its bpf_timer and bpf_wq freed and
 * their 16 bytes zero, as copy_map_value (which skips the field) followed by
 * bpf_obj_free_fields leaves an updated element's (map_timer.c). */
void hr_map_timer_stored(struct hr_map *map, void *value);

/* Every timer of @map cancelled and freed, its thread joined: no callback
 * runs after this returns (hr_map_free). */
void hr_map_timers_free(struct hr_map *map);

/* Timers of @map whose callbacks are @obj's programs disarmed and their
 * callbacks dropped, waiting for one that runs: @obj is being closed and
 * its programs are about to be freed. */
void hr_map_timers_forget_object(struct hr_map *map,
				 const struct hr_object *obj);

#endif /* HR_MAPS_MAP_TIMER_H */
