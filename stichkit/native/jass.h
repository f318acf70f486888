/* The Jass rules in C, once: the core under the solver, the ISMCTS search and the batched
 * environment (stichkit.native._jass).
 *
 * The Python engine (stichkit.games.jass) is the reference. The rule tables are not written here:
 * `jt_init` (module.c) takes them from the engine at import (strength, points, the undertrump
 * table, the profiles' Weis points, ...). What is written here are the few lines that apply them,
 * mirrored from stichkit/games/jass/rules.py, state.py and weis.py: who may play which card (the
 * Bour exception, the undertrump ban), the trick's winner and points, the last-trick and match
 * bonus, Weis and Stöck claimed in the Swiss order, each deal's multiplier on every point it writes
 * (option multipliers), Weis and Stöck announced by the players (weis="announce", stoeck="announce":
 * announcements.py), the game's end at the target, and what a card shows about its hand. tests/native checks every one of them against the engine over many random
 * games of both profiles and every trump mode.
 */
#ifndef STICHKIT_NATIVE_JASS_H
#define STICHKIT_NATIVE_JASS_H

#include <stdint.h>
#include <string.h>

typedef uint64_t u64;
typedef uint32_t u32;

#define N_ACTIONS 45 /* 36 cards, six trump modes (36-41), push (42), "weis" (43), "stoeck" (44) */
#define A_TRUMP 36
#define A_PUSH 42
#define A_WEIS 43   /* weis="announce": the player announces its Weis with its first card */
#define A_STOECK 44 /* stoeck="announce": "Stöck!" before the second of trump King and Queen */
#define SAYINGS (1ull << A_WEIS | 1ull << A_STOECK)
#define ALL_CARDS ((1ull << 36) - 1)
#define OBE 4
#define UNE 5

enum { PH_TRUMP, PH_PUSHED, PH_PLAY, PH_OVER, PH_DEALT }; /* PH_DEALT: the deal is over, the next not dealt */
enum { T_TRICKS = 0, T_WEIS = 2, T_STOECK = 4, T_VOIDED = 6 };    /* the deal's tally, + team */

typedef struct {
    int sequence_points[10]; /* a run of n cards */
    int four_points[9];      /* four cards of a rank */
    int tie_nearer;          /* Weis tie between teams: the seat nearer the forehand wins (else both score) */
    int match_voids;         /* a match voids the other team's Weis and Stöck */
    int trump_modes;         /* bit m: trump mode m is played */
} JProfile;

/* The engine's tables, read once at import (module.c: jass_init). */
typedef struct {
    int str[6][4][36]; /* STRENGTH[mode][led][card]: who takes a trick */
    int pts[6][36];    /* POINTS[mode][card] */
    u64 tabove[4][36]; /* TRUMPS_ABOVE[trump][card] */
    u64 suitm[4];      /* SUIT_MASK */
    u64 bourb[4];      /* BOUR_BIT */
    int trump_order[9]; /* TRUMP_ORDER: rank -> height among trumps */
    int last_bonus, match_bonus, stoeck_pts, start_card;
    u64 stoeck_pair[4];
    JProfile prof[2]; /* 0: seed, 1: schieber */
    /* derived here */
    int order[6][4][9]; /* the cards of a suit, weakest first, when that suit is led */
    int pidx[6][36];    /* a small code for pts[mode][card]: the same code for the same points */
} JTables;

extern JTables JT;
extern int jt_ready;

static inline int lowbit(u64 x) { return __builtin_ctzll(x); }
static inline int popc(u64 x) { return __builtin_popcountll(x); }

/* stichkit.games.jass.rules.legal_cards: n cards are in the trick, `ref` its reference trump. */
static inline u64 jr_legal(int mode, u64 hand, int n, int led, int ref) {
    if (n == 0) return hand;
    if (mode < 4) {
        u64 tmask = JT.suitm[mode];
        u64 trumps = hand & tmask;
        if (led == mode) return (trumps & ~JT.bourb[mode]) ? trumps : hand; /* the Bour need not follow */
        u64 follow = hand & JT.suitm[led];
        u64 ok = ref >= 0 ? (trumps & JT.tabove[mode][ref]) : trumps; /* no undertrumping */
        if (follow) return follow | ok;
        if (hand == trumps) return hand; /* nothing but trumps: undertrumping is allowed */
        return (hand & ~tmask) | ok;
    }
    u64 follow = hand & JT.suitm[led];
    return follow ? follow : hand;
}

/* stichkit.games.jass.rules.next_reference: the trump a later trump may not go under. */
static inline int jr_next_ref(int lowp, int ref, int card) {
    if (ref < 0) return card;
    if (lowp) return card < ref ? card : ref; /* jass-kit 2.0.5: the lowest in the plain order */
    return JT.trump_order[card % 9] > JT.trump_order[ref % 9] ? card : ref;
}

/* stichkit.games.jass.rules.cannot_hold: what playing `card` into a trick led with `led` shows
 * the hand no longer holds. */
static inline u64 jr_cannot_hold(int mode, int card, int led, int ref) {
    int suit = card / 9;
    if (suit == led) return 0;
    if (mode >= 4) return JT.suitm[led];
    if (led == mode) return JT.suitm[mode] & ~JT.bourb[mode];
    if (suit != mode) return JT.suitm[led];
    if (ref >= 0 && !(JT.tabove[mode][ref] >> card & 1)) return ALL_CARDS & ~JT.suitm[mode];
    return 0;
}

/* -- one whole game (stichkit.games.jass.state.JassState, without undo or records) --------------- */

typedef struct {
    u64 cards;
    int16_t points;
    int8_t length, top, suit; /* suit -1: four of a kind (top = its rank) */
} JWeis;

#define MAX_WEIS 4 /* a hand of nine cards holds at most three Weis */

typedef struct {
    /* options, fixed for the game */
    int8_t prof, weis_on, stoeck_on, lowp;
    int8_t announce;    /* weis="announce": a Weis counts only once its player announces it */
    int8_t stoeck_said; /* stoeck="announce": Stöck counts only when called */
    int8_t says;        /* announce or stoeck_said: the legal actions may hold sayings */
    int8_t first_forehand; /* -1: the holder of the start card (D7); else the seat */
    int32_t target;
    int8_t mults[6]; /* option multipliers: what a deal's points count, by trump mode (jg_new: all 1) */
    /* the game */
    int32_t scores[2];
    int8_t winner; /* team, or -1 */
    int8_t phase, player, forehand, trump, chooser, pushed;
    int8_t mult; /* this deal's multiplier: mults[trump], 1 before the choice */
    int16_t deal_no;
    u64 start[4], hands[4];
    /* the trick in progress */
    int8_t trick[4], ntrick, leader, led, win_seat, best_trump;
    int16_t win_str;
    /* the deal so far */
    int8_t ntricks, deal_tricks[2];
    int8_t tleader[9], twinner[9], tcards[9][4];
    u64 voids[4]; /* what each hand is known not to hold */
    JWeis weis[4][MAX_WEIS]; /* each seat's best Weis as dealt (the engine's _held), once trump is named */
    int8_t nweis[4];
    int8_t said;    /* bit s: seat s's Weis count (announced; every seat under weis="auto") */
    int8_t calling; /* "Stöck!" said: the second card of the pair comes now */
    int8_t weis_teams; /* -1: not shown yet; else bit t: team t scores its Weis */
    int8_t stoeck_seat, stoeck_done, match;
    int32_t tally[8];
} JGame;

/* weis: 0 off, 1 auto, 2 announce; stoeck: 0 off, 1 counted, 2 announce */
void jg_new(JGame *g, int prof, int weis, int stoeck, int lowp, int first_forehand, int target);
int jg_set_multipliers(JGame *g, const int mults[6]); /* 0, or -1 when a factor is not 1-127 */
void jg_start_deal(JGame *g, const u64 hands[4]);
void jg_apply(JGame *g, int action); /* a legal action; then phase PH_DEALT asks for the next deal */
void jg_choose_trump(JGame *g, int mode);
void jg_best_weis(u64 hand, const JProfile *prof, JWeis *out, int8_t *count);
int jg_scoring_teams(const JWeis weis[4][MAX_WEIS], const int8_t nweis[4], int trump, int forehand, const JProfile *p);
int jg_stoeck_holder(const JGame *g);
int jg_deal_points(const JGame *g, int team); /* scoring.tally_total, times the deal's multiplier */

/* The Weis that count: each seat's number of counted Weis (its held ones once announced). */
static inline void jg_counted(const JGame *g, int8_t n[4]) {
    for (int s = 0; s < 4; s++) n[s] = g->said >> s & 1 ? g->nweis[s] : 0;
}

/* announcements.py, AnnouncingJassState._sayings_mask: the legal cards `m` with "weis" and
 * "stoeck" where they may be said (core.c; called only in games with announcements). */
u64 jg_sayings(const JGame *g, u64 m);

/* Legal action ids as a bitmask, the sayings left out (a game without announcements has none). */
static inline u64 jg_legal_plain(const JGame *g) {
    switch (g->phase) {
    case PH_PLAY: return jr_legal(g->trump, g->hands[g->player], g->ntrick, g->led, g->best_trump);
    case PH_TRUMP: return (u64)JT.prof[g->prof].trump_modes << A_TRUMP | 1ull << A_PUSH;
    case PH_PUSHED: return (u64)JT.prof[g->prof].trump_modes << A_TRUMP;
    default: return 0;
    }
}

/* Legal action ids as a bitmask. */
static inline u64 jg_legal(const JGame *g) {
    u64 m = jg_legal_plain(g);
    return __builtin_expect(g->says, 0) && g->phase == PH_PLAY ? jg_sayings(g, m) : m;
}

/* -- chance ---------------------------------------------------------------------------------- */

/* stichkit.games.jass.state.deal_hands(seed, number): SHAKE-128 of "jass/<seed>/<number>". */
void jd_deal_hands(long long seed, long long number, u64 out[4]);

/* CPython's random.Random (MT19937), for the bots whose choices must match the Python path. */
typedef struct {
    u32 mt[624];
    int mti;
} PyRandom;

void pr_seed(PyRandom *r, u64 seed); /* random.Random(seed) for 0 <= seed < 2**64 */
u32 pr_u32(PyRandom *r);
u64 pr_getrandbits(PyRandom *r, int k); /* 1 <= k <= 64 */
int pr_below(PyRandom *r, int n);       /* random.Random._randbelow(n): what choice() uses */
extern int pr_below_minus_one;          /* the interpreter's _randbelow takes (n-1).bit_length() */

/* A fast generator for the search (splitmix64). */
static inline u64 sm_next(u64 *s) {
    u64 z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static inline int sm_below(u64 *s, int n) { return (int)(((sm_next(s) >> 32) * (u64)n) >> 32); }

/* stichkit.core.sampling.deal_constrained for up to three players: cards[i] goes to a player in
 * allowed[i] (a bitmask), player p gets need[p] cards. -1 when no deal exists. */
int jd_deal_constrained(const int *cards, const int *allowed, int ncards, const int *need, int nplayers, u64 *rng,
                        u64 *hands);

/* stichkit.bots.jass_heuristic.choose_trump (all fixes): the heuristic's trump choice for `hand`
 * from the legal trump actions (bitmask of action ids); a trump action or A_PUSH. */
int jh_choose_trump(u64 hand, u64 legal);

/* stichkit.bots.announce.announces, as every bot decides its sayings: the saying the seat to move
 * makes from the `legal` actions (A_STOECK: always called; A_WEIS: announced when it pays), or -1
 * when it has none to make and plays a card (silent). */
int jh_saying(const JGame *g, u64 legal);

#endif
