# Single-site Gibbs sampling (the gibbs_sample() generic and its Ising method).

#' Gibbs sampling
#'
#' Draws states of a model by single-site Gibbs sampling in C. For an
#' [ising] model each sweep updates every variable once from its conditional,
#' \eqn{P(x_i = \mathrm{hi} \mid x_{-i}) = \sigma((\mathrm{hi}-\mathrm{lo})(f_i + \sum_j w_{ij} x_j))}{P(x_i = hi | rest) = sigmoid((hi - lo) (f_i + sum_j w_ij x_j))};
#' on bipartite graphs (such as grids) the sweep updates one colour class and
#' then the other (a checkerboard sweep; each half is an exact block draw).
#' Chains start from the independent model with the same fields, run
#' `burn_in` sweeps, and then record a state every `sweeps` sweeps. Each chain
#' owns an L'Ecuyer-CMRG stream seeded from R's RNG, so `set.seed()`
#' reproduces the samples for any `threads`.
#'
#' @param model the model: an [ising].
#' @param n number of states to return (>= 1).
#' @param sweeps sweeps between recorded states (thinning, >= 1).
#' @param burn_in sweeps before the first recorded state (>= 0).
#' @param n_chains number of independent chains; chain `c` gives rows
#'   `(c - 1) * ceiling(n / n_chains) + 1, ...` (the last chain may give
#'   fewer).
#' @param init starting states: `NULL` (random, see above), a vector of `n`
#'   spin values used by every chain, or a `n_chains x n` matrix.
#' @param threads number of OpenMP threads (chains are split over them).
#' @param progress show progress (default: in interactive sessions; through
#'   \pkg{progressr} when its handlers are on, see [logz_progress]): the
#'   recorded states are then drawn in up to 50 pieces, each chain continuing
#'   from its state and stream, so the samples are the same as without.
#' @param ... further arguments for methods.
#' @return An integer matrix of class `logz_gibbs` with `n` rows (states) and
#'   one column per variable, holding spin values (-1/+1 or 0/1), with
#'   attributes `chain`
#'   (the chain of each row), `sweeps`, `burn_in`, `spins` and `seed` (the RNG
#'   state at entry). It converts to \pkg{posterior} draws and \pkg{coda}
#'   chains with the chains kept apart (see [logz_draws]).
#' @section Errors: `model` not supported; `n`, `sweeps`, `burn_in`, `n_chains`
#'   or `threads` not whole numbers in range; `progress` not `TRUE`/`FALSE`; `init` of the wrong shape or with
#'   values other than the model's spin values.
#' @references
#' * Geman, S. and Geman, D. (1984). Stochastic relaxation, Gibbs distributions, and
#'   the Bayesian restoration of images. IEEE PAMI 6, 721-741.
#' @seealso [exact_marginals()] for exact answers on small or thin models.
#' @examples
#' set.seed(1)
#' m <- ising_grid(5, 5, coupling = 0.4, field = 0.2)
#' x <- gibbs_sample(m, 500, sweeps = 2, burn_in = 50, n_chains = 4)
#' dim(x)
#' round(colMeans(x == 1)[1:5], 2)
#' round(exact_marginals(m)$node[1:5], 2)
#' @export
gibbs_sample <- function(model, ...) UseMethod("gibbs_sample")

#' @export
gibbs_sample.default <- function(model, ...) {
  stop_no_call(sprintf("gibbs_sample() does not know how to handle `model` of class %s.",
                       paste(class(model), collapse = "/")))
}

#' @rdname gibbs_sample
#' @export
gibbs_sample.ising <- function(model, n, sweeps = 1L, burn_in = 100L, n_chains = 1L, init = NULL,
                               threads = 1L, progress = interactive(), ...) {
  check_dots_used(...)
  validate_model(model)
  chains <- n_chains <- check_count(n_chains, "n_chains")
  n <- check_count(n, "n", bytes_each = 4 * model$n)
  sweeps <- check_count(sweeps, "sweeps")
  burn_in <- check_count(burn_in, "burn_in", min = 0L)
  threads <- check_threads(threads)
  check_flag(progress, "progress")
  p <- model$n
  X <- NULL
  if (!is.null(init)) {
    if (is.null(dim(init))) {
      if (length(init) != p)
        stop_no_call(sprintf("`init` must have length %d (one spin per variable), not %d.", p,
                             length(init)))
      init <- matrix(init, chains, p, byrow = TRUE)
    }
    if (!is.numeric(init) || !identical(dim(init), c(chains, p)))
      stop_no_call(sprintf("`init` must be a numeric vector of length %d or a %d x %d matrix, not %s.",
                           p, chains, p, describe(init)))
    if (anyNA(init) || !all(init %in% model$values))
      stop_no_call(sprintf("`init` must hold only the spin values %s.", spin_label(model$spins)))
    X <- t(init)
    storage.mode(X) <- "double"
  }
  n_per <- as.integer(ceiling(n / chains))
  if (as.double(n) * p > .Machine$integer.max)
    stop_no_call("`n` x number of variables is too large for one matrix.")
  seed <- rng_state()
  state <- list(X = X, streams = rng_streams(chains))
  cm <- ising_c_model(model, order = ising_sweep_order(model))
  # with progress: the n_per states of each chain in pieces, each continuing
  # from the chains' states and streams (the same draws as one call); the C
  # engine writes each piece's states into the one result matrix
  ends <- if (progress) unique(ceiling(seq_len(min(n_per, 50L)) * n_per / min(n_per, 50L))) else n_per
  pb <- progress_bar(progress, n_per)
  on.exit(pb$close())
  out <- NULL
  done <- 0L
  for (e in ends) {
    control <- list(n_per = as.integer(e - done), sweeps = sweeps,
                    burn_in = if (done == 0L) burn_in else 0L, threads = threads,
                    n_rows = n, n_per_total = n_per, offset = done)
    res <- ising_gibbs_chunk(cm, c(state, list(out = out)), control)
    out <- res$samples
    state <- list(X = res$X, streams = res$streams)
    res <- NULL
    done <- e
    pb$update(done)
  }
  # attributes set in place (a copy of a matrix of 1e6 states would take
  # seconds and could not be interrupted)
  if (!is.null(model$names)) dimnames(out) <- list(NULL, model$names)
  attr(out, "chain") <- rep(seq_len(chains), each = n_per)[seq_len(n)]
  attr(out, "sweeps") <- sweeps
  attr(out, "burn_in") <- burn_in
  attr(out, "spins") <- model$spins
  attr(out, "seed") <- seed
  class(out) <- c("logz_gibbs", "matrix", "array")
  out
}
