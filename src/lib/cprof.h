/* cprof.h: every module header of the reading library at once, for
 * tests and tools that use much of it.  Modules include only the headers
 * they use. */
#ifndef CPROF_H
#define CPROF_H

#include "base/arena.h"
#include "dist.h"
#include "flatjson.h"
#include "folded.h"
#include "gperf.h"
#include "base/hash.h"
#include "base/input.h"
#include "json.h"
#include "keys.h"
#include "maps.h"
#include "profile.h"
#include "base/ptrs.h"
#include "symbolize.h"
#include "text.h"
#include "base/util.h"

#endif
