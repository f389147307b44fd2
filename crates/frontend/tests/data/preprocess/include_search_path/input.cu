#include <lib.h>
#include "only_in_include_dir.h"
#include "local.h"
int x = LIB_VALUE + OTHER + LOCAL;
#include <not_anywhere.h>
int y;
