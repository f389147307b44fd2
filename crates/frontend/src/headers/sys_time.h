// The types of <sys/time.h> that programs keep in their own structs and
// classes (the samples' StopWatchLinux holds a `struct timeval`), laid out
// as on 64-bit Linux. Only their sizes matter to device code.
#ifndef HONE_SYS_TIME_H
#define HONE_SYS_TIME_H

struct timeval {
    long tv_sec;
    long tv_usec;
};

struct timezone {
    int tz_minuteswest;
    int tz_dsttime;
};

int gettimeofday(struct timeval *tv, void *tz);

#endif
