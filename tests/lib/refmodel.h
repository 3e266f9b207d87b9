/* SPDX-License-Identifier: MIT */
/* Reference model of an sgrt scene, for black-box tests and fuzzing.
 *
 * A deliberately plain implementation of the scene semantics: nodes keyed by
 * the sgrt_node id the library returned, a parent per node, the float local
 * matrix exactly as the library stores it, and world matrices computed in
 * double precision from the root down. It knows nothing of slots, bitfields or
 * kernels, so it can tell the library's answers apart from its own mistakes.
 *
 * Marking follows the library's contract: creating a node, changing its local
 * (unless the new matrix is bit-identical), committing an in-place write of
 * it (whatever the bits) or re-parenting it marks the node; a node is
 * "dirty" when it or one of its current ancestors is marked.
 * ref_model_update() counts the live dirty nodes, recomputes their double
 * worlds and clears all marks: that count is what sgrt_scene_update() must
 * return. Destroyed nodes are simply gone, so work pending on them costs
 * nothing.
 *
 * World comparison. Alongside each world W the model keeps A, the product of
 * the entrywise absolute values of the locals along the path (root first),
 * and the node's depth d (0 for a root). A float product of two 4x4 matrices
 * has entrywise error at most g*u*(|P| |L|) with u = 2^-24 and g = 3 for the
 * library's pairwise sum (4 for a plain running sum, smaller with FMA); errors
 * already in the parent are carried through |L|. Summed along the path, the
 * float world of a node at depth d differs from the exact one by at most about
 * 4*d*u*A (to first order; roots are copied exactly). ref_model_world_error()
 * returns max |got - W| / (u*A) over the 16 entries, to be compared with
 * ref_model_world_tolerance() = 4*d + 1 (the +1 leaves room for the
 * second-order terms). Entries with A = 0 must be exactly 0.
 *
 * Ids are whatever the library handed out (0 is never a valid id); the model
 * aborts with a message on misuse (unknown id, id added twice, cycles), since
 * that is a bug in the test, not in the library. One model, one thread: even
 * the const queries use the model's scratch space.
 */
#ifndef SGRT_TEST_REFMODEL_H
#define SGRT_TEST_REFMODEL_H

#include <stdbool.h>
#include <stdint.h>

typedef struct ref_model ref_model;

/* u: unit roundoff of single precision. */
#define REF_U (1.0 / 16777216.0)

/* out = a x b, 4 x 4 column-major in double, each entry summed in the order
 * k = 0..3: the model's product, for tests that build double worlds of
 * their own. out must not alias a or b. */
void ref_mul_d(const double *a, const double *b, double *out);
/* inv = the inverse of m (4 x 4 column-major, Gauss-Jordan with partial
 * pivoting, in double); false when m is singular. */
bool ref_inverse_d(const double m[16], double inv[16]);

ref_model *ref_model_create(void);
void ref_model_destroy(ref_model *m); /* NULL is a no-op */

/* Add node `id` under `parent_id` (0: a root), local = identity, marked. */
void ref_model_add(ref_model *m, uint32_t id, uint32_t parent_id);

/* Remove `id` and its whole subtree; returns how many nodes were removed.
 * If `removed` is not NULL it receives their ids (room for the subtree size,
 * which ref_model_subtree_size() tells beforehand). */
uint32_t ref_model_remove(ref_model *m, uint32_t id, uint32_t *removed);

bool ref_model_alive(const ref_model *m, uint32_t id);
uint32_t ref_model_count(const ref_model *m);
/* The k-th live id, k < count. The order is arbitrary and changes when nodes
 * are removed; meant for picking a random live node. */
uint32_t ref_model_nth(const ref_model *m, uint32_t k);

uint32_t ref_model_parent(const ref_model *m, uint32_t id); /* 0 for a root */
uint32_t ref_model_depth(const ref_model *m, uint32_t id);  /* 0 for a root, now */
/* depth <= limit, walking at most limit + 1 links (cheap on deep chains). */
bool ref_model_depth_at_most(const ref_model *m, uint32_t id, uint32_t limit);
uint32_t ref_model_child_count(const ref_model *m, uint32_t id);
/* Children ids into out (room for child_count); returns the count. */
uint32_t ref_model_children(const ref_model *m, uint32_t id, uint32_t *out);
uint32_t ref_model_subtree_size(const ref_model *m, uint32_t id); /* node included */
/* True when `anc` is `id` or one of its ancestors: re-parenting `anc` under
 * `id` would make a cycle. */
bool ref_model_is_ancestor_or_self(const ref_model *m, uint32_t anc, uint32_t id);

/* Set the local matrix. Returns true if the node was marked (false when the
 * matrix is bit-identical to the current local). */
bool ref_model_set_local(ref_model *m, uint32_t id, const float local[16]);
void ref_model_local(const ref_model *m, uint32_t id, float out[16]);
/* Set the local and mark the node whatever the bits: an in-place write
 * committed through sgrt_writer_commit (the old bits are gone, so the
 * library cannot compare). */
void ref_model_commit_local(ref_model *m, uint32_t id, const float local[16]);

/* Re-parent keeping the local (parent_id 0: make it a root). Marks the node,
 * except under its current parent, which changes nothing (as in the library). */
void ref_model_set_parent(ref_model *m, uint32_t id, uint32_t parent_id);

/* Re-parent keeping the world: the model adopts `new_local`, the local that
 * the library reports after its own keep-world re-parent, and returns how far
 * the world computed from it in double is from the world before the call, as
 * a fraction of the allowed error (<= 1.0 passes). The allowance covers the
 * float error of the library's view of the parent's and the node's worlds and
 * the rounding of the new local to float:
 *   2*u*(4*d_new*A_new + (4*d_old + 1)*A_old)   entrywise,
 * with the factor 2 leaving room for the double-precision inverse and
 * second-order terms. Marks the node as ref_model_set_parent does. */
double ref_model_set_parent_keep_world(ref_model *m, uint32_t id, uint32_t parent_id,
                                       const float new_local[16]);

/* Number of live dirty nodes right now (what the next update must return). */
uint32_t ref_model_pending(const ref_model *m);
/* Recompute the worlds of the dirty nodes, clear the marks, return their count. */
uint32_t ref_model_update(ref_model *m);

/* World as of the last ref_model_update (identity-parented value for nodes
 * created since: not meaningful, compare only after an update). */
void ref_model_world(const ref_model *m, uint32_t id, double out[16]);
/* Exact current world in double, computed along the ancestor chain. */
void ref_model_world_now(const ref_model *m, uint32_t id, double out[16]);

/* Error of a float world `got` against the model's world as of the last
 * update, in units of u*A (see above), and the allowance for that node. */
double ref_model_world_error(const ref_model *m, uint32_t id, const float got[16]);
double ref_model_world_tolerance(const ref_model *m, uint32_t id);
/* Same against the current world (for sgrt_node_world_now before an update). */
double ref_model_world_now_error(const ref_model *m, uint32_t id, const float got[16]);
double ref_model_world_now_tolerance(const ref_model *m, uint32_t id);

#endif
