/* compiler/mesh_hull.c — the convex hull of a mesh with qhull, as MuJoCo's mesh_graph.
 *
 * Collision support functions walk the hull from vertex to neighboring vertex, so the
 * compiler stores, per mesh, the hull's vertices, each vertex's neighbors and the hull's
 * triangles in one int array:
 *   [nv, nf, vert_edgeadr[nv], vert_globalid[nv], edge_localid[nv + 3*nf], face_globalid[3*nf]]
 * vert_globalid maps a hull vertex to the mesh vertex; edge_localid lists each hull
 * vertex's neighbors (as hull-local indices) followed by -1; faces are mesh vertex indices.
 *
 * qhull runs through its reentrant API ("qhull Qt": triangulated output; "Q9 TAn" stops
 * after maxhullvert vertices). The caller passes the vertices as loaded, before scale,
 * refpos and refquat (as MuJoCo does: its graph is the same for any of those). The order
 * of vertices, neighbors and faces is the one qhull's lists give, visited as MuJoCo does,
 * so the arrays equal MuJoCo's entry for entry.
 * qhull's messages go to a memory stream; a failure becomes one clean line.
 *
 * The same file derives the rest of MuJoCo's hull data the colliders read: the hull's
 * triangles merged into polygons (mesh_poly*, plane-mesh contacts take a face's corners
 * from them, the multi-contact clipping the first polygon facing the other shape), listed
 * in MuJoCo's order, and the 27 extremal vertices (mesh_extrema, where hill climbing
 * starts). */
#define _POSIX_C_SOURCE 200809L

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libqhull_r/qhull_ra.h>

#include "compiler/mesh_internal.h"

/* qhull options: triangulated facets; with a vertex limit, stop after adding that many
 * vertices beyond the initial simplex, always processing the furthest of all outside points
 * ("Q9": Debian's qhull 2020.2 needs it to choose the vertices MuJoCo's qhull chooses) */
#define HULL_OPTIONS "qhull Qt"
#define HULL_LIMIT "Q9 TA"

/* the first line of qhull's error output, or a default, into why */
static void qhull_reason(FILE* errfile, char** errbuf, char* why, size_t whysz) {
  snprintf(why, whysz, "qhull failed");
  if (!errfile) {
    return;
  }
  fflush(errfile);
  if (*errbuf && (*errbuf)[0]) {
    size_t n = strcspn(*errbuf, "\n");
    if (n >= whysz) {
      n = whysz - 1;
    }
    memcpy(why, *errbuf, n);
    why[n] = 0;
  }
}

/* fill the vertex part: edge addresses, global ids and neighbor lists (as global ids) */
static int fill_vertices(qhT* qh, int* graph, int nv, int nf, int npoint) {
  int* edgeadr = graph + 2;
  int* globalid = graph + 2 + nv;
  int* edge = graph + 2 + 2 * nv;
  int i = 0, adr = 0;
  vertexT* vertex;

  // each hull vertex in qhull's vertex list
  FORALLvertices {
    int id = qh_pointid(qh, vertex->point);
    if (id < 0 || id >= npoint || i >= nv) {
      return -1;
    }

    // where its neighbor list starts, and which mesh vertex it is
    edgeadr[i] = adr;
    globalid[i] = id;

    // the other vertices of its neighboring facets, each once, in visiting order, then -1
    int start = adr;
    facetT *facet, **facetp;
    FOREACHfacet_(vertex->neighbors) {
      vertexT *other, **otherp;
      if (qh_setsize(qh, facet->vertices) != 3) {
        return -1;
      }
      FOREACHsetelement_(vertexT, facet->vertices, other) {
        int oid = qh_pointid(qh, other->point);
        int seen = oid == id;
        for (int j = start; j < adr && !seen; j++) {
          seen = edge[j] == oid;
        }
        if (!seen) {
          if (adr >= nv + 3 * nf - 1) {
            return -1;
          }
          edge[adr++] = oid;
        }
      }
    }
    if (adr >= nv + 3 * nf) {
      return -1;
    }
    edge[adr++] = -1;
    i++;
  }
  return i == nv && adr == nv + 3 * nf ? 0 : -1;
}

/* fill the faces: qhull's vertex order, first two swapped on top-oriented facets */
static int fill_faces(qhT* qh, int* graph, int nv, int nf) {
  int* face = graph + 2 + 3 * nv + 3 * nf;
  int adr = 0;
  facetT* facet;
  FORALLfacets {
    if (adr >= 3 * nf || qh_setsize(qh, facet->vertices) != 3) {
      return -1;
    }
    // corners in qhull's order, the first two swapped to orient the triangle outward
    int slot[3] = {0, 1, 2};
    if (facet->toporient) {
      slot[0] = 1, slot[1] = 0;
    }
    int k = 0;
    vertexT *vertex, **vertexp;
    FOREACHvertex_(facet->vertices) {
      face[adr + slot[k++]] = qh_pointid(qh, vertex->point);
    }
    adr += 3;
  }
  return adr == 3 * nf ? 0 : -1;
}

/* neighbor lists from mesh vertex ids to hull-local ids */
static void localize_edges(int* graph, int nv, int nf, int npoint) {
  int* globalid = graph + 2 + nv;
  int* edge = graph + 2 + 2 * nv;
  int* local = malloc(sizeof(int) * (size_t)npoint);
  if (local) {
    for (int i = nv - 1; i >= 0; i--) {
      local[globalid[i]] = i;
    }
  }
  for (int j = 0; j < nv + 3 * nf; j++) {
    if (edge[j] < 0) {
      continue;
    }
    if (local) {
      edge[j] = local[edge[j]];
    } else {
      // out of memory for the map: linear search gives the same result
      for (int i = 0; i < nv; i++) {
        if (globalid[i] == edge[j]) {
          edge[j] = i;
          break;
        }
      }
    }
  }
  free(local);
}

/* copy qhull's result into a new graph array */
static int extract_graph(qhT* qh, int npoint, int** graph, int* ngraph) {
  int nv = qh->num_vertices, nf = qh->num_facets;
  int size = 2 + 3 * nv + 6 * nf;
  int* g = calloc((size_t)size, sizeof(int));
  if (!g) {
    return -1;
  }
  g[0] = nv;
  g[1] = nf;

  // vertex neighbors need qhull's vertex-to-facet sets
  qh_vertexneighbors(qh);
  if (fill_vertices(qh, g, nv, nf, npoint) || fill_faces(qh, g, nv, nf)) {
    free(g);
    return -1;
  }
  localize_edges(g, nv, nf, npoint);
  *graph = g;
  *ngraph = size;
  return 0;
}

/* run qhull on the mesh's vertices and build the graph */
int tn__meshHull(const tnMesh* mesh, int maxhullvert, int** graph, int* ngraph, char* err,
                 int errsz) {
  *graph = NULL;
  *ngraph = 0;
  if (mesh->nvert < 4) {
    return tn__meshError(err, errsz, mesh->name, mesh->file,
                         "cannot form a convex hull: %d "
                         "vertices (at least 4 non-coplanar ones needed)",
                         mesh->nvert);
  }

  // qhull's input (it may not be const) and options
  coordT* points = malloc(sizeof(coordT) * 3 * (size_t)mesh->nvert);
  if (!points) {
    return tn__meshError(err, errsz, mesh->name, mesh->file, "out of memory");
  }
  for (int i = 0; i < 3 * mesh->nvert; i++) {
    points[i] = mesh->vert[i];
  }
  char options[64];
  if (maxhullvert > -1) {
    snprintf(options, sizeof(options), "%s %s%d", HULL_OPTIONS, HULL_LIMIT, maxhullvert - 4);
  } else {
    snprintf(options, sizeof(options), "%s", HULL_OPTIONS);
  }

  // qhull's messages go to memory, never to the terminal
  char* errbuf = NULL;
  size_t errlen = 0;
  FILE* errfile = open_memstream(&errbuf, &errlen);
  if (!errfile) {
    errfile = fopen("/dev/null", "w");
  }
  qhT qh_qh;
  qhT* qh = &qh_qh;
  qh_zero(qh, errfile);
  int exitcode = qh_new_qhull(qh, 3, mesh->nvert, points, False, options, NULL, errfile);

  // the graph, or the reason qhull gave up
  int res = 0;
  if (exitcode) {
    char why[160];
    qhull_reason(errfile, &errbuf, why, sizeof(why));
    res = tn__meshError(err, errsz, mesh->name, mesh->file,
                        "cannot form a convex hull (the "
                        "vertices are coplanar or coincident): %s",
                        why);
  } else if (extract_graph(qh, mesh->nvert, graph, ngraph)) {
    res = tn__meshError(err, errsz, mesh->name, mesh->file,
                        "convex hull is not a closed "
                        "triangulated surface");
  }

  // release qhull's memory and the message stream
  int curlong, totlong;
  qh_freeqhull(qh, !qh_ALL);
  qh_memfreeshort(qh, &curlong, &totlong);
  if (errfile) {
    fclose(errfile);
  }
  free(errbuf);
  free(points);
  return res;
}

/* ---------------------------------------------------------------------------------------
 * polygons: the hull's triangles merged by rounded normal direction (MuJoCo's mesh_poly*)
 * ------------------------------------------------------------------------------------- */

/* resolution of the rounded spherical angles that group hull triangles */
#define POLY_ANGLE 0.01

/* one group of hull triangles with the same rounded normal: its directed boundary edges,
 * each tagged with the connected piece ("island") it belongs to */
typedef struct polyGroup_ {
  double theta, phi; /* the rounded angles (the group's key), whole numbers */
  size_t hash;       /* the key's hash in MuJoCo's table */
  int nedge, cap;
  int* edge;   /* 2*nedge: from, to */
  int* island; /* nedge */
  int nisland;
} polyGroup;

/* the key of a triangle: its unit normal's rounded azimuth and polar angle (the poles get
 * azimuth 0), whole numbers kept as doubles as MuJoCo keeps them; returns 0 for a
 * degenerate triangle */
static int poly_key(const mjtNum* v1, const mjtNum* v2, const mjtNum* v3, double* theta,
                    double* phi) {
  mjtNum b[3], c[3], n[3];
  for (int k = 0; k < 3; k++) {
    b[k] = v2[k] - v1[k];
    c[k] = v3[k] - v1[k];
  }
  n[0] = b[1] * c[2] - b[2] * c[1];
  n[1] = b[2] * c[0] - b[0] * c[2];
  n[2] = b[0] * c[1] - b[1] * c[0];
  mjtNum norm = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  if (norm < mjMINVAL) {
    return 0;
  }

  // unit normal (adding 0 turns -0 into +0 for atan2)
  for (int k = 0; k < 3; k++) {
    n[k] = n[k] / norm + 0.0;
  }
  if (fabs(n[2]) > 1 - 1e-7) {
    *theta = 0;
    *phi = n[2] < 0 ? round(mjPI / POLY_ANGLE) : 0;
  } else {
    *theta = round(atan2(n[1], n[0]) / POLY_ANGLE);
    *phi = round(acos(n[2]) / POLY_ANGLE);
  }
  return 1;
}

/* ---------------------------------------------------------------------------------------
 * MuJoCo keeps the groups in a hash table (LLVM's libc++ unordered_map, statically linked
 * in MuJoCo's builds) and lists the polygons in the table's iteration order, so the same
 * table is kept here: the hash of a key is the XOR of its two doubles' bit patterns (zero
 * for a zero angle); the groups form one list in which each bucket's groups are adjacent;
 * a new group goes first in its bucket's run, or first in the whole list when its bucket
 * is empty; the bucket count starts at 2 and grows, when a new group would put more groups
 * than buckets, to the first prime at or above twice the count plus one, re-threading the
 * list bucket by bucket in list order.
 * ------------------------------------------------------------------------------------- */

/* the table: bucket b holds the list node just before its run (-1: empty); list nodes are
 * group indices linked by an array next[] (-1 ends the list), and `head` (an index past
 * the groups) is the node before the first group */
typedef struct polyTable_ {
  size_t nbucket;
  int* bucket;
  int head;
} polyTable;

/* the hash of one angle: its bit pattern, zero for +0 and -0 */
static size_t poly_hash_angle(double a) {
  if (a == 0) {
    return 0;
  }
  size_t bits;
  memcpy(&bits, &a, sizeof(bits));
  return bits;
}

/* the bucket of a hash: a mask for a power-of-two count, else the remainder */
static size_t poly_bucket(size_t hash, size_t nbucket) {
  if (!(nbucket & (nbucket - 1))) {
    return hash & (nbucket - 1);
  }
  return hash < nbucket ? hash : hash % nbucket;
}

/* the smallest prime at or above n (n >= 2) */
static size_t poly_prime(size_t n) {
  for (;; n++) {
    int prime = n >= 2;
    for (size_t d = 2; d * d <= n && prime; d++) {
      prime = n % d != 0;
    }
    if (prime) {
      return n;
    }
  }
}

/* the group with key (theta, phi), or -1 */
static int poly_find(const polyTable* t, const polyGroup* g, const int* next, double theta,
                     double phi, size_t hash) {
  if (!t->nbucket) {
    return -1;
  }
  size_t b = poly_bucket(hash, t->nbucket);
  if (t->bucket[b] < 0) {
    return -1;
  }
  for (int x = next[t->bucket[b]]; x >= 0; x = next[x]) {
    if (g[x].hash != hash && poly_bucket(g[x].hash, t->nbucket) != b) {
      break;
    }
    if (g[x].hash == hash && g[x].theta == theta && g[x].phi == phi) {
      return x;
    }
  }
  return -1;
}

/* re-thread the list into nbucket buckets (the list keeps its order bucket run by run:
 * a group whose bucket already has a run moves to the front of that run) */
static int poly_rehash(polyTable* t, const polyGroup* g, int* next, size_t nbucket) {
  int* bucket = malloc(sizeof(int) * nbucket);
  if (!bucket) {
    return -1;
  }
  for (size_t b = 0; b < nbucket; b++) {
    bucket[b] = -1;
  }
  free(t->bucket);
  t->bucket = bucket;
  t->nbucket = nbucket;
  int prev = t->head, cur = next[prev];
  if (cur < 0) {
    return 0;
  }
  size_t pb = poly_bucket(g[cur].hash, nbucket);
  bucket[pb] = prev;
  for (prev = cur, cur = next[cur]; cur >= 0; cur = next[prev]) {
    size_t cb = poly_bucket(g[cur].hash, nbucket);
    if (cb == pb) {
      prev = cur;
    } else if (bucket[cb] < 0) {
      bucket[cb] = prev;
      prev = cur;
      pb = cb;
    } else {
      next[prev] = next[cur];
      next[cur] = next[bucket[cb]];
      next[bucket[cb]] = cur;
    }
  }
  return 0;
}

/* add group z (key and hash set; ngroup groups already in the table) */
static int poly_table_insert(polyTable* t, polyGroup* g, int* next, int z, int ngroup) {
  if (!t->nbucket || (float)(ngroup + 1) > (float)t->nbucket) {
    int pow2 = t->nbucket > 2 && !(t->nbucket & (t->nbucket - 1));
    size_t n = 2 * t->nbucket + !pow2;
    if (n < (size_t)ngroup + 1) {
      n = (size_t)ngroup + 1;
    }
    n = n == 1 ? 2 : (n & (n - 1)) ? poly_prime(n) : n;
    if (n > t->nbucket && poly_rehash(t, g, next, n)) {
      return -1;
    }
  }
  size_t b = poly_bucket(g[z].hash, t->nbucket);
  int before = t->bucket[b];
  if (before < 0) {
    next[z] = next[t->head];
    next[t->head] = z;
    t->bucket[b] = t->head;
    if (next[z] >= 0) {
      t->bucket[poly_bucket(g[next[z]].hash, t->nbucket)] = z;
    }
  } else {
    next[z] = next[before];
    next[before] = z;
  }
  return 0;
}

/* append a directed edge with its island */
static int poly_push(polyGroup* p, int a, int b, int island) {
  if (p->nedge == p->cap) {
    int cap = p->cap ? 2 * p->cap : 8;
    int* edge = realloc(p->edge, sizeof(int) * 2 * (size_t)cap);
    if (!edge) {
      return -1;
    }
    p->edge = edge;
    int* isl = realloc(p->island, sizeof(int) * (size_t)cap);
    if (!isl) {
      return -1;
    }
    p->island = isl;
    p->cap = cap;
  }
  p->edge[2 * p->nedge] = a;
  p->edge[2 * p->nedge + 1] = b;
  p->island[p->nedge++] = island;
  return 0;
}

/* remove edge i, keeping the order of the others */
static void poly_remove(polyGroup* p, int i) {
  memmove(p->edge + 2 * i, p->edge + 2 * i + 2, sizeof(int) * 2 * (size_t)(p->nedge - i - 1));
  memmove(p->island + i, p->island + i + 1, sizeof(int) * (size_t)(p->nedge - i - 1));
  p->nedge--;
}

/* merge island `other` into `*island` (the smaller number survives, the ones above the
 * removed number shift down) */
static void poly_combine(polyGroup* p, int* island, int other) {
  int keep = *island < other ? *island : other, drop = *island < other ? other : *island;
  for (int k = 0; k < p->nedge; k++) {
    if (p->island[k] == drop) {
      p->island[k] = keep;
    } else if (p->island[k] > drop) {
      p->island[k]--;
    }
  }
  p->nisland--;
  *island = keep;
}

/* add triangle v to the group: each edge whose reverse is on the boundary cancels it (and
 * joins its island), the others become boundary edges */
static int poly_insert(polyGroup* p, const int v[3]) {
  int add[3] = {1, 1, 1}, island = -1;
  for (int e = 0; e < 3; e++) {
    int a = v[e], b = v[(e + 1) % 3];
    for (int i = 0; i < p->nedge; i++) {
      if (p->edge[2 * i] == b && p->edge[2 * i + 1] == a) {
        int other = p->island[i];
        if (island < 0) {
          island = other;
        } else if (other != island) {
          poly_combine(p, &island, other);
        }
        add[e] = 0;
        poly_remove(p, i);
        break;
      }
    }
  }
  if (island < 0) {
    island = p->nisland++;
  }
  for (int e = 0; e < 3; e++) {
    if (add[e] && poly_push(p, v[e], v[(e + 1) % 3], island)) {
      return -1;
    }
  }
  return 0;
}

/* trace island i's boundary loop into path (at most p->nedge vertices); returns its length,
 * 0 when the loop does not close. As MuJoCo: the loop starts with the island's first
 * edge, and each next edge is searched from the second edge on. */
static int poly_path(const polyGroup* p, int i, int* path) {
  int n = 0;
  for (int j = 0; j < p->nedge; j++) {
    if (p->island[j] == i) {
      path[n++] = p->edge[2 * j];
      path[n++] = p->edge[2 * j + 1];
      break;
    }
  }
  if (!n) {
    return 0;
  }
  int next = path[n - 1];
  for (int l = 0; l < p->nedge; l++) {
    int found = 0;
    for (int k = 1; k < p->nedge; k++) {
      if (p->island[k] == i && p->edge[2 * k] == next) {
        next = p->edge[2 * k + 1];
        if (next == path[0]) {
          return n;
        }
        if (n < p->nedge) {
          path[n++] = next;
        }
        found = 1;
        break;
      }
    }
    if (!found) {
      break;
    }
  }
  return 0;
}

/* release the polygons, clear the extrema */
void tn__meshFreePolygons(tnMesh* mesh) {
  free(mesh->polyvertadr);
  free(mesh->polyvertnum);
  free(mesh->polyvert);
  free(mesh->polynormal);
  mesh->polyvertadr = mesh->polyvertnum = mesh->polyvert = NULL;
  mesh->polynormal = NULL;
  mesh->npoly = mesh->npolyvert = 0;
  memset(mesh->extrema, 0, sizeof(mesh->extrema));
}

/* the groups' loops into the mesh's polygon arrays, groups in the table's list order from
 * `first`, loops of fewer than 3 vertices dropped */
static int poly_collect(tnMesh* mesh, polyGroup* group, int ngroup, const int* next, int first) {
  int total = 0, maxedge = 0;
  for (int g = 0; g < ngroup; g++) {
    total += group[g].nedge;
    maxedge = group[g].nedge > maxedge ? group[g].nedge : maxedge;
  }
  mesh->polyvertadr = malloc(sizeof(int) * (size_t)(total + 1));
  mesh->polyvertnum = malloc(sizeof(int) * (size_t)(total + 1));
  mesh->polyvert = malloc(sizeof(int) * (size_t)(total + 1));
  int* path = malloc(sizeof(int) * (size_t)(maxedge + 1));
  if (!mesh->polyvertadr || !mesh->polyvertnum || !mesh->polyvert || !path) {
    free(path);
    return -1;
  }
  for (int g = first; g >= 0; g = next[g]) {
    const polyGroup* p = group + g;
    for (int i = 0; i < p->nisland; i++) {
      int n;
      // a single triangle: its three corners
      if (p->nedge == 3) {
        path[0] = p->edge[0];
        path[1] = p->edge[2];
        path[2] = p->edge[4];
        n = i == 0 ? 3 : 0;
      } else {
        n = poly_path(p, i, path);
      }
      if (n < 3) {
        continue;
      }
      mesh->polyvertadr[mesh->npoly] = mesh->npolyvert;
      mesh->polyvertnum[mesh->npoly++] = n;
      memcpy(mesh->polyvert + mesh->npolyvert, path, sizeof(int) * (size_t)n);
      mesh->npolyvert += n;
    }
  }
  free(path);
  mesh->polynormal = calloc((size_t)(3 * mesh->npoly + 1), sizeof(mjtNum));
  return mesh->polynormal ? 0 : -1;
}

/* merge the hull triangles, in hull order, into groups by rounded normal, kept in
 * MuJoCo's hash table */
int tn__meshPolygons(tnMesh* mesh, char* err, int errsz) {
  tn__meshFreePolygons(mesh);
  if (!mesh->graph) {
    return 0;
  }
  int nv = mesh->graph[0], nf = mesh->graph[1];
  const int* face = mesh->graph + 2 + 3 * nv + 3 * nf;
  polyGroup* group = calloc((size_t)(nf + 1), sizeof(polyGroup));
  int* next = malloc(sizeof(int) * (size_t)(nf + 2));
  polyTable table = {0, NULL, nf + 1};
  if (!group || !next) {
    free(group);
    free(next);
    return tn__meshError(err, errsz, mesh->name, mesh->file, "out of memory");
  }
  next[table.head] = -1;

  // each triangle joins the group of its key, or starts a new one
  int ngroup = 0, res = 0;
  for (int f = 0; f < nf && !res; f++) {
    const int* v = face + 3 * f;
    double theta, phi;
    if (!poly_key(mesh->vert + 3 * v[0], mesh->vert + 3 * v[1], mesh->vert + 3 * v[2], &theta,
                  &phi)) {
      continue;
    }
    size_t hash = poly_hash_angle(theta) ^ poly_hash_angle(phi);
    int g = poly_find(&table, group, next, theta, phi, hash);
    if (g >= 0) {
      res = poly_insert(group + g, v);
      continue;
    }
    g = ngroup;
    group[g].theta = theta;
    group[g].phi = phi;
    group[g].hash = hash;
    group[g].nisland = 1;
    res = poly_table_insert(&table, group, next, g, ngroup);
    ngroup++;
    for (int e = 0; e < 3 && !res; e++) {
      res = poly_push(group + g, v[e], v[(e + 1) % 3], 0);
    }
  }

  // each group's connected pieces become polygons, in the table's order
  if (!res) {
    res = poly_collect(mesh, group, ngroup, next, next[table.head]);
  }
  for (int g = 0; g < ngroup; g++) {
    free(group[g].edge);
    free(group[g].island);
  }
  free(group);
  free(next);
  free(table.bucket);
  if (res) {
    tn__meshFreePolygons(mesh);
    return tn__meshError(err, errsz, mesh->name, mesh->file, "out of memory");
  }
  return 0;
}

/* polygon normals (first three vertices, final frame) and the 27 extremal hull vertices */
void tn__meshHullFinish(tnMesh* mesh) {
  for (int p = 0; p < mesh->npoly; p++) {
    const int* pv = mesh->polyvert + mesh->polyvertadr[p];
    const mjtNum *a = mesh->vert + 3 * pv[0], *b = mesh->vert + 3 * pv[1],
                 *c = mesh->vert + 3 * pv[2];
    mjtNum e1[3], e2[3], n[3];
    for (int k = 0; k < 3; k++) {
      e1[k] = b[k] - a[k];
      e2[k] = c[k] - a[k];
    }
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
    mjtNum norm = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    mjtNum* out = mesh->polynormal + 3 * p;
    if (norm < 1e-14) {
      out[0] = 1;
      out[1] = out[2] = 0;
    } else {
      for (int k = 0; k < 3; k++) {
        out[k] = n[k] / norm;
      }
    }
  }

  // extremal hull vertex per direction, in single precision, first maximum
  memset(mesh->extrema, 0, sizeof(mesh->extrema));
  if (!mesh->graph) {
    return;
  }
  int nv = mesh->graph[0];
  const int* globalid = mesh->graph + 2 + nv;
  float best[27];
  for (int k = 0; k < 27; k++) {
    best[k] = -FLT_MAX;
  }
  for (int i = 0; i < nv; i++) {
    const mjtNum* v = mesh->vert + 3 * globalid[i];
    float x = (float)v[0], y = (float)v[1], z = (float)v[2];
    int k = 0;
    for (int cx = -1; cx <= 1; cx++) {
      for (int cy = -1; cy <= 1; cy++) {
        for (int cz = -1; cz <= 1; cz++, k++) {
          float dot = x * (float)cx + y * (float)cy + z * (float)cz;
          if (dot > best[k]) {
            best[k] = dot;
            mesh->extrema[k] = i;
          }
        }
      }
    }
  }
}

/* polygons, vertex-to-polygon map and extrema into the model */
void tn__meshPolygonsToModel(const tnMesh* mesh, mjModel* m, int id, int vertadr, int polyadr,
                             int polyvertadr) {
  m->mesh_polynum[id] = mesh->npoly;
  m->mesh_polyadr[id] = polyadr;
  memcpy(m->mesh_extrema + 27 * id, mesh->extrema, sizeof(mesh->extrema));
  for (int p = 0; p < mesh->npoly; p++) {
    m->mesh_polyvertadr[polyadr + p] = polyvertadr + mesh->polyvertadr[p];
    m->mesh_polyvertnum[polyadr + p] = mesh->polyvertnum[p];
    memcpy(m->mesh_polynormal + 3 * (polyadr + p), mesh->polynormal + 3 * p, 3 * sizeof(mjtNum));
  }
  if (mesh->npolyvert) {
    memcpy(m->mesh_polyvert + polyvertadr, mesh->polyvert,
           sizeof(int) * (size_t)mesh->npolyvert);
  }

  // per vertex, the polygons through it in polygon order (one entry per occurrence)
  int* num = m->mesh_polymapnum + vertadr;
  int* adr = m->mesh_polymapadr + vertadr;
  memset(num, 0, sizeof(int) * (size_t)mesh->nvert);
  for (int j = 0; j < mesh->npolyvert; j++) {
    num[mesh->polyvert[j]]++;
  }
  for (int v = 0, next = polyvertadr; v < mesh->nvert; v++) {
    adr[v] = next;
    next += num[v];
    num[v] = 0;
  }
  for (int p = 0; p < mesh->npoly; p++) {
    const int* pv = mesh->polyvert + mesh->polyvertadr[p];
    for (int j = 0; j < mesh->polyvertnum[p]; j++) {
      m->mesh_polymap[adr[pv[j]] + num[pv[j]]++] = p;
    }
  }
}
