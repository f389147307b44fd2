#define LIB_VALUE 10
#include "helper.h"
