#include "h.h"
#endif
