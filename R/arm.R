#' Adaptive Resample-Move: log Z by sequential Monte Carlo over variables
#'
#' Estimates log Z by the sequence \eqn{p_n(x_{[n]}) = f_n(x_{[n]}) / Z_n},
#' n = 1..N, that adds one variable per iteration (Fraccaro, Paquet & Winther
#' 2016). Each iteration moves the particles with an MCMC kernel invariant for
#' \eqn{p_n}, reweights them by the smooth weight
#' \eqn{W(x_{[n]}) = \int f_{n+1}(x_{[n+1]}) / f_n(x_{[n]}) dx_{n+1}}
#' (adding \eqn{\log \sum_r W(x^r) \tilde w^r} to log Z), resamples (residual
#' resampling) when the effective sample size drops below `ess_threshold`
#' times the particles, and augments each particle with
#' \eqn{x_{n+1} \sim p_{n+1}(x_{n+1} | x_{[n]})}.
#'
#' Variants:
#' \describe{
#'   \item{`"rm"`}{Resample-Move with R particles throughout (Algorithm 1).}
#'   \item{`"arm"`}{Adaptive Resample-Move (Algorithm 2): while the stopping
#'     `rule` (below) is not met (at most `i_max` times), the last generated
#'     set is copied and moved once more by the kernel, appended to the pool,
#'     the pool reweighted as \eqn{(R_n / (R_n + R)) \tilde\rho} and
#'     \eqn{(R / (R_n + R)) \tilde w} and re-smoothed; an expanded pool is
#'     always resampled back to R. With `gamma_threshold = 0` it is exactly
#'     `"rm"` (same random numbers). The paper's pseudo-code is damaged in the
#'     text; this reading keeps the R particles already moved as the first
#'     block (a literal reading may start the pool empty, dropping that block).}
#'   \item{`"anticipate"`}{ARM-anticipate (Section 3.2): each new block starts
#'     from the R particles moved at the start of the iteration (slots of the
#'     base set, normalised weights \eqn{\tilde w_n}); each particle with
#'     \eqn{N_r = \lfloor R \tilde w_{n+1}^r \rfloor > 0} is split into
#'     \eqn{N_r} copies of weight \eqn{\tilde w_n^r / N_r}, the others are kept
#'     once, and the block is moved. A block thus holds at most 2R particles
#'     (\eqn{\sum_r N_r \le R}), as the paper's \eqn{S = R + \sum_r N_r}
#'     says.}
#'   \item{`"reseed"`}{ARM-reseed: the new set is
#'     \eqn{S = \max((1 - \gamma/\gamma_{thr}) R, 100)} fresh particles drawn
#'     independently of the current set, from a proposal \eqn{q_n} with a known
#'     density, weighted by \eqn{f_n(x) / q_n(x)} and then moved `reseed_steps`
#'     times by the kernel (which keeps those weights valid). The proposals:
#'     for `gpc` the prior of \eqn{z_{[n]}} conditioned on the labels one point
#'     at a time (the GHK simulator, weight \eqn{\prod_i \Phi(y_i m_i / s_i)});
#'     for `ising` the spins drawn one at a time given the spins already drawn
#'     (weight \eqn{\prod_i \sum_s e^{s h_i}}); for `rbm` the base (independent
#'     visible units with the marginals of `base`, see [logz_base]), or a
#'     mixture centred on training examples (`reseed_data`). The pool
#'     and the fresh block enter as \eqn{R_n/(R_n+S)} and \eqn{S/(R_n+S)} of
#'     their estimates of \eqn{Z_n}, so the running estimate changes with the
#'     fresh block's (`reseed_weights = "importance"`, the default). The
#'     importance weights keep the estimate unbiased for any `reseed_steps`
#'     (for a fixed number of expansions). Unbiased is not typical: where the
#'     proposal is far from \eqn{p_n} (hundreds of pixels drawn from the base)
#'     the fresh block's estimate of \eqn{Z_n} is usually far below it, and
#'     each expansion then lowers a typical run's log Z by about
#'     \eqn{\log((R_n + S)/R_n)}. The diagnostic
#'     columns `fresh_ess` (the smallest ESS / S of the fresh blocks' importance
#'     weights in the iteration) and `fresh_shift` (how far the iteration's
#'     fresh blocks moved the running log Z) show this, and a run whose fresh
#'     blocks lowered its log Z by more than 1 nat in total (`reseed_shift`,
#'     per run) is flagged (see [logz_reliability]): blocks that are as good
#'     as the pool move log Z by noise around 0 (a few hundredths of a nat
#'     per expansion on small models), and a pool that missed mass is raised,
#'     not lowered, by them. `reseed_weights = "equal"` is the paper's weighting (Section 3.2): the
#'     fresh particles are taken as draws from \eqn{p_n} after `reseed_steps`
#'     moves (the paper runs 1500-3000 Gibbs transitions from training digits,
#'     `reseed_data`), with normalised weights \eqn{\tilde w = 1/S}, mixed with
#'     the pool as \eqn{(R_n/(R_n+S))\tilde\rho} and \eqn{(S/(R_n+S))/S}, as
#'     ARM mixes its copies; the running estimate of \eqn{Z_n} is then the pool's. It is
#'     unbiased only when the moved fresh particles are exact draws from
#'     \eqn{p_n} (a sampler run to convergence), biased otherwise (with
#'     `reseed_steps = 0` they are the proposal's draws), and carries no
#'     `fresh_shift` and no reseed flag.}
#' }
#'
#' The stopping rule of the generate loop (`rule`), two readings of Section 3.1.
#' The text defines \eqn{\gamma^{(i)} = R_{eff,n}^{(i)} / R_n^{(i)}} and loops
#' "until \eqn{\gamma^{(i)} > \gamma_{thr}}, or until a maximum number of
#' iterations \eqn{i_{max}}", and reports that "experimentally the average number
#' of particles is much smaller, with \eqn{R_{tot}/(N-1) \approx 1.5R} for
#' Section 4's results". The two cannot both hold on a problem like the paper's:
#' \describe{
#'   \item{`"per_block"`}{the text's rule: stop when
#'     \eqn{R_{eff} / R_n \ge \gamma_{thr}}. For particles that target
#'     \eqn{p_n}, \eqn{R_{eff}/R_n} estimates \eqn{1 / (1 + v_n)} with
#'     \eqn{v_n} the relative variance of \eqn{W} under \eqn{p_n}, which does
#'     not grow with \eqn{R_n}: wherever \eqn{v_n > 1/\gamma_{thr} - 1} the
#'     loop runs to `i_max` and spends \eqn{(1 + i_{max}) R} particles, so the
#'     mean cost per iteration can be far above the paper's 1.5 R.}
#'   \item{`"pool_ess"` (default)}{stop when the pool's ESS reaches
#'     \eqn{\gamma_{thr} R}: the pool already holds \eqn{R_n \ge R} particles,
#'     and the loop adds blocks until it is worth \eqn{\gamma_{thr} R}
#'     independent ones. The first test (\eqn{R_n = R}) is the same as the
#'     text's; the loop ends after about \eqn{\gamma_{thr} / \gamma^{(0)}}
#'     blocks, so the cost stays near the paper's 1.5 R per iteration. The
#'     default.}
#' }
#' The diagnostic columns `gamma0` (\eqn{R_{eff}/R} of the R moved particles)
#' and `gamma` (\eqn{R_{eff}/R_n} of the final pool) are reported under both.
#'
#' The three sequences (methods):
#' \describe{
#'   \item{`gpc`}{GP probit classification in the z-representation
#'     \eqn{p(z | y) \propto N(z; 0, K + I) \prod_i \Theta(y_i z_i)}, one data
#'     point per iteration (\eqn{Z_1 = 1/2}); move = `move_steps` Gibbs sweeps
#'     of the four-line slice update (Appendix A.2); smooth weight
#'     \eqn{\Phi(y_{n+1} m / \sigma)} with the Gaussian conditional of
#'     \eqn{z_{n+1}}; \eqn{S = (K + I)^{-1}} grown by the O(n^2) block inverse
#'     (Appendix A.3). The Gibbs sweep visits the latent variables in a fresh
#'     random order each sweep (Appendix A.1). Default order of the data: a
#'     random permutation drawn from R's RNG (so [set.seed()] reproduces it;
#'     stored in `order`), because data sorted by class make the run spend
#'     far more particles around the class change. Pass `order =
#'     seq_len(model$n)` for the rows as given.}
#'   \item{`ising`}{Hot coupling: spins added one at a time; move =
#'     `move_steps` Gibbs sweeps over the spins added so far; smooth weight
#'     \eqn{\sum_{s} \exp(s\,h)} summing the new spin with its local field
#'     \eqn{h} from the spins already present. Default order 1..n.}
#'   \item{`rbm`}{Visible units added one at a time with the hidden units
#'     summed out (Eq. 13); move = `move_steps` block-Gibbs steps (h | x, then
#'     the units added so far | h); smooth weight of Eq. 14. Default order: most
#'     variable pixels first under the base (the training data's base rates
#'     for models from [rbm_train()], else the model's own marginals from a
#'     short Gibbs run; see [logz_base]).}
#' }
#' Each particle slot owns an MRG32k3a stream (seeded from R's RNG) and
#' resampling uses R's RNG, so [set.seed()] reproduces a run and the result
#' does not depend on `threads`.
#'
#' @param model an [rbm()], [ising()] or [gpc()] model.
#' @param particles the base number of particles R (>= 2).
#' @param variant `"arm"`, `"rm"`, `"anticipate"` or `"reseed"` (see Details).
#' @param gamma_threshold \eqn{\gamma_{thr}} of the stopping `rule`, in \[0, 1\]
#'   (0.7 in the paper).
#' @param rule the generate loop's stopping rule: `"pool_ess"` (stop when the
#'   pool's ESS reaches `gamma_threshold` times R) or `"per_block"` (the
#'   paper's text: stop when ESS / R_n reaches `gamma_threshold`); see Details.
#' @param i_max maximum number of expansions per iteration (>= 0).
#' @param ess_threshold resample when the ESS is below this fraction of the
#'   particles, in \[0, 1\] (0.9 in the paper's GP experiments).
#' @param move_steps MCMC sweeps per move (default 1 for `gpc`, 2 for
#'   `ising`, 10 for `rbm` as in the paper); 0 gives sequential importance
#'   sampling with resampling and no move step (the paper's weakest baseline),
#'   for `variant = "rm"` or `"reseed"` only.
#' @param order the order in which variables (data points, spins, visible
#'   units) are added: a permutation of `1..N`, or `NULL` for the default.
#' @param base RBM with `order = NULL`: the base distribution whose marginals
#'   order the visible units, most variable first (see [logz_base]; default the
#'   model's `base_rate`, else the model-derived base); recorded in the
#'   result's `base` field.
#' @param workers `NULL` or the number of pieces to split the `repeats`
#'   into, run through the active [future::plan()] (see [scale_out]).
#' @param repeats number of independent runs (>= 1); with more than one,
#'   `log_z` is the log of the mean of the runs' Z estimates and `se` the
#'   standard deviation of their log Z over `sqrt(repeats)`.
#' @param reseed_steps moves applied to the fresh particles of `"reseed"`
#'   (default `50 * move_steps`; 0 keeps the proposal's draws).
#' @param reseed_weights `"reseed"` only: the weights of the fresh
#'   particles, `"importance"` (\eqn{f_n / q_n} of the proposal, unbiased for
#'   any `reseed_steps`) or `"equal"` (the paper's \eqn{1/S}: the moved draws
#'   taken as exact draws from \eqn{p_n}); see Details.
#' @param reseed_data RBM with `variant = "reseed"`: `NULL` (fresh particles
#'   from the base) or a matrix of training examples (one row per example,
#'   one column per visible unit, values in \[0, 1\]): fresh particles are then
#'   drawn from the mixture with one component per example whose pixel i is on
#'   with probability \eqn{0.05 + 0.9 d_i}, and weighted by \eqn{f_n / q_n} under
#'   that mixture (the paper seeds its sampler from training digits).
#' @param threads OpenMP threads for the moves.
#' @param progress show a progress bar (default: in interactive sessions).
#' @param keep_particles `TRUE`, `FALSE` or iterations: keep the final weighted particles of every run in
#'   the result (`states`, `log_weights`, `run`; default `TRUE`): R x
#'   `repeats` rows of N doubles, refused with the figure when above the
#'   memory limit (see Errors). `FALSE` drops them. Iterations (whole numbers
#'   in 1..N) also keep the particles after those iterations in
#'   `particles_at` (as the paper's Figure 5 shows them at n = 200 and 784).
#' @param ... further arguments for methods.
#' @return An object of class `c("logz_arm", "logz_estimate")` (see
#'   [logz_estimate]) with `log_z`, `se` (`NA` for one run), `sd` (standard
#'   deviation of log Z over the runs), `log_z_runs`, `time` (seconds, all
#'   runs), `time_runs`, `method`, `variant`, `particles` (R), `order`,
#'   `rule`, `counts` (`particle_moves`: particle-sweeps over all runs, per run
#'   `particle_moves_per_run`, `iterations` N, `particles`, `expansions`,
#'   `resamples`), `diagnostics` (data frame, one row per run and iteration:
#'   `run`, `n` (variables after the iteration), `particles` (R_n used),
#'   `ess` (of the smoothed weights), `gamma` (ESS / R_n), `gamma0` (ESS / R of
#'   the R moved particles, before any expansion), `log_z` (running
#'   estimate of log Z_n), `resampled`; for `"reseed"` also `fresh_ess` and
#'   `fresh_shift`, see Details), `seed` and `call`; for `"reseed"`,
#'   `reseed_weights` and `reseed_shift` (per run, the total `fresh_shift`;
#'   `NULL` with equal weights), flagged when below -1; `min_ess_ratio`
#'   (the smallest `gamma`), flagged in `flags` with a warning (class
#'   `logz_unreliable`) when below 0.1 (see [logz_reliability]), and
#'   `se_note` (why there is no se with one run: use `repeats = 4`). With
#'   `keep_particles = TRUE`, the final particles, which with their weights
#'   target the full model \eqn{p_N}: `states` (a (R x `repeats`) x N matrix,
#'   one row per particle, runs stacked in order, columns in the model's
#'   variable order: the latent \eqn{z} of the z-representation for `gpc`,
#'   named `z1, z2, ...`, so \eqn{E[f | y] = K (K + I)^{-1} E[z | y]}; the spins
#'   for `ising`, named by the model's node names; the visible units for `rbm`),
#'   `log_weights` (log of the normalised weights, summing to 1 within each
#'   run) and `run` (the run of each row). They convert to weighted
#'   \pkg{posterior} draws, one chain per run (see [logz_draws]). With
#'   iterations in `keep_particles`, `particles_at`: a list named by n of
#'   `states` ((R x `repeats`) x n, the first n variables added, named by the
#'   model), `log_weights` and `run`, the particles after iteration n, which
#'   with their weights target \eqn{p_n}.
#' @section Errors: `model` not an rbm, ising or gpc; `particles` not a whole
#'   number >= 2, or a particle store larger than the memory available (the
#'   message gives the bytes needed; the limit is `getOption("logz.max_bytes")`,
#'   else the environment variable `LOGZ_MAX_BYTES`, else the system's
#'   available memory where known, else 16 GiB), also when an
#'   expansion would grow the pool past it; smooth weights that overflow
#'   (non-finite \eqn{\log W}, or \eqn{|\log W| > 10^{15}} where weights can
#'   no longer be normalised, e.g. couplings of size 1e300) or vanish for every
#'   particle; `rule` not one of the two; `gamma_threshold` or `ess_threshold` outside \[0, 1\];
#'   `i_max`, `move_steps`, `repeats`, `reseed_steps` or `threads` not whole
#'   numbers in range; `reseed_weights` not one of the two, or `"equal"` with
#'   another variant; `move_steps = 0` with `"arm"` or `"anticipate"`;
#'   `reseed_data` not a matrix of examples in \[0, 1\] with one column per
#'   visible unit, or given with another variant; `order` not a permutation of `1..N`; `keep_particles`
#'   not `TRUE`/`FALSE` or iterations in 1..N, or kept particles (8 (R x `repeats`) N bytes)
#'   beyond the memory limit.
#' @references
#' * Fraccaro, M., Paquet, U. and Winther, O. (2016). An adaptive resample-move
#'   algorithm for estimating normalizing constants. arXiv:1604.01972 (Algorithms 1 and
#'   2, Eq. 14, Appendix A).
#' * Hamze, F. and de Freitas, N. (2005). Hot coupling: a particle approach to
#'   inference and normalization on pairwise undirected graphs. NIPS 18.
#' @seealso [gpc()], [ep_log_z()], [ais()], [exact_log_z()]
#' @examples
#' set.seed(1)
#' m <- ising_grid(3, 5, coupling = 0.5, field = 0.2)
#' fit <- arm(m, particles = 200, progress = FALSE)
#' fit
#' exact_log_z(m)
#' # the weighted final particles against the exact marginals P(x_i = +1)
#' fit2 <- arm(m, particles = 2000, progress = FALSE)
#' round(colSums(exp(fit2$log_weights) * (fit2$states == 1))[1:5], 2)
#' round(exact_marginals(m)$node[1:5], 2)
#' plot(fit, type = "particles")
#' r <- rbm(matrix(rnorm(30, sd = 0.5), 10, 3))
#' arm(r, particles = 200, variant = "rm", progress = FALSE)$log_z
#' exact_log_z(r)
#' @export
arm <- function(model, ...) UseMethod("arm")

#' @export
arm.default <- function(model, ...) {
  stop_no_call(sprintf("arm() does not know how to handle `model` of class %s (expected an rbm, ising or gpc model).",
                       paste(class(model), collapse = "/")))
}

#' @rdname arm
#' @export
arm.gpc <- function(model, particles = 1000L, variant = c("arm", "rm", "anticipate", "reseed"),
                    rule = c("pool_ess", "per_block"), gamma_threshold = 0.7, i_max = 50L, ess_threshold = 0.9, move_steps = 1L,
                    order = NULL, repeats = 1L, reseed_steps = 50L * move_steps,
                    reseed_weights = c("importance", "equal"), threads = 1L,
                    progress = interactive(), workers = NULL, keep_particles = TRUE, ...) {
  check_dots_used(...)
  validate_model(model)
  seed <- rng_state()
  order <- if (is.null(order)) sample.int(model$n) else arm_order(order, model$n)
  arm_fit(arm_spec_gpc(model, order), match.call(), particles, arm_variant(variant), arm_rule(rule), gamma_threshold, i_max,
          ess_threshold, move_steps, repeats, reseed_steps, reseed_weights, threads, progress, workers,
          seed = seed, keep_particles = keep_particles)
}

#' @rdname arm
#' @export
arm.ising <- function(model, particles = 1000L, variant = c("arm", "rm", "anticipate", "reseed"),
                      rule = c("pool_ess", "per_block"), gamma_threshold = 0.7, i_max = 50L, ess_threshold = 0.9, move_steps = 2L,
                      order = NULL, repeats = 1L, reseed_steps = 50L * move_steps,
                      reseed_weights = c("importance", "equal"), threads = 1L,
                      progress = interactive(), workers = NULL, keep_particles = TRUE, ...) {
  check_dots_used(...)
  validate_model(model)
  order <- arm_order(order, model$n)
  arm_fit(arm_spec_ising(model, order), match.call(), particles, arm_variant(variant), arm_rule(rule), gamma_threshold, i_max,
          ess_threshold, move_steps, repeats, reseed_steps, reseed_weights, threads, progress, workers,
          keep_particles = keep_particles)
}

#' @rdname arm
#' @export
arm.rbm <- function(model, particles = 1000L, variant = c("arm", "rm", "anticipate", "reseed"),
                    rule = c("pool_ess", "per_block"), gamma_threshold = 0.7, i_max = 50L, ess_threshold = 0.9, move_steps = 10L,
                    order = NULL, repeats = 1L, reseed_steps = 50L * move_steps,
                    reseed_weights = c("importance", "equal"), threads = 1L,
                    progress = interactive(), workers = NULL, base = NULL, keep_particles = TRUE,
                    reseed_data = NULL, ...) {
  check_dots_used(...)
  validate_model(model)
  N <- model$n_visible
  seed <- rng_state()
  variant <- arm_variant(variant)
  base <- if (is.null(order) || variant == "reseed") resolve_base(model, base, threads)
  if (is.null(order)) order <- order(-base$marginals * (1 - base$marginals), seq_len(N))
  order <- arm_order(order, N)
  spec <- arm_spec_rbm(model, order, base)
  if (!is.null(reseed_data)) {
    if (variant != "reseed")
      stop_no_call("`reseed_data` is used by variant = \"reseed\" only.")
    spec$seed_p <- arm_seed_components(reseed_data, N, order)
  }
  out <- arm_fit(spec, match.call(), particles, variant, arm_rule(rule),
                 gamma_threshold, i_max, ess_threshold, move_steps, repeats, reseed_steps, reseed_weights,
                 threads, progress, workers, seed = seed, keep_particles = keep_particles)
  if (is.null(base)) out else with_base(out, base, seed)
}

arm_variant <- function(variant)
  match_arg(variant, "variant", c("arm", "rm", "anticipate", "reseed"))

arm_rule <- function(rule) match_arg(rule, "rule", c("pool_ess", "per_block"))

arm_order <- function(order, N) {
  if (is.null(order)) return(seq_len(N))
  if (!is.numeric(order) || length(order) != N || anyNA(order) ||
      !setequal(order, seq_len(N)) || anyDuplicated(order))
    stop_no_call(sprintf("`order` must be a permutation of 1..%d, not %s.", N, describe(order)))
  as.integer(order)
}
