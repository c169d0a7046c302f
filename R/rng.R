# Per-chain random number streams (src/rng.c): the R wrappers of its routines.
# A stream is the six-number state of R's "L'Ecuyer-CMRG" generator (MRG32k3a),
# held as doubles; a set of M streams is a 6 x M matrix.

# `n` fresh streams seeded from R's RNG (as parallel::nextRNGStream does from
# one seed), as a 6 x n double matrix.
rng_streams <- function(n) .Call(C_rng_streams, internal_count(n, "n", min = 0L))

# `n` uniforms from each stream of `state` (6 x k), as an n x k matrix.
rng_stream_unif <- function(state, n) {
  state <- as.double(state)
  if (length(state) %% 6L != 0L)
    internal_error(sprintf("a stream state has 6 numbers per stream, not %d in all.", length(state)))
  .Call(C_rng_stream_unif, state, internal_count(n, "n", min = 0L))
}
