/* An error after BPF_LD_ABS loads, in a subprogram called after them: the
 * kernel numbers the object's instructions as written, not as the loads
 * expand. */
#include "v.h"

unsigned long long load_word(void *skb,
			     unsigned long long off) asm("llvm.bpf.load.word");

static __attribute__((noinline)) int port(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *end = (void *)(long)skb->data_end;

	if (data + 37 > end)
		return 0;
	return *(__u16 *)(data + 36);
}

static __attribute__((noinline)) int port_ok(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *end = (void *)(long)skb->data_end;

	if (data + 38 > end)
		return 0;
	return *(__u16 *)(data + 36);
}

SEC("tc") int bad_ld_abs_after(struct __sk_buff *skb)
{
	__u32 a = load_word(skb, 26), b = load_word(skb, 30);

	return a == 0x0a000001 ? port(skb) : b;
}

SEC("tc") int ok_ld_abs_after(struct __sk_buff *skb)
{
	__u32 a = load_word(skb, 26), b = load_word(skb, 30);

	return a == 0x0a000001 ? port_ok(skb) : b;
}
