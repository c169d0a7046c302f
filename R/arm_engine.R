# The engine of arm() (Fraccaro, Paquet & Winther 2016): the one R wrapper per
# C routine of the particle store (src/arm.c), Algorithms 1 and 2 run on it,
# and the result object. The user-facing method and its argument checks are in
# R/arm.R; print and plot in R/print.R and R/plot.R.

# The fields of the model list of each sequence, in the variables' order of
# addition (N variables): gpc list(sigma = N x N matrix K + I, y = N labels
# +/-1); ising list(n = N, ptr (N + 1), nbr, nw: 0-based CSR adjacency and
# weights, field (N), lo, hi: the spin values); rbm list(W = N x H, a (N), b (H)).
arm_model_fields <- list(gpc = c(sigma = "double", y = "double"),
                         ising = c(n = "integer", ptr = "integer", nbr = "integer",
                                   nw = "double", field = "double", lo = "double", hi = "double"),
                         rbm = c(W = "double", a = "double", b = "double"))

# The run specification of each sequence, variables in the order `order`
# (a permutation of 1..N): list(type (ARM_MODEL), N, log_z0 (log Z_1 before
# the first smooth step), order, names (the model's variable names, for the
# columns of the kept particles), cm (the model list of arm_model_fields)).
arm_spec_gpc <- function(model, order) {
  list(type = ARM_MODEL[["gpc"]], N = model$n, log_z0 = 0, order = order,
       names = paste0("z", seq_len(model$n)),
       cm = list(sigma = model$sigma[order, order], y = as.double(model$y[order])))
}

# Ising: the couplings as a 0-based CSR adjacency over the positions of addition.
arm_spec_ising <- function(model, order) {
  N <- model$n
  pos <- integer(N)
  pos[order] <- seq_len(N) - 1L
  e <- model$edges
  p <- c(pos[e$from], pos[e$to])
  q <- c(pos[e$to], pos[e$from])
  w <- c(e$weight, e$weight)
  o <- order(p, q)
  cm <- list(n = N, ptr = as.integer(c(0L, cumsum(tabulate(p + 1L, N)))), nbr = as.integer(q[o]),
             nw = as.double(w[o]), field = as.double(model$field[order]), lo = model$values[1],
             hi = model$values[2])
  list(type = ARM_MODEL[["ising"]], N = N, log_z0 = 0, order = order, cm = cm,
       names = if (is.null(model$names)) paste0("x", seq_len(N)) else model$names)
}

# RBM: log Z_1 sums out the hidden units of an empty visible layer.
# `base` (a resolved logz_base or NULL): its marginals, in the order added and
# kept away from 0 and 1, are ARM-reseed's proposal.
arm_spec_rbm <- function(model, order, base = NULL) {
  list(type = ARM_MODEL[["rbm"]], N = model$n_visible, log_z0 = sum(softplus(model$b)),
       order = order, names = paste0("x", seq_len(model$n_visible)),
       base_p = if (!is.null(base)) pmin(pmax(base$marginals[order], 1e-6), 1 - 1e-6),
       cm = list(W = model$W[order, , drop = FALSE], a = as.double(model$a[order]),
                 b = as.double(model$b)))
}

# A particle store of `cap` slots for the model list `model` of sequence
# `type` (a value of ARM_MODEL), each slot with its own stream seeded from R's
# RNG; returns the external pointer the other wrappers take.
arm_store_new <- function(type, model, cap) {
  kind <- if (length(type) == 1L) names(ARM_MODEL)[match(type, ARM_MODEL)] else NA
  if (is.na(kind))
    internal_error(sprintf("ARM model type %s is not one of ARM_MODEL.", describe(type)))
  fields <- arm_model_fields[[kind]]
  bad <- !is.list(model) || !all(names(fields) %in% names(model)) ||
    !all(vapply(model[names(fields)], typeof, "") == fields)
  if (bad)
    internal_error(sprintf("the ARM %s model must be a list of %s.", kind,
                           paste0(names(fields), " (", fields, ")", collapse = ", ")))
  .Call(C_arm_new, ARM_MODEL[[kind]], model, internal_count(cap, "ARM capacity"))
}

# Grow the store to `cap` slots (new slots get fresh streams from R's RNG).
arm_store_reserve <- function(ptr, cap)
  invisible(.Call(C_arm_reserve, internal_pointer(ptr, "an ARM particle store"),
                  internal_count(cap, "ARM capacity")))

# Move slots [c0, c1) (0-based) by `steps` sweeps of the kernel for p_n.
arm_store_move <- function(ptr, c0, c1, steps, threads)
  invisible(.Call(C_arm_move, internal_pointer(ptr, "an ARM particle store"),
                  internal_count(c0, "ARM first slot", min = 0L),
                  internal_count(c1, "ARM end slot", min = 0L),
                  internal_count(steps, "ARM steps", min = 0L),
                  internal_count(threads, "ARM threads")))

# log W(x_[n]) of slots [c0, c1): a numeric vector of length c1 - c0.
arm_store_smooth <- function(ptr, c0, c1)
  .Call(C_arm_smooth, internal_pointer(ptr, "an ARM particle store"),
        internal_count(c0, "ARM first slot", min = 0L), internal_count(c1, "ARM end slot", min = 0L))

# Slots dst0, dst0 + 1, ... <- slots src (0-based; the ranges may overlap).
arm_store_copy <- function(ptr, src, dst0) {
  src <- internal_integer(src, "ARM source slots")
  if (any(src < 0L))
    internal_error(sprintf("`ARM source slots` must be >= 0, not %s.", describe(src)))
  invisible(.Call(C_arm_copy, internal_pointer(ptr, "an ARM particle store"), src,
                  internal_count(dst0, "ARM destination slot", min = 0L)))
}

# x_{n+1} ~ p_{n+1}(x_{n+1} | x_[n]) for slots [0, R); then n advances by one.
arm_store_augment <- function(ptr, R)
  invisible(.Call(C_arm_augment, internal_pointer(ptr, "an ARM particle store"),
                  internal_count(R, "ARM particles")))

# Slots c0, c0 + 1, ... <- the columns of X (n x k, the first n variables).
arm_store_set <- function(ptr, X, c0) {
  if (!is.matrix(X) || !is.double(X) || anyNA(X))
    internal_error(sprintf("ARM states must be a double matrix, not %s.", describe(X)))
  invisible(.Call(C_arm_set, internal_pointer(ptr, "an ARM particle store"), X,
                  internal_count(c0, "ARM first slot", min = 0L)))
}

# The first n variables of slots [c0, c1): an n x (c1 - c0) matrix.
arm_store_particles <- function(ptr, c0, c1)
  .Call(C_arm_particles, internal_pointer(ptr, "an ARM particle store"),
        internal_count(c0, "ARM first slot", min = 0L), internal_count(c1, "ARM end slot", min = 0L))

# Runs `repeats` times (in pieces on the active future plan when `workers`
# asks, see scale_out) and builds the logz_arm result; spec from arm_spec_*().
arm_fit <- function(spec, call, particles, variant, rule, gamma_threshold, i_max, ess_threshold,
                    move_steps, repeats, reseed_steps, reseed_weights, threads, progress,
                    workers = NULL, seed = rng_state(), keep_particles = TRUE) {
  ctl <- arm_control(spec, particles, variant, rule, gamma_threshold, i_max, ess_threshold,
                     move_steps, repeats, reseed_steps, reseed_weights, threads, progress,
                     keep_particles)
  R <- ctl$R
  repeats <- ctl$repeats
  force(seed)
  t_all <- proc.time()[["elapsed"]]
  pb <- progress_bar(ctl$progress, repeats * spec$N)
  one_run <- function(update) {
    t0 <- proc.time()[["elapsed"]]
    r <- arm_once(spec, ctl, update)
    r$time <- proc.time()[["elapsed"]] - t0
    r
  }
  pieces <- resolve_pieces(workers, repeats)
  if (pieces > 1L) {
    # the repeats in pieces on the active future plan (see scale_out)
    runs <- unlist(run_pieces(repeats, pieces, function(size, i)
      lapply(seq_len(size), function(j) one_run(function(k) NULL)), ctl$progress), recursive = FALSE)
  } else {
    runs <- vector("list", repeats)
    for (j in seq_len(repeats))
      runs[[j]] <- one_run(function(k) pb$update((j - 1L) * spec$N + k))
  }
  pb$close()
  lz <- vapply(runs, `[[`, 0, "log_z")
  diagnostics <- do.call(rbind, lapply(seq_len(repeats), function(j)
    data.frame(run = j, runs[[j]]$trace)))
  moves <- vapply(runs, `[[`, 0, "moves")
  min_gamma <- min(diagnostics$gamma)
  shift <- if (ctl$variant == "reseed" && ctl$reseed_weights == "importance")
    vapply(seq_len(repeats), function(j) sum(runs[[j]]$trace[, "fresh_shift"], na.rm = TRUE), 0)
  kept <- if (ctl$keep) arm_final_particles(runs, spec)
  kept_at <- if (length(ctl$keep_at)) arm_kept_particles(runs, spec, ctl$keep_at)
  out <- new_logz_estimate(list(
    log_z = log_sum_exp(lz) - log(repeats),
    se = if (repeats > 1L) stats::sd(lz) / sqrt(repeats) else NA_real_,
    sd = if (repeats > 1L) stats::sd(lz) else NA_real_,
    log_z_runs = lz,
    method = c(arm = "ARM", rm = "RM", anticipate = "ARM-anticipate",
               reseed = "ARM-reseed")[[ctl$variant]],
    variant = ctl$variant, rule = ctl$rule, particles = R, gamma_threshold = ctl$gthr,
    order = spec$order,
    time = proc.time()[["elapsed"]] - t_all, time_runs = vapply(runs, `[[`, 0, "time"),
    counts = c(particle_moves = sum(moves), particle_moves_per_run = mean(moves),
               iterations = spec$N, particles = R, repeats = repeats,
               expansions = sum(vapply(runs, `[[`, 0, "expansions")),
               resamples = sum(diagnostics$resampled)),
    pieces = if (pieces > 1L) pieces,
    states = kept$states, log_weights = kept$log_weights, run = kept$run,
    particles_at = kept_at,
    diagnostics = diagnostics, seed = seed, call = call, min_ess_ratio = min_gamma,
    reseed_weights = if (ctl$variant == "reseed") ctl$reseed_weights, reseed_shift = shift,
    se_note = if (repeats < 2L) "one run; use repeats = 4 (or more) for an se",
    flags = c(if (is.finite(min_gamma) && min_gamma < 0.1)
                sprintf("min ESS/R_n over iterations = %s < 0.1", format_ratio(min_gamma)),
              arm_reseed_flag(shift))), "logz_arm")
  warn_unreliable(out)
}

# ARM-reseed with importance weights: a run whose fresh blocks lowered its log Z
# by more than ARM_RESEED_SHIFT_MAX nats in total (their estimates of Z_n far
# below the pool's, as when each block's weights are degenerate and each
# expansion costs log((R_n + S) / R_n)). `shift`: the total per run, or NULL.
ARM_RESEED_SHIFT_MAX <- 1

arm_reseed_flag <- function(shift) {
  if (is.null(shift) || !any(shift < -ARM_RESEED_SHIFT_MAX)) return(NULL)
  sprintf("fresh reseed blocks lowered log Z by %.2f nats > %g", -min(shift), ARM_RESEED_SHIFT_MAX)
}

# Bytes of a particle store of `cap` slots (C: N doubles, H doubles for an RBM,
# an MRG32k3a stream; R: about ten doubles per particle in the driver), against
# memory_limit(): getOption("logz.max_bytes"), else LOGZ_MAX_BYTES, else
# MemAvailable of /proc/meminfo, else 16 GiB.
arm_check_memory <- function(spec, cap, R, what) {
  H <- if (spec$type == ARM_MODEL[["rbm"]]) ncol(spec$cm$W) else 0
  need <- as.double(cap) * (8 * (spec$N + H) + 48 + 80)
  limit <- memory_limit(mem_available())
  if (need > limit) {
    msg <- if (what == "particles")
      sprintf("`particles` = %.0f needs about %s for the particle store (%d variables), more than the %s available.",
              as.double(R), format_bytes(need), spec$N, format_bytes(limit))
    else sprintf("the ARM pool would grow to %.0f particles (%s), more than the %s available; lower `particles` or `i_max`.",
                 as.double(cap), format_bytes(need), format_bytes(limit))
    stop_no_call(msg)
  }
  invisible(need)
}

mem_available <- function() {
  m <- tryCatch(suppressWarnings(readLines("/proc/meminfo", n = 5L)), error = function(e) character())
  m <- grep("^MemAvailable:", m, value = TRUE)
  if (length(m)) as.double(sub("^MemAvailable:\\s*([0-9]+).*$", "\\1", m)) * 1024 else 16 * 2^30
}

format_bytes <- function(b) {
  if (b >= 2^30) sprintf("%.1f GiB", b / 2^30) else sprintf("%.1f MiB", b / 2^20)
}

# Residual resampling of R indices from normalised weights w.
resample_residual <- function(w, R) {
  m <- floor(R * w)
  idx <- rep.int(seq_along(w), m)
  k <- R - length(idx)
  if (k > 0L) idx <- c(idx, sample.int(length(w), k, replace = TRUE, prob = R * w - m))
  idx
}

# One run of Algorithm 1 / 2. `tick(k)` reports progress after iteration k.
arm_once <- function(spec, ctl, tick) {
  N <- spec$N
  R <- ctl$R
  variant <- ctl$variant
  ptr <- arm_store_new(spec$type, spec$cm, R)
  fresh <- if (variant == "reseed") arm_fresh_sampler(spec)
  kept <- list()
  cap <- R
  w <- rep(1 / R, R)
  log_z <- spec$log_z0
  moves <- 0
  expansions <- 0L
  cols <- c("n", "particles", "ess", "gamma", "gamma0", "log_z", "resampled",
            if (variant == "reseed") c("fresh_ess", "fresh_shift"))
  tr <- matrix(NA_real_, N, length(cols), dimnames = list(NULL, cols))
  for (k in seq_len(N)) {
    n <- k - 1L
    if (n > 0L) {
      arm_store_move(ptr, 0L, R, ctl$steps, ctl$threads)
      moves <- moves + R * ctl$steps
    }
    lW <- arm_check_smooth(arm_store_smooth(ptr, 0L, R), k)
    lw <- lW + log(w)
    gamma <- arm_check_gamma(exp(log_ess(lw)) / R, k)
    gamma0 <- gamma
    Rn <- R
    # "per_block": ESS / R_n >= gamma_thr; "pool_ess": ESS >= gamma_thr R
    done <- function(gamma, Rn) if (ctl$rule == "pool_ess") gamma * Rn >= ctl$gthr * R
                                else gamma >= ctl$gthr
    if (variant != "rm" && n > 0L && !done(gamma, Rn) && ctl$i_max > 0L) {
      pool_w <- w
      pool_lW <- lW
      blk <- base <- list(slots = seq_len(R) - 1L, w = w, lW = lW)
      i <- 0L
      fresh_ess <- Inf
      fresh_shift <- 0
      while (!done(gamma, Rn) && i < ctl$i_max) {
        nb <- arm_new_block(variant, blk, base, w, R, gamma, ctl$gthr)
        S <- length(nb$src)
        if (Rn + S > cap) {
          cap <- Rn + S
          arm_check_memory(spec, cap, R, "pool")
          arm_store_reserve(ptr, cap)
        }
        if (variant == "reseed") {
          fr <- fresh(n, S)
          arm_store_set(ptr, fr$X, Rn)
        } else {
          arm_store_copy(ptr, nb$src, Rn)
        }
        st <- if (variant == "reseed") ctl$reseed_steps else ctl$steps
        arm_store_move(ptr, Rn, Rn + S, st, ctl$threads)
        moves <- moves + S * st
        lWn <- arm_check_smooth(arm_store_smooth(ptr, Rn, Rn + S), k)
        if (variant == "reseed" && ctl$reseed_weights == "importance") {
          # the pool (total weight Z_n-hat = exp(log_z)) and the fresh block
          # (total weight mean(exp(lu)) Z_0) mixed as Rn / (Rn + S) and
          # S / (Rn + S): log_z becomes the log of the mixture's total, and
          # fresh_shift adds up how far each block moved it
          lm <- c(log(Rn / (Rn + S)) + log_z + log(pool_w),
                  log(S / (Rn + S)) + spec$log_z0 + fr$lu - log(S))
          log_z_new <- log_sum_exp(lm)
          fresh_shift <- fresh_shift + log_z_new - log_z
          fresh_ess <- min(fresh_ess, exp(log_ess(fr$lu)) / S)
          log_z <- log_z_new
          nb$w <- exp(lm[Rn + seq_len(S)] - log_z)
          nb$w <- nb$w / sum(nb$w)
          pool_w <- exp(lm - log_z)
        } else {
          # ARM, anticipate, and reseed with equal weights 1/S (the paper's
          # reading: the fresh block is taken as exact draws from p_n)
          pool_w <- c(Rn / (Rn + S) * pool_w, S / (Rn + S) * nb$w)
        }
        pool_lW <- c(pool_lW, lWn)
        blk <- list(slots = Rn + seq_len(S) - 1L, w = nb$w, lW = lWn)
        Rn <- Rn + S
        i <- i + 1L
        lw <- pool_lW + log(pool_w)
        gamma <- arm_check_gamma(exp(log_ess(lw)) / Rn, k)
      }
      expansions <- expansions + i
      if (variant == "reseed" && ctl$reseed_weights == "importance")
        tr[k, c("fresh_ess", "fresh_shift")] <- c(if (is.finite(fresh_ess)) fresh_ess else NA, fresh_shift)
    }
    lse <- log_sum_exp(lw)
    log_z <- log_z + lse
    wn <- exp(lw - lse)
    ess <- 1 / sum(wn^2)
    resampled <- Rn > R || ess < ctl$ess_thr * Rn
    if (resampled) {
      arm_store_copy(ptr, resample_residual(wn, R) - 1L, 0L)
      w <- rep(1 / R, R)
    } else {
      w <- wn
    }
    arm_store_augment(ptr, R)
    if (k %in% ctl$keep_at)
      kept[[as.character(k)]] <- list(X = arm_store_particles(ptr, 0L, R), w = w)
    tr[k, 1:7] <- c(k, Rn, ess, ess / Rn, gamma0, log_z, resampled)
    tick(k)
  }
  # the final particles (N x R, variables in the order added) and their weights
  X <- if (isTRUE(ctl$keep)) arm_store_particles(ptr, 0L, R)
  list(log_z = log_z, moves = moves, expansions = expansions, trace = tr, X = X, w = w,
       kept = kept)
}

# The runs' final particles as one (R x repeats) x N matrix in the model's
# variable order, with their log weights (normalised within each run) and run.
arm_final_particles <- function(runs, spec) {
  R <- ncol(runs[[1]]$X)
  states <- matrix(NA_real_, R * length(runs), spec$N, dimnames = list(NULL, spec$names))
  for (j in seq_along(runs))
    states[(j - 1L) * R + seq_len(R), spec$order] <- t(runs[[j]]$X)
  list(states = states, log_weights = unlist(lapply(runs, function(r) log(r$w))),
       run = rep(seq_along(runs), each = R))
}

# The particles kept after the iterations `at` (a list named by n: states, an
# (R x repeats) x n matrix whose columns are the first n variables added, named
# by the model; log_weights; run).
arm_kept_particles <- function(runs, spec, at) {
  out <- lapply(at, function(k) {
    X <- do.call(cbind, lapply(runs, function(r) r$kept[[as.character(k)]]$X))
    X <- t(X)
    colnames(X) <- spec$names[spec$order[seq_len(k)]]
    list(states = X,
         log_weights = unlist(lapply(runs, function(r) log(r$kept[[as.character(k)]]$w))),
         run = rep(seq_along(runs), each = ncol(runs[[1]]$kept[[as.character(k)]]$X)))
  })
  names(out) <- as.character(at)
  out
}

# Smooth weights must be finite or -Inf (a particle of zero weight): +Inf or
# NaN come from overflowing model parameters.
arm_check_smooth <- function(lW, k) {
  if (anyNA(lW) || any(lW == Inf))
    stop_no_call(sprintf("arm(): the smooth weights overflowed at iteration %d (log W is %s); the model's weights or fields are too large to represent.",
                         k, if (anyNA(lW)) "NaN" else "Inf"))
  big <- max(abs(lW[is.finite(lW)]), 0)
  if (big > 1e15)
    stop_no_call(sprintf("arm(): |log W| = %.3g at iteration %d is beyond double precision (> 1e15): the weights cannot be normalised; the model's weights or fields are too large.",
                         big, k))
  lW
}

arm_check_gamma <- function(gamma, k) {
  if (is.na(gamma))
    stop_no_call(sprintf("arm(): every particle has zero smooth weight at iteration %d (log W = -Inf); log Z cannot be estimated (an infeasible or numerically extreme model).", k))
  gamma
}

# The next set of particles of the generate loop (0-based source slots and
# normalised weights): ARM copies the last generated set; ARM-anticipate splits
# the promising particles of the base set (the R particles moved at the start of
# the iteration: slots 0..R-1, weights w, smooth weights lW) into
# N_r = floor(R w1_r) copies, so a block holds at most 2R particles; ARM-reseed
# draws S fresh particles (arm_fresh_sampler), so only their number is set here.
arm_new_block <- function(variant, blk, base, w, R, gamma, gthr) {
  switch(variant,
    arm = list(src = blk$slots, w = blk$w),
    anticipate = {
      lw1 <- base$lW + log(base$w)
      w1 <- exp(lw1 - log_sum_exp(lw1))
      Nr <- pmax(floor(R * w1), 1)
      list(src = rep.int(base$slots, Nr), w = rep.int(base$w / Nr, Nr))
    },
    reseed = {
      S <- max(ceiling((1 - gamma / gthr) * R), min(100L, R))
      list(src = integer(S), w = rep(1 / S, S))
    })
}

# The checked run settings of arm(), in the order the arguments are checked:
# list(R, variant, rule, gthr, i_max, ess_thr, steps, reseed_steps, reseed_weights, threads,
# keep, repeats, progress). spec from arm_spec_*().
arm_control <- function(spec, particles, variant, rule, gamma_threshold, i_max, ess_threshold,
                        move_steps, repeats, reseed_steps, reseed_weights, threads, progress,
                        keep_particles) {
  R <- check_count(particles, "particles", min = 2L)
  arm_check_memory(spec, R, R, "particles")
  keep_at <- integer()
  if (is.numeric(keep_particles)) {
    if (length(keep_particles) < 1L || anyNA(keep_particles) || any(keep_particles != round(keep_particles)) ||
        any(keep_particles < 1) || any(keep_particles > spec$N))
      stop_no_call(sprintf("`keep_particles` must be TRUE, FALSE or iterations (whole numbers in 1..%d), not %s.",
                           spec$N, describe(keep_particles)))
    keep_at <- sort(unique(as.integer(keep_particles)))
    keep_particles <- TRUE
  }
  check_flag(keep_particles, "keep_particles")
  gamma_threshold <- check_number(gamma_threshold, "gamma_threshold", lower = 0, upper = 1)
  i_max <- check_count(i_max, "i_max", min = 0L)
  ess_threshold <- check_number(ess_threshold, "ess_threshold", lower = 0, upper = 1)
  move_steps <- check_count(move_steps, "move_steps", min = 0L)
  if (move_steps == 0L && variant %in% c("arm", "anticipate"))
    stop_no_call(sprintf("`move_steps` = 0 with `variant` = \"%s\" would add unchanged copies of the particles; use variant = \"rm\" (SMC without a move step) or \"reseed\".",
                         variant))
  repeats <- check_count(repeats, "repeats")
  reseed_steps <- check_count(reseed_steps, "reseed_steps", min = 0L)
  reseed_weights <- match_arg(reseed_weights, "reseed_weights", c("importance", "equal"))
  if (reseed_weights != "importance" && variant != "reseed")
    stop_no_call(sprintf("`reseed_weights` is used by variant = \"reseed\" only, not \"%s\".", variant))
  threads <- check_threads(threads)
  check_flag(progress, "progress")
  if (keep_particles)   # the final particles of every run, with weight and run index
    check_memory(as.double(R) * repeats * (8 * spec$N + 12),
                 sprintf("Keeping the final particles (`keep_particles = TRUE`) of %d run%s x R = %d particles x %d variables",
                         repeats, if (repeats == 1L) "" else "s", R, spec$N),
                 limit = memory_limit(mem_available()))
  if (length(keep_at))
    check_memory(as.double(R) * repeats * (8 * sum(keep_at) + 12),
                 sprintf("Keeping the particles of %d iterations (`keep_particles`) of %d run%s x R = %d particles",
                         length(keep_at), repeats, if (repeats == 1L) "" else "s", R),
                 limit = memory_limit(mem_available()))
  list(R = R, variant = variant, rule = rule, gthr = gamma_threshold, i_max = i_max,
       ess_thr = ess_threshold, steps = move_steps, reseed_steps = reseed_steps,
       reseed_weights = reseed_weights,
       threads = threads, keep = keep_particles, keep_at = keep_at, repeats = repeats,
       progress = progress)
}
