/* SPDX-License-Identifier: MIT */
/*
 * Frame returns on a worker thread are gathered and given back to their
 * pool in bulk at the end of each poll round (the kernel's
 * xdp_return_frame_bulk), so a DROP costs no lock per packet.
 */
#ifndef HR_CORE_FRAME_H
#define HR_CORE_FRAME_H

/* Starts gathering returns on this thread / gives back what was gathered
 * and stops. */
void hr_frame_cache_begin(void);
void hr_frame_cache_end(void);
/* Gives back what was gathered, and keeps gathering. */
void hr_frame_cache_flush(void);

#endif /* HR_CORE_FRAME_H */
