#include "guarded.h"
#include "once.h"
#include "guarded.h"
#include "once.h"
int uses = GUARDED + ONCE;
