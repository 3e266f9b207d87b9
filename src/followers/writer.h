/* SPDX-License-Identifier: MIT */
/* Writers as a follower of the scene (writer.c): freed with it, and in
 * validation mode (SGRT_SCENE_VALIDATE) watched around each update: as it
 * starts, a writer that has begun is audited for a local written in place
 * since it was last accounted for whose node nothing marked (a forgotten
 * commit, one warning naming the node); after its kernels, every such
 * writer's locals are accounted for as they are. O(entries of the writers
 * that have begun); nothing without SGRT_SCENE_VALIDATE. */
#ifndef SGRT_WRITER_H
#define SGRT_WRITER_H

#include "../follow.h"

extern const sgrt__follower sgrt__writer_follower;

#endif
