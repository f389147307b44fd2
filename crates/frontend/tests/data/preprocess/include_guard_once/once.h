#pragma once
#define ONCE 2
