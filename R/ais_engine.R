# The engines of ais() (src/ais.c, src/ais_function.c): the chunked AIS of an
# RBM and its result, and the pieces of AIS on an R log density.

# The chunked driver of the C engine (arguments already validated). With
# `moments = TRUE` it also returns, per step k = 1..K, the importance-weighted
# mean and variance of D = d log f_beta(v) / d beta and the weighted mean of
# D2 = d^2 log f_beta(v) / d beta^2 at beta_k (a K x 3 matrix `moments`), from
# which schedule_varopt() gets g(beta) = Var[D] + E[D2].
ais_rbm_engine <- function(model, betas, n_chains, sweeps_per_step, a0, threads = 1L,
                           progress = FALSE, kernel = "auto", moments = FALSE) {
  validate_rbm(model)
  K <- length(betas) - 1L
  log_z0 <- sum(softplus(a0)) + model$n_hidden * log(2)
  mlist <- ais_rbm_model(model, a0)
  state <- ais_rbm_state(n_chains)
  run <- ais_run_chunks(betas, state, progress, function(b, state, final) {
    control <- list(threads = threads, sweeps = sweeps_per_step, final = final,
                    log_z0 = log_z0, kernel = kernel, moments = moments,
                    crossover = ais_crossover())
    res <- ais_rbm_chunk(mlist, b, state, control)
    list(state = list(V = res$V, log_w = res$log_w, streams = res$streams,
                      density = res$density),
         trace = res$trace, sweeps = res$sweeps, moments = res$moments)
  }, step_cost = rbm_step_cost(n_chains, sweeps_per_step, model))
  mom <- run$moments
  if (moments) colnames(mom) <- c("mean_d", "var_d", "mean_d2")
  list(log_w = run$state$log_w, log_z0 = log_z0, trace = run$trace, sweeps = run$sweeps,
       moments = mom, V = run$state$V)
}

# The model list of the RBM AIS engine (src/ais.c) on the path from the base
# with visible biases `a0` to `model`: list(W, a, b, a0), plus the [W a a0] and
# blocked weight copies of ais_rbm_prepare(), made once per run.
ais_rbm_model <- function(model, a0) {
  mlist <- list(W = model$W, a = model$a, b = model$b, a0 = a0)
  c(mlist, ais_rbm_prepare(mlist))
}

# The state of M chains before the first chunk: states drawn from the base in
# C, zero log weights, fresh streams.
ais_rbm_state <- function(M) list(V = NULL, log_w = numeric(M), streams = rng_streams(M))

# list(W, a, b, a0) of an RBM path, checked and as doubles.
check_rbm_path <- function(model) {
  if (!is.list(model) || !is.matrix(model$W))
    internal_error("the RBM path must be list(W = matrix, a, b, a0).")
  nv <- nrow(model$W)
  nh <- ncol(model$W)
  model$W <- internal_double(model$W, "W")
  model$a <- internal_double(model$a, "a", nv)
  model$b <- internal_double(model$b, "b", nh)
  model$a0 <- internal_double(model$a0, "a0", nv)
  model
}

# [W a a0] (nv x (nh + 2)) and the blocked copies used by the sparse products
# of W'v and W h, for the RBM path list(W, a, b, a0): list(BX, BY, Wx).
ais_rbm_prepare <- function(model) {
  .Call(C_ais_rbm_prepare, check_rbm_path(model)[c("W", "a", "b", "a0")])
}

# One chunk of RBM AIS (src/ais.c): the steps betas[1] -> ... -> betas[L + 1]
# for all chains. model: from ais_rbm_model() (or list(W, a, b, a0)); state:
# list(V = NULL or nv x M chain states, log_w (M), streams (6 x M), density =
# NULL or the c(visible, hidden) fractions of active units the previous chunk
# returned); control: list(threads, sweeps (per step), final (no transition
# after the last step), log_z0, kernel (a name of AIS_KERNEL), moments (also
# return the weighted moments of d log f / d beta per step), crossover).
# Returns list(V, log_w, streams, trace (L x 2: ESS and running log Z), sweeps
# (per chain), density, moments (L x 3, or NULL)).
ais_rbm_chunk <- function(model, betas, state, control) {
  model[c("W", "a", "b", "a0")] <- check_rbm_path(model)[c("W", "a", "b", "a0")]
  nv <- length(model$a)
  M <- length(state$log_w)
  state <- list(V = internal_chains(state$V, "V", nv, M),
                log_w = internal_double(state$log_w, "log_w"),
                streams = internal_streams(state$streams, M),
                density = if (!is.null(state$density)) internal_double(state$density, "density", 2L))
  control <- c(internal_chunk_control(control), list(
                  kernel = internal_code(control$kernel, AIS_KERNEL, "kernel"),
                  moments = internal_flag(control$moments, "moments"),
                  crossover = internal_number(control$crossover, "crossover")))
  .Call(C_ais_rbm, model, internal_double(betas, "betas"), state, control)
}

# Fraction of active units below which kernel = "auto" uses the sparse product
# (option logz.ais_crossover); the default follows the instruction set of the
# sparse kernels (bench/ais/binary_crossover.R measures their products against
# dgemm); the portable one keeps auto sparse on MNIST-like visible layers.
ais_crossover <- function() {
  default <- c(portable = 0.35, avx2 = 0.5, avx512 = 1)[[kernel_isa()]]
  as.double(logz_option("ais_crossover", default, number = TRUE))
}

# The work of one annealing step of `n_chains` chains on an RBM for the chunk
# budget: 64 per unit and chain-sweep (as rts() counts it), a rough cost of
# the sparse 0/1 products, exp and draws (a dense product's multiply-adds
# would make chunks of a single step, each restarting the products from
# scratch).
rbm_step_cost <- function(n_chains, sweeps_per_step, model) {
  64 * as.double(n_chains) * sweeps_per_step * (model$n_visible + model$n_hidden)
}

# Drive a chunked C AIS engine over `betas` (K + 1 values): at most 1% of the
# schedule per call, and at most about logz_option("chunk_work", 5e7)
# units of work (`step_cost` per step, e.g. rbm_step_cost()), so
# that the progress bar moves and interrupts and time limits are honoured
# between calls within a fraction of a second (the C engines run each chunk
# in one parallel region, where R cannot be called).
# `run_chunk(betas_chunk, state, final)` returns list(state, and optionally
# trace (rows of ESS and running log Z), sweeps, moments (rows per step)).
ais_run_chunks <- function(betas, state, progress, run_chunk, step_cost = 0) {
  K <- length(betas) - 1L
  budget <- logz_option("chunk_work", 5e7)
  max_steps <- if (step_cost > 0) max(1, floor(budget / step_cost)) else K
  n_chunks <- min(K, max(100L, ceiling(K / max_steps)))
  ends <- unique(round(seq(0, K, length.out = n_chunks + 1L)))
  trace <- matrix(NA_real_, K, 2L)
  moments <- NULL
  sweeps <- 0
  pb <- progress_bar(progress, K)
  for (i in seq_len(length(ends) - 1L)) {
    rows <- (ends[i] + 1L):ends[i + 1L]
    res <- run_chunk(betas[c(ends[i] + 1L, rows + 1L)], state, final = ends[i + 1L] == K)
    state <- res$state
    if (!is.null(res$trace)) trace[rows, ] <- res$trace
    if (!is.null(res$moments)) {
      if (is.null(moments)) moments <- matrix(NA_real_, K, ncol(res$moments))
      moments[rows, ] <- res$moments
    }
    if (!is.null(res$sweeps)) sweeps <- sweeps + res$sweeps
    pb$update(ends[i + 1L])
  }
  pb$close()
  list(state = state, trace = trace, sweeps = sweeps, moments = moments)
}

# Summaries of M log importance weights: the estimate, its delta-method se,
# Salakhutdinov & Murray's 3-sd bounds and the ESS.
ais_summary <- function(log_w, log_z0) {
  M <- length(log_w)
  mx <- max(log_w)
  w <- exp(log_w - mx)
  mw <- mean(w)
  rel_sd <- if (M > 1L) stats::sd(w) / mw else NA_real_
  log_z <- log_z0 + mx + log(mw)
  rel <- 3 * rel_sd / sqrt(M)
  # when 3 sd of Z-hat exceed Z-hat, log(Z-hat - 3 sd) is -Inf: use the
  # delta-method (log-normal) bound log Z-hat - 3 se instead, and say so
  delta <- !is.na(rel) && rel >= 1
  list(log_z = log_z, se = rel_sd / sqrt(M),
       bounds = c(lower = if (is.na(rel)) NA_real_ else if (delta) log_z - rel else log_z + log1p(-rel),
                  upper = log_z + log1p(rel)),
       bounds_method = if (delta) "delta" else "sm08",
       ess = sum(w)^2 / sum(w^2))
}

new_ais_result <- function(log_w, log_z0, schedule, trace, sweeps, n_chains, time, seed,
                           call, method = "AIS") {
  s <- ais_summary(log_w, log_z0)
  K <- length(schedule) - 1L
  diagnostics <- data.frame(step = seq_len(K), beta = as.double(schedule)[-1],
                            ess = trace[, 1], log_z = trace[, 2])
  wd <- weight_diagnostics(log_w)
  out <- new_logz_estimate(list(
    log_z = s$log_z, se = s$se, bounds = s$bounds, ess = s$ess, log_weights = log_w,
    log_z0 = log_z0, schedule = schedule, method = method, time = time,
    counts = c(gibbs_sweeps = sweeps * n_chains, chains = n_chains, steps = K),
    diagnostics = diagnostics, seed = seed, call = call,
    bounds_method = s$bounds_method, ess_ratio = wd$ess_ratio, khat = wd$khat,
    se_note = if (n_chains < 2L) "one chain; use n_chains >= 2",
    flags = weight_flags(wd)), "logz_ais")
  warn_unreliable(out)
}

# AIS on an R log density (src/ais_function.c). fn: a cont_evaluator()
# callback; base: a logz_proposal (d dimensions); betas: K + 1 values from 0
# to 1; control: list(n_chains (M), sweeps (kernel sweeps per intermediate
# step), kernel (a name of CONT_KERNEL), n_leapfrog, adapt (adapt the step after
# every sweep towards target_accept, and for MALA/HMC the position scales),
# target_accept, gain, log_scale (K: the log step of each step, or the start
# when adapting), template (d: the position scale at log step 0), scales (K x
# d position scales per step), streams (6 x M)). Returns list(log_w, trace (K
# x 2), log_scale (K), accept (K), evaluations, gradient_evaluations, x (M x d
# final states), scales (K x d)).
ais_function_run <- function(fn, base, betas, control) {
  if (!is.function(fn)) internal_error("`fn` must be a function.")
  check_proposal(base, "base")
  betas <- internal_double(betas, "betas")
  K <- length(betas) - 1L
  if (K < 1L) internal_error("`betas` must hold at least 2 values.")
  M <- internal_count(control$n_chains, "n_chains")
  control <- list(n_chains = M, sweeps = internal_count(control$sweeps, "sweeps", min = 0L),
                  adapt = internal_flag(control$adapt, "adapt"),
                  target_accept = internal_number(control$target_accept, "target_accept"),
                  gain = internal_number(control$gain, "gain"),
                  log_scale = internal_double(control$log_scale, "log_scale", K),
                  template = internal_double(control$template, "template", base$dim),
                  kernel = internal_code(control$kernel, CONT_KERNEL, "kernel"),
                  n_leapfrog = internal_count(control$n_leapfrog, "n_leapfrog"),
                  scales = internal_double(control$scales, "scales", K * base$dim),
                  streams = internal_streams(control$streams, M))
  control$scales <- matrix(control$scales, K)
  .Call(C_ais_function, fn, base, betas, control)
}

# The settings of ais() on an R log density (see ais.function()), its
# arguments checked and resolved: the base (resolve_function_base()), kernel,
# schedule, counts, adaptation and the initial step (template: the position
# scale at log step 0, log_s0). adapt is already matched; n_leapfrog_given
# says whether the caller gave n_leapfrog.
ais_function_prepare <- function(model, base, schedule, n_chains, sweeps_per_step, vectorized,
                                 gradient, kernel, n_leapfrog, n_leapfrog_given, start, step_size,
                                 adapt, pilot_chains, target_accept, progress) {
  check_flag(progress, "progress")
  check_gradient_arg(gradient)
  check_flag(vectorized, "vectorized")
  base <- resolve_function_base(base, model, start, gradient, vectorized)
  kernel <- resolve_kernel(kernel, gradient, base$proposal$dim)
  schedule <- if (is.null(schedule)) default_function_schedule(kernel, base) else
    as_schedule(schedule)
  n_chains <- check_count(n_chains, "n_chains", min = 2L)
  sweeps_per_step <- check_count(sweeps_per_step, "sweeps_per_step")
  if (n_leapfrog_given) check_hmc_only(kernel, "n_leapfrog")
  n_leapfrog <- check_count(n_leapfrog, "n_leapfrog", max = 10000L)
  if (kernel == "mala") n_leapfrog <- 1L
  pilot_chains <- if (is.null(pilot_chains)) max(10L, n_chains %/% 5L) else
    check_count(pilot_chains, "pilot_chains", min = 2L)
  target_accept <- if (is.null(target_accept))
    kernel_target_accept(kernel, rwm = 0.35) else
    check_number(target_accept, "target_accept", lower = 0, upper = 1, lower_open = TRUE,
                 upper_open = TRUE)
  p0 <- base$proposal
  d <- p0$dim
  if (is.null(step_size)) {
    template <- base_scales(p0)
    log_s0 <- kernel_log_step0(kernel, d)
  } else {
    if (!is.numeric(step_size) || !length(step_size) %in% c(1L, d) || anyNA(step_size) ||
        any(!is.finite(step_size)) || any(step_size <= 0))
      stop_no_call(sprintf("`step_size` must be NULL or positive finite numbers (1 or %d), not %s.",
                           d, describe(step_size)))
    template <- rep_len(as.double(step_size), d)
    log_s0 <- 0
  }
  list(base = base, kernel = kernel, schedule = schedule, n_chains = n_chains,
       sweeps_per_step = sweeps_per_step, n_leapfrog = n_leapfrog, adapt = adapt,
       pilot_chains = pilot_chains, target_accept = target_accept, vectorized = vectorized,
       gradient = gradient, progress = progress, template = template, log_s0 = log_s0, p0 = p0,
       d = d)
}

# ais() on an R log density `model` with the settings s of
# ais_function_prepare(): the pilot run (adapt = "pilot") that fixes the
# kernel's steps, the main run, and the logz_ais_function result.
ais_function_engine <- function(model, s, call) {
  target <- if (is.null(s$base$laplace)) list(model = model, gradient = s$gradient) else
    laplace_whiten(s$base$laplace, model, s$gradient, s$vectorized)
  vec <- s$vectorized || !is.null(s$base$laplace)
  seed <- rng_state()
  t0 <- proc.time()[["elapsed"]]
  betas <- as.double(s$schedule)
  K <- length(betas) - 1L
  per_sweep <- if (s$kernel == "hmc") s$n_leapfrog else 1L
  pb <- progress_bar(s$progress, ((if (s$adapt == "pilot") s$pilot_chains else 0) + s$n_chains) *
                                   (K * s$sweeps_per_step * per_sweep + 1))
  on.exit(pb$close())
  evaluated <- 0
  fn <- cont_evaluator(target$model, target$gradient, vec, s$d, function(m) {
    evaluated <<- evaluated + m
    pb$update(evaluated)
  })
  streams <- list(pilot = rng_streams(s$pilot_chains),
                  main = rng_streams(s$n_chains))   # before `model` can touch the RNG
  if (s$kernel != "rwm") {
    X0 <- proposal_sample(s$p0, 2L, rep(-Inf, s$d), rep(Inf, s$d))
    check_gradient_fd(target$model, target$gradient, X0, vec, s$d)
  }
  run <- function(M, adapt_now, log_scale, scales, streams) {
    control <- list(n_chains = M, sweeps = s$sweeps_per_step, kernel = s$kernel,
                    n_leapfrog = s$n_leapfrog, adapt = adapt_now,
                    target_accept = s$target_accept,
                    gain = 1, log_scale = log_scale, template = s$template, scales = scales,
                    streams = streams)
    ais_function_run(fn, s$p0, betas, control)
  }
  evals <- c(density = s$base$evaluations[["density"]],
             gradient = s$base$evaluations[["gradient"]])
  log_scale <- rep(s$log_s0, K)
  scales <- matrix(s$template, K, s$d, byrow = TRUE)
  if (s$adapt == "pilot") {
    pilot <- run(s$pilot_chains, TRUE, log_scale, scales, streams$pilot)
    evals <- evals + c(pilot$evaluations, pilot$gradient_evaluations)
    log_scale <- smooth_steps(pilot$log_scale)
    if (s$kernel != "rwm") scales <- exp(apply(log(pilot$scales), 2L, smooth_steps))
  }
  res <- run(s$n_chains, s$adapt == "online", log_scale, scales, streams$main)
  if (all(res$log_w == -Inf))
    stop_no_call(paste0("`model` is -Inf at every chain: its support must overlap the base's ",
                        "(check `base`)."))
  fit <- new_ais_result(res$log_w, 0, s$schedule, res$trace, 0, s$n_chains,
                        time = proc.time()[["elapsed"]] - t0, seed = seed, call = call)
  fit$diagnostics$accept <- res$accept
  fit$diagnostics$step_scale <- exp(res$log_scale)
  evals <- evals + c(res$evaluations, res$gradient_evaluations)
  fit$counts <- c(density_evaluations = evals[["density"]],
                  gradient_evaluations = evals[["gradient"]],
                  divergences = attr(fn, "divergences")(),
                  metropolis_steps = (K - 1) * s$sweeps_per_step * s$n_chains,
                  chains = s$n_chains, steps = K)
  if (!is.null(s$base$laplace)) fit <- check_laplace_width(fit, res$x, res$log_w)
  fit$x <- if (is.null(s$base$laplace)) res$x else laplace_to_x(s$base$laplace, res$x)
  fit$adapt <- s$adapt
  fit$kernel <- s$kernel
  fit$n_leapfrog <- if (s$kernel == "rwm") NA_integer_ else s$n_leapfrog
  fit$target_accept <- s$target_accept
  fit$base <- s$base$record
  class(fit) <- c("logz_ais_function", class(fit))
  fit
}

# Flag an estimate from a Laplace base when the final weighted chains depart
# from the fit in the whitened coordinates z: a spread above `max_sd` (the
# fit's scale is 1) or a weighted mean more than `max_shift` from the mode
# along some z_j, each threshold widened by the sampling noise of the weighted
# moments (ESS chains; a Bonferroni quantile over the d coordinates). A target
# close to its Laplace fit stays near 1 and 0 (bench/ais/laplace_flag.R); a
# curved or skewed target that the annealing only partly follows moves both,
# and its estimate then tends to miss the mass the base does not reach.
check_laplace_width <- function(fit, Z, log_w, max_sd = 1.5, max_shift = 1) {
  w <- exp(log_w - max(log_w))
  w <- w / sum(w)
  mu <- colSums(w * Z)
  sds <- sqrt(colSums(w * sweep(Z, 2L, mu)^2))
  ess <- 1 / sum(w^2)
  zq <- stats::qnorm(1 - 0.025 / ncol(Z))
  lim_sd <- max_sd * (1 + zq / sqrt(2 * ess))
  lim_mu <- max_shift + zq / sqrt(ess)
  if (!any(sds > lim_sd) && !any(abs(mu) > lim_mu)) return(fit)
  j <- which.max(pmax(sds / lim_sd, abs(mu) / lim_mu))
  reason <- sprintf(paste0("the target is %.1f times wider than its Laplace base along ",
                           "whitened coordinate %d, its weighted mean %.1f base sds from the mode ",
                           "(thresholds %.2f and %.2f at ESS %.0f): annealing from the fit may ",
                           "miss mass it does not reach; compare with a wide proposal base"),
                    sds[j], j, mu[j], lim_sd, lim_mu, ess)
  flag_estimate(fit, reason, warn = "first")
}

# The default schedule on an R log density: linear from a Laplace base (close
# to the target, so the steps near beta = 0 need no special care; 100 steps
# for the gradient kernels, 200 for random-walk Metropolis), geometric(200)
# from a proposal given by the user (often far wider than the target).
default_function_schedule <- function(kernel, base) {
  if (is.null(base$laplace)) return(schedule_geometric(200L))
  schedule_linear(if (kernel == "rwm") 200L else 100L)
}

# The per-step log scales of a pilot, smoothed over the steps.
smooth_steps <- function(v) {
  if (length(v) >= 5L) stats::lowess(seq_along(v), v, f = 0.1)$y else v
}

# The base of an annealing run on an R log density: a logz_proposal as given,
# or "laplace" / a logz_laplace (the Gaussian fit at the mode, used through
# whitening: the proposal is then the standard one in z). Returns the
# proposal, the Laplace fit (or NULL), the evaluations spent, and the record
# kept in the result.
resolve_function_base <- function(base, model, start, gradient, vectorized) {
  validate_model(base, "base")
  if (inherits(base, "logz_proposal") && !is.null(start))
    stop_no_call(sprintf(paste0("`start` (length %d) does not apply to a proposal `base` (%d-D), ",
                                "which is where the run starts; leave `start` out, or use ",
                                "`base` = \"laplace\" to fit a base at the mode found from `start`."),
                         length(start), base$dim))
  if (inherits(base, "logz_proposal"))
    return(list(proposal = base, laplace = NULL, evaluations = c(density = 0, gradient = 0),
                 record = list(type = "proposal", how = "given")))
  if (identical(base, "laplace") || identical(base, "laplace_normal")) {
    if (is.null(start))
      stop_no_call(paste0("`base` must be a logz_proposal (e.g. proposal_normal()) giving the ",
                          "normalised base density, or \"laplace\" (the default) with `start`, ",
                          "a point where the log density is finite (its length is the dimension)."))
    lb <- laplace_base(model, start, gradient, vectorized,
                       df = if (identical(base, "laplace_normal")) Inf else 5)
    how <- "Laplace fit at the mode (optim), by default"
  } else if (inherits(base, "logz_laplace")) {
    lb <- base
    how <- "given"
    if (!is.null(start) && length(start) != lb$dim)
      stop_no_call(sprintf("`start` has length %d but the Laplace base is %d-D.", length(start),
                           lb$dim))
  } else {
    stop_no_call(sprintf(paste0("`base` must be a logz_proposal (e.g. proposal_normal()) giving ",
                                "the normalised base density, \"laplace\", \"laplace_normal\" or a ",
                                "laplace_base() fit, not %s."), describe(base)))
  }
  list(proposal = laplace_std_proposal(lb), laplace = lb,
       evaluations = if (how == "given") c(density = 0, gradient = 0) else lb$evaluations,
       record = list(type = "laplace", how = how,
                     df = lb$df, mode = lb$mode, log_z_laplace = lb$log_z_laplace))
}

# Per-dimension scale of a proposal (sd where finite, else the scale parameter).
base_scales <- function(base) {
  fams <- names(PROP_FAMILY)[base$family]
  vapply(seq_len(base$dim), function(j) {
    p <- base$par[, j]
    switch(fams[j], uniform = (p[2] - p[1]) / sqrt(12), normal = p[2],
           exponential = 1 / p[1], cauchy = p[2], student = p[2])
  }, numeric(1))
}
