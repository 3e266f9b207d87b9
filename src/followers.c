/* SPDX-License-Identifier: MIT */
/* Every follower of the scene (follow.h), in the order a scene attaches
 * them: the one file that knows them all. A new follower is a table of
 * hooks in its own file and a line here. */
#include "followers/bounds.h"
#include "followers/interp.h"
#include "followers/large.h"
#include "followers/nodeset.h"
#include "followers/prev.h"
#include "followers/skin.h"
#include "followers/tracker.h"
#include "followers/writer.h"

const sgrt__follower *const sgrt__followers[] = {
    &sgrt__tracker_follower, /* hears the changes the others announce */
    &sgrt__nodeset_follower,
    &sgrt__prev_follower,   /* SGRT_SCENE_PREV_WORLD */
    &sgrt__bounds_follower, /* SGRT_SCENE_BOUNDS */
    &sgrt__writer_follower,
    &sgrt__large_follower,  /* SGRT_SCENE_LARGE_WORLD */
    &sgrt__skin_follower,
    &sgrt__interp_follower, /* SGRT_SCENE_INTERPOLATE */
    NULL,
};
_Static_assert(sizeof sgrt__followers / sizeof sgrt__followers[0] - 1u <= SGRT__FOLLOWERS,
               "a scene has room for every follower (SGRT__FOLLOWERS)");
