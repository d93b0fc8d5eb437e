#ifndef DTLTOP_VERSION
#define DTLTOP_VERSION "0.1.0"
#endif
