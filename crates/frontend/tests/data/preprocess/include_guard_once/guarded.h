#ifndef GUARDED_H
#define GUARDED_H
#define GUARDED 1
#endif
