/* SPDX-License-Identifier: MIT */
/*
 * A map value's special fields, for predict.c: the loader places them
 * (loader/map_fields.h), since maps need the bpf_timer's place to run.
 */
#ifndef HR_CHECK_FIELDS_H
#define HR_CHECK_FIELDS_H

#include "loader/map_fields.h"

#endif /* HR_CHECK_FIELDS_H */
