#' Variationally optimised annealing schedule (VAROPT)
#'
#' The VAROPT-AIS schedule of Kiwaki (2015). Under perfect transitions the
#' variance of the AIS estimate of log Z behaves as \eqn{J[b]/(KM)} with
#' \deqn{J[b] = \int_0^1 b'(t)^2\, g(b(t))\, dt,\qquad g(\beta) = \frac{d^2 \log Z(\beta)}{d\beta^2}}{J[b] = integral_0^1 b'(t)^2 g(b(t)) dt,  g(beta) = d^2 log Z(beta) / d beta^2}
#' (the paper's Theorem 1, Eq. 8), where \eqn{\beta_k = b(k/K)}. Its minimiser
#' solves the Euler-Lagrange equation (Eq. 9)
#' \deqn{2\, g(b)\, b'' + g'(b)\, b'^2 = 0,\qquad b(0) = 0,\ b(1) = 1,}{2 g(b) b'' + g'(b) b'^2 = 0,  b(0) = 0, b(1) = 1,}
#' whose solution is \eqn{b(t) = \Lambda^{-1}(t\,\Lambda(1))} with
#' \eqn{\Lambda(\beta) = \int_0^\beta \sqrt{g(s)}\, ds}.
#'
#' The algorithm (the paper's Algorithm 2):
#' 1. a pilot AIS run with the linear schedule of `pilot_K` steps and
#'    `pilot_chains` chains;
#' 2. \eqn{g} at every pilot beta from the on-the-fly importance weights. On the
#'    RBM path with the hidden units summed out,
#'    \eqn{g(\beta) = \mathrm{Var}_\beta[D] + E_\beta[D_2]} with
#'    \eqn{D = v'(a - a_0) + \sum_j z_j \sigma(\beta z_j)},
#'    \eqn{D_2 = \sum_j z_j^2 \sigma'(\beta z_j)}, \eqn{z = b + W'v}
#'    (equal to the variance of the energy difference in the joint space);
#'    at \eqn{\beta = 0} it is computed exactly. The estimate needs the pilot's
#'    weights to stay spread: where they collapse onto a few chains the weighted
#'    variance is that of those chains, \eqn{g} drops towards 0 and the schedule
#'    takes very large steps there (as with a pilot ESS of about 1 in 100);
#'    check `attr(s, "pilot")$ess`, and use more pilot chains or a better base;
#' 3. smoothing of \eqn{g} by convolution with a Gaussian kernel of standard
#'    deviation `smooth` (in units of beta; renormalised at the ends) and a
#'    numerical derivative \eqn{g'} (central differences);
#' 4. the boundary-value problem solved on a grid of `max(K, n_grid)` steps by
#'    fixed-point iteration: with the coefficient
#'    \eqn{p = g'(b_n) b_n' / (2 g(b_n))} of the previous iterate frozen, the
#'    linear problem \eqn{b'' + p\, b' = 0} is solved exactly,
#'    \eqn{b_{n+1}(t) \propto \int_0^t \exp(-\int_0^s p)}, until the largest
#'    change is below `tol`. The result is checked against the closed form
#'    \eqn{\Lambda^{-1}(t\Lambda(1))} (attribute `closed_form_diff`);
#' 5. optionally (`delta`), deceleration (the paper's Algorithm 3): every step
#'    larger than `delta` is clipped to `delta` and the other steps are
#'    stretched so that the schedule still ends at 1, until no step exceeds
#'    `delta`.
#'
#' For an [ising] model the path is that of [ais.ising()], linear in
#' \eqn{\beta}: \eqn{\log f_\beta(x) = \log f_0(x) + \beta D(x)} with
#' \eqn{D(x) = \sum w_{ij} x_i x_j + (f - a_0)'x}, so \eqn{g(\beta) =
#' \mathrm{Var}_\beta[D]} (both choices of `g` agree); the pilot reads the
#' weighted variance of \eqn{D} after every step, and \eqn{g(0)} is computed
#' from 20,000 draws of the base.
#'
#' @param model an [rbm()] or an [ising] model.
#' @param K number of annealing steps of the returned schedule (>= 1).
#' @param pilot_K number of steps of the pilot's linear schedule (>= 2).
#' @param pilot_chains number of pilot AIS chains (>= 2).
#' @param delta `NULL` (no deceleration) or the largest allowed step, in
#'   `(0, 1]`; needs `K * delta >= 1`.
#' @param g which \eqn{g} to equalise: `"curvature"` (default),
#'   \eqn{d^2\log Z/d\beta^2 = \mathrm{Var}[D] + E[D_2]}, the variance of the
#'   energy difference on the geometric path in the joint space \eqn{(v, h)}, as
#'   in the paper; or `"increment"`, \eqn{\mathrm{Var}[D]} alone, which is what
#'   Eq. 6 gives for the weight increments of [ais()] on the path with the
#'   hidden units summed out (\eqn{\log f_{\beta_k}(v) - \log f_{\beta_{k-1}}(v)
#'   \approx \Delta\beta\, D}).
#' @param smooth standard deviation (in units of beta, >= 0) of the Gaussian
#'   kernel that smooths the pilot's \eqn{g}; 0 turns smoothing off.
#' @param base the AIS base distribution, as in [ais()] (for an Ising model,
#'   as in [ais.ising()]).
#' @param sweeps_per_step Gibbs sweeps per pilot step.
#' @param threads OpenMP threads for the pilot.
#' @param n_grid smallest number of grid intervals for the solver.
#' @param tol convergence tolerance of the fixed-point iteration (largest change
#'   of beta between iterations).
#' @param max_iter largest number of fixed-point iterations.
#' @param progress show a progress bar for the pilot.
#' @param from optional: an earlier `schedule_varopt()` result for the same
#'   model whose pilot estimate of \eqn{g} is reused (no new pilot run), e.g.
#'   to make schedules for several `K` or `delta` (then `pilot_K`,
#'   `pilot_chains`, `g`, `base`, `sweeps_per_step` and `threads` are ignored).
#' @return A [logz_schedule][schedule] of `K + 1` betas named `"varopt"` (or
#'   `"varopt_<delta>"`) with attributes
#' \describe{
#'   \item{`g`}{data frame over the pilot betas: `beta`, `g_raw` (on-the-fly
#'     estimate), `g` (smoothed), `dg` (its numerical derivative).}
#'   \item{`pilot`}{list: `log_z`, `se`, `ess` of the pilot AIS run and its
#'     `moments` (weighted mean and variance of D and mean of D2 per step).}
#'   \item{`convergence`}{data frame with the fixed-point iterations
#'     (`iteration`, `change`) and attribute `converged`.}
#'   \item{`closed_form`}{the closed-form schedule \eqn{\Lambda^{-1}(t\Lambda(1))}
#'     at the same `t`, and `closed_form_diff`, the largest difference from it
#'     (before deceleration).}
#'   \item{`undecelerated`}{the schedule before deceleration (with `delta`).}
#'   \item{`objective`}{the discretised \eqn{K \sum_k \Delta\beta_k^2 g(\beta_k)}
#'     of the returned schedule and of the linear one (`linear`). `print()`
#'     shows both and the ESS relative to the linear schedule that they predict
#'     under perfect transitions, \eqn{\exp((J_{lin} - J)/K)}{exp((J_lin - J) / K)}:
#'     under perfect transitions no schedule can gain more than \eqn{\exp((\int g - (\int \sqrt g)^2)/K)}{exp((int g - (int sqrt g)^2) / K)},
#'     so when this is near 1 no schedule derived from \eqn{g} can beat the linear
#'     one by much; gains beyond it come from mixing, which the theory leaves
#'     out. A large prediction is no promise either: it holds when the chains
#'     keep up with the path and fails when they do not
#'     (`vignette("schedules", package = "logz")`).}
#' }
#' @section Errors: `model` not an rbm or ising model; `K`, `pilot_K`, `pilot_chains`,
#'   `sweeps_per_step`, `threads`, `n_grid` or `max_iter` not positive whole
#'   numbers; `delta` outside `(0, 1]` or `K * delta < 1`; `smooth < 0`.
#'   The fixed-point iteration not converging is a warning; the closed form is
#'   returned instead.
#' @references
#' * Kiwaki, T. (2015). Variational optimization of annealing schedules.
#'   arXiv:1502.05313 (Theorem 1, Eq. 9, Algorithms 2 and 3).
#' @seealso [schedule_gms13()], [schedule_sm08()], [ais()],
#'   [plot.logz_schedule()] with `type = "g"`.
#' @examples
#' set.seed(1)
#' m <- rbm_train(mnist$x[1:500, ], n_hidden = 10, epochs = 2, progress = FALSE)
#' s <- schedule_varopt(m, K = 500, pilot_K = 200, pilot_chains = 50)
#' s_d <- schedule_varopt(m, K = 500, pilot_K = 200, pilot_chains = 50, delta = 0.004)
#' plot(s, s_d, schedule_linear(500))
#' plot(s, type = "g")
#' @export
schedule_varopt <- function(model, K, pilot_K = 1000L, pilot_chains = 100L, delta = NULL,
                            smooth = 0.01, g = c("curvature", "increment"), base = NULL,
                            sweeps_per_step = 1L, threads = 1L, n_grid = 1000L, tol = 1e-9,
                            max_iter = 500L, progress = FALSE, from = NULL) {
  check_schedule_model(model)
  g <- match_arg(g, "g")
  K <- check_count(K, "K")
  pilot_K <- check_count(pilot_K, "pilot_K", min = 2L)
  pilot_chains <- check_count(pilot_chains, "pilot_chains", min = 2L)
  delta <- check_delta(delta, K)
  smooth <- check_number(smooth, "smooth", lower = 0)
  sweeps_per_step <- check_count(sweeps_per_step, "sweeps_per_step")
  threads <- check_threads(threads)
  n_grid <- check_count(n_grid, "n_grid", min = 2L)
  tol <- check_number(tol, "tol", lower = 0, lower_open = TRUE)
  max_iter <- check_count(max_iter, "max_iter")
  check_flag(progress, "progress")
  if (!is.null(from)) {
    gd <- attr(from, "g")
    if (!inherits(from, "logz_schedule") || is.null(gd) || is.null(attr(from, "pilot")))
      stop_no_call(sprintf("`from` must be a schedule from schedule_varopt(), not %s.",
                           describe(from)))
    return(varopt_from_g(gd$beta, gd$g_raw, K, delta = delta, smooth = smooth, n_grid = n_grid,
                         tol = tol, max_iter = max_iter, pilot = attr(from, "pilot")))
  }
  betas <- seq(0, 1, length.out = pilot_K + 1L)
  if (is_ising(model)) {
    pl <- ising_varopt_pilot(model, betas, pilot_chains, sweeps_per_step,
                             ising_base_field(model, base), threads, progress)
    return(varopt_from_g(betas, pl$g, K, delta = delta, smooth = smooth, n_grid = n_grid,
                         tol = tol, max_iter = max_iter, pilot = pl$pilot))
  }
  a0 <- rbm_base_bias(model, base)
  run <- ais_rbm_engine(model, betas, pilot_chains, sweeps_per_step, a0, threads, progress,
                        moments = TRUE)
  mom <- run$moments
  g_raw <- if (g == "curvature") c(rbm_g0(model, a0), mom[, "var_d"] + mom[, "mean_d2"])
           else c(rbm_g0(model, a0, increment = TRUE), mom[, "var_d"])
  s <- ais_summary(run$log_w, run$log_z0)
  pilot <- list(log_z = s$log_z, se = s$se, ess = s$ess, n_chains = pilot_chains,
                moments = data.frame(beta = betas[-1], mom), g_type = g)
  varopt_from_g(betas, g_raw, K, delta = delta, smooth = smooth, n_grid = n_grid, tol = tol,
                max_iter = max_iter, pilot = pilot)
}

check_delta <- function(delta, K) {
  if (is.null(delta)) return(NULL)
  delta <- check_number(delta, "delta", lower = 0, upper = 1, lower_open = TRUE)
  if (K * delta < 1)
    stop_no_call(sprintf(paste0("`delta` = %s is too small for K = %d steps: K * delta = %s < 1, ",
                                "so the schedule cannot reach beta = 1."),
                         format(delta), K, format(K * delta)))
  delta
}

# g(0) of the RBM path in closed form: at beta = 0, v ~ Bern(sigmoid(a0)) and
# D = v'(a - a0 + W 1/2) + sum(b)/2 is linear in v; D2 = sum_j z_j^2 / 4.
# With increment = TRUE only Var[D] (the g of the increments, see schedule_varopt()).
rbm_g0 <- function(model, a0, increment = FALSE) {
  p <- stats::plogis(a0)
  q <- p * (1 - p)
  c1 <- model$a - a0 + if (model$n_hidden) drop(model$W %*% rep(0.5, model$n_hidden)) else 0
  var_d <- sum(q * c1^2)
  if (model$n_hidden == 0L || increment) return(var_d)
  ez <- model$b + drop(crossprod(model$W, p))
  vz <- drop(crossprod(model$W^2, q))
  var_d + sum(vz + ez^2) / 4
}

# Steps 3-5 of VAROPT from g on a grid of betas (exported for tests as internal).
varopt_from_g <- function(betas, g_raw, K, delta = NULL, smooth = 0.01, n_grid = 1000L,
                          tol = 1e-9, max_iter = 500L, pilot = NULL) {
  g <- varopt_smooth(betas, g_raw, smooth)
  # g = 0 everywhere (no couplings): every schedule is optimal; constant g
  # gives the linear one
  g <- if (any(g > 0)) pmax(g, 1e-10 * max(g)) else rep(1, length(g))
  dg <- num_deriv(betas, g)
  N <- max(K, n_grid)
  sol <- varopt_solve(betas, g, dg, N, tol = tol, max_iter = max_iter)
  t <- seq(0, 1, length.out = N + 1L)
  cf <- varopt_closed_form(betas, g, t)
  diff_cf <- max(abs(sol$b - cf))
  b <- if (sol$converged) sol$b else {
    warning(sprintf(paste0("schedule_varopt(): the fixed-point iteration did not converge in %d ",
                           "iterations (last change %.3g); using the closed form."),
                    nrow(sol$record), sol$record$change[nrow(sol$record)]), call. = FALSE)
    cf
  }
  tk <- seq(0, 1, length.out = K + 1L)
  bk <- if (N == K) b else stats::approx(t, b, xout = tk)$y
  bk[1] <- 0
  bk[K + 1L] <- 1
  bk <- cummax(bk)
  cfk <- if (N == K) cf else stats::approx(t, cf, xout = tk)$y
  name <- "varopt"
  undecelerated <- NULL
  if (!is.null(delta)) {
    undecelerated <- new_schedule(bk, "varopt")
    bk <- decelerate(bk, delta)
    name <- paste0("varopt_", format(delta))
  }
  conv <- sol$record
  attr(conv, "converged") <- sol$converged
  gfun <- function(x) stats::approx(betas, g, xout = x, rule = 2)$y
  objective <- c(schedule = schedule_objective(bk, gfun),
                 linear = schedule_objective(seq(0, 1, length.out = K + 1L), gfun))
  new_schedule(bk, name, g = data.frame(beta = betas, g_raw = g_raw, g = g, dg = dg),
               pilot = pilot, convergence = conv, closed_form = cfk,
               closed_form_diff = diff_cf, undecelerated = undecelerated, delta = delta,
               objective = objective)
}

# K * sum_k (beta_k - beta_{k-1})^2 g(beta_{k-1}): the discrete version of J[b]
# (Eq. 7), whose limit is Eq. 8.
schedule_objective <- function(b, gfun) {
  d <- diff(b)
  length(d) * sum(d^2 * gfun(b[-length(b)]))
}

# Convolution with a Gaussian kernel of sd `bw` (beta units), renormalised so
# that the ends are not pulled down.
varopt_smooth <- function(x, y, bw) {
  if (bw <= 0) return(y)
  W <- stats::dnorm(outer(x, x, `-`) / bw)
  drop(W %*% y) / rowSums(W)
}

# Numerical derivative on a grid: central differences inside, one-sided at the ends.
num_deriv <- function(x, y) {
  n <- length(x)
  d <- numeric(n)
  d[2:(n - 1)] <- (y[3:n] - y[1:(n - 2)]) / (x[3:n] - x[1:(n - 2)])
  d[1] <- (y[2] - y[1]) / (x[2] - x[1])
  d[n] <- (y[n] - y[n - 1]) / (x[n] - x[n - 1])
  d
}

cumtrapz <- function(x, y) c(0, cumsum(diff(x) * (y[-1] + y[-length(y)]) / 2))

# Fixed-point iteration for 2 g(b) b'' + g'(b) b'^2 = 0, b(0) = 0, b(1) = 1 on
# t = 0, 1/N, ..., 1: freeze p = g'(b) b' / (2 g(b)) at the previous iterate and
# solve b'' + p b' = 0 exactly (b' proportional to exp(-int p)).
varopt_solve <- function(betas, g, dg, N, tol = 1e-9, max_iter = 500L, init = NULL) {
  t <- seq(0, 1, length.out = N + 1L)
  b <- if (is.null(init)) t else init
  change <- numeric(0)
  converged <- FALSE
  for (it in seq_len(max_iter)) {
    gb <- stats::approx(betas, g, xout = b, rule = 2)$y
    dgb <- stats::approx(betas, dg, xout = b, rule = 2)$y
    bp <- num_deriv(t, b)
    p <- dgb * bp / (2 * gb)
    P <- cumtrapz(t, p)
    e <- exp(-(P - min(P)))
    bn <- cumtrapz(t, e)
    bn <- bn / bn[N + 1L]
    change[it] <- max(abs(bn - b))
    b <- bn
    if (!is.finite(change[it])) break
    if (change[it] < tol) {
      converged <- TRUE
      break
    }
  }
  list(b = b, converged = converged,
       record = data.frame(iteration = seq_along(change), change = change))
}

# b(t) = Lambda^{-1}(t Lambda(1)), Lambda(beta) = int_0^beta sqrt(g).
varopt_closed_form <- function(betas, g, t) {
  L <- cumtrapz(betas, sqrt(g))
  stats::approx(L / L[length(L)], betas, xout = t, ties = "ordered")$y
}

# Algorithm 3 of Kiwaki (2015): clip steps at delta and stretch the others so
# the schedule still ends at 1, until no step exceeds delta.
decelerate <- function(b, delta) {
  d <- diff(b)
  K <- length(d)
  if (K * delta < 1 - 1e-12)
    stop_no_call(sprintf("`delta` = %s is too small for K = %d steps (K * delta < 1).",
                         format(delta), K))
  clipped <- rep(FALSE, K)
  repeat {
    over <- !clipped & d > delta * (1 + 1e-12)
    if (!any(over)) break
    clipped <- clipped | over
    d[clipped] <- delta
    rest <- 1 - sum(d[clipped])
    free <- !clipped
    if (!any(free)) break
    s <- sum(d[free])
    d[free] <- if (s > 0) d[free] * rest / s else rest / sum(free)
  }
  out <- c(0, cumsum(d))
  out[K + 1L] <- 1
  pmin(out, 1)
}
