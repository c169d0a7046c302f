#' Equal Fisher-length schedule from moments at knots (GMS13)
#'
#' The schedule of Grosse, Maddison & Salakhutdinov (2013) for the geometric
#' path, as run by Kiwaki (2015) for comparison: the Fisher information along
#' the path, \eqn{g(\beta) = \mathrm{Var}_\beta[E] = d^2\log Z/d\beta^2}, is
#' estimated at `knots` equally spaced betas (including 0 and 1) by Gibbs
#' chains run at each knot, \eqn{\sqrt{g}} is interpolated linearly between the
#' knots, and the betas are placed at equal Fisher (thermodynamic) length
#' \eqn{\Lambda(\beta) = \int_0^\beta \sqrt{g}}: \eqn{\beta_k =
#' \Lambda^{-1}(\frac{k}{K}\Lambda(1))}.
#'
#' On the RBM path with the hidden units summed out, the chains are block-Gibbs
#' chains in \eqn{(v, h)} and \eqn{g = \mathrm{Var}[D] + E[D_2]} (see
#' [schedule_varopt()]), pooled over the chains and the sweeps after burn-in.
#' Unlike VAROPT, the moments come from unweighted Gibbs chains, which mix
#' slowly near \eqn{\beta = 1} for trained models, and from few knots.
#'
#' For an [ising] model the path is that of [ais.ising()] and \eqn{g(\beta) =
#' \mathrm{Var}_\beta[D]}, \eqn{D(x) = \sum w_{ij} x_i x_j + (f - a_0)'x},
#' estimated at each knot from [gibbs_sample()] chains on the tempered model
#' (couplings \eqn{\beta w}, fields \eqn{\beta f + (1-\beta) a_0}).
#'
#' @param model an [rbm()] or an [ising] model.
#' @param K number of annealing steps (>= 1).
#' @param knots number of betas at which the moments are estimated (>= 2).
#' @param n_chains Gibbs chains per knot (>= 2).
#' @param progress show progress over the knots (default: in interactive
#'   sessions).
#' @param sweeps Gibbs sweeps per chain kept after burn-in (>= 1).
#' @param burn_in Gibbs sweeps discarded first (>= 0); the chains start from
#'   the base distribution.
#' @param base the base distribution, as in [ais()] (for an Ising model, as in
#'   [ais.ising()]).
#' @param threads OpenMP threads.
#' @param from optional: an earlier `schedule_gms13()` result whose knot
#'   estimates are reused (no new Gibbs runs), e.g. for another `K`.
#' @return A [logz_schedule][schedule] named `"gms13"` with attribute `g`, a
#'   data frame with `beta` (the knots) and `g` (the estimates).
#' @section Errors: `model` not an rbm or ising model; `K`, `knots`, `n_chains`, `sweeps`,
#'   `burn_in`, `threads` not whole numbers in range.
#' @references
#' * Grosse, R. B., Maddison, C. J. and Salakhutdinov, R. (2013). Annealing between
#'   distributions by averaging moments. NIPS.
#' * Kiwaki, T. (2015). Variational optimization of annealing schedules.
#'   arXiv:1502.05313 (Section 7).
#' @seealso [schedule_varopt()], [ais()]
#' @examples
#' set.seed(1)
#' m <- rbm_train(mnist$x[1:500, ], n_hidden = 10, epochs = 2, progress = FALSE)
#' s <- schedule_gms13(m, K = 500, knots = 5, n_chains = 20, sweeps = 50, burn_in = 20)
#' plot(s, schedule_linear(500))
#' @export
schedule_gms13 <- function(model, K, knots = 10L, n_chains = 100L, sweeps = 500L,
                           burn_in = 100L, base = NULL, threads = 1L, from = NULL,
                           progress = interactive()) {
  check_schedule_model(model)
  K <- check_count(K, "K")
  if (!is.null(from)) {
    if (!inherits(from, "logz_schedule") || !identical(attr(from, "name"), "gms13"))
      stop_no_call(sprintf("`from` must be a schedule from schedule_gms13(), not %s.",
                           describe(from)))
    gd <- attr(from, "g")
    return(gms13_from_g(gd$beta, gd$g, K))
  }
  knots <- check_count(knots, "knots", min = 2L)
  n_chains <- check_count(n_chains, "n_chains", min = 2L)
  sweeps <- check_count(sweeps, "sweeps")
  burn_in <- check_count(burn_in, "burn_in", min = 0L)
  threads <- check_threads(threads)
  check_flag(progress, "progress")
  kb <- seq(0, 1, length.out = knots)
  pb <- progress_bar(progress, knots)
  on.exit(pb$close())
  if (is_ising(model))
    return(gms13_from_g(kb, ising_g_knots(model, kb, ising_base_field(model, base), n_chains,
                                          sweeps, burn_in, threads, pb$update), K))
  a0 <- rbm_base_bias(model, base)
  g <- vapply(seq_along(kb), function(i) {
    beta <- kb[i]
    on.exit(pb$update(i))
    if (beta == 0) return(rbm_g0(model, a0))
    # a constant schedule: zero weight increments, one Gibbs sweep per step at
    # beta, and the moments of every step with equal weights
    run <- ais_rbm_engine(model, rep(beta, burn_in + sweeps + 2L), n_chains, 1L, a0, threads,
                          moments = TRUE)
    mom <- run$moments[burn_in + seq_len(sweeps), , drop = FALSE]
    # pooled over chains and sweeps: within-sweep variance + variance of the sweep means
    mean(mom[, "var_d"]) + mean((mom[, "mean_d"] - mean(mom[, "mean_d"]))^2) +
      mean(mom[, "mean_d2"])
  }, numeric(1))
  gms13_from_g(kb, g, K)
}

gms13_from_g <- function(kb, g, K) {
  knots <- length(kb)
  # g = 0 everywhere (a model without couplings: every intermediate
  # distribution is the base): any schedule is optimal; take the linear one
  gs <- if (any(g > 0)) pmax(g, 1e-10 * max(g)) else rep(1, knots)
  # sqrt(g) linear between the knots; Lambda integrated exactly on a fine grid
  fine <- seq(0, 1, length.out = max(20L * knots, 2001L))
  sg <- stats::approx(kb, sqrt(gs), xout = fine)$y
  L <- cumtrapz(fine, sg)
  b <- stats::approx(L / L[length(L)], fine, xout = seq(0, 1, length.out = K + 1L),
                     ties = "ordered")$y
  b[1] <- 0
  b[K + 1L] <- 1
  new_schedule(cummax(b), "gms13", g = data.frame(beta = kb, g = pmax(g, 0)))
}
