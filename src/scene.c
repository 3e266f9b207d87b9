/* SPDX-License-Identifier: MIT */
/* Scene lifecycle (create, destroy, reserve, compact) and the kernel a
 * scene runs. Creation attaches, from followers.c's list (follow.h), the
 * followers a scene's flags ask for, their states in the scene's block. */
#include "follow.h"
#include "args.h"
#include "alloc.h"
#include "handles.h"
#include "objects.h"
#include "result.h"
#include "scene.h"
#include "storage.h"
#include <string.h>

static uint32_t mix32(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return (uint32_t)x;
}

/* Something that differs between two scene creations at the same address:
 * the CPU's cycle counter where user code can read it (no call, no OS, no
 * global); 0 elsewhere. Nothing deterministic can serve: two creations
 * with the same inputs and allocator results are otherwise identical. */
static uint64_t creation_ticks(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
    return __builtin_ia32_rdtsc();
#elif defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))
    uint64_t v;
    __asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(v));
    return v;
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
    return __rdtsc(); /* <intrin.h>, through bits.h */
#else
    return 0;
#endif
}

/* Why desc is refused, or NULL. */
static const char *desc_problem(const sgrt_scene_desc *desc, uint32_t max_nodes)
{
    if (desc->allocator && (!desc->allocator->alloc || !desc->allocator->free))
        return "desc->allocator has a NULL alloc or free: both are required";
    if (max_nodes > SGRT_MAX_NODES)
        return "desc->max_nodes is above SGRT_MAX_NODES";
    if (desc->initial_capacity > max_nodes)
        return "desc->initial_capacity is above desc->max_nodes";
    if ((uint32_t)desc->max_simd > SGRT__LEVEL_MAX)
        return "desc->max_simd is not an sgrt_simd level";
    if ((desc->flags & ~(uint32_t)SGRT__SCENE_FLAGS) != 0u)
        return "desc->flags holds a bit that is no SGRT_SCENE_* option";
    return NULL;
}

sgrt_result sgrt_scene_create(const sgrt_scene_desc *desc, sgrt_scene **out)
{
    return sgrt__scene_create_with(desc, sgrt__followers, out);
}

sgrt_result sgrt__scene_create_with(const sgrt_scene_desc *desc,
                                    const sgrt__follower *const *followers, sgrt_scene **out)
{
    return sgrt__scene_create_as(desc, followers, "sgrt_scene_create", out);
}

sgrt_result sgrt__scene_create_as(const sgrt_scene_desc *desc,
                                  const sgrt__follower *const *followers, const char *fn,
                                  sgrt_scene **out)
{
    static const sgrt_scene_desc defaults = {0};
    if (!desc)
        desc = &defaults;
    if (!out) {
        sgrt__report(desc->log, desc->log_user, SGRT_ERR_INVALID_ARG, fn, "out is NULL",
                     SGRT_NULL_NODE);
        return SGRT_ERR_INVALID_ARG;
    }
    const uint32_t max_nodes = desc->max_nodes ? desc->max_nodes : SGRT_MAX_NODES;
    const char *bad = desc_problem(desc, max_nodes);
    if (bad) {
        sgrt__report(desc->log, desc->log_user, SGRT_ERR_INVALID_ARG, fn, bad,
                     SGRT_NULL_NODE);
        return SGRT_ERR_INVALID_ARG;
    }
    const sgrt_allocator a = desc->allocator ? *desc->allocator : sgrt__default_allocator;

    /* Subtree boxes are built from world boxes. */
    const uint32_t flags = desc->flags & SGRT_SCENE_SUBTREE_BOUNDS
                               ? desc->flags | SGRT_SCENE_BOUNDS
                               : desc->flags;
    /* The followers' states follow the struct, in the same block. */
    const size_t size = ((sizeof(sgrt_scene) + 63u) & ~(size_t)63u) +
                        sgrt__follow_state_bytes(followers, flags);
    sgrt_result err;
    sgrt_scene *s = sgrt__alloc(&a, size, 64, &err);
    if (!s) {
        sgrt__report(desc->log, desc->log_user, err, fn,
                     err == SGRT_ERR_NOMEM ? "the allocator returned NULL"
                                           : "the allocator returned a block aligned less "
                                             "than asked; it was freed",
                     SGRT_NULL_NODE);
        return err;
    }
    memset(s, 0, size);
    s->size = size;
    s->alloc = a;
    s->log = desc->log;
    s->log_user = desc->log_user;
    s->flags = flags;
    s->max_nodes = max_nodes;
    s->close_from = SGRT__NONE;
    s->structure_version = 1; /* plan_version 0: no plan yet */
    /* The address separates live scenes; the counter, a new scene from a
     * destroyed one whose memory it reuses (the stack position helps a
     * little where there is no counter). */
    s->salt = mix32((uint64_t)(uintptr_t)s ^
                    ((uint64_t)mix32(creation_ticks() ^ ((uint64_t)(uintptr_t)&a << 17)) << 32));
    /* Object ids get their own scramble, drawn from the same salt. */
    const uint32_t os = mix32((uint64_t)s->salt << 32 | 0x6f626a73u);
    s->obj_salt = os & ((1u << SGRT__OBJ_GEN_SHIFT) - 1u);
    s->obj_first = (os >> SGRT__OBJ_GEN_SHIFT) % SGRT__OBJ_GEN_PERIOD + 1u;
    sgrt__kernels_init(&s->k, sgrt__kernels_choose((uint32_t)desc->max_simd, NULL));
    sgrt__follow_attach(s, followers);

    const uint32_t initial =
        desc->initial_capacity ? desc->initial_capacity : SGRT__DEFAULT_CAPACITY;
    s->cap_floor = desc->initial_capacity;
    s->hole_slack = SGRT__HOLE_SLACK;
    s->slot_limit = SGRT__MAX_SLOTS;
    s->obj_reserve = SGRT__OBJ_MIN_FREE;
    sgrt_result r = sgrt__storage_ensure(s, initial);
    if (r == SGRT_OK)
        r = sgrt__handles_init(s, s->st.cap);
    if (r != SGRT_OK) {
        sgrt__fail_grow(s, r, fn, SGRT_NULL_NODE);
        sgrt_scene_destroy(s);
        return r;
    }
    *out = s;
    return SGRT_OK;
}

void sgrt_scene_destroy(sgrt_scene *s)
{
    SGRT__ENTER(s, );
    if (s->busy) { /* from a task: the update still runs on it */
        sgrt__reentered(s, __func__);
        return;
    }
    sgrt__follow_destroy(s);
    sgrt__objects_free(s);
    sgrt__storage_free(s);
    sgrt__handles_free(s);
    const sgrt_allocator a = s->alloc;
    sgrt__free(&a, s, s->size);
}

sgrt_result sgrt_scene_reserve(sgrt_scene *s, uint32_t node_count)
{
    SGRT__ENTER_WRITE(s);
    if (node_count > s->max_nodes)
        return sgrt__fail(s, SGRT_ERR_CAPACITY, __func__,
                          "node_count is above the scene's max_nodes", SGRT_NULL_NODE);
    const uint32_t extra = node_count > s->node_count ? node_count - s->node_count : 0u;
    sgrt_result r = sgrt__storage_ensure(s, (uint64_t)s->slot_end + extra);
    if (r == SGRT_OK)
        r = sgrt__handles_reserve(s, node_count);
    if (r != SGRT_OK)
        return sgrt__fail_grow(s, r, __func__, SGRT_NULL_NODE);
    if (node_count > s->cap_floor)
        s->cap_floor = node_count;
    return SGRT_OK;
}

sgrt_result sgrt_scene_compact(sgrt_scene *s)
{
    SGRT__ENTER_WRITE(s);
    const sgrt_result r = sgrt__storage_compact(s);
    return r == SGRT_OK ? r : sgrt__fail_grow(s, r, __func__, SGRT_NULL_NODE);
}

uint32_t sgrt_scene_node_count(const sgrt_scene *s) { return s ? s->node_count : 0u; }

const char *sgrt_simd_name(void)
{
    return sgrt__kernels_level_name(sgrt__kernels_choose(0, NULL));
}

const char *sgrt_simd_reason(void)
{
    const char *why = NULL;
    sgrt__kernels_choose(0, &why);
    return why;
}

const char *sgrt_scene_simd_name(const sgrt_scene *s) { return s ? s->k.name : NULL; }

void sgrt__scene_set_kernels(sgrt_scene *s, uint32_t level, const sgrt__kernels *k)
{
    if (k)
        s->k = *k;
    else
        sgrt__kernels_init(&s->k, level);
}

void sgrt__scene_set_hole_slack(sgrt_scene *s, uint32_t slack) { s->hole_slack = slack; }
void sgrt__scene_set_slot_limit(sgrt_scene *s, uint32_t limit) { s->slot_limit = limit; }

void sgrt__scene_set_object_reserve(sgrt_scene *s, uint32_t reserve)
{
    s->obj_reserve = reserve < SGRT__OBJ_MIN_FREE ? reserve : SGRT__OBJ_MIN_FREE;
}
