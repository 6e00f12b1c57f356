/* store-watch.c: placeholder */
#include "config.h"
