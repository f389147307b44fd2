int ok;
#include "missing.h"
