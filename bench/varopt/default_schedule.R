# Which annealing schedule should ais() use by default? LINEAR, SM08
# (Salakhutdinov & Murray 2008's piecewise-linear schedule) and a pilot-based
# VAROPT schedule (Kiwaki 2015) compared at the cost of a default call, with
# the pilot's cost counted:
#   RBMs (ais.rbm's default cost, 14,500 steps x 100 chains x 1 sweep):
#     LINEAR = schedule_linear(14500), SM08 = schedule_sm08(14500),
#     VAROPT = schedule_varopt(K = 13500, pilot_K = 1000, pilot_chains = 100)
#     (the pilot's 1000 x 100 chain-steps plus 13,500 x 100 = the same total);
#   Ising models (ais.ising's default cost, 1,000 steps x 100 chains):
#     LINEAR = schedule_linear(1000), SM08 = schedule_sm08(1000),
#     VAROPT = schedule_varopt(K = 900, pilot_K = 100, pilot_chains = 100).
# Models with exact log Z: the three 20-hidden MNIST RBMs of bench/models
# (rbm20_cd1, rbm20_cd25, rbm20_pcd; exact log Z by enumerating 2^20 hidden
# states) and two 12 x 12 Ising grids (attractive, coupling 0.5, field 0.1;
# mixed-sign "spin glass", coupling 1; exact log Z by the junction tree).
# Each (model, seed, schedule) is one default-size AIS run with the default
# base; the error is estimate - exact log Z. Reported per model and schedule:
# RMSE over seeds with a bootstrap 95% interval (seeds resampled, 2000 times),
# the RMSE ratio to LINEAR with a paired bootstrap interval, mean error, mean
# reported se and ESS, and CPU time per run.
# (The 784 x 500 models are not run here: one default-size run costs ~25
# times a 20-hidden run; their evidence is in vignette("tempered-sampling")
# and bench/rts.)
#
# Resumable: each run appends a line to bench/varopt/default_schedule_runs.csv
# and runs already there are skipped; the loop is seed-major. BENCH_STOP (UTC
# "HH:MM") stops launching runs after that time.
# Environment: BENCH_SEED_LIST (1,2,3,4), BENCH_MODELS (cd1,cd25,pcd,ising_grid,
# ising_mixed), BENCH_SCHEDULES (LINEAR,SM08,VAROPT), BENCH_STOP, BENCH_REPORT=1
# (print the table from the csv; launch nothing).
# Run:    OPENBLAS_NUM_THREADS=1 nice Rscript bench/varopt/default_schedule.R
# Report: BENCH_REPORT=1 Rscript bench/varopt/default_schedule.R > bench/varopt/default_schedule.out
suppressPackageStartupMessages(library(logz))
options(width = 200, logz.warn_unreliable = FALSE)
env <- function(name, default) Sys.getenv(name, default)
runs_csv <- "bench/varopt/default_schedule_runs.csv"
seed_list <- as.integer(strsplit(env("BENCH_SEED_LIST", "1,2,3,4"), ",")[[1]])
model_names <- c("cd1", "cd25", "pcd", "ising_grid", "ising_mixed")
models_sel <- strsplit(env("BENCH_MODELS", paste(model_names, collapse = ",")), ",")[[1]]
sched_names <- c("LINEAR", "SM08", "VAROPT")
sched_sel <- strsplit(env("BENCH_SCHEDULES", paste(sched_names, collapse = ",")), ",")[[1]]
stop_at <- env("BENCH_STOP", "")
report_only <- env("BENCH_REPORT", "0") == "1"
past_stop <- function() nzchar(stop_at) && format(Sys.time(), "%H:%M", tz = "UTC") >= stop_at
read_runs <- function() if (file.exists(runs_csv)) utils::read.csv(runs_csv) else NULL
append_csv <- function(df, file) utils::write.table(df, file, sep = ",", row.names = FALSE,
                                                    col.names = !file.exists(file), append = TRUE)

load_model <- function(nm) {
  if (nm %in% c("cd1", "cd25", "pcd")) {
    fit <- readRDS(file.path("bench/models", sprintf("rbm20_%s.rds", nm)))
    return(list(model = fit$model, exact = fit$log_z, kind = "rbm"))
  }
  set.seed(20261126)
  m <- if (nm == "ising_grid") ising_grid(12, 12, coupling = 0.5, field = 0.1)
       else ising_grid(12, 12, coupling = 1, type = "mixed")
  list(model = m, exact = exact_log_z(m), kind = "ising")
}

schedule_for <- function(sn, m, kind) {
  K <- if (kind == "rbm") 14500L else 1000L
  switch(sn,
    LINEAR = schedule_linear(K),
    SM08 = schedule_sm08(K),
    VAROPT = if (kind == "rbm") schedule_varopt(m, K - 1000L, pilot_K = 1000L, pilot_chains = 100L)
             else schedule_varopt(m, K - 100L, pilot_K = 100L, pilot_chains = 100L))
}

if (!report_only) {
  cat("R BLAS:  ", extSoftVersion()[["BLAS"]], "\nR LAPACK:", La_library(), "\n")
  cache <- list()
  for (s in seed_list) for (nm in intersect(model_names, models_sel)) for (sn in intersect(sched_names, sched_sel)) {
    done <- read_runs()
    if (!is.null(done) && any(done$model == nm & done$seed == s & done$schedule == sn)) next
    if (past_stop()) { cat("BENCH_STOP reached, no new runs\n"); quit(save = "no") }
    if (is.null(cache[[nm]])) cache[[nm]] <- load_model(nm)
    mm <- cache[[nm]]
    set.seed(100000L * s + 100L * match(nm, model_names) + match(sn, sched_names))
    t0 <- proc.time()
    sch <- schedule_for(sn, mm$model, mm$kind)
    a <- ais(mm$model, sch, n_chains = 100L, threads = 1L, progress = FALSE)
    tt <- proc.time() - t0
    row <- data.frame(model = nm, seed = s, schedule = sn, K = length(sch) - 1L,
                      log_z = a$log_z, exact = mm$exact, error = a$log_z - mm$exact, se = a$se,
                      ess = a$ess, cpu_s = tt[[1]] + tt[[2]], elapsed_s = tt[[3]],
                      time_utc = format(Sys.time(), "%Y-%m-%d %H:%M:%S", tz = "UTC"))
    append_csv(row, runs_csv)
    cat(sprintf("%s %s seed %d %s: error %+.3f, se %.3f, ESS %.0f, CPU %.0f s\n", row$time_utc, nm, s,
                sn, row$error, row$se, row$ess, row$cpu_s))
  }
}

runs <- read_runs()
# (two launches on disjoint models may race on the same run: keep the first)
if (!is.null(runs)) runs <- runs[!duplicated(runs[c("model", "seed", "schedule")]), ]
if (!is.null(runs)) {
  cat("R LAPACK:", La_library(), "\n")
  cat("Default-cost AIS (100 chains; RBMs 14,500 steps, Ising 1,000; VAROPT's pilot counted);",
      "error = estimate - exact log Z\n")
  cat("RMSE with a bootstrap 95% interval over seeds; ratio = RMSE / LINEAR's RMSE on the same seeds",
      "(paired bootstrap)\n\n")
  set.seed(1)
  boot_rmse <- function(e) {
    b <- replicate(2000, sqrt(mean(sample(e, replace = TRUE)^2)))
    stats::quantile(b, c(0.025, 0.975))
  }
  out <- NULL
  for (nm in intersect(model_names, unique(runs$model))) {
    r <- runs[runs$model == nm, ]
    lin <- r[r$schedule == "LINEAR", ]
    for (sn in intersect(sched_names, unique(r$schedule))) {
      x <- r[r$schedule == sn, ]
      ci <- boot_rmse(x$error)
      common <- intersect(x$seed, lin$seed)
      ratio <- ratio_ci <- NA
      if (length(common) >= 2L) {
        ex <- x$error[match(common, x$seed)]
        el <- lin$error[match(common, lin$seed)]
        ratio <- sqrt(mean(ex^2)) / sqrt(mean(el^2))
        b <- replicate(2000, { i <- sample.int(length(common), replace = TRUE)
                               sqrt(mean(ex[i]^2)) / sqrt(mean(el[i]^2)) })
        ratio_ci <- sprintf("[%.2f, %.2f]", stats::quantile(b, 0.025), stats::quantile(b, 0.975))
      }
      out <- rbind(out, data.frame(
        model = nm, schedule = sn, seeds = nrow(x), exact = sprintf("%.3f", x$exact[1]),
        mean_error = sprintf("%+.3f", mean(x$error)), RMSE = sprintf("%.3f", sqrt(mean(x$error^2))),
        RMSE_95 = sprintf("[%.3f, %.3f]", ci[1], ci[2]),
        ratio_to_LINEAR = if (is.na(ratio)) "-" else sprintf("%.2f", ratio),
        ratio_95 = if (is.na(ratio)) "-" else ratio_ci,
        mean_se = sprintf("%.3f", mean(x$se)), mean_ESS = sprintf("%.0f", mean(x$ess)),
        cpu_s_run = sprintf("%.0f", mean(x$cpu_s))))
    }
  }
  print(out, row.names = FALSE)
}
