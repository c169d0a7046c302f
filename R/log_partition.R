# The front door: one call that picks an estimator of log Z for a model.

#' Log partition function by the method that suits the model
#'
#' `log_partition()` returns log Z of a model as a [logz_estimate], choosing
#' the method with `method = "auto"`: the exact value where it is cheap
#' (RBMs whose smaller layer has at most `exact_max` units, by enumeration;
#' Ising models with at most `exact_max` variables or a junction tree of
#' treewidth at most 20), otherwise annealed importance sampling (RBMs and
#' Ising models, with [ais()]'s default schedules), adaptive
#' resample-move SMC for GP classifiers ([arm()]; unless `repeats` is given,
#' as 4 independent runs of 250 particles (or of `particles`), so that the
#' estimate has an se at the work of [arm()]'s one default run of 1000
#' particles), and A* sampling's Gumbel
#' estimate for continuous A* targets ([astar_sample()]), and adaptive
#' tempering SMC ([smc()]) for R log densities and [bayes_model()]s. Any of the
#' package's estimators can be asked for by name; the remaining arguments go
#' to it.
#'
#' @section What `"auto"` picks and why: \describe{
#'   \item{RBM, smaller layer <= `exact_max` units}{`"exact"`: enumerating
#'     \eqn{2^{\min(n_v, n_h)}} states (the other layer summed out) is
#'     exact, with no error to report.}
#'   \item{larger RBM}{`"ais"` with its default schedule (linear or SM08
#'     steps chosen by a pilot within 14,500 steps per chain; see [ais()],
#'     "The default schedule"); its importance weights give an ESS and an
#'     error bar (`vignette("rbm", package = "logz")`).}
#'   \item{Ising model, <= `exact_max` variables or junction-tree width <= 20}{`"exact"`
#'     (enumeration or junction tree).}
#'   \item{larger Ising model}{`"ais"` with a 1000-step linear schedule
#'     (`vignette("schedules", package = "logz")`).}
#'   \item{GP classifier}{`"arm"`: adaptive resample-move over data points
#'     (Fraccaro et al. 2016) estimates the evidence without bias in \eqn{Z}
#'     and, with `repeats >= 2`, with an error bar (`"ep"` is faster but has
#'     none; `vignette("gp-classification", package = "logz")`).}
#'   \item{A* target}{`"astar"`: the Gumbel values of exact samples give an
#'     unbiased log Z and its se (\eqn{\pi/\sqrt{6n}}).}
#'   \item{R log density, bayes_model}{`"smc"`: adaptive tempering SMC
#'     ([smc()]) with its defaults (`vignette("evidence", package = "logz")`):
#'     its se comes from independent replicates; its temperatures follow the
#'     conditional ESS, so it spends them where the target changes fastest,
#'     where AIS's linear schedule cannot; its pilot run
#'     refits the Laplace base where the mode is a poor centre (the funnel of
#'     a hierarchical model); and its multi-start mode search widens the base
#'     over separate modes, or flags the estimate when the particles still
#'     miss one. `method = "ais"` remains available (one run, no
#'     replicates). For a [bayes_model()] with gradients, "auto" runs
#'     [smc()] on its log joint (prior times likelihood) from the Laplace
#'     base, started at the best of 20 prior draws (or at `start`): the power
#'     posteriors from the prior (`method = "smc"`, which also gives the
#'     thermodynamic-integration and stepping-stone estimates of the prior
#'     path) must cross the whole information gain from prior to posterior,
#'     and cost many times more temperatures for the same error. Without
#'     gradients "auto" takes the same road (the Laplace fit by numerical
#'     differences, random-walk moves from that base); only when the Laplace
#'     fit fails (a Hessian that is not positive definite, a mode search that
#'     leaves the support or diverges) does it run the power posteriors, and
#'     the result's `base$how` says why.}
#' }
#' `"mip"` and `"rts"` are never picked automatically: GumbelMIP's cost grows
#' quickly with the number of variables, and RTS needs a good initial
#' ladder. See the README's "Which method should I use?" for needs other
#' than log Z (exact samples, tracking during training).
#'
#' @param model an [rbm()], [ising()], [gpc()] model, an [astar_target()], or
#'   an R function giving an unnormalised log density (with `start`, and
#'   preferably `gradient`, in `...` for the default Laplace base and HMC, or a
#'   `base` proposal; `"auto"` uses [smc()]), or a fitted Stan model
#'   (a `stanfit`, see [stan_target()]; the methods of R functions apply).
#' @param method `"auto"`, or one of `"exact"`, `"ais"`, `"rts"`, `"arm"`,
#'   `"ep"` (GP classifiers), `"astar"` (A* targets), `"mip"` (exact samples of
#'   discrete models by [mip_sample()], whose Gumbel values give log Z),
#'   `"smc"` (adaptive tempering SMC, [smc()], for R log densities and
#'   [bayes_model()]s, for which `"auto"` picks it).
#' @param exact_max for `"auto"`: the largest number of units enumerated (the
#'   smaller RBM layer, or the Ising variables); default 20.
#' @param ... passed to the chosen estimator (e.g. `n_chains`, `schedule`,
#'   `particles`, `n`, `base`); every estimator takes `progress`. The annealing estimators start from the
#'   default base of [logz_base] unless `base` is given: for an RBM without
#'   `base_rate` (one built by [rbm()]) the moment-matched product of its own
#'   marginals from a short Gibbs run; the result's `base` field says which.
#' @return A `logz_estimate` (see [logz_estimate]); for the exact methods a
#'   [logz_exact] (`c("logz_exact", "logz_estimate")`, a number with `se = 0`,
#'   as [exact_log_z()] returns it). Its `method` says which
#'   estimator was used; `flags` and `reliable` say whether it may be
#'   unreliable (see [logz_reliability]); `method = "ep"` gives no se (EP is a
#'   deterministic approximation), and `print()` says so.
#' @section Unused arguments: an argument in `...` that the chosen estimator
#'   does not take is an error naming it (not silently ignored).
#' @section Errors: `model` of a class no method handles; a `method` that does
#'   not apply to the model (e.g. `"ep"` for an RBM); the chosen estimator's
#'   own errors.
#' @references
#' * Salakhutdinov, R. and Murray, I. (2008). On the quantitative analysis of deep
#'   belief networks. ICML.
#' * Carlson, D., Stinson, P., Pakman, A. and Paninski, L. (2016). Partition functions
#'   from Rao-Blackwellized tempered sampling. ICML.
#' * Fraccaro, M. et al. (2016). Adaptive resample-move SMC.
#' * Kim, C., Sabharwal, A. and Ermon, S. (2016). Exact sampling with integer linear
#'   programs and random perturbations. AAAI.
#' * Maddison, C. J., Tarlow, D. and Minka, T. (2014). A* sampling. NIPS.
#' @seealso [exact_log_z()], [ais()], [rts()], [arm()], [ep_log_z()],
#'   [astar_sample()], [mip_sample()]
#' @examples
#' set.seed(1)
#' m <- rbm(matrix(rnorm(30, 0, 0.3), 10, 3))
#' log_partition(m)                                   # exact: 3 hidden units
#' log_partition(m, method = "ais", n_chains = 50, progress = FALSE)
#' log_partition(ising_grid(4, 4, coupling = 0.3))   # exact by enumeration
#' log_partition(astar_example("peaky", a = 10), n = 200)
#' # an R log density with its gradient: SMC with HMC from the Laplace base
#' log_partition(function(x) -sum(x^2) / 2 - sum(x^4) / 4, start = c(1, 1),
#'               gradient = function(x) -x - x^3, progress = FALSE)
#' @export
log_partition <- function(model, method = c("auto", "exact", "ais", "rts", "arm", "ep", "astar",
                                            "mip", "smc"),
                          exact_max = 20L, ...) {
  method <- match_arg(method, "method")
  auto <- method == "auto"
  check_own_argument_names(names(match.call(expand.dots = FALSE)$...), c("method", "exact_max"),
                           "log_partition")
  if (inherits(model, "stanfit")) return(log_partition_stanfit(model, method, exact_max, ...))
  exact_max <- check_count(exact_max, "exact_max", max = 40L)
  kind <- if (is_rbm(model)) "rbm" else if (is_ising(model)) "ising"
          else if (inherits(model, "gpc")) "gpc"
          else if (inherits(model, "logz_astar_target")) "astar"
          else if (is.function(model)) "function"
          else if (inherits(model, "logz_bayes_model")) "bayes"
          else stop_no_call(sprintf(paste0("log_partition() does not know how to handle `model` ",
                                           "of class %s (expected an rbm, ising, gpc model, an ",
                                           "astar_target, a function or a bayes_model)."), paste(class(model), collapse = "/")))
  validate_model(model)
  if (method == "auto") {
    method <- switch(kind,
      rbm = if (min(model$n_visible, model$n_hidden) <= exact_max) "exact" else "ais",
      ising = if (model$n <= exact_max || ising_treewidth_ok(model)) "exact" else "ais",
      gpc = "arm", astar = "astar", "function" = "smc", bayes = "smc")
  }
  allowed <- switch(kind, rbm = c("exact", "ais", "rts", "arm", "mip"),
                    ising = c("exact", "ais", "rts", "arm", "mip"), gpc = c("ais", "arm", "ep"),
                    astar = "astar", "function" = c("ais", "rts", "smc"), bayes = "smc")
  if (!method %in% allowed)
    stop_no_call(sprintf("`method = \"%s\"` does not apply to %s; use one of %s.", method,
                         if (kind == "astar") "an A* target" else sprintf("a %s model", kind),
                         paste0('"', allowed, '"', collapse = ", ")))
  # an unused argument is an error of the chosen estimator; under "auto", say
  # which one was chosen (e.g. `n_chains` when the exact value was cheap)
  run <- if (auto && kind == "bayes") function() bayes_joint_auto(model, ...)
    else function() log_partition(model, method, exact_max, ...)
  if (auto) return(withCallingHandlers(run(),
    error = function(e) {
      msg <- conditionMessage(e)
      if (grepl("unused (unnamed )?argument", msg))
        stop_no_call(sprintf("%s (method = \"auto\" chose \"%s\" for this model; ask for another by `method`.)",
                             msg, method))
    }))
  switch(method,
    exact = exact_estimate(model, ...),
    ais = ais(model, ...),
    rts = rts(model, ...),
    arm = if (kind == "gpc") arm_gpc_with_se(model, ...) else arm(model, ...),
    ep = ep_estimate(model, ...),
    astar = astar_sample(model, ...),
    mip = mip_sample(model, ...),
    smc = smc(model, ...))
}

# ARM on a GP classifier with an se by default: unless `repeats` is given, 4
# independent runs of 250 particles (the particles of arm()'s one default run
# of 1000 split four ways: the same particle-moves and CPU time; the se comes
# from the spread of the runs).
arm_gpc_with_se <- function(model, ...) {
  given <- ...names()
  if ("repeats" %in% given) return(arm(model, ...))
  if ("particles" %in% given) arm(model, repeats = 4L, ...)
  else arm(model, particles = 250L, repeats = 4L, ...)
}

# Is the Ising model's min-fill junction tree small enough (treewidth <= 20)?
ising_treewidth_ok <- function(model) {
  o <- jt_order(model, cap = 20L)
  isTRUE(o$complete) && o$width <= 20L
}

exact_estimate <- function(model, ...) exact_log_z(model, ...)

ep_estimate <- function(model, progress = FALSE, ...) {
  t0 <- proc.time()[["elapsed"]]
  lz <- ep_log_z(model, ..., progress = progress)
  conv <- isTRUE(attr(lz, "converged"))
  out <- new_logz_estimate(list(
    log_z = as.numeric(lz), se = NA_real_, method = "EP", time = proc.time()[["elapsed"]] - t0,
    counts = c(sweeps = attr(lz, "sweeps")), diagnostics = data.frame(), converged = conv,
    seed = NULL, call = match.call(),
    se_note = paste0("EP is a deterministic approximation (bias unknown); for an se use ",
                     "method = \"arm\" with repeats >= 2, or method = \"ais\"")),
    "logz_ep")
  # ep_log_z() has warned about non-convergence already
  if (!conv) out <- flag_estimate(out, sprintf("EP did not converge in %d sweeps",
                                               as.integer(attr(lz, "sweeps"))), warn = "never")
  out
}

# log_partition() on a stanfit: the same as on an R function with the
# model's gradient (any method log_partition() takes for functions); "auto"
# is smc() from the base fitted to the draws.
log_partition_stanfit <- function(model, method, exact_max, ..., base = "draws", df = Inf,
                                  stanfit_model = NULL, start = NULL) {
  if (method == "auto") method <- STAN_AUTO_METHOD
  est <- function(f, ...) log_partition(f, method = method, ...)
  stan_estimate(est, model, base, df, stanfit_model, start, sys.call(-1L), ...,
                is_smc = method == "smc")
}

# log_partition()'s "auto" for a bayes_model(): the log joint from the
# Laplace base (bayes_joint_smc()), with or without gradients; the power
# posteriors from the prior (smc() on the model) only when the Laplace fit
# fails, saying why in base$how.
bayes_joint_auto <- function(model, ...) {
  fallback <- NULL
  fit <- tryCatch(bayes_joint_smc(model, ...), error = function(e) {
    msg <- conditionMessage(e)
    if (!grepl("^(the Hessian of -log f|the mode search (left|diverged))", msg)) stop(e)
    fallback <<- msg
    NULL
  })
  if (!is.null(fit)) return(fit)
  args <- list(...)
  args <- args[names(args) %in% names(formals(smc.logz_bayes_model))]
  fit <- do.call(smc, c(list(model), args))
  fit$base$how <- paste0(fit$base$how, "; chosen because the Laplace fit of the log joint failed: ",
                         fallback)
  fit
}

# smc() on the log joint of a bayes_model from the Laplace base (started at
# the best of 20 prior draws unless `start` is given).
bayes_joint_smc <- function(model, start = NULL, ...) {
  j <- bayes_joint(model)
  fit <- smc(j$f, gradient = j$g, vectorized = model$vectorized,
             start = if (is.null(start)) j$start else start, ...)
  if (is.null(start))
    fit$counts[["density_evaluations"]] <- fit$counts[["density_evaluations"]] + j$evaluations
  fit$target <- "a Bayesian model (prior x likelihood, from a Laplace base)"
  fit
}
