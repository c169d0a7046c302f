# The base distribution of the annealing estimators (ais, raise, rts, arm):
# which product distribution they start from, and how it was chosen.

#' Base distributions of the annealing estimators
#'
#' [ais()], [raise()] and [rts()] anneal from a tractable product
#' distribution \eqn{p_0} (the "base", at \eqn{\beta = 0}) to the model; [arm()]
#' on an RBM uses the base to order the visible units. The closer the base is
#' to the model, the more accurate the estimate. `logz_base()` computes a base
#' once, so that it can be shown, reused by several estimators
#' (`ais(m, base = b)`, `rts(m, base = b)`) or passed to the pieces of a split
#' run. Each estimator calls it when its `base` is `NULL` or a type name, and
#' records the result in its `base` field (`list(type =, how =)`), shown by
#' `print()`.
#'
#' Types:
#' \describe{
#'   \item{`"data"`}{RBM: the base rates of the training data (smoothed pixel
#'     means, as [rbm_base_rate()]), kept by [rbm_train()] in the model's
#'     `base_rate`.}
#'   \item{`"model"`}{the moment-matched product distribution of the model
#'     itself: the marginals of a short Gibbs run at \eqn{\beta = 1}.
#'     `n_chains` chains start from the uniform distribution and make `sweeps`
#'     sweeps (the C Gibbs kernels of [ais()] and [gibbs_sample()]): the
#'     first half anneal linearly from \eqn{\beta = 0} to 1 (which spreads
#'     the chains over the model's modes better than Gibbs from noise), the
#'     second half run at \eqn{\beta = 1} and their marginals are averaged
#'     (for an RBM Rao-Blackwellized: the mean of \eqn{\sigma(a + Wh)} over
#'     the drawn hidden states), then smoothed as in [rbm_base_rate()],
#'     \eqn{p \to (p + s)/(1 + 2s)} with `smooth` \eqn{= s}, so that no unit
#'     is certain. The base biases are \eqn{\mathrm{logit}(p)} (Ising:
#'     \eqn{\mathrm{logit}(p) / (hi - lo)}). The run draws from R's RNG, so
#'     it is reproducible under [set.seed()] (and the estimators record the
#'     RNG state before it in their `seed`).}
#'   \item{`"visible"`}{RBM: the visible biases alone, \eqn{\sigma(a)},
#'     smoothed as above (the model with \eqn{W = 0}).}
#'   \item{`"mode"`}{RBM: the visible conditional \eqn{\sigma(a + W h^*)} of
#'     the hidden state \eqn{h^*} of largest \eqn{f(h)} found by the mode
#'     check's ascent (any \eqn{n_h}; the search costs about
#'     \eqn{30 n_h n_v} per ascent step), smoothed as above.}
#'   \item{`"field"`}{Ising: the model's own fields without couplings.}
#'   \item{`"uniform"`}{all base biases zero.}
#'   \item{`"given"`}{biases supplied by the caller (a numeric vector, or an
#'     RBM with `W = 0` and `b = 0` such as [rbm_base_rate()]).}
#' }
#' `type = "auto"` (what the estimators use for `base = NULL`) is `"data"`
#' for an RBM that has `base_rate`, the pilot's choice below for any other
#' RBM, and `"field"` for an Ising model (ask for the model base with
#' `base = "model"`).
#'
#' @section The automatic choice for an RBM: The `"model"`, `"visible"`,
#'   `"uniform"` and (for \eqn{n_h \le 64}) `"mode"` bases are each scored by
#'   their own short AIS run on `schedule_sm08(pilot_steps)`: first
#'   `pilot_chains %/% 3` chains each, then the remaining chains for the
#'   candidates whose mean log weight is within 5 nats + 3 se of the best
#'   (successive halving). The one with the highest mean log weight
#'   \eqn{\log Z_0 + \overline{\log w}} is kept. That mean is a lower bound on
#'   \eqn{\log Z} in expectation, short of it by the KL divergence between the
#'   forward and backward chains, so the higher one marks the base that loses
#'   less; it has standard error \eqn{\mathrm{sd}(\log w)/\sqrt M}, while a
#'   pilot's log-mean-exp estimate is noisy for a poor base. The cost is at
#'   most `pilot_chains * pilot_steps` sweeps per candidate, plus the
#'   `n_chains * sweeps` of the model base's Gibbs run and the mode search.
#'   The result's `how` gives the pilots' figures and `pilot` the table.
#'
#'   If the kept base's pilot has \eqn{\mathrm{sd}(\log w) > 2} (for
#'   log-normal weights an ESS/M of \eqn{e^{-4} \approx 0.02}) the base gets a
#'   flag, which every estimator that uses it adds to its `flags` (so its
#'   `reliable` is `FALSE`), and `logz_base()` warns. The pilots are also a
#'   cross-check: an estimate more than 1 nat + 3 se below the highest pilot
#'   log-mean-exp estimate (itself a stochastic lower bound) has missed mass a
#'   pilot found, and is flagged with a warning (the estimate is unchanged).
#'   The pilots draw from R's RNG before the estimator seeds its own streams:
#'   the choice does not depend on the main run, which stays unbiased.
#'
#' @section The mode check: For an RBM with at most 64 hidden units the base
#'   also carries a rigorous lower bound on log Z: with the visible units
#'   summed out, \eqn{Z = \sum_h f(h)}, \eqn{\log f(h) = b'h + \sum_i
#'   \mathrm{softplus}(a_i + W_i h)}, so the distinct hidden states
#'   \eqn{h_1, \dots} reached by greedy single-flip ascent of \eqn{\log f}
#'   from 30 random starts (option `logz.mode_check_starts`; 0 turns it off)
#'   give \eqn{\log Z \ge \log \sum_i f(h_i)} with no sampling error. An
#'   estimate more than 0.1 nats (option `logz.mode_check_margin`) + 3 se
#'   below it is provably too low and is flagged with a warning (every
#'   estimator that uses the base). [ais()] also compares, for each found
#'   state, its share \eqn{s_i = f(h_i)/\hat Z} with the importance-weighted
#'   mean \eqn{m_i} of \eqn{p(h_i \mid v)} over its final states (both
#'   estimate \eqn{f(h_i)/Z}), and flags the run when the mass of states it
#'   never reached, \eqn{\log(1 + \sum_i \max(0, s_i - m_i - 3\,\mathrm{sd}_i))},
#'   exceeds 0.25 nats (option `logz.mode_check_occupancy`); its result's
#'   `mode_check` holds the bound and that statistic. The search restores R's
#'   RNG state, so it does not change the estimator's random numbers.
#'
#' @section Limits: A product base is only as good as the pilot's picture of
#'   the model. Annealed chains tend to stay in the basin they start in, so a
#'   run from a base that misses a mode can be too low with an ESS near M and
#'   a small se. The mode checks see only the mass of the hidden states the
#'   search finds: an error from mass outside them goes unflagged when the
#'   bound is below the estimate, and for \eqn{n_h > 64} there is no search.
#'   When the training data are at hand, their base rates
#'   (`base = rbm_base_rate(data)`, or a model from [rbm_train()]) are a good
#'   base, and [raise()] from the data bounds log Z from the other side; for
#'   \eqn{n_h \le 25}, [exact_log_z()] is feasible. The accuracy of the bases
#'   and of the checks on trained MNIST RBMs is measured in
#'   `vignette("getting-started", package = "logz")`.
#'
#' @section Unbiasedness: The base is fixed before the estimator starts: it is
#'   a product distribution with exact \eqn{\log Z_0} from which the
#'   estimator's chains start as exact independent draws. The Gibbs run that
#'   chose it is independent of the estimator's own random numbers, so AIS
#'   stays unbiased for \eqn{Z} given any base; a poor base only costs
#'   variance (and, for a finite run, the downward bias of \eqn{\log \hat Z}
#'   that comes with it).
#'
#' @param model an [rbm()] or [ising()] model.
#' @param type `"auto"`, `"model"`, `"visible"`, `"mode"` (RBMs), `"data"` (RBMs with
#'   `base_rate`), `"field"` (Ising) or `"uniform"`.
#' @param n_chains,sweeps `type = "model"`: the number of Gibbs chains and
#'   sweeps per chain of the pilot run (its cost is `n_chains * sweeps`
#'   sweeps).
#' @param smooth `type = "model"`: the smoothing \eqn{s \ge 0} of the
#'   marginals.
#' @param threads OpenMP threads of the pilot run (the result does not depend
#'   on it).
#' @param pilot_chains,pilot_steps `type = "auto"` on an RBM without
#'   `base_rate`: the chains (>= 2) and [schedule_sm08()] steps (>= 3) of each
#'   candidate's pilot AIS run. The fewer the steps, the larger the pilot's sd
#'   of log weights, and the sooner the flag (threshold 2) fires.
#' @param x a `logz_base`.
#' @param ... ignored (print method).
#' @return An object of class `"logz_base"`: a list with `type`, `how` (a
#'   sentence), `bias` (the base's visible biases or fields, one per unit),
#'   `marginals` (the base's probabilities of the upper state) and `log_z0`
#'   (its log normalising constant; for an RBM including \eqn{n_h \log 2});
#'   for the pilot-chosen RBM base also `pilot` (a data frame, one row per
#'   candidate: `type`, `mean_log_w` (\eqn{\log Z_0 + \overline{\log w}}),
#'   `log_z` (the pilot's AIS estimate), `ess`, `sd_log_w`, `chains`
#'   (`max(2, pilot_chains %/% 3)` for a candidate dropped after the first round),
#'   `steps`)
#'   and, when the kept base's pilot sd of log weights exceeds 2, `flags` (the
#'   reason, added to the `flags` of every estimate that uses the base); for
#'   the auto and mode bases of an RBM with \eqn{n_h \le 64}, `mode_bound`
#'   (`log_z`: the bound; `states`, `log_f`: the found hidden states and their
#'   \eqn{\log f}; `n_states`, `starts`).
#' @section Errors: `model` not an rbm or ising model; `type = "data"` for a
#'   model without `base_rate`; `"field"` for an RBM, `"visible"` for an Ising
#'   model; bad `chains`, `sweeps`, `smooth`, `threads`, `pilot_chains` or
#'   `pilot_steps`. A warning (class `logz_unreliable`) when the default RBM
#'   base's pilot flags it. The estimators report a `base` of the wrong size,
#'   an RBM base with couplings, or a base built for another model size.
#' @references Salakhutdinov, R. and Murray, I. (2008). On the quantitative
#'   analysis of deep belief networks. ICML (the base-rate base).
#'   Neal, R. M. (2001). Annealed importance sampling. Statistics and
#'   Computing 11, 125-139.
#' @seealso [ais()], [raise()], [rts()], [arm()], [rbm_base_rate()]
#' @examples
#' set.seed(1)
#' m <- rbm(matrix(rnorm(40, sd = 0.5), 10, 4), a = rnorm(10))
#' b <- logz_base(m)
#' b
#' fit <- ais(m, schedule_linear(200), n_chains = 50, base = b, progress = FALSE)
#' fit$base
#' exact_log_z(m)
#' @export
logz_base <- function(model, type = c("auto", "model", "visible", "mode", "data", "field",
                                      "uniform"),
                      n_chains = 100L, sweeps = 100L, smooth = 0.05, threads = 1L,
                      pilot_chains = 30L, pilot_steps = 1000L) {
  if (!is_rbm(model) && !is_ising(model))
    stop_no_call(sprintf("`model` must be an rbm or an ising model, not %s.", describe(model)))
  type <- match_arg(type, "type")
  n_chains <- check_count(n_chains, "n_chains")
  sweeps <- check_count(sweeps, "sweeps", min = 2L)
  smooth <- check_number(smooth, "smooth", lower = 0)
  threads <- check_threads(threads)
  pilot_chains <- check_count(pilot_chains, "pilot_chains", min = 2L)
  pilot_steps <- check_count(pilot_steps, "pilot_steps", min = 3L)
  rbm <- is_rbm(model)
  validate_model(model)
  if (type == "auto" && rbm && is.null(model$base_rate))
    return(rbm_auto_base(model, n_chains, sweeps, smooth, threads, pilot_chains, pilot_steps))
  if (type == "auto") type <- if (!rbm) "field" else "data"
  n <- if (rbm) model$n_visible else model$n
  switch(type,
    uniform = new_logz_base(model, numeric(n), "uniform", "all base biases zero"),
    data = {
      if (!rbm || is.null(model$base_rate))
        stop_no_call(paste0("`type = \"data\"` needs an rbm with `base_rate` (the data's base ",
                            "rates, kept by rbm_train()); this model has none. Use \"model\"."))
      new_logz_base(model, model$base_rate, "data",
                    "base rates of the training data (smoothed pixel means)")
    },
    mode = {
      if (!rbm) stop_no_call("`type = \"mode\"` applies to RBMs only.")
      mb <- rbm_mode_bound(model, max_hidden = .Machine$integer.max)
      if (is.null(mb)) stop_no_call("`type = \"mode\"` needs an rbm with hidden units.")
      mode_base(model, mb, smooth)
    },
    visible = {
      if (!rbm) stop_no_call("`type = \"visible\"` applies to RBMs only.")
      new_logz_base(model, smooth_logit(stats::plogis(model$a), smooth), "visible",
                    sprintf("sigmoid of the model's visible biases, smoothed (s = %g)", smooth))
    },
    field = {
      if (rbm) stop_no_call("`type = \"field\"` applies to Ising models only.")
      new_logz_base(model, model$field, "field", "the model's fields without couplings")
    },
    model = {
      p <- if (rbm) rbm_pilot_marginals(model, n_chains, sweeps, threads)
           else ising_pilot_marginals(model, n_chains, sweeps, threads)
      bias <- smooth_logit(p, smooth)
      if (!rbm) bias <- bias / (model$values[2] - model$values[1])
      new_logz_base(model, bias, "model", sprintf(
        "marginals of %d Gibbs chains (%d sweeps annealing from uniform, %d at beta = 1), smoothed (s = %g)",
        n_chains, sweeps %/% 2L, sweeps - sweeps %/% 2L, smooth))
    })
}

# logit((p + s) / (1 + 2 s)), kept away from 0 and 1.
smooth_logit <- function(p, smooth) {
  p <- (p + smooth) / (1 + 2 * smooth)
  stats::qlogis(pmin(pmax(p, 1e-12), 1 - 1e-12))
}

new_logz_base <- function(model, bias, type, how) {
  bias <- as.double(bias)
  if (is_rbm(model)) {
    p <- stats::plogis(bias)
    log_z0 <- sum(softplus(bias)) + model$n_hidden * log(2)
  } else {
    v <- model$values
    p <- stats::plogis(bias * (v[2] - v[1]))
    log_z0 <- sum(bias * v[1] + softplus(bias * (v[2] - v[1])))
  }
  b <- structure(list(type = type, how = how, bias = bias, marginals = p, log_z0 = log_z0,
                      n = length(bias)), class = "logz_base")
  validate_base(b)
  b
}

#' @rdname logz_base
#' @export
print.logz_base <- function(x, ...) {
  check_dots_used(...)
  validate_model(x, "x")
  cat(sprintf("<logz_base> %s base over %d units: %s\n", x$type, x$n, x$how))
  cat(sprintf("  marginals in [%.3g, %.3g], mean %.3g; log Z0 = %.4f\n", min(x$marginals),
              max(x$marginals), mean(x$marginals), x$log_z0))
  if (!is.null(x$mode_bound))
    cat(sprintf("  mode check: log Z >= %.4f (%d hidden states from %d ascents)\n",
                x$mode_bound$log_z, x$mode_bound$n_states, x$mode_bound$starts))
  for (f in x$flags) cat(sprintf("  flag: %s\n", f))
  invisible(x)
}

# The base an estimator starts from, for `base` as given to ais(), raise(),
# rts(), arm() (NULL, a type name, a logz_base, an rbm product model or a
# numeric vector of biases): a logz_base. Any Gibbs pilot run draws from R's
# RNG, so callers take their `seed` before calling this.
resolve_base <- function(model, base, threads = 1L) {
  b <- resolve_base_type(model, base, threads)
  if (is_rbm(model) && is.null(b$mode_bound)) b$mode_bound <- rbm_mode_bound(model)  # R/base_mode.R
  b
}

resolve_base_type <- function(model, base, threads = 1L) {
  rbm <- is_rbm(model)
  n <- if (rbm) model$n_visible else model$n
  if (is.null(base)) return(logz_base(model, threads = threads))
  if (inherits(base, "logz_base")) {
    validate_base(base)
    if (base$n != n)
      stop_no_call(sprintf("`base` is a base over %d units but `model` has %d.", base$n, n))
    return(base)
  }
  if (is.character(base)) {
    if (length(base) != 1L || is.na(base) || !base %in% c("auto", "model", "visible", "mode", "data",
                                                          "field", "uniform"))
      stop_no_call(sprintf(paste0("`base` must be NULL, one of \"model\", \"data\", \"field\", ",
                                  "\"uniform\", a logz_base(), %sor a numeric vector, not %s."),
                           if (rbm) "an rbm from rbm_base_rate() " else "", describe(base)))
    return(logz_base(model, base, threads = threads))
  }
  if (rbm && is_rbm(base)) {
    if (base$n_visible != n)
      stop_no_call(sprintf("`base` has %d visible units but `model` has %d.", base$n_visible, n))
    if (any(base$W != 0) || any(base$b != 0))
      stop_no_call(paste0("`base` must be a product of Bernoullis (an rbm with W = 0 and b = 0, ",
                          "such as rbm_base_rate())."))
    return(new_logz_base(model, base$a, "given", "visible biases of the rbm given as `base`"))
  }
  if (is.numeric(base)) {
    check_finite_numeric(base, "base", len = n)
    return(new_logz_base(model, base, "given", "biases given as `base`"))
  }
  stop_no_call(sprintf(paste0("`base` must be NULL, a type name (\"model\", \"uniform\", ...), a ",
                              "logz_base(), %sor a numeric vector, not %s."),
                       if (rbm) "an rbm from rbm_base_rate() " else "", describe(base)))
}

# The record kept in a result's `base` field, and the one line print() shows.
base_record <- function(b) list(type = b$type, how = b$how)

with_base <- function(x, b, seed = NULL) {
  x$base <- base_record(b)
  x <- flag_estimate(x, b$flags, warn = "never")   # warned when the base was chosen
  x <- check_against_base(x, b)   # R/base_check.R
  if (!is.null(seed)) x$seed <- seed
  x
}

base_line <- function(x) {
  if (is.null(x$base)) return("")
  sprintf("  base: %s (%s)\n", x$base$type, x$base$how)
}
