// SPDX-License-Identifier: MIT
/*
 * Where `headroom test` takes each packet's RX hints from: --hints FILE
 * (JSON lines), --hints-const JSON, or the "hr-hints:" comments of a
 * pcapng input (what --out writes, so a capture replays exactly); and
 * which hints the device has at all (--device, or the "hr-device:"
 * comment). A hint the device lacks answers -EOPNOTSUPP, as a driver
 * without that xdp_metadata_ops callback; one this packet lacks -ENODATA.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/test_io.h"
#include "dev/pcapng.h"

int test_hints_setup(struct test_hints *th)
{
	char why[256];
	bool has_index;
	uint64_t index;

	th->supported = HR_HINT_ALL;
	if (th->device &&
	    hr_hints_profile(th->device, &th->supported, why, sizeof(why))) {
		fprintf(stderr, "headroom: --device: %s\n", why);
		return -EINVAL;
	}
	if (th->constant) {
		if (hr_hints_parse(th->constant, &th->all, &has_index, &index,
				   why, sizeof(why))) {
			fprintf(stderr, "headroom: --hints-const: %s\n", why);
			return -EINVAL;
		}
		if (has_index) {
			fprintf(stderr, "headroom: --hints-const: key "
					"\"index\": the hints are for every "
					"packet (use --hints FILE)\n");
			return -EINVAL;
		}
	}
	if (th->file && th->constant) {
		fprintf(stderr, "headroom: --hints and --hints-const: give "
				"one of them\n");
		return -EINVAL;
	}
	return 0;
}

int test_hints_load(struct test_hints *th, size_t npkts)
{
	if (!th->file)
		return 0;
	th->npkts = npkts;
	return hr_hints_load(th->file, npkts, &th->per_pkt);
}

/* The capture's own hints and device, from its comments. */
static int from_comments(const struct hr_pcapng_pkt *p, struct hr_hint *h,
			 bool *have_hints, uint8_t *device, bool *have_device)
{
	size_t tag = strlen(HR_PCAPNG_HINTS_TAG),
	       dtag = strlen(TEST_DEVICE_TAG);
	char why[256];
	bool has_index;
	uint64_t index;
	unsigned int i;

	for (i = 0; i < p->ncomments; i++) {
		const char *c = hr_pcapng_comment(p, i);

		if (!c)
			continue;
		if (!strncmp(c, HR_PCAPNG_HINTS_TAG, tag)) {
			if (hr_hints_parse(c + tag, h, &has_index, &index, why,
					   sizeof(why))) {
				fprintf(stderr,
					"headroom: packet %u: comment "
					"'%s': %s\n",
					p->index, c, why);
				return -EINVAL;
			}
			*have_hints = true;
		} else if (!strncmp(c, TEST_DEVICE_TAG, dtag)) {
			if (hr_hints_profile(c + dtag, device, why,
					     sizeof(why))) {
				fprintf(stderr,
					"headroom: packet %u: comment "
					"'%s': %s\n",
					p->index, c, why);
				return -EINVAL;
			}
			*have_device = true;
		}
	}
	return 0;
}

int test_hints_for(const struct test_hints *th, unsigned int index,
		   const struct hr_pcapng_pkt *p, struct hr_test_hints *out,
		   struct hr_hint *shown, uint8_t *supported)
{
	bool have_hints = false, have_device = false;
	uint8_t device = th->supported;
	struct hr_hint h;
	int err;

	memset(&h, 0, sizeof(h));
	if (th->file) {
		if (index < th->npkts)
			h = th->per_pkt[index];
		have_hints = true;
	} else if (th->constant) {
		h = th->all;
		have_hints = true;
	} else if (p) {
		err = from_comments(p, &h, &have_hints, &device, &have_device);
		if (err)
			return err;
		/* --device overrides the capture's. */
		if (th->device)
			device = th->supported;
	}
	if (!have_hints && !have_device && !th->device)
		return 0;
	memset(out, 0, sizeof(*out));
	out->present =
		(h.have & HR_HINT_TIMESTAMP ? HR_TEST_HINT_TIMESTAMP : 0) |
		(h.have & HR_HINT_HASH ? HR_TEST_HINT_HASH : 0) |
		(h.have & HR_HINT_VLAN ? HR_TEST_HINT_VLAN : 0);
	out->supported =
		(device & HR_HINT_TIMESTAMP ? HR_TEST_HINT_TIMESTAMP : 0) |
		(device & HR_HINT_HASH ? HR_TEST_HINT_HASH : 0) |
		(device & HR_HINT_VLAN ? HR_TEST_HINT_VLAN : 0);
	out->timestamp = h.timestamp;
	out->hash = h.hash;
	out->rss_type = h.rss_type;
	out->vlan_proto = htons(h.vlan_proto);
	out->vlan_tci = h.vlan_tci;
	*shown = h;
	*supported = device;
	return 1;
}

void test_hints_free(struct test_hints *th)
{
	free(th->per_pkt);
	th->per_pkt = NULL;
}

void test_hints_profile_str(uint8_t have, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s%s%s", have & HR_HINT_HASH ? "hash," : "",
		 have & HR_HINT_TIMESTAMP ? "timestamp," : "",
		 have & HR_HINT_VLAN ? "vlan," : "", have ? "" : "none");
	if (have)
		buf[strlen(buf) - 1] = '\0'; /* the last comma */
}
