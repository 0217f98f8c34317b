#ifndef CTERMINAL_SHIM_H
#define CTERMINAL_SHIM_H

/* A terminal's width in columns. Swift cannot call ioctl (a variadic C function), so the call
   sits in a static inline function that Swift imports. */
#include <sys/ioctl.h>

/* The width of the terminal open on `descriptor`, or 0 when it is not a terminal. */
static inline int cterminal_columns(int descriptor) {
    struct winsize size;
    if (ioctl(descriptor, TIOCGWINSZ, &size) != 0) return 0;
    return size.ws_col;
}

#endif
