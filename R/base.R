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

# The base an estimator starts from, for `base` as given to ais(), raise(),
# rts(), arm() (NULL, a type name, a logz_base, an rbm product model or a
# numeric vector of biases): a logz_base. Any Gibbs pilot run draws from R's
# RNG, so callers take their `seed` before calling this.
resolve_base <- function(model, base, threads = 1L) {
  b <- resolve_base_type(model, base, threads)
  if (is_rbm(model) && is.null(b$mode_bound)) b$mode_bound <- rbm_mode_bound(model)  # below
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

# The visible biases of the base (see resolve_base()).
rbm_base_bias <- function(model, base) resolve_base(model, base)$bias

# The pilot runs behind the bases of logz_base(): the Gibbs marginals of the
# "model" base and the pilot AIS runs that choose the "auto" base of an RBM.

# The "auto" base of an RBM without base_rate: the model, visible, uniform
# and (n_h <= 64) mode bases, each scored by its own short AIS pilot on
# schedule_sm08(pilot_steps) (a third of `pilot_chains` chains each, the rest
# for the candidates within 5 nats + 3 se of the best); the one with the
# highest mean log weight is kept. The pilots draw from R's RNG before the
# estimator seeds its own streams, so the choice is independent of the main
# run, which stays unbiased for Z. A kept base whose pilot sd of log weights
# exceeds 2 gets a flag (added to every result by with_base()) and a warning.
rbm_auto_base <- function(model, n_chains, sweeps, smooth, threads, pilot_chains, pilot_steps) {
  mb <- rbm_mode_bound(model)   # below (NULL when n_h > 64)
  cands <- list(model = logz_base(model, "model", n_chains, sweeps, smooth, threads),
                visible = logz_base(model, "visible", smooth = smooth),
                uniform = logz_base(model, "uniform"))
  if (!is.null(mb)) cands$mode <- mode_base(model, mb, smooth)
  betas <- as.double(schedule_sm08(pilot_steps))
  # Successive halving: every candidate gets a third of the chains; those more
  # than 5 nats + 3 se below the best mean log weight are dropped, the rest
  # get the remaining chains. log Z0 + log w of every chain, per candidate:
  pilot <- function(b, chains) {
    r <- ais_rbm_engine(model, betas, chains, 1L, b$bias, threads)
    r$log_z0 + r$log_w
  }
  first <- max(2L, pilot_chains %/% 3L)
  lw <- lapply(cands, pilot, first)
  mu <- vapply(lw, mean, 0)
  se <- vapply(lw, function(l) stats::sd(l) / sqrt(length(l)), 0)
  top <- which.max(mu)
  keep <- mu >= mu[top] - 5 - 3 * sqrt(se[top]^2 + se^2)
  if (pilot_chains > first)
    for (k in which(keep)) lw[[k]] <- c(lw[[k]], pilot(cands[[k]], pilot_chains - first))
  score <- vapply(lw, function(l) {
    w <- exp(l - max(l))
    c(elbo = mean(l), log_z = max(l) + log(mean(w)), ess = sum(w)^2 / sum(w^2),
      sd = stats::sd(l), chains = length(l))
  }, numeric(5))
  best <- which.max(ifelse(keep, score["elbo", ], -Inf))
  b <- cands[[best]]
  b$mode_bound <- mb
  other <- names(cands)[-best]
  sd_best <- score["sd", best]
  b$pilot <- data.frame(type = names(cands), mean_log_w = score["elbo", ],
                        log_z = score["log_z", ], ess = score["ess", ], sd_log_w = score["sd", ],
                        chains = score["chains", ], steps = pilot_steps, row.names = NULL)
  b$how <- sprintf(paste0("%s; chosen over the %s bases by pilot AIS (%d chains, %d steps; ",
                          "mean log weight %.2f vs %s), pilot sd of log weights %.2f"),
                   b$how, paste(other, collapse = ", "), pilot_chains, pilot_steps,
                   score["elbo", best], paste(sprintf("%.2f", score["elbo", other]),
                                              collapse = ", "), sd_best)
  if (sd_best > 2) {
    b <- flag_estimate(b, sprintf(paste0(
      "base pilot sd of log weights = %.2f > 2 (log-normal ESS/M ",
      "exp(-sd^2) < 0.02): the %s base may miss modes of the model and ",
      "the estimate be far too low; give the training data's base rates ",
      "(base = rbm_base_rate(data))"), sd_best, b$type),
      sprintf(paste0("logz_base(): the pilot AIS from the default (%s) base has sd of log ",
                     "weights %.2f > 2 (ESS %.1f of %d chains): the base misses the model's ",
                     "mass and the estimate may be far too low. Give the training data's ",
                     "base rates: base = rbm_base_rate(data)."),
              b$type, sd_best, score["ess", best], pilot_chains))
  }
  b
}

# Visible marginals of an RBM at beta = 1 from `chains` block-Gibbs chains of
# `sweeps` sweeps: the first half anneals from the uniform distribution to
# beta = 1 (the AIS engine, weights unused; it spreads the chains over the
# modes better than Gibbs from noise at beta = 1), the second half runs at
# beta = 1 and is Rao-Blackwellized: the mean of sigmoid(a + W h) over hidden
# states drawn from p(h | v).
rbm_pilot_marginals <- function(model, chains, sweeps, threads = 1L) {
  nv <- model$n_visible
  if (model$n_hidden == 0L) return(stats::plogis(model$a))
  mlist <- ais_rbm_model(model, numeric(nv))
  state <- ais_rbm_state(chains)
  control <- list(threads = threads, sweeps = 1L, final = FALSE, log_z0 = 0, kernel = "sparse",
                  moments = FALSE, crossover = ais_crossover())
  burn <- sweeps %/% 2L
  acc <- numeric(nv)
  kept <- 0L
  step <- function(betas) {
    res <- ais_rbm_chunk(mlist, betas, state, control)
    state <<- list(V = res$V, log_w = numeric(chains), streams = res$streams,
                   density = res$density)
  }
  step(seq(0, 1, length.out = burn + 1L))   # anneal from uniform
  for (s in seq_len(sweeps - burn)) {
    step(c(1, 1))
    pre <- crossprod(model$W, state$V) + model$b                  # n_h x chains
    H <- matrix(as.double(stats::runif(length(pre)) < stats::plogis(pre)), nrow(pre))
    acc <- acc + rowSums(stats::plogis(model$W %*% H + model$a))
    kept <- kept + chains
  }
  acc / kept
}

# Marginals P(x_i = hi) of an Ising model at beta = 1 from `chains` Gibbs
# chains of `sweeps` sweeps: the first half anneals from the uniform
# distribution to beta = 1 (the AIS engine, weights unused), the states of the
# second half are averaged.
ising_pilot_marginals <- function(model, chains, sweeps, threads = 1L) {
  burn <- sweeps %/% 2L
  order <- ising_sweep_order(model)
  ann <- ising_ais_chunk(ising_c_model(model, order = order, a0 = numeric(model$n)),
                         seq(0, 1, length.out = burn + 1L), ising_ais_state(chains),
                         list(threads = threads, sweeps = 1L, final = FALSE, log_z0 = 0))
  state <- list(X = ann$X, streams = ann$streams)
  control <- list(n_per = as.integer(sweeps - burn), sweeps = 1L, burn_in = 0L,
                  threads = threads)
  res <- ising_gibbs_chunk(ising_c_model(model, order = order), state, control)
  colMeans(res$samples == model$values[2])
}

# The mode search of the RBM bases: greedy ascent of the hidden marginal from
# random starts, the rigorous lower bound on log Z it gives, and the "mode" base.
#
# For an RBM, Z = sum_h f(h) with log f(h) = b'h + sum_i softplus(a_i + W_i h)
# (the visible units summed out exactly). Any set S of distinct hidden states
# gives log Z >= log sum_{h in S} f(h), with no sampling error. On RBMs whose
# hidden marginal has a few states of large mass, greedy ascent of log f(h)
# from random starts finds them, and the bound is close to log Z even where
# annealing from every product base ends its chains in one broad mode. An
# estimate more than `mode_check_margin()` nats + 3 se below the bound is
# provably too low, and is flagged (R/base_check.R). On models whose hidden
# marginal is spread (large n_h, where no single state matters) the bound is
# far below log Z and never fires.

# Greedy single-flip ascent of log f(h) from `starts` random hidden states
# (Bernoulli(1/2)); returns list(log_z = the bound, states = distinct local
# maxima, log_f = their log f, n_hidden_max) or NULL when the model has no
# hidden units or more than `max_hidden` of them (the ascent costs
# n_h * n_v * starts per step). R's RNG state is restored afterwards, so the
# check does not change the random numbers of the estimator that runs it.
rbm_mode_bound <- function(model, starts = mode_check_starts(), max_hidden = 64L) {
  nh <- model$n_hidden
  if (nh == 0L || nh > max_hidden || starts < 1L) return(NULL)
  H <- keep_rng_state(matrix(as.double(stats::runif(nh * starts) < 0.5), nh, starts))
  H <- hidden_ascent(model, H)
  H <- H[, !duplicated(t(H)), drop = FALSE]
  lf <- rbm_log_f_hidden(model, H)
  list(log_z = log_sum_exp(lf), n_states = ncol(H), states = H, log_f = lf, starts = starts,
       n_hidden = nh)
}

# log f(h) for the columns of H (n_h x S).
rbm_log_f_hidden <- function(model, H) {
  drop(crossprod(H, model$b)) + colSums(softplus(model$W %*% H + model$a))
}

# Best-improvement single-flip ascent of log f(h), all columns of H together;
# a column stops when no flip gains. Each step flips one unit per moving
# column, so a column takes at most 2^n_h steps and in practice about n_h / 2.
hidden_ascent <- function(model, H, max_steps = 10L * nrow(H)) {
  W <- model$W
  P <- W %*% H + model$a                         # n_v x S pre-activations
  active <- seq_len(ncol(H))
  for (step in seq_len(max_steps)) {
    if (!length(active)) break
    check_interrupt()   # a step is n_h passes over n_v x S: few, long evaluations
    Pa <- P[, active, drop = FALSE]
    base <- colSums(softplus(Pa))
    gain <- vapply(seq_len(nrow(H)), function(j) {
      s <- 1 - 2 * H[j, active]
      s * model$b[j] + colSums(softplus(Pa + outer(W[, j], s))) - base
    }, numeric(length(active)))
    gain <- matrix(gain, length(active))          # active x n_h
    best <- max.col(gain, ties.method = "first")
    up <- gain[cbind(seq_along(active), best)] > 1e-9
    for (i in which(up)) {
      s <- active[i]
      j <- best[i]
      d <- 1 - 2 * H[j, s]
      H[j, s] <- H[j, s] + d
      P[, s] <- P[, s] + d * W[, j]
    }
    active <- active[up]
  }
  H
}

# The "mode" base: the visible conditional sigmoid(a + W h*) of the hidden
# state h* of largest f(h) that the ascent found, smoothed.
mode_base <- function(model, mb, smooth) {
  top <- which.max(mb$log_f)
  p <- stats::plogis(drop(model$W %*% mb$states[, top]) + model$a)
  b <- new_logz_base(model, smooth_logit(p, smooth), "mode", sprintf(paste0(
    "visible conditional of the hidden state of largest mass (%.2f of the mode bound) found by ",
    "%d hill-climbing starts, smoothed (s = %g)"), exp(mb$log_f[top] - mb$log_z), mb$starts,
    smooth))
  b$mode_bound <- mb
  b
}

# Starts of the ascent (option logz.mode_check_starts; 0 turns the check off).
mode_check_starts <- function() {
  as.integer(logz_option("mode_check_starts", 30L, number = TRUE, lower = 0))
}

# The base fields (see resolve_base()).
ising_base_field <- function(model, base) {
  check_ising(model)
  resolve_base(model, base)$bias
}
