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
 * qhull's messages go to a memory stream; a failure becomes one clean line. */
#define _POSIX_C_SOURCE 200809L

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
int tn_meshHull(const tnMesh* mesh, int maxhullvert, int** graph, int* ngraph, char* err,
                int errsz) {
  *graph = NULL;
  *ngraph = 0;
  if (mesh->nvert < 4) {
    return tn_meshError(err, errsz, mesh->name, mesh->file, "cannot form a convex hull: %d "
                        "vertices (at least 4 non-coplanar ones needed)", mesh->nvert);
  }

  // qhull's input (it may not be const) and options
  coordT* points = malloc(sizeof(coordT) * 3 * (size_t)mesh->nvert);
  if (!points) {
    return tn_meshError(err, errsz, mesh->name, mesh->file, "out of memory");
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
    res = tn_meshError(err, errsz, mesh->name, mesh->file, "cannot form a convex hull (the "
                       "vertices are coplanar or coincident): %s", why);
  } else if (extract_graph(qh, mesh->nvert, graph, ngraph)) {
    res = tn_meshError(err, errsz, mesh->name, mesh->file, "convex hull is not a closed "
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
