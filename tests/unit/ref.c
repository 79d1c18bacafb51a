/*
** ref.c: unit tests of the reference interpreter (backends/ref).
*/
#include "backend.h"
#include "tap.h"

int
main(void)
{
	plan_lazy();
	ok(be_find("ref") && !be_find("nosuch"), "the backend table has ref and nothing unknown");
	return done_testing();
}
