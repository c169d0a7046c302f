# The default base of ais() and rts() (issue 14): on models with exact log Z,
# the uniform base, the data's base rates (RBMs) or the field-only base (Ising)
# the model-derived base of logz_base() (a Gibbs pilot at beta = 1) and, for
# RBMs, the default "auto" base (base = NULL: the model, visible-bias or
# uniform base, whichever has the highest mean log weight in a 30-chain,
# 1000-step pilot AIS; flagged when the pilot's sd of log weights exceeds 2 or
# the estimate falls > 1 nat + 3 se below a pilot's), each with the
# estimators' default settings.
# Run: OPENBLAS_NUM_THREADS=1 nice -n 10 Rscript bench/ais/base_default.R > bench/ais/base_default.out 2>&1
# Columns: error = estimate - exact log Z (nats), se, err/se, ESS (AIS), time
# (seconds, pilot included), pilot = seconds of logz_base() alone, flag = the
# result carries the base's pilot flag (and the call warned).
suppressPackageStartupMessages(library(logz))
cat(sprintf("logz base_default bench, %s\nLAPACK: %s; BLAS: %s\n", format(Sys.time()),
            La_library(), extSoftVersion()[["BLAS"]]))

row <- function(model_name, est, base_name, fit, truth, time, pilot) {
  flag <- any(grepl("base pilot", fit$flags))
  cat(sprintf("%-14s %-4s %-8s %+9.4f %8.4f %7.1f %6s %7.1f %6.1f %5s %s\n", model_name, est,
              base_name, fit$log_z - truth, fit$se, (fit$log_z - truth) / fit$se,
              if (is.null(fit$ess)) "" else sprintf("%.1f", fit$ess), time, pilot,
              if (flag) "FLAG" else "", if (base_name == "auto") fit$base$type else ""))
}
header <- function() cat(sprintf("%-14s %-4s %-8s %9s %8s %7s %6s %7s %6s %5s %s\n", "model", "est",
                                 "base", "error", "se", "err/se", "ESS", "time", "pilot", "flag",
                                 "chosen"))
timed <- function(expr) {
  t0 <- proc.time()[["elapsed"]]
  v <- expr
  list(value = v, time = proc.time()[["elapsed"]] - t0)
}

run_model <- function(name, model, truth, bases, rts_args = list(), ais = TRUE) {
  for (bn in names(bases)) {
    set.seed(7)
    pl <- timed(if (is.character(bases[[bn]])) suppressWarnings(logz_base(model, bases[[bn]])))
    pilot <- if (is.character(bases[[bn]]) && bases[[bn]] %in% c("model", "auto")) pl$time else 0
    if (identical(bases[[bn]], "auto")) {
      cat(sprintf("  auto pilot (seed 7): %s\n", pl$value$how))
      print(pl$value$pilot[, 1:5], digits = 4, row.names = FALSE)
    }
    if (ais) {
      set.seed(1)
      a <- timed(suppressWarnings(ais(model, base = bases[[bn]], progress = FALSE)))
      row(name, "AIS", bn, a$value, truth, a$time, pilot)
    }
    set.seed(1)
    r <- timed(suppressWarnings(do.call(rts, c(list(model, base = bases[[bn]], progress = FALSE,
                                                    estimators = "rts"), rts_args))))
    row(name, "RTS", bn, r$value, truth, r$time, pilot)
  }
}

cat("\n== Ising models (exact log Z by junction tree) ==\n")
cat("ais(): 1000 linear steps, 100 chains; rts(): K = 100, 100 chains, 1000 sweeps\n")
header()
set.seed(3)
isings <- list(
  "grid10 J.3 h.1" = ising_grid(10, 10, coupling = 0.3, field = 0.1),
  "grid10 J.5 h.2" = ising_grid(10, 10, coupling = 0.5, field = 0.2),
  "grid10 mix J1" = ising_grid(10, 10, coupling = 1, field = 0.5, type = "mixed"),
  "rand60 mix J1" = ising_random(60, 120, coupling = 1, field = 0.5, type = "mixed"))
for (nm in names(isings)) {
  g <- isings[[nm]]
  run_model(nm, g, exact_log_z(g), list(uniform = "uniform", field = "field", model = "model"))
}

cat("\n== 784 x 20 MNIST RBMs rebuilt by rbm(W, a, b) (no base_rate) ==\n")
cat("ais(): schedule_sm08() (14,500 steps), 100 chains; rts(): K = 100, 100 chains, 1000 sweeps\n")
cat("data = the training digits' base rates, as rbm_train() keeps them; auto = base = NULL\n")
cat("(the uniform base: see the previous run in git history: -1.4 to +188 nats off)\n")
header()
# the model of tests/testthat/helper-models.R (5 PCD epochs on 8000 digits)
tr <- rbm_train(mnist$x[1:8000, ], n_hidden = 20, method = "pcd", epochs = 5, seed = 20,
                progress = FALSE)
bare <- rbm(tr$W, tr$a, tr$b)
run_model("rbm20-test", bare, exact_log_z(tr),
          list(data = tr$base_rate, model = "model", auto = "auto"))
# Kiwaki's (2015) CD-1, CD-25 and PCD models of bench/training/train_rbm20.R (250,000 updates)
for (nm in c("cd1", "cd25", "pcd")) {
  f <- file.path("bench/models", sprintf("rbm20_%s.rds", nm))
  if (!file.exists(f)) next
  x <- readRDS(f)
  bare <- rbm(x$model$W, x$model$a, x$model$b)
  run_model(sprintf("rbm20-%s", nm), bare, x$log_z,
            list(data = x$model$base_rate, model = "model", auto = "auto"))
}
