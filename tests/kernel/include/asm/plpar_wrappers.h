/* Fake: everything is in fake_kernel.h. */
#include "../fake_kernel.h"
