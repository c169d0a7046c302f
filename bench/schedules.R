# The shape of Table 1 of Kiwaki (2015), "Variational optimization of annealing
# schedules", on 20-hidden MNIST RBMs trained by PCD, CD-1 and CD-25: for each
# schedule (LINEAR, SM08-style, GMS13, VAROPT, VAROPT_delta for delta = 0.009,
# 0.006, 0.003) the ESS of M AIS runs and the error of the AIS log Z against the
# exact log Z (by enumerating the 2^20 hidden states), at K = 10^3 and 10^4.
#
# Reductions against the paper (to fit ~15 minutes on 2 shared cores):
# * the RBMs are trained for a few epochs (BENCH_EPOCHS, default 8; CD-25: 1)
#   on 10,000 MNIST digits with learning rate 0.1, not 250,000 updates;
# * M = BENCH_M3 (default 500) AIS runs at K = 10^3 and M = BENCH_M4 (default
#   100) at K = 10^4, not 1000 (about 10^7 chain-sweeps per schedule at 10^4);
#   the ESS is reported out of M (and per 1000 runs in the data frame);
# * GMS13 uses 100 chains x (100 burn-in + 500) sweeps per knot (paper: 1000
#   chains x 6000 sweeps); VAROPT pilots are 100 chains x 1000 steps as in the paper.
# VAROPT_inc is VAROPT with g = "increment" (Var[D] alone, the variance of the
# weight increments of this Rao-Blackwellized AIS) instead of d^2 log Z / d beta^2.
# One VAROPT pilot per model serves every K and delta (schedule_varopt(from = )),
# and one set of GMS13 knot estimates every K (schedule_gms13(from = )).
# Run: nice -n 10 Rscript bench/schedules.R > bench/schedules.out
suppressPackageStartupMessages(library(logz))
options(width = 200)
cat("R BLAS:  ", extSoftVersion()[["BLAS"]], "\nR LAPACK:", La_library(), "\n")
cat("cores:", parallel::detectCores(), "\n\n")
env_int <- function(name, default) as.integer(Sys.getenv(name, as.character(default)))
epochs <- env_int("BENCH_EPOCHS", 8L)
M3 <- env_int("BENCH_M3", 500L)
M4 <- env_int("BENCH_M4", 100L)
Ks <- c(1000L, 10000L)
threads <- env_int("BENCH_THREADS", 2L)
t_start <- proc.time()[[3]]
elapsed <- function() proc.time()[[3]] - t_start

specs <- list(
  "PCD(20)" = list(method = "pcd", k = 1L, epochs = epochs),
  "CD1(20)" = list(method = "cd", k = 1L, epochs = epochs),
  "CD25(20)" = list(method = "cd", k = 25L, epochs = max(1L, epochs %/% 8L)))
models <- list()
for (nm in names(specs)) {
  sp <- specs[[nm]]
  t0 <- elapsed()
  m <- rbm_train(mnist$x, n_hidden = 20, method = sp$method, k = sp$k, epochs = sp$epochs,
                 learning_rate = 0.1, seed = 2015, progress = FALSE)
  lz <- exact_log_z(m, threads = threads)
  models[[nm]] <- list(model = m, log_z = lz)
  cat(sprintf("%-9s trained by %s for %d epochs; exact log Z = %.4f (%.0f s)\n", nm, m$method,
              sp$epochs, lz, elapsed() - t0))
}
cat("\n")

rows <- list()
set.seed(1)
for (nm in names(models)) {
  m <- models[[nm]]$model
  lz <- models[[nm]]$log_z
  t0 <- elapsed()
  pilot <- schedule_varopt(m, Ks[1], pilot_K = 1000, pilot_chains = 100, threads = threads)
  cat(sprintf("%s: VAROPT pilot (1000 steps x 100 chains) log Z %.3f, ESS %.1f; solver %d iterations, |fixed point - closed form| = %.2g (%.0f s)\n",
              nm, attr(pilot, "pilot")$log_z, attr(pilot, "pilot")$ess,
              nrow(attr(pilot, "convergence")), attr(pilot, "closed_form_diff"), elapsed() - t0))
  pilot_inc <- schedule_varopt(m, Ks[1], pilot_K = 1000, pilot_chains = 100, g = "increment",
                               threads = threads)
  gms <- schedule_gms13(m, Ks[1], knots = 10, n_chains = 100, sweeps = 500, burn_in = 100,
                        threads = threads)
  g <- attr(pilot, "g")
  cat(sprintf("  g(beta) at beta = 0, .25, .5, .75, 1: %s\n",
              paste(sprintf("%.1f", approx(g$beta, g$g, c(0, .25, .5, .75, 1))$y), collapse = ", ")))
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
    for (s in names(sch)) {
      t1 <- elapsed()
      fit <- ais(m, sch[[s]], n_chains = M, threads = threads, progress = FALSE)
      rows[[length(rows) + 1L]] <- data.frame(
        model = nm, K = K, schedule = s, M = M, log_z = fit$log_z, error = fit$log_z - lz,
        se = fit$se, ess = fit$ess, ess_per_1000 = fit$ess * 1000 / M,
        max_step = max(diff(as.double(sch[[s]]))), seconds = elapsed() - t1)
      r <- rows[[length(rows)]]
      cat(sprintf("  K = %5d %-13s log Z %.3f  error %+.3f (se %.3f)  ESS %6.1f / %d  (%.0f s)\n",
                  K, s, r$log_z, r$error, r$se, r$ess, M, r$seconds))
    }
  }
  if (nm == names(models)[1]) {
    pdf(NULL)
    plot(sch$VAROPT, sch$VAROPT_0.009, sch$LINEAR, sch$GMS13, sch$SM08)
    dev.off()
  }
}
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
    "schedule as VAROPT and the ESS differences between them are Monte Carlo noise.)\n", sep = "")
cat("\nTarget: ESS(VAROPT_0.009) >= 1.3 x ESS(LINEAR) on all three models at K = 10^4\n")
for (nm in names(models)) {
  x <- tab[tab$K == 10000L & tab$model == nm, ]
  r <- x$ess[x$schedule == "VAROPT_0.009"] / x$ess[x$schedule == "LINEAR"]
  cat(sprintf("  %-9s ratio %.2f  %s\n", nm, r, if (r >= 1.3) "met" else "NOT met"))
}
cat(sprintf("\ntotal time %.0f s\n", elapsed()))
