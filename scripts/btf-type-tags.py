#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Gives an object built by clang 14 the BTF type tags clang 15 emits.

clang 14 drops __attribute__((btf_type_tag(...))) from BTF, so a field
`struct T __kptr *p` comes out as a plain pointer, which the kernel's
btf_find_kptr does not take. A program written instead with a typedef
named __tag_NAME (`typedef struct T __tag_kptr; __tag_kptr *p;`) gets
here, in place, what clang 15 emits for the tag: each such BTF_KIND_TYPEDEF
becomes a BTF_KIND_TYPE_TAG named NAME (the same 12 bytes, its name the
tail of the typedef's) over the same type.

Usage: btf-type-tags.py OBJ.o   (rewritten in place; no-op without tags)
"""
import struct
import sys

BTF_KIND_TYPEDEF = 8
BTF_KIND_TYPE_TAG = 18
PREFIX = b"__tag_"

# Extra bytes after struct btf_type, by kind (include/uapi/linux/btf.h).
def extra(kind, vlen):
    if kind in (1, 14, 19):  # INT, VAR, DECL_TAG
        return 4
    if kind == 3:  # ARRAY
        return 12
    if kind in (4, 5, 15):  # STRUCT, UNION, DATASEC
        return 12 * vlen
    if kind == 6:  # ENUM
        return 8 * vlen
    if kind == 13:  # FUNC_PROTO
        return 8 * vlen
    if kind == 20:  # ENUM64
        return 12 * vlen
    return 0


def btf_section(data):
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    sh = lambda i: struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
    strtab = sh(shstrndx)
    for i in range(shnum):
        s = sh(i)
        name = data[strtab[4] + s[0]:].split(b"\0", 1)[0]
        if name == b".BTF":
            return s[4], s[5]
    return None


def main(path):
    data = bytearray(open(path, "rb").read())
    sec = btf_section(data)
    if not sec:
        return 0
    base, _ = sec
    magic, _, _, hdr_len, type_off, type_len, str_off, _ = struct.unpack_from(
        "<HBBIIIII", data, base)
    if magic != 0xEB9F:
        return 0
    types = base + hdr_len + type_off
    strs = base + hdr_len + str_off
    pos, changed = types, 0
    while pos < types + type_len:
        name_off, info, _ = struct.unpack_from("<III", data, pos)
        kind, vlen = (info >> 24) & 0x1F, info & 0xFFFF
        name = data[strs + name_off:].split(b"\0", 1)[0]
        if kind == BTF_KIND_TYPEDEF and name.startswith(PREFIX):
            info = (info & ~(0x1F << 24)) | (BTF_KIND_TYPE_TAG << 24)
            struct.pack_into("<II", data, pos, name_off + len(PREFIX), info)
            changed += 1
        pos += 12 + extra(kind, vlen)
    if changed:
        open(path, "wb").write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
