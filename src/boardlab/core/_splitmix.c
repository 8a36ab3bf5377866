/* The narrow `Rng`'s SplitMix64 draws in C: the same stream as the Python methods in rng.py.
 *
 * Why: search bots draw several numbers per iteration (a shuffle per determinization, a draw per
 * playout step), and in Python each SplitMix step is a handful of big-integer operations (64-bit
 * values do not fit CPython's small ints); that was ~8% of a Cacao or Pocket Mars search. Built by
 * `make native` with the mypyc modules (src/boardlab/_compiled.py) and used only when that build is
 * current; otherwise rng.py's Python methods run, which are the reference (tests compare the two).
 *
 * `install(Rng)` puts method descriptors for next64, randbelow, random and shuffle on the class. They
 * read and write the instance's `state` slot. `randbelow` and `random` also serve the wide subclass
 * (which inherits them): for any instance that is not exactly an `Rng`, a draw is `self.next64()`.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

static PyObject *state_name;    /* "state" */
static PyObject *next64_name;   /* "next64" */
static PyTypeObject *narrow;    /* the class given to install() */
static PyObject *two64;         /* 2**64 */

static inline uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* The value of `v` (a new reference, NULL on an error already raised) as a uint64; consumes `v`. */
static int take_u64(PyObject *v, uint64_t *out) {
    if (v == NULL) return -1;
    uint64_t r = PyLong_AsUnsignedLongLong(v);
    Py_DECREF(v);
    if (r == (uint64_t)-1 && PyErr_Occurred()) return -1;
    *out = r;
    return 0;
}

static int get_state(PyObject *self, uint64_t *out) {
    return take_u64(PyObject_GetAttr(self, state_name), out);
}

static int set_state(PyObject *self, uint64_t s) {
    PyObject *v = PyLong_FromUnsignedLongLong(s);
    if (v == NULL) return -1;
    int r = PyObject_SetAttr(self, state_name, v);
    Py_DECREF(v);
    return r;
}

/* One 64-bit draw from any generator: inline for a narrow one, else its own next64(). */
static int draw(PyObject *self, uint64_t *state, int inline_ok, uint64_t *out) {
    if (inline_ok) {
        *out = splitmix(state);
        return 0;
    }
    return take_u64(PyObject_CallMethodNoArgs(self, next64_name), out);
}

/* A uniform index below n (1 <= n < 2**64) by rejection, exactly as Rng.randbelow. */
static int below(PyObject *self, uint64_t *state, int inline_ok, uint64_t n, uint64_t *out) {
    uint64_t limit = UINT64_MAX - ((0 - n) % n);  /* (0 - n) % n == 2**64 % n */
    uint64_t r;
    do {
        if (draw(self, state, inline_ok, &r) < 0) return -1;
    } while (r > limit);
    *out = r % n;
    return 0;
}

static PyObject *m_next64(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    uint64_t s;
    if (nargs != 0) {
        PyErr_SetString(PyExc_TypeError, "next64() takes no arguments");
        return NULL;
    }
    if (Py_TYPE(self) != narrow) {  /* not reached: the wide class overrides next64 */
        PyErr_SetString(PyExc_TypeError, "native next64 is for the narrow Rng only");
        return NULL;
    }
    if (get_state(self, &s) < 0) return NULL;
    uint64_t r = splitmix(&s);
    if (set_state(self, s) < 0) return NULL;
    return PyLong_FromUnsignedLongLong(r);
}

static PyObject *m_randbelow(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "randbelow() takes exactly one argument");
        return NULL;
    }
    int overflow = 0;
    long long small = PyLong_AsLongLongAndOverflow(args[0], &overflow);
    if (small == -1 && PyErr_Occurred()) return NULL;
    if (overflow < 0 || (!overflow && small <= 0)) {
        PyErr_SetString(PyExc_ValueError, "randbelow needs n > 0");
        return NULL;
    }
    uint64_t n = overflow ? PyLong_AsUnsignedLongLong(args[0]) : (uint64_t)small;
    int whole = 0;  /* n == 2**64: every draw is accepted as it is, as in Python */
    if (n == (uint64_t)-1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return NULL;
        PyErr_Clear();
        int eq = PyObject_RichCompareBool(args[0], two64, Py_EQ);
        if (eq < 0) return NULL;
        if (!eq) {  /* the Python method would never accept a draw: refuse instead of looping */
            PyErr_SetString(PyExc_ValueError, "randbelow needs n <= 2**64");
            return NULL;
        }
        whole = 1;
    }
    int inline_ok = Py_TYPE(self) == narrow;
    uint64_t s = 0, r;
    if (inline_ok && get_state(self, &s) < 0) return NULL;
    if ((whole ? draw(self, &s, inline_ok, &r) : below(self, &s, inline_ok, n, &r)) < 0) return NULL;
    if (inline_ok && set_state(self, s) < 0) return NULL;
    return PyLong_FromUnsignedLongLong(r);
}

static PyObject *m_random(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 0) {
        PyErr_SetString(PyExc_TypeError, "random() takes no arguments");
        return NULL;
    }
    int inline_ok = Py_TYPE(self) == narrow;
    uint64_t s = 0, r;
    if (inline_ok && get_state(self, &s) < 0) return NULL;
    if (draw(self, &s, inline_ok, &r) < 0) return NULL;
    if (inline_ok && set_state(self, s) < 0) return NULL;
    return PyFloat_FromDouble((double)(r >> 11) * (1.0 / 9007199254740992.0));
}

static PyObject *m_shuffle(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "shuffle() takes exactly one argument");
        return NULL;
    }
    PyObject *seq = args[0];
    int inline_ok = Py_TYPE(self) == narrow;
    uint64_t s = 0, j;
    if (inline_ok && get_state(self, &s) < 0) return NULL;
    Py_ssize_t len = PySequence_Size(seq);
    if (len < 0) return NULL;
    for (Py_ssize_t i = len - 1; i > 0; i--) {
        if (below(self, &s, inline_ok, (uint64_t)i + 1, &j) < 0) return NULL;
        if (PyList_CheckExact(seq)) {
            if (i >= PyList_GET_SIZE(seq)) {
                PyErr_SetString(PyExc_RuntimeError, "the list changed size during shuffle");
                return NULL;
            }
            PyObject **items = ((PyListObject *)seq)->ob_item;
            PyObject *t = items[i];
            items[i] = items[j];
            items[j] = t;
        } else {  /* any mutable sequence: seq[i], seq[j] = seq[j], seq[i] */
            PyObject *a = PySequence_GetItem(seq, (Py_ssize_t)j);
            PyObject *b = a ? PySequence_GetItem(seq, i) : NULL;
            int bad = b == NULL || PySequence_SetItem(seq, i, a) < 0 ||
                      PySequence_SetItem(seq, (Py_ssize_t)j, b) < 0;
            Py_XDECREF(a);
            Py_XDECREF(b);
            if (bad) return NULL;
        }
    }
    if (inline_ok && set_state(self, s) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef methods_for_rng[] = {
    {"next64", (PyCFunction)(void (*)(void))m_next64, METH_FASTCALL, "The next 64-bit draw (SplitMix64)."},
    {"randbelow", (PyCFunction)(void (*)(void))m_randbelow, METH_FASTCALL,
     "Uniform integer in [0, n) (rejection sampling, no modulo bias)."},
    {"random", (PyCFunction)(void (*)(void))m_random, METH_FASTCALL, "Uniform float in [0, 1), 53 bits."},
    {"shuffle", (PyCFunction)(void (*)(void))m_shuffle, METH_FASTCALL, "Fisher-Yates in place."},
    {NULL, NULL, 0, NULL},
};

static PyObject *install(PyObject *module, PyObject *cls) {
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "install() needs the Rng class");
        return NULL;
    }
    for (PyMethodDef *def = methods_for_rng; def->ml_name != NULL; def++) {
        PyObject *descr = PyDescr_NewMethod((PyTypeObject *)cls, def);
        if (descr == NULL) return NULL;
        int r = PyObject_SetAttrString(cls, def->ml_name, descr);
        Py_DECREF(descr);
        if (r < 0) return NULL;
    }
    Py_XSETREF(narrow, (PyTypeObject *)Py_NewRef(cls));
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"install", install, METH_O, "Replace Rng's next64, randbelow, random and shuffle with these."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_splitmix", "SplitMix64 draws for boardlab.core.rng.Rng, in C.", -1,
    module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__splitmix(void) {
    state_name = PyUnicode_InternFromString("state");
    next64_name = PyUnicode_InternFromString("next64");
    two64 = PyLong_FromString("18446744073709551616", NULL, 10);
    if (state_name == NULL || next64_name == NULL || two64 == NULL) return NULL;
    return PyModule_Create(&module_def);
}
