// SPDX-License-Identifier: MIT
/* A user's program against the installed library: load an object, run
 * its first program on one packet, print the verdict. Built by
 * tests/project/test_install.sh as C and as C++ with pkg-config's flags. */
#include <stdio.h>
#include <string.h>

#include <headroom/headroom.h>

int main(int argc, char **argv)
{
	unsigned char pkt[64] = { 0 }, out[256];
	struct hr_test_run_opts run;
	struct hr_object *obj;
	char err[256] = "";
	HR_OPTS(hr_object_open_opts, o, .errbuf = err,
		.errbuf_sz = sizeof(err));
	int ret;

	if (argc != 2)
		return 2;
	ret = hr_object_open(argv[1], &o, &obj);
	if (ret) {
		fprintf(stderr, "open %s: %d %s\n", argv[1], ret, err);
		return 1;
	}
	memset(&run, 0, sizeof(run));
	run.sz = sizeof(run);
	run.data_in = pkt;
	run.data_size_in = sizeof(pkt);
	run.data_out = out;
	run.data_size_out = sizeof(out);
	ret = hr_prog_test_run(hr_object_prog(obj, 0), &run);
	printf("ret %d retval %u\n", ret, run.retval);
	hr_object_close(obj);
	return ret ? 1 : 0;
}
