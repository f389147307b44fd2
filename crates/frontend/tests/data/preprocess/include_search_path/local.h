#define LOCAL 30
