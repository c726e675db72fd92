/* compiler/mesh_obj.c — Wavefront OBJ meshes: vertex positions and polygonal faces.
 *
 * Only "v" (position; extra components such as w or colors are ignored) and "f" lines
 * matter; texture coordinates, normals, materials and smoothing are ignored. As MuJoCo
 * takes the faces of the loader's first shape only, faces after an "o" or "g" line that
 * follows some faces are left out (every vertex is kept). Face
 * corners are "i", "i/t", "i//n" or "i/t/n" with 1-based indices, negative ones counting
 * back from the last vertex read so far. Coordinates are parsed in double and rounded to
 * float, as MuJoCo's OBJ loader stores them.
 *
 * Polygons are split into triangles the way MuJoCo's loader (tinyobjloader) does, so
 * mesh_face matches MuJoCo's: a quad along its shorter diagonal (the 1-3 one on a tie); a
 * larger polygon by ear clipping in the coordinate plane facing it most, with that
 * loader's acceptance test for a corner (which, being relative to the origin, can leave a
 * polygon untriangulated; MuJoCo then has no faces from it either). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/mesh_internal.h"

/* a growing list of polygons: corners of all polygons, and where each one starts */
typedef struct obj_polys_ {
  int* corner;
  int ncorner, capcorner;
  int* start;  /* npoly + 1 entries */
  int npoly, capstart;
} obj_polys;

/* growing arrays for vertices and triangles of the mesh being read */
typedef struct obj_reader_ {
  tnMesh* mesh;
  int capvert, capface;
  obj_polys polys;
  int later_shape; /* an "o" or "g" line came after faces: later faces are not MuJoCo's */
  char* err;
  int errsz;
} obj_reader;

/* ---------------------------------------------------------------------------------------
 * triangulation
 * ------------------------------------------------------------------------------------- */

/* append one triangle */
static int add_triangle(obj_reader* r, int a, int b, int c) {
  tnMesh* m = r->mesh;
  if (tn__meshReserve((void**)&m->face, &r->capface, 3 * (m->nface + 1), sizeof(int))) {
    return -1;
  }
  m->face[3 * m->nface] = a;
  m->face[3 * m->nface + 1] = b;
  m->face[3 * m->nface + 2] = c;
  m->nface++;
  return 0;
}

/* coordinate k of vertex i, in single precision like the loader that MuJoCo uses */
static float vcoord(const tnMesh* m, int i, int k) {
  return (float)m->vert[3 * i + k];
}

/* quad: split along the shorter diagonal, 1-3 when they are equal */
static int split_quad(obj_reader* r, const int* v) {
  float d02 = 0, d13 = 0;
  for (int k = 0; k < 3; k++) {
    float a = vcoord(r->mesh, v[2], k) - vcoord(r->mesh, v[0], k);
    float b = vcoord(r->mesh, v[3], k) - vcoord(r->mesh, v[1], k);
    d02 += a * a;
    d13 += b * b;
  }
  if (d02 < d13) {
    return add_triangle(r, v[0], v[1], v[2]) || add_triangle(r, v[0], v[2], v[3]);
  }
  return add_triangle(r, v[0], v[1], v[3]) || add_triangle(r, v[1], v[2], v[3]);
}

/* the two coordinate axes onto which a polygon is projected: from its first real corner,
 * drop the axis along which that corner's cross product is largest */
static void projection_axes(const tnMesh* m, const int* v, int n, int axes[2]) {
  axes[0] = 1, axes[1] = 2;
  for (int k = 0; k < n; k++) {
    int a = v[k], b = v[(k + 1) % n], c = v[(k + 2) % n];
    float e0[3], e1[3];
    for (int j = 0; j < 3; j++) {
      e0[j] = vcoord(m, b, j) - vcoord(m, a, j);
      e1[j] = vcoord(m, c, j) - vcoord(m, b, j);
    }
    float cx = fabsf(e0[1] * e1[2] - e0[2] * e1[1]);
    float cy = fabsf(e0[2] * e1[0] - e0[0] * e1[2]);
    float cz = fabsf(e0[0] * e1[1] - e0[1] * e1[0]);
    if (cx > FLT_EPSILON || cy > FLT_EPSILON || cz > FLT_EPSILON) {
      // x dominant: keep y, z; otherwise x and (y when z dominates, else z)
      if (!(cx > cy && cx > cz)) {
        axes[0] = 0;
        if (cz > cx && cz > cy) {
          axes[1] = 1;
        }
      }
      return;
    }
  }
}

/* is point (px, py) inside the triangle (x[3], y[3]) by the even-odd crossing rule */
static int inside_triangle(const float x[3], const float y[3], float px, float py) {
  int in = 0;
  for (int i = 0, j = 2; i < 3; j = i++) {
    if ((y[i] > py) != (y[j] > py) && px < (x[j] - x[i]) * (py - y[i]) / (y[j] - y[i]) + x[i]) {
      in = !in;
    }
  }
  return in;
}

/* is the corner starting at position g of the remaining polygon an ear to cut */
static int is_ear(const tnMesh* m, const int* rem, int n, int g, const int axes[2]) {
  float x[3], y[3];
  for (int k = 0; k < 3; k++) {
    x[k] = vcoord(m, rem[(g + k) % n], axes[0]);
    y[k] = vcoord(m, rem[(g + k) % n], axes[1]);
  }

  // the loader's convexity test: the corner's turn against the sign of x0*y1 - y0*x1
  float cross = (x[1] - x[0]) * (y[2] - y[1]) - (y[1] - y[0]) * (x[2] - x[1]);
  float area = (x[0] * y[1] - y[0] * x[1]) * 0.5f;
  if (cross * area < 0) {
    return 0;
  }

  // no other remaining corner inside the triangle
  for (int k = 3; k < n; k++) {
    int o = rem[(g + k) % n];
    if (inside_triangle(x, y, vcoord(m, o, axes[0]), vcoord(m, o, axes[1]))) {
      return 0;
    }
  }
  return 1;
}

/* polygon with more than four corners: ear clipping */
static int clip_ears(obj_reader* r, const int* v, int n) {
  int axes[2];
  projection_axes(r->mesh, v, n, axes);
  int* rem = malloc(sizeof(int) * (size_t)n);
  if (!rem) {
    return -1;
  }
  memcpy(rem, v, sizeof(int) * (size_t)n);

  // cut ears until a triangle is left, giving up after a full round without progress
  int g = 0, left = n, tries = n, last = n;
  while (left > 3 && tries > 0) {
    if (g >= left) {
      g -= left;
    }
    if (last != left) {
      last = left;
      tries = left;
    } else {
      tries--;
    }
    if (!is_ear(r->mesh, rem, left, g, axes)) {
      g++;
      continue;
    }
    if (add_triangle(r, rem[g % left], rem[(g + 1) % left], rem[(g + 2) % left])) {
      free(rem);
      return -1;
    }
    // drop the ear's middle corner
    int drop = (g + 1) % left;
    memmove(rem + drop, rem + drop + 1, sizeof(int) * (size_t)(left - drop - 1));
    left--;
  }
  int res = left == 3 ? add_triangle(r, rem[0], rem[1], rem[2]) : 0;
  free(rem);
  return res;
}

/* triangulate every collected polygon, in file order */
static int triangulate(obj_reader* r) {
  const obj_polys* p = &r->polys;
  for (int i = 0; i < p->npoly; i++) {
    const int* v = p->corner + p->start[i];
    int n = p->start[i + 1] - p->start[i];
    for (int k = 0; k < n; k++) {
      if (v[k] >= r->mesh->nvert) {
        return tn__meshError(r->err, r->errsz, r->mesh->name, r->mesh->file,
                             "face %d uses "
                             "vertex %d (counting from 1), which does not exist (%d "
                             "vertices)",
                             i, v[k] + 1, r->mesh->nvert);
      }
    }
    int res = n == 3 ? add_triangle(r, v[0], v[1], v[2]) : n == 4 ? split_quad(r, v)
                                                                   : clip_ears(r, v, n);
    if (res) {
      return tn__meshError(r->err, r->errsz, r->mesh->name, r->mesh->file, "out of memory");
    }
  }
  return 0;
}

/* ---------------------------------------------------------------------------------------
 * lines
 * ------------------------------------------------------------------------------------- */

/* is c a blank within a line */
static int blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* "v x y z ...": three coordinates, rounded to float */
static int read_vertex(obj_reader* r, const char* p, const char* eol, int line) {
  tnMesh* m = r->mesh;
  if (tn__meshReserve((void**)&m->vert, &r->capvert, 3 * (m->nvert + 1), sizeof(mjtNum))) {
    return tn__meshError(r->err, r->errsz, m->name, m->file, "out of memory");
  }
  for (int k = 0; k < 3; k++) {
    char* stop;
    while (p < eol && blank(*p)) {
      p++;
    }
    double x = p < eol ? strtod(p, &stop) : 0;
    if (p >= eol || stop == p || stop > eol || (stop < eol && !blank(*stop))) {
      return tn__meshError(r->err, r->errsz, m->name, m->file,
                           "line %d: vertex needs three "
                           "numbers",
                           line);
    }
    m->vert[3 * m->nvert + k] = (float)x;
    p = stop;
  }
  m->nvert++;
  return 0;
}

/* one face corner "i[/t][/n]" -> 0-based vertex index; -1 with a message when invalid */
static int read_corner(obj_reader* r, const char** pp, const char* eol, int line, int* index) {
  char* stop;
  long i = strtol(*pp, &stop, 10);
  if (stop == *pp || stop > eol) {
    return tn__meshError(r->err, r->errsz, r->mesh->name, r->mesh->file,
                         "line %d: bad face "
                         "index",
                         line);
  }
  if (i == 0 || i > (long)1 << 30 || i < -((long)1 << 30)) {
    return tn__meshError(r->err, r->errsz, r->mesh->name, r->mesh->file,
                         "line %d: face index "
                         "%ld is invalid (indices start at 1)",
                         line, i);
  }
  *index = i > 0 ? (int)(i - 1) : r->mesh->nvert + (int)i;
  if (*index < 0) {
    return tn__meshError(r->err, r->errsz, r->mesh->name, r->mesh->file,
                         "line %d: face index "
                         "%ld refers before the first vertex",
                         line, i);
  }

  // skip the texture and normal parts
  while (stop < eol && !blank(*stop)) {
    stop++;
  }
  *pp = stop;
  return 0;
}

/* "f a b c ...": a polygon of at least three corners */
static int read_face(obj_reader* r, const char* p, const char* eol, int line) {
  obj_polys* pl = &r->polys;
  if (tn__meshReserve((void**)&pl->start, &pl->capstart, pl->npoly + 2, sizeof(int))) {
    return tn__meshError(r->err, r->errsz, r->mesh->name, r->mesh->file, "out of memory");
  }
  pl->start[pl->npoly] = pl->ncorner;
  int n = 0;
  for (;;) {
    while (p < eol && blank(*p)) {
      p++;
    }
    if (p >= eol) {
      break;
    }
    int index = -1;
    if (read_corner(r, &p, eol, line, &index)) {
      return -1;
    }
    if (tn__meshReserve((void**)&pl->corner, &pl->capcorner, pl->ncorner + 1, sizeof(int))) {
      return tn__meshError(r->err, r->errsz, r->mesh->name, r->mesh->file, "out of memory");
    }
    pl->corner[pl->ncorner++] = index;
    n++;
  }
  if (n < 3) {
    return tn__meshError(r->err, r->errsz, r->mesh->name, r->mesh->file,
                         "line %d: face has %d "
                         "vertices (at least 3 needed)",
                         line, n);
  }
  pl->npoly++;
  pl->start[pl->npoly] = pl->ncorner;
  return 0;
}

/* dispatch one line on its keyword (a '#' starts a comment) */
static int read_line(obj_reader* r, const char* p, const char* eol, int line) {
  const char* hash = memchr(p, '#', (size_t)(eol - p));
  if (hash) {
    eol = hash;
  }
  while (p < eol && blank(*p)) {
    p++;
  }
  if (eol - p >= 2 && p[0] == 'v' && blank(p[1])) {
    return read_vertex(r, p + 2, eol, line);
  }
  if (eol - p >= 2 && p[0] == 'f' && blank(p[1])) {
    return r->later_shape ? 0 : read_face(r, p + 2, eol, line);
  }

  // an object or group name after some faces starts the loader's second shape
  if (eol - p >= 2 && (p[0] == 'o' || p[0] == 'g') && blank(p[1]) && r->polys.npoly > 0) {
    r->later_shape = 1;
  }
  return 0;
}

/* read every line, then triangulate the polygons */
int tn__meshParseOBJ(tnMesh* mesh, const char* data, size_t size, char* err, int errsz) {
  obj_reader r;
  memset(&r, 0, sizeof(r));
  r.mesh = mesh;
  r.err = err;
  r.errsz = errsz;

  // line by line
  const char *p = data, *end = data + size;
  int line = 1, res = 0;
  while (p < end && !res) {
    const char* eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol) {
      eol = end;
    }
    res = read_line(&r, p, eol, line++);
    p = eol + 1;
  }

  // faces (indices are checked by the loader against the final vertex count)
  if (!res) {
    res = triangulate(&r);
  }
  free(r.polys.corner);
  free(r.polys.start);
  return res;
}
