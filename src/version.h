#ifndef DTLTOP_VERSION
#define DTLTOP_VERSION "0.2.0"
#endif
