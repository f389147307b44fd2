#define LOCAL 999
