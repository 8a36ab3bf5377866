/* Block and Key's placement rules on 64-bit words: `geometry.boards` and a shape's `plan_source` function in C,
 * with the same answers bit for bit.
 *
 * Why: after every placement the new temple's spot masks are computed for the held shapes, and in Python each of
 * the plan's shifts, ANDs and ORs is a big-integer operation on an ~800-bit int: ~4 us for the boards and ~6 us
 * per shape, a third of a random decision (#36). An incremental update in Python would not help: every
 * orientation's mask changes near the placed block, and a region costs as many big-integer operations as the
 * whole board. Built by `make native` with the mypyc modules (src/boardlab/_compiled.py) and used only when that
 * build is current; otherwise geometry.py's Python runs, which is the reference (tests compare the two).
 *
 * Layouts. Python's boards are ints on the padded grid (geometry.py: cell (x, y, z) at bit idx(x, y, z), below
 * 800), read here as `board`s of 13 words. The plan runs on `cboard`s: one word per level, cell (x, y) at bit
 * x + 8 y, real cells only. Shifting a compact board by a cube's offset (dx, dy, dz) lets cells with x + dx > 7
 * wrap into the next row; that garbage only lands on anchors whose block would leave the floor, which the
 * orientation's bounds (the first term of every row) clear, since every board is read only at the block's own
 * cubes. So a shift is one word shift per level.
 *
 * `boards(occ, near, rise, high, floor, kinds)`: `geometry.boards` as compact boards side by side (`high` None:
 * the plain reading). `spots(program, bounds, boards)`: (per orientation its anchors as an int at `idx`, their
 * total popcount). `program` is `geometry.plan_program` (int32 words), `bounds` `geometry.compact` of
 * `orientation_bounds`.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define W 13          /* words per board: 832 bits >= the 800 cells of the padded grid */
#define NBYTES (W * 8)
#define PX 10         /* geometry.PX */
#define LAYER 100     /* geometry.LAYER */
#define HEIGHT 6      /* components.HEIGHT */
#define MAX_KINDS 16
#define MAX_SHIFTS 256
#define IDX0(y, z) (1 + PX * ((y) + 1) + LAYER * ((z) + 1))  /* geometry.idx(0, y, z) */

typedef struct { uint64_t w[W]; } board;  /* the padded grid */
typedef struct { uint64_t z[HEIGHT]; } cboard;  /* real cells: per level, bit x + 8 y */

static PyObject *zero;

#if PY_VERSION_HEX < 0x030C0000 && PYLONG_BITS_IN_DIGIT == 30
/* CPython 3.11's int layout read and written directly (30-bit digits, the sign in ob_size): the byte-array
 * converters below go byte by byte and cost more than the whole plan. */
#define DIGITS_MAX ((W * 64 + PyLong_SHIFT - 1) / PyLong_SHIFT)

static int to_board(PyObject *v, board *out) {
    if (!PyLong_Check(v)) {
        PyErr_SetString(PyExc_TypeError, "a board is an int");
        return -1;
    }
    Py_ssize_t size = Py_SIZE(v);
    memset(out, 0, sizeof *out);
    if (size < 0 || size > DIGITS_MAX) {
        PyErr_SetString(PyExc_OverflowError, "a board is a non-negative int below 2**832");
        return -1;
    }
    const digit *d = ((PyLongObject *)v)->ob_digit;
    for (Py_ssize_t i = 0; i < size; i++) {
        int p = (int)i * PyLong_SHIFT, q = p >> 6, r = p & 63;
        uint64_t x = d[i];
        out->w[q] |= x << r;
        if (r > 64 - PyLong_SHIFT) {
            if (q + 1 < W) {
                out->w[q + 1] |= x >> (64 - r);
            } else if (x >> (64 - r)) {
                PyErr_SetString(PyExc_OverflowError, "a board is a non-negative int below 2**832");
                return -1;
            }
        }
    }
    return 0;
}

static PyObject *from_board(const board *b) {
    int top = W - 1;
    while (top >= 0 && !b->w[top]) top--;
    if (top < 0) return Py_NewRef(zero);
    int bits = 64 * top + 64 - __builtin_clzll(b->w[top]);
    Py_ssize_t size = (bits + PyLong_SHIFT - 1) / PyLong_SHIFT;
    PyLongObject *v = _PyLong_New(size);
    if (v == NULL) return NULL;
    for (Py_ssize_t i = 0; i < size; i++) {
        int p = (int)i * PyLong_SHIFT, q = p >> 6, r = p & 63;
        uint64_t x = b->w[q] >> r;
        if (r > 64 - PyLong_SHIFT && q + 1 < W) x |= b->w[q + 1] << (64 - r);
        v->ob_digit[i] = (digit)(x & PyLong_MASK);
    }
    return (PyObject *)v;
}
#else
static int to_board(PyObject *v, board *out) {
    if (!PyLong_Check(v)) {
        PyErr_SetString(PyExc_TypeError, "a board is an int");
        return -1;
    }
#if PY_VERSION_HEX >= 0x030D0000
    return _PyLong_AsByteArray((PyLongObject *)v, (unsigned char *)out->w, NBYTES, 1, 0, 1);
#else
    return _PyLong_AsByteArray((PyLongObject *)v, (unsigned char *)out->w, NBYTES, 1, 0);
#endif
}

static PyObject *from_board(const board *b) {
    return _PyLong_FromByteArray((const unsigned char *)b->w, NBYTES, 1, 0);
}
#endif

/* The real cells of a padded board, compacted: a row of 8 cells is 8 bits at idx(0, y, z) (they may straddle two
 * words). */
static void narrow(const board *b, cboard *out) {
    for (int z = 0; z < HEIGHT; z++) {
        uint64_t m = 0;
        for (int y = 0; y < 8; y++) {
            int p = IDX0(y, z), q = p >> 6, r = p & 63;
            uint64_t row = b->w[q] >> r;
            if (r > 56) row |= b->w[q + 1] << (64 - r);
            m |= (row & 0xFF) << (8 * y);
        }
        out->z[z] = m;
    }
}

/* A compact board back on the padded grid. */
static void widen(const cboard *c, board *out) {
    memset(out, 0, sizeof *out);
    for (int z = 0; z < HEIGHT; z++) {
        uint64_t m = c->z[z];
        for (int y = 0; m && y < 8; y++, m >>= 8) {
            uint64_t row = m & 0xFF;
            if (!row) continue;
            int p = IDX0(y, z), q = p >> 6, r = p & 63;
            out->w[q] |= row << r;
            if (r > 56) out->w[q + 1] |= row >> (64 - r);
        }
    }
}

/* An int on the padded grid as a compact board. */
static int to_compact(PyObject *v, cboard *out) {
    board b;
    if (to_board(v, &b) < 0) return -1;
    narrow(&b, out);
    return 0;
}

#define COL0 0x0101010101010101ULL  /* x = 0 of every row */
#define COL7 0x8080808080808080ULL  /* x = 7 */

/* `geometry.boards` on compact boards. Its padded shifts by one cell along x keep a row's end in the padding;
 * here they would wrap into the next row, so the wrapped column is cleared (real cells must match exactly). */
static PyObject *boards(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6 || !PyList_Check(args[2]) || (args[3] != Py_None && !PyList_Check(args[3]))) {
        PyErr_SetString(PyExc_TypeError, "boards(occ, near, rise: list, high: list | None, floor, kinds)");
        return NULL;
    }
    long kinds = PyLong_AsLong(args[5]);
    if (kinds == -1 && PyErr_Occurred()) return NULL;
    if (kinds < 2 || kinds > MAX_KINDS) {
        PyErr_SetString(PyExc_ValueError, "kinds out of range");
        return NULL;
    }
    PyObject *rise_list = args[2], *high_list = args[3] == Py_None ? NULL : args[3];
    Py_ssize_t n = PyList_GET_SIZE(rise_list);
    if (n > HEIGHT || (high_list != NULL && PyList_GET_SIZE(high_list) != HEIGHT)) {
        PyErr_SetString(PyExc_ValueError, "rise and high have at most a board per level");
        return NULL;
    }
    cboard out[MAX_KINDS], occ, floor, rise[HEIGHT], high[HEIGHT];
    if (to_compact(args[0], &occ) < 0 || to_compact(args[1], &out[0]) < 0 || to_compact(args[4], &floor) < 0)
        return NULL;
    for (Py_ssize_t k = 0; k < n; k++)
        if (to_compact(PyList_GET_ITEM(rise_list, k), &rise[k]) < 0) return NULL;
    if (high_list != NULL)
        for (int k = 0; k < HEIGHT; k++)
            if (to_compact(PyList_GET_ITEM(high_list, k), &high[k]) < 0) return NULL;
    for (int z = 0; z < HEIGHT; z++) out[1].z[z] = (z ? occ.z[z - 1] : 0) | floor.z[z];  /* occ << LAYER | floor */
    for (int j = 1; j < kinds - 1; j++) {
        int e = j - 1;
        cboard side, over, under;
        for (int z = 0; z < HEIGHT; z++) {
            side.z[z] = e < n ? rise[e].z[z] : 0;
            over.z[z] = 1 <= e && e <= n ? rise[e - 1].z[z] : occ.z[z];
            under.z[z] = e + 1 < n ? rise[e + 1].z[z] : 0;
        }
        if (high_list != NULL) {
            /* geometry._tall(occ, high, k): occupied cells whose column rises at least k cubes from them */
            for (int z = 0; z < HEIGHT; z++) {
                side.z[z] |= j <= 1 ? occ.z[z] : z + j - 1 < HEIGHT ? occ.z[z] & high[z + j - 1].z[z] : 0;
                over.z[z] |= j - 1 <= 1 ? occ.z[z] : z + j - 2 < HEIGHT ? occ.z[z] & high[z + j - 2].z[z] : 0;
            }
        }
        for (int z = 0; z < HEIGHT; z++) {
            uint64_t sd = side.z[z];
            out[j + 1].z[z] = occ.z[z] | ((sd << 1) & ~COL0) | ((sd >> 1) & ~COL7) | sd << 8 | sd >> 8
                              | (z + 1 < HEIGHT ? over.z[z + 1] : 0) | (z ? under.z[z - 1] : 0);
        }
    }
    return PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)kinds * (Py_ssize_t)sizeof(cboard));
}

/* A bounds-checked reader of the program's int32 words. */
typedef struct { const int32_t *p; Py_ssize_t left; int bad; } reader;

static inline int32_t next(reader *r) {
    if (r->left <= 0) {
        r->bad = 1;
        return 0;
    }
    r->left--;
    return *r->p++;
}

static PyObject *spots(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3 || !PyBytes_Check(args[0]) || !PyBytes_Check(args[1]) || !PyBytes_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "spots(program: bytes, bounds: bytes, boards: bytes)");
        return NULL;
    }
    Py_ssize_t nboards = PyBytes_GET_SIZE(args[2]) / (Py_ssize_t)sizeof(cboard);
    const cboard *bd = (const cboard *)PyBytes_AS_STRING(args[2]);
    const cboard *bounds = (const cboard *)PyBytes_AS_STRING(args[1]);
    Py_ssize_t nbounds = PyBytes_GET_SIZE(args[1]) / (Py_ssize_t)sizeof(cboard);
    reader r = {(const int32_t *)PyBytes_AS_STRING(args[0]), PyBytes_GET_SIZE(args[0]) / 4, 0};
    cboard s[MAX_SHIFTS];
    int nshift = next(&r);
    if (nshift < 0 || nshift > MAX_SHIFTS) r.bad = 1;
    for (int i = 0; i < nshift && !r.bad; i++) {
        int kind = next(&r), dxy = next(&r), dz = next(&r);
        if (kind < 0 || kind >= nboards || dxy < 0 || dxy > 63 || dz < 0) {
            r.bad = 1;
            break;
        }
        for (int z = 0; z < HEIGHT; z++) s[i].z[z] = z + dz < HEIGHT ? bd[kind].z[z + dz] >> dxy : 0;
    }
    int nrow = r.bad ? 0 : next(&r);
    if (nrow < 0 || nrow > nbounds) r.bad = 1;
    PyObject *masks = r.bad ? NULL : PyTuple_New(nrow);
    if (masks == NULL) goto bad_program;
    long long count = 0;
#define IDX(i) do { i = next(&r); if (i < 0 || i >= nshift) { r.bad = 1; i = 0; } } while (0)
    for (int n = 0; n < nrow; n++) {
        cboard acc = bounds[n], any;
        int k, i, j;
        k = next(&r);  /* touch: any */
        memset(&any, 0, sizeof any);
        while (k-- > 0 && !r.bad) { IDX(i); for (int z = 0; z < HEIGHT; z++) any.z[z] |= s[i].z[z]; }
        for (int z = 0; z < HEIGHT; z++) acc.z[z] &= any.z[z];
        k = next(&r);  /* bad: none */
        memset(&any, 0, sizeof any);
        while (k-- > 0 && !r.bad) { IDX(i); for (int z = 0; z < HEIGHT; z++) any.z[z] |= s[i].z[z]; }
        for (int z = 0; z < HEIGHT; z++) acc.z[z] &= ~any.z[z];
        k = next(&r);  /* rest: all */
        while (k-- > 0 && !r.bad) { IDX(i); for (int z = 0; z < HEIGHT; z++) acc.z[z] &= s[i].z[z]; }
        k = next(&r);  /* bridged: its own support or both ends of one of its bridges */
        while (k-- > 0 && !r.bad) {
            IDX(i);
            any = s[i];
            int pairs = next(&r);
            while (pairs-- > 0 && !r.bad) {
                IDX(i);
                IDX(j);
                for (int z = 0; z < HEIGHT; z++) any.z[z] |= s[i].z[z] & s[j].z[z];
            }
            for (int z = 0; z < HEIGHT; z++) acc.z[z] &= any.z[z];
        }
        if (r.bad) break;
        int c = 0;
        for (int z = 0; z < HEIGHT; z++) c += __builtin_popcountll(acc.z[z]);
        PyObject *m;
        if (c) {
            board wide;
            widen(&acc, &wide);
            m = from_board(&wide);
            if (m == NULL) {
                Py_DECREF(masks);
                return NULL;
            }
        } else {
            m = Py_NewRef(zero);
        }
        PyTuple_SET_ITEM(masks, n, m);
        count += c;
    }
#undef IDX
    if (r.bad) {
        Py_DECREF(masks);
        goto bad_program;
    }
    PyObject *total = PyLong_FromLongLong(count);
    if (total == NULL) {
        Py_DECREF(masks);
        return NULL;
    }
    PyObject *out = PyTuple_Pack(2, masks, total);
    Py_DECREF(masks);
    Py_DECREF(total);
    return out;
bad_program:
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a malformed plan program or boards");
    return NULL;
}


/* `rules._shows_key` for the keys of a hand at once, on 64-bit words: the planes and the new block's plane bits
 * (640 bits, `geometry.VIEW_BITS` per view) as boards. Why: each key rotation's AND chain is ~10 big-integer
 * shifts and ANDs, ~12% of a random decision in the native build (#36). `keys_shown(programs, newm, planes)`: bit
 * i set when program i (`geometry.key_program`: uint64 words [rotations, per rotation 13 words of its origins,
 * the touch shifts (a count, the shifts), the cells (a count, per cell its colour code and shift)]) shows. */
#define MAX_PLANES 8

/* m &= a >> sh, word by word (sh below 64 W); whether anything is left. */
static inline int and_shifted(board *m, const board *a, int64_t sh) {
    int q = (int)(sh >> 6), r = (int)(sh & 63);
    uint64_t any = 0;
    for (int i = 0; i < W; i++) {
        uint64_t x = 0;
        if (i + q < W) {
            x = a->w[i + q] >> r;
            if (r && i + q + 1 < W) x |= a->w[i + q + 1] << (64 - r);
        }
        any |= m->w[i] &= x;
    }
    return any != 0;
}

static inline void or_shifted(board *m, const board *a, int64_t sh) {
    int q = (int)(sh >> 6), r = (int)(sh & 63);
    for (int i = 0; i + q < W; i++) {
        uint64_t x = a->w[i + q] >> r;
        if (r && i + q + 1 < W) x |= a->w[i + q + 1] << (64 - r);
        m->w[i] |= x;
    }
}

typedef struct { const unsigned char *p; Py_ssize_t left; int bad; } wreader;

static inline int64_t next_word(wreader *r) {
    if (r->left < 8) {
        r->bad = 1;
        return 0;
    }
    int64_t v;
    memcpy(&v, r->p, 8);
    r->p += 8;
    r->left -= 8;
    return v;
}

static PyObject *keys_shown(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3 || !PyList_Check(args[0]) || !PyList_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "keys_shown(programs: list[bytes], newm: int, planes: list[int])");
        return NULL;
    }
    PyObject *progs = args[0], *planes = args[2];
    Py_ssize_t np = PyList_GET_SIZE(progs), nplanes = PyList_GET_SIZE(planes);
    if (np > 64 || nplanes > MAX_PLANES) {
        PyErr_SetString(PyExc_ValueError, "at most 64 programs and 8 planes");
        return NULL;
    }
    board newm, pl[MAX_PLANES];
    if (to_board(args[1], &newm) < 0) return NULL;
    for (Py_ssize_t c = 0; c < nplanes; c++)
        if (to_board(PyList_GET_ITEM(planes, c), &pl[c]) < 0) return NULL;
    uint64_t got = 0;
    for (Py_ssize_t i = 0; i < np; i++) {
        PyObject *prog = PyList_GET_ITEM(progs, i);
        if (!PyBytes_Check(prog)) {
            PyErr_SetString(PyExc_TypeError, "a key program is bytes");
            return NULL;
        }
        wreader r = {(const unsigned char *)PyBytes_AS_STRING(prog), PyBytes_GET_SIZE(prog), 0};
        int64_t rots = next_word(&r);
        for (int64_t k = 0; k < rots && !r.bad; k++) {
            board m, touch;
            memset(&touch, 0, sizeof touch);
            for (int j = 0; j < W; j++) m.w[j] = (uint64_t)next_word(&r);
            int64_t nt = next_word(&r);
            for (int64_t j = 0; j < nt && !r.bad; j++) {
                int64_t sh = next_word(&r);
                if (sh < 0 || sh >= 64 * W) r.bad = 1;
                else or_shifted(&touch, &newm, sh);
            }
            int alive = 0;
            for (int j = 0; j < W; j++) alive |= (m.w[j] &= touch.w[j]) != 0;
            int64_t nc = next_word(&r);
            for (int64_t j = 0; j < nc && !r.bad; j++) {
                int64_t c = next_word(&r), sh = next_word(&r);
                if (c < 0 || c >= nplanes || sh < 0 || sh >= 64 * W) r.bad = 1;
                else if (alive) alive = and_shifted(&m, &pl[c], sh);
            }
            if (r.bad) break;
            if (alive) {
                got |= 1ULL << i;
                break;
            }
        }
        if (r.bad) {
            PyErr_SetString(PyExc_ValueError, "a malformed key program");
            return NULL;
        }
    }
    return PyLong_FromUnsignedLongLong(got);
}

static PyMethodDef module_methods[] = {
    {"boards", (PyCFunction)(void (*)(void))boards, METH_FASTCALL,
     "geometry.boards(occ, near, rise, high, width, depth, kinds) packed, given floor_layer(width, depth)."},
    {"spots", (PyCFunction)(void (*)(void))spots, METH_FASTCALL,
     "A shape's spot masks and their popcount from its plan program, packed bounds and packed boards."},
    {"keys_shown", (PyCFunction)(void (*)(void))keys_shown, METH_FASTCALL,
     "Bit i: key program i (geometry.key_program) shows where the new block's plane bits newm touch."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_spots", "Block and Key's placement boards and spot masks on 64-bit words.", -1,
    module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__spots(void) {
    zero = PyLong_FromLong(0);
    if (zero == NULL) return NULL;
    return PyModule_Create(&module_def);
}
