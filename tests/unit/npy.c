/*
** npy.c: unit tests of the .npy reader and writer (formats/npy.c).
*/
#include "backend.h"
#include "npy.h"
#include "tap.h"

int
main(void)
{
	Tensor t = { DT_INT8, 2, { 3, 4 }, NULL };
	plan_lazy();
	is_int((long long)be_tensor_bytes(&t), 12, "a 3x4 int8 tensor has 12 bytes");
	return done_testing();
}
