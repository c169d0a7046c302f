/* GumbelMIP: node keys and the random stream of each node.
 *
 * Every node of the search tree carries a 64-bit key: the root's comes from
 * the sample's stream, a child's is a hash of its parent's key, the branching
 * variable and the side (kept sigma_x or flipped), and the random draws of a
 * split (the new child's truncated Gumbel and its redrawn sigma) come from an
 * MRG32k3a stream seeded by hashing the child's key. Since the branching
 * variable of a node also depends only on the node (its fixings, sigma and
 * LP solution; never the incumbent), the whole perturbed tree -- every
 * configuration's Gumbel value -- is a function of the sample's stream
 * alone, and any correct search (one thread or several, in any order)
 * returns the same argmax and value. The hash is splitmix64's finaliser
 * (Steele, Lea & Flood 2014); 64-bit keys collide with probability about
 * N^2 / 2^65 for N nodes. */
#include "mip.h"

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

#define GOLDEN 0x9E3779B97F4A7C15ULL

uint64_t mip_key_child(uint64_t key, int x, int side)
{
    return mix64(key ^ mix64((((uint64_t) x << 1) | (uint64_t) (side & 1)) + GOLDEN));
}

/* 64 bits from two draws of the sample's stream (32 bits each) */
uint64_t mip_key_root(logz_stream *rs)
{
    uint64_t hi = (uint64_t) (logz_stream_unif(rs) * 4294967296.0);
    uint64_t lo = (uint64_t) (logz_stream_unif(rs) * 4294967296.0);
    return mix64((hi << 32) ^ lo);
}

/* An MRG32k3a state from a key: six splitmix64 outputs reduced below the
 * moduli (neither half all zero). */
void mip_node_stream(uint64_t key, logz_stream *s)
{
    uint64_t z = key ^ 0x5851F42D4C957F2DULL;
    for (int i = 0; i < 6; i++) {
        z += GOLDEN;
        uint64_t m = i < 3 ? 4294967087ULL : 4294944443ULL;
        s->s[i] = (double) ((mix64(z) >> 16) % m);
    }
    if (s->s[0] == 0 && s->s[1] == 0 && s->s[2] == 0) s->s[0] = 1;
    if (s->s[3] == 0 && s->s[4] == 0 && s->s[5] == 0) s->s[3] = 1;
}
