/* Per-chain random number streams: L'Ecuyer's MRG32k3a, exactly the generator
 * behind R's RNGkind("L'Ecuyer-CMRG"), with stream advancement as in
 * parallel::nextRNGStream (the A^(2^127) jump of L'Ecuyer, Simard, Chen &
 * Kelton 2002). Streams are seeded from R's RNG, so set.seed() reproduces them,
 * and each chain owns one, so results do not depend on the number of threads. */
#include <math.h>
#include "logz.h"

#define M1 4294967087LL
#define M2 4294944443LL
#define NORMC 2.328306549295727688e-10

/* Exact in double arithmetic: every product and difference below is an integer
 * of magnitude < 2^53, and the quotient estimate from the reciprocal is
 * corrected, so the output is bit-for-bit that of R's integer version. */
double logz_stream_unif(logz_stream *st)
{
    double *s = st->s;
    double p1 = 1403580.0 * s[1] - 810728.0 * s[0];
    p1 -= (double) (int64_t) (p1 * (1.0 / 4294967087.0)) * 4294967087.0;
    if (p1 < 0.0) p1 += 4294967087.0;
    if (p1 >= 4294967087.0) p1 -= 4294967087.0;
    s[0] = s[1]; s[1] = s[2]; s[2] = p1;
    double p2 = 527612.0 * s[5] - 1370589.0 * s[3];
    p2 -= (double) (int64_t) (p2 * (1.0 / 4294944443.0)) * 4294944443.0;
    if (p2 < 0.0) p2 += 4294944443.0;
    if (p2 >= 4294944443.0) p2 -= 4294944443.0;
    s[3] = s[4]; s[4] = s[5]; s[5] = p2;
    return ((p1 > p2) ? (p1 - p2) : (p1 - p2 + 4294967087.0)) * NORMC;
}

/* A standard normal draw from a stream (Box-Muller, one of the pair). */
double logz_stream_norm(logz_stream *st)
{
    double u1 = logz_stream_unif(st), u2 = logz_stream_unif(st);
    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

/* (a * s + c) mod m in double arithmetic, from L'Ecuyer's RngStreams. */
#define TWO17 131072.0
#define TWO53 9007199254740992.0
static double mult_mod(double a, double s, double c, double m)
{
    double v = a * s + c;
    int64_t a1;
    if (v >= TWO53 || v <= -TWO53) {
        a1 = (int64_t) (a / TWO17);
        a -= a1 * TWO17;
        v = a1 * s;
        a1 = (int64_t) (v / m);
        v -= a1 * m;
        v = v * TWO17 + a * s + c;
    }
    a1 = (int64_t) (v / m);
    if ((v -= a1 * m) < 0.0) v += m;
    return v;
}

static void mat_vec_mod(const double A[3][3], const double s[3], double v[3], double m)
{
    double x[3];
    for (int i = 0; i < 3; i++) {
        x[i] = mult_mod(A[i][0], s[0], 0.0, m);
        x[i] = mult_mod(A[i][1], s[1], x[i], m);
        x[i] = mult_mod(A[i][2], s[2], x[i], m);
    }
    for (int i = 0; i < 3; i++) v[i] = x[i];
}

static const double A1P127[3][3] = {
    {2427906178.0, 3580155704.0, 949770784.0},
    {226153695.0, 1230515664.0, 3580155704.0},
    {1988835001.0, 986791581.0, 1230515664.0}};
static const double A2P127[3][3] = {
    {1464411153.0, 277697599.0, 1610723613.0},
    {32183930.0, 1464411153.0, 1022607788.0},
    {2824425944.0, 32183930.0, 2093834863.0}};

void logz_stream_next(const logz_stream *in, logz_stream *out)
{
    double s1[3], s2[3], v1[3], v2[3];
    for (int i = 0; i < 3; i++) {
        s1[i] = (double) in->s[i];
        s2[i] = (double) in->s[i + 3];
    }
    mat_vec_mod(A1P127, s1, v1, (double) M1);
    mat_vec_mod(A2P127, s2, v2, (double) M2);
    for (int i = 0; i < 3; i++) {
        out->s[i] = v1[i];
        out->s[i + 3] = v2[i];
    }
}

void logz_streams_seed(int n, logz_stream *out)
{
    logz_stream base;
    do {
        for (int i = 0; i < 3; i++) base.s[i] = floor(unif_rand() * (double) M1);
        for (int i = 3; i < 6; i++) base.s[i] = floor(unif_rand() * (double) M2);
    } while ((base.s[0] == 0 && base.s[1] == 0 && base.s[2] == 0) ||
             (base.s[3] == 0 && base.s[4] == 0 && base.s[5] == 0));
    logz_stream cur = base;
    for (int c = 0; c < n; c++) {
        logz_stream_next(&cur, &out[c]);
        cur = out[c];
    }
}

void logz_streams_to_double(int n, const logz_stream *st, double *out)
{
    for (int c = 0; c < n; c++)
        for (int i = 0; i < 6; i++) out[6 * c + i] = (double) st[c].s[i];
}

int logz_streams_from_double(int n, const double *in, logz_stream *st)
{
    for (int c = 0; c < n; c++)
        for (int i = 0; i < 6; i++) {
            double v = in[6 * c + i];
            if (!(v >= 0.0 && v < (double) (i < 3 ? M1 : M2)) || v != (double) (int64_t) v)
                return 0;
            st[c].s[i] = v;
        }
    return 1;
}

/* Fill out[c * ld + k], k < n, with the next n uniforms of each of the nst
 * streams. Four streams at a time run in the lanes of one vector (the same
 * exact integer arithmetic, with the quotient rounded by the 1.5 * 2^52 trick),
 * which hides the latency of the recurrence; each stream still yields its own
 * sequence, identical to logz_stream_unif(). */
typedef double rng_v4d __attribute__((vector_size(32)));
typedef long long rng_v4l __attribute__((vector_size(32)));

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
__attribute__((target_clones("avx2", "default")))
#endif
static void fill4(logz_stream *st, int n, double *out, int ld)
{
    const rng_v4d m1 = {4294967087.0, 4294967087.0, 4294967087.0, 4294967087.0};
    const rng_v4d m2 = {4294944443.0, 4294944443.0, 4294944443.0, 4294944443.0};
    const rng_v4d magic = {6755399441055744.0, 6755399441055744.0, 6755399441055744.0,
                           6755399441055744.0};
    const rng_v4d zero = {0.0, 0.0, 0.0, 0.0};
    rng_v4d s[6];
    for (int i = 0; i < 6; i++)
        for (int c = 0; c < 4; c++) s[i][c] = st[c].s[i];
    for (int k = 0; k < n; k++) {
        rng_v4d p1 = 1403580.0 * s[1] - 810728.0 * s[0];
        rng_v4d q = (p1 * (1.0 / 4294967087.0) + magic) - magic;
        p1 -= q * m1;
        p1 += (rng_v4d) ((rng_v4l) (p1 < zero) & (rng_v4l) m1);
        s[0] = s[1]; s[1] = s[2]; s[2] = p1;
        rng_v4d p2 = 527612.0 * s[5] - 1370589.0 * s[3];
        q = (p2 * (1.0 / 4294944443.0) + magic) - magic;
        p2 -= q * m2;
        p2 += (rng_v4d) ((rng_v4l) (p2 < zero) & (rng_v4l) m2);
        s[3] = s[4]; s[4] = s[5]; s[5] = p2;
        rng_v4d r = p1 - p2;
        r += (rng_v4d) ((rng_v4l) (r <= zero) & (rng_v4l) m1);
        r *= 2.328306549295727688e-10;
        for (int c = 0; c < 4; c++) out[(size_t) c * ld + k] = r[c];
    }
    for (int i = 0; i < 6; i++)
        for (int c = 0; c < 4; c++) st[c].s[i] = s[i][c];
}

void logz_streams_fill(logz_stream *st, int nst, int n, double *out, int ld)
{
    int c = 0;
    for (; c + 4 <= nst; c += 4) fill4(st + c, n, out + (size_t) c * ld, ld);
    for (; c < nst; c++)
        for (int k = 0; k < n; k++) out[(size_t) c * ld + k] = logz_stream_unif(&st[c]);
}
