# Issue 18: the VAROPT / LINEAR ESS ratio on RBMs whose g(beta) is strongly
# non-uniform, where LINEAR's ESS is usable (the cells were picked by the cheap
# pilots of bench/archive/schedules_nonuniform_pilot.R; the Table 1 models' g is nearly
# flat on the data base, and the pcd_v1_uniform cell of bench/varopt/schedules.R had
# ESS 2-4/1000 under every schedule, so its ratios said nothing).
#
# Cells (exact log Z by enumerating the 20 hidden units):
#   biased100: a 100 x 20 RBM with strong negative visible biases (a ~ N(-9, 1),
#     sparse images like MNIST's background pixels), W ~ N(0, 1), b ~ N(-1, 1),
#     annealed from the uniform (bias-free) base. g falls ~270-fold from beta = 0
#     to 1 and Gibbs mixes well (near-perfect transitions, Kiwaki's Theorem 1
#     assumption). K = 100, 300, 1000 (LINEAR ESS ~5%, ~35%, ~65% in the pilot).
#   cd1_u, pcd_u, cd25_u: the three Table 1 MNIST models (bench/training/train_rbm20.R)
#     from the uniform base at K = 1000: g varies 80- to 350-fold, but the
#     chains mix slowly and the pilots' weights partly collapse.
# Per cell and seed: one VAROPT pilot (linear, 1000 steps x 100 chains, as
# bench/varopt/schedules.R), then LINEAR, VAROPT, VAROPT_0.009 (decelerated; reused when
# identical to VAROPT; not possible at K = 100) and SM08 with M = 1000 AIS runs. Ratios to LINEAR get
# bootstrap 95% intervals (runs resampled within each seed, ESS summed over
# seeds), as in bench/varopt/schedules.R. "pred" is VAROPT's predicted ESS gain under
# perfect transitions with log-normal weights, exp((J_linear - J_varopt)/K)
# (print() of a VAROPT schedule), averaged over the seeds' pilots.
#
# Resumable: one line per run in bench/varopt/schedules_nonuniform_runs.csv (+ its log
# weights in bench/varopt/schedules_nonuniform_logw.csv); runs already there are
# skipped. Environment: BENCH_CELLS, BENCH_SEED_LIST (1..5), BENCH_SCHEDULES
# (subset of LINEAR,VAROPT,VAROPT_0.009,SM08; the MNIST cells were run with
# LINEAR,VAROPT,VAROPT_0.009 only: the CPU was short), BENCH_STOP (UTC
# "HH:MM"), BENCH_REPORT=1 (print the table from the csv files, run nothing).
# Run: OPENBLAS_NUM_THREADS=1 nice -n 10 Rscript bench/varopt/schedules_nonuniform.R
#      BENCH_REPORT=1 Rscript bench/varopt/schedules_nonuniform.R > bench/varopt/schedules_nonuniform.out
suppressPackageStartupMessages(library(logz))
options(width = 200)
env <- function(name, default) Sys.getenv(name, default)
M <- 1000L
stop_at <- env("BENCH_STOP", "")
report_only <- env("BENCH_REPORT", "0") == "1"
runs_csv <- "bench/varopt/schedules_nonuniform_runs.csv"
logw_csv <- "bench/varopt/schedules_nonuniform_logw.csv"
ld <- function(f) readRDS(file.path("bench/models", sprintf("rbm20_%s.rds", f)))$model
biased100 <- function() {   # the pilot's "100x20 a-9 W1 uniform" (same draws)
  set.seed(8)
  for (i in 1:3) { rnorm(2000); rnorm(100); rnorm(20) }   # skip the pilot's first three models
  rbm(matrix(rnorm(2000, sd = 1), 100, 20), rnorm(100, -9, 1), rnorm(20, -1, 1))
}
cells <- list(biased100 = list(label = "100x20, a ~ N(-9,1), W ~ N(0,1); uniform base",
                               make = biased100, K = c(100L, 300L, 1000L)),
              cd1_u = list(label = "CD1(20), uniform base", make = function() ld("cd1"), K = 1000L),
              pcd_u = list(label = "PCD(20), uniform base", make = function() ld("pcd"), K = 1000L),
              cd25_u = list(label = "CD25(20), uniform base", make = function() ld("cd25"), K = 1000L))
selected <- strsplit(env("BENCH_CELLS", paste(names(cells), collapse = ",")), ",")[[1]]
seed_list <- as.integer(strsplit(env("BENCH_SEED_LIST", "1,2,3,4,5"), ",")[[1]])
sched_names <- c("LINEAR", "VAROPT", "VAROPT_0.009", "SM08")
read_runs <- function() if (file.exists(runs_csv)) utils::read.csv(runs_csv) else NULL
append_csv <- function(df, file) utils::write.table(df, file, sep = ",", row.names = FALSE,
                                                    col.names = !file.exists(file), append = TRUE)
# VAROPT_0.009 needs K * 0.009 > 1 (K = 100 cannot reach beta = 1 under that cap)
sched_sel <- strsplit(env("BENCH_SCHEDULES", paste(sched_names, collapse = ",")), ",")[[1]]
scheds_for <- function(K) intersect(if (K * 0.009 > 1) sched_names else
                                      setdiff(sched_names, "VAROPT_0.009"), sched_sel)
past_stop <- function() nzchar(stop_at) && format(Sys.time(), "%H:%M", tz = "UTC") >= stop_at

if (!report_only) {
  cat("R BLAS:  ", extSoftVersion()[["BLAS"]], "\nR LAPACK:", La_library(), "\n")
  for (s in seed_list) for (nm in intersect(names(cells), selected)) {
    cl <- cells[[nm]]
    done <- read_runs()
    done <- if (is.null(done)) character(0) else paste(done$cell, done$seed, done$schedule, done$K)
    if (all(unlist(lapply(cl$K, function(k) paste(nm, s, scheds_for(k), k))) %in% done)) next
    if (past_stop()) { cat("BENCH_STOP reached, no new runs\n"); quit(save = "no") }
    m <- cl$make()
    exact <- exact_log_z(m, progress = FALSE)
    set.seed(1000L * s + match(nm, names(cells)))
    pilot <- schedule_varopt(m, max(cl$K), pilot_K = 1000, pilot_chains = 100, base = "uniform")
    gd <- attr(pilot, "g")
    for (K in cl$K) {
      v <- schedule_varopt(m, K, from = pilot)
      sch <- list(LINEAR = schedule_linear(K), VAROPT = v, SM08 = schedule_sm08(K))
      if ("VAROPT_0.009" %in% scheds_for(K))
        sch$VAROPT_0.009 <- schedule_varopt(m, K, from = pilot, delta = 0.009)
      same09 <- !is.null(sch$VAROPT_0.009) &&
        isTRUE(all.equal(as.double(v), as.double(sch$VAROPT_0.009), tolerance = 0))
      prev <- NULL
      for (sn in scheds_for(K)) {
        if (paste(nm, s, sn, K) %in% done) next
        b <- as.double(sch[[sn]])
        if (sn == "VAROPT_0.009" && same09 && !is.null(prev)) {
          row <- prev
          row$schedule <- sn
          row$same_as_varopt <- TRUE
          row$cpu_s <- 0
          append_csv(row, runs_csv)
          next
        }
        set.seed(100000L * s + 1000L * match(nm, names(cells)) + 10L * match(sn, sched_names) +
                   match(K, cl$K))
        t0 <- proc.time()
        a <- suppressWarnings(ais(m, sch[[sn]], n_chains = M, base = "uniform", threads = 1L,
                                  progress = FALSE))
        tt <- proc.time() - t0
        row <- data.frame(cell = nm, label = cl$label, seed = s, schedule = sn, M = M, K = K,
                          log_z = a$log_z, exact = exact, error = a$log_z - exact, ess = a$ess,
                          max_step = max(diff(b)), same_as_varopt = FALSE,
                          pilot_ess = attr(pilot, "pilot")$ess, g_range = max(gd$g) / min(gd$g),
                          pred_gain = logz:::schedule_predicted_gain(v), cpu_s = tt[[1]] + tt[[2]],
                          time_utc = format(Sys.time(), "%Y-%m-%d %H:%M:%S", tz = "UTC"))
        if (sn == "VAROPT") prev <- row
        append_csv(row, runs_csv)
        append_csv(data.frame(cell = nm, seed = s, schedule = sn, K = K,
                              log_w = paste(sprintf("%.10g", a$log_weights), collapse = " ")),
                   logw_csv)
        cat(sprintf("%s %s K %d seed %d %s: ESS %.0f/%d, error %+.3f, CPU %.1f s\n", row$time_utc,
                    nm, K, s, sn, a$ess, M, row$error, row$cpu_s))
      }
    }
  }
  quit(save = "no")
}

# ---- report ----------------------------------------------------------------
cat("R BLAS:  ", extSoftVersion()[["BLAS"]], "\nR LAPACK:", La_library(), "\n")
cat("cores:", parallel::detectCores(), "(shared; every run one thread, nice 10)\n\n")
runs <- read_runs()
lw_tab <- utils::read.csv(logw_csv)
logw <- function(nm, K, s, sn) {
  if (sn == "VAROPT_0.009" && any(runs$same_as_varopt[runs$cell == nm & runs$K == K &
                                                       runs$seed == s & runs$schedule == sn]))
    sn <- "VAROPT"
  x <- lw_tab$log_w[lw_tab$cell == nm & lw_tab$K == K & lw_tab$seed == s & lw_tab$schedule == sn]
  as.numeric(strsplit(x[1], " ")[[1]])
}
ess_of <- function(lw) { w <- exp(lw - max(lw)); sum(w)^2 / sum(w^2) }
set.seed(3)
cat(sprintf("VAROPT on RBMs with a strongly non-uniform g: M = %d AIS runs per schedule, seed and K,\n", M),
    "uniform (bias-free) base. ESS/1000 pooled over seeds; ratio to LINEAR with a bootstrap 95% interval\n",
    "(2000 resamples of the runs within each seed); pred = VAROPT's predicted gain under perfect transitions\n",
    "(mean over the seeds' pilots); g range = max/min of the smoothed pilot g (median over seeds)\n", sep = "")
for (nm in names(cells)) for (K in cells[[nm]]$K) {
  r <- runs[runs$cell == nm & runs$K == K, ]
  lin_seeds <- sort(unique(r$seed[r$schedule == "LINEAR"]))
  if (!length(lin_seeds)) next
  cat(sprintf("\n%s, K = %d: exact log Z %.3f; g range %.0f; pilot ESS/100 %s\n", cells[[nm]]$label, K,
              r$exact[1], stats::median(r$g_range[r$schedule == "LINEAR"]),
              paste(sprintf("%.0f", r$pilot_ess[r$schedule == "LINEAR"][order(lin_seeds)]),
                    collapse = " ")))
  seeds_of <- function(sn) intersect(lin_seeds, r$seed[r$schedule == sn])
  pooled <- function(sn, seeds) sum(vapply(seeds, function(s) ess_of(logw(nm, K, s, sn)), 0))
  boot <- function(sn, seeds) {
    Ls <- lapply(seeds, function(s) logw(nm, K, s, sn))
    Ll <- lapply(seeds, function(s) logw(nm, K, s, "LINEAR"))
    q <- replicate(2000L, sum(vapply(Ls, function(x) ess_of(sample(x, replace = TRUE)), 0)) /
                          sum(vapply(Ll, function(x) ess_of(sample(x, replace = TRUE)), 0)))
    stats::quantile(q, c(0.025, 0.975))
  }
  present <- sched_names[vapply(sched_names, function(sn) length(seeds_of(sn)) > 0, TRUE)]
  out <- do.call(rbind, lapply(present, function(sn) {
    seeds <- seeds_of(sn)
    x <- r[r$schedule == sn & r$seed %in% seeds, ]
    x <- x[order(x$seed), ]
    ci <- if (sn == "LINEAR") c(1, 1) else boot(sn, seeds)
    data.frame(schedule = sn, seeds = paste(seeds, collapse = ","),
               `ESS/1000` = sprintf("%.0f", 1000 * pooled(sn, seeds) / (length(seeds) * M)),
               `per seed` = paste(sprintf("%.0f", 1000 * x$ess / M), collapse = " "),
               `ratio to LINEAR [95%]` = sprintf("%.2f [%.2f, %.2f]",
                                              pooled(sn, seeds) / pooled("LINEAR", seeds), ci[1], ci[2]),
               pred = if (sn == "VAROPT") sprintf("%.2f", mean(x$pred_gain)) else "",
               `mean error` = sprintf("%+.3f", mean(x$error)),
               RMSE = sprintf("%.3f", sqrt(mean(x$error^2))),
               `max beta step` = sprintf("%.2g", max(x$max_step)),
               `CPU s/run` = if (all(x$same_as_varopt)) "reused" else
                 sprintf("%.1f", mean(x$cpu_s[!x$same_as_varopt])),
               check.names = FALSE)
  }))
  print(out, row.names = FALSE, right = TRUE)
}
cat(sprintf("\ntotal AIS CPU %.0f s over %d runs (one thread each)\n", sum(runs$cpu_s),
            sum(!runs$same_as_varopt)))
