/* Many Jass games stepped together (stichkit.rl's batched environments): one call advances every
 * game by one action and writes each game's observations (the layout of stichkit.rl.jass's
 * encoder, the same values) and legal masks into numpy arrays, without a Python loop over games.
 *
 * Two uses:
 * - one seat learns, `random` bots play the others (StichkitVectorEnv): the bots draw from
 *   CPython's Mersenne Twister exactly as stichkit.bots.RandomBot does (its sayings, under
 *   weis="announce" or stoeck="announce", decided as every bot does: jh_saying), and the seeds follow from
 *   each game's seed exactly as SeatGame.reset draws them, so a game here is move for move the
 *   game the Python environment plays from the same seed;
 * - every seat is an agent (the PettingZoo parallel environment): the acting seat's action is
 *   applied, the others' are ignored (their masks are all zero).
 *
 * The arrays are the caller's (any object with a writable C-contiguous buffer): Batch keeps views
 * of them, so the caller reads them after each call without copying.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>

#include "jass.h"

enum {
    F_HAND, F_PHASE, F_TO_MOVE, F_FOREHAND, F_TRUMP, F_CHOOSER, F_PUSHED, F_PROFILE, F_TRICK, F_LEADER, F_PLAYED,
    F_WHEN, F_TRICKS, F_WON, F_DEAL_PTS, F_CANNOT, F_SIZES, F_WEIS, F_WEIS_PTS, F_WEIS_BY, F_STOECK, F_SCORES,
    F_DEAL, F_MULTS, F_MULT, /* -1 when the game counts every deal once */
    F_ANNOUNCED, F_ANNOUNCED_PTS, F_OWN_WEIS, F_OWN_WEIS_PTS, F_MAY_WEIS, /* -1 unless weis="announce" */
    F_MAY_STOECK, N_FIELDS                                                /* -1 unless stoeck="announce" */
};
#define MAX_FACTOR 20.0 /* stichkit.games.jass.multipliers */
#define MAX_DEAL_POINTS 257.0 /* stichkit.rl.jass */
#define MAX_WEIS_POINTS 500.0

typedef struct {
    PyObject_HEAD int n, k; /* games; seats observed and acted for, per game (1 or 4) */
    int seats[4];           /* those seats */
    int slot[4];            /* seat -> its index in seats, or -1: a `random` bot plays it */
    int bot_fixed[4];       /* the bot's spec names its seed (bot_seed), else it is drawn */
    u64 bot_seed[4];
    int seatgame; /* seeds as SeatGame.reset draws them; else the seed is the game's */
    int shaping;
    double scale;
    int prof, weis, stoeck, lowp, first_forehand, target;
    int nact; /* the game's actions: 43, 44 with announced Weis, 45 with announced Stöck */
    int mults[6];
    int size, off[N_FIELDS];
    JGame *g;
    PyRandom *bot_rng; /* per game and seat */
    u64 *next_seed;    /* the seed the game's generator gives its next game (SeatGame's rng) */
    double *reached;              /* per game and seat: the reward paid so far (Rewards.reached) */
    long long *game_seed;
    u64 *seed_used; /* the seed each game was last started from */
    Py_buffer obs, mask, rewards, terminated, illegal, final_obs;
    int have_buffers;
} Batch;

static inline float unit(double x, double top) {
    if (x <= 0) return 0.0f;
    return x >= top ? 1.0f : (float)(x / top);
}

/* stichkit.rl.jass.JassEncoder._write for seat `me`, into a zeroed row. */
static void encode(const Batch *b, const JGame *g, int me, float *out) {
    const int *o = b->off;
    memset(out, 0, sizeof(float) * (size_t)b->size);
    int phase = g->phase == PH_DEALT ? PH_PLAY : g->phase;
    out[o[F_PHASE] + phase] = 1.0f;
    for (u64 x = g->hands[me]; x; x &= x - 1) out[o[F_HAND] + lowbit(x)] = 1.0f;
    if (g->phase != PH_OVER) out[o[F_TO_MOVE] + ((me - g->player) & 3)] = 1.0f;
    out[o[F_FOREHAND] + ((me - g->forehand) & 3)] = 1.0f;
    if (g->trump >= 0) out[o[F_TRUMP] + g->trump] = 1.0f;
    if (g->chooser >= 0) out[o[F_CHOOSER] + ((me - g->chooser) & 3)] = 1.0f;
    if (g->pushed) out[o[F_PUSHED]] = 1.0f;
    if (g->prof == 1) out[o[F_PROFILE]] = 1.0f;
    int won[4] = {0, 0, 0, 0};
    for (int t = 0; t < g->ntricks; t++) {
        int lead_rel = me - g->tleader[t];
        float when = (float)((t + 1) / 9.0);
        for (int k = 0; k < 4; k++) {
            int c = g->tcards[t][k];
            out[o[F_PLAYED] + ((lead_rel + k) & 3) * 36 + c] = 1.0f;
            out[o[F_WHEN] + c] = when;
        }
        won[(me - g->twinner[t]) & 3]++;
    }
    float when = (float)((g->ntricks + 1) / 9.0);
    for (int k = 0; k < g->ntrick; k++) {
        int c = g->trick[k], seat = (g->leader - k) & 3;
        out[o[F_TRICK] + k * 36 + c] = 1.0f;
        out[o[F_PLAYED] + ((me - seat) & 3) * 36 + c] = 1.0f;
        out[o[F_WHEN] + c] = when;
    }
    if (g->ntrick) out[o[F_LEADER] + ((me - g->leader) & 3)] = 1.0f;
    out[o[F_TRICKS]] = (float)(g->ntricks / 9.0);
    for (int r = 0; r < 4; r++)
        if (won[r]) out[o[F_WON] + r] = (float)(won[r] / 9.0);
    int team = me & 1;
    out[o[F_DEAL_PTS]] = unit(jg_deal_points(g, team), MAX_DEAL_POINTS);
    out[o[F_DEAL_PTS] + 1] = unit(jg_deal_points(g, team ^ 1), MAX_DEAL_POINTS);
    for (int s = 0; s < 4; s++) {
        float *row = out + o[F_CANNOT] + ((me - s) & 3) * 36;
        for (u64 x = g->voids[s]; x; x &= x - 1) row[lowbit(x)] = 1.0f;
        out[o[F_SIZES] + ((me - s) & 3)] = (float)(popc(g->hands[s]) / 9.0);
    }
    int wp[2] = {0, 0};
    int8_t counted[4];
    jg_counted(g, counted);
    if (g->weis_teams >= 0)
        for (int s = 0; s < 4; s++) {
            if (!(g->weis_teams >> (s & 1) & 1)) continue;
            float *row = out + o[F_WEIS] + ((me - s) & 3) * 36;
            for (int i = 0; i < counted[s]; i++) {
                for (u64 x = g->weis[s][i].cards; x; x &= x - 1) row[lowbit(x)] = 1.0f;
                wp[(s & 1) == team ? 0 : 1] += g->weis[s][i].points;
            }
        }
    out[o[F_WEIS_PTS]] = unit(wp[0], MAX_WEIS_POINTS);
    out[o[F_WEIS_PTS] + 1] = unit(wp[1], MAX_WEIS_POINTS);
    if (g->weis_teams >= 0) {
        out[o[F_WEIS_BY]] = 1.0f;
        for (int t = 0; t < 2; t++)
            if (g->weis_teams >> t & 1) out[o[F_WEIS_BY] + (t == team ? 1 : 2)] = 1.0f;
    }
    /* shown once scored: a Stöck played in silence (stoeck="announce") is done, and lost */
    if (g->stoeck_done && g->tally[T_STOECK + (g->stoeck_seat & 1)])
        out[o[F_STOECK] + ((me - g->stoeck_seat) & 3)] = 1.0f;
    out[o[F_SCORES]] = unit(g->scores[team], g->target);
    out[o[F_SCORES] + 1] = unit(g->scores[team ^ 1], g->target);
    out[o[F_DEAL]] = unit(g->deal_no, 20);
    if (o[F_MULTS] >= 0) {
        for (int m = 0; m < 6; m++) out[o[F_MULTS] + m] = unit(g->mults[m], MAX_FACTOR);
        if (g->trump >= 0) out[o[F_MULT]] = unit(g->mult, MAX_FACTOR);
    }
    if (o[F_ANNOUNCED] >= 0) { /* JassEncoder._write_announced: what was said, and the observer's own Weis */
        for (int s = 0; s < 4; s++) {
            if (!(g->said >> s & 1) || !g->nweis[s]) continue;
            int pts = 0;
            for (int i = 0; i < g->nweis[s]; i++) pts += g->weis[s][i].points;
            out[o[F_ANNOUNCED] + ((me - s) & 3)] = 1.0f;
            out[o[F_ANNOUNCED_PTS] + ((me - s) & 3)] = unit(pts, MAX_WEIS_POINTS);
        }
        if (g->nweis[me]) {
            int pts = 0;
            for (int i = 0; i < g->nweis[me]; i++) {
                for (u64 x = g->weis[me][i].cards; x; x &= x - 1) out[o[F_OWN_WEIS] + lowbit(x)] = 1.0f;
                pts += g->weis[me][i].points;
            }
            out[o[F_OWN_WEIS_PTS]] = unit(pts, MAX_WEIS_POINTS);
            int mine_in_trick = 0; /* announced with the first card of the deal: not once it is played */
            for (int k = 0; k < g->ntrick; k++) mine_in_trick |= ((g->leader - k) & 3) == me;
            if (!(g->said >> me & 1) && !g->ntricks && !mine_in_trick && g->phase == PH_PLAY)
                out[o[F_MAY_WEIS]] = 1.0f;
        }
    }
    if (o[F_MAY_STOECK] >= 0 && g->phase == PH_PLAY && g->trump >= 0 && g->trump < 4) {
        u64 pair = JT.stoeck_pair[g->trump]; /* dealt trump King and Queen, one still in hand */
        if ((g->start[me] & pair) == pair && g->hands[me] & pair) out[o[F_MAY_STOECK]] = 1.0f;
    }
}

/* Apply an action; deal the next deal when one ends without ending the game. */
static inline void apply(const Batch *b, int i, int a) {
    JGame *g = &b->g[i];
    jg_apply(g, a);
    if (g->phase == PH_DEALT) {
        u64 h[4];
        jd_deal_hands(b->game_seed[i], g->deal_no + 1, h);
        jg_start_deal(g, h);
    }
}

/* stichkit.rl.rewards: each seat's potential (half its team's score margin over the scale). */
static inline double potential(const JGame *g, int seat, double scale) {
    double m = (double)(g->scores[seat & 1] - g->scores[(seat + 1) & 1]) / scale;
    return 0.5 * (m < -1.0 ? -1.0 : m > 1.0 ? 1.0 : m);
}

/* Rewards.step: every seat's reward since the last call, into out[4]. */
static void reward_step(const Batch *b, int i, double *out) {
    const JGame *g = &b->g[i];
    double *reached = b->reached + 4 * i;
    for (int s = 0; s < 4; s++) {
        double now;
        if (g->phase == PH_OVER)
            now = (s & 1) == g->winner ? 1.0 : -1.0;
        else if (!b->shaping) {
            out[s] = 0.0;
            continue;
        } else
            now = potential(g, s, b->scale);
        out[s] = now - reached[s];
        reached[s] = now;
    }
}

/* SeatGame.advance: the bots play until an agent's turn or the game's end; the rewards they
 * earn each agent seat are added to total[] (in the order Python adds them). */
static void advance(const Batch *b, int i, double *total) {
    JGame *g = &b->g[i];
    double r[4];
    for (;;) {
        if (g->phase == PH_OVER || b->slot[g->player] >= 0) break;
        u64 legal = jg_legal(g);
        int said = legal & SAYINGS ? jh_saying(g, legal) : -1; /* RandomBot: sayings as every bot, no draw */
        if (said >= 0) {
            apply(b, i, said);
        } else {
            legal &= ~SAYINGS;
            int k = pr_below(&b->bot_rng[4 * i + g->player], popc(legal));
            while (k--) legal &= legal - 1;
            apply(b, i, lowbit(legal));
        }
        if (b->shaping) {
            reward_step(b, i, r);
            for (int s = 0; s < 4; s++) total[s] += r[s];
        }
    }
    if (g->phase == PH_OVER && !b->shaping) {
        reward_step(b, i, r);
        for (int s = 0; s < 4; s++) total[s] += r[s];
    }
}

/* A new game from `seed` (SeatGame.reset, or the game's own seed), the bots' moves played. */
static void reset_game(Batch *b, int i, u64 seed) {
    long long game_seed = (long long)seed;
    b->seed_used[i] = seed;
    if (b->seatgame) { /* SeatGame.reset: random.Random(seed) gives the deal's seed, then each bot's */
        PyRandom rng;
        pr_seed(&rng, seed);
        game_seed = (long long)pr_getrandbits(&rng, 63);
        for (int s = 0; s < 4; s++) {
            if (b->slot[s] >= 0) continue;
            u64 drawn = pr_getrandbits(&rng, 63);
            pr_seed(&b->bot_rng[4 * i + s], b->bot_fixed[s] ? b->bot_seed[s] : drawn);
        }
        b->next_seed[i] = pr_getrandbits(&rng, 62); /* its next draw: the seed of the next game */
    }
    b->game_seed[i] = game_seed;
    JGame *g = &b->g[i];
    jg_new(g, b->prof, b->weis, b->stoeck, b->lowp, b->first_forehand, b->target);
    jg_set_multipliers(g, b->mults); /* checked when the batch was made */
    u64 h[4];
    jd_deal_hands(game_seed, 0, h);
    jg_start_deal(g, h);
    for (int s = 0; s < 4; s++) b->reached[4 * i + s] = b->shaping ? potential(g, s, b->scale) : 0.0;
    double ignored[4] = {0, 0, 0, 0};
    advance(b, i, ignored);
}

/* Observations and masks of game i, for each agent seat. */
static void observe(const Batch *b, int i) {
    const JGame *g = &b->g[i];
    float *obs = (float *)b->obs.buf + (size_t)i * b->k * b->size;
    int8_t *mask = (int8_t *)b->mask.buf + (size_t)i * b->k * b->nact;
    u64 legal = jg_legal(g);
    for (int j = 0; j < b->k; j++) {
        int me = b->seats[j];
        encode(b, g, me, obs + (size_t)j * b->size);
        int8_t *m = mask + j * b->nact;
        int mine = g->phase != PH_OVER && g->player == me;
        for (int a = 0; a < b->nact; a++) m[a] = mine ? (int8_t)(legal >> a & 1) : 0;
    }
}

static int get_buffer(PyObject *o, Py_buffer *view, Py_ssize_t bytes, const char *what) {
    if (PyObject_GetBuffer(o, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (view->len != bytes) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd bytes, got %zd", what, bytes, view->len);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static void Batch_dealloc(Batch *b) {
    if (b->have_buffers) {
        PyBuffer_Release(&b->obs);
        PyBuffer_Release(&b->mask);
        PyBuffer_Release(&b->rewards);
        PyBuffer_Release(&b->terminated);
        PyBuffer_Release(&b->illegal);
        PyBuffer_Release(&b->final_obs);
    }
    free(b->g);
    free(b->next_seed);
    free(b->bot_rng);
    free(b->reached);
    free(b->game_seed);
    free(b->seed_used);
    Py_TYPE(b)->tp_free((PyObject *)b);
}

/* Batch(n, seats, bots, options, shaping, offsets, size, obs, mask, rewards, terminated, illegal,
 *       final_obs)
 *   seats: the agent seats (one, or all four); bots: for each seat None (an agent), -1 (a
 *   `random` bot seeded as SeatGame draws it) or its seed; options: (profile 0/1,
 *   weis 0-2 (off, auto, announce), stoeck 0-2 (off, on, announce), lowest_plain, first_forehand -1..3,
 *   target, multipliers); offsets: the encoder's field offsets in the order of this file's F_ names
 *   (-1: not in this game's layout); the arrays: float32 (n, k, size), int8 (n, k, the game's 43-45
 *   actions),
 *   float64 (n, k), bool (n), bool (n), float32 (n, k, size). */
static int Batch_init(Batch *b, PyObject *args, PyObject *kw) {
    int n, shaping, size;
    PyObject *seats, *bots, *options, *offsets, *obs, *mask, *rewards, *terminated, *illegal, *final_obs;
    if (!PyArg_ParseTuple(args, "iOOOpOiOOOOOO", &n, &seats, &bots, &options, &shaping, &offsets, &size, &obs, &mask,
                          &rewards, &terminated, &illegal, &final_obs))
        return -1;
    if (!jt_ready) {
        PyErr_SetString(PyExc_RuntimeError, "the Jass tables are not loaded: import stichkit.native");
        return -1;
    }
    if (n < 1 || n > 1 << 24 || size < 1) {
        PyErr_SetString(PyExc_ValueError, "n: 1 to 2**24 games; size > 0");
        return -1;
    }
    PyObject *fast = PySequence_Fast(seats, "seats must be a sequence");
    if (!fast) return -1;
    b->k = (int)PySequence_Fast_GET_SIZE(fast);
    for (int s = 0; s < 4; s++) b->slot[s] = -1;
    for (int j = 0; j < b->k && j < 4; j++) {
        long s = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, j));
        if (s < 0 || s > 3 || b->slot[s] >= 0) {
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "seats: distinct seats 0-3");
            return -1;
        }
        b->seats[j] = (int)s;
        b->slot[s] = j;
    }
    Py_DECREF(fast);
    if (b->k != 1 && b->k != 4) {
        PyErr_SetString(PyExc_ValueError, "seats: one seat, or all four");
        return -1;
    }
    fast = PySequence_Fast(bots, "bots must be a sequence of four");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != 4) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "bots: one entry per seat");
        return -1;
    }
    for (int s = 0; s < 4; s++) {
        PyObject *x = PySequence_Fast_GET_ITEM(fast, s);
        b->bot_fixed[s] = 0;
        if (x == Py_None) {
            if (b->slot[s] < 0) PyErr_Format(PyExc_ValueError, "bots: seat %d is neither an agent nor a bot", s);
        } else if (b->slot[s] >= 0) {
            PyErr_Format(PyExc_ValueError, "bots: seat %d is an agent", s);
        } else {
            long long v = PyLong_AsLongLong(x);
            if (v >= 0) {
                b->bot_fixed[s] = 1;
                b->bot_seed[s] = (u64)v;
            }
        }
        if (PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    int opt[6];
    fast = PySequence_Fast(options, "options must be a sequence");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != 7) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError,
                        "options: (profile, weis, stoeck, lowest_plain, first_forehand, target, multipliers)");
        return -1;
    }
    for (int j = 0; j < 6; j++) opt[j] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, j));
    PyObject *factors = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, 6), "multipliers must be a sequence");
    Py_DECREF(fast);
    if (!factors) return -1;
    int ok = PySequence_Fast_GET_SIZE(factors) == 6;
    for (int m = 0; ok && m < 6; m++) {
        b->mults[m] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(factors, m));
        ok = !PyErr_Occurred() && b->mults[m] >= 1 && b->mults[m] <= 127;
    }
    Py_DECREF(factors);
    if (PyErr_Occurred()) return -1;
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "options: multipliers are six factors 1-127, one per trump mode");
        return -1;
    }
    if (opt[0] < 0 || opt[0] > 1 || opt[1] < 0 || opt[1] > 2 || opt[2] < 0 || opt[2] > 2 || opt[4] < -1 ||
        opt[4] > 3 || opt[5] < 1) {
        PyErr_SetString(PyExc_ValueError,
                        "options: profile 0/1, weis 0-2 (off, auto, announce), stoeck 0-2 (off, on, announce), "
                        "first_forehand -1..3, target >= 1");
        return -1;
    }
    b->prof = opt[0];
    b->weis = opt[1];
    b->stoeck = opt[2];
    b->nact = opt[2] == 2 ? 45 : opt[1] == 2 ? 44 : 43; /* the game's action table (actions.py) */
    b->lowp = opt[3] != 0;
    b->first_forehand = opt[4];
    b->target = opt[5];
    b->scale = (double)opt[5];
    b->shaping = shaping;
    b->seatgame = b->k == 1;
    fast = PySequence_Fast(offsets, "offsets must be a sequence");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != N_FIELDS) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "offsets: %d fields", N_FIELDS);
        return -1;
    }
    for (int j = 0; j < N_FIELDS; j++) b->off[j] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, j));
    Py_DECREF(fast);
    if (PyErr_Occurred()) return -1;
    b->size = size;
    b->n = n;
    Py_ssize_t rows = (Py_ssize_t)n * b->k;
    if (get_buffer(obs, &b->obs, rows * size * 4, "obs")) return -1;
    if (get_buffer(mask, &b->mask, rows * b->nact, "mask")) goto fail1;
    if (get_buffer(rewards, &b->rewards, rows * 8, "rewards")) goto fail2;
    if (get_buffer(terminated, &b->terminated, n, "terminated")) goto fail3;
    if (get_buffer(illegal, &b->illegal, n, "illegal")) goto fail4;
    if (get_buffer(final_obs, &b->final_obs, rows * size * 4, "final_obs")) goto fail5;
    b->have_buffers = 1;
    b->g = calloc((size_t)n, sizeof(JGame));
    b->next_seed = calloc((size_t)n, sizeof(u64));
    b->bot_rng = calloc((size_t)n * 4, sizeof(PyRandom));
    b->reached = calloc((size_t)n * 4, sizeof(double));
    b->game_seed = calloc((size_t)n, sizeof(long long));
    b->seed_used = calloc((size_t)n, sizeof(u64));
    if (!b->g || !b->next_seed || !b->bot_rng || !b->reached || !b->game_seed || !b->seed_used) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
fail5:
    PyBuffer_Release(&b->illegal);
fail4:
    PyBuffer_Release(&b->terminated);
fail3:
    PyBuffer_Release(&b->rewards);
fail2:
    PyBuffer_Release(&b->mask);
fail1:
    PyBuffer_Release(&b->obs);
    return -1;
}

static int check_ready(Batch *b) {
    if (!b->g) {
        PyErr_SetString(PyExc_RuntimeError, "Batch was not initialised");
        return -1;
    }
    return 0;
}

/* reset(seeds): game i starts anew from seeds[i] (0 <= seed < 2**64, the absolute value of the
 * Python seed: random.Random seeds with it). Writes the observations and masks. */
static PyObject *Batch_reset(Batch *b, PyObject *args) {
    PyObject *seeds;
    if (check_ready(b) || !PyArg_ParseTuple(args, "O", &seeds)) return NULL;
    PyObject *fast = PySequence_Fast(seeds, "seeds must be a sequence");
    if (!fast) return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != b->n) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "seeds: one per game (%d)", b->n);
        return NULL;
    }
    u64 *s = malloc(sizeof(u64) * (size_t)b->n);
    if (!s) {
        Py_DECREF(fast);
        return PyErr_NoMemory();
    }
    for (int i = 0; i < b->n; i++) {
        s[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (PyErr_Occurred()) break;
    }
    Py_DECREF(fast);
    if (PyErr_Occurred()) {
        free(s);
        return NULL;
    }
    double *rewards = (double *)b->rewards.buf;
    for (int i = 0; i < b->n; i++) {
        reset_game(b, i, s[i]);
        observe(b, i);
        for (int j = 0; j < b->k; j++) rewards[i * b->k + j] = 0.0;
        ((char *)b->terminated.buf)[i] = 0;
        ((char *)b->illegal.buf)[i] = 0;
    }
    free(s);
    Py_RETURN_NONE;
}

/* step(actions): actions is int64 (n, k): the action of each agent seat (only the acting seat's
 * counts). An illegal action ends its game with the worst return (the Gymnasium convention: the
 * PettingZoo environment checks before it steps). A game that ends is started again from its
 * seed generator's next seed (SeatGame), its last observation kept in final_obs; with every seat
 * an agent it stays over. Returns the number of games that ended. */
static PyObject *Batch_step(Batch *b, PyObject *args) {
    PyObject *actions;
    if (check_ready(b) || !PyArg_ParseTuple(args, "O", &actions)) return NULL;
    Py_buffer av;
    if (PyObject_GetBuffer(actions, &av, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return NULL;
    const char *fmt = av.format ? av.format : "";
    if (*fmt == '<' || *fmt == '=' || *fmt == '@') fmt++;
    if (av.len != (Py_ssize_t)b->n * b->k * 8 || av.itemsize != 8 || (strcmp(fmt, "q") && strcmp(fmt, "l"))) {
        PyBuffer_Release(&av);
        PyErr_Format(PyExc_ValueError, "actions: int64, one per game and agent seat (%d x %d)", b->n, b->k);
        return NULL;
    }
    const long long *act = (const long long *)av.buf;
    double *rewards = (double *)b->rewards.buf;
    char *term = (char *)b->terminated.buf, *bad = (char *)b->illegal.buf;
    int ended = 0;
    for (int i = 0; i < b->n; i++) {
        JGame *g = &b->g[i];
        double *reached = b->reached + 4 * i;
        double out[4] = {0, 0, 0, 0}, r[4];
        int illegal = 0;
        if (g->phase == PH_OVER) { /* every seat an agent: the game stays over until reset */
            for (int j = 0; j < b->k; j++) rewards[i * b->k + j] = 0.0;
            term[i] = 1;
            bad[i] = 0;
            continue;
        }
        int p = g->player, j = b->slot[p];
        long long a = act[i * b->k + j];
        if ((a < 0 || a >= b->nact || !(jg_legal(g) >> a & 1)) && !b->seatgame) {
            /* every seat an agent: the caller refuses an illegal action; nothing changes here */
            for (int q = 0; q < b->k; q++) rewards[i * b->k + q] = 0.0;
            term[i] = 0;
            bad[i] = 1;
            continue;
        }
        if (a < 0 || a >= b->nact || !(jg_legal(g) >> a & 1)) {
            illegal = 1;
            for (int s = 0; s < 4; s++) {
                out[s] = -1.0 - reached[s];
                reached[s] = -1.0;
            }
        } else {
            apply(b, i, (int)a);
            if (b->shaping || g->phase == PH_OVER) {
                reward_step(b, i, r);
                for (int s = 0; s < 4; s++) out[s] = r[s];
            }
            double total[4] = {0, 0, 0, 0};
            advance(b, i, total);
            for (int s = 0; s < 4; s++) out[s] += total[s];
        }
        for (int q = 0; q < b->k; q++) rewards[i * b->k + q] = out[b->seats[q]];
        int over = illegal || g->phase == PH_OVER;
        term[i] = (char)over;
        bad[i] = (char)illegal;
        if (over) {
            ended++;
            if (b->seatgame) {
                float *fin = (float *)b->final_obs.buf + (size_t)i * b->k * b->size;
                for (int q = 0; q < b->k; q++) encode(b, g, b->seats[q], fin + (size_t)q * b->size);
                reset_game(b, i, b->next_seed[i]);
            }
        }
        observe(b, i);
    }
    PyBuffer_Release(&av);
    return PyLong_FromLong(ended);
}

/* state(i): game i's fields, for the tests that check the core against the engine. */
static PyObject *Batch_state(Batch *b, PyObject *args) {
    int i;
    if (check_ready(b) || !PyArg_ParseTuple(args, "i", &i)) return NULL;
    if (i < 0 || i >= b->n) {
        PyErr_SetString(PyExc_IndexError, "no such game");
        return NULL;
    }
    const JGame *g = &b->g[i];
    PyObject *tricks = PyList_New(0), *trick = PyList_New(0);
    if (!tricks || !trick) {
        Py_XDECREF(tricks);
        Py_XDECREF(trick);
        return NULL;
    }
    for (int t = 0; t < g->ntricks; t++) {
        PyObject *x = Py_BuildValue("(i(iiii)i)", g->tleader[t], g->tcards[t][0], g->tcards[t][1], g->tcards[t][2],
                                    g->tcards[t][3], g->twinner[t]);
        if (!x || PyList_Append(tricks, x)) {
            Py_XDECREF(x);
            Py_DECREF(tricks);
            Py_DECREF(trick);
            return NULL;
        }
        Py_DECREF(x);
    }
    for (int k = 0; k < g->ntrick; k++) {
        PyObject *x = PyLong_FromLong(g->trick[k]);
        if (!x || PyList_Append(trick, x)) {
            Py_XDECREF(x);
            Py_DECREF(tricks);
            Py_DECREF(trick);
            return NULL;
        }
        Py_DECREF(x);
    }
    PyObject *weis = PyTuple_New(4); /* the Weis that count: every seat's, or those announced */
    int8_t counted[4];
    jg_counted(g, counted);
    for (int seat = 0; weis && seat < 4; seat++) {
        PyObject *row = PyTuple_New(counted[seat]);
        for (int k = 0; row && k < counted[seat]; k++)
            PyTuple_SET_ITEM(row, k, Py_BuildValue("(iK)", g->weis[seat][k].points,
                                                   (unsigned long long)g->weis[seat][k].cards));
        if (!row) Py_CLEAR(weis);
        else PyTuple_SET_ITEM(weis, seat, row);
    }
    if (!weis) {
        Py_DECREF(tricks);
        Py_DECREF(trick);
        return NULL;
    }
    return Py_BuildValue(
        "{s:N,s:i,s:i,s:(ii),s:i,s:i,s:i,s:i,s:i,s:i,s:(KKKK),s:(KKKK),s:N,s:N,s:(KKKK),s:(ii),s:(iiiiiiii),s:i,s:i,"
        "s:i,s:i,s:K,s:i,s:i,s:i,s:i,s:i}",
        "weis", weis, "phase", g->phase, "player", g->player, "scores", g->scores[0], g->scores[1], "winner", g->winner, "deal",
        g->deal_no, "forehand", g->forehand, "trump", g->trump, "chooser", g->chooser, "pushed", g->pushed, "hands",
        (unsigned long long)g->hands[0], (unsigned long long)g->hands[1], (unsigned long long)g->hands[2],
        (unsigned long long)g->hands[3], "start", (unsigned long long)g->start[0], (unsigned long long)g->start[1],
        (unsigned long long)g->start[2], (unsigned long long)g->start[3], "tricks", tricks, "trick", trick, "voids",
        (unsigned long long)g->voids[0], (unsigned long long)g->voids[1], (unsigned long long)g->voids[2],
        (unsigned long long)g->voids[3], "deal_tricks", g->deal_tricks[0], g->deal_tricks[1], "tally", g->tally[0],
        g->tally[1], g->tally[2], g->tally[3], g->tally[4], g->tally[5], g->tally[6], g->tally[7], "match", g->match,
        "weis_teams", g->weis_teams, "stoeck_seat", g->stoeck_seat, "stoeck_done", g->stoeck_done, "legal",
        (unsigned long long)jg_legal(g), "best_trump", g->best_trump, "leader", g->leader, "mult", g->mult,
        "said", g->said, "calling", g->calling);
}

/* seeds(): the seed each game was last started from (after an automatic reset: the one drawn). */
static PyObject *Batch_seeds(Batch *b, PyObject *noargs) {
    if (check_ready(b)) return NULL;
    PyObject *out = PyList_New(b->n);
    for (int i = 0; out && i < b->n; i++) {
        PyObject *v = PyLong_FromUnsignedLongLong(b->seed_used[i]);
        if (!v) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

static PyMethodDef Batch_methods[] = {
    {"seeds", (PyCFunction)Batch_seeds, METH_NOARGS, "The seed each game was last started from."},
    {"reset", (PyCFunction)Batch_reset, METH_VARARGS, "Start every game anew from its seed."},
    {"step", (PyCFunction)Batch_step, METH_VARARGS, "One action for every game; the number of games that ended."},
    {"state", (PyCFunction)Batch_state, METH_VARARGS, "Game i's fields (for tests)."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject BatchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "stichkit.native._jass.Batch",
    .tp_basicsize = sizeof(Batch),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Many Jass games stepped together (see batch.c).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Batch_init,
    .tp_dealloc = (destructor)Batch_dealloc,
    .tp_methods = Batch_methods,
};
