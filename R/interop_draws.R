# Samples as posterior draws (posterior::as_draws_*) and coda chains
# (coda::as.mcmc, coda::as.mcmc.list), chains kept apart.

#' Samples as `posterior` draws and `coda` chains
#'
#' The samples of [gibbs_sample()] (class `logz_gibbs`), [mip_sample()],
#' [astar_sample()], [os_star_sample()], [rejection_sample()],
#' [perturb_and_map()] and [blocked_gibbs()] convert to the draws formats of
#' the \pkg{posterior} package (`as_draws()`, `as_draws_df()`,
#' `as_draws_array()`, `as_draws_matrix()`, `as_draws_list()`,
#' `as_draws_rvars()`) and to \pkg{coda}'s `mcmc` / `mcmc.list`, so that
#' `posterior::summarise_draws()`, `posterior::rhat()` or
#' `coda::gelman.diag()` apply. One variable per model variable (the columns of
#' the state or sample matrix, named by its column names or `x1, x2, ...`).
#'
#' The final particles of [arm()] (kept with `keep_particles = TRUE`, the
#' default) are weighted draws of the full model: the \pkg{posterior} draws
#' carry their log weights (`.log_weight`, as [posterior::weight_draws()]
#' sets: `posterior::resample_draws()` and `weights()` use them, while
#' `posterior::summarise_draws()` (posterior 1.4) ignores them, so resample
#' first), one chain per run of `repeats`. \pkg{coda} has no weights, so
#' `as.mcmc()`/`as.mcmc.list()` of ARM particles resample each run to R equally
#' weighted draws by systematic resampling (one uniform per run from R's RNG;
#' no resampling, and no random numbers used, when the weights are already
#' equal, as after a resampling step).
#'
#' Chains are kept apart: the `n_chains` chains of [gibbs_sample()] are the
#' draws' chains (`.chain`), in order; every other sampler gives one chain
#' (exact samplers give independent draws, [blocked_gibbs()] runs one chain).
#' The coda objects carry the thinning (`sweeps` of [gibbs_sample()], `thin`
#' of [blocked_gibbs()]) and start after the burn-in. `as.mcmc()` needs a
#' single chain (as coda's own `as.mcmc()` of an `mcmc.list`); use
#' `as.mcmc.list()` otherwise. The other log Z estimators (AIS, RTS, ...)
#' keep no samples and give an error, as does [arm()] with
#' `keep_particles = FALSE`.
#'
#' The methods are registered when \pkg{posterior} or \pkg{coda} is
#' installed (both are suggested packages).
#'
#' @param x a sample object (see above).
#' @param ... unused (an error if given).
#' @return The \pkg{posterior} draws object asked for, or a `coda::mcmc`
#'   (`as.mcmc()`) or `coda::mcmc.list` with one element per chain
#'   (`as.mcmc.list()`).
#' @section Errors: `x` holds no samples; `as.mcmc()` of several chains;
#'   `as_draws_array()`/`as_draws_matrix()`/`as_draws_rvars()` and
#'   `as.mcmc.list()` when the chains have different lengths (the last chain
#'   of [gibbs_sample()] is shorter when `n` is not a multiple of `n_chains`;
#'   `as_draws_df()` and `as_draws_list()` accept that).
#' @seealso [gibbs_sample()], [mip_sample()], [astar_sample()], [arm()]
#' @examples
#' set.seed(1)
#' g <- ising_grid(3, 3, coupling = 0.3)
#' x <- gibbs_sample(g, 400, burn_in = 20, n_chains = 4)
#' if (requireNamespace("posterior", quietly = TRUE)) {
#'   d <- posterior::as_draws_array(x)
#'   posterior::nchains(d)
#'   posterior::summarise_draws(d, "mean", "rhat")[1:3, ]
#' }
#' if (requireNamespace("coda", quietly = TRUE))
#'   coda::gelman.diag(coda::as.mcmc.list(x)[, 1:3])
#' # weighted particles of ARM, one chain per run
#' fit <- arm(g, particles = 200, repeats = 2, ess_threshold = 0.5, progress = FALSE)
#' if (requireNamespace("posterior", quietly = TRUE)) {
#'   d <- posterior::resample_draws(posterior::as_draws_df(fit))
#'   posterior::summarise_draws(d, "mean")[1:3, ]
#' }
#' @name logz_draws
NULL

# The sample matrix of `x` with its chain index, thinning, first iteration and
# log weights (NULL unless weighted: ARM's particles).
sample_draws <- function(x) {
  log_weights <- NULL
  if (inherits(x, "logz_gibbs")) {
    m <- unclass(x)
    chain <- attr(x, "chain")
    thin <- attr(x, "sweeps")
    start <- attr(x, "burn_in") + thin
    attributes(m) <- attributes(m)[c("dim", "dimnames")]
  } else {
    m <- if (is.matrix(x$states)) x$states else if (is.matrix(x$samples)) x$samples
    if (is.null(m))
      stop_no_call(sprintf(paste0("`x` (a %s result) holds no samples to convert; samples come from ",
                                  "gibbs_sample(), mip_sample(), astar_sample(), os_star_sample(), ",
                                  "rejection_sample(), perturb_and_map(), blocked_gibbs() and ",
                                  "arm(keep_particles = TRUE)."),
                           class(x)[1]))
    chain <- if (inherits(x, "logz_arm")) x$run else rep(1L, nrow(m))
    if (inherits(x, "logz_arm")) log_weights <- x$log_weights
    thin <- if (inherits(x, "logz_blocked_gibbs")) x$thin else 1L
    start <- thin
  }
  storage.mode(m) <- "double"
  if (is.null(colnames(m))) colnames(m) <- paste0("x", seq_len(ncol(m)))
  iteration <- stats::ave(seq_along(chain), chain, FUN = seq_along)
  list(values = m, chain = as.integer(chain), iteration = as.integer(iteration),
       thin = as.integer(thin), start = as.integer(start), log_weights = log_weights)
}

# Equally weighted draws for coda: each chain of weighted draws resampled to
# its length by systematic resampling (one uniform per chain from R's RNG);
# unchanged when the weights are already equal.
unweight_draws <- function(s) {
  lw <- s$log_weights
  if (is.null(lw)) return(s)
  for (ch in unique(s$chain)) {
    rows <- which(s$chain == ch)
    w <- exp(lw[rows] - max(lw[rows]))
    w <- w / sum(w)
    if (max(abs(w * length(w) - 1)) < 1e-12) next
    u <- (stats::runif(1L) + seq_along(rows) - 1) / length(rows)
    pick <- pmin(findInterval(u, cumsum(w)) + 1L, length(rows))
    s$values[rows, ] <- s$values[rows[pick], , drop = FALSE]
  }
  s$log_weights <- NULL
  s
}

check_equal_chains <- function(s, to) {
  len <- tabulate(s$chain)
  if (length(unique(len)) > 1L)
    stop_no_call(sprintf(paste0("`x` has chains of different lengths (%s), which %s cannot hold; ",
                                "use a multiple of `n_chains` for `n`, or as_draws_df()."),
                         paste(len, collapse = ", "), to))
  invisible(s)
}

draws_df_of <- function(x) {
  s <- sample_draws(x)
  d <- as.data.frame(s$values, stringsAsFactors = FALSE)
  d$.chain <- s$chain
  d$.iteration <- s$iteration
  d <- posterior::as_draws_df(d)
  if (is.null(s$log_weights)) d else posterior::weight_draws(d, s$log_weights, log = TRUE)
}

draws_array_of <- function(x) {
  s <- check_equal_chains(sample_draws(x), "a draws array")
  n_ch <- max(s$chain)
  it <- nrow(s$values) / n_ch
  a <- array(NA_real_, c(it, n_ch, ncol(s$values)),
             dimnames = list(NULL, NULL, colnames(s$values)))
  for (ch in seq_len(n_ch)) a[, ch, ] <- s$values[s$chain == ch, , drop = FALSE]
  a <- posterior::as_draws_array(a)
  if (is.null(s$log_weights)) a else posterior::weight_draws(a, s$log_weights, log = TRUE)
}

#' @rdname logz_draws
#' @exportS3Method posterior::as_draws
as_draws.logz_gibbs <- function(x, ...) {
  check_dots_used(...)
  draws_df_of(x)
}

#' @rdname logz_draws
#' @exportS3Method posterior::as_draws_df
as_draws_df.logz_gibbs <- function(x, ...) {
  check_dots_used(...)
  draws_df_of(x)
}

#' @rdname logz_draws
#' @exportS3Method posterior::as_draws_list
as_draws_list.logz_gibbs <- function(x, ...) {
  check_dots_used(...)
  posterior::as_draws_list(draws_df_of(x))
}

#' @rdname logz_draws
#' @exportS3Method posterior::as_draws_array
as_draws_array.logz_gibbs <- function(x, ...) {
  check_dots_used(...)
  draws_array_of(x)
}

#' @rdname logz_draws
#' @exportS3Method posterior::as_draws_matrix
as_draws_matrix.logz_gibbs <- function(x, ...) {
  check_dots_used(...)
  posterior::as_draws_matrix(draws_array_of(x))
}

#' @rdname logz_draws
#' @exportS3Method posterior::as_draws_rvars
as_draws_rvars.logz_gibbs <- function(x, ...) {
  check_dots_used(...)
  posterior::as_draws_rvars(draws_array_of(x))
}

# The same methods for the result classes holding samples.
#' @rdname logz_draws
#' @exportS3Method posterior::as_draws
as_draws.logz_estimate <- as_draws.logz_gibbs
#' @rdname logz_draws
#' @exportS3Method posterior::as_draws_df
as_draws_df.logz_estimate <- as_draws_df.logz_gibbs
#' @rdname logz_draws
#' @exportS3Method posterior::as_draws_list
as_draws_list.logz_estimate <- as_draws_list.logz_gibbs
#' @rdname logz_draws
#' @exportS3Method posterior::as_draws_array
as_draws_array.logz_estimate <- as_draws_array.logz_gibbs
#' @rdname logz_draws
#' @exportS3Method posterior::as_draws_matrix
as_draws_matrix.logz_estimate <- as_draws_matrix.logz_gibbs
#' @rdname logz_draws
#' @exportS3Method posterior::as_draws_rvars
as_draws_rvars.logz_estimate <- as_draws_rvars.logz_gibbs
#' @rdname logz_draws
#' @exportS3Method posterior::as_draws
as_draws.logz_blocked_gibbs <- as_draws.logz_gibbs
#' @rdname logz_draws
#' @exportS3Method posterior::as_draws_df
as_draws_df.logz_blocked_gibbs <- as_draws_df.logz_gibbs
#' @rdname logz_draws
#' @exportS3Method posterior::as_draws_list
as_draws_list.logz_blocked_gibbs <- as_draws_list.logz_gibbs
#' @rdname logz_draws
#' @exportS3Method posterior::as_draws_array
as_draws_array.logz_blocked_gibbs <- as_draws_array.logz_gibbs
#' @rdname logz_draws
#' @exportS3Method posterior::as_draws_matrix
as_draws_matrix.logz_blocked_gibbs <- as_draws_matrix.logz_gibbs
#' @rdname logz_draws
#' @exportS3Method posterior::as_draws_rvars
as_draws_rvars.logz_blocked_gibbs <- as_draws_rvars.logz_gibbs

mcmc_list_of <- function(x) {
  s <- unweight_draws(check_equal_chains(sample_draws(x), "an mcmc.list"))
  coda::mcmc.list(lapply(seq_len(max(s$chain)), function(ch)
    coda::mcmc(s$values[s$chain == ch, , drop = FALSE], start = s$start, thin = s$thin)))
}

#' @rdname logz_draws
#' @exportS3Method coda::as.mcmc
as.mcmc.logz_gibbs <- function(x, ...) {
  check_dots_used(...)
  s <- sample_draws(x)
  if (max(s$chain) > 1L)
    stop_no_call(sprintf("`x` holds %d chains; coda::as.mcmc() takes one: use coda::as.mcmc.list().",
                         max(s$chain)))
  s <- unweight_draws(s)
  coda::mcmc(s$values, start = s$start, thin = s$thin)
}

#' @rdname logz_draws
#' @exportS3Method coda::as.mcmc.list
as.mcmc.list.logz_gibbs <- function(x, ...) {
  check_dots_used(...)
  mcmc_list_of(x)
}

#' @rdname logz_draws
#' @exportS3Method coda::as.mcmc
as.mcmc.logz_estimate <- as.mcmc.logz_gibbs
#' @rdname logz_draws
#' @exportS3Method coda::as.mcmc.list
as.mcmc.list.logz_estimate <- as.mcmc.list.logz_gibbs
#' @rdname logz_draws
#' @exportS3Method coda::as.mcmc
as.mcmc.logz_blocked_gibbs <- as.mcmc.logz_gibbs
#' @rdname logz_draws
#' @exportS3Method coda::as.mcmc.list
as.mcmc.list.logz_blocked_gibbs <- as.mcmc.list.logz_gibbs
