# The engines of the Ising model (src/ising.c): the AIS chunk and its base
# field, and the chunk of single-site Gibbs sweeps behind gibbs_sample().

# The state of M chains before the first chunk: states drawn from the base in
# C, zero log weights, fresh streams.
ising_ais_state <- function(M) list(X = NULL, log_w = numeric(M), streams = rng_streams(M))

# One chunk of Ising AIS (src/ising.c): the steps betas[1] -> ... ->
# betas[L + 1] for all chains. cm: ising_c_model() with order and a0 (the base
# field); state: list(X = NULL or n x M chain states, log_w (M), streams (6 x
# M)); control: list(threads, sweeps (per step), final (no transition after the
# last step), log_z0). Returns list(X, log_w, streams, trace (L x 2: ESS and
# running log Z), sweeps (per chain)).
ising_ais_chunk <- function(cm, betas, state, control) {
  cm <- internal_ising_model(cm, order = TRUE, a0 = TRUE)
  M <- length(state$log_w)
  state <- list(X = internal_chains(state$X, "X", cm$n, M),
                log_w = internal_double(state$log_w, "log_w"),
                streams = internal_streams(state$streams, M))
  control <- internal_chunk_control(control)
  .Call(C_ising_ais, cm, internal_double(betas, "betas"), state, control)
}

# Gibbs sampling of M chains at beta = 1 (src/ising.c). cm: ising_c_model()
# with order (the sweep order); state: list(X = NULL (drawn from independent
# units with the model's fields) or n x M chain states, streams (6 x M), out =
# NULL or the result matrix of the previous piece, filled in place); control:
# list(n_per (states kept per chain), sweeps (between kept states), burn_in
# (sweeps before the first), threads, and where the states go: n_rows (rows of
# the result, default n_per M), n_per_total (rows per chain, default n_per),
# offset (index of the first state kept by this piece, default 0)): chain c's
# k-th state is row c n_per_total + offset + k, kept while it is <= n_rows.
# Returns list(samples (n_rows x n integer spins, one state a row), X, streams).
ising_gibbs_chunk <- function(cm, state, control) {
  cm <- internal_ising_model(cm, order = TRUE)
  streams <- internal_streams(state$streams)
  M <- length(streams) / 6
  n_per <- internal_count(control$n_per, "n_per", min = 0L)
  n_per_total <- internal_number(if (is.null(control$n_per_total)) n_per else control$n_per_total,
                                 "n_per_total")
  n_rows <- internal_number(if (is.null(control$n_rows)) as.double(n_per) * M else control$n_rows,
                            "n_rows")
  out <- state$out
  if (!is.null(out) && !(is.integer(out) && identical(dim(out), c(as.integer(n_rows), cm$n))))
    internal_error("`out` must be NULL or an n_rows x n integer matrix.")
  state <- list(X = internal_chains(state$X, "X", cm$n, M), streams = streams, out = out)
  control <- list(n_per = n_per,
                  sweeps = internal_count(control$sweeps, "sweeps"),
                  burn_in = internal_count(control$burn_in, "burn_in", min = 0L),
                  threads = internal_count(control$threads, "threads"),
                  n_rows = n_rows, n_per_total = n_per_total,
                  offset = internal_number(if (is.null(control$offset)) 0 else control$offset,
                                           "offset"))
  .Call(C_ising_gibbs, cm, state, control)
}
