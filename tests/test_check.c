/* SPDX-License-Identifier: MIT */
/* The invariant checker can fail: each invariant sgrt_scene_check claims to
 * verify is broken in turn (white-box, one field of a healthy scene), the
 * checker must return SGRT_ERR_CORRUPT and name that invariant, and once the
 * field is restored the scene must check clean again. */
#include "internal.h"
#include "followers/nodeset.h"
#include "followers/tracker.h"
#include "dirty.h"
#include "testutil.h"

typedef struct fixture {
    sgrt_scene *s;
    sgrt_tracker t;
    sgrt_nodeset set;
    uint32_t root, chain_parent, chain_child, leaf, other_leaf, dead, free_index;
} fixture;

/* root -> a -> b (a chain), root -> c, root -> d, and a destroyed node, so
 * that there is a hole, a free handle index and a node set member. */
static void build(fixture *f)
{
    memset(f, 0, sizeof *f);
    f->s = new_scene();
    sgrt_node root, a, b, c, d, gone;
    OK(sgrt_node_create(f->s, SGRT_NULL_NODE, &root));
    OK(sgrt_node_create(f->s, root, &a));
    OK(sgrt_node_create(f->s, a, &b));
    OK(sgrt_node_create(f->s, root, &gone));
    OK(sgrt_node_create(f->s, root, &c));
    OK(sgrt_node_create(f->s, root, &d));
    f->dead = slot_of(f->s, gone);
    f->free_index = f->s->st.slot_handle[f->dead];
    OK(sgrt_node_destroy(f->s, gone));
    OK(sgrt_tracker_create(f->s, &f->t));
    OK(sgrt_nodeset_create(f->s, &f->set));
    OK(sgrt_nodeset_add(f->s, f->set, c));
    sgrt_scene_update(f->s);
    sgrt_range r[8];
    bool more;
    do
        test_collect(f->s, f->t, r, 8, 0, &more);
    while (more);
    f->root = slot_of(f->s, root);
    f->chain_parent = slot_of(f->s, a);
    f->chain_child = slot_of(f->s, b);
    f->leaf = slot_of(f->s, c);
    f->other_leaf = slot_of(f->s, d);
    check_scene(f->s);
}

/* Break: the checker must name `expect` (a substring); then restore. */
static void expect_broken(fixture *f, const char *case_name, const char *expect)
{
    const char *what = NULL;
    const sgrt_result r = sgrt_scene_check(f->s, &what);
    CHECK_MSG(r == SGRT_ERR_CORRUPT, "%s: check returned %s", case_name, sgrt_result_str(r));
    CHECK_MSG(what && strstr(what, expect), "%s: check named \"%s\", expected \"%s\"", case_name,
              what ? what : "(null)", expect);
}

#define BREAK_U32(field, value, expect)                                                \
    do {                                                                               \
        const uint32_t saved_ = (field);                                               \
        (field) = (value);                                                             \
        expect_broken(&f, #field " = " #value, (expect));                              \
        (field) = saved_;                                                              \
        check_scene_where(f.s, "restored " #field);                                    \
    } while (0)

#define BREAK_BIT(words, bit, expect) BREAK_U32((words)[(bit) >> 5], (words)[(bit) >> 5] ^ (1u << ((bit) & 31u)), (expect))

int main(void)
{
    fixture f;
    build(&f);
    sgrt_scene *s = f.s;
    sgrt__storage *st = &s->st;

    /* storage sizes and counts */
    BREAK_U32(st->words, st->words + 1u, "storage sizes");
    BREAK_U32(s->slot_end, st->cap + 1u, "slot_end <= capacity");
    BREAK_U32(s->node_count, s->node_count + 1u, "alive bit count");
    BREAK_U32(s->holes, s->holes + 1u, "hole count");
    BREAK_U32(s->max_nodes, 1u, "max_nodes");
    BREAK_U32(s->slot_end, s->slot_end - 1u, "no live slot at or past slot_end");
    {
        const uint32_t end = s->slot_end, holes = s->holes;
        s->slot_end = end + 1u;
        s->holes = holes + 1u;
        expect_broken(&f, "slot_end past the last live slot", "slot_end - 1 is live");
        s->slot_end = end;
        s->holes = holes;
        check_scene(s);
    }

    /* bitfields and their summaries, padding */
    BREAK_BIT(st->alive_full, 0u, "alive summary");
    BREAK_BIT(st->dirty_sum, 0u, "dirty summary");
    BREAK_BIT(st->dirty_sum, st->words, "padding"); /* past the last word */
    {
        /* A dirty bit on the hole, with its summary bit consistent. */
        const uint32_t w = f.dead >> 5, d = st->dirty[w], sum = st->dirty_sum[0];
        st->dirty[w] |= 1u << (f.dead & 31u);
        st->dirty_sum[0] |= 1u << w;
        expect_broken(&f, "dirty hole", "dirty bits only on live slots");
        st->dirty[w] = d;
        st->dirty_sum[0] = sum;
        check_scene(s);
    }
    BREAK_BIT(st->inner, f.dead, "inner bits only on live slots");
    BREAK_BIT(st->inner, f.leaf, "inner bits: set iff");

    /* hierarchy: slot order, links, closure */
    /* On the root, slot 0: the first node checked, in no child list. */
    CHECK_EQ_U(f.root, 0);
    BREAK_U32(st->parent[f.root], f.dead, "parent of a live node is live");
    BREAK_U32(st->parent[f.root], f.chain_child, "topological slot order");
    {
        /* A dirty parent over a clean child, nothing pending. */
        const uint32_t w = f.chain_parent >> 5, d = st->dirty[w], sum = st->dirty_sum[0];
        st->dirty[w] |= 1u << (f.chain_parent & 31u);
        st->dirty_sum[0] |= 1u << w;
        CHECK(s->close_from == SGRT__NONE);
        expect_broken(&f, "dirty parent, clean child", "dirty closure");
        /* The same with the closure pass pending from the parent: fine. */
        s->close_from = f.chain_parent;
        check_scene_where(s, "pending closure");
        s->close_from = SGRT__NONE;
        st->dirty[w] = d;
        st->dirty_sum[0] = sum;
        check_scene(s);
    }
    BREAK_U32(st->next_sibling[f.root], f.leaf, "roots have no siblings");
    BREAK_U32(st->prev_sibling[f.leaf], f.root, "sibling links are symmetric");
    {
        /* A child that its parent's list does not hold. */
        const uint32_t fc = st->first_child[f.chain_parent];
        st->first_child[f.chain_parent] = SGRT__NONE;
        sgrt__bit_clear(st->inner, f.chain_parent);
        expect_broken(&f, "unlisted child", "every live node is a root or in its parent's child list");
        st->first_child[f.chain_parent] = fc;
        sgrt__bit_set(st->inner, f.chain_parent);
        check_scene(s);
    }
    {
        /* A list that holds another parent's child. */
        const uint32_t fc = st->first_child[f.chain_child];
        st->first_child[f.chain_child] = f.leaf;
        sgrt__bit_set(st->inner, f.chain_child);
        expect_broken(&f, "foreign child", "child lists hold live children");
        st->first_child[f.chain_child] = fc;
        sgrt__bit_clear(st->inner, f.chain_child);
        check_scene(s);
    }

    /* handle table */
    const uint32_t h = st->slot_handle[f.leaf];
    BREAK_U32(s->handles[h].slot, f.other_leaf, "handle table points back");
    BREAK_U32(s->handles[h].id, s->handles[h].id & SGRT__INDEX_MASK, "handle ids");
    BREAK_U32(s->handles[f.free_index].slot, f.leaf, "every used handle index maps");
    BREAK_U32(s->free_count, s->free_count + 1u, "handle counts");
    BREAK_U32(s->free_ring[s->free_head], h, "free ring holds free indices");

    /* trackers and node sets */
    sgrt__slotbits *tb = sgrt__trackers_of(s)->items[0], *sb = sgrt__nodesets_of(s)->items[0];
    BREAK_U32(tb->id, tb->id ^ 1u, "every tracker's id names it");
    {
        /* The object table: an entry whose generation field is 0, and a
         * free list that counts one entry more than there is. */
        const uint32_t i = (tb->id ^ s->obj_salt) & SGRT__OBJ_INDEX_MASK;
        const uint32_t id = s->objs[i].id;
        s->objs[i].id &= (1u << SGRT__OBJ_GEN_SHIFT) - 1u;
        expect_broken(&f, "object id with generation 0", "every tracker's id names it");
        s->objs[i].id = id;
        s->objs[i].ptr = NULL;
        expect_broken(&f, "tracker's entry free", "every tracker's id names it");
        s->objs[i].ptr = sgrt__trackers_of(s)->items[0];
        check_scene(s);
    }
    BREAK_U32(tb->words, st->words - 1u, "cover the scene's capacity");
    /* A tracker's pending bits are sgrt_tracker_check's: sgrt_scene_check
     * may run beside collects and must not read them. */
    {
        const char *what = NULL;
        ((sgrt__tracker *)sgrt__trackers_of(s)->items[0])->summary[0] ^= 1u;
        CHECK_RES(sgrt_tracker_check(s, f.t, &what), SGRT_ERR_CORRUPT);
        CHECK_MSG(what && strstr(what, "tracker summary"), "tracker check named \"%s\"",
                  what ? what : "(null)");
        CHECK_RES(sgrt_scene_check(s, NULL), SGRT_OK);
        ((sgrt__tracker *)sgrt__trackers_of(s)->items[0])->summary[0] ^= 1u;
        CHECK_RES(sgrt_tracker_check(s, f.t, &what), SGRT_OK);
        CHECK(what == NULL);
        const uint32_t words = tb->words;
        tb->words = st->words - 1u;
        CHECK_RES(sgrt_tracker_check(s, f.t, &what), SGRT_ERR_CORRUPT);
        tb->words = words;
        CHECK_RES(sgrt_tracker_check(NULL, f.t, NULL), SGRT_ERR_INVALID_ARG);
        CHECK_RES(sgrt_tracker_check(s, SGRT_NULL_TRACKER, NULL), SGRT_ERR_INVALID_ARG);
        sgrt_scene *other = new_scene();
        CHECK_RES(sgrt_tracker_check(other, f.t, NULL), SGRT_ERR_INVALID_ARG);
        sgrt_scene_destroy(other);
    }
    BREAK_BIT(sb->bits, f.dead, "node sets hold live nodes only");

    /* The fixture itself is healthy, and checking it changed nothing. */
    check_scene(s);
    CHECK_EQ_U(sgrt_scene_update(s), 0);
    sgrt_scene_destroy(s);
    return test_report("check");
}
