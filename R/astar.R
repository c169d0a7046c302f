# A* sampling (Maddison, Tarlow & Minka 2014): the samplers (A*, drill-down), the
# rejection / OS* baselines, and every rejection_sample() method. Targets are in
# astar_target.R, the engines in astar_engine.R, the result methods in print.R,
# summary.R and plot_samples.R.

#' A* sampling: exact samples and Gumbel draws of log Z
#'
#' `astar_sample()` draws `n` independent exact samples from an
#' [astar_target()] by A* sampling (Maddison, Tarlow & Minka 2014,
#' Algorithm 2): a top-down construction of the Gumbel process of the
#' proposal \eqn{\nu} (each region \eqn{B} gets the maximum \eqn{G_B \sim
#' \mathrm{TruncGumbel}(\log\nu(B), G_{parent})} and its location \eqn{X_B
#' \sim \nu|_B}), searched for the maximum of \eqn{G_k + o(X_k)} with a
#' priority queue on the upper bounds \eqn{G_k + M(B_k)}. The search stops
#' when the best lower bound \eqn{G_k + o(X_k)} is at least every open upper
#' bound; its location is then an exact sample and its value a draw from
#' \eqn{\mathrm{Gumbel}(\log Z)}. A node's region is split on its longest side
#' (infinite sides first) at its sampled point; children are pruned with the
#' parent's bound before their own bound is computed. Queue and search run in
#' C; the random numbers come from R's RNG, so [set.seed()] reproduces a run.
#'
#' `method = "drill_down"` is the queue-free variant for 1-D targets with
#' unimodal \eqn{o} and tight bounds (Section 4; used for Figure 2a): one
#' child of every split is pruned at once. It stops with an error naming the
#' target if two regions stay live.
#'
#' With `reuse_bounds = TRUE` the partition of space refined while drawing a
#' sample, with its bounds, is kept for the next samples ("reuse of bounds
#' across samples", Section 4): the Gumbel process is constructed top-down on
#' the stored tree, where the child holding the parent's point inherits its
#' Gumbel value and point (and the cached \eqn{o}). Regions split by earlier
#' samples are walked on their stored bounds without evaluating \eqn{o}, which
#' is evaluated only at the leaves of the stored partition that the search
#' expands (the paper's search run on each region of the partition, maximised
#' lazily), and a leaf is split only when one of its children stays live, so
#' the partition grows only where a sample needed it. Later samples therefore
#' need fewer bound and likelihood evaluations, down to about one likelihood
#' evaluation per sample once the partition is fine. Samples stay exact and
#' independent.
#'
#' With `lower_bounds_per_node = L > 1` (Section 4's second variant), each
#' node taken from the queue is expanded together with the next \eqn{L - 1}
#' largest Gumbel values of the proposal's process below it (a local
#' top-down construction in decreasing order), so \eqn{o} is evaluated at
#' up to \eqn{L} points per queue pop -- more likelihood evaluations, a
#' better lower bound -- and only the regions left at the end are bounded and
#' queued: fewer bound evaluations. With `lower_bounds_dist = "poisson"`, L is
#' drawn at each pop as \eqn{1 + \mathrm{Poisson}(m - 1)}, as in the paper's
#' Figure 3 (its lightest markers: \eqn{m = 1/0.1 = 10}).
#'
#' `rejection_sample()` is rejection sampling from the proposal with the
#' global bound \eqn{M(R^d)} (one bound evaluation in all), and
#' `os_star_sample()` is OS* with piecewise-constant bounds (Dymetman et al.
#' 2012; Section 5): a region is proposed with probability \eqn{\propto
#' \nu(B) e^{M(B)}}, a point from \eqn{\nu|_B} is accepted with probability
#' \eqn{e^{o(x) - M(B)}}, and after a rejection a region is split: the one
#' proposed from, at the rejected point (`refine = "sampled_point"`, as
#' A*), or the one of largest proposal mass at its conditional median
#' (`"largest_mass"`). Both report the same counters as A*. Their `log_z` is
#' the importance-sampling estimate \eqn{\log \frac1T \sum_t E_t e^{o(x_t) -
#' M(B_t)}} over all \eqn{T} proposals (\eqn{E_t} the envelope's mass at
#' trial \eqn{t}), with a delta-method `se` that can be optimistic when the
#' weights are heavy-tailed (very peaked targets); they have no Gumbel
#' values.
#'
#' @param target an [astar_target()].
#' @param n number of samples (a whole number >= 1).
#' @param method `"astar"` (default) or `"drill_down"`.
#' @param reuse_bounds keep refined regions and bounds from one sample to the
#'   next (default `TRUE`); `FALSE` starts every sample from the whole space,
#'   as in the paper's per-sample cost figures.
#' @param lower_bounds_per_node lower bounds (likelihood evaluations) per
#'   node taken from the queue: with `lower_bounds_dist = "fixed"` a whole
#'   number >= 1 (default 1: Algorithm 2); with `"poisson"` the mean
#'   \eqn{m \ge 1} (any number) of \eqn{1 + \mathrm{Poisson}(m - 1)}
#'   evaluations drawn afresh at each queue pop, the paper's Figure 3 setting
#'   (refinement rate \eqn{\rho}: \eqn{m = 1/\rho}).
#' @param lower_bounds_dist `"fixed"` or `"poisson"` (see
#'   `lower_bounds_per_node`).
#' @param refine OS* refinement: `"sampled_point"` or `"largest_mass"`.
#' @param refine_rate OS*: the probability \eqn{\rho \in (0, 1]} of refining
#'   the envelope after a rejection (a single number; default 1, refine after
#'   every rejection). Smaller rates trade bound evaluations for likelihood
#'   evaluations; the paper's Figure 3 sweeps \eqn{\rho} from 1 down to 0.1
#'   (Section 6.4). With \eqn{\rho < 1} one extra uniform draw is made per
#'   rejection. An error unless \eqn{0 < \rho \le 1}.
#' @param workers `NULL` or the number of pieces to split the `n` samples
#'   into, run through the active [future::plan()] and stacked (see
#'   [scale_out]).
#' @param progress report progress (default: in interactive sessions; see
#'   [logz_progress]) in samples, from the C loop (the draws are the same
#'   either way); for `astar_sample()` with `workers`, one step per finished
#'   piece through \pkg{progressr}, from any future plan.
#' @param max_nodes a safety limit: the most regions split for one sample (A*)
#'   or pieces in the envelope (OS*), an error beyond it (default `1e6`, about
#'   200 MB in 4-D).
#' @return An object of class `c("logz_astar", "logz_samples",
#'   "logz_estimate")` (`"logz_rejection"` or `"logz_os_star"` for the
#'   baselines), a list with
#' \describe{
#'   \item{`samples`}{the `n` x `d` matrix of exact samples.}
#'   \item{`gumbel`}{the `n` Gumbel values, draws from
#'     \eqn{\mathrm{Gumbel}(\log Z)} (`NA` for the baselines).}
#'   \item{`cost`}{a data frame with one row per sample: `likelihood`
#'     (evaluations of \eqn{o}), `bound` (evaluations of \eqn{M}) and `nodes`
#'     (for A*, search nodes expanded, i.e. points where \eqn{o} was
#'     evaluated; for OS*, pieces split).}
#'   \item{`log_z`, `se`}{for A*, `mean(gumbel) - 0.5772` and
#'     \eqn{\pi/\sqrt{6n}}; see Details for the baselines.}
#'   \item{`counts`}{totals: `likelihood`, `bound`, `nodes`, `samples`.}
#'   \item{`method`, `time` (seconds), `seed` (`.Random.seed` at entry),
#'     `call`, `target`, `diagnostics`}{as for every [logz_estimate];
#'     `diagnostics` is `cost` with the sample index and Gumbel value.}
#' }
#' @section Errors: `target` not a target; `n` not a whole number >= 1;
#'   `drill_down` on a target of dimension > 1, or on one whose \eqn{o} is not
#'   unimodal; at sampling time, a point where `log_lik` exceeds its region's
#'   bound, a `log_lik` of `+Inf` or `NaN`, a `bound` of `NaN`, a target of
#'   zero mass, more than `max_nodes` splits, and (baselines) an infinite
#'   global bound -- each message names the target.
#' @references Maddison, C. J., Tarlow, D. and Minka, T. (2014). A* sampling.
#'   NIPS 27. Dymetman, M., Bouchard, G. and Carter, S. (2012). The OS*
#'   algorithm: a joint approach to exact optimization and sampling.
#'   arXiv:1207.0742.
#' @seealso [astar_target()], [rgumbel()]
#' @examples
#' set.seed(1)
#' tg <- astar_example("peaky", a = 10)
#' s <- astar_sample(tg, 200, method = "drill_down")
#' s
#' plot(s)
#' # the exact log Z for comparison
#' log(integrate(function(x) exp(astar_log_density(tg, x)), 0, Inf)$value)
#' s2 <- astar_sample(astar_example("clutter", D = 2), 20)
#' summary(s2)
#' os_star_sample(astar_example("clutter", D = 2), 20)
#' # OS* refining on half of its rejections (Figure 3's refinement rate)
#' os_star_sample(astar_example("cauchy_regression", D = 1), 20, refine_rate = 0.5)
#' @export
astar_sample <- function(target, n = 1L, method = c("astar", "drill_down"),
                         reuse_bounds = TRUE, lower_bounds_per_node = 1L,
                         lower_bounds_dist = c("fixed", "poisson"), max_nodes = 1e6,
                         workers = NULL, progress = interactive()) {
  call <- match.call()
  target <- check_target(target)
  n <- check_count(n, "n", bytes_each = 8 * (target$dim + 4))
  check_flag(progress, "progress")
  method <- match_arg(method, "method")
  check_flag(reuse_bounds, "reuse_bounds")
  max_nodes <- check_number(max_nodes, "max_nodes", lower = 1)
  lower_bounds_dist <- match_arg(lower_bounds_dist, "lower_bounds_dist")
  lower_bounds_per_node <- if (lower_bounds_dist == "fixed")
    check_count(lower_bounds_per_node, "lower_bounds_per_node", max = 1000L)
  else check_number(lower_bounds_per_node, "lower_bounds_per_node", lower = 1, upper = 1000)
  if (method == "drill_down" && (lower_bounds_per_node > 1 || lower_bounds_dist == "poisson"))
    stop_no_call("`lower_bounds_per_node` > 1 is for method = \"astar\" only.")
  if (method == "drill_down" && target$dim != 1L)
    stop_no_call(sprintf("`method = \"drill_down\"` needs a 1-D target; `target` has dimension %d.",
                         target$dim))
  seed <- rng_state()
  t0 <- proc.time()[["elapsed"]]
  pieces <- resolve_pieces(workers, n)
  if (pieces > 1L) {
    parts <- run_pieces(n, pieces, function(size, i)
      astar_sample(target, size, method, reuse_bounds, lower_bounds_per_node, lower_bounds_dist,
                   max_nodes, workers = 1L, progress = FALSE), progress)
    gumbel <- unlist(lapply(parts, `[[`, "gumbel"))
    cost <- do.call(rbind, lapply(parts, `[[`, "cost"))
    res <- list(samples = do.call(rbind, lapply(parts, `[[`, "samples")),
                likelihood = cost$likelihood, bound = cost$bound, nodes = cost$nodes)
    return(new_astar_samples(res, target, log_z = mean(gumbel) - euler_gamma,
                             se = pi / sqrt(6 * n), gumbel = gumbel, method = parts[[1]]$method,
                             subclass = "logz_astar", time = proc.time()[["elapsed"]] - t0,
                             seed = seed, call = call,
                             extra = list(tree_size = max(vapply(parts, `[[`, 1, "tree_size")),
                                          pieces = pieces)))
  }
  pb <- progress_bar(progress, n)
  on.exit(pb$close())
  res <- astar_search(target, n,
                      c(list(method = method, reuse = reuse_bounds, max_nodes = max_nodes,
                             lower_bounds = lower_bounds_per_node,
                             lower_bounds_random = lower_bounds_dist == "poisson"),
                        progress_tick(progress, pb, n)))
  new_astar_samples(res, target, log_z = mean(res$gumbel) - euler_gamma,
                    se = pi / sqrt(6 * n), gumbel = res$gumbel,
                    method = if (method == "astar") "A*" else "A* (drill down)",
                    subclass = "logz_astar", time = proc.time()[["elapsed"]] - t0,
                    seed = seed, call = call, extra = list(tree_size = res$tree_size))
}

#' @rdname astar_sample
#' @param ... further arguments of the methods (see [rejection_sample.ising()]
#'   for discrete models).
#' @export
rejection_sample <- function(target, n = 1L, ...) UseMethod("rejection_sample")

#' @rdname astar_sample
#' @export
rejection_sample.default <- function(target, n = 1L, progress = interactive(), ...) {
  check_dots_used(...)
  call <- match.call()
  target <- check_target(target)
  n <- check_count(n, "n", bytes_each = 8 * (target$dim + 4))
  check_flag(progress, "progress")
  run_baseline(target, n, refine = "none", reuse = TRUE, max_nodes = 1, method = "rejection",
               subclass = "logz_rejection", call = call, progress = progress)
}

#' @rdname astar_sample
#' @export
os_star_sample <- function(target, n = 1L, refine = c("sampled_point", "largest_mass"),
                           reuse_bounds = TRUE, refine_rate = 1, max_nodes = 1e6,
                           progress = interactive()) {
  call <- match.call()
  target <- check_target(target)
  n <- check_count(n, "n", bytes_each = 8 * (target$dim + 4))
  check_flag(progress, "progress")
  refine <- match_arg(refine, "refine")
  check_flag(reuse_bounds, "reuse_bounds")
  refine_rate <- check_number(refine_rate, "refine_rate", lower = 0, upper = 1, lower_open = TRUE)
  max_nodes <- check_number(max_nodes, "max_nodes", lower = 1)
  run_baseline(target, n, refine = refine, reuse = reuse_bounds, max_nodes = max_nodes,
               method = sprintf("OS* (%s%s)", refine,
                                if (refine_rate < 1) sprintf(", rate %g", refine_rate) else ""),
               subclass = "logz_os_star", call = call, progress = progress,
               refine_rate = refine_rate)
}

#' Rejection sampling of discrete models with an LP-bounded proposal
#'
#' The rejection baseline of Kim, Sabharwal & Ermon (2016) (after OS*,
#' Dymetman et al. 2012): the binary variables \eqn{s} of the model are
#' split into \eqn{J = 2^{depth}} subtrees by fixing the first `depth`
#' variables of the branching order (largest total interaction first); each
#' subtree \eqn{j} gets the LP-relaxation bound \eqn{U_j \ge \max_{s \in j}
#' v(s)} (GLPK, as in [mip_sample()]). The proposal picks subtree \eqn{j} with
#' probability \eqn{\propto 2^{n - depth} e^{U_j}}, a configuration uniformly
#' inside it, and accepts with probability \eqn{e^{v(s) - U_j}}. Accepted
#' configurations are exact samples. As in the paper, building the partition
#' and its bounds is a preprocessing step, reported separately
#' (`preprocess_time`).
#'
#' @param target an [ising] model, an [rbm] or a [mip_model()].
#' @param n number of samples wanted.
#' @param depth number of variables fixed to form the subtrees (`J =
#'   2^depth` LPs; at most `min(20, number of variables)`).
#' @param time_limit seconds of sampling (after preprocessing); when reached,
#'   the samples accepted so far are returned (`complete = FALSE`).
#' @param batch proposals drawn per vectorised round.
#' @param progress show progress in accepted samples, after each round
#'   (default: in interactive sessions; see [logz_progress]).
#' @param ... unused.
#' @return An object of class `c("logz_mip_rejection", "logz_estimate")`:
#'   `states` (accepted samples, in the model's values), `trials`,
#'   `accepted`, `acceptance`, `complete`, `pieces` (J), `preprocess_time`,
#'   `sample_time` (seconds of sampling per accepted sample, `Inf` if none),
#'   `log_z` (\eqn{\log(\hat a M)} with \eqn{\hat a} the acceptance rate and
#'   \eqn{M} the proposal's total mass) and its delta-method `se`, plus
#'   `method`, `time`, `counts`, `diagnostics`, `seed`, `call`.
#' @section Errors: `target` not a supported model; `n`, `depth`, `batch`
#'   not whole numbers in range; `time_limit` not positive; a model without
#'   a feasible point, or (binary programs) feasible for the LP relaxation
#'   but without a feasible 0/1 point (found by one MAP search before
#'   sampling); logz built without GLPK (see [logz_has_glpk()]).
#' @references Kim, C., Sabharwal, A. and Ermon, S. (2016). Exact sampling
#'   with integer linear programs and random perturbations. AAAI (rejection
#'   baseline of Figure 1). Dymetman, M., Bouchard, G. and Carter, S. (2012).
#'   The OS* algorithm. arXiv:1207.0742.
#' @seealso [mip_sample()]
#' @examples
#' set.seed(1)
#' m <- ising_clique(8, coupling = 0.5, field = 0.5)
#' r <- rejection_sample(m, 100, depth = 3)
#' r
#' exact_log_z(m)
#' @export
rejection_sample.ising <- function(target, n = 1L, depth = NULL, time_limit = Inf,
                                   batch = 4096L, progress = interactive(), ...) {
  check_dots_used(...)
  validate_model(target, "target")
  mip_rejection(target, n, depth, time_limit, batch, match.call(), progress)
}

#' @rdname rejection_sample.ising
#' @export
rejection_sample.rbm <- function(target, n = 1L, depth = NULL, time_limit = Inf,
                                 batch = 4096L, progress = interactive(), ...) {
  check_dots_used(...)
  validate_model(target, "target")
  mip_rejection(target, n, depth, time_limit, batch, match.call(), progress)
}

#' @rdname rejection_sample.ising
#' @export
rejection_sample.logz_mip_model <- function(target, n = 1L, depth = NULL, time_limit = Inf,
                                           batch = 4096L, progress = interactive(), ...) {
  check_dots_used(...)
  validate_model(target, "target")
  mip_rejection(target, n, depth, time_limit, batch, match.call(), progress)
}
