/* SPDX-License-Identifier: MIT */
/*
 * The kernel's character classes (include/linux/ctype.h over the table of
 * lib/ctype.c), which are ISO 8859-1, not the C locale's ASCII: the
 * Latin-1 capitals fold to lower case and the no-break space is white
 * space. The string kfuncs and bpf_strtol/bpf_strtoul classify as the
 * kernel does, so these are not <ctype.h>.
 */
#ifndef HR_HELPERS_KCTYPE_H
#define HR_HELPERS_KCTYPE_H

#include <stdbool.h>

/* A-Z, and the Latin-1 capitals 0xC0-0xDE but for the multiplication
 * sign 0xD7. */
static inline bool hr_kisupper(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 0xc0 && c <= 0xde && c != 0xd7);
}

/* tolower(): each capital is its small letter 0x20 above. */
static inline unsigned char hr_ktolower(unsigned char c)
{
	return hr_kisupper(c) ? (unsigned char)(c + 0x20) : c;
}

/* isspace(): \t \n \v \f \r, the space and the no-break space 0xA0. */
static inline bool hr_kisspace(unsigned char c)
{
	return (c >= '\t' && c <= '\r') || c == ' ' || c == 0xa0;
}

static inline bool hr_kisxdigit(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

/* isprint(): the space to '~', and 0xA0-0xFF (the no-break space, the
 * Latin-1 signs and letters); not the controls 0x7F-0x9F. */
static inline bool hr_kisprint(unsigned char c)
{
	return (c >= ' ' && c <= '~') || c >= 0xa0;
}

#endif /* HR_HELPERS_KCTYPE_H */
