/* The compiled core: the rules' hot path (clans_pi/rules/state.py) and the search
 * (clans_pi/bots/ismcts.py) in C, for the computer players.
 *
 * It answers to the Python code: the same legal moves in the same order, the same state
 * after every move, the same random numbers drawn in the same order from the same
 * generator (CPython's Mersenne Twister, whose state is copied in and out of a
 * random.Random), so the same playouts, and at equal iterations and seeds the same search
 * choices and visit counts. Where this file and the Python disagree, the Python is right:
 * the differential tests (tests/test_compiled_*.py) compare the two.
 *
 * Plain C99 and libm, no Python headers: it is loaded with ctypes (clans_pi/compiled/
 * library.py), so building it needs only a C compiler, for this machine or cross for a
 * Pi. Nothing is allocated per move; a search allocates its nodes.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef CORE_HASH
#define CORE_HASH "unknown"
#endif

#define MAXT 64       /* territories: actions are src << 6 | dst */
#define MAXN 8        /* neighbours of a territory */
#define MAXP 4        /* players (R6) */
#define NCLANS 5      /* R3 */
#define MAXCHIPS 16   /* chips (R4: 12) */
#define BIG_GROUP 7   /* R9 */
#define ACTION_MASK 4095
#define END_NONE 0
#define END_TWELFTH 1 /* R18 */
#define END_NO_MOVES 2 /* R19 */
#define FAVOURABLE 1
#define HOSTILE (-1)

const char *cc_source_hash(void) { return CORE_HASH; }

/* ------------------------------------------------------------ random numbers */

/* CPython's random.Random: MT19937 (Modules/_randommodule.c), random() of 53 bits,
 * getrandbits(k) for k <= 32, and _randbelow by rejection as Lib/random.py does. */
#define MT_N 624
#define MT_M 397

typedef struct {
    uint32_t mt[MT_N];
    uint32_t out[MT_N]; /* mt tempered: the words random.Random gives, out[index] next */
    int index;
} Rng;

static inline uint32_t temper(uint32_t y) {
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* The next 624 words at once (genrand_uint32's refill, then every word tempered): two
 * loops without branches that the compiler can vectorise. */
static void mt_twist(Rng *r) {
    uint32_t *mt = r->mt, y;
    int kk;
    for (kk = 0; kk < MT_N - MT_M; kk++) {
        y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
        mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ ((0U - (y & 1U)) & 0x9908b0dfU);
    }
    for (; kk < MT_N - 1; kk++) {
        y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
        mt[kk] = mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ ((0U - (y & 1U)) & 0x9908b0dfU);
    }
    y = (mt[MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
    mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ ((0U - (y & 1U)) & 0x9908b0dfU);
    for (kk = 0; kk < MT_N; kk++) r->out[kk] = temper(mt[kk]);
    r->index = 0;
}

static inline uint32_t mt_next(Rng *r) {
    if (r->index >= MT_N) mt_twist(r);
    return r->out[r->index++];
}

static inline double mt_random(Rng *r) {
    uint32_t a = mt_next(r) >> 5, b = mt_next(r) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

static int bit_length(uint32_t n) {
    int k = 0;
    while (n) {
        k++;
        n >>= 1;
    }
    return k;
}

/* random.Random._randbelow(n), n >= 1 (getrandbits(k) is the top k bits of a word). */
static uint32_t mt_below(Rng *r, uint32_t n) {
    int k = bit_length(n);
    uint32_t x = mt_next(r) >> (32 - k);
    while (x >= n) x = mt_next(r) >> (32 - k);
    return x;
}

size_t cc_rng_size(void) { return sizeof(Rng); }

void cc_rng_set(Rng *r, const uint32_t *words, int index) {
    memcpy(r->mt, words, sizeof r->mt);
    for (int i = 0; i < MT_N; i++) r->out[i] = temper(r->mt[i]);
    r->index = index;
}

int cc_rng_get(const Rng *r, uint32_t *words) {
    memcpy(words, r->mt, sizeof r->mt);
    return r->index;
}

double cc_rng_random(Rng *r) { return mt_random(r); }

/* ------------------------------------------------------------------ the board */

typedef struct {
    int nt;                       /* territories */
    int degree[MAXT];
    uint8_t nbr[MAXT][MAXN];      /* neighbours, ascending (Board.neighbor_ids) */
    int terrain[MAXT];
    int nedges;
    int16_t edges[MAXT * MAXN];   /* Board.edge_actions: src << 6 | dst, by src then dst */
    int edge_from[MAXT + 1];      /* edges[edge_from[t]:edge_from[t+1]]: those from t */
    int total_chips;
    int chip_epoch[MAXCHIPS + 1]; /* EpochChart.chip_epoch */
    int bonus[MAXCHIPS + 1];      /* by epoch */
    int effect[MAXCHIPS + 1][4];  /* by epoch, terrain */
} Board;

size_t cc_board_size(void) { return sizeof(Board); }

/* Returns 0, or -1 when the board or chart is larger than this core is built for. */
int cc_board_set(Board *b, int nt, const int *degree, const int *nbr, const int *terrain,
                 int total_chips, const int *chip_epoch, int nepochs, const int *bonus,
                 const int *effect) {
    if (nt > MAXT || total_chips > MAXCHIPS || nepochs > MAXCHIPS) return -1;
    memset(b, 0, sizeof *b);
    b->nt = nt;
    int e = 0;
    for (int t = 0; t < nt; t++) {
        if (degree[t] > MAXN) return -1;
        b->degree[t] = degree[t];
        b->terrain[t] = terrain[t];
        b->edge_from[t] = e;
        for (int j = 0; j < degree[t]; j++) {
            b->nbr[t][j] = (uint8_t)nbr[t * MAXN + j];
            b->edges[e++] = (int16_t)(t << 6 | nbr[t * MAXN + j]);
        }
    }
    b->edge_from[nt] = e;
    b->nedges = e;
    b->total_chips = total_chips;
    for (int k = 0; k <= total_chips; k++) b->chip_epoch[k] = chip_epoch[k];
    for (int k = 0; k <= nepochs; k++) {
        b->bonus[k] = bonus[k];
        for (int t = 0; t < 4; t++) b->effect[k][t] = effect[k * 4 + t];
    }
    return 0;
}

/* ------------------------------------------------------------------ the state */

typedef struct {
    int16_t territory, chip, epoch, founder, value, effect;
    uint32_t huts;  /* packed, after strife, before hostile removal */
    uint32_t lost;  /* bit c: clan c lost its only hut in strife (R12.2) */
} Village;

/* GameState's tables (see state.py): huts packed 4 bits a clan, counts, alive flags and
 * alive-neighbour degrees, chips, points and the end. */
typedef struct {
    uint32_t pack[MAXT];
    uint8_t count[MAXT];
    uint8_t alive[MAXT];
    uint8_t degree[MAXT];
    int nalive, taken, ply, nplayers, end, nvillages;
    int chips[MAXP];
    int points[NCLANS];
    Village villages[MAXCHIPS];
} State;

size_t cc_state_size(void) { return sizeof(State); }

void cc_state_set(State *s, const Board *b, const int *pack, const int *count,
                  const int *alive, const int *degree, int nalive, int taken, int ply,
                  int nplayers, int end, const int *chips, const int *points) {
    memset(s, 0, sizeof *s);
    for (int t = 0; t < b->nt; t++) {
        s->pack[t] = (uint32_t)pack[t];
        s->count[t] = (uint8_t)count[t];
        s->alive[t] = (uint8_t)alive[t];
        s->degree[t] = (uint8_t)degree[t];
    }
    s->nalive = nalive;
    s->taken = taken;
    s->ply = ply;
    s->nplayers = nplayers;
    s->end = end;
    for (int p = 0; p < nplayers; p++) s->chips[p] = chips[p];
    for (int c = 0; c < NCLANS; c++) s->points[c] = points[c];
}

/* Everything, flat: pack, count, alive, degree (nt each), then nalive, taken, ply, end,
 * nplayers, chips (MAXP), points (NCLANS), nvillages, and 8 ints a village. */
int cc_state_get(const State *s, const Board *b, int *out) {
    int k = 0, nt = b->nt;
    for (int t = 0; t < nt; t++) out[k++] = (int)s->pack[t];
    for (int t = 0; t < nt; t++) out[k++] = s->count[t];
    for (int t = 0; t < nt; t++) out[k++] = s->alive[t];
    for (int t = 0; t < nt; t++) out[k++] = s->degree[t];
    out[k++] = s->nalive;
    out[k++] = s->taken;
    out[k++] = s->ply;
    out[k++] = s->end;
    out[k++] = s->nplayers;
    for (int p = 0; p < MAXP; p++) out[k++] = s->chips[p];
    for (int c = 0; c < NCLANS; c++) out[k++] = s->points[c];
    out[k++] = s->nvillages;
    for (int v = 0; v < s->nvillages; v++) {
        const Village *x = &s->villages[v];
        out[k++] = x->territory;
        out[k++] = x->chip;
        out[k++] = x->epoch;
        out[k++] = x->founder;
        out[k++] = (int)x->huts;
        out[k++] = x->value;
        out[k++] = x->effect;
        out[k++] = (int)x->lost;
    }
    return k;
}

/* GameState.legal_actions: ascending by source, then by target. */
static int legal_actions(const State *s, const Board *b, int *out) {
    int k = 0;
    if (s->end) return 0;
    for (int src = 0; src < b->nt; src++) {
        if (!s->alive[src]) continue;
        int n = s->count[src];
        for (int j = 0; j < b->degree[src]; j++) {
            int d = b->nbr[src][j];
            if (s->alive[d] && (n < BIG_GROUP || s->count[d] >= n)) out[k++] = src << 6 | d;
        }
    }
    return k;
}

int cc_legal_actions(const State *s, const Board *b, int *out) { return legal_actions(s, b, out); }

/* GameState.founds: the territories a move from src founds (R10), ascending. */
static int founds(const State *s, const Board *b, int src, int *out) {
    int k = 0;
    for (int j = 0; j < b->degree[src]; j++) {
        int u = b->nbr[src][j];
        if (s->alive[u] && s->degree[u] == 1) out[k++] = u;
    }
    return k;
}

/* GameState._found_village: chip, strife, scoring (R11, R12, R14). */
static void found_village(State *s, const Board *b, int v, int player) {
    int chip = ++s->taken;
    int epoch = b->chip_epoch[chip];
    s->chips[player] += 1; /* R12.1 */
    uint32_t p = s->pack[v];
    int n = s->count[v];
    uint32_t lost = 0;
    /* R12.2: strife when all five clans are present */
    if (((p | p >> 1 | p >> 2 | p >> 3) & 0x11111U) == 0x11111U) {
        for (int c = 0; c < NCLANS; c++) {
            if (((p >> (4 * c)) & 15U) == 1U) {
                p -= 1U << (4 * c);
                n -= 1;
                lost |= 1U << c;
            }
        }
    }
    uint32_t huts = p;
    int effect = b->effect[epoch][b->terrain[v]];
    int value;
    if (effect == HOSTILE) { /* R14 */
        value = 0;
        p = 0;
        n = 0;
    } else {
        value = effect == FAVOURABLE ? n + b->bonus[epoch] : n;
        for (int c = 0; c < NCLANS; c++)
            if ((huts >> (4 * c)) & 15U) s->points[c] += value; /* R12.3 */
    }
    s->pack[v] = p;
    s->count[v] = (uint8_t)n;
    if (s->nvillages < MAXCHIPS) {
        Village *x = &s->villages[s->nvillages++];
        x->territory = (int16_t)v;
        x->chip = (int16_t)chip;
        x->epoch = (int16_t)epoch;
        x->founder = (int16_t)player;
        x->huts = huts;
        x->value = (int16_t)value;
        x->effect = (int16_t)effect;
        x->lost = lost;
    }
}

/* GameState._apply: the move src -> dst. order/norder: the mover's village order (R11), or
 * NULL: drawn with shuffle (Fisher-Yates on random()) when given, else ascending. */
static void apply(State *s, const Board *b, int src, int dst, const int *order, int norder,
                  Rng *shuffle) {
    int player = s->ply % s->nplayers;
    int moved = s->count[src];
    s->pack[dst] += s->pack[src]; /* R8 */
    s->pack[src] = 0;
    s->count[dst] = (uint8_t)(s->count[dst] + moved);
    s->count[src] = 0;
    s->alive[src] = 0;
    int nalive = s->nalive - 1;
    int found[MAXN], nf = 0;
    for (int j = 0; j < b->degree[src]; j++) { /* R10 */
        int u = b->nbr[src][j];
        if (s->alive[u]) {
            int d = s->degree[u] - 1;
            s->degree[u] = (uint8_t)d;
            if (!d) found[nf++] = u;
        }
    }
    if (nf) {
        for (int i = 0; i < nf; i++) s->alive[found[i]] = 0;
        nalive -= nf;
        const int *seq = found;
        if (nf >= 2) {
            if (order != NULL && norder == nf) {
                seq = order;
            } else if (shuffle != NULL) {
                for (int i = nf - 1; i > 0; i--) {
                    int j = (int)(mt_random(shuffle) * (i + 1));
                    int t = found[i];
                    found[i] = found[j];
                    found[j] = t;
                }
            }
        }
        for (int i = 0; i < nf; i++) { /* R11 */
            if (s->taken == b->total_chips) continue; /* R18: unscored */
            found_village(s, b, seq[i], player);
        }
        if (s->taken == b->total_chips) s->end = END_TWELFTH; /* R18 */
    }
    s->ply += 1;
    s->nalive = nalive;
    if (s->end == END_NONE && !nalive) s->end = END_NO_MOVES; /* R19 */
}

void cc_push(State *s, const Board *b, int action, const int *order, int norder) {
    apply(s, b, action >> 6 & 63, action & 63, order, norder, NULL);
}

/* GameState.random_legal_action: rejection over the board's edges, then the full list. */
static int random_legal_action(const State *s, const Board *b, Rng *r) {
    int n = b->nedges;
    for (int k = 0; k < 8; k++) {
        int i = (int)(mt_random(r) * n);
        int a = b->edges[i];
        int src = a >> 6, dst = a & 63;
        if (s->alive[src] && s->alive[dst]) {
            int c = s->count[src];
            if (c < BIG_GROUP || s->count[dst] >= c) return a;
        }
    }
    int actions[MAXT * MAXN];
    int na = legal_actions(s, b, actions);
    return actions[(int)(mt_random(r) * na)];
}

int cc_random_legal_action(const State *s, const Board *b, Rng *r) {
    return random_legal_action(s, b, r);
}

/* GameState.playout: uniform legal moves and village orders to the end. */
static void playout(State *s, const Board *b, Rng *r) {
    if (s->end) return;
    int pool[MAXT * MAXN], np = 0;
    if (s->nalive == b->nt) {
        for (int i = 0; i < b->nedges; i++) pool[i] = b->edges[i];
        np = b->nedges;
    } else {
        for (int src = 0; src < b->nt; src++) {
            if (!s->alive[src]) continue;
            for (int i = b->edge_from[src]; i < b->edge_from[src + 1]; i++)
                if (s->alive[b->edges[i] & 63]) pool[np++] = b->edges[i];
        }
    }
    while (s->end == END_NONE) {
        int src, dst;
        for (;;) {
            int i = (int)(mt_random(r) * np);
            int a = pool[i];
            src = a >> 6;
            dst = a & 63;
            if (s->alive[src] && s->alive[dst]) {
                int c = s->count[src];
                if (c < BIG_GROUP || s->count[dst] >= c) break;
            } else {
                pool[i] = pool[--np];
            }
        }
        apply(s, b, src, dst, NULL, 0, r);
    }
}

void cc_playout(State *s, const Board *b, Rng *r) { playout(s, b, r); }

/* count playouts, each from a copy of start; the last one's end is left in scratch. */
void cc_playouts(const State *start, State *scratch, const Board *b, Rng *r, int count) {
    for (int i = 0; i < count; i++) {
        *scratch = *start;
        playout(scratch, b, r);
    }
}

/* ------------------------------------------------------------- village orders */

/* An order is packed in 64 bits: its length in the low 4 bits, then 6 bits a territory,
 * first founded first. 0: no order (the move founds fewer than two villages). */
static uint64_t pack_order(const int *t, int n) {
    uint64_t o = (uint64_t)n;
    for (int i = 0; i < n; i++) o |= (uint64_t)t[i] << (4 + 6 * i);
    return o;
}

static int unpack_order(uint64_t o, int *t) {
    int n = (int)(o & 15U);
    for (int i = 0; i < n; i++) t[i] = (int)(o >> (4 + 6 * i) & 63U);
    return n;
}

static int factorial(int n) {
    int f = 1;
    for (int i = 2; i <= n; i++) f *= i;
    return f;
}

/* The k-th permutation of sorted items in lexicographic order: itertools.permutations'
 * k-th of items in ascending order (village_orders). */
static uint64_t kth_order(const int *items, int n, int k) {
    int pool[MAXN], out[MAXN];
    for (int i = 0; i < n; i++) pool[i] = items[i];
    int left = n;
    for (int i = 0; i < n; i++) {
        int f = factorial(left - 1);
        int q = k / f;
        k %= f;
        out[i] = pool[q];
        for (int j = q; j < left - 1; j++) pool[j] = pool[j + 1];
        left--;
    }
    return pack_order(out, n);
}


/* ---------------------------------------------------------------- the heuristic */

/* clans_pi/bots/heuristic.py's clan_values, for ordering a node's untried children
 * (heuristic_order in ismcts.py): the same floating-point operations in the same order. */
#define SOON 0.5
#define RISE 1.0 /* 1 / SOON - 1 */
#define POSITION_WEIGHT 1.0
#define STRIFE_RISK 0.5
#define LOOKAHEAD_CHIPS 2

typedef struct {
    const State *s;
    const Board *b;
    uint8_t alive[MAXT];
    int degree[MAXT];
    int huts[MAXT][NCLANS];
    double pot[MAXT][NCLANS];
    double mul[4], add[4];
    double all_gone[NCLANS];
    int have_all_gone;
} View;

static void potential(const View *v, const int *h, int degree, int terrain, double *out) {
    int n = h[0] + h[1] + h[2] + h[3] + h[4];
    int present = (h[0] > 0) + (h[1] > 0) + (h[2] > 0) + (h[3] > 0) + (h[4] > 0);
    double q[NCLANS];
    if (present == 5) { /* R12.2 */
        n -= (h[0] == 1) + (h[1] == 1) + (h[2] == 1) + (h[3] == 1) + (h[4] == 1);
        for (int c = 0; c < NCLANS; c++) q[c] = h[c] > 1;
    } else if (present == 4) {
        for (int c = 0; c < NCLANS; c++) q[c] = h[c] == 1 ? (1.0 - STRIFE_RISK) : (double)(h[c] > 0);
    } else {
        for (int c = 0; c < NCLANS; c++) q[c] = h[c] > 0;
    }
    double k = pow(SOON, degree) * (v->mul[terrain] * n + v->add[terrain]);
    for (int c = 0; c < NCLANS; c++) out[c] = k * q[c];
}

static void view_init(View *v, const State *s, const Board *b) {
    v->s = s;
    v->b = b;
    v->have_all_gone = 0;
    int last = b->total_chips;
    int first = s->taken + 1 < last ? s->taken + 1 : last;
    int end = first + LOOKAHEAD_CHIPS < last + 1 ? first + LOOKAHEAD_CHIPS : last + 1;
    for (int t = 0; t < 4; t++) { /* _terrain_outlook */
        double mul = 0.0, add = 0.0;
        for (int chip = first; chip < end; chip++) {
            int epoch = b->chip_epoch[chip];
            int effect = b->effect[epoch][t];
            if (effect != HOSTILE) {
                mul += 1.0;
                if (effect == FAVOURABLE) add += b->bonus[epoch];
            }
        }
        v->mul[t] = mul / (end - first);
        v->add[t] = add / (end - first);
    }
    for (int t = 0; t < b->nt; t++) v->alive[t] = s->alive[t];
    for (int t = 0; t < b->nt; t++) {
        int d = 0;
        if (v->alive[t])
            for (int j = 0; j < b->degree[t]; j++) d += v->alive[b->nbr[t][j]];
        v->degree[t] = d;
        for (int c = 0; c < NCLANS; c++)
            v->huts[t][c] = v->alive[t] ? (int)(s->pack[t] >> (4 * c) & 15U) : 0;
    }
    for (int t = 0; t < b->nt; t++) {
        if (v->alive[t]) potential(v, v->huts[t], v->degree[t], b->terrain[t], v->pot[t]);
        else for (int c = 0; c < NCLANS; c++) v->pot[t][c] = 0.0;
    }
}

static const double *view_all_gone(View *v) {
    if (!v->have_all_gone) {
        double gone[NCLANS] = {0.0, 0.0, 0.0, 0.0, 0.0};
        for (int t = 0; t < v->b->nt; t++)
            for (int c = 0; c < NCLANS; c++) gone[c] += v->pot[t][c];
        for (int c = 0; c < NCLANS; c++) v->all_gone[c] = -gone[c];
        v->have_all_gone = 1;
    }
    return v->all_gone;
}

static void relative(const double *d, double common, double *out) {
    double s = d[0] + d[1] + d[2] + d[3] + d[4];
    for (int c = 0; c < NCLANS; c++) out[c] = (5 * d[c] - s) * 0.25 + common;
}

static void quiet(const View *v, int src, int dst, double *out) {
    const Board *b = v->b;
    int merged[NCLANS];
    double pn[NCLANS], d[NCLANS], nsum[NCLANS] = {0.0, 0.0, 0.0, 0.0, 0.0};
    for (int c = 0; c < NCLANS; c++) merged[c] = v->huts[src][c] + v->huts[dst][c];
    potential(v, merged, v->degree[dst] - 1, b->terrain[dst], pn);
    for (int c = 0; c < NCLANS; c++) d[c] = pn[c] - v->pot[src][c] - v->pot[dst][c];
    for (int j = 0; j < b->degree[src]; j++) {
        int u = b->nbr[src][j];
        if (v->alive[u] && u != dst)
            for (int c = 0; c < NCLANS; c++) nsum[c] += v->pot[u][c];
    }
    double x[NCLANS];
    for (int c = 0; c < NCLANS; c++) x[c] = POSITION_WEIGHT * (d[c] + RISE * nsum[c]);
    relative(x, 0.0, out);
}

/* _founding, then _best_per_clan: each clan's best over the move's village orders. */
static void founding(View *v, int src, int dst, double *out) {
    const State *s = v->s;
    const Board *b = v->b;
    int chips_before = 0;
    for (int p = 0; p < s->nplayers; p++) chips_before += s->chips[p];
    double pos[NCLANS];
    for (int c = 0; c < NCLANS; c++) pos[c] = -v->pot[src][c] - v->pot[dst][c];
    if (v->degree[dst] > 1) {
        int merged[NCLANS];
        double pn[NCLANS];
        for (int c = 0; c < NCLANS; c++) merged[c] = v->huts[src][c] + v->huts[dst][c];
        potential(v, merged, v->degree[dst] - 1, b->terrain[dst], pn);
        for (int c = 0; c < NCLANS; c++) pos[c] += pn[c];
    }
    for (int j = 0; j < b->degree[src]; j++) {
        int u = b->nbr[src][j];
        if (v->alive[u] && u != dst) {
            double r = v->degree[u] == 1 ? -1.0 : RISE;
            for (int c = 0; c < NCLANS; c++) pos[c] += r * v->pot[u][c];
        }
    }
    int f[MAXN];
    int nf = founds(s, b, src, f);
    int count = nf >= 2 ? factorial(nf) : 1;
    for (int k = 0; k < count; k++) {
        State after = *s;
        if (nf >= 2) {
            int order[MAXN];
            unpack_order(kth_order(f, nf, k), order);
            apply(&after, b, src, dst, order, nf, NULL);
        } else {
            apply(&after, b, src, dst, NULL, 0, NULL);
        }
        int chips = -chips_before;
        for (int p = 0; p < after.nplayers; p++) chips += after.chips[p];
        const double *later = after.end ? view_all_gone(v) : pos;
        double d[NCLANS], val[NCLANS];
        for (int c = 0; c < NCLANS; c++)
            d[c] = (after.points[c] - s->points[c]) + POSITION_WEIGHT * later[c];
        relative(d, (double)chips, val);
        for (int c = 0; c < NCLANS; c++)
            if (k == 0 || val[c] > out[c]) out[c] = val[c];
    }
}

static void evaluate(View *v, int src, int dst, double *out) {
    const Board *b = v->b;
    for (int j = 0; j < b->degree[src]; j++) {
        int u = b->nbr[src][j];
        if (v->alive[u] && v->degree[u] == 1) {
            founding(v, src, dst, out);
            return;
        }
    }
    quiet(v, src, dst, out);
}

/* heuristic_order: codes best first for a mover whose clan is c with probability
 * weights[c]; ties keep their order (a stable merge sort). */
static int heuristic_order(const State *s, const Board *b, int *codes, uint64_t *ords,
                           int count, const double *weights) {
    View *v = malloc(sizeof(View));
    double *score = malloc(sizeof(double) * (size_t)count);
    int *idx = malloc(sizeof(int) * (size_t)count * 2);
    int *ctmp = malloc(sizeof(int) * (size_t)count);
    uint64_t *otmp = malloc(sizeof(uint64_t) * (size_t)count);
    if (!v || !score || !idx || !ctmp || !otmp) {
        free(v);
        free(score);
        free(idx);
        free(ctmp);
        free(otmp);
        return -1;
    }
    view_init(v, s, b);
    /* each (src, dst) pair valued once */
    double pair_score[MAXT * 64];
    uint8_t have[MAXT * 64];
    memset(have, 0, sizeof have);
    for (int i = 0; i < count; i++) {
        int a = codes[i] & ACTION_MASK;
        if (!have[a]) {
            double val[NCLANS];
            evaluate(v, a >> 6, a & 63, val);
            double sc = 0.0;
            for (int c = 0; c < NCLANS; c++)
                if (weights[c] != 0.0) sc += weights[c] * val[c];
            pair_score[a] = sc;
            have[a] = 1;
        }
        score[i] = pair_score[a];
        idx[i] = i;
    }
    /* bottom-up merge sort of idx by descending score, stable */
    int *src = idx, *dst = idx + count;
    for (int width = 1; width < count; width *= 2) {
        for (int lo = 0; lo < count; lo += 2 * width) {
            int mid = lo + width < count ? lo + width : count;
            int hi = lo + 2 * width < count ? lo + 2 * width : count;
            int i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                if (-score[src[j]] < -score[src[i]]) dst[k++] = src[j++];
                else dst[k++] = src[i++];
            }
            while (i < mid) dst[k++] = src[i++];
            while (j < hi) dst[k++] = src[j++];
        }
        int *t = src;
        src = dst;
        dst = t;
    }
    for (int i = 0; i < count; i++) {
        ctmp[i] = codes[src[i]];
        otmp[i] = ords ? ords[src[i]] : 0;
    }
    memcpy(codes, ctmp, sizeof(int) * (size_t)count);
    if (ords) memcpy(ords, otmp, sizeof(uint64_t) * (size_t)count);
    free(v);
    free(score);
    free(idx);
    free(ctmp);
    free(otmp);
    return 0;
}

/* For the tests: codes best first, as heuristic_order in ismcts.py gives them. */
int cc_heuristic_order(const State *s, const Board *b, int *codes, int count,
                       const double *weights) {
    return heuristic_order(s, b, codes, NULL, count, weights);
}

/* clan_values: each of count moves' values for each clan (NCLANS a move, in out).
 * Returns 0, or -1 when out of memory. */
int cc_clan_values(const State *s, const Board *b, const int *actions, int count,
                   double *out) {
    View *v = malloc(sizeof(View));
    if (!v) return -1;
    view_init(v, s, b);
    for (int i = 0; i < count; i++)
        evaluate(v, actions[i] >> 6 & 63, actions[i] & 63, out + NCLANS * i);
    free(v);
    return 0;
}

/* ------------------------------------------------------------------- the search */

/* A node holds what the Python _Node holds, no more: its children's codes (all once full,
 * else the tried ones), their village orders only when one has an order (most nodes have
 * none: NULL), and visits, rewards and child nodes for the tried ones. */
typedef struct Node {
    int player, total, ntried, nact, cap, cap_tried, full, sorted;
    int *actions;          /* codes: order_index << 12 | src << 6 | dst */
    uint64_t *ord;         /* the village order of each code (0: none), or NULL: none has */
    int *n;                /* visits of the tried ones */
    double *w;             /* summed rewards of this node's mover */
    struct Node **children;
} Node;

static inline uint64_t node_ord(const Node *nd, int i) { return nd->ord ? nd->ord[i] : 0; }

/* Lists every code (actions_with_orders): each legal action, one per village order. */
typedef struct {
    int len, cap;
    int *codes;
    uint64_t *ord;
} Codes;

/* ptr made room for cap of its items (realloc; as it was when out of memory, and then the
 * function using it returns -1). */
#define GROW(ptr, cap)                                                   \
    do {                                                                 \
        void *grown_ = realloc((ptr), sizeof *(ptr) * (size_t)(cap));    \
        if (!grown_) return -1;                                          \
        (ptr) = grown_;                                                  \
    } while (0)

static int codes_push(Codes *c, int code, uint64_t ord) {
    if (c->len == c->cap) {
        int cap = c->cap ? 2 * c->cap : 64;
        GROW(c->codes, cap);
        GROW(c->ord, cap);
        c->cap = cap;
    }
    c->codes[c->len] = code;
    c->ord[c->len] = ord;
    c->len++;
    return 0;
}

static int actions_with_orders(const State *s, const Board *b, Codes *out) {
    int actions[MAXT * MAXN];
    int na = legal_actions(s, b, actions);
    out->len = 0;
    int last_src = -1, nf = 0, f[MAXN];
    for (int i = 0; i < na; i++) {
        int a = actions[i], src = a >> 6;
        if (src != last_src) {
            nf = founds(s, b, src, f);
            last_src = src;
        }
        if (nf < 2) {
            if (codes_push(out, a, 0)) return -1;
        } else {
            int count = factorial(nf);
            for (int k = 0; k < count; k++)
                if (codes_push(out, k << 12 | a, kth_order(f, nf, k))) return -1;
        }
    }
    return 0;
}

/* Room for cap codes (and their orders, when the node has any). */
static int node_reserve(Node *nd, int cap) {
    if (cap <= nd->cap) return 0;
    int c = nd->cap ? nd->cap : 4;
    while (c < cap) c *= 2;
    GROW(nd->actions, c);
    if (nd->ord) {
        GROW(nd->ord, c);
        memset(nd->ord + nd->cap, 0, sizeof(uint64_t) * (size_t)(c - nd->cap));
    }
    nd->cap = c;
    return 0;
}

/* Room for cap tried children's visits, rewards and nodes. */
static int node_reserve_tried(Node *nd, int cap) {
    if (cap <= nd->cap_tried) return 0;
    int c = nd->cap_tried ? nd->cap_tried : 2;
    while (c < cap) c *= 2;
    GROW(nd->n, c);
    GROW(nd->w, c);
    GROW(nd->children, c);
    nd->cap_tried = c;
    return 0;
}

/* Sets code i's village order (the orders are made when the first one is not 0). */
static int node_set_ord(Node *nd, int i, uint64_t ord) {
    if (!nd->ord) {
        if (!ord) return 0;
        nd->ord = calloc((size_t)nd->cap, sizeof(uint64_t));
        if (!nd->ord) return -1;
    }
    nd->ord[i] = ord;
    return 0;
}

void cc_tree_free(Node *root, Node *keep);

static void node_free(Node *nd) { cc_tree_free(nd, NULL); }

/* _Node(player, state, rng, eager): eager lists every child, shuffled by rng.shuffle. */
static Node *node_new(int player, const State *s, const Board *b, Rng *r, int eager,
                      Codes *scratch) {
    Node *nd = calloc(1, sizeof(Node));
    if (!nd) return NULL;
    nd->player = player;
    if (eager) {
        if (actions_with_orders(s, b, scratch) || node_reserve(nd, scratch->len)) {
            node_free(nd);
            return NULL;
        }
        int len = scratch->len;
        memcpy(nd->actions, scratch->codes, sizeof(int) * (size_t)len);
        for (int i = 0; i < len; i++)
            if (node_set_ord(nd, i, scratch->ord[i])) {
                node_free(nd);
                return NULL;
            }
        for (int i = len - 1; i > 0; i--) { /* random.shuffle */
            int j = (int)mt_below(r, (uint32_t)(i + 1));
            int a = nd->actions[i];
            nd->actions[i] = nd->actions[j];
            nd->actions[j] = a;
            if (nd->ord) {
                uint64_t o = nd->ord[i];
                nd->ord[i] = nd->ord[j];
                nd->ord[j] = o;
            }
        }
        nd->nact = len;
        nd->full = 1;
    }
    return nd;
}

/* _Node.complete: the untried children after the tried ones, in random order. */
static int node_complete(Node *nd, const State *s, const Board *b, Rng *r, Codes *scratch) {
    if (actions_with_orders(s, b, scratch)) return -1;
    if (node_reserve(nd, nd->ntried + scratch->len)) return -1;
    int k = nd->ntried;
    for (int i = 0; i < scratch->len; i++) {
        int code = scratch->codes[i], tried = 0;
        for (int j = 0; j < nd->ntried; j++)
            if (nd->actions[j] == code) {
                tried = 1;
                break;
            }
        if (!tried) {
            nd->actions[k] = code;
            if (node_set_ord(nd, k, scratch->ord[i])) return -1;
            k++;
        }
    }
    int *rest = nd->actions + nd->ntried;
    uint64_t *rord = nd->ord ? nd->ord + nd->ntried : NULL;
    int nrest = k - nd->ntried;
    for (int i = nrest - 1; i > 0; i--) {
        int j = (int)(mt_random(r) * (i + 1));
        int a = rest[i];
        rest[i] = rest[j];
        rest[j] = a;
        if (rord) {
            uint64_t o = rord[i];
            rord[i] = rord[j];
            rord[j] = o;
        }
    }
    nd->nact = k;
    nd->full = 1;
    return 0;
}

/* _Node.draw: add an untried child drawn at random; 0 when every child has been tried,
 * 1 when one was added, -1 when out of memory. */
static int node_draw(Node *nd, const State *s, const Board *b, Rng *r, Codes *scratch) {
    for (int tries = 0; tries < 16; tries++) {
        int action = random_legal_action(s, b, r);
        int f[MAXN];
        int nf = founds(s, b, action >> 6, f);
        int code = action;
        uint64_t ord = 0;
        if (nf >= 2) {
            int count = factorial(nf);
            int k = (int)(mt_random(r) * count);
            code = k << 12 | action;
            ord = kth_order(f, nf, k);
        }
        int seen = 0;
        for (int j = 0; j < nd->nact; j++)
            if (nd->actions[j] == code) {
                seen = 1;
                break;
            }
        if (!seen) {
            if (node_reserve(nd, nd->nact + 1)) return -1;
            nd->actions[nd->nact] = code;
            if (node_set_ord(nd, nd->nact, ord)) return -1;
            nd->nact++;
            return 1;
        }
    }
    if (node_complete(nd, s, b, r, scratch)) return -1;
    return nd->ntried < nd->nact;
}

typedef struct {
    const Board *b;
    State root_state;
    int nplayers;
    /* Settings */
    double exploration, margin_weight, margin_scale, widening, root_breadth;
    int ordered, order_after, max_nodes, made; /* made: nodes this search made */
    /* determinisations: nhyps assignments of nplayers clans, uniform or by cum */
    int nhyps, weighted;
    int *hyps;
    double *cum;
    double total;
    double *weights; /* clan_weights: nplayers rows of NCLANS */
    Rng rng;
    Node *root;
    Codes scratch;
    /* the path of one iteration */
    Node *path_node[MAXT + 8];
    int path_i[MAXT + 8];
    int failed;
} Search;

size_t cc_search_size(void) { return sizeof(Search); }

/* _Node.sort_untried: the untried children in the heuristic's order for the node's
 * mover (st: the node's position). */
static int sort_untried(Search *S, Node *nd, const State *st) {
    nd->sorted = 1;
    int nrest = nd->nact - nd->ntried;
    if (nrest < 2) return 0;
    return heuristic_order(st, S->b, nd->actions + nd->ntried,
                           nd->ord ? nd->ord + nd->ntried : NULL, nrest,
                           S->weights + NCLANS * nd->player);
}

/* Search.__init__ of a search: the root kept from an earlier search (completed when it
 * is not full) or a new one, sorted when ordered. Returns 0, or -1 on a failure. */
int cc_search_start(Search *S, const Board *b, const State *state, double exploration,
                    double margin_weight, double margin_scale, double widening,
                    double root_breadth, int ordered, int order_after, int max_nodes,
                    int nhyps, const int *hyps, int weighted, const double *cum, double total,
                    const double *weights, const uint32_t *rng_words, int rng_index,
                    Node *root) {
    memset(S, 0, sizeof *S);
    S->root = root; /* the caller's kept tree is the search's from here, freed with it */
    S->b = b;
    S->root_state = *state;
    S->nplayers = state->nplayers;
    S->exploration = exploration;
    S->margin_weight = margin_weight;
    S->margin_scale = margin_scale;
    S->widening = widening;
    S->root_breadth = root_breadth;
    S->ordered = ordered;
    S->order_after = order_after;
    S->max_nodes = max_nodes;
    S->nhyps = nhyps;
    S->weighted = weighted;
    S->hyps = malloc(sizeof(int) * (size_t)(nhyps * state->nplayers));
    S->cum = malloc(sizeof(double) * (size_t)nhyps);
    S->weights = malloc(sizeof(double) * (size_t)(NCLANS * state->nplayers));
    if (!S->hyps || !S->cum || !S->weights) return -1;
    if (weights) memcpy(S->weights, weights, sizeof(double) * (size_t)(NCLANS * state->nplayers));
    memcpy(S->hyps, hyps, sizeof(int) * (size_t)(nhyps * state->nplayers));
    if (cum) memcpy(S->cum, cum, sizeof(double) * (size_t)nhyps);
    S->total = total;
    cc_rng_set(&S->rng, rng_words, rng_index);
    int me = state->ply % state->nplayers;
    if (root == NULL) {
        root = node_new(me, state, b, &S->rng, 1, &S->scratch);
        if (!root) return -1;
    }
    S->root = root;
    if (!root->full && node_complete(root, state, b, &S->rng, &S->scratch)) return -1;
    if (ordered && sort_untried(S, root, state)) return -1;
    return 0;
}

/* The search's root (owned by the caller once the search is done). */
Node *cc_search_root(Search *S) { return S->root; }

int cc_search_rng(const Search *S, uint32_t *words) { return cc_rng_get(&S->rng, words); }

void cc_search_end(Search *S) {
    free(S->hyps);
    free(S->cum);
    free(S->weights);
    free(S->scratch.codes);
    free(S->scratch.ord);
    S->hyps = NULL;
    S->cum = NULL;
    S->weights = NULL;
    S->scratch.codes = NULL;
    S->scratch.ord = NULL;
}

/* walker(): selection and expansion; returns the path's length, or -1 on a failure. */
static int walk(Search *S, State *st) {
    const Board *b = S->b;
    Node *node = S->root;
    double c = S->exploration;
    int depth = 0;
    for (;;) {
        int tried = node->ntried, total = node->total, fresh = 0;
        int open = S->widening == 0.0;
        if (!open) {
            double x = node == S->root ? (double)total * S->root_breadth + 1.0
                                       : (double)(total + 1);
            open = (double)tried < S->widening * sqrt(x);
        }
        if (open) {
            if (S->ordered && !node->sorted && total >= S->order_after) {
                if (!node->full && node_complete(node, st, b, &S->rng, &S->scratch)) return -1;
                if (sort_untried(S, node, st)) return -1;
            }
            if (node->full) {
                fresh = tried < node->nact;
            } else {
                fresh = node_draw(node, st, b, &S->rng, &S->scratch);
                if (fresh < 0) return -1;
            }
        }
        int i;
        if (fresh) {
            i = tried;
            if (node_reserve_tried(node, tried + 1)) return -1;
            node->n[i] = 1;
            node->w[i] = 0.0;
            node->children[i] = NULL;
            node->ntried = tried + 1;
        } else {
            double k = c * sqrt(log((double)total));
            double best = -1.0;
            i = 0;
            for (int j = 0; j < tried; j++) {
                int cn = node->n[j];
                double v = (node->w[j] + k * sqrt((double)cn)) / cn;
                if (v > best) {
                    best = v;
                    i = j;
                }
            }
            node->n[i] += 1;
        }
        node->total = total + 1;
        int code = node->actions[i];
        int order[MAXN];
        int norder = unpack_order(node_ord(node, i), order);
        apply(st, b, code >> 6 & 63, code & 63, norder ? order : NULL, norder, NULL);
        S->path_node[depth] = node;
        S->path_i[depth] = i;
        depth++;
        if (fresh || st->end) return depth;
        Node *child = node->children[i];
        if (child == NULL) {
            if (S->made >= S->max_nodes) return depth; /* the tree may grow no more */
            S->made++;
            child = node_new((node->player + 1) % S->nplayers, st, b, &S->rng,
                             S->widening == 0.0, &S->scratch);
            if (!child) return -1;
            node->children[i] = child;
        }
        node = child;
    }
}

/* _rewards: each player's share of the win blended with the score margin (R20, R21). */
static void rewards(const State *st, const int *clans, int np, double mw, double ms,
                    double *out) {
    int scores[MAXP], top = -1000000, winners = 0;
    for (int p = 0; p < np; p++) {
        scores[p] = st->points[clans[p]] + st->chips[p];
        if (scores[p] > top) top = scores[p];
    }
    for (int p = 0; p < np; p++) winners += scores[p] == top;
    double share = 1.0 / winners;
    if (mw == 0.0) {
        for (int p = 0; p < np; p++) out[p] = scores[p] == top ? share : 0.0;
        return;
    }
    int runner_up = top;
    if (winners == 1) {
        int found = 0;
        for (int p = 0; p < np; p++)
            if (scores[p] != top && (!found || scores[p] > runner_up)) {
                runner_up = scores[p];
                found = 1;
            }
        if (!found) runner_up = top;
    }
    double keep = 1.0 - mw, half = mw * 0.5;
    for (int p = 0; p < np; p++) {
        double margin, win;
        if (scores[p] == top) {
            margin = (double)(scores[p] - runner_up) / ms;
            win = keep * share;
        } else {
            margin = (double)(scores[p] - top) / ms;
            win = 0.0;
        }
        if (margin > 1.0) margin = 1.0;
        else if (margin < -1.0) margin = -1.0;
        out[p] = win + half * (1.0 + margin);
    }
}

static double monotonic(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Up to max_iters iterations, stopping once seconds have passed (< 0: no time limit) and
 * one has been done overall (done: those done before this call). Returns the iterations
 * done in this call, or -1 when out of memory. */
int cc_search_run(Search *S, int max_iters, double seconds, int done) {
    double deadline = seconds < 0.0 ? -1.0 : monotonic() + seconds;
    const Board *b = S->b;
    int np = S->nplayers;
    State st;
    double reward[MAXP];
    int k = 0;
    for (; k < max_iters; k++) {
        if (deadline >= 0.0 && (done + k) && monotonic() >= deadline) break;
        /* the determinisation (uniform_sampler / weighted_sampler) */
        const int *clans;
        double x = mt_random(&S->rng);
        if (S->weighted) {
            x *= S->total;
            int lo = 0, hi = S->nhyps; /* bisect_right(cum, x) */
            while (lo < hi) {
                int mid = (lo + hi) / 2;
                if (x < S->cum[mid]) hi = mid;
                else lo = mid + 1;
            }
            if (lo > S->nhyps - 1) lo = S->nhyps - 1;
            clans = S->hyps + lo * np;
        } else {
            clans = S->hyps + (int)(x * S->nhyps) * np;
        }
        st = S->root_state;
        int depth = walk(S, &st);
        if (depth < 0) {
            S->failed = 1;
            return -1;
        }
        playout(&st, b, &S->rng);
        rewards(&st, clans, np, S->margin_weight, S->margin_scale, reward);
        for (int d = 0; d < depth; d++)
            S->path_node[d]->w[S->path_i[d]] += reward[S->path_node[d]->player];
    }
    return k;
}

/* ------------------------------------------------------- reading a kept tree */

void cc_node_info(const Node *nd, int *out) {
    out[0] = nd->player;
    out[1] = nd->total;
    out[2] = nd->ntried;
    out[3] = nd->nact;
    out[4] = nd->full;
    out[5] = nd->sorted;
}

/* The first count children: codes, orders, and for the tried ones visits and rewards. */
void cc_node_children(const Node *nd, int count, int *codes, uint64_t *ords, int *n,
                      double *w) {
    for (int i = 0; i < count && i < nd->nact; i++) {
        codes[i] = nd->actions[i];
        ords[i] = node_ord(nd, i);
        if (i < nd->ntried) {
            n[i] = nd->n[i];
            w[i] = nd->w[i];
        }
    }
}

/* The node child i leads to, or NULL (not tried twice). */
Node *cc_node_child(const Node *nd, int i) {
    return i < nd->ntried ? nd->children[i] : NULL;
}

/* Frees the tree of root but the subtree of keep (a node in it, or NULL). */
void cc_tree_free(Node *root, Node *keep) {
    if (!root || root == keep) return;
    for (int i = 0; i < root->ntried; i++) cc_tree_free(root->children[i], keep);
    free(root->actions);
    free(root->ord);
    free(root->n);
    free(root->w);
    free(root->children);
    free(root);
}

