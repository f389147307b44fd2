#include
