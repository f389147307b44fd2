#include "sub.h"
