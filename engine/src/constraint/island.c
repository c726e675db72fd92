/* constraint/island.c — constraint islands: mj_island.
 *
 * After the constraint rows are made, the kinematic trees coupled by constraints are
 * grouped into islands (connected components of the tree-tree graph whose edges are the
 * constraints). A tree touched by any constraint belongs to an island, even when the other
 * side is the world; trees without constraints belong to none (-1). Islands are numbered
 * in the order of their lowest tree index; inside an island, trees, dofs and rows keep
 * their global order. Unconstrained trees and dofs follow the constrained ones in the
 * itree / idof orders. Per-island sizes and the island-sorted row arrays are filled here;
 * ifrc_smooth and iacc_smooth by the constraint stage (CG, Newton); iefc_aref, iefc_state,
 * iefc_force, ifrc_constraint and iacc by its per-island solve (CG, Newton: solver_driver.c).
 *
 * Arrays sized by trees and dofs live in mjData's buffer (island-sized ones have room for
 * ntree islands); arrays sized by nefc come from the efc region of the arena. */
#include <string.h>

#include <torsion/torsion.h>

#include "model/efc_arena.h"

/* root of tree t in the union-find forest (with path halving) */
static int uf_find(int* parent, int t) {
  while (parent[t] != t) {
    parent[t] = parent[parent[t]];
    t = parent[t];
  }
  return t;
}

/* join trees a and b (either may be -1, the world: then only the other is marked) */
static void uf_link(int* parent, char* constrained, int a, int b) {
  if (a < 0) {
    a = b;
  }
  if (b < 0) {
    b = a;
  }
  if (a < 0) {
    return;
  }
  constrained[a] = constrained[b] = 1;
  int ra = uf_find(parent, a), rb = uf_find(parent, b);
  if (ra != rb) {
    // keep the lower index as the root
    if (ra < rb) {
      parent[rb] = ra;
    } else {
      parent[ra] = rb;
    }
  }
}

/* the trees whose dofs row i's Jacobian touches (sparse: its structure; dense: non-zero
 * entries), all joined; returns the first tree found, -1 if none */
static int scan_row(const mjModel* m, const mjData* d, int i, int* parent, char* constrained) {
  int first = -1, prev = -1;
  if (mj_isSparse(m)) {
    const int* colind = d->efc_J_colind + d->efc_J_rowadr[i];
    for (int k = 0; k < d->efc_J_rownnz[i]; k++) {
      int tree = m->dof_treeid[colind[k]];
      if (tree != prev) {
        uf_link(parent, constrained, first < 0 ? tree : first, tree);
        first = first < 0 ? tree : first;
        prev = tree;
      }
    }
  } else {
    int nv = m->nv;
    const mjtNum* J = d->efc_J + (size_t)i * nv;
    for (int j = 0; j < nv; j++) {
      if (J[j] != 0) {
        int tree = m->dof_treeid[j];
        uf_link(parent, constrained, first < 0 ? tree : first, tree);
        first = first < 0 ? tree : first;

        // the rest of this tree's dofs add nothing
        j = m->tree_dofadr[tree] + m->tree_dofnum[tree] - 1;
      }
    }
  }
  return first;
}

/* join the trees of the constraint starting at row i; returns one of its trees (-1: none) */
static int constraint_trees(const mjModel* m, const mjData* d, int i, int* parent,
                            char* constrained) {
  int type = d->efc_type[i], id = d->efc_id[i], t1 = -1, t2 = -1;

  // joint friction and joint limits: the joint's tree
  if (type == mjCNSTR_FRICTION_DOF) {
    t1 = m->dof_treeid[id];
  } else if (type == mjCNSTR_LIMIT_JOINT) {
    t1 = m->dof_treeid[m->jnt_dofadr[id]];
  }

  // contacts between geoms: the trees of the two bodies
  else if (type == mjCNSTR_CONTACT_FRICTIONLESS || type == mjCNSTR_CONTACT_PYRAMIDAL ||
           type == mjCNSTR_CONTACT_ELLIPTIC) {
    const mjContact* con = d->contact + id;
    if (con->geom[0] < 0 || con->geom[1] < 0) {
      return scan_row(m, d, i, parent, constrained);
    }
    t1 = m->body_treeid[m->geom_bodyid[con->geom[0]]];
    t2 = m->body_treeid[m->geom_bodyid[con->geom[1]]];
  }

  // connect and weld: the trees of the two bodies (sites: their bodies)
  else if (type == mjCNSTR_EQUALITY &&
           (m->eq_type[id] == mjEQ_CONNECT || m->eq_type[id] == mjEQ_WELD)) {
    int b1 = m->eq_obj1id[id], b2 = m->eq_obj2id[id];
    if (m->eq_objtype[id] == mjOBJ_SITE) {
      b1 = m->site_bodyid[b1];
      b2 = m->site_bodyid[b2];
    }
    t1 = m->body_treeid[b1];
    t2 = m->body_treeid[b2];
  }

  // everything else: the trees its Jacobian row touches
  else {
    return scan_row(m, d, i, parent, constrained);
  }
  uf_link(parent, constrained, t1, t2);
  return t1 >= 0 ? t1 : t2;
}

/* exclusive prefix sum: adr[i] = sum of num[0..i-1] */
static void prefix_sum(int* adr, const int* num, int n) {
  int sum = 0;
  for (int i = 0; i < n; i++) {
    adr[i] = sum;
    sum += num[i];
  }
}

/* the island-sorted efc arrays from the efc region; 0 if the arena is full */
static int alloc_rows(mjData* d) {
  size_t n = (size_t)d->nefc;
  d->efc_island = tn__efcAllocInt(d, n);
  d->map_efc2iefc = tn__efcAllocInt(d, n);
  d->map_iefc2efc = tn__efcAllocInt(d, n);
  d->iefc_type = tn__efcAllocInt(d, n);
  d->iefc_id = tn__efcAllocInt(d, n);
  d->iefc_frictionloss = tn__efcAllocNum(d, n);
  d->iefc_D = tn__efcAllocNum(d, n);
  d->iefc_R = tn__efcAllocNum(d, n);
  d->iefc_aref = tn__efcAllocNum(d, n);
  d->iefc_state = tn__efcAllocInt(d, n);
  d->iefc_force = tn__efcAllocNum(d, n);
  return d->efc_island && d->map_efc2iefc && d->map_iefc2efc && d->iefc_type && d->iefc_id &&
         d->iefc_frictionloss && d->iefc_D && d->iefc_R && d->iefc_aref && d->iefc_state &&
         d->iefc_force;
}

/* trees: per-island counts, addresses and the itree order */
static void fill_trees(const mjModel* m, mjData* d) {
  int ntree = m->ntree, nisland = d->nisland;
  for (int k = 0; k < nisland; k++) {
    d->island_ntree[k] = 0;
  }
  for (int t = 0; t < ntree; t++) {
    if (d->tree_island[t] >= 0) {
      d->island_ntree[d->tree_island[t]]++;
    }
  }
  prefix_sum(d->island_itreeadr, d->island_ntree, nisland);

  // constrained trees by island (island_ntree counts again as a cursor), then the others
  int nconstrained = 0;
  for (int k = 0; k < nisland; k++) {
    nconstrained += d->island_ntree[k];
    d->island_ntree[k] = 0;
  }
  int free_next = nconstrained;
  for (int t = 0; t < ntree; t++) {
    int k = d->tree_island[t];
    if (k >= 0) {
      d->map_itree2tree[d->island_itreeadr[k] + d->island_ntree[k]++] = t;
    } else {
      d->map_itree2tree[free_next++] = t;
    }
  }
}

/* dofs: island of each dof, per-island counts and addresses, the dof <-> idof maps */
static void fill_dofs(const mjModel* m, mjData* d) {
  int nv = m->nv, nisland = d->nisland;
  for (int k = 0; k < nisland; k++) {
    d->island_nv[k] = 0;
  }
  for (int j = 0; j < nv; j++) {
    int k = d->tree_island[m->dof_treeid[j]];
    d->dof_island[j] = k;
    if (k >= 0) {
      d->island_nv[k]++;
    }
  }
  prefix_sum(d->island_idofadr, d->island_nv, nisland);

  // constrained dofs by island (island_nv counts again as a cursor), then the others
  for (int k = 0; k < nisland; k++) {
    d->island_nv[k] = 0;
  }
  int free_next = d->nidof;
  for (int j = 0; j < nv; j++) {
    int k = d->dof_island[j];
    int idof = k >= 0 ? d->island_idofadr[k] + d->island_nv[k]++ : free_next++;
    d->map_dof2idof[j] = idof;
    d->map_idof2dof[idof] = j;
  }

  // first dof of each island in the global order
  for (int k = 0; k < nisland; k++) {
    d->island_dofadr[k] = d->map_idof2dof[d->island_idofadr[k]];
  }
}

/* rows: island of each row, per-island counts and addresses, maps, sorted row data */
static void fill_rows(mjData* d, const int* efc_tree) {
  int nefc = d->nefc, nisland = d->nisland;
  for (int k = 0; k < nisland; k++) {
    d->island_ne[k] = d->island_nf[k] = d->island_nefc[k] = 0;
  }
  for (int i = 0; i < nefc; i++) {
    int k = d->tree_island[efc_tree[i]];
    d->efc_island[i] = k;
    d->island_nefc[k]++;
    if (d->efc_type[i] == mjCNSTR_EQUALITY) {
      d->island_ne[k]++;
    } else if (d->efc_type[i] == mjCNSTR_FRICTION_DOF ||
               d->efc_type[i] == mjCNSTR_FRICTION_TENDON) {
      d->island_nf[k]++;
    }
  }
  prefix_sum(d->island_iefcadr, d->island_nefc, nisland);

  // rows by island, in their global order inside each island
  for (int k = 0; k < nisland; k++) {
    d->island_nefc[k] = 0;
  }
  for (int i = 0; i < nefc; i++) {
    int k = d->efc_island[i];
    int ic = d->island_iefcadr[k] + d->island_nefc[k]++;
    d->map_efc2iefc[i] = ic;
    d->map_iefc2efc[ic] = i;
  }

  // the row data the solvers read, in island order
  for (int ic = 0; ic < nefc; ic++) {
    int i = d->map_iefc2efc[ic];
    d->iefc_type[ic] = d->efc_type[i];
    d->iefc_id[ic] = d->efc_id[i];
    d->iefc_frictionloss[ic] = d->efc_frictionloss[i];
    d->iefc_D[ic] = d->efc_D[i];
    d->iefc_R[ic] = d->efc_R[i];
  }
}

/* one kinematic tree (a single robot, most models): every row is on it, so one island
 * holds the tree, all dofs and all rows in their global order; the general path's result
 * without its sorting. Returns 0 when some row touches no tree (no islands, as there) */
static int single_tree(const mjModel* m, mjData* d) {
  int nv = m->nv, nefc = d->nefc, parent = 0, ne = 0, nf = 0;
  char constrained = 0;
  for (int i = 0; i < nefc; i++) {
    int type = d->efc_type[i];
    if (!(i > 0 && type == d->efc_type[i - 1] && d->efc_id[i] == d->efc_id[i - 1]) &&
        constraint_trees(m, d, i, &parent, &constrained) < 0) {
      return 0;
    }
    ne += type == mjCNSTR_EQUALITY;
    nf += type == mjCNSTR_FRICTION_DOF || type == mjCNSTR_FRICTION_TENDON;
  }
  d->nisland = 1;
  d->nidof = nv;
  d->tree_island[0] = 0;
  if (!alloc_rows(d)) {
    mj_warning(d, mjWARN_CNSTRFULL, (int)d->narena);
    d->nisland = d->nidof = 0;
    return 1;
  }

  // the tree and the dofs
  d->island_ntree[0] = 1;
  d->island_itreeadr[0] = 0;
  d->map_itree2tree[0] = 0;
  d->island_nv[0] = nv;
  d->island_idofadr[0] = 0;
  d->island_dofadr[0] = 0;
  for (int j = 0; j < nv; j++) {
    d->dof_island[j] = 0;
    d->map_dof2idof[j] = j;
    d->map_idof2dof[j] = j;
  }

  // the rows, already in island order
  d->island_nefc[0] = nefc;
  d->island_ne[0] = ne;
  d->island_nf[0] = nf;
  d->island_iefcadr[0] = 0;
  for (int i = 0; i < nefc; i++) {
    d->efc_island[i] = 0;
    d->map_efc2iefc[i] = i;
    d->map_iefc2efc[i] = i;
  }
  memcpy(d->iefc_type, d->efc_type, sizeof(int) * (size_t)nefc);
  memcpy(d->iefc_id, d->efc_id, sizeof(int) * (size_t)nefc);
  memcpy(d->iefc_frictionloss, d->efc_frictionloss, sizeof(mjtNum) * (size_t)nefc);
  memcpy(d->iefc_D, d->efc_D, sizeof(mjtNum) * (size_t)nefc);
  memcpy(d->iefc_R, d->efc_R, sizeof(mjtNum) * (size_t)nefc);
  return 1;
}

/* find the constraint islands */
void mj_island(const mjModel* m, mjData* d) {
  int nefc = d->nefc, ntree = m->ntree;
  d->nisland = d->nidof = 0;

  // islands disabled or no rows: nothing to do
  if ((m->opt.disableflags & mjDSBL_ISLAND) || !nefc || !ntree) {
    return;
  }
  if (ntree == 1 && single_tree(m, d)) {
    return;
  }
  mj_markStack(d);
  int* parent = mj_stackAllocInt(d, (size_t)ntree);
  char* constrained = mj_stackAllocByte(d, (size_t)ntree, 1);
  int* efc_tree = mj_stackAllocInt(d, (size_t)nefc);
  for (int t = 0; t < ntree; t++) {
    parent[t] = t;
    constrained[t] = 0;
  }

  // join the trees of each constraint (its rows after the first share its trees)
  for (int i = 0; i < nefc; i++) {
    if (i > 0 && d->efc_type[i] == d->efc_type[i - 1] && d->efc_id[i] == d->efc_id[i - 1]) {
      efc_tree[i] = efc_tree[i - 1];
      continue;
    }
    efc_tree[i] = constraint_trees(m, d, i, parent, constrained);
    if (efc_tree[i] < 0) {
      // a row without any tree (MuJoCo stops with an error): leave islands off this step
      mj_freeStack(d);
      return;
    }
  }

  // number the islands in the order of their lowest tree
  // (each root is its component's lowest tree, so it is met before the other members)
  int nisland = 0, nidof = 0;
  for (int t = 0; t < ntree; t++) {
    if (!constrained[t]) {
      d->tree_island[t] = -1;
      continue;
    }
    int root = uf_find(parent, t);
    d->tree_island[t] = root == t ? nisland++ : d->tree_island[root];
    nidof += m->tree_dofnum[t];
  }
  d->nisland = nisland;
  d->nidof = nidof;

  // the island-sorted row arrays
  if (!alloc_rows(d)) {
    mj_warning(d, mjWARN_CNSTRFULL, (int)d->narena);
    d->nisland = d->nidof = 0;
    mj_freeStack(d);
    return;
  }

  fill_trees(m, d);
  fill_dofs(m, d);
  fill_rows(d, efc_tree);
  mj_freeStack(d);
}
