# print() and format() methods of every class: one file for the verb (summary()
# in R/summary.R, plot() in R/plot.R and R/plot_samples.R).

# The first line of an estimate's print(), "<cls> title", after checking x (the
# title is evaluated after the check).
print_head <- function(x, title, cls = class(x)[1], fields = TRUE) {
  check_estimate(x, "x", fields = fields)
  cat(sprintf("<%s> %s\n", cls, title))
}

# "  N <what> in T s": the work an estimate did and its time (and its pieces).
print_work <- function(x, count = "gibbs_sweeps", what = "Gibbs sweeps") {
  cat(sprintf("  %s %s in %.2f s%s\n", format(x$counts[[count]], big.mark = ","), what, x$time,
              pieces_note(x)))
}

# The lines an estimate's print() ends with, its base and its flags; returns x
# invisibly, as print() does.
print_tail <- function(x) {
  cat(base_line(x))
  print_flags(x)
  invisible(x)
}

#' @rdname logz_estimate
#' @export
print.logz_estimate <- function(x, ...) {
  check_dots_used(...)
  print_head(x, sprintf("%s estimate of log Z", x$method), fields = FALSE)
  cat(sprintf("  %s\n", format_log_z(x)))
  cat(sprintf("  %.2f s\n", x$time))
  print_tail(x)
}

#' @rdname logz_exact
#' @export
format.logz_exact <- function(x, ...) format(exact_value(x), ...)

#' @rdname logz_exact
#' @export
print.logz_exact <- function(x, ...) {
  check_dots_used(...)
  check_estimate(x, "x")
  cat(sprintf("<logz_exact> log Z = %s nats (exact%s)\n",
              formatC(exact_value(x), format = "f", digits = 6L),
              if (!is.null(x$how) && nzchar(x$how)) paste0(": ", x$how) else ""))
  invisible(x)
}

#' @export
print.gpc <- function(x, ...) {
  check_dots_used(...)
  validate_model(x, "x")
  cat(sprintf("<gpc> Gaussian-process probit classifier: %d points, %d inputs\n", x$n,
              ncol(x$x)))
  cat(sprintf("  classes: %s (-1) %d, %s (+1) %d\n", x$levels[1], sum(x$y < 0), x$levels[2],
              sum(x$y > 0)))
  cat(sprintf("  RBF kernel: lengthscale %g, amplitude %g\n", x$lengthscale, x$amplitude))
  invisible(x)
}

#' @export
print.rbm <- function(x, ...) {
  check_dots_used(...)
  validate_rbm(x, "x")
  cat(sprintf("<rbm> %d visible x %d hidden units\n", x$n_visible, x$n_hidden))
  if (!is.null(x$method)) {
    h <- x$history
    cat(sprintf("  trained by %s for %d epochs", x$method, nrow(h)))
    if (nrow(h)) cat(sprintf(" (final reconstruction error %.3f, %.1f s)",
                             h$reconstruction_error[nrow(h)], sum(h$time)))
    cat("\n")
  }
  if (!is.null(x$log_z_track) && nrow(x$log_z_track)) {   # rbm_train(track_log_z = TRUE)
    h <- x$history
    cat(sprintf("  log Z tracked by RTS at %d steps: %.3f nats at the end (tracking %.0f%% of the time)\n",
                nrow(x$log_z_track), x$log_z_track$log_z[nrow(x$log_z_track)],
                100 * sum(h$track_time) / max(sum(h$time), 1e-9)))
    tr <- x$log_z_track
    cat(sprintf("  (se %.3f); %s\n", tr$se[nrow(tr)], if (length(x$track_flags))
      paste("unreliable:", paste(x$track_flags, collapse = "; ")) else "no tracking flags"))
  }
  if (x$n_hidden > 0)
    cat(sprintf("  |W| mean %.4g, max %.4g; a in [%.3g, %.3g]; b in [%.3g, %.3g]\n",
                mean(abs(x$W)), max(abs(x$W)), min(x$a), max(x$a), min(x$b), max(x$b)))
  else cat(sprintf("  product of Bernoullis; a in [%.3g, %.3g]\n", min(x$a), max(x$a)))
  invisible(x)
}

#' @export
print.ising <- function(x, ...) {
  check_dots_used(...)
  validate_model(x, "x")
  m <- nrow(x$edges)
  cat(sprintf("<ising> %d variables, %d edges; spins in %s%s\n", x$n, m, spin_label(x$spins),
              if (!is.null(x$grid)) sprintf("; %d x %d grid", x$grid[1], x$grid[2]) else ""))
  if (m) {
    w <- x$edges$weight
    cat(sprintf("  weights in [%.3g, %.3g] (%s)", min(w), max(w),
                if (all(w >= 0)) "attractive" else if (all(w <= 0)) "repulsive" else "mixed"))
  } else cat("  no couplings")
  cat(sprintf("; field in [%.3g, %.3g]\n", min(x$field), max(x$field)))
  invisible(x)
}

#' @export
print.logz_ais <- function(x, ...) {
  check_dots_used(...)
  print_head(x, sprintf("%s estimate of log Z", x$method), cls = "logz_ais")
  cat(sprintf("  %s\n", format_log_z(x)))
  if (all(is.finite(x$bounds)))
    cat(sprintf("  3-sd bounds [%.4f, %.4f]%s\n", x$bounds[[1]], x$bounds[[2]],
                if (identical(x$bounds_method, "delta"))
                  " (lower: log Z - 3 se; the 3-sd interval of Z reaches 0)" else ""))
  cat(sprintf("  %d chains, %d steps (%s schedule); ESS %.1f of %d (ESS/M %.2f)%s\n",
              x$counts[["chains"]], x$counts[["steps"]], attr(x$schedule, "name"), x$ess,
              x$counts[["chains"]], x$ess / x$counts[["chains"]],
              if (is.null(x$khat) || is.na(x$khat)) "" else sprintf(", Pareto k-hat %.2f", x$khat)))
  print_work(x)
  cat(pilot_line(x$schedule))   # R/schedule_pilot.R
  print_tail(x)
}

#' @export
print.logz_ais_function <- function(x, ...) {
  check_dots_used(...)
  print_head(x, sprintf("%s estimate of log Z for %s (%d-D)", x$method,
                        or_default(x[["target"]], "an R log density"), ncol(x$x)),
             cls = "logz_ais")
  cat(sprintf("  log Z = %.4f (se %.4f); 3-sd bounds [%.4f, %.4f]\n", x$log_z, x$se,
              x$bounds[[1]], x$bounds[[2]]))
  cat(sprintf("  %d chains, %d steps (%s schedule); ESS %.1f of %d\n", x$counts[["chains"]],
              x$counts[["steps"]], attr(x$schedule, "name"), x$ess, x$counts[["chains"]]))
  acc <- x$diagnostics$accept
  kern <- if (is.null(x$kernel)) "rwm" else x$kernel
  cat(sprintf("  %s acceptance %.2f (mean; %s step)\n",
              switch(kern, rwm = "random-walk Metropolis", mala = "MALA",
                     hmc = sprintf("HMC (%d leapfrog steps)", x$n_leapfrog)),
              mean(acc, na.rm = TRUE), x$adapt))
  if (identical(x$base$type, "laplace"))
    cat(sprintf("  base: %s fit at the mode (Laplace log Z %.4f)\n",
                if (is.finite(x$base$df)) sprintf("Student-t (df %g)", x$base$df) else "Gaussian",
                x$base$log_z_laplace))
  nd <- if ("divergences" %in% names(x$counts)) x$counts[["divergences"]] else 0
  if (nd > 0)
    cat(sprintf("  %s divergent trajectory points (non-finite gradient: rejected)\n",
                format(nd, big.mark = ",")))
  ng <- if ("gradient_evaluations" %in% names(x$counts)) x$counts[["gradient_evaluations"]] else 0
  cat(sprintf("  %s density%s evaluations in %.2f s\n",
              format(x$counts[["density_evaluations"]], big.mark = ","),
              if (ng > 0) sprintf(" and %s gradient", format(ng, big.mark = ",")) else "",
              x$time))
  invisible(x)
}

#' @export
print.logz_raise <- function(x, ...) {
  check_dots_used(...)
  print_head(x, "RAISE (reverse AIS) stochastic bounds", cls = "logz_raise")
  cat(sprintf("  average log-likelihood >= %.4f nats over %d examples\n", x$log_likelihood,
              x$counts[["examples"]]))
  cat(sprintf("  implied %s; se over examples, biased upward\n", format_log_z(x)))
  cat(sprintf("  %d chains per example, %d steps (%s schedule); mean ESS/M %.2f\n",
              x$counts[["chains"]], x$counts[["steps"]], attr(x$schedule, "name"),
              if (is.null(x$ess_ratio)) NA_real_ else x$ess_ratio))
  print_work(x)
  cat(pilot_line(x$schedule))   # R/schedule_pilot.R
  print_tail(x)
}

#' @export
print.logz_rts <- function(x, ...) {
  check_dots_used(...)
  print_head(x, sprintf("%s estimate of log Z (Rao-Blackwellized tempered sampling)", x$method),
             cls = "logz_rts")
  cat(sprintf("  log Z = %.4f nats (se %s nats, %s)\n", x$log_z,
              if (is.na(x$se)) "NA" else sprintf("%.4f", x$se),
              if (is.null(x$groups)) "Eq. 16" else
                sprintf("the larger of Eq. 16, %.4f, and the spread of %d groups, %.4f",
                        x$se_parts[["eq16"]], nrow(x$groups), x$se_parts[["groups"]])))
  if (!is.null(x$bias) && is.finite(x$bias))
    cat(sprintf("  bias to second order (Eq. 15): %+.2g nats (not subtracted)\n", x$bias))
  cat(sprintf("  K = %d temperatures, %d chains x %s sweeps; %d initial iteration(s) (%s)\n",
              x$counts[["K"]], x$counts[["chains"]], format(x$counts[["sweeps"]], big.mark = ","),
              x$counts[["init_iterations"]],
              if (isTRUE(x$converged)) "converged" else "not converged"))
  if (isTRUE(x$counts[["pilot_sweeps"]] > 0))
    cat(sprintf("  started by a %d-sweep annealing pilot and %d discarded burn-in sweeps\n",
                as.integer(x$counts[["pilot_sweeps"]]), as.integer(x$counts[["burn_in_sweeps"]])))
  print_work(x)
  if (!isTRUE(x$converged))
    cat("  note: the initial iterations stopped before max_k |r_k - c_hat_k| < tol / K;",
        "the ladder may still be biased (more init_iter or init_sweeps)\n")
  e <- x$estimates
  cat("  estimators at beta = 1 (log Z in nats):\n")
  for (i in seq_len(nrow(e)))
    cat(sprintf("    %-13s %12.4f  (se %s)\n", e$estimator[i], e$log_z[i],
                if (!is.na(e$se[i])) sprintf("%.4f", e$se[i])
                else if (e$estimator[i] == "mbar") paste("NA:", rts_mbar_no_se(x))
                else "NA"))
  print_tail(x)
}

#' @export
print.logz_arm <- function(x, ...) {
  check_dots_used(...)
  print_head(x, sprintf("%s estimate of log Z%s", x$method,
                        if (!identical(x$variant, "rm") && !is.null(x$rule))
                          sprintf(" (rule %s)", x$rule) else ""),
             cls = "logz_arm")
  cat(sprintf("  %s", format_log_z(x)))
  if (!is.na(x$se)) cat(sprintf("; sd over %d runs %.4f", as.integer(x$counts[["repeats"]]), x$sd))
  cat("\n")
  d <- x$diagnostics
  cat(sprintf("  %d iterations, R = %d particles (mean R_n %.1f, max %d); %d expansions, %d resamples\n",
              as.integer(x$counts[["iterations"]]), x$particles, mean(d$particles),
              as.integer(max(d$particles)), as.integer(x$counts[["expansions"]]),
              as.integer(x$counts[["resamples"]])))
  print_work(x, "particle_moves", "particle-moves")
  if (is.matrix(x$states))
    cat(sprintf("  final weighted particles kept: %d x %d (`states`, `log_weights`; see ?logz_draws)\n",
                nrow(x$states), ncol(x$states)))
  print_tail(x)
}

# The line of print.logz_smc() with the path estimates of the same runs (TI,
# corrected TI, stepping-stone): each shown when finite and within
# SMC_PATH_SHOWN times the larger of 0.1 nat and the se of log Z; those
# that are not are named with the reason (an l of -Inf at a draw from the
# base, or a gap too wide for the trapezoid rule on the run's temperatures to
# mean anything), with the gap.
smc_path_line <- function(x) {
  shown <- character()
  why <- character()
  for (nm in c("TI", "TI corrected", "stepping-stone")) {
    v <- x[[switch(nm, TI = "ti", `TI corrected` = "ti_corrected", "stepping_stone")]]
    if (!is.finite(v[["log_z"]])) {
      why <- c(why, sprintf("%s NA (l = -Inf at a draw from the base, or a replicate failed)", nm))
      next
    }
    gap <- abs(v[["log_z"]] - x$log_z)
    if (is.finite(gap) && gap <= SMC_PATH_SHOWN * max(0.1, if (is.finite(x$se)) x$se else 0))
      shown <- c(shown, sprintf("%s %.4f%s", nm, v[["log_z"]],
                                if (is.finite(v[["se"]])) sprintf(" (se %.4f)", v[["se"]]) else ""))
    else why <- c(why, sprintf("%s not shown: %s nats from log Z", nm, format(signif(gap, 3))))
  }
  out <- if (length(shown)) sprintf("  same runs: %s\n", paste(shown, collapse = "; ")) else ""
  if (length(why))
    out <- paste0(out, sprintf(paste0("  %s%s\n"), paste(why, collapse = "; "),
                               if (any(grepl("not shown", why)))
                                 paste0(" (too coarse on these temperatures; the values are in `x$ti`, ",
                                        "`x$ti_corrected`, `x$stepping_stone`)") else ""))
  out
}

# How far a path estimate may be from log Z to be printed, in units of the
# larger of 0.1 nat and the se of log Z.
SMC_PATH_SHOWN <- 10

#' @export
print.logz_smc <- function(x, ...) {
  check_estimate(x, "x", fields = TRUE)
  check_dots_used(...)
  cat(sprintf("<logz_smc> adaptive tempering SMC estimate of log Z for %s (%d-D)\n",
              or_default(x$target, "an R log density"), ncol(x$x)))
  cat(sprintf("  %s; %d replicate%s of %d particles%s\n", format_log_z(x),
              as.integer(x$counts[["replicates"]]), if (x$counts[["replicates"]] == 1) "" else "s",
              as.integer(x$counts[["particles"]]),
              if (!is.null(x$target_se)) sprintf(" (target se %g)", x$target_se) else ""))
  if (identical(x$estimator, "bridge"))
    cat(sprintf("  by bridge sampling (%d draws a replicate); the SMC estimate: %.4f (se %.4f)\n",
                as.integer(x$bridge_draws), x$smc[["log_z"]], x$smc[["se"]]))
  else if (!is.null(x$bridge) && is.finite(x$bridge[["log_z"]]))
    cat(sprintf("  by SMC; the bridge estimate: %.4f (se %.4f)\n", x$bridge[["log_z"]],
                x$bridge[["se"]]))
  cat(smc_path_line(x))
  cat(sprintf("  %.1f temperatures per run (CESS %g, %s), %d resamples; ESS at beta = 1: %.1f\n",
              x$counts[["temperatures"]], x$cess,
              if (identical(x$schedule_from, "adaptive")) "chosen by each run"
              else "chosen by a pilot run", as.integer(x$counts[["resamples"]]), x$ess))
  moved <- any(!is.na(x$diagnostics$accept))   # no move runs when beta = 1 is the first step
  kernel <- switch(x$kernel, rwm = "random-walk Metropolis", mala = "MALA",
                   hmc = if (!is.na(x$n_leapfrog)) sprintf("HMC (%d leapfrog steps)", x$n_leapfrog)
                         else if (moved) sprintf("HMC (%.1f leapfrog steps on average)",
                                                 mean(x$diagnostics$n_leapfrog, na.rm = TRUE))
                         else "HMC")
  if (moved)
    cat(sprintf("  %s x %d per temperature, mean acceptance %.2f\n", kernel, x$move_steps,
                mean(x$diagnostics$accept, na.rm = TRUE)))
  else
    cat(sprintf("  %s moves: none run (each run reached beta = 1 in one step from the base)\n",
                kernel))
  ng <- x$counts[["gradient_evaluations"]]
  cat(sprintf("  %s density%s evaluations in %.2f s\n",
              format(x$counts[["density_evaluations"]], big.mark = ","),
              if (ng > 0) sprintf(" and %s gradient", format(ng, big.mark = ",")) else "", x$time))
  cat(base_line(x))
  print_flags(x)
  invisible(x)
}

#' @rdname logz_samples
#' @export
print.logz_samples <- function(x, ...) {
  check_estimate(x, "x")
  check_dots_used(...)
  n <- nrow(x$samples)
  cat(sprintf("<%s> %d exact sample%s by %s from %s (d = %d)\n", class(x)[1], n,
              if (n == 1L) "" else "s", x$method, x$target$name, ncol(x$samples)))
  cat(sprintf("  %s\n", format_log_z(x)))
  cat(sprintf("  per sample: %.1f likelihood, %.1f bound evaluations, %.1f nodes\n",
              mean(x$cost$likelihood), mean(x$cost$bound), mean(x$cost$nodes)))
  cat(sprintf("  %.3f s (%.0f samples/s)%s\n", x$time, n / max(x$time, 1e-9), pieces_note(x)))
  print_flags(x)
  invisible(x)
}

#' @export
print.logz_mip_rejection <- function(x, ...) {
  check_dots_used(...)
  cat(sprintf("<logz_mip_rejection> %d exact sample%s by %s%s\n", x$accepted,
              if (x$accepted == 1) "" else "s", x$method,
              if (x$complete) "" else " (time limit reached)"))
  cat(sprintf("  log Z = %.4f nats (se %.4f); acceptance %.3g over %s trials\n", x$log_z, x$se,
              x$acceptance, format(x$trials, big.mark = ",")))
  cat(sprintf("  preprocessing %.3f s, %.4g s per sample\n", x$preprocess_time, x$sample_time))
  invisible(x)
}

#' @export
print.logz_perturb_map <- function(x, ...) {
  check_dots_used(...)
  cat(sprintf("<logz_perturb_map> %d approximate samples by %s; %d MAPs proven\n",
              length(x$map_value), x$method, sum(x$exact)))
  cat(sprintf("  upper bound on log Z (mean perturbed MAP - n C_E): %.4f nats\n", x$log_z_upper))
  cat(sprintf("  %.1f nodes per MAP; %.3f s\n", mean(x$nodes), x$time))
  invisible(x)
}

#' @export
print.logz_blocked_gibbs <- function(x, ...) {
  check_dots_used(...)
  cat(sprintf("<logz_blocked_gibbs> %d iterations, blocks of %d (GumbelMIP), %d states kept\n",
              x$iterations, x$block_size, nrow(x$states)))
  cat(sprintf("  %.1f search nodes per block; %d inexact updates; %.2f s\n", mean(x$nodes),
              x$inexact, x$time))
  invisible(x)
}

#' @export
print.logz_astar_target <- function(x, ...) {
  check_dots_used(...)
  validate_model(x, "x")
  kind <- names(ASTAR_MODEL)[match(x$model, ASTAR_MODEL)]
  if (!is.null(x$builtin)) kind <- x$builtin
  cat(sprintf("<logz_astar_target> %s: %d-dimensional, log_lik %s\n", x$name, x$dim,
              switch(kind, r = "an R function with an R bound",
                     expr = "an expression bounded by interval arithmetic",
                     nonlinear_regression = paste("built-in \"nonlinear_regression\"",
                                                  "bounded by interval arithmetic"),
                     sprintf("built-in \"%s\"", kind))))
  cat("proposal: ")
  print(x$proposal)
  invisible(x)
}

#' @export
print.logz_proposal <- function(x, ...) {
  check_dots_used(...)
  validate_model(x, "x")
  cat(sprintf("<logz_proposal> %d-dimensional product of univariate distributions\n", x$dim))
  fams <- names(PROP_FAMILY)[x$family]
  desc <- vapply(seq_len(x$dim), function(j) {
    p <- x$par[, j]
    switch(fams[j],
           uniform = sprintf("Uniform(%g, %g)", p[1], p[2]),
           normal = sprintf("Normal(%g, sd %g)", p[1], p[2]),
           exponential = sprintf("Exponential(rate %g)", p[1]),
           cauchy = sprintf("Cauchy(%g, scale %g)", p[1], p[2]),
           student = sprintf("Student t(df %g, %g, scale %g)", p[3], p[1], p[2]))
  }, character(1))
  shown <- utils::head(desc, 6L)
  cat(sprintf("  x%d ~ %s\n", seq_along(shown), shown), sep = "")
  if (length(desc) > 6L) cat(sprintf("  ... and %d more\n", length(desc) - 6L))
  invisible(x)
}

#' @export
print.logz_laplace <- function(x, ...) {
  check_dots_used(...)
  validate_model(x, "x")
  cat(sprintf("<logz_laplace> %s base at the mode of a %d-D log density\n",
              if (is.finite(x$df)) sprintf("Student-t (df %g)", x$df) else "Gaussian", x$dim))
  cat(sprintf("  mode (%s)%s\n", format_point(utils::head(x$mode, 6)),
              if (x$dim > 6) ", ..." else ""))
  sds <- sqrt(rowSums(x$chol_cov^2))
  cat(sprintf("  sd (%s)%s\n", format_point(utils::head(sds, 6)), if (x$dim > 6) ", ..." else ""))
  cat(sprintf("  Laplace approximation of log Z: %.4f%s\n", x$log_z_laplace,
              if (!x$converged) " (optim did not report convergence)" else ""))
  invisible(x)
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

#' @export
print.logz_bayes_model <- function(x, ...) {
  check_dots_used(...)
  validate_bayes_model(x, "x")
  cat(sprintf("<logz_bayes_model> prior x likelihood in %d dimension%s%s\n", x$dim,
              if (x$dim == 1L) "" else "s", if (x$vectorized) " (vectorized)" else ""))
  cat(sprintf("  gradients: %s\n", if (x$has_gradient) "given (HMC by default in smc())"
                                   else "none (random-walk Metropolis in smc())"))
  invisible(x)
}

#' @export
print.logz_schedule <- function(x, ...) {
  check_dots_used(...)
  validate_model(x, "x")
  d <- diff(unclass(x))
  cat(sprintf("<logz_schedule> %s: %d steps (%d betas from 0 to 1)\n", attr(x, "name"),
              length(d), length(x)))
  cat(sprintf("  step size: min %.3g, median %.3g, max %.3g\n", min(d), stats::median(d),
              max(d)))
  cat(pilot_line(x))   # R/schedule_pilot.R
  obj <- attr(x, "objective")
  if (length(obj) == 2L && all(is.finite(obj))) {
    cat(sprintf("  variance functional J = K sum(dbeta^2 g) %.4g (linear schedule: %.4g)\n",
                obj[["schedule"]], obj[["linear"]]))
    cat(sprintf("  predicted ESS relative to linear under perfect transitions: %.3f\n",
                schedule_predicted_gain(x)))
  }
  invisible(x)
}

#' @rdname mip_sample
#' @param x,object a `logz_mip` result.
#' @param type for `plot()`: `"bounds"` (the anytime \eqn{v^*} and \eqn{U}
#'   of every sample against search nodes, from `trace`), `"cost"` (nodes
#'   per sample) or `"estimate"` (see [plot.logz_estimate()]).
#' @param ... ignored by `print()`; graphical parameters for `plot()`.
#' @export
print.logz_mip <- function(x, ...) {
  check_estimate(x, "x")
  check_dots_used(...)
  validate_model(x, "x")
  n <- length(x$value)
  cat(sprintf("<logz_mip> %d sample%s by %s; %d exact\n", n, if (n == 1L) "" else "s",
              x$method, sum(x$exact)))
  if (!is.na(x$log_z)) cat(sprintf("  %s\n", format_log_z(x)))
  else {
    b <- log_z_bounds(x)
    cat(sprintf("  not all exact: log Z in [%.4f, %.4f] nats (Theorem 2, delta = %g each side)\n",
                b$lower, b$upper, b$delta))
  }
  cat(sprintf("  per sample: %.1f nodes, %.1f LP solves, %.4f s%s\n", mean(x$nodes),
              mean(x$lp_solves), mean(x$sample_time), pieces_note(x)))
  if (!is.null(x$k))
    cat(sprintf("  %d ranked states per sample (draws without replacement; `ranked_states`)\n", x$k))
  print_flags(x)
  invisible(x)
}

#' @export
print.logz_mip_bounds <- function(x, ...) {
  check_dots_used(...)
  cat(sprintf("<logz_mip_bounds> log Z in [%.4f, %.4f] nats\n", x$lower, x$upper))
  cat(sprintf("  mean v* - C_E = %.4f, mean U - C_E = %.4f, eps = %.4f (T = %d, delta = %g)\n",
              x$mean_value - euler_gamma, x$mean_upper - euler_gamma, x$eps, x$T, x$delta))
  cat(" ", x$statement, "\n")
  invisible(x)
}

#' @export
print.logz_mip_model <- function(x, ...) {
  check_dots_used(...)
  validate_model(x, "x")
  cat(sprintf("<logz_mip_model> %d binary variables, %d linear constraints\n", x$n, nrow(x$A)))
  cat(sprintf("  objective in [%.3g, %.3g]; offset %g\n", min(x$objective), max(x$objective),
              x$offset))
  invisible(x)
}

#' @export
print.logz_stan_target <- function(x, ...) {
  check_dots_used(...)
  cat(sprintf("<logz_stan_target> the Stan model '%s': %d unconstrained parameter%s\n", x$name,
              x$dim, if (x$dim == 1L) "" else "s"))
  cat(sprintf("  log density with Jacobian (rstan::log_prob) and its gradient; %d posterior draws\n",
              x$draws))
  cat(sprintf("  start (draw of highest lp__): (%s)%s\n", format_point(utils::head(x$start, 6)),
              if (x$dim > 6) ", ..." else ""))
  invisible(x)
}

#' @export
print.logz_gibbs <- function(x, ...) {
  check_dots_used(...)
  ch <- attr(x, "chain")
  cat(sprintf("<logz_gibbs> %d states of %d variables from %d chain%s (sweeps %d, burn-in %d)\n",
              nrow(x), ncol(x), length(unique(ch)), if (length(unique(ch)) == 1L) "" else "s",
              as.integer(attr(x, "sweeps")), as.integer(attr(x, "burn_in"))))
  m <- unclass(x)
  attributes(m) <- attributes(m)[c("dim", "dimnames")]
  print(utils::head(m, 6L))
  if (nrow(x) > 6L) cat(sprintf("... %d more rows\n", nrow(x) - 6L))
  invisible(x)
}

#' @export
print.logz_comparison <- function(x, digits = NULL, ...) {
  check_dots_used(...)
  validate_comparison(x, "x")
  d <- as.data.frame(unclass(x)[setdiff(names(x), "seed")], stringsAsFactors = FALSE)
  dec <- if (is.null(digits)) se_decimals(d$se) else check_count(digits, "digits", min = 0L)
  fix <- function(v, k = dec) ifelse(is.na(v), "NA", formatC(v, format = "f", digits = k))
  for (nm in intersect(c("log_z", "se", "conf.low", "conf.high", "error"), names(d)))
    d[[nm]] <- fix(d[[nm]])
  if (!is.null(d$z)) d$z <- fix(d$z, 1L)
  d$ess <- ifelse(is.na(d$ess), "", formatC(d$ess, format = "f", digits = 1L))
  d$time <- fix(d$time, 2L)
  if (all(!nzchar(d$ess))) d$ess <- NULL
  if (all(!nzchar(d$flags))) d$flags <- NULL
  ex <- attr(x, "exact")
  cat(sprintf("<logz_comparison> %d estimate%s of log Z (%g%% intervals)%s\n", nrow(d),
              if (nrow(d) == 1L) "" else "s", 100 * attr(x, "conf.level"),
              if (is.null(ex)) "" else sprintf("; error and z = error / se against exact %s",
                                               formatC(ex, format = "f", digits = dec))))
  print(d, row.names = FALSE, right = TRUE)
  invisible(x)
}
