# Scale-out: independent pieces of work (AIS chains, RAISE examples, exact
# samples, ...) run through the future framework and are merged exactly.

#' Running estimators and samplers on several workers or machines
#'
#' The methods whose work splits into independent pieces -- [ais()] (chains),
#' [raise()] (data points), [astar_sample()] (samples) -- take `workers`. With
#' `workers = NULL` (the default) the work runs in this R session as one
#' piece, unless a non-sequential [future::plan()] is active, in which case
#' it is split into [future::nbrOfWorkers()] pieces. A whole number `workers
#' = P` splits it into `P` pieces of near-equal size. The pieces run through
#' [future.apply::future_lapply()] with `future.seed = TRUE` (independent
#' L'Ecuyer-CMRG streams derived from R's RNG state), on whatever plan is
#' active, and the partial results are merged exactly: AIS log weights are
#' pooled (so the estimate, its standard error and ESS are those of all
#' chains together, and the per-step ESS and running log Z traces are
#' combined from each piece's sums of weights and squared weights), RAISE
#' per-example results are concatenated, samples and their Gumbel values and
#' costs are stacked, and work counters are added.
#'
#' A result depends on the seed and on the number of pieces, never on the
#' plan: `set.seed(1); ais(m, workers = 2)` gives the same numbers under
#' `future::plan("sequential")`, `future::plan("multisession", workers = 2)`
#' or a cluster plan. The result's `pieces` field records the number of
#' pieces, and `time` the wall time of the whole call.
#'
#' On a cluster, start the plan once, then call the methods as usual:
#' \preformatted{
#' future::plan(future::cluster, workers = c("host1", "host2"))
#' set.seed(42)
#' fit <- ais(model, schedule_linear(10000), n_chains = 1000, workers = 8)
#' # or a scheduler, through future.batchtools:
#' future::plan(future.batchtools::batchtools_slurm)
#' }
#' Each worker needs logz installed. The packages future and future.apply
#' are needed only when the work is split (they are suggested, not
#' required).
#'
#' @name scale_out
#' @references
#' * Bengtsson, H. (2021). A unifying framework for parallel and distributed processing
#'   in R using futures. The R Journal 13(2), 208-227.
#' @examples
#' if (requireNamespace("future.apply", quietly = TRUE)) {
#'   m <- rbm(matrix(0.1, 6, 3))
#'   set.seed(1)
#'   a <- ais(m, schedule_linear(200), n_chains = 40, workers = 2)
#'   a$pieces
#'   exact_log_z(m)
#' }
NULL

# ", in P pieces" for print methods of results computed in pieces.
pieces_note <- function(x) {
  if (is.null(x$pieces) || x$pieces <= 1L) "" else sprintf(", in %d pieces", x$pieces)
}

# The number of pieces to split `n_units` units of work into.
resolve_pieces <- function(workers, n_units) {
  if (is.null(workers)) {
    pieces <- 1L
    if (isNamespaceLoaded("future") && !inherits(future::plan(), "sequential"))
      pieces <- as.integer(future::nbrOfWorkers())
  } else {
    pieces <- check_count(workers, "workers", max = 100000L)
  }
  min(pieces, n_units)
}

# Near-equal piece sizes summing to n.
piece_sizes <- function(n, pieces) {
  base <- n %/% pieces
  base + (seq_len(pieces) <= n %% pieces)
}

# Run fun(size, index) for each piece through future.apply (pieces > 1); with
# `progress`, each finished piece reports through progressr (from any plan).
run_pieces <- function(n_units, pieces, fun, progress = FALSE) {
  if (!requireNamespace("future.apply", quietly = TRUE))
    stop_no_call(paste0("`workers` > 1 (or a parallel future plan) needs the future.apply ",
                        "package: install.packages(\"future.apply\")."))
  sizes <- piece_sizes(n_units, pieces)
  tick <- piece_progressor(progress, pieces)
  # each piece's own reliability warning is muffled: the merged result warns once
  future.apply::future_lapply(seq_len(pieces), function(i) {
    out <- muffle_unreliable(fun(sizes[i], i))
    tick()
    out
  }, future.seed = TRUE, future.packages = "logz")
}

# Merge AIS results of pieces run on the same model and schedule: pooled log
# weights, and the per-step traces from each piece's sums of weights
# (s1 = M_p exp(log Z_p,k - log Z_0)) and squared weights (s1^2 / ESS_p,k).
merge_ais_pieces <- function(parts, schedule, time, seed, call) {
  log_w <- unlist(lapply(parts, `[[`, "log_weights"), use.names = FALSE)
  log_z0 <- parts[[1]]$log_z0
  M <- vapply(parts, function(p) length(p$log_weights), numeric(1))
  ls1 <- sapply(seq_along(parts), function(i) log(M[i]) + parts[[i]]$diagnostics$log_z - log_z0)
  ls2 <- sapply(seq_along(parts), function(i) 2 * ls1[, i] - log(parts[[i]]$diagnostics$ess))
  ls1 <- matrix(ls1, ncol = length(parts))
  ls2 <- matrix(ls2, ncol = length(parts))
  l1 <- apply(ls1, 1L, log_sum_exp)
  trace <- cbind(exp(2 * l1 - apply(ls2, 1L, log_sum_exp)), log_z0 + l1 - log(sum(M)))
  sweeps <- parts[[1]]$counts[["gibbs_sweeps"]] / parts[[1]]$counts[["chains"]]
  out <- new_ais_result(log_w, log_z0, schedule, trace, sweeps, sum(M), time = time,
                        seed = seed, call = call, method = parts[[1]]$method)
  # counters only some methods keep (e.g. likelihood evaluations): totals
  extra <- setdiff(names(parts[[1]]$counts), names(out$counts))
  for (nm in extra)
    out$counts[[nm]] <- sum(vapply(parts, function(p) p$counts[[nm]], numeric(1)))
  out$pieces <- length(parts)
  out
}

# AIS over `pieces` pieces of the chains: `fun(size)` runs one piece in this
# session (the method itself with workers = 1).
ais_pieces <- function(n_chains, pieces, schedule, call, fun, progress = FALSE) {
  seed <- rng_state()
  t0 <- proc.time()[["elapsed"]]
  parts <- run_pieces(n_chains, pieces, function(size, i) fun(size), progress)
  merge_ais_pieces(parts, schedule, time = proc.time()[["elapsed"]] - t0, seed = seed,
                   call = call)
}
