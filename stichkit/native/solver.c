/* The fast double-dummy search for Jass card play (stichkit.analysis.solver's "c" engine).
 *
 * The same game as stichkit/analysis/solver.py (the Python reference): alpha-beta on team 0's
 * margin (its points minus the other team's, last-trick and match bonus included). It adds what
 * makes it fast: a transposition table on the four hands at each trick start (with the leader
 * and which teams have taken a trick, for the match), equivalent cards merged (cards of one suit
 * with no remaining card between them in the trick order and the same points), move ordering
 * (the table's best lead first, then cheap rules of thumb), and bounds from the points left.
 *
 * The rules are the core's (jass.h: the follow rules, the undertrump reference, the tables the
 * engine gave at import); tests/analysis checks every solved value against the Python engine on
 * many random positions.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jass.h"

#define STR JT.str
#define PTS JT.pts
#define ORDER JT.order
#define PIDX JT.pidx
#define SUITM JT.suitm
#define LAST_BONUS JT.last_bonus
#define MATCH_BONUS JT.match_bonus
#define STOECK_PTS JT.stoeck_pts
#define STOECK_PAIR_MASK JT.stoeck_pair

typedef struct {
    u64 h[4];
    uint32_t gen;
    int16_t lo, hi;
    int8_t leader, won, best, left; /* left: tricks left, how much work the entry saved */
    int8_t tag;                     /* mode * 2 + lowest_plain: the values hold for this game only */
} Entry;

#ifndef TT_BITS
#define TT_BITS 20
#endif
#define TT_SIZE (1u << TT_BITS)

typedef struct {
    u64 h[4];
    u64 extra; /* leader, won, needs, Stöck, Weis, game: everything besides the cards */
    int8_t lo, hi, best;
    uint8_t used;
} RaceEntry;

#define RACE_BITS 18
#define RACE_SIZE (1u << RACE_BITS)

/* A search's state, its own: the position (changed in place and restored: make / unmake), the
 * counts, the history, both tables and the race's goals. Each thread solves in a context of its
 * own (`context()`), so two threads search two positions at once with the GIL released; the
 * techniques set by `tune` (opt_*) stay global: they are configuration, not state. */
typedef struct Ctx {
    int mode, lowp;
    u64 H[4];
    int rem; /* points of the cards still in the hands */
    long long nodes, iters;
    /* History of the leads: hist[player][card] grows by 2^tricks_left whenever leading `card`
     * refuted a window after another lead was tried first. Only leads: on the following cards it
     * costs nodes. */
    int hist[4][36];
    int hist_tag;   /* the game the history is about (mode * 2 + lowest_plain), -1: none yet */
    int restricted; /* while settling a null window with one side's moves fixed: that team, else -1 */
    /* A node budget (`bounds`): once `nodes` passes `node_limit` (0: no budget) the search stops
     * (`aborted`) and stores nothing more in the table: an interrupted search proves nothing. */
    long long node_limit;
    int aborted;
    Entry *tt; /* the transposition table, allocated at the first solve */
    uint32_t gen;
    /* The race (see there). */
    int rneed[2];         /* points each team still needs to reach the target */
    int rstoeck;          /* the seat that claims Stöck with the second of the pair, or -1 */
    u64 rpair;            /* trump King and Queen */
    int rweis[2], rfirst; /* Weis still to be claimed at the end of the first trick, who claims first */
    int raus;             /* the Ausmachregel: Stöck shown when it finishes, and before the Weis */
    RaceEntry *rtt;
    int rtag; /* (mode * 2 + lowest_plain) * 2 + ausmachregel of the race being solved */
    /* `value` on two threads: the second thread's context (its own table, kept from one call to
     * the next), and what each half searched in the last such call. */
    struct Ctx *helper;
    long long half_nodes[2];
    double half_cpu[2];
} Ctx;


static inline u64 legal_cards(const Ctx *cx, u64 hand, int n, int led, int ref) { return jr_legal(cx->mode, hand, n, led, ref); }
static inline int next_reference(const Ctx *cx, int ref, int card) { return jr_next_ref(cx->lowp, ref, card); }

/* Techniques that can be switched on and off (`tune`), to measure what each gives
 * (bench/solver_techniques.py; docs/analysis.md has the figures and says which are on). */
static int opt_bounds = 0;       /* bounds from sure points at every card, not only at a trick's start */
static int opt_two = 2;          /* from this many tricks left: a straight-line search, without the table
                                  * (on: 0.63-0.88 of the time, docs/analysis.md; 0: off) */
static int opt_absolute_key = 0; /* the table keyed on the hands as they are (to measure the relative key) */
static int opt_fixed = 0;        /* from this many tricks left: try to settle a null window with one side's
                                  * moves fixed to its first-ordered card, before the full search (0: off) */

/* BEAT[mode][led][strength]: the cards that beat a card of that strength in a trick led with `led`. */
static u64 BEAT[6][4][128];
static int beat_ready = 0;

static void make_beat(void) {
    for (int m = 0; m < 6; m++)
        for (int l = 0; l < 4; l++)
            for (int st = 0; st < 128; st++) {
                u64 x = 0;
                for (int c = 0; c < 36; c++)
                    if (STR[m][l][c] > st) x |= 1ull << c;
                BEAT[m][l][st] = x;
            }
    beat_ready = 1;
}


#define INF 100000

/* Each thread's context, made at its first solve and freed with the thread (the tables are large:
 * 2^TT_BITS entries, allocated at the first solve). The module's calls solve in the calling
 * thread's context, so a thread's table carries over from one solve to its next, as before. */
static pthread_key_t ctx_key;
static pthread_once_t ctx_once = PTHREAD_ONCE_INIT;
static int ctx_key_ok = 0;

static void ctx_free(void *p) {
    Ctx *cx = (Ctx *)p;
    if (!cx) return;
    if (cx->helper) ctx_free(cx->helper);
    free(cx->tt);
    free(cx->rtt);
    free(cx);
}

static void ctx_make_key(void) { ctx_key_ok = pthread_key_create(&ctx_key, ctx_free) == 0; }

static void ctx_init(Ctx *cx) {
    memset(cx, 0, sizeof *cx);
    cx->hist_tag = -1;
    cx->restricted = -1;
    cx->rstoeck = -1;
    cx->raus = 1;
    cx->rtag = -1;
}

/* The calling thread's context (a Python error and NULL when it cannot be made). */
static Ctx *context(void) {
    pthread_once(&ctx_once, ctx_make_key);
    if (!ctx_key_ok) {
        PyErr_SetString(PyExc_RuntimeError, "the solver cannot keep a context for this thread (pthread_key_create)");
        return NULL;
    }
    Ctx *cx = (Ctx *)pthread_getspecific(ctx_key);
    if (cx) return cx;
    cx = (Ctx *)malloc(sizeof *cx);
    if (!cx) return (Ctx *)PyErr_NoMemory();
    ctx_init(cx);
    if (pthread_setspecific(ctx_key, cx)) {
        free(cx);
        PyErr_SetString(PyExc_RuntimeError, "the solver cannot keep a context for this thread (pthread_setspecific)");
        return NULL;
    }
    return cx;
}

static int trick_node(Ctx *cx, int leader, int left, int won, int alpha, int beta);

/* Team 0's margin after `player` plays card c as the trick's card number n. */
static int after_card(Ctx *cx, int c, int n, int led, int ws, int wst, int ref, int player, int left, int won, int pts,
                      u64 tmask, int alpha, int beta);

/* Candidate cards: one of each group of equivalent legal cards, best guesses first. */
static int gen_moves(Ctx *cx, int *out, u64 legal, u64 present, int n, int led, int ws, int wst, int player, int ttbest) {
    int cnt = 0, score[9];
    const int *pts = PTS[cx->mode];
    for (int s = 0; s < 4; s++) {
        if (!(legal & SUITM[s])) continue;
        const int *order = ORDER[cx->mode][s];
        int run = 0, prev = -1;
        for (int i = 0; i < 9; i++) {
            int c = order[i];
            if (!(present >> c & 1)) continue;
            if (legal >> c & 1) {
                if (run && pts[c] == pts[prev]) {
                    prev = c;
                    continue; /* the same as `prev` in every future trick */
                }
                run = 1;
                prev = c;
                int sc;
                if (n == 0) {
                    sc = STR[cx->mode][s][c] + (s == cx->mode ? 50 : 0) + cx->hist[player][c];
                } else {
                    int st = STR[cx->mode][led][c];
                    int partner_wins = (ws & 1) == (player & 1);
                    if (partner_wins)
                        sc = st > wst ? 100 - pts[c] : 300 + pts[c]; /* smear points on the partner */
                    else
                        sc = st > wst ? 400 - st + pts[c] : 200 - pts[c] * 4 - st / 8;
                }
                if (c == ttbest) sc += 10000;
                int j = cnt++;
                while (j > 0 && score[j - 1] < sc) {
                    score[j] = score[j - 1];
                    out[j] = out[j - 1];
                    j--;
                }
                score[j] = sc;
                out[j] = c;
            } else {
                run = 0;
            }
        }
    }
    return cnt;
}

/* Bounds inside a trick (n > 0 cards played, `pts` their points): the trick's points are sure for
 * the team winning it when nobody still to play holds a card that beats it, and the top trumps
 * held by one team are sure for it (unless a stronger trump already lies in this trick). */
static int mid_trick_bounds(Ctx *cx, int n, int led, int ws, int wst, int player, int won, int pts, int alpha, int beta,
                            int *v) {
    int total = cx->rem + pts + LAST_BONUS, sure[2] = {0, 0}, takes[2] = {0, 0};
    u64 rest = 0;
    for (int k = n; k < 4; k++) rest |= cx->H[(player + n - k) & 3];
    if (!(rest & BEAT[cx->mode][led][wst])) {
        sure[ws & 1] += pts;
        takes[ws & 1] = 1;
    }
    if (cx->mode < 4) {
        const int *order = ORDER[cx->mode][cx->mode];
        u64 team0 = cx->H[0] | cx->H[2], present = team0 | cx->H[1] | cx->H[3];
        int holder = -1, amount = 0;
        for (int i = 8; i >= 0; i--) {
            int c = order[i];
            if (!(present >> c & 1)) continue;
            if (STR[cx->mode][cx->mode][c] < wst) break; /* a stronger trump lies in the trick: it may fall here */
            int t = (team0 >> c & 1) ? 0 : 1;
            if (holder < 0) holder = t;
            else if (t != holder) break;
            amount += PTS[cx->mode][c];
        }
        if (holder >= 0) {
            sure[holder] += amount;
            takes[holder] = 1;
        }
    }
    int top = total - 2 * sure[1] + ((won & 2) || takes[1] ? 0 : MATCH_BONUS);
    int bottom = -total + 2 * sure[0] - ((won & 1) || takes[0] ? 0 : MATCH_BONUS);
    if (top <= alpha) return *v = top, 1;
    if (bottom >= beta) return *v = bottom, 1;
    return 0;
}

static int play_node(Ctx *cx, int n, int led, int ws, int wst, int ref, int player, int left, int won, int pts, u64 tmask,
                     int alpha, int beta, int ttbest, int *bestcard) {
    cx->nodes++;
    if (opt_bounds && n > 0) {
        int v;
        if (mid_trick_bounds(cx, n, led, ws, wst, player, won, pts, alpha, beta, &v)) return v;
    }
    u64 legal = legal_cards(cx, cx->H[player], n, led, ref);
    int moves[9];
    u64 present = cx->H[0] | cx->H[1] | cx->H[2] | cx->H[3] | tmask;
    int cnt = gen_moves(cx, moves, legal, present, n, led, ws, wst, player, ttbest);
    if (cx->restricted == (player & 1)) cnt = 1; /* a fixed strategy: the first-ordered card only */
    int maximise = !(player & 1);
    int best = maximise ? -INF : INF;
    for (int i = 0; i < cnt; i++) {
        int c = moves[i];
        int v = after_card(cx, c, n, led, ws, wst, ref, player, left, won, pts, tmask, alpha, beta);
        if (cx->aborted) return v;
        if (maximise) {
            if (v > best) {
                best = v;
                *bestcard = c;
                if (v > alpha) alpha = v;
            }
        } else if (v < best) {
            best = v;
            *bestcard = c;
            if (v < beta) beta = v;
        }
        if (alpha >= beta) {
            if (n == 0 && i > 0 && (cx->hist[player][c] += 1 << left) > 1 << 24) /* age it, before it overflows */
                for (int k = 0; k < 4 * 36; k++) cx->hist[k / 36][k % 36] >>= 1;
            break;
        }
    }
    return best;
}

static int after_card(Ctx *cx, int c, int n, int led, int ws, int wst, int ref, int player, int left, int won, int pts,
                      u64 tmask, int alpha, int beta) {
    u64 bit = 1ull << c;
    int p = PTS[cx->mode][c];
    int trump = c / 9 == cx->mode;
    cx->H[player] ^= bit;
    cx->rem -= p;
    if (n == 0) {
        led = c / 9;
        ws = player;
        wst = STR[cx->mode][led][c];
        ref = trump ? c : -1;
    } else {
        int st = STR[cx->mode][led][c];
        if (st > wst) {
            ws = player;
            wst = st;
        }
        if (trump) ref = next_reference(cx, ref, c);
    }
    pts += p;
    int v;
    if (n < 3) {
        int dummy;
        v = play_node(cx, n + 1, led, ws, wst, ref, (player + 3) & 3, left, won, pts, tmask | bit, alpha, beta, -1,
                      &dummy);
    } else {
        int team = ws & 1;
        won |= 1 << team;
        if (left == 1) {
            pts += LAST_BONUS;
            v = (team == 0 ? pts : -pts) + (won == 1 ? MATCH_BONUS : won == 2 ? -MATCH_BONUS : 0);
        } else {
            int gain = team == 0 ? pts : -pts;
            v = gain + trick_node(cx, ws, left - 1, won, alpha - gain, beta - gain);
        }
    }
    cx->H[player] ^= bit;
    cx->rem += p;
    return v;
}

/* The last trick: every hand holds one card, so it plays itself. */
static int last_trick(Ctx *cx, int leader, int won) {
    int c = lowbit(cx->H[leader]), led = c / 9, ws = leader, wst = STR[cx->mode][led][c], pts = PTS[cx->mode][c];
    for (int i = 1; i < 4; i++) {
        int p = (leader + 4 - i) & 3;
        int d = lowbit(cx->H[p]), st = STR[cx->mode][led][d];
        pts += PTS[cx->mode][d];
        if (st > wst) {
            ws = p;
            wst = st;
        }
    }
    cx->nodes++;
    int team = ws & 1;
    won |= 1 << team;
    pts += LAST_BONUS;
    return (team == 0 ? pts : -pts) + (won == 1 ? MATCH_BONUS : won == 2 ? -MATCH_BONUS : 0);
}

/* The last tricks, straight: a plain alpha-beta without the table or move ordering (the last
 * two tricks are at most sixteen lines of play: cheaper to play out than to look up). */
static int two_play(Ctx *cx, int n, int led, int ws, int wst, int ref, int player, int left, int won, int pts, int alpha,
                    int beta) {
    cx->nodes++;
    u64 legal = legal_cards(cx, cx->H[player], n, led, ref);
    int maximise = !(player & 1), best = maximise ? -INF : INF;
    for (u64 x = legal; x; x &= x - 1) {
        int c = lowbit(x), l = led, w = ws, st = wst, r = ref;
        if (n == 0) {
            l = c / 9;
            w = player;
            st = STR[cx->mode][l][c];
            r = c / 9 == cx->mode ? c : -1;
        } else {
            int cs = STR[cx->mode][l][c];
            if (cs > st) {
                w = player;
                st = cs;
            }
            if (c / 9 == cx->mode) r = next_reference(cx, r, c);
        }
        cx->H[player] ^= 1ull << c;
        int p = pts + PTS[cx->mode][c], v;
        if (n < 3) {
            v = two_play(cx, n + 1, l, w, st, r, (player + 3) & 3, left, won, p, alpha, beta);
        } else {
            int team = w & 1, gain = team == 0 ? p : -p;
            if (left == 2)
                v = gain + last_trick(cx, w, won | 1 << team);
            else
                v = gain + two_play(cx, 0, -1, -1, -1, -1, w, left - 1, won | 1 << team, 0, alpha - gain, beta - gain);
        }
        cx->H[player] ^= 1ull << c;
        if (maximise ? v > best : v < best) best = v;
        if (maximise && v > alpha) alpha = v;
        if (!maximise && v < beta) beta = v;
        if (alpha >= beta) break;
    }
    return best;
}

/* The table's key: for each suit, the number of its remaining cards, then those cards in trick
 * order as (holder, points code). Two positions with the same key play out the same way (only
 * the order within a suit, the points and the Bour, the only 20-point card, matter to the rules),
 * so cards gone from play no longer tell positions apart. 4 + 6 bits a card: fits in four words. */
static inline void put_bits(u64 key[4], int *bit, u64 code, int width) {
    int w = *bit >> 6, o = *bit & 63;
    key[w] |= code << o;
    if (o + width > 64) key[w + 1] |= code >> (64 - o);
    *bit += width;
}

static inline void table_key(Ctx *cx, u64 key[4]) {
    if (opt_absolute_key) { /* the hands as they are (measuring only: fewer transpositions) */
        for (int p = 0; p < 4; p++) key[p] = cx->H[p];
        return;
    }
    key[0] = key[1] = key[2] = key[3] = 0;
    int bit = 0;
    u64 present = cx->H[0] | cx->H[1] | cx->H[2] | cx->H[3], odd = cx->H[1] | cx->H[3], high = cx->H[2] | cx->H[3];
    const int *pidx = PIDX[cx->mode];
    for (int s = 0; s < 4; s++) {
        const int *order = ORDER[cx->mode][s];
        u64 codes = 0;
        int k = 0;
        for (int i = 0; i < 9; i++) {
            int c = order[i];
            if (!(present >> c & 1)) continue;
            u64 owner = (odd >> c & 1) | (high >> c & 1) << 1; /* seat 0-3 from two bits */
            codes |= (owner | (u64)pidx[c] << 2) << (6 * k++);
        }
        put_bits(key, &bit, (u64)k, 4);
        if (k) put_bits(key, &bit, codes, 6 * k);
    }
}

static inline u64 mix(u64 x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

/* The best lead stored as (suit, place among the suit's remaining cards), back to a card. */
static int card_at(Ctx *cx, int code) {
    if (code < 0) return -1;
    int s = code >> 4, k = code & 15;
    u64 present = cx->H[0] | cx->H[1] | cx->H[2] | cx->H[3];
    for (int i = 0; i < 9; i++) {
        int c = ORDER[cx->mode][s][i];
        if (present >> c & 1 && k-- == 0) return c;
    }
    return -1;
}

static int place_of(Ctx *cx, int c) {
    if (c < 0) return -1;
    int s = c / 9, k = 0;
    u64 present = cx->H[0] | cx->H[1] | cx->H[2] | cx->H[3];
    for (int i = 0; i < 9; i++) {
        int d = ORDER[cx->mode][s][i];
        if (d == c) return s << 4 | k;
        if (present >> d & 1) k++;
    }
    return -1;
}

/* A table entry's bounds narrow [lo, hi]; true when they already answer the window. */
static inline int from_table(int elo, int ehi, int *lo, int *hi, int alpha, int beta, int *v) {
    if (elo > *lo) *lo = elo;
    if (ehi < *hi) *hi = ehi;
    if (*lo == *hi || *lo >= beta) return *v = *lo, 1;
    if (*hi <= alpha) return *v = *hi, 1;
    return 0;
}

/* What a fail-soft search of the window (a, b) that returned v proves: a bound or the value. */
static inline void settle(int v, int a, int b, int *lo, int *hi) {
    if (v <= a)
        *hi = v;
    else if (v >= b)
        *lo = v;
    else
        *lo = *hi = v;
}

/* Team 0's margin over the `left` tricks from here, `leader` to lead. */
static int trick_node(Ctx *cx, int leader, int left, int won, int alpha, int beta) {
    if (left == 1) return last_trick(cx, leader, won);
    if (left <= opt_two) return two_play(cx, 0, -1, -1, -1, -1, leader, left, won, 0, alpha, beta);
    int total = cx->rem + LAST_BONUS;
    int top = (won & 2) ? total : total + MATCH_BONUS;     /* team 0 can still make the match */
    int bottom = (won & 1) ? -total : -total - MATCH_BONUS; /* team 1 can */
    if (cx->mode < 4) {
        /* Sure points: the highest trump left always wins its trick, and so does each next one
         * while one team holds them all (partners' top trumps in one trick: still that team's). */
        const int *order = ORDER[cx->mode][cx->mode];
        u64 team0 = cx->H[0] | cx->H[2], present = team0 | cx->H[1] | cx->H[3];
        int holder = -1, sure = 0;
        for (int i = 8; i >= 0; i--) {
            int c = order[i];
            if (!(present >> c & 1)) continue;
            int t = (team0 >> c & 1) ? 0 : 1;
            if (holder < 0) holder = t;
            else if (t != holder) break;
            sure += PTS[cx->mode][c];
        }
        if (holder == 1) {
            top = total - 2 * sure; /* and no match for team 0: team 1 takes a trick */
        } else if (holder == 0) {
            bottom = -total + 2 * sure;
        }
    }
    if (top <= alpha) return top;
    if (bottom >= beta) return bottom;
    if (cx->node_limit && cx->nodes > cx->node_limit) cx->aborted = 1;
    if (cx->aborted) return alpha;
    u64 key[4];
    table_key(cx, key);
    u64 hash = mix(key[0] ^ mix(key[1] ^ mix(key[2] ^ mix(key[3] ^ (u64)(leader << 2 | won)))));
    /* Two entries a bucket: the first keeps the deeper position (the costlier one to search
     * again) of this solve, the second takes whatever comes. Entries stay valid across solves
     * (a bound on a position's value is a fact about the position), so solving the next card of
     * the same deal finds most of its tree here: `clear` forgets them, for timing. */
    Entry *bucket = &cx->tt[hash & (TT_SIZE - 2)], *e = NULL;
    int tag = cx->mode * 2 + cx->lowp;
    for (int i = 0; i < 2; i++) {
        Entry *x = &bucket[i];
        if (x->gen && x->tag == tag && x->leader == leader && x->won == won && x->h[0] == key[0] &&
            x->h[1] == key[1] && x->h[2] == key[2] && x->h[3] == key[3])
            e = x;
    }
    int lo = bottom, hi = top, ttbest = -1, v;
    if (e) {
        if (from_table(e->lo, e->hi, &lo, &hi, alpha, beta, &v)) return v;
        ttbest = card_at(cx, e->best);
    }
    int a = alpha > lo ? alpha : lo, b = beta < hi ? beta : hi;
    int bestcard = -1;
    if (opt_fixed && left >= opt_fixed && cx->restricted < 0 && b == a + 1) {
        /* A fixed strategy of one side gives a bound: team 0 playing its first-ordered cards
         * only makes at least what it makes then; team 1 likewise at most. Either may settle the
         * null window with a much smaller search (the table keeps what is learnt as bounds). */
        for (int side = 0; side < 2; side++) {
            int card = -1;
            cx->restricted = side;
            int w = play_node(cx, 0, -1, -1, -1, -1, leader, left, won, 0, 0, a, b, ttbest, &card);
            cx->restricted = -1;
            if (cx->aborted) return w;
            if (side == 0 && w >= b) {
                v = w;
                lo = w;
                bestcard = card;
                goto store;
            }
            if (side == 1 && w <= a) {
                v = w;
                hi = w;
                bestcard = card;
                goto store;
            }
        }
    }
    v = play_node(cx, 0, -1, -1, -1, -1, leader, left, won, 0, 0, a, b, ttbest, &bestcard);
    if (cx->aborted) return v;
    if (cx->restricted == 0) { /* team 0's moves fixed: only a lower bound on the value */
        if (v >= b || v > a) lo = v > lo ? v : lo;
    } else if (cx->restricted == 1) {
        if (v <= a || v < b) hi = v < hi ? v : hi;
    } else {
        settle(v, a, b, &lo, &hi);
    }
store:
    if (!e) e = (bucket[0].gen != cx->gen || bucket[0].left <= left) ? &bucket[0] : &bucket[1];
    e->h[0] = key[0];
    e->h[1] = key[1];
    e->h[2] = key[2];
    e->h[3] = key[3];
    e->gen = cx->gen;
    e->leader = (int8_t)leader;
    e->won = (int8_t)won;
    e->lo = (int16_t)lo;
    e->hi = (int16_t)hi;
    e->best = (int8_t)place_of(cx, bestcard);
    e->left = (int8_t)left;
    e->tag = (int8_t)tag;
    return v;
}

/* -- the Python side ------------------------------------------------------------------------ */

/* legal(hand, n, led, mode, ref): legal_cards, for the agreement test. */
PyObject *dds_legal(PyObject *self, PyObject *args) {
    unsigned long long hand;
    int n, led, m, ref;
    if (!PyArg_ParseTuple(args, "Kiiii", &hand, &n, &led, &m, &ref)) return NULL;
    if (!jt_ready) {
        PyErr_SetString(PyExc_RuntimeError, "the Jass tables are not loaded: import stichkit.native");
        return NULL;
    }
    if (m < 0 || m > 5 || (n > 0 && (led < 0 || led > 3)) || ref < -1 || ref > 35) {
        PyErr_SetString(PyExc_ValueError, "mode 0-5, led 0-3 when n > 0, ref -1..35");
        return NULL;
    }
    Ctx c = {.mode = m};
    return PyLong_FromUnsignedLongLong(legal_cards(&c, hand, n, led, ref));
}

/* The position a solve starts from, read from its arguments (see dds_solve). */
typedef struct {
    int n, led, ws, wst, ref, left, won, player, pts;
    u64 tmask, legal, present;
} Root;

static int parse_root(Ctx *cx, PyObject *args, Root *r) {
    int m, lp, led, ws, wst, ref, left, won, player;
    unsigned long long h[4];
    PyObject *trick;
    if (!PyArg_ParseTuple(args, "iiKKKKOiiiiiii", &m, &lp, &h[0], &h[1], &h[2], &h[3], &trick, &led, &ws, &wst, &ref,
                          &left, &won, &player))
        return -1;
    if (!jt_ready) {
        PyErr_SetString(PyExc_RuntimeError, "the Jass tables are not loaded: import stichkit.native");
        return -1;
    }
    PyObject *fast = PySequence_Fast(trick, "trick must be a sequence of cards");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    int cards[4];
    if (n > 3 || m < 0 || m > 5 || left < 1 || left > 9 || won < 0 || won > 3 || player < 0 || player > 3 ||
        (n > 0 && (led < 0 || led > 3 || ws < 0 || ws > 3)) || ref < -1 || ref > 35) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "not a card decision of a Jass deal");
        return -1;
    }
    u64 tmask = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (c < 0 || c > 35) {
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a card is 0-35");
            return -1;
        }
        cards[i] = (int)c;
        tmask |= 1ull << c;
    }
    Py_DECREF(fast);
    if (!beat_ready) make_beat();
    if (!cx->tt) {
        cx->tt = (Entry *)calloc(TT_SIZE, sizeof(Entry));
        if (!cx->tt) {
            PyErr_NoMemory();
            return -1;
        }
    }
    if (++cx->gen == 0) { /* wrapped: forget everything */
        memset(cx->tt, 0, TT_SIZE * sizeof(Entry));
        cx->gen = 1;
    }
    cx->mode = m;
    cx->lowp = lp;
    if (cx->hist_tag != m * 2 + lp) { /* another game: what led well there says nothing here */
        memset(cx->hist, 0, sizeof cx->hist);
        cx->hist_tag = m * 2 + lp;
    }
    cx->nodes = 0;
    cx->iters = 0;
    cx->rem = 0;
    for (int p = 0; p < 4; p++) {
        cx->H[p] = h[p];
        for (u64 x = h[p]; x; x &= x - 1) {
            int c = lowbit(x);
            cx->rem += PTS[cx->mode][c];
        }
    }
    int pts = 0;
    for (Py_ssize_t i = 0; i < n; i++) pts += PTS[cx->mode][cards[i]];
    if (n == 0) led = ws = wst = ref = -1;
    r->n = (int)n;
    r->led = led;
    r->ws = ws;
    r->wst = wst;
    r->ref = ref;
    r->left = left;
    r->won = won;
    r->player = player;
    r->pts = pts;
    r->tmask = tmask;
    r->legal = legal_cards(cx, cx->H[player], (int)n, led, ref);
    r->present = cx->H[0] | cx->H[1] | cx->H[2] | cx->H[3] | tmask;
    return 0;
}

/* [(card, value)] for every legal card in suit and trick order: each card of a group of
 * equivalent cards (searched once, by its first card) takes the group's value. */
static PyObject *card_values(Ctx *cx, u64 present, u64 legal, const int *value) {
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (int s = 0; s < 4; s++) {
        int rep = -1;
        const int *order = ORDER[cx->mode][s];
        for (int i = 0; i < 9; i++) {
            int c = order[i];
            if (!(present >> c & 1)) continue;
            if (!(legal >> c & 1)) {
                rep = -1;
                continue;
            }
            if (rep < 0 || PTS[cx->mode][c] != PTS[cx->mode][rep]) rep = c;
            PyObject *pair = Py_BuildValue("(ii)", c, value[rep]);
            if (!pair || PyList_Append(out, pair)) {
                Py_XDECREF(pair);
                Py_DECREF(out);
                return NULL;
            }
            Py_DECREF(pair);
        }
    }
    return out;
}

/* The next null-window test in [lo, hi] (lo < hi): every margin has the parity of the points left
 * (the two teams' points add up to them, and the match bonus is even), so only those are tried. */
static inline int split(int lo, int hi) { return lo + 2 * (((hi - lo) / 2 + 1) / 2); }

/* v rounded to the parity of `total`, towards lo (down) or hi (up). */
static inline int down(int v, int total) { return ((v - total) & 1) ? v - 1 : v; }
static inline int up(int v, int total) { return ((v - total) & 1) ? v + 1 : v; }

/* solve(mode, lowest_plain, h0, h1, h2, h3, trick, led, win_seat, win_str, best_trump, tricks_left, won, player)
 * -> [(card, team 0's margin)] for every legal card of `player`. */
PyObject *dds_solve(PyObject *self, PyObject *args) {
    Ctx *cx = context();
    Root r;
    if (!cx || parse_root(cx, args, &r)) return NULL;
    int n = r.n, led = r.led, ws = r.ws, wst = r.wst, ref = r.ref, left = r.left, won = r.won, player = r.player;
    int pts = r.pts;
    u64 tmask = r.tmask, legal = r.legal, present = r.present;
    /* Each group of equivalent cards is searched once; the others take its value. */
    int reps[9];
    int cnt = gen_moves(cx, reps, legal, present, n, led, ws, wst, player, -1);
    int value[36];
    int total = cx->rem + pts + LAST_BONUS, guess = total & 1;
    Py_BEGIN_ALLOW_THREADS; /* the search touches this thread's context only */
    for (int i = 0; i < cnt; i++) {
        /* Null-window tests "is the margin at least g?" that halve the interval the value is known
         * to lie in (fail-soft results narrow it further); the table keeps what each test learnt.
         * The first test is at the previous card's value, a good guess. */
        int c = reps[i], lo = -total - MATCH_BONUS, hi = total + MATCH_BONUS, g = guess;
        int dir = i > 0 ? 0 : 2, step = 2; /* dir: 1 stepping up, -1 down, 2 bisecting */
        while (lo < hi) {
            if (g <= lo || g > hi) g = split(lo, hi);
            int v = after_card(cx, c, n, led, ws, wst, ref, player, left, won, pts, tmask, g - 1, g);
            cx->iters++;
            int pass = v >= g;
            if (pass)
                lo = up(v, total);
            else
                hi = down(v, total);
            /* From the previous card's value (cards of a hand are often worth about the same), in
             * steps that double away from it while the tests keep failing the same way, then
             * bisection once the value is bracketed (11% fewer nodes at 28 cards than bisection). */
            if (dir == 0) dir = pass ? 1 : -1;
            else if (dir != 2 && (dir == 1) != pass) dir = 2;
            if (dir == 1) {
                g = lo + step;
                step *= 2;
            } else if (dir == -1) {
                g = hi - step + 2;
                step *= 2;
            } else {
                g = split(lo, hi);
            }
        }
        value[c] = lo;
        guess = lo;
    }
    Py_END_ALLOW_THREADS;
    return card_values(cx, present, legal, value);
}

/* -- one value on two threads ------------------------------------------------------------------
 *
 * The root's cards are dealt to two halves (in the search's order: first, third, ... to one, the
 * others to the other), each bisecting the value of its own cards in a context of its own (own
 * table). The halves share the best bound proven so far for the side to move (a pass of the
 * maximiser: a lower bound on the position's value, as for the minimiser an upper one): a half
 * whose cards cannot beat it stops, and one that still may only has to show by how much. Each
 * half's bounds are proven by its own tests; the position's value is the better of the two. */

typedef struct {
    pthread_mutex_t mu;
    int bound; /* the best proven for the side to move: a value its cards reach */
    int card;  /* a card reaching it */
} Shared;

typedef struct {
    Ctx *cx;
    const Root *r;
    Shared *sh;
    int moves[9], cnt, total, lo, hi;
} Half;

/* The root as play_node, but over the half's cards only (`first`, if one of them, tried first). */
static int root_node(Ctx *cx, const Root *r, const int *moves, int cnt, int first, int alpha, int beta,
                     int *bestcard) {
    cx->nodes++;
    int maximise = !(r->player & 1), best = maximise ? -INF : INF;
    for (int k = -1; k < cnt; k++) {
        int c = k < 0 ? first : moves[k];
        if (k < 0 ? c < 0 : c == first) continue;
        int v = after_card(cx, c, r->n, r->led, r->ws, r->wst, r->ref, r->player, r->left, r->won, r->pts, r->tmask,
                           alpha, beta);
        if (maximise) {
            if (v > best) {
                best = v;
                *bestcard = c;
                if (v > alpha) alpha = v;
            }
        } else if (v < best) {
            best = v;
            *bestcard = c;
            if (v < beta) beta = v;
        }
        if (alpha >= beta) break;
    }
    return best;
}

static double thread_cpu(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* One half's bisection (see above), in its own context; runs without the GIL. */
static void *half_run(void *arg) {
    Half *h = (Half *)arg;
    Ctx *cx = h->cx;
    Shared *sh = h->sh;
    int total = h->total, lo = -total - MATCH_BONUS, hi = total + MATCH_BONUS, g = total & 1, first = 1, last = -1;
    int maximise = !(h->r->player & 1);
    double cpu = thread_cpu();
    for (;;) {
        pthread_mutex_lock(&sh->mu);
        int bound = sh->bound;
        pthread_mutex_unlock(&sh->mu);
        if (maximise) {
            if (hi <= bound) break; /* none of this half's cards beats the other half's */
            if (lo < bound) lo = bound;
        } else {
            if (lo >= bound) break;
            if (hi > bound) hi = bound;
        }
        if (lo >= hi) break;
        if (!first || g <= lo || g > hi) g = split(lo, hi);
        first = 0;
        int card = -1;
        int v = root_node(cx, h->r, h->moves, h->cnt, last, g - 1, g, &card);
        last = card;
        cx->iters++;
        int pass = v >= g;
        if (pass)
            lo = up(v, total);
        else
            hi = down(v, total);
        if (pass == maximise) { /* the side to move reaches a new bound with `card` */
            int b = maximise ? lo : hi;
            pthread_mutex_lock(&sh->mu);
            if (maximise ? b > sh->bound : b < sh->bound) {
                sh->bound = b;
                sh->card = card;
            }
            pthread_mutex_unlock(&sh->mu);
        }
    }
    h->lo = lo;
    h->hi = hi;
    cx->half_cpu[0] = thread_cpu() - cpu; /* of this context's own half (the helper's: its slot 0) */
    return NULL;
}

/* The helper context set to the calling context's position (the same game, hands and history). */
static int helper_for(Ctx *cx) {
    if (!cx->helper) {
        cx->helper = (Ctx *)malloc(sizeof(Ctx));
        if (!cx->helper) return -1;
        ctx_init(cx->helper);
    }
    Ctx *h = cx->helper;
    if (!h->tt) {
        h->tt = (Entry *)calloc(TT_SIZE, sizeof(Entry));
        if (!h->tt) return -1;
    }
    if (++h->gen == 0) {
        memset(h->tt, 0, TT_SIZE * sizeof(Entry));
        h->gen = 1;
    }
    h->mode = cx->mode;
    h->lowp = cx->lowp;
    memcpy(h->H, cx->H, sizeof h->H);
    h->rem = cx->rem;
    memcpy(h->hist, cx->hist, sizeof h->hist);
    h->hist_tag = cx->hist_tag;
    h->nodes = h->iters = 0;
    return 0;
}

/* The position's value and a card reaching it, on two threads (the calling one and one more). */
static int value_two(Ctx *cx, const Root *r, const int *reps, int cnt, int *card) {
    Shared sh;
    pthread_mutex_init(&sh.mu, NULL);
    int maximise = !(r->player & 1);
    sh.bound = maximise ? -INF : INF;
    sh.card = -1;
    Half half[2];
    int total = cx->rem + r->pts + LAST_BONUS;
    for (int k = 0; k < 2; k++) {
        half[k].cx = k ? cx->helper : cx;
        half[k].r = r;
        half[k].sh = &sh;
        half[k].total = total;
        half[k].cnt = 0;
    }
    for (int i = 0; i < cnt; i++) half[i & 1].moves[half[i & 1].cnt++] = reps[i];
    pthread_t other;
    int threaded = pthread_create(&other, NULL, half_run, &half[1]) == 0;
    half_run(&half[0]);
    double cpu0 = cx->half_cpu[0];
    if (threaded)
        pthread_join(other, NULL);
    else
        half_run(&half[1]); /* no second thread to be had: the same answer, one after the other */
    pthread_mutex_destroy(&sh.mu);
    int v = sh.bound;
    for (int k = 0; k < 2; k++) {
        int x = maximise ? half[k].lo : half[k].hi;
        if (maximise ? x > v : x < v) v = x;
    }
    *card = v == sh.bound ? sh.card : -1;
    cx->half_nodes[0] = cx->nodes;
    cx->half_nodes[1] = cx->helper->nodes;
    cx->half_cpu[0] = cpu0;
    cx->half_cpu[1] = cx->helper->half_cpu[0];
    cx->nodes += cx->helper->nodes;
    cx->iters += cx->helper->iters;
    return v;
}

/* value(the arguments of solve[, threads]) -> (card, team 0's margin): the position's value and
 * one card reaching it. One bisection over the whole position (each test an alpha-beta search
 * over every legal card) instead of one per card: the other cards are only shown to be no better.
 * threads=2: the root's cards shared between two threads (see value_two); the same value, maybe
 * another card reaching it. */
PyObject *dds_value(PyObject *self, PyObject *args) {
    Ctx *cx = context();
    if (!cx) return NULL;
    Py_ssize_t na = PyTuple_GET_SIZE(args);
    int threads = 1;
    if (na == 15) {
        threads = (int)PyLong_AsLong(PyTuple_GET_ITEM(args, 14));
        if (threads == -1 && PyErr_Occurred()) return NULL;
        if (threads < 1 || threads > 2) {
            PyErr_Format(PyExc_ValueError, "value: threads is 1 or 2, not %d", threads);
            return NULL;
        }
    }
    PyObject *head = na == 15 ? PyTuple_GetSlice(args, 0, 14) : (Py_INCREF(args), args);
    if (!head) return NULL;
    Root r;
    int bad = parse_root(cx, head, &r);
    Py_DECREF(head);
    if (bad) return NULL;
    cx->half_nodes[0] = cx->half_nodes[1] = 0;
    cx->half_cpu[0] = cx->half_cpu[1] = 0;
    if (threads == 2) {
        int reps[9], card = -1, v;
        int cnt = gen_moves(cx, reps, r.legal, r.present, r.n, r.led, r.ws, r.wst, r.player, -1);
        if (cnt > 1) {
            if (helper_for(cx)) return PyErr_NoMemory();
            Py_BEGIN_ALLOW_THREADS;
            v = value_two(cx, &r, reps, cnt, &card);
            Py_END_ALLOW_THREADS;
            return Py_BuildValue("(ii)", card >= 0 ? card : reps[0], v);
        }
    }
    int total = cx->rem + r.pts + LAST_BONUS, lo = -total - MATCH_BONUS, hi = total + MATCH_BONUS;
    int maximise = !(r.player & 1), best = -1, g = total & 1;
    int first = 1, last = -1;
    Py_BEGIN_ALLOW_THREADS;
    while (lo < hi) {
        if (!first || g <= lo || g > hi) g = split(lo, hi);
        first = 0;
        int card = -1;
        int v = play_node(cx, r.n, r.led, r.ws, r.wst, r.ref, r.player, r.left, r.won, r.pts, r.tmask, g - 1, g, last,
                          &card);
        last = card; /* searched first next time: it held the window best */
        cx->iters++;
        /* A test the mover's side passes names a card that reaches its new bound. */
        if (v >= g) {
            lo = up(v, total);
            if (maximise) best = card;
        } else {
            hi = down(v, total);
            if (!maximise) best = card;
        }
    }
    Py_END_ALLOW_THREADS;
    if (best < 0) { /* every card gives the worst margin there is: any of them is best */
        int reps[9];
        gen_moves(cx, reps, r.legal, r.present, r.n, r.led, r.ws, r.wst, r.player, -1);
        best = reps[0];
    }
    return Py_BuildValue("(ii)", best, lo);
}


/* bounds(the arguments of solve, within, node_limit) -> ([(card, lo, hi)], complete): for every
 * legal card, bounds on team 0's margin after it, at most `within` points apart. Cheaper than
 * `solve` where a ranking of the cards is all that is needed: the null-window tests closest to a
 * value are the costly ones, and these stop once the interval is narrow enough. The cards take
 * turns, one test each a round, so a node budget (`node_limit` nodes, 0: none) spent part way
 * leaves every card with bounds as narrow as the budget allowed; `complete` is false then. The
 * bounds always hold: a test cut short by the budget is dropped, and what it searched is not
 * stored. */
PyObject *dds_bounds(PyObject *self, PyObject *args) {
    PyObject *head = PyTuple_GetSlice(args, 0, 14);
    Ctx *cx = context();
    if (!head || !cx) {
        Py_XDECREF(head);
        return NULL;
    }
    int within = 0;
    long long limit = 0;
    Root r;
    PyObject *tail = PyTuple_GetSlice(args, 14, PyTuple_GET_SIZE(args));
    int bad = !tail || !PyArg_ParseTuple(tail, "iL", &within, &limit);
    Py_XDECREF(tail);
    if (bad || parse_root(cx, head, &r)) {
        Py_DECREF(head);
        if (bad && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bounds takes solve's arguments, within, node_limit");
        return NULL;
    }
    Py_DECREF(head);
    if (within < 0 || limit < 0) {
        PyErr_SetString(PyExc_ValueError, "within and node_limit are at least 0");
        return NULL;
    }
    int reps[9];
    int cnt = gen_moves(cx, reps, r.legal, r.present, r.n, r.led, r.ws, r.wst, r.player, -1);
    int total = cx->rem + r.pts + LAST_BONUS, lo[9], hi[9], tried[9];
    for (int i = 0; i < cnt; i++) {
        lo[i] = -total - MATCH_BONUS;
        hi[i] = total + MATCH_BONUS;
        tried[i] = 0;
    }
    cx->node_limit = limit;
    cx->aborted = 0;
    Py_BEGIN_ALLOW_THREADS;
    for (int progress = 1; progress && !cx->aborted;) {
        progress = 0;
        for (int i = 0; i < cnt && !cx->aborted; i++) {
            if (hi[i] - lo[i] <= within) continue;
            /* The first test of a card at the middle of the card before it (cards of a hand are
             * often worth about the same), then halving the interval. */
            int g = i > 0 && !tried[i] && tried[i - 1] ? up((lo[i - 1] + hi[i - 1]) / 2, total) : split(lo[i], hi[i]);
            if (g <= lo[i] || g > hi[i]) g = split(lo[i], hi[i]);
            tried[i] = 1;
            int v = after_card(cx, reps[i], r.n, r.led, r.ws, r.wst, r.ref, r.player, r.left, r.won, r.pts, r.tmask, g - 1,
                               g);
            if (cx->aborted) break;
            cx->iters++;
            if (v >= g)
                lo[i] = up(v, total);
            else
                hi[i] = down(v, total);
            if (lo[i] > hi[i]) lo[i] = hi[i]; /* fail-soft bounds meet: the value */
            progress = 1;
        }
    }
    Py_END_ALLOW_THREADS;
    int complete = !cx->aborted;
    cx->node_limit = 0;
    cx->aborted = 0;
    int vlo[36], vhi[36];
    for (int i = 0; i < cnt; i++) {
        vlo[reps[i]] = lo[i];
        vhi[reps[i]] = hi[i];
    }
    PyObject *los = card_values(cx, r.present, r.legal, vlo), *his = los ? card_values(cx, r.present, r.legal, vhi) : NULL;
    if (!his) {
        Py_XDECREF(los);
        return NULL;
    }
    Py_ssize_t m = PyList_GET_SIZE(los);
    PyObject *out = PyList_New(m);
    for (Py_ssize_t i = 0; out && i < m; i++) {
        PyObject *a = PyList_GET_ITEM(los, i), *b = PyList_GET_ITEM(his, i);
        PyObject *t = Py_BuildValue("(OOO)", PyTuple_GET_ITEM(a, 0), PyTuple_GET_ITEM(a, 1), PyTuple_GET_ITEM(b, 1));
        if (!t) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, i, t);
    }
    Py_DECREF(los);
    Py_DECREF(his);
    if (!out) return NULL;
    return Py_BuildValue("(Ni)", out, complete);
}

/* halves() -> ((nodes, CPU seconds) of each half) of the calling thread's last value(threads=2). */
PyObject *dds_halves(PyObject *self, PyObject *noargs) {
    Ctx *cx = context();
    if (!cx) return NULL;
    return Py_BuildValue("((Ld)(Ld))", cx->half_nodes[0], cx->half_cpu[0], cx->half_nodes[1], cx->half_cpu[1]);
}

/* nodes() -> (nodes, tests) of the calling thread's last solve (both halves of a two-thread value). */
PyObject *dds_nodes(PyObject *self, PyObject *noargs) {
    Ctx *cx = context();
    if (!cx) return NULL;
    return Py_BuildValue("(LL)", cx->nodes, cx->iters);
}

/* -- the race: who reaches the game's target first ---------------------------------------------
 *
 * The game ends the moment a team's score reaches the target, even in the middle of a deal
 * (docs/jass.md, rules 24-27): Stöck when the second of trump King and Queen is played, the Weis
 * when the first trick is complete (the forehand's team first), each trick's points when it is
 * taken, the last-trick bonus and the match bonus with the last trick. Near the end of a game the
 * deal's margin is then the wrong goal: what counts is reaching the target first. The race search
 * answers, with all hands known: +1 team 0 reaches its target first, -1 team 1 does, 0 neither
 * does in this deal (the game goes on). Alpha-beta on these three values, with its own table
 * (keyed on the cards as the main one, plus the points each team still needs, capped at what it
 * can still get, the Stöck still to claim and the Weis still to show).
 */



static int race_trick(Ctx *cx, int leader, int left, int won, int alpha, int beta);

/* What `team` can still get in this deal at a trick start: the cards left, the last trick, the
 * match while the other team has no trick, Stöck still to claim, Weis still to show. */
static inline int race_reach(Ctx *cx, int team, int won) {
    int most = cx->rem + LAST_BONUS + cx->rweis[team];
    if (!(won & (2 >> team))) most += MATCH_BONUS;
    if (cx->rstoeck >= 0 && (cx->rstoeck & 1) == team) most += STOECK_PTS;
    return most;
}

/* Points go to `team`; +1/-1 once a team reaches its target, or once its Stöck still to show
 * would (the Ausmachregel: Stöck is shown at any moment when it finishes), else 2. */
static inline int race_claim(Ctx *cx, int team, int pts) {
    cx->rneed[team] -= pts;
    if (cx->rneed[team] <= 0 || (cx->raus && cx->rstoeck >= 0 && (cx->rstoeck & 1) == team && cx->rneed[team] <= STOECK_PTS))
        return team == 0 ? 1 : -1;
    return 2;
}

static int race_play(Ctx *cx, int n, int led, int ws, int wst, int ref, int player, int left, int won, int pts, u64 tmask,
                     int alpha, int beta, int ttbest, int *bestcard);

static int race_after(Ctx *cx, int c, int n, int led, int ws, int wst, int ref, int player, int left, int won, int pts,
                      u64 tmask, int alpha, int beta) {
    u64 bit = 1ull << c;
    int p = PTS[cx->mode][c];
    int need0 = cx->rneed[0], need1 = cx->rneed[1], stoeck = cx->rstoeck, w0 = cx->rweis[0], w1 = cx->rweis[1];
    cx->H[player] ^= bit;
    cx->rem -= p;
    if (n == 0) {
        led = c / 9;
        ws = player;
        wst = STR[cx->mode][led][c];
        ref = c / 9 == cx->mode ? c : -1;
    } else {
        int st = STR[cx->mode][led][c];
        if (st > wst) {
            ws = player;
            wst = st;
        }
        if (c / 9 == cx->mode) ref = next_reference(cx, ref, c);
    }
    pts += p;
    int v = 2;
    if (player == stoeck && (bit & cx->rpair) && !(cx->H[player] & cx->rpair)) { /* "Stöck!" */
        cx->rstoeck = -1;
        v = race_claim(cx, player & 1, STOECK_PTS);
    }
    if (v == 2) {
        if (n < 3) {
            int dummy;
            v = race_play(cx, n + 1, led, ws, wst, ref, (player + 3) & 3, left, won, pts, tmask | bit, alpha, beta, -1,
                          &dummy);
        } else {
            int team = ws & 1;
            won |= 1 << team;
            if (cx->raus && left == 9 && cx->rstoeck >= 0) { /* "Stöck, Weis, Stich": Stöck first when it can help finish */
                int x = cx->rstoeck & 1;
                if (cx->rneed[x] <= STOECK_PTS + cx->rweis[x] + (team == x ? pts : 0)) {
                    cx->rstoeck = -1;
                    v = race_claim(cx, x, STOECK_PTS);
                }
            }
            if (v == 2 && left == 9 && (cx->rweis[0] || cx->rweis[1])) { /* the Weis, before the first trick's points */
                int first = cx->rfirst, a = cx->rweis[first], b = cx->rweis[first ^ 1];
                cx->rweis[0] = cx->rweis[1] = 0;
                v = a ? race_claim(cx, first, a) : 2;
                if (v == 2 && b) v = race_claim(cx, first ^ 1, b);
            }
            if (v == 2) {
                int gain = pts;
                if (left == 1) {
                    gain += LAST_BONUS;
                    if (won == 1 << team) gain += MATCH_BONUS;
                }
                v = race_claim(cx, team, gain);
                if (v == 2) v = left == 1 ? 0 : race_trick(cx, ws, left - 1, won, alpha, beta);
            }
        }
    }
    cx->rneed[0] = need0;
    cx->rneed[1] = need1;
    cx->rstoeck = stoeck;
    cx->rweis[0] = w0;
    cx->rweis[1] = w1;
    cx->H[player] ^= bit;
    cx->rem += p;
    return v;
}

static int race_play(Ctx *cx, int n, int led, int ws, int wst, int ref, int player, int left, int won, int pts, u64 tmask,
                     int alpha, int beta, int ttbest, int *bestcard) {
    cx->nodes++;
    u64 legal = legal_cards(cx, cx->H[player], n, led, ref);
    int moves[9];
    u64 present = cx->H[0] | cx->H[1] | cx->H[2] | cx->H[3] | tmask;
    int cnt = gen_moves(cx, moves, legal, present, n, led, ws, wst, player, ttbest);
    int maximise = !(player & 1);
    int best = maximise ? -INF : INF;
    for (int i = 0; i < cnt; i++) {
        int c = moves[i];
        int v = race_after(cx, c, n, led, ws, wst, ref, player, left, won, pts, tmask, alpha, beta);
        if (maximise ? v > best : v < best) {
            best = v;
            *bestcard = c;
        }
        if (maximise && v > alpha) alpha = v;
        if (!maximise && v < beta) beta = v;
        if (alpha >= beta) break;
    }
    return best;
}

static int race_trick(Ctx *cx, int leader, int left, int won, int alpha, int beta) {
    int can0 = race_reach(cx, 0, won) >= cx->rneed[0], can1 = race_reach(cx, 1, won) >= cx->rneed[1];
    int top = can0 ? 1 : 0, bottom = can1 ? -1 : 0;
    if (top <= alpha) return top;
    if (bottom >= beta) return bottom;
    if (top == bottom) return top;
    u64 key[4];
    table_key(cx, key);
    /* A need above what the team can still get is the same as any other such need. */
    int n0 = can0 ? cx->rneed[0] : 2047, n1 = can1 ? cx->rneed[1] : 2047;
    u64 extra = (u64)leader | (u64)won << 2 | (u64)n0 << 4 | (u64)n1 << 15 | (u64)(cx->rstoeck + 1) << 26 |
                (u64)cx->rweis[0] << 29 | (u64)cx->rweis[1] << 40 | (u64)cx->rfirst << 51 | (u64)cx->rtag << 52;
    u64 hash = mix(key[0] ^ mix(key[1] ^ mix(key[2] ^ mix(key[3] ^ mix(extra)))));
    RaceEntry *e = &cx->rtt[hash & (RACE_SIZE - 1)];
    int ttbest = -1;
    int hit = e->used && e->extra == extra && e->h[0] == key[0] && e->h[1] == key[1] && e->h[2] == key[2] &&
              e->h[3] == key[3];
    int lo = bottom, hi = top, v;
    if (hit) {
        if (from_table(e->lo, e->hi, &lo, &hi, alpha, beta, &v)) return v;
        ttbest = card_at(cx, e->best);
    }
    int a = alpha > lo ? alpha : lo, b = beta < hi ? beta : hi;
    int bestcard = -1;
    v = race_play(cx, 0, -1, -1, -1, -1, leader, left, won, 0, 0, a, b, ttbest, &bestcard);
    settle(v, a, b, &lo, &hi);
    e->h[0] = key[0];
    e->h[1] = key[1];
    e->h[2] = key[2];
    e->h[3] = key[3];
    e->extra = extra;
    e->lo = (int8_t)lo;
    e->hi = (int8_t)hi;
    e->best = (int8_t)place_of(cx, bestcard);
    e->used = 1;
    return v;
}

/* race((the arguments of solve), need0, need1, stoeck_seat, weis0, weis1, weis_first[, ausmachregel])
 * -> [(card, outcome)] for every legal card: +1 team 0 reaches its target first, -1 team 1, 0
 * neither in this deal. Needs are the points each team lacks (both > 0); stoeck_seat the seat that
 * claims Stöck with the second of trump King and Queen (-1: none); the Weis still to be claimed at
 * the end of the first trick (0 when shown or none), weis_first the team that claims first;
 * ausmachregel 1 (the default): Stöck is shown at once when it finishes the game, and at the first
 * trick before the Weis; 0: only with its second card (option ausmachregel="in-order"). */
PyObject *dds_race(PyObject *self, PyObject *args) {
    PyObject *pos;
    int n0, n1, st, w0, w1, wf, aus = 1;
    if (!PyArg_ParseTuple(args, "O!iiiiii|i", &PyTuple_Type, &pos, &n0, &n1, &st, &w0, &w1, &wf, &aus)) return NULL;
    Ctx *cx = context();
    Root r;
    if (!cx || parse_root(cx, pos, &r)) return NULL;
    if (n0 < 1 || n1 < 1 || st < -1 || st > 3 || w0 < 0 || w1 < 0 || w0 > 1000 || w1 > 1000 || wf < 0 || wf > 1 ||
        (st >= 0 && cx->mode > 3) || ((w0 || w1) && r.left != 9)) {
        PyErr_SetString(PyExc_ValueError, "needs >= 1, Stöck seat -1..3 (suit trump only), Weis 0..1000 and only in "
                                          "the first trick, weis_first 0 or 1");
        return NULL;
    }
    if (!cx->rtt) {
        cx->rtt = (RaceEntry *)calloc(RACE_SIZE, sizeof(RaceEntry));
        if (!cx->rtt) return PyErr_NoMemory();
    }
    cx->raus = aus != 0;
    cx->rtag = (cx->mode * 2 + cx->lowp) * 2 + cx->raus; /* in every key: entries of another game never match */
    /* A need beyond any deal's reach (Weis at most 1000: 1282 points at most) is capped: the key
     * must not tell apart what cannot matter. */
    cx->rneed[0] = n0 > 2000 ? 2000 : n0;
    cx->rneed[1] = n1 > 2000 ? 2000 : n1;
    cx->rstoeck = st;
    cx->rpair = cx->mode < 4 ? STOECK_PAIR_MASK[cx->mode] : 0;
    cx->rweis[0] = w0;
    cx->rweis[1] = w1;
    cx->rfirst = wf;
    int reps[9], value[36];
    int cnt = gen_moves(cx, reps, r.legal, r.present, r.n, r.led, r.ws, r.wst, r.player, -1);
    Py_BEGIN_ALLOW_THREADS;
    for (int i = 0; i < cnt; i++)
        value[reps[i]] = race_after(cx, reps[i], r.n, r.led, r.ws, r.wst, r.ref, r.player, r.left, r.won, r.pts, r.tmask,
                                    -2, 2);
    Py_END_ALLOW_THREADS;
    return card_values(cx, r.present, r.legal, value);
}

/* tune(name, value) -> the previous value: switch a technique of the search on or off (see the
 * opt_ flags). The values are exact either way; only nodes and time change. */
PyObject *dds_tune(PyObject *self, PyObject *args) {
    const char *name;
    int value;
    if (!PyArg_ParseTuple(args, "si", &name, &value)) return NULL;
    int *flag = !strcmp(name, "bounds")         ? &opt_bounds
                : !strcmp(name, "two_tricks")   ? &opt_two
                : !strcmp(name, "absolute_key") ? &opt_absolute_key
                : !strcmp(name, "fixed")        ? &opt_fixed
                                                : NULL;
    if (!flag) {
        PyErr_Format(PyExc_ValueError, "no technique %s; the techniques are bounds, two_tricks, absolute_key, fixed",
                     name);
        return NULL;
    }
    int old = *flag;
    *flag = value;
    return PyLong_FromLong(old);
}

/* Forget both transposition tables and the history of the calling thread's context (for timing a
 * solve from scratch). */
PyObject *dds_clear(PyObject *self, PyObject *noargs) {
    Ctx *cx = context();
    if (!cx) return NULL;
    if (cx->tt) memset(cx->tt, 0, TT_SIZE * sizeof(Entry));
    if (cx->rtt) memset(cx->rtt, 0, RACE_SIZE * sizeof(RaceEntry));
    memset(cx->hist, 0, sizeof cx->hist);
    if (cx->helper && cx->helper->tt) memset(cx->helper->tt, 0, TT_SIZE * sizeof(Entry));
    Py_RETURN_NONE;
}

/* -- brute force: a test tool, apart from the search ---------------------------------------------
 *
 * brute(the arguments of solve) -> [(card, team 0's margin)] for every legal card of the player to
 * move, by plain minimax: no pruning, no transposition table, no merging of equivalent cards, no
 * bounds, no move ordering. It shares with the search only the rule tables, legal_cards and
 * next_reference (tests/analysis/test_c_engine.py checks those against the engine). Playing a
 * card, the trick's winner and the scoring (trick points, last-trick bonus, match bonus) are
 * written here again, so that tests/analysis/test_brute.py can check the search against something
 * that shares none of its code on thousands of positions with up to four tricks left. More is
 * refused: four tricks are at most (4!)^4 = 331,776 lines of play, five (5!)^4 = 207,360,000.
 */

#define BRUTE_MAX_LEFT 4

/* A position of the brute force; each card played makes a new copy, nothing is undone. */
typedef struct {
    u64 hand[4];
    int cards[4]; /* the trick so far, in the order played */
    int n;        /* how many */
    int leader;   /* the seat that led it: card i was played by seat (leader - i) & 3 */
    int ref;      /* the trick's undertrump reference (next_reference), or -1 */
    int left;     /* tricks left, this one included */
    int won;      /* bit t: team t has taken a trick in this deal */
    int taken[2]; /* points each team has taken since the root */
} BrutePos;

static int brute_node(Ctx *cx, const BrutePos *p);

/* Team 0's final margin after the player to move in `p` plays card c. */
static int brute_play(Ctx *cx, const BrutePos *p, int c) {
    BrutePos q = *p;
    int player = (p->leader + 4 - p->n) & 3;
    q.hand[player] &= ~(1ull << c);
    q.cards[q.n++] = c;
    if (c / 9 == cx->mode) q.ref = next_reference(cx, q.ref, c);
    if (q.n < 4) return brute_node(cx, &q);
    /* The trick is complete: the strongest card for the suit led takes it (only cards of a suit
     * neither led nor trump tie, at strength 0, and the led card beats them). */
    int led = q.cards[0] / 9, winner = 0, points = 0;
    for (int i = 0; i < 4; i++) {
        if (STR[cx->mode][led][q.cards[i]] > STR[cx->mode][led][q.cards[winner]]) winner = i;
        points += PTS[cx->mode][q.cards[i]];
    }
    int seat = (q.leader - winner) & 3, team = seat & 1;
    if (q.left == 1) points += LAST_BONUS;
    q.taken[team] += points;
    q.won |= 1 << team;
    if (q.left == 1) {
        int bonus0 = q.won == 1 ? MATCH_BONUS : 0, bonus1 = q.won == 2 ? MATCH_BONUS : 0; /* all tricks to one team */
        return q.taken[0] + bonus0 - (q.taken[1] + bonus1);
    }
    q.n = 0;
    q.leader = seat;
    q.ref = -1;
    q.left--;
    return brute_node(cx, &q);
}

/* Team 0's final margin with best play from `p`: team 0 (seats 0 and 2) maximises it. */
static int brute_node(Ctx *cx, const BrutePos *p) {
    int player = (p->leader + 4 - p->n) & 3;
    u64 legal = legal_cards(cx, p->hand[player], p->n, p->n ? p->cards[0] / 9 : -1, p->ref);
    int maximise = !(player & 1), best = maximise ? -INF : INF;
    for (u64 x = legal; x; x &= x - 1) {
        int v = brute_play(cx, p, lowbit(x));
        if (maximise ? v > best : v < best) best = v;
    }
    return best;
}

/* brute(the arguments of solve) -> [(card, team 0's margin)], every legal card in card order. */
PyObject *dds_brute(PyObject *self, PyObject *args) {
    int m, lp, led, ws, wst, ref, left, won, player;
    unsigned long long h[4];
    PyObject *trick;
    if (!PyArg_ParseTuple(args, "iiKKKKOiiiiiii", &m, &lp, &h[0], &h[1], &h[2], &h[3], &trick, &led, &ws, &wst, &ref,
                          &left, &won, &player))
        return NULL;
    if (!jt_ready) {
        PyErr_SetString(PyExc_RuntimeError, "the Jass tables are not loaded: import stichkit.native");
        return NULL;
    }
    if (left > BRUTE_MAX_LEFT) {
        PyErr_Format(PyExc_ValueError,
                     "brute force takes at most %d tricks left, not %d: minimax without pruning is too slow for more",
                     BRUTE_MAX_LEFT, left);
        return NULL;
    }
    if (m < 0 || m > 5 || left < 1 || won < 0 || won > 3 || player < 0 || player > 3) {
        PyErr_SetString(PyExc_ValueError, "brute force: mode 0-5, tricks_left 1-4, won 0-3, player 0-3");
        return NULL;
    }
    Ctx c0 = {.mode = m, .lowp = lp}, *cx = &c0; /* legal_cards and next_reference read the game from here */
    BrutePos r;
    memset(&r, 0, sizeof r);
    PyObject *fast = PySequence_Fast(trick, "trick must be a sequence of cards");
    if (!fast) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > 3) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "brute force: a trick in progress holds 0-3 cards");
        return NULL;
    }
    u64 seen = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (c < 0 || c > 35 || seen >> c & 1) {
            Py_DECREF(fast);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "brute force: the trick's cards are distinct, 0-35");
            return NULL;
        }
        seen |= 1ull << c;
        r.cards[i] = (int)c;
    }
    Py_DECREF(fast);
    r.n = (int)n;
    r.leader = (player + r.n) & 3;
    r.ref = -1;
    r.left = left;
    r.won = won;
    /* The trick's state is rebuilt from its cards; the search's led / win_seat / win_str /
     * best_trump arguments must agree with it. */
    int win = 0;
    for (int i = 0; i < r.n; i++) {
        int c = r.cards[i];
        if (c / 9 == cx->mode) r.ref = next_reference(cx, r.ref, c);
        if (STR[cx->mode][r.cards[0] / 9][c] > STR[cx->mode][r.cards[0] / 9][r.cards[win]]) win = i;
    }
    if (r.n && (led != r.cards[0] / 9 || ws != ((r.leader - win) & 3) || wst != STR[cx->mode][led][r.cards[win]] ||
                ref != r.ref)) {
        PyErr_SetString(PyExc_ValueError,
                        "brute force: led, win_seat, win_str and best_trump do not match the trick's cards");
        return NULL;
    }
    for (int s = 0; s < 4; s++) {
        int played = 0; /* has seat s played to the trick in progress? */
        for (int i = 0; i < r.n; i++) played |= ((r.leader - i) & 3) == s;
        if (h[s] >> 36 || h[s] & seen || __builtin_popcountll(h[s]) != left - played) {
            PyErr_Format(PyExc_ValueError,
                         "brute force: seat %d must hold %d cards (0-35), none of them in another hand or the trick",
                         s, left - played);
            return NULL;
        }
        seen |= h[s];
        r.hand[s] = h[s];
    }
    u64 legal = legal_cards(cx, r.hand[player], r.n, r.n ? r.cards[0] / 9 : -1, r.ref);
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (u64 x = legal; x; x &= x - 1) {
        int c = lowbit(x);
        PyObject *pair = Py_BuildValue("(ii)", c, brute_play(cx, &r, c));
        if (!pair || PyList_Append(out, pair)) {
            Py_XDECREF(pair);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(pair);
    }
    return out;
}
