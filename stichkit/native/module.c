/* stichkit.native._jass: the Python side of the Jass core (jass.h): the tables from the engine,
 * the solver (solver.c), the batched environment (batch.c), the ISMCTS search (ismcts.c), and
 * small hooks the tests use to check the core against the Python engine. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "jass.h"

/* solver.c */
PyObject *dds_legal(PyObject *, PyObject *);
PyObject *dds_solve(PyObject *, PyObject *);
PyObject *dds_value(PyObject *, PyObject *);
PyObject *dds_bounds(PyObject *, PyObject *);
PyObject *dds_nodes(PyObject *, PyObject *);
PyObject *dds_halves(PyObject *, PyObject *);
PyObject *dds_race(PyObject *, PyObject *);
PyObject *dds_clear(PyObject *, PyObject *);
PyObject *dds_brute(PyObject *, PyObject *);
PyObject *dds_tune(PyObject *, PyObject *);
/* batch.c */
extern PyTypeObject BatchType;
/* ismcts.c */
PyObject *ismcts_search(PyObject *, PyObject *);
PyObject *ismcts_determinizations(PyObject *, PyObject *);

/* n numbers from a Python sequence: into ints (when `ints`) or 64-bit masks (when `masks`). */
static int read_numbers(PyObject *seq, Py_ssize_t n, const char *what, int *ints, u64 *masks) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd entries", what, n);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, i);
        if (ints) {
            long v = PyLong_AsLong(item);
            if (v == -1 && PyErr_Occurred()) break;
            ints[i] = (int)v;
        } else {
            unsigned long long v = PyLong_AsUnsignedLongLong(item);
            if (v == (unsigned long long)-1 && PyErr_Occurred()) break;
            masks[i] = (u64)v;
        }
    }
    Py_DECREF(fast);
    return PyErr_Occurred() ? -1 : 0;
}

static int read_ints(PyObject *seq, int *out, Py_ssize_t n, const char *what) {
    return read_numbers(seq, n, what, out, NULL);
}

static int read_masks(PyObject *seq, u64 *out, Py_ssize_t n, const char *what) {
    return read_numbers(seq, n, what, NULL, out);
}

/* Item i of a sequence, read as ints or masks. */
static int read_row(PyObject *seq, Py_ssize_t i, int *ints, u64 *masks, Py_ssize_t n, const char *what) {
    PyObject *row = PySequence_GetItem(seq, i);
    if (!row) return -1;
    int rc = read_numbers(row, n, what, ints, masks);
    Py_DECREF(row);
    return rc;
}

/* init(strength, points, trumps_above, suit_mask, bour_bit, trump_order, last_bonus, match_bonus,
 *      stoeck_pair, stoeck_points, start_card, profiles): the engine's tables. `profiles` holds
 *      (sequence_points, four_points, tie_nearer, match_voids, trump_modes) for seed, schieber. */
static PyObject *jass_init(PyObject *self, PyObject *args) {
    PyObject *strength, *points, *tabove, *suitm, *bour, *torder, *pair, *profiles;
    int last, match, stoeck, start;
    if (!PyArg_ParseTuple(args, "OOOOOOiiOiiO", &strength, &points, &tabove, &suitm, &bour, &torder, &last, &match,
                          &pair, &stoeck, &start, &profiles))
        return NULL;
    JTables *t = &JT;
    for (int m = 0; m < 6; m++) {
        PyObject *row = PySequence_GetItem(strength, m);
        if (!row) return NULL;
        for (int l = 0; l < 4; l++)
            if (read_row(row, l, t->str[m][l], NULL, 36, "strength")) {
                Py_DECREF(row);
                return NULL;
            }
        Py_DECREF(row);
        if (read_row(points, m, t->pts[m], NULL, 36, "points")) return NULL;
    }
    for (int s = 0; s < 4; s++)
        if (read_row(tabove, s, NULL, t->tabove[s], 36, "trumps_above")) return NULL;
    if (read_masks(suitm, t->suitm, 4, "suit_mask") || read_masks(bour, t->bourb, 4, "bour_bit") ||
        read_ints(torder, t->trump_order, 9, "trump_order") || read_masks(pair, t->stoeck_pair, 4, "stoeck_pair"))
        return NULL;
    t->last_bonus = last;
    t->match_bonus = match;
    t->stoeck_pts = stoeck;
    t->start_card = start;
    if (PySequence_Size(profiles) != 2) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "profiles: (seed, schieber)");
        return NULL;
    }
    for (int p = 0; p < 2; p++) {
        PyObject *prof = PySequence_GetItem(profiles, p);
        if (!prof) return NULL;
        int flags[3];
        PyObject *rest = PySequence_GetSlice(prof, 2, 5);
        int rc = !rest || read_row(prof, 0, t->prof[p].sequence_points, NULL, 10, "sequence_points") ||
                 read_row(prof, 1, t->prof[p].four_points, NULL, 9, "four_points") ||
                 read_ints(rest, flags, 3, "profile flags");
        Py_XDECREF(rest);
        Py_DECREF(prof);
        if (rc) return NULL;
        t->prof[p].tie_nearer = flags[0];
        t->prof[p].match_voids = flags[1];
        t->prof[p].trump_modes = flags[2];
    }
    for (int m = 0; m < 6; m++)
        for (int s = 0; s < 4; s++) {
            int k = 0;
            for (int c = 0; c < 36; c++)
                if (t->suitm[s] >> c & 1) t->order[m][s][k++] = c;
            if (k != 9) {
                PyErr_SetString(PyExc_ValueError, "suit_mask: a suit must have nine cards");
                return NULL;
            }
            for (int i = 1; i < 9; i++) /* weakest first, by the strength when this suit is led */
                for (int j = i; j > 0 && t->str[m][s][t->order[m][s][j]] < t->str[m][s][t->order[m][s][j - 1]]; j--) {
                    int x = t->order[m][s][j];
                    t->order[m][s][j] = t->order[m][s][j - 1];
                    t->order[m][s][j - 1] = x;
                }
        }
    for (int m = 0; m < 6; m++) {
        int seen[16], k = 0;
        for (int c = 0; c < 36; c++) {
            int j = 0;
            while (j < k && seen[j] != t->pts[m][c]) j++;
            if (j == k) {
                if (k == 15) {
                    PyErr_SetString(PyExc_ValueError, "points: at most 15 different card values per mode");
                    return NULL;
                }
                seen[k++] = t->pts[m][c];
            }
            t->pidx[m][c] = j;
        }
    }
    jt_ready = 1;
    Py_RETURN_NONE;
}

/* -- hooks for the tests: each piece of the core, called from Python ----------------------------- */

static PyObject *masks_tuple(const u64 *m, int n) {
    PyObject *out = PyTuple_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromUnsignedLongLong(m[i]);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, v);
    }
    return out;
}

/* deal_hands(seed, number) -> four hands, as stichkit.games.jass.state.deal_hands */
static PyObject *jass_deal_hands(PyObject *self, PyObject *args) {
    long long seed, number;
    if (!PyArg_ParseTuple(args, "LL", &seed, &number)) return NULL;
    u64 h[4];
    jd_deal_hands(seed, number, h);
    return masks_tuple(h, 4);
}

/* random_draws(seed, ks) -> [random.Random(seed).getrandbits(k) for k in ks] (k <= 64), and with
 * k < 0: ._randbelow(-k), what choice() takes. */
static PyObject *jass_random_draws(PyObject *self, PyObject *args) {
    unsigned long long seed;
    PyObject *ks;
    if (!PyArg_ParseTuple(args, "KO", &seed, &ks)) return NULL;
    PyObject *fast = PySequence_Fast(ks, "ks must be a sequence");
    if (!fast) return NULL;
    PyRandom r;
    pr_seed(&r, seed);
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    PyObject *out = PyList_New(n);
    for (Py_ssize_t i = 0; out && i < n; i++) {
        long k = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (PyErr_Occurred() || k == 0 || k > 64 || k < -1000000) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "k: 1..64, or -n for randbelow(n)");
            Py_CLEAR(out);
            break;
        }
        u64 v = k > 0 ? pr_getrandbits(&r, (int)k) : (u64)pr_below(&r, (int)-k);
        PyList_SET_ITEM(out, i, PyLong_FromUnsignedLongLong(v));
    }
    Py_DECREF(fast);
    return out;
}

/* best_weis(hand, profile) -> ((points, cards, length, top, suit), ...), as weis.best_weis */
static PyObject *jass_best_weis(PyObject *self, PyObject *args) {
    unsigned long long hand;
    int prof;
    if (!PyArg_ParseTuple(args, "Ki", &hand, &prof)) return NULL;
    if (prof < 0 || prof > 1 || !jt_ready) {
        PyErr_SetString(PyExc_ValueError, "profile 0 (seed) or 1 (schieber), after init");
        return NULL;
    }
    JWeis w[MAX_WEIS];
    int8_t n;
    jg_best_weis(hand, &JT.prof[prof], w, &n);
    PyObject *out = PyTuple_New(n);
    for (int i = 0; out && i < n; i++)
        PyTuple_SET_ITEM(out, i, Py_BuildValue("(iKiii)", w[i].points, (unsigned long long)w[i].cards, w[i].length,
                                               w[i].top, w[i].suit));
    return out;
}

/* scoring_teams(hands, trump, forehand, profile) -> bitmask of the teams whose best Weis score */
static PyObject *jass_scoring_teams(PyObject *self, PyObject *args) {
    PyObject *hands;
    int trump, forehand, prof;
    if (!PyArg_ParseTuple(args, "Oiii", &hands, &trump, &forehand, &prof)) return NULL;
    u64 h[4];
    if (read_masks(hands, h, 4, "hands")) return NULL;
    if (prof < 0 || prof > 1 || forehand < 0 || forehand > 3 || trump < -1 || trump > 5) {
        PyErr_SetString(PyExc_ValueError, "profile 0-1, forehand 0-3, trump -1..5");
        return NULL;
    }
    JWeis w[4][MAX_WEIS];
    int8_t n[4];
    for (int s = 0; s < 4; s++) jg_best_weis(h[s], &JT.prof[prof], w[s], &n[s]);
    return PyLong_FromLong(jg_scoring_teams((const JWeis(*)[MAX_WEIS])w, n, trump, forehand, &JT.prof[prof]));
}

/* choose_trump(hand, legal) -> the heuristic's trump action id (or push) */
static PyObject *jass_choose_trump(PyObject *self, PyObject *args) {
    unsigned long long hand, legal;
    if (!PyArg_ParseTuple(args, "KK", &hand, &legal)) return NULL;
    return PyLong_FromLong(jh_choose_trump(hand, legal));
}

/* deal_constrained(cards, allowed, need, seed) -> hands, or None when no deal exists */
static PyObject *jass_deal_constrained(PyObject *self, PyObject *args) {
    PyObject *cards, *allowed, *need;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OOOK", &cards, &allowed, &need, &seed)) return NULL;
    Py_ssize_t nc = PySequence_Size(cards), np = PySequence_Size(need);
    if (nc < 0 || np < 0) return NULL;
    if (nc > 36 || np < 1 || np > 3) {
        PyErr_SetString(PyExc_ValueError, "at most 36 cards, 1-3 players");
        return NULL;
    }
    int c[36], a[36], nd[3];
    if (read_ints(cards, c, nc, "cards") || read_ints(allowed, a, nc, "allowed") || read_ints(need, nd, np, "need"))
        return NULL;
    u64 rng = seed, hands[3];
    if (jd_deal_constrained(c, a, (int)nc, nd, (int)np, &rng, hands)) Py_RETURN_NONE;
    return masks_tuple(hands, (int)np);
}

static PyMethodDef methods[] = {
    {"init", jass_init, METH_VARARGS, "Take the rule tables from the Python engine."},
    {"solve", dds_solve, METH_VARARGS, "Team 0's margin after each legal card: [(card, margin)]."},
    {"value", dds_value, METH_VARARGS, "The position's value and one card reaching it: (card, margin)."},
    {"bounds", dds_bounds, METH_VARARGS, "Bounds at most `within` apart on team 0's margin after each legal card."},
    {"legal", dds_legal, METH_VARARGS, "legal_cards(hand, n, led, mode, ref), as the core sees it."},
    {"nodes", dds_nodes, METH_NOARGS, "Nodes searched by the calling thread's last solve."},
    {"halves", dds_halves, METH_NOARGS, "Nodes and CPU seconds of each half of the last value(threads=2)."},
    {"clear", dds_clear, METH_NOARGS, "Forget the transposition tables (for timing a solve from scratch)."},
    {"race", dds_race, METH_VARARGS, "Who reaches the target first after each legal card: [(card, +1/0/-1)]."},
    {"brute", dds_brute, METH_VARARGS, "Plain minimax for tests, at most 4 tricks left: [(card, margin)]."},
    {"tune", dds_tune, METH_VARARGS, "Switch a technique of the solver on or off (to measure it)."},
    {"search", ismcts_search, METH_VARARGS, "ISMCTS from one seat's information set: (action, stats)."},
    {"determinizations", ismcts_determinizations, METH_VARARGS, "The search's worlds for one seat (for tests)."},
    {"deal_hands", jass_deal_hands, METH_VARARGS, "The engine's deal number n of a seed."},
    {"random_draws", jass_random_draws, METH_VARARGS, "Draws of random.Random(seed), for the tests."},
    {"best_weis", jass_best_weis, METH_VARARGS, "A hand's Weis, as the engine finds them."},
    {"scoring_teams", jass_scoring_teams, METH_VARARGS, "The teams whose Weis score, as a bitmask."},
    {"choose_trump", jass_choose_trump, METH_VARARGS, "The heuristic's trump choice for a hand."},
    {"deal_constrained", jass_deal_constrained, METH_VARARGS, "sample_hidden's constrained deal."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_jass", "The Jass rules core in C (see jass.h).", -1,
                                    methods};

PyMODINIT_FUNC PyInit__jass(void) {
    if (PyType_Ready(&BatchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    /* What the Python side calls: raised when a call's arguments change (2: the multipliers;
     * 3: announced Weis and Stöck, the options' weis and stoeck as 0-2, the sayings among the actions;
     * 4: the solver's value(threads) and halves()). */
    if (PyModule_AddIntConstant(m, "ABI", 4) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&BatchType);
    if (PyModule_AddObject(m, "Batch", (PyObject *)&BatchType) < 0) {
        Py_DECREF(&BatchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
