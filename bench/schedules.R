# The shape of Table 1 of Kiwaki (2015), "Variational optimization of annealing
# schedules", on 20-hidden MNIST RBMs trained by PCD, CD-1 and CD-25: for each
# schedule (LINEAR, SM08-style, GMS13, VAROPT, VAROPT_delta for delta = 0.009,
# 0.006, 0.003) the ESS of M AIS runs and the error of the AIS log Z against the
# exact log Z (by enumerating the 2^20 hidden states), at K = 10^3 and 10^4.
#
# The models are those of the paper's recipe (Section 7.1): 250,000 parameter
# updates with a fixed learning rate, made by bench/train_rbm20.R and kept in
# bench/models/rbm20_{pcd,cd1,cd25}.rds (the script trains any that are
# missing: about 6 + 6 + 25 minutes on one core). BENCH_QUICK=1 instead trains
# small stand-ins for a few epochs (a smoke test of the script, minutes).
#
# Reductions against the paper:
# * M = BENCH_M3 (default 1000) AIS runs at K = 10^3 and M = BENCH_M4 (default
#   1000) at K = 10^4, as the paper; no K = 10^5;
# * GMS13 uses 100 chains x (100 burn-in + 500) sweeps per knot (paper: 1000
#   chains x 6000 sweeps); VAROPT pilots are 100 chains x 1000 steps as in the paper.
# VAROPT_inc is VAROPT with g = "increment" (Var[D] alone, the variance of the
# weight increments of this Rao-Blackwellized AIS) instead of d^2 log Z / d beta^2.
# One VAROPT pilot per model serves every K and delta (schedule_varopt(from = )),
# and one set of GMS13 knot estimates every K (schedule_gms13(from = )).
# Run: nice -n 10 Rscript bench/schedules.R > bench/schedules.out (about 40 min
# on 2 cores with the models trained)
suppressPackageStartupMessages(library(logz))
options(width = 200)
cat("R BLAS:  ", extSoftVersion()[["BLAS"]], "\nR LAPACK:", La_library(), "\n")
cat("cores:", parallel::detectCores(), "\n\n")
env_int <- function(name, default) as.integer(Sys.getenv(name, as.character(default)))
quick <- nzchar(Sys.getenv("BENCH_QUICK"))
M3 <- env_int("BENCH_M3", if (quick) 200L else 1000L)
M4 <- env_int("BENCH_M4", if (quick) 50L else 1000L)
Ks <- c(1000L, 10000L)
threads <- env_int("BENCH_THREADS", 2L)
t_start <- proc.time()[[3]]
elapsed <- function() proc.time()[[3]] - t_start

files <- c("PCD(20)" = "pcd", "CD1(20)" = "cd1", "CD25(20)" = "cd25")
# BENCH_MODELS (e.g. "pcd,cd1") runs only those models; each model's results are
# cached in bench/models/schedules_<model>.rds, so the runs can be split over
# processes and a last run without BENCH_MODELS prints the whole table.
selected <- strsplit(Sys.getenv("BENCH_MODELS", paste(files, collapse = ",")), ",")[[1]]
load_model <- function(nm) {
  path <- file.path("bench/models", sprintf("rbm20_%s.rds", files[[nm]]))
  if (quick) {
    sp <- list(pcd = c("pcd", 1), cd1 = c("cd", 1), cd25 = c("cd", 25))[[files[[nm]]]]
    m <- rbm_train(mnist$x, n_hidden = 20, method = sp[1], k = as.integer(sp[2]), epochs = 1,
                   learning_rate = 0.1, seed = 2015, progress = FALSE)
    return(list(model = m, log_z = exact_log_z(m, threads = threads), updates = 1000L))
  }
  if (!file.exists(path))
    system2(file.path(R.home("bin"), "Rscript"), c("bench/train_rbm20.R", files[[nm]]))
  readRDS(path)
}

# Var[log w] under perfect transitions (the paper's Eq. 6 to first order):
# sum_k (beta_k - beta_{k-1})^2 g(beta_{k-1}), with g the variance of the weight
# increments of this AIS (the pilot's g = "increment" estimate); with log-normal
# weights the ESS out of M runs is then about M exp(-Var).
perfect_var <- function(schedule, g) {
  b <- as.double(schedule)
  sum(diff(b)^2 * stats::approx(g$beta, g$g, b[-length(b)], rule = 2)$y)
}
run_model <- function(nm, fit) {
  m <- fit$model
  lz <- fit$log_z
  rows <- list()
  log_w <- list()
  lines <- character()
  say <- function(...) {
    txt <- sprintf(...)
    cat(txt)
    lines <<- c(lines, txt)
  }
  say("%-9s trained by %s for %s updates of 10 digits; exact log Z = %.4f\n", nm,
      m$method, format(fit$updates, big.mark = ","), lz)
  t0 <- elapsed()
  pilot <- schedule_varopt(m, Ks[1], pilot_K = 1000, pilot_chains = 100, threads = threads)
  say("%s: VAROPT pilot (1000 steps x 100 chains) log Z %.3f, ESS %.1f; solver %d iterations, |fixed point - closed form| = %.2g (%.0f s)\n",
              nm, attr(pilot, "pilot")$log_z, attr(pilot, "pilot")$ess,
              nrow(attr(pilot, "convergence")), attr(pilot, "closed_form_diff"), elapsed() - t0)
  pilot_inc <- schedule_varopt(m, Ks[1], pilot_K = 1000, pilot_chains = 100, g = "increment",
                               threads = threads)
  gms <- schedule_gms13(m, Ks[1], knots = 10, n_chains = 100, sweeps = 500, burn_in = 100,
                        threads = threads)
  g <- attr(pilot, "g")
  g_inc <- attr(pilot_inc, "g")
  say("  g(beta) at beta = 0, .25, .5, .75, 1: %s\n",
              paste(sprintf("%.1f", approx(g$beta, g$g, c(0, .25, .5, .75, 1))$y), collapse = ", "))
  for (K in Ks) {
    M <- if (K <= 1000L) M3 else M4
    t1 <- elapsed()
    sch <- list(
      VAROPT = schedule_varopt(m, K, from = pilot),
      VAROPT_0.009 = schedule_varopt(m, K, from = pilot, delta = 0.009),
      VAROPT_0.006 = schedule_varopt(m, K, from = pilot, delta = 0.006),
      VAROPT_0.003 = schedule_varopt(m, K, from = pilot, delta = 0.003),
      VAROPT_inc = schedule_varopt(m, K, from = pilot_inc),
      LINEAR = schedule_linear(K),
      GMS13 = schedule_gms13(m, K, from = gms),
      SM08 = schedule_sm08(K))
    fits <- list()
    for (s in names(sch)) {
      t1 <- elapsed()
      # a decelerated schedule whose cap never binds is VAROPT itself: reuse that run
      same <- Filter(function(o) isTRUE(all.equal(as.double(sch[[o]]), as.double(sch[[s]]),
                                                   tolerance = 0)), names(fits))
      fit <- if (length(same)) fits[[same[1]]] else
        ais(m, sch[[s]], n_chains = M, threads = threads, progress = FALSE)
      fits[[s]] <- fit
      if (length(same)) say("  K = %5d %-13s is the %s schedule (no step exceeds delta)\n",
                                    K, s, same[1])
      rows[[length(rows) + 1L]] <- data.frame(
        model = nm, K = K, schedule = s, M = M, log_z = fit$log_z, error = fit$log_z - lz,
        se = fit$se, ess = fit$ess, ess_per_1000 = fit$ess * 1000 / M,
        pred_ess_per_1000 = 1000 * exp(-perfect_var(sch[[s]], g_inc)),
        max_step = max(diff(as.double(sch[[s]]))), seconds = elapsed() - t1)
      log_w[[paste(nm, K, s)]] <- fit$log_weights
      r <- rows[[length(rows)]]
      say("  K = %5d %-13s log Z %.3f  error %+.3f (se %.3f)  ESS %6.1f / %d (perfect transitions: %5.1f)  (%.0f s)\n",
                  K, s, r$log_z, r$error, r$se, r$ess, M, r$pred_ess_per_1000 * M / 1000, r$seconds)
    }
  }
  pdf(NULL)
  plot(sch$VAROPT, sch$VAROPT_0.009, sch$LINEAR, sch$GMS13, sch$SM08)
  dev.off()
  list(rows = do.call(rbind, rows), log_w = log_w, lines = lines, log_z = lz)
}

results <- list()
for (i in seq_along(files)) {
  nm <- names(files)[i]
  cache <- file.path("bench/models", sprintf("schedules_%s.rds", files[[i]]))
  if (!quick && file.exists(cache)) {
    results[[nm]] <- readRDS(cache)
    cat(results[[nm]]$lines, sep = "")
    cat(sprintf("  (cached in %s)\n", cache))
  } else if (files[[i]] %in% selected) {
    set.seed(1000 + i)
    results[[nm]] <- run_model(nm, load_model(nm))
    if (!quick) saveRDS(results[[nm]], cache)
  }
}
if (length(results) < length(files)) {
  cat(sprintf("\nmodels still to run: %s\n", paste(setdiff(names(files), names(results)),
                                                   collapse = ", ")))
  quit(save = "no")
}
models <- results
rows <- lapply(results, `[[`, "rows")
log_w <- do.call(c, unname(lapply(results, `[[`, "log_w")))
tab <- do.call(rbind, rows)

cat("\n== Table (shape of Kiwaki 2015, Table 1): ESS out of M runs and log Z error ==\n")
for (K in Ks) {
  cat(sprintf("\nK = %d (M = %d runs)\n", K, tab$M[tab$K == K][1]))
  sub <- tab[tab$K == K, ]
  wide <- do.call(cbind, lapply(names(models), function(nm) {
    x <- sub[sub$model == nm, ]
    out <- data.frame(sprintf("%.3f", x$error), sprintf("%.1f", x$ess),
                      sprintf("%.2g", x$max_step))
    names(out) <- paste(nm, c("err", "ESS", "maxstep"))
    out
  }))
  wide <- cbind(schedule = sub$schedule[sub$model == names(models)[1]], wide)
  print(wide, row.names = FALSE, right = TRUE)
}
cat("\n(maxstep: the largest beta step. Where it is below delta, VAROPT_delta is the same\n",
    "schedule as VAROPT, and its row repeats VAROPT's run.)\n", sep = "")

cat("\n== ESS relative to LINEAR (measured; in brackets, predicted under perfect transitions) ==\n")
for (K in Ks) {
  cat(sprintf("\nK = %d\n", K))
  sub <- tab[tab$K == K, ]
  wide <- do.call(cbind, lapply(names(models), function(nm) {
    x <- sub[sub$model == nm, ]
    lin <- x[x$schedule == "LINEAR", ]
    out <- data.frame(sprintf("%.2f [%.2f]", x$ess / lin$ess,
                              x$pred_ess_per_1000 / lin$pred_ess_per_1000))
    names(out) <- nm
    out
  }))
  print(cbind(schedule = sub$schedule[sub$model == names(models)[1]], wide), row.names = FALSE,
        right = TRUE)
}

# bootstrap interval of the ESS ratio (runs resampled within each schedule)
ess_of <- function(lw) { w <- exp(lw - max(lw)); sum(w)^2 / sum(w^2) }
boot_ratio <- function(a, b, B = 2000L) {
  r <- replicate(B, ess_of(sample(a, replace = TRUE)) / ess_of(sample(b, replace = TRUE)))
  stats::quantile(r, c(0.025, 0.975))
}
set.seed(3)
cat("\nPaper (Table 1, K = 10^4, ESS out of 1000): VAROPT_0.009 / LINEAR = 809/517 (PCD),",
    "814/713 (CD1), 820/664 (CD25)\n")
cat("Target: ESS(VAROPT_0.009) >= 1.3 x ESS(LINEAR) on all three models at K = 10^4\n")
for (nm in names(models)) {
  x <- tab[tab$K == 10000L & tab$model == nm, ]
  r <- x$ess[x$schedule == "VAROPT_0.009"] / x$ess[x$schedule == "LINEAR"]
  ci <- boot_ratio(log_w[[paste(nm, 10000L, "VAROPT_0.009")]],
                   log_w[[paste(nm, 10000L, "LINEAR")]])
  cat(sprintf("  %-9s ratio %.2f (bootstrap 95%%: %.2f-%.2f)  %s\n", nm, r, ci[1], ci[2],
              if (r >= 1.3) "met" else "NOT met"))
}
cat(sprintf("\ntotal time %.0f s\n", elapsed()))
