/* Unit tests of lib/ptab: slots made and found, growth, absent keys. */
#include <stdint.h>
#include <stdlib.h>

#include "base/ptab.h"
#include "unit.h"

static void
test_table(void)
{
	struct ptab t = { NULL, NULL, 0, 0 };
	static char keys[10000];
	void **slot;
	size_t i;
	int same = 0, found = 0, fresh = 0;

	unit_ok(ptab_get(&t, keys) == NULL, "an empty table has no key");
	for (i = 0; i < sizeof(keys); i++) {
		slot = ptab_slot(&t, &keys[i]);
		fresh += *slot == NULL;
		*slot = &keys[sizeof(keys) - 1 - i];
	}
	unit_long((long)fresh, (long)sizeof(keys), "each new key's slot is "
	    "NULL");
	unit_long((long)t.n, (long)sizeof(keys), "10,000 keys, counted");
	unit_ok(t.cap >= 2 * t.n, "the table is at most half full");
	for (i = 0; i < sizeof(keys); i++) {
		found += ptab_get(&t, &keys[i]) ==
		    &keys[sizeof(keys) - 1 - i];
		same += ptab_slot(&t, &keys[i]) == ptab_slot(&t, &keys[i]);
	}
	unit_long((long)found, (long)sizeof(keys), "each is found, with its "
	    "value, after the table grew");
	unit_long((long)same, (long)sizeof(keys), "a key's slot stays put");
	unit_long((long)t.n, (long)sizeof(keys), "finding adds no key");
	unit_ok(ptab_get(&t, &t) == NULL, "a key not put is absent");
	ptab_free(&t);
	unit_ok(t.k == NULL && t.cap == 0 && t.n == 0, "freed, it is empty");
}

static void
test_hash(void)
{
	size_t a = ptab_hash((void *)(uintptr_t)0x1000),
	    b = ptab_hash((void *)(uintptr_t)0x1008);

	unit_ok(a != b, "neighbouring pointers hash apart");
	unit_ok((a & 63) != (b & 63) || (a & 4032) != (b & 4032),
	    "and apart in the low bits a table uses");
	unit_ok(ptab_hash(&a) == ptab_hash(&a), "the same pointer, the same "
	    "hash");
}

int
main(void)
{
	test_table();
	test_hash();
	return unit_done();
}
