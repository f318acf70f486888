/* The Jass rules core: a whole game as stichkit.games.jass.state plays it (see jass.h), the
 * chance the engine and its bots use (the engine's deal, CPython's Mersenne Twister, the
 * constrained deal of sample_hidden), and the heuristic's trump choice. */
#include <stdio.h>

#include "jass.h"

JTables JT;
int jt_ready = 0;

/* -- Weis (stichkit.games.jass.weis) --------------------------------------------------------- */

static void sequences(u64 hand, const JProfile *p, JWeis *out, int8_t *n) {
    for (int s = 0; s < 4; s++) {
        int m = (int)(hand >> (9 * s)) & 511, r = 0;
        while (r < 9) {
            if (!(m >> r & 1)) {
                r++;
                continue;
            }
            int start = r;
            while (r < 9 && m >> r & 1) r++;
            int len = r - start;
            if (len >= 3) {
                JWeis *w = &out[(*n)++];
                w->cards = ((1ull << len) - 1) << (9 * s + start);
                w->points = (int16_t)p->sequence_points[len];
                w->length = (int8_t)len;
                w->top = (int8_t)(start + len - 1);
                w->suit = (int8_t)s;
            }
        }
    }
}

/* weis.best_weis: the fours that give the most points (then the best single Weis), and the
 * sequences of the cards the fours leave. */
void jg_best_weis(u64 hand, const JProfile *p, JWeis *out, int8_t *count) {
    u64 common = hand & (hand >> 9) & (hand >> 18) & (hand >> 27) & 511;
    int fours[9], nf = 0;
    for (int r = 0; r < 9; r++)
        if (common >> r & 1 && p->four_points[r]) fours[nf++] = r;
    *count = 0;
    if (!nf) {
        sequences(hand, p, out, count);
        return;
    }
    /* Nine cards hold at most two fours, so the subsets in numeric order are itertools'
     * combinations by size, in its order. */
    int best_sum = 0, best_top = 0; /* (sum, (points, length, top)) packed, compared as Python does */
    for (int k = 0; k <= nf; k++)
        for (int mask = 0; mask < 1 << nf; mask++) {
            if (popc((u64)mask) != k) continue;
            JWeis found[MAX_WEIS + 2];
            int8_t n = 0;
            u64 rest = hand;
            for (int i = 0; i < nf; i++)
                if (mask >> i & 1) {
                    int r = fours[i];
                    JWeis *w = &found[n++];
                    w->cards = 1ull << r | 1ull << (9 + r) | 1ull << (18 + r) | 1ull << (27 + r);
                    w->points = (int16_t)p->four_points[r];
                    w->length = 4;
                    w->top = (int8_t)r;
                    w->suit = -1;
                    rest &= ~w->cards;
                }
            sequences(rest, p, found, &n);
            if (!n) continue;
            int sum = 0, top = 0;
            for (int i = 0; i < n; i++) {
                int key = (found[i].points * 16 + found[i].length) * 16 + found[i].top;
                sum += found[i].points;
                if (key > top) top = key;
            }
            if (sum > best_sum || (sum == best_sum && top > best_top)) {
                best_sum = sum;
                best_top = top;
                memcpy(out, found, sizeof(JWeis) * (size_t)n);
                *count = n;
            }
        }
}

/* weis.rank_key, with the "nearer" tie-break of scoring_teams, as one number. */
static int weis_key(const JWeis *w, int trump, int seat, int forehand, const JProfile *p) {
    int height = w->top;
    if (trump == UNE) height = w->suit >= 0 ? 8 - (w->top - w->length + 1) : 8 - w->top;
    int is_trump = trump >= 0 && trump < 4 && (w->suit == trump || w->suit < 0);
    int near = p->tie_nearer ? 3 - ((forehand - seat) & 3) : 0;
    return (((w->points * 16 + w->length) * 16 + height) * 2 + is_trump) * 4 + near;
}

/* weis.scoring_teams as a bitmask: bit t when team t scores its Weis. */
int jg_scoring_teams(const JWeis weis[4][MAX_WEIS], const int8_t nweis[4], int trump, int forehand, const JProfile *p) {
    int best[2] = {-1, -1};
    for (int seat = 0; seat < 4; seat++)
        for (int i = 0; i < nweis[seat]; i++) {
            int key = weis_key(&weis[seat][i], trump, seat, forehand, p);
            if (key > best[seat & 1]) best[seat & 1] = key;
        }
    if (best[0] < 0 && best[1] < 0) return 0;
    if (best[0] > best[1]) return 1;
    if (best[1] > best[0]) return 2;
    return 3;
}

/* -- the flow of a game (state.py) ------------------------------------------------------------ */

void jg_new(JGame *g, int prof, int weis, int stoeck, int lowp, int first_forehand, int target) {
    memset(g, 0, sizeof *g);
    g->prof = (int8_t)prof;
    g->weis_on = weis != 0;
    g->announce = weis == 2;
    g->stoeck_on = stoeck != 0;
    g->stoeck_said = stoeck == 2;
    g->says = g->announce | g->stoeck_said;
    g->lowp = (int8_t)lowp;
    g->first_forehand = (int8_t)first_forehand;
    g->target = target;
    g->winner = -1;
    g->deal_no = -1;
    g->forehand = -1;
    g->phase = PH_DEALT;
    memset(g->mults, 1, sizeof g->mults);
    g->mult = 1;
}

int jg_set_multipliers(JGame *g, const int mults[6]) {
    for (int m = 0; m < 6; m++)
        if (mults[m] < 1 || mults[m] > 127) return -1;
    for (int m = 0; m < 6; m++) g->mults[m] = (int8_t)mults[m];
    return 0;
}

void jg_start_deal(JGame *g, const u64 hands[4]) {
    g->deal_no++;
    for (int s = 0; s < 4; s++) g->start[s] = g->hands[s] = hands[s];
    if (g->deal_no == 0) {
        if (g->first_forehand >= 0)
            g->forehand = g->first_forehand;
        else
            for (int s = 0; s < 4; s++)
                if (hands[s] >> JT.start_card & 1) g->forehand = (int8_t)s;
    } else {
        g->forehand = (int8_t)((g->forehand + 3) & 3); /* the player right of the last chooser */
    }
    g->phase = PH_TRUMP;
    g->player = g->forehand;
    g->trump = g->chooser = -1;
    g->mult = 1;
    g->pushed = 0;
    g->ntrick = 0;
    g->leader = g->forehand;
    g->led = g->win_seat = g->best_trump = -1;
    g->win_str = -1;
    g->ntricks = 0;
    g->deal_tricks[0] = g->deal_tricks[1] = 0;
    memset(g->voids, 0, sizeof g->voids);
    memset(g->nweis, 0, sizeof g->nweis);
    g->said = 0;
    g->calling = 0;
    g->weis_teams = -1;
    g->stoeck_seat = -1;
    g->stoeck_done = 0;
    g->match = -1;
    memset(g->tally, 0, sizeof g->tally);
}

int jg_stoeck_holder(const JGame *g) {
    int mode = g->trump;
    if (g->stoeck_on && mode >= 0 && mode < 4) {
        u64 pair = JT.stoeck_pair[mode];
        for (int s = 0; s < 4; s++)
            if ((g->start[s] & pair) == pair) return s;
    }
    return -1;
}

static int stoeck_now(JGame *g);

void jg_choose_trump(JGame *g, int mode) {
    g->trump = (int8_t)mode;
    g->mult = g->mults[mode];
    g->chooser = g->player;
    g->phase = PH_PLAY;
    g->player = g->forehand;
    if (g->weis_on) {
        for (int s = 0; s < 4; s++) jg_best_weis(g->start[s], &JT.prof[g->prof], g->weis[s], &g->nweis[s]);
        g->said = g->announce ? 0 : 0xF; /* declared by the engine ("auto"), or once announced */
    }
    g->stoeck_seat = (int8_t)jg_stoeck_holder(g);
    stoeck_now(g); /* Stöck enough to finish is shown at once */
}

int jg_deal_points(const JGame *g, int team) {
    const int32_t *t = g->tally;
    return (t[T_TRICKS + team] + t[T_WEIS + team] + t[T_STOECK + team] + (g->match == team ? JT.match_bonus : 0) -
            t[T_VOIDED + team]) *
           g->mult;
}

static void game_over(JGame *g, int team) {
    g->winner = (int8_t)team;
    g->phase = PH_OVER;
    g->player = -1;
}

static int claim(JGame *g, int team, int pts);

/* The Ausmachregel: Stöck is shown at any moment once its points finish the game, even before the
 * second card of the pair is played (state.py, _stoeck_now). 1 if that ended the game. */
static int stoeck_now(JGame *g) {
    int seat = g->stoeck_seat, pts = JT.stoeck_pts * g->mult;
    if (seat < 0 || g->stoeck_done || g->scores[seat & 1] + pts < g->target) return 0;
    g->stoeck_done = 1;
    g->tally[T_STOECK + (seat & 1)] += JT.stoeck_pts;
    return claim(g, seat & 1, pts);
}

/* Points for a team; 1 (and the game is over) once it reaches the target, or once its Stöck
 * still to show would. */
static int claim(JGame *g, int team, int pts) {
    g->scores[team] += pts;
    if (g->scores[team] >= g->target) {
        game_over(g, team);
        return 1;
    }
    return g->stoeck_seat >= 0 && (g->stoeck_seat & 1) == team && stoeck_now(g);
}

/* The end of the first trick, "Stöck, Weis, Stich": a Stöck team whose Stöck, Weis and this trick
 * could reach the target claims its Stöck first (state.py, _stoeck_before_weis). */
static int stoeck_before_weis(JGame *g, int trick_team, int pts) {
    int seat = g->stoeck_seat;
    if (seat < 0 || g->stoeck_done) return 0;
    int team = seat & 1, more = JT.stoeck_pts + (trick_team == team ? pts : 0);
    if (g->weis_on) {
        int8_t n[4];
        jg_counted(g, n);
        int teams = jg_scoring_teams((const JWeis(*)[MAX_WEIS])g->weis, n, g->trump, g->forehand, &JT.prof[g->prof]);
        if (teams >> team & 1)
            for (int s = team; s < 4; s += 2)
                for (int i = 0; i < n[s]; i++) more += g->weis[s][i].points;
    }
    if (g->scores[team] + more * g->mult < g->target) return 0;
    g->stoeck_done = 1;
    g->tally[T_STOECK + team] += JT.stoeck_pts;
    return claim(g, team, JT.stoeck_pts * g->mult);
}

/* The Weis after the first trick, the forehand's team first; 1 when that ends the game. */
static int show_weis(JGame *g) {
    int8_t n[4];
    jg_counted(g, n);
    int teams = jg_scoring_teams((const JWeis(*)[MAX_WEIS])g->weis, n, g->trump, g->forehand, &JT.prof[g->prof]);
    g->weis_teams = (int8_t)teams;
    int first = g->forehand & 1;
    for (int k = 0; k < 2; k++) {
        int team = first ^ k;
        if (!(teams >> team & 1)) continue;
        int pts = 0;
        for (int s = team; s < 4; s += 2)
            for (int i = 0; i < n[s]; i++) pts += g->weis[s][i].points;
        g->tally[T_WEIS + team] += pts;
        if (claim(g, team, pts * g->mult)) return 1;
    }
    return 0;
}

static void end_deal(JGame *g, int team, int pts) {
    if (g->deal_tricks[team] == 9) {
        g->match = (int8_t)team;
        pts += JT.match_bonus;
        if (JT.prof[g->prof].match_voids) {
            int other = team ^ 1, v = g->tally[T_WEIS + other] + g->tally[T_STOECK + other];
            g->tally[T_VOIDED + other] = v;
            g->scores[other] -= v * g->mult;
        }
    }
    if (!claim(g, team, pts * g->mult)) g->phase = PH_DEALT;
}

static void end_trick(JGame *g) {
    const int *pt = JT.pts[g->trump];
    int pts = pt[g->trick[0]] + pt[g->trick[1]] + pt[g->trick[2]] + pt[g->trick[3]];
    int winner = g->win_seat, team = winner & 1, number = g->ntricks;
    if (number == 8) pts += JT.last_bonus;
    g->tleader[number] = g->leader;
    g->twinner[number] = (int8_t)winner;
    memcpy(g->tcards[number], g->trick, 4);
    g->ntricks++;
    g->ntrick = 0;
    g->led = g->win_seat = g->best_trump = -1;
    g->win_str = -1;
    g->deal_tricks[team]++;
    if (number == 0 && (stoeck_before_weis(g, team, pts) || (g->weis_on && show_weis(g)))) return;
    g->tally[T_TRICKS + team] += pts;
    if (number == 8) {
        end_deal(g, team, pts);
        return;
    }
    g->scores[team] += pts * g->mult;
    if (g->scores[team] >= g->target)
        game_over(g, team);
    else if (!((g->stoeck_seat & 1) == team && stoeck_now(g)))
        g->player = g->leader = (int8_t)winner;
}

static void play(JGame *g, int card) {
    int p = g->player, mode = g->trump;
    g->hands[p] ^= 1ull << card;
    if (g->ntrick == 0) {
        g->leader = (int8_t)p;
        int led = card / 9;
        g->led = (int8_t)led;
        g->win_seat = (int8_t)p;
        g->win_str = (int16_t)JT.str[mode][led][card];
        g->best_trump = (int8_t)(led == mode ? card : -1);
    } else {
        int led = g->led, suit = card / 9;
        if (suit != led) g->voids[p] |= jr_cannot_hold(mode, card, led, g->best_trump);
        int st = JT.str[mode][led][card];
        if (st > g->win_str) {
            g->win_seat = (int8_t)p;
            g->win_str = (int16_t)st;
        }
        if (suit == mode) g->best_trump = (int8_t)jr_next_ref(g->lowp, g->best_trump, card);
    }
    g->trick[g->ntrick++] = (int8_t)card;
    if (p == g->stoeck_seat && !g->stoeck_done && !(g->hands[p] & JT.stoeck_pair[mode])) {
        g->stoeck_done = 1; /* the second of the pair is played: "Stöck!" */
        int called = g->calling;
        g->calling = 0;
        if (!g->stoeck_said || called) { /* stoeck="announce": played in silence, Stöck is lost */
            g->tally[T_STOECK + (p & 1)] += JT.stoeck_pts;
            if (claim(g, p & 1, JT.stoeck_pts * g->mult)) return;
        }
    }
    if (g->ntrick == 4)
        end_trick(g);
    else
        g->player = (int8_t)((p + 3) & 3);
}

void jg_apply(JGame *g, int a) {
    if (a < 36) {
        play(g, a);
    } else if (a == A_WEIS) {
        g->said |= (int8_t)(1 << g->player); /* its held Weis now count */
    } else if (a == A_STOECK) {
        g->calling = 1;
    } else if (a == A_PUSH) {
        g->pushed = 1;
        g->phase = PH_PUSHED;
        g->player = (int8_t)((g->forehand + 2) & 3);
    } else {
        jg_choose_trump(g, a - A_TRUMP);
    }
}

/* -- the engine's deal: SHAKE-128 (FIPS 202) ------------------------------------------------ */

static const u64 KECCAK_RC[24] = {
    0x0000000000000001ull, 0x0000000000008082ull, 0x800000000000808aull, 0x8000000080008000ull,
    0x000000000000808bull, 0x0000000080000001ull, 0x8000000080008081ull, 0x8000000000008009ull,
    0x000000000000008aull, 0x0000000000000088ull, 0x0000000080008009ull, 0x000000008000000aull,
    0x000000008000808bull, 0x800000000000008bull, 0x8000000000008089ull, 0x8000000000008003ull,
    0x8000000000008002ull, 0x8000000000000080ull, 0x000000000000800aull, 0x800000008000000aull,
    0x8000000080008081ull, 0x8000000000008080ull, 0x0000000080000001ull, 0x8000000080008008ull};
static inline u64 rotl(u64 x, int n) { return (x << n) | (x >> (64 - n)); }

/* Keccak-f[1600], unrolled: theta, then rho and pi into b, then chi and iota. */
static void keccak_f(u64 st[25]) {
    u64 a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23, a24;
    u64 b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14, b15, b16, b17, b18, b19, b20, b21, b22, b23, b24;
    u64 c0, c1, c2, c3, c4, d0, d1, d2, d3, d4;
    a0 = st[0];
    a1 = st[1];
    a2 = st[2];
    a3 = st[3];
    a4 = st[4];
    a5 = st[5];
    a6 = st[6];
    a7 = st[7];
    a8 = st[8];
    a9 = st[9];
    a10 = st[10];
    a11 = st[11];
    a12 = st[12];
    a13 = st[13];
    a14 = st[14];
    a15 = st[15];
    a16 = st[16];
    a17 = st[17];
    a18 = st[18];
    a19 = st[19];
    a20 = st[20];
    a21 = st[21];
    a22 = st[22];
    a23 = st[23];
    a24 = st[24];
    for (int round = 0; round < 24; round++) {
        c0 = a0 ^ a5 ^ a10 ^ a15 ^ a20;
        c1 = a1 ^ a6 ^ a11 ^ a16 ^ a21;
        c2 = a2 ^ a7 ^ a12 ^ a17 ^ a22;
        c3 = a3 ^ a8 ^ a13 ^ a18 ^ a23;
        c4 = a4 ^ a9 ^ a14 ^ a19 ^ a24;
        d0 = c4 ^ rotl(c1, 1);
        d1 = c0 ^ rotl(c2, 1);
        d2 = c1 ^ rotl(c3, 1);
        d3 = c2 ^ rotl(c4, 1);
        d4 = c3 ^ rotl(c0, 1);
        b0 = a0 ^ d0;
        b16 = rotl(a5 ^ d0, 36);
        b7 = rotl(a10 ^ d0, 3);
        b23 = rotl(a15 ^ d0, 41);
        b14 = rotl(a20 ^ d0, 18);
        b10 = rotl(a1 ^ d1, 1);
        b1 = rotl(a6 ^ d1, 44);
        b17 = rotl(a11 ^ d1, 10);
        b8 = rotl(a16 ^ d1, 45);
        b24 = rotl(a21 ^ d1, 2);
        b20 = rotl(a2 ^ d2, 62);
        b11 = rotl(a7 ^ d2, 6);
        b2 = rotl(a12 ^ d2, 43);
        b18 = rotl(a17 ^ d2, 15);
        b9 = rotl(a22 ^ d2, 61);
        b5 = rotl(a3 ^ d3, 28);
        b21 = rotl(a8 ^ d3, 55);
        b12 = rotl(a13 ^ d3, 25);
        b3 = rotl(a18 ^ d3, 21);
        b19 = rotl(a23 ^ d3, 56);
        b15 = rotl(a4 ^ d4, 27);
        b6 = rotl(a9 ^ d4, 20);
        b22 = rotl(a14 ^ d4, 39);
        b13 = rotl(a19 ^ d4, 8);
        b4 = rotl(a24 ^ d4, 14);
        a0 = b0 ^ (~b1 & b2);
        a1 = b1 ^ (~b2 & b3);
        a2 = b2 ^ (~b3 & b4);
        a3 = b3 ^ (~b4 & b0);
        a4 = b4 ^ (~b0 & b1);
        a5 = b5 ^ (~b6 & b7);
        a6 = b6 ^ (~b7 & b8);
        a7 = b7 ^ (~b8 & b9);
        a8 = b8 ^ (~b9 & b5);
        a9 = b9 ^ (~b5 & b6);
        a10 = b10 ^ (~b11 & b12);
        a11 = b11 ^ (~b12 & b13);
        a12 = b12 ^ (~b13 & b14);
        a13 = b13 ^ (~b14 & b10);
        a14 = b14 ^ (~b10 & b11);
        a15 = b15 ^ (~b16 & b17);
        a16 = b16 ^ (~b17 & b18);
        a17 = b17 ^ (~b18 & b19);
        a18 = b18 ^ (~b19 & b15);
        a19 = b19 ^ (~b15 & b16);
        a20 = b20 ^ (~b21 & b22);
        a21 = b21 ^ (~b22 & b23);
        a22 = b22 ^ (~b23 & b24);
        a23 = b23 ^ (~b24 & b20);
        a24 = b24 ^ (~b20 & b21);
        a0 ^= KECCAK_RC[round];
    }
    st[0] = a0;
    st[1] = a1;
    st[2] = a2;
    st[3] = a3;
    st[4] = a4;
    st[5] = a5;
    st[6] = a6;
    st[7] = a7;
    st[8] = a8;
    st[9] = a9;
    st[10] = a10;
    st[11] = a11;
    st[12] = a12;
    st[13] = a13;
    st[14] = a14;
    st[15] = a15;
    st[16] = a16;
    st[17] = a17;
    st[18] = a18;
    st[19] = a19;
    st[20] = a20;
    st[21] = a21;
    st[22] = a22;
    st[23] = a23;
    st[24] = a24;
}

void jd_deal_hands(long long seed, long long number, u64 out[4]) {
    char msg[64];
    int len = snprintf(msg, sizeof msg, "jass/%lld/%lld", seed, number);
    u64 st[25];
    memset(st, 0, sizeof st);
    unsigned char *b = (unsigned char *)st; /* lanes are little-endian: the byte order of x86 and ARM */
    for (int i = 0; i < len; i++) b[i] ^= (unsigned char)msg[i];
    b[len] ^= 0x1F;  /* SHAKE's domain bits and the first padding bit */
    b[167] ^= 0x80; /* the rate of SHAKE-128 is 168 bytes */
    keccak_f(st);
    u32 key[36];
    for (int i = 0; i < 36; i++)
        key[i] = (u32)b[4 * i] << 24 | (u32)b[4 * i + 1] << 16 | (u32)b[4 * i + 2] << 8 | (u32)b[4 * i + 3];
    int order[36];
    for (int i = 0; i < 36; i++) { /* a stable insertion sort by key, as Python's sorted() */
        int j = i;
        while (j > 0 && key[order[j - 1]] > key[i]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    for (int s = 0; s < 4; s++) {
        out[s] = 0;
        for (int i = 9 * s; i < 9 * s + 9; i++) out[s] |= 1ull << order[i];
    }
}

/* -- CPython's random.Random: MT19937 as _randommodule.c seeds and draws it ---------------------- */

static void mt_init(PyRandom *r, u32 s) {
    r->mt[0] = s;
    for (int i = 1; i < 624; i++) r->mt[i] = 1812433253u * (r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) + (u32)i;
    r->mti = 624;
}

void pr_seed(PyRandom *r, u64 seed) {
    u32 key[2] = {(u32)seed, (u32)(seed >> 32)};
    int len = seed >> 32 ? 2 : 1;
    mt_init(r, 19650218u);
    u32 *mt = r->mt;
    int i = 1, j = 0;
    for (int k = 624 > len ? 624 : len; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + key[j] + (u32)j;
        i++;
        j++;
        if (i >= 624) {
            mt[0] = mt[623];
            i = 1;
        }
        if (j >= len) j = 0;
    }
    for (int k = 623; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - (u32)i;
        i++;
        if (i >= 624) {
            mt[0] = mt[623];
            i = 1;
        }
    }
    mt[0] = 0x80000000u;
}

u32 pr_u32(PyRandom *r) {
    static const u32 mag01[2] = {0u, 0x9908b0dfu};
    u32 *mt = r->mt, y;
    if (r->mti >= 624) {
        int kk;
        for (kk = 0; kk < 624 - 397; kk++) {
            y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
            mt[kk] = mt[kk + 397] ^ (y >> 1) ^ mag01[y & 1u];
        }
        for (; kk < 623; kk++) {
            y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
            mt[kk] = mt[kk + (397 - 624)] ^ (y >> 1) ^ mag01[y & 1u];
        }
        y = (mt[623] & 0x80000000u) | (mt[0] & 0x7fffffffu);
        mt[623] = mt[396] ^ (y >> 1) ^ mag01[y & 1u];
        r->mti = 0;
    }
    y = mt[r->mti++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= (y >> 18);
    return y;
}

u64 pr_getrandbits(PyRandom *r, int k) {
    if (k <= 32) return pr_u32(r) >> (32 - k);
    u64 lo = pr_u32(r);
    u64 hi = pr_u32(r) >> (64 - k);
    return hi << 32 | lo;
}

int pr_below(PyRandom *r, int n) {
    int k = 32 - __builtin_clz((unsigned)n); /* n.bit_length() */
    int x = (int)pr_getrandbits(r, k);
    while (x >= n) x = (int)pr_getrandbits(r, k);
    return x;
}

/* -- the constrained deal of sample_hidden (stichkit.core.sampling) ------------------------------ */

int jd_deal_constrained(const int *cards, const int *allowed, int ncards, const int *need, int np, u64 *rng,
                        u64 *hands) {
    int full = 1 << np, count[8] = {0}, cap[8] = {0}, left[3], order[36], total = 0;
    for (int p = 0; p < np; p++) {
        total += need[p];
        left[p] = need[p];
        hands[p] = 0;
    }
    if (total != ncards) return -1;
    for (int i = 0; i < ncards; i++) {
        if (!allowed[i]) return -1;
        for (int s = 1; s < full; s++)
            if (!(allowed[i] & ~s)) count[s]++;
    }
    for (int s = 1; s < full; s++) {
        for (int p = 0; p < np; p++)
            if (s >> p & 1) cap[s] += need[p];
        if (count[s] > cap[s]) return -1;
    }
    for (int i = 0; i < ncards; i++) { /* shuffled, then the most constrained cards first */
        int j = sm_below(rng, i + 1);
        order[i] = order[j];
        order[j] = i;
    }
    for (int i = 1; i < ncards; i++) {
        int x = order[i], j = i;
        while (j > 0 && popc((u64)allowed[order[j - 1]]) > popc((u64)allowed[x])) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = x;
    }
    for (int k = 0; k < ncards; k++) {
        int i = order[k], a = allowed[i];
        for (int s = 1; s < full; s++)
            if (!(a & ~s)) count[s]--;
        int opts[3], weight[3], no = 0, sum = 0;
        for (int p = 0; p < np; p++) {
            if (!(a >> p & 1) || !left[p]) continue;
            int ok = 1;
            for (int s = 1; s < full && ok; s++)
                if (s >> p & 1 && count[s] > cap[s] - 1) ok = 0;
            if (ok) {
                opts[no] = p;
                weight[no++] = left[p];
                sum += left[p];
            }
        }
        if (!no) return -1; /* cannot happen after the check above */
        int p = opts[0];
        if (no > 1) {
            int x = sm_below(rng, sum);
            for (int q = 0; q < no; q++) {
                if (x < weight[q]) {
                    p = opts[q];
                    break;
                }
                x -= weight[q];
            }
        }
        left[p]--;
        for (int s = 1; s < full; s++)
            if (s >> p & 1) cap[s]--;
        hands[p] |= 1ull << cards[i];
    }
    return 0;
}

/* -- the heuristic's trump choice (stichkit.bots.jass_heuristic.choose_trump, every fix on) ----- */

#define R_TEN 4
#define R_JACK 5
#define R_KING 7
#define R_ACE 8
#define R_NINE 3
static const int TRUMP_HEIGHT_VALUE[9] = {4, 4, 4, 4, 6, 7, 12, 20, 30};

static double trump_suit_score(u64 hand, int t) {
    int tm = (int)(hand >> (9 * t)) & 511, n = popc((u64)tm);
    double score = 0.0;
    for (int r = 0; r < 9; r++)
        if (tm >> r & 1) score += TRUMP_HEIGHT_VALUE[JT.trump_order[r]];
    if (tm >> R_NINE & 1 && !(tm >> R_JACK & 1) && n < 3) score -= 8; /* an unguarded Nell */
    if (n >= 4) score += (n - 3) * 9;
    for (int s = 0; s < 4; s++) {
        if (s == t) continue;
        int m = (int)(hand >> (9 * s)) & 511, length = popc((u64)m);
        if (m >> R_ACE & 1) {
            score += 12;
            if (m >> R_KING & 1) score += 6;
            if (m >> R_TEN & 1) score += 4;
        } else if (m >> R_KING & 1 && length >= 2) {
            score += 2;
        }
        if (length == 0 && n >= 3) score += 6;
    }
    return score;
}

static double notrump_score(u64 hand, int mode) {
    double score = 0.0;
    for (int s = 0; s < 4; s++) {
        int m = (int)(hand >> (9 * s)) & 511, length = popc((u64)m), mine = 0;
        for (int i = 0; i < 9; i++) {
            int r = mode == OBE ? 8 - i : i;
            if (!(m >> r & 1)) continue;
            int missing = i - mine;
            if (missing == 0)
                score += 15 + JT.pts[mode][s * 9 + r] * 0.5;
            else if (missing == 1 && length >= 3)
                score += 15 * 0.5;
            mine++;
        }
        if (length >= 4 && m >> (mode == OBE ? 8 : 0) & 1) score += (length - 3) * 4;
    }
    return score;
}

int jh_choose_trump(u64 hand, u64 legal) {
    int bour_hand = 0;
    for (int s = 0; s < 4; s++) {
        int m = (int)(hand >> (9 * s)) & 511;
        if (m >> R_JACK & 1 && popc((u64)m) >= 4) bour_hand = 1;
    }
    int best = -1;
    double best_score = -1.0;
    for (int mode = 0; mode < 6; mode++) {
        if (!(legal >> (A_TRUMP + mode) & 1) || (mode >= 4 && bour_hand)) continue;
        double score = mode < 4 ? trump_suit_score(hand, mode) : notrump_score(hand, mode);
        if (score > best_score) {
            best = A_TRUMP + mode;
            best_score = score;
        }
    }
    if (legal >> A_PUSH & 1 && best_score < 58 && !bour_hand) return A_PUSH;
    return best;
}

/* announcements.py, AnnouncingJassState._sayings_mask: "weis" when the player holds a Weis it has
 * not announced, before its first card; "stoeck" just before the second of the pair, when that
 * card may be played; once said, that card is all that may follow. */
u64 jg_sayings(const JGame *g, u64 m) {
    int p = g->player;
    if (g->announce && !g->ntricks && g->nweis[p] && !(g->said >> p & 1)) m |= 1ull << A_WEIS;
    if (g->stoeck_said) {
        if (g->calling) return m & g->hands[p] & JT.stoeck_pair[g->trump];
        if (p != g->stoeck_seat || g->stoeck_done) return m;
        u64 left = g->hands[p] & JT.stoeck_pair[g->trump];
        if ((left & (left - 1)) || !(left & m)) return m;
        m |= 1ull << A_STOECK;
    }
    return m;
}

/* -- the bots' sayings (stichkit.bots.announce) ------------------------------------------------- */

/* announce.pays: announcing can score unless the other team has announced a higher Weis than this
 * hand's best and the partner's announced one. */
static int pays(const JGame *g) {
    int me = g->player, ours = 0, theirs = 0;
    for (int i = 0; i < g->nweis[me]; i++)
        if (g->weis[me][i].points > ours) ours = g->weis[me][i].points;
    for (int s = 0; s < 4; s++) {
        if (!(g->said >> s & 1)) continue;
        int best = 0;
        for (int i = 0; i < g->nweis[s]; i++)
            if (g->weis[s][i].points > best) best = g->weis[s][i].points;
        if ((s & 1) == (me & 1)) {
            if (best > ours) ours = best;
        } else if (best > theirs) {
            theirs = best;
        }
    }
    return ours >= theirs;
}

int jh_saying(const JGame *g, u64 legal) {
    if (legal >> A_STOECK & 1) return A_STOECK;
    if (legal >> A_WEIS & 1 && pays(g)) return A_WEIS;
    return -1;
}
