/* ISMCTS for Jass with its iterations in C: the search of stichkit.bots.ismcts, one call per
 * decision (single-observer ISMCTS, Cowling, Powley & Whitehouse 2012).
 *
 * The caller gives the game as one world the seat cannot tell from the real one (the bot's
 * `determinize`, i.e. `sample_hidden`), as the deal's start hands and its actions so far; the
 * search replays them on the core and never learns more about the real hands than that world
 * holds. Every further determinization is drawn here from the world by the rules of
 * JassState.sample_hidden: the cards the seat cannot see are dealt again at random to the other
 * seats, keeping hand sizes, every void the play has shown (the Bour exception and the undertrump
 * ban included, from the core's cannot_hold), the cards of shown Weis, the start card (D7) with
 * the first deal's forehand, and no hidden Weis better than the ones shown; under weis="announce"
 * a seat that announced a Weis holds one of the points it announced (placed first among the cards
 * it may hold, as sample_hidden's place_weis), a seat that stayed silent may hold one or not. So
 * what the search sees is a function of the seat's view and its random numbers.
 *
 * Sayings (weis="announce", stoeck="announce"): the root seat's own was decided before the search
 * by the bots' rule (stichkit.bots.announce), so the root offers cards only. Every other saying in
 * the tree and the playouts is made by that same rule (jh_saying: Stöck always called, a Weis
 * announced when it pays), not searched: it is how the other bots decide, and a random silence
 * would throw away the Stöck or Weis of half the playouts.
 *
 * Then as in Python: UCB over the actions available in each determinization (each child counts
 * how often it was available), one node added per iteration, random playouts to the end of the
 * deal (or game), each node credited with the reward of the seat that moved into it, and the
 * most visited root action chosen. After the root seat pushes, the partner's choice in each
 * world is the heuristic's (the C port of its trump choice) unless the tree is to decide.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "jass.h"

#define WIN_WEIGHT 0.7 /* stichkit.bots.ismcts */
#define MAX_NODES (1 << 22)
#define MAX_POOL 4096
#define SAMPLE_TRIES 50 /* JassState.sample_hidden (four times that when an announced Weis is placed) */
#define MAX_PATH 1024  /* nodes on one path (a game horizon goes through deals) */

typedef struct {
    int32_t first, next; /* the first child, the next sibling: -1 for none */
    int32_t n, avail;
    double w;
    int8_t action, player;
} Node;

typedef struct {
    JGame root;
    int seat, deal_horizon, push_heuristic;
    double c;
    long long max_iterations;
    double seconds; /* <= 0: no clock */
    int max_dets;
    u64 rng;
    /* the world's facts that every determinization keeps */
    u64 fixed[4], played[4];
    /* the tree */
    Node *nodes;
    int nn, cap;
    JGame *pool;
    int npool;
    double scale;
    long long iterations;
    double elapsed;
} Search;

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Deal the next deal of a playout at random (horizon "game"). */
static void deal_next(JGame *g, u64 *rng) {
    int order[36];
    for (int i = 0; i < 36; i++) {
        int j = sm_below(rng, i + 1);
        order[i] = order[j];
        order[j] = i;
    }
    u64 h[4] = {0, 0, 0, 0};
    for (int i = 0; i < 36; i++) h[i / 9] |= 1ull << order[i];
    jg_start_deal(g, h);
}

static int weis_equal(const JWeis *a, int na, const JWeis *b, int nb) {
    if (na != nb) return 0;
    for (int i = 0; i < na; i++)
        if (a[i].cards != b[i].cards || a[i].points != b[i].points || a[i].length != b[i].length ||
            a[i].top != b[i].top || a[i].suit != b[i].suit)
            return 0;
    return 1;
}

/* What every determinization keeps (JassState.sample_hidden): the start card with the first
 * deal's forehand, the cards of shown Weis, the cards each seat has played. (Stöck shown before
 * its cards were played ends the game when the core plays it, so no search starts there.) */
static void world_facts(Search *S) {
    const JGame *R = &S->root;
    memset(S->fixed, 0, sizeof S->fixed);
    if (R->deal_no == 0 && R->forehand != S->seat && R->first_forehand < 0)
        S->fixed[R->forehand] |= R->hands[R->forehand] & (1ull << JT.start_card);
    if (R->weis_teams >= 0)
        for (int s = 0; s < 4; s++)
            if (s != S->seat && R->weis_teams >> (s & 1) & 1)
                for (int i = 0; i < R->nweis[s]; i++) S->fixed[s] |= R->weis[s][i].cards & R->hands[s];
    for (int s = 0; s < 4; s++) S->played[s] = R->start[s] & ~R->hands[s];
}

/* sampling._stoeck_would_show: whether a world's Stöck is one the Ausmachregel would have shown
 * already (it finishes the game now, or would have at the first trick with that team's Weis and
 * the trick), at the deal's multiplier: the real game showed none, so the seat sees no such world. */
static int stoeck_would_show(const JGame *R, const JGame *w) {
    if (R->stoeck_done || R->trump < 0 || R->trump >= 4 || !R->stoeck_on) return 0;
    int holder = jg_stoeck_holder(w);
    if (holder < 0) return 0;
    int team = holder & 1, mult = R->mult;
    if (R->scores[team] + JT.stoeck_pts * mult >= R->target) return 1;
    if (!R->ntricks) return 0;
    int deal_start = R->scores[team] - jg_deal_points(R, team), more = JT.stoeck_pts;
    if ((R->twinner[0] & 1) == team)
        for (int k = 0; k < 4; k++) more += JT.pts[R->trump][R->tcards[0][k]];
    int8_t n[4];
    jg_counted(w, n);
    if (R->weis_on && jg_scoring_teams((const JWeis(*)[MAX_WEIS])w->weis, n, R->trump, R->forehand,
                                       &JT.prof[R->prof]) >> team & 1)
        for (int s = team; s < 4; s += 2)
            for (int i = 0; i < n[s]; i++) more += w->weis[s][i].points;
    return deal_start + more * mult >= R->target;
}

/* The points of a seat's Weis as announced (sampling.points_of): highest first, into p[]; the count. */
static int points_of(const JWeis *w, int n, int p[MAX_WEIS]) {
    for (int i = 0; i < n; i++) {
        int j = i;
        while (j > 0 && p[j - 1] < w[i].points) {
            p[j] = p[j - 1];
            j--;
        }
        p[j] = w[i].points;
    }
    return n;
}

static int same_points(const JWeis *a, int na, const JWeis *b, int nb) {
    int pa[MAX_WEIS], pb[MAX_WEIS];
    if (na != nb) return 0;
    points_of(a, na, pa);
    points_of(b, nb, pb);
    return !memcmp(pa, pb, sizeof(int) * (size_t)na);
}

/* sampling.place_weis: `placed` with, for each other seat whose announced Weis is known by its
 * points only, the unplayed cards of a random Weis set of those points among the cards it may hold.
 * -1 when a draw left no room. */
static int place_weis(Search *S, u64 placed[4], int place_mask) {
    const JGame *R = &S->root;
    const JProfile *prof = &JT.prof[R->prof];
    u64 pool = 0; /* the cards the searching seat has not seen */
    for (int s = 0; s < 4; s++)
        if (s != S->seat) pool |= R->hands[s];
    for (int s = 0; s < 4; s++) {
        if (!(place_mask >> s & 1)) continue;
        u64 may = pool & ~R->voids[s];
        for (int o = 0; o < 4; o++)
            if (o != s && o != S->seat) may &= ~placed[o];
        u64 room = may | S->played[s], chosen = 0, shapes[128];
        int pts[MAX_WEIS], n = points_of(R->weis[s], R->nweis[s], pts);
        for (int k = 0; k < n; k++) {
            int no = 0;
            for (int len = 3; len < 10; len++)
                if (prof->sequence_points[len] == pts[k])
                    for (int suit = 0; suit < 4; suit++)
                        for (int low = 0; low + len <= 9; low++) {
                            u64 m = ((1ull << len) - 1) << (9 * suit + low);
                            if ((m & room) == m && !(m & chosen)) shapes[no++] = m;
                        }
            for (int r = 0; r < 9; r++)
                if (prof->four_points[r] == pts[k]) {
                    u64 m = 1ull << r | 1ull << (9 + r) | 1ull << (18 + r) | 1ull << (27 + r);
                    if ((m & room) == m && !(m & chosen)) shapes[no++] = m;
                }
            if (!no) return -1;
            chosen |= shapes[sm_below(&S->rng, no)];
        }
        u64 fresh = chosen & ~S->played[s];
        if (popc(placed[s] | fresh) > popc(R->hands[s])) return -1;
        placed[s] |= fresh;
    }
    return 0;
}

/* The other seats' unseen cards dealt around the `placed` ones, keeping every void; -1 when no
 * deal exists. */
static int deal_around(Search *S, const int others[3], const u64 placed[4], u64 dealt[3]) {
    const JGame *R = &S->root;
    int cards[36], allowed[36], need[3], nc = 0;
    u64 unknown = 0;
    for (int i = 0; i < 3; i++) {
        unknown |= R->hands[others[i]];
        need[i] = popc(R->hands[others[i]]) - popc(placed[others[i]]); /* a placed card may be another's */
    }
    for (int i = 0; i < 3; i++) unknown &= ~placed[others[i]];
    for (u64 x = unknown; x; x &= x - 1) {
        int c = lowbit(x), a = 0;
        for (int i = 0; i < 3; i++)
            if (!(R->voids[others[i]] >> c & 1)) a |= 1 << i;
        cards[nc] = c;
        allowed[nc++] = a;
    }
    return jd_deal_constrained(cards, allowed, nc, need, 3, &S->rng, dealt);
}

/* A determinization: the root with the other seats' unseen cards dealt again. */
static void determinize(Search *S, JGame *out) {
    const JGame *R = &S->root;
    int others[3], no = 0;
    for (int s = 0; s < 4; s++)
        if (s != S->seat) others[no++] = s;
    /* weis="announce": other seats whose announced Weis are known by their points only */
    int place_mask = 0;
    if (R->announce && R->trump >= 0)
        for (int i = 0; i < 3; i++) {
            int s = others[i];
            if (R->said >> s & 1 && R->nweis[s] && !(R->weis_teams >= 0 && R->weis_teams >> (s & 1) & 1))
                place_mask |= 1 << s;
        }
    *out = *R;
    const JProfile *prof = &JT.prof[R->prof];
    int check_weis = R->weis_on && R->trump >= 0, tries = place_mask ? 4 * SAMPLE_TRIES : SAMPLE_TRIES;
    for (int attempt = 0; attempt < tries; attempt++) {
        u64 dealt[3], placed[4];
        memcpy(placed, S->fixed, sizeof placed);
        if (place_mask && place_weis(S, placed, place_mask)) continue;
        if (deal_around(S, others, placed, dealt)) {
            if (place_mask) continue; /* a placed Weis left the others no way to keep their voids */
            return;                   /* keep the world (the last world drawn) */
        }
        for (int i = 0; i < 3; i++) {
            int s = others[i];
            out->hands[s] = dealt[i] | placed[s];
            out->start[s] = out->hands[s] | S->played[s];
        }
        int ok = 1;
        if (check_weis) {
            for (int s = 0; s < 4; s++) jg_best_weis(out->start[s], prof, out->weis[s], &out->nweis[s]);
            if (R->announce) /* every announced Weis has its announced points (sampling._sampled_weis) */
                for (int s = 0; s < 4 && ok; s++)
                    if (R->said >> s & 1) ok = same_points(out->weis[s], out->nweis[s], R->weis[s], R->nweis[s]);
            if (ok && R->weis_teams >= 0) {
                int8_t n[4];
                jg_counted(out, n);
                ok = jg_scoring_teams((const JWeis(*)[MAX_WEIS])out->weis, n, R->trump, R->forehand, prof) ==
                     R->weis_teams;
                for (int s = 0; s < 4 && ok; s++)
                    if (R->weis_teams >> (s & 1) & 1 && R->said >> s & 1)
                        ok = weis_equal(out->weis[s], n[s], R->weis[s], R->nweis[s]);
            }
        }
        if (ok && !stoeck_would_show(R, out)) break;
        if (attempt == SAMPLE_TRIES - 1 && R->weis_teams >= 0) /* nothing matched: keep the shown Weis */
            for (int s = 0; s < 4; s++)
                if (R->weis_teams >> (s & 1) & 1) {
                    memcpy(out->weis[s], R->weis[s], sizeof R->weis[s]);
                    out->nweis[s] = R->nweis[s];
                }
    }
    if (out->trump >= 0 && !out->stoeck_done) out->stoeck_seat = (int8_t)jg_stoeck_holder(out);
}

static int new_node(Search *S, int action, int player) {
    if (S->nn == S->cap) {
        if (S->cap >= MAX_NODES) return -1;
        int cap = S->cap ? S->cap * 2 : 4096;
        Node *x = realloc(S->nodes, sizeof(Node) * (size_t)cap);
        if (!x) return -1;
        S->nodes = x;
        S->cap = cap;
    }
    Node *nd = &S->nodes[S->nn];
    nd->first = -1;
    nd->next = -1;
    nd->n = 0;
    nd->avail = 1;
    nd->w = 0.0;
    nd->action = (int8_t)action;
    nd->player = (int8_t)player;
    return S->nn++;
}

static int find_child(const Search *S, int node, int action) {
    for (int c = S->nodes[node].first; c >= 0; c = S->nodes[c].next)
        if (S->nodes[c].action == action) return c;
    return -1;
}

static int add_child(Search *S, int node, int action, int player) {
    int c = new_node(S, action, player);
    if (c < 0) return -1;
    S->nodes[c].next = S->nodes[node].first;
    S->nodes[node].first = c;
    return c;
}

/* An action in a world; at a deal's end either stop (1) or deal the next one. */
static inline int step(Search *S, JGame *g, int a) {
    jg_apply(g, a);
    if (g->phase == PH_DEALT) {
        if (S->deal_horizon) return 1;
        deal_next(g, &S->rng);
    }
    return 0;
}

static inline int random_action(u64 legal, u64 *rng) {
    int k = sm_below(rng, popc(legal));
    while (k--) legal &= legal - 1;
    return lowbit(legal);
}

static inline int partner_choice(const JGame *g) { return jh_choose_trump(g->hands[g->player], jg_legal(g)); }

/* The legal choices of the seat to move in a world, its sayings made first by the bots' rule
 * (jh_saying): what is left to choose is cards or trump. */
static inline u64 choices(JGame *g) {
    if (!g->says) return jg_legal_plain(g);
    u64 legal = jg_legal(g);
    while (legal & SAYINGS) {
        int said = jh_saying(g, legal);
        if (said < 0) return legal & ~SAYINGS; /* silent: it plays a card */
        jg_apply(g, said);
        legal = jg_legal(g);
    }
    return legal;
}

/* Whether the most visited root action leads by more visits than the budget has left. */
static int settled(const Search *S, double start, double now) {
    long long first = 0, second = 0;
    for (int c = S->nodes[0].first; c >= 0; c = S->nodes[c].next) {
        long long k = S->nodes[c].n;
        if (k > first) {
            second = first;
            first = k;
        } else if (k > second) {
            second = k;
        }
    }
    long long left = S->max_iterations - S->iterations;
    if (S->seconds > 0) {
        double rate = S->iterations / (now - start > 1e-9 ? now - start : 1e-9);
        double rest = start + S->seconds - now;
        long long more = (long long)(rate * (rest > 0 ? rest : 0)) + 1;
        if (more < left) left = more;
    }
    return first - second > left;
}

static int run(Search *S, int nlegal) {
    double start = now_seconds(), deadline = start + S->seconds;
    int32_t root_scores[2] = {S->root.scores[0], S->root.scores[1]};
    int path[MAX_PATH];
    JGame det;
    if (new_node(S, -1, S->seat) < 0) return -1;
    while (S->iterations < S->max_iterations) {
        if (S->seconds > 0 && S->iterations >= nlegal && (S->iterations & 15) == 0 && now_seconds() >= deadline)
            break;
        if ((S->iterations & 63) == 0 && S->iterations && settled(S, start, now_seconds())) break;
        S->iterations++;
        /* 1. A determinization: new ones while the pool is not full, then a pool's copy. */
        if (S->npool < S->max_dets) {
            if (S->npool) determinize(S, &S->pool[S->npool]);
            det = S->pool[S->npool++];
        } else {
            det = S->pool[sm_below(&S->rng, S->npool)];
        }
        /* 2. Selection and expansion. */
        int node = 0, np = 0, over = 0, pushed = 0;
        while (det.phase != PH_OVER && np < MAX_PATH) {
            if (pushed) {
                pushed = 0;
                int a = partner_choice(&det), child = find_child(S, node, a), fresh = child < 0;
                if (fresh) child = add_child(S, node, a, det.player);
                if (child < 0) break;
                over = step(S, &det, a);
                path[np++] = child;
                if (fresh || over) break;
                node = child;
                continue;
            }
            /* the root seat's sayings are decided (stichkit.bots.announce): it chooses a card */
            u64 legal = node == 0 ? jg_legal(&det) & ~SAYINGS : choices(&det);
            int player = det.player, untried[N_ACTIONS], nu = 0;
            for (u64 x = legal; x; x &= x - 1)
                if (find_child(S, node, lowbit(x)) < 0) untried[nu++] = lowbit(x);
            if (nu) {
                for (u64 x = legal; x; x &= x - 1) {
                    int ch = find_child(S, node, lowbit(x));
                    if (ch >= 0) S->nodes[ch].avail++;
                }
                int a = untried[nu > 1 ? sm_below(&S->rng, nu) : 0];
                int child = add_child(S, node, a, player);
                if (child < 0) break; /* the tree is full: play on from here */
                over = step(S, &det, a);
                path[np++] = child;
                pushed = a == A_PUSH && node == 0 && S->push_heuristic;
                break;
            }
            int best = -1, best_action = -1;
            double best_value = -1.0;
            for (u64 x = legal; x; x &= x - 1) {
                int a = lowbit(x), ch = find_child(S, node, a);
                Node *c = &S->nodes[ch];
                c->avail++;
                double value = c->w / c->n + S->c * sqrt(log((double)c->avail) / c->n);
                if (value > best_value) {
                    best = ch;
                    best_value = value;
                    best_action = a;
                }
            }
            over = step(S, &det, best_action);
            path[np++] = best;
            pushed = best_action == A_PUSH && node == 0 && S->push_heuristic;
            node = best;
            if (over) break;
        }
        /* 3. Playout to the end of the deal (or game). */
        if (!over && det.phase != PH_OVER) {
            if (pushed) over = step(S, &det, partner_choice(&det));
            while (!over && det.phase != PH_OVER) over = step(S, &det, random_action(choices(&det), &S->rng));
        }
        /* 4. Rewards: each team's points since the root against the mean, scaled by the largest
         * spread seen; at the game's end the win counts most. */
        double d0 = det.scores[0] - root_scores[0], d1 = det.scores[1] - root_scores[1];
        double mean = (d0 + d1) / 2, spread = fabs(d0 - mean);
        if (spread > S->scale) S->scale = spread;
        double r[2] = {0.5, 0.5};
        if (S->scale > 0) {
            r[0] = 0.5 + (d0 - mean) / (2 * S->scale);
            r[1] = 0.5 + (d1 - mean) / (2 * S->scale);
        }
        if (det.phase == PH_OVER)
            for (int t = 0; t < 2; t++) r[t] = WIN_WEIGHT * (t == det.winner) + (1 - WIN_WEIGHT) * r[t];
        for (int i = 0; i < np; i++) {
            Node *nd = &S->nodes[path[i]];
            nd->n++;
            nd->w += nd->player >= 0 ? r[nd->player & 1] : 0.5;
        }
    }
    S->elapsed = now_seconds() - start;
    return 0;
}

/* The root of a search: the deal replayed from its start on the core. NULL (and an error set)
 * when the arguments are not a game where it is the seat's turn. */
static Search *make_search(PyObject *options, PyObject *deal, int seat) {
    int opt[6], mults[6], deal_no, forehand, sc[2];
    unsigned long long h[4];
    PyObject *actions;
    if (!PyArg_ParseTuple(options, "iiiiii(iiiiii)", &opt[0], &opt[1], &opt[2], &opt[3], &opt[4], &opt[5], &mults[0],
                          &mults[1], &mults[2], &mults[3], &mults[4], &mults[5]) ||
        !PyArg_ParseTuple(deal, "ii(ii)(KKKK)O", &deal_no, &forehand, &sc[0], &sc[1], &h[0], &h[1], &h[2], &h[3],
                          &actions))
        return NULL;
    if (!jt_ready) {
        PyErr_SetString(PyExc_RuntimeError, "the Jass tables are not loaded: import stichkit.native");
        return NULL;
    }
    u64 all = 0;
    int ok = opt[0] >= 0 && opt[0] <= 1 && opt[1] >= 0 && opt[1] <= 2 && opt[2] >= 0 && opt[2] <= 2 && opt[4] >= -1 &&
             opt[4] <= 3 && opt[5] >= 1 && deal_no >= 0 && forehand >= 0 && forehand <= 3 && seat >= 0 && seat <= 3;
    for (int s = 0; s < 4 && ok; s++) {
        ok = popc(h[s]) == 9 && !(all & h[s]);
        all |= h[s];
    }
    if (!ok || all != ALL_CARDS) {
        PyErr_SetString(PyExc_ValueError, "search: options, a deal of four hands of nine cards, a seat 0-3");
        return NULL;
    }
    Search *S = calloc(1, sizeof(Search));
    if (!S) return (Search *)PyErr_NoMemory();
    JGame *g = &S->root;
    jg_new(g, opt[0], opt[1], opt[2], opt[3], opt[4], opt[5]);
    if (jg_set_multipliers(g, mults)) {
        free(S);
        PyErr_SetString(PyExc_ValueError, "search: multipliers are six factors 1-127, one per trump mode");
        return NULL;
    }
    g->deal_no = (int16_t)(deal_no - 1);
    jg_start_deal(g, (const u64 *)h);
    g->forehand = g->player = g->leader = (int8_t)forehand;
    g->scores[0] = sc[0];
    g->scores[1] = sc[1];
    PyObject *fast = PySequence_Fast(actions, "the deal's actions must be a sequence");
    if (!fast) {
        free(S);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast); i++) {
        long a = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (PyErr_Occurred() || a < 0 || a >= N_ACTIONS || g->phase > PH_PLAY || !(jg_legal(g) >> a & 1)) {
            Py_DECREF(fast);
            free(S);
            if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "search: action %zd of the deal is not legal there", i);
            return NULL;
        }
        jg_apply(g, (int)a);
    }
    Py_DECREF(fast);
    if (g->phase > PH_PLAY || g->player != seat || !(jg_legal(g) & ~SAYINGS)) {
        free(S);
        PyErr_SetString(PyExc_ValueError, "search: after the deal's actions it must be the seat's turn");
        return NULL;
    }
    S->seat = seat;
    world_facts(S);
    return S;
}

/* determinizations(options, deal, seat, count, seed) -> [(hands, stoeck_seat)]: what the
 * search would draw, for the tests that check it against sample_hidden. */
PyObject *ismcts_determinizations(PyObject *self, PyObject *args) {
    PyObject *options, *deal;
    int seat, count;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OOiiK", &options, &deal, &seat, &count, &seed)) return NULL;
    Search *S = make_search(options, deal, seat);
    if (!S) return NULL;
    S->rng = seed;
    PyObject *out = PyList_New(0);
    for (int i = 0; out && i < count; i++) {
        JGame d;
        determinize(S, &d);
        PyObject *x = Py_BuildValue("((KKKK)i)", (unsigned long long)d.hands[0], (unsigned long long)d.hands[1],
                                    (unsigned long long)d.hands[2], (unsigned long long)d.hands[3], d.stoeck_seat);
        if (!x || PyList_Append(out, x)) Py_CLEAR(out);
        Py_XDECREF(x);
    }
    free(S);
    return out;
}

/* search(options, deal, seat, params) -> (action, {iterations, seconds, determinizations, nodes, visits})
 *   options: (profile 0/1, weis 0-2 (off, auto, announce), stoeck 0-2 (off, on, announce),
 *             lowest_plain, first_forehand -1..3, target, multipliers: six factors, by trump mode)
 *   deal: (deal_number, forehand, scores at the deal's start (2), start hands (4), actions of
 *          the deal so far, sayings included): one world the seat cannot tell from the real game
 *   params: (iterations, seconds (<= 0: none), c, determinizations, horizon_deal, push_heuristic, seed) */
PyObject *ismcts_search(PyObject *self, PyObject *args) {
    PyObject *options, *deal;
    int seat, dets, horizon_deal, push_h;
    unsigned long long seed;
    long long iterations;
    double seconds, c;
    if (!PyArg_ParseTuple(args, "OOi(LddippK)", &options, &deal, &seat, &iterations, &seconds, &c, &dets,
                          &horizon_deal, &push_h, &seed))
        return NULL;
    if (iterations < 1 || dets < 1 || c < 0) {
        PyErr_SetString(PyExc_ValueError, "search: iterations >= 1, determinizations >= 1, c >= 0");
        return NULL;
    }
    Search *S = make_search(options, deal, seat);
    if (!S) return NULL;
    u64 legal = jg_legal(&S->root) & ~SAYINGS; /* the seat's sayings are decided before the search */
    S->deal_horizon = horizon_deal;
    S->push_heuristic = push_h;
    S->c = c;
    S->max_iterations = iterations;
    S->seconds = seconds;
    S->max_dets = dets < MAX_POOL ? dets : MAX_POOL;
    S->rng = seed;
    S->pool = malloc(sizeof(JGame) * (size_t)S->max_dets);
    if (!S->pool) {
        free(S);
        return PyErr_NoMemory();
    }
    S->pool[0] = S->root; /* the world itself is the first determinization */
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = run(S, popc(legal));
    Py_END_ALLOW_THREADS
    if (rc) {
        free(S->pool);
        free(S->nodes);
        free(S);
        return PyErr_NoMemory();
    }
    /* The most visited root action; ties to the better mean, then the first legal. */
    int chosen = lowbit(legal);
    long long best_n = -1;
    double best_mean = -1.0;
    PyObject *visits = PyDict_New();
    for (u64 x = legal; x && visits; x &= x - 1) {
        int a = lowbit(x), ch = find_child(S, 0, a);
        if (ch < 0) continue;
        const Node *nd = &S->nodes[ch];
        double mean = nd->w / (nd->n > 1 ? nd->n : 1);
        if (nd->n > best_n || (nd->n == best_n && mean > best_mean)) {
            best_n = nd->n;
            best_mean = mean;
            chosen = a;
        }
        PyObject *k = PyLong_FromLong(a), *v = PyLong_FromLong(nd->n);
        if (!k || !v || PyDict_SetItem(visits, k, v)) Py_CLEAR(visits);
        Py_XDECREF(k);
        Py_XDECREF(v);
    }
    PyObject *out = visits ? Py_BuildValue("(i{s:L,s:d,s:i,s:i,s:N})", chosen, "iterations", S->iterations, "seconds",
                                           S->elapsed, "determinizations", S->npool, "nodes", S->nn, "visits", visits)
                           : NULL;
    free(S->pool);
    free(S->nodes);
    free(S);
    return out;
}
