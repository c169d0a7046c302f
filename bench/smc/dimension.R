# Cost and trust of the default log_partition(f, gradient = g, start = x0)
# against dimension: the simulated logistic regressions of
# bench/smc/dimension_models.R (n = 400, N(0, 1) priors) at d = 10, 25, 50,
# 100, against the importance-sampling reference of bench/smc/dimension_ref.R
# (run it first; it writes dimension_ref.rds). Per seed: error, se, z =
# error / se, reliable, the estimator reported, density + gradient
# evaluations and where they went (the mode search, the pilot on the
# Laplace base that a refit replaced, the schedule pilot, the replicates, the
# rest: Laplace fit, gradient check, bridge draws), temperatures, CPU-s.
# Calls: "scalar" is the issue's call (f and g of one point); "vectorized" the
# same model with vectorized = TRUE. With DIM_BASELINE_LIB set to a library
# holding another build of logz (e.g. the commit before the change), each
# run of the scalar call is repeated with it, interleaved, each in its own
# Rscript process (CPU ratios per seed to that baseline).
# Run from the package root: Rscript bench/smc/dimension.R [seeds] [dims]
args <- commandArgs(TRUE)
if (length(args) && args[1] == "--one") {
  # one run in this process: d, seed, call; prints one line of numbers
  suppressPackageStartupMessages(library(logz))
  options(logz.warn_unreliable = FALSE)
  source("bench/smc/dimension_models.R")
  d <- as.integer(args[2]); seed <- as.integer(args[3]); how <- args[4]
  tg <- logistic_model(d)
  ns <- asNamespace("logz")
  runs <- NULL
  search_evals <- 0
  invisible(suppressMessages({
    trace(logz:::smc_once, print = FALSE, where = ns, exit = quote(runs <<- rbind(runs, c(
      returnValue()$evaluations + returnValue()$gradient_evaluations, nrow(returnValue()$trace) - 1))))
    trace(logz:::smc_mode_search, print = FALSE, where = ns,
          exit = quote(search_evals <<- sum(returnValue()$evaluations)))
  }))
  set.seed(seed)
  t0 <- proc.time()
  fit <- suppressMessages(if (how == "vectorized")
    log_partition(tg$f, gradient = tg$g, vectorized = TRUE, start = tg$start, progress = FALSE) else
    log_partition(tg$f1, gradient = tg$g1, start = tg$start, progress = FALSE))
  cpu <- sum((proc.time() - t0)[c(1, 2)])
  total <- sum(fit$counts[c("density_evaluations", "gradient_evaluations")])
  R <- fit$counts[["replicates"]]
  per <- runs[, 1]
  pilots <- per[seq_len(length(per) - R)]
  refit <- !is.null(fit$base$refit)
  cat(sprintf("RESULT %.6f %.6f %d %s %.0f %.0f %.0f %.0f %.0f %.1f %.3f\n", fit$log_z, fit$se,
              as.integer(fit$reliable), if (is.null(fit$estimator)) "smc" else fit$estimator, total,
              search_evals, if (refit) pilots[1] else 0, pilots[length(pilots)], sum(utils::tail(per, R)),
              runs[nrow(runs), 2], cpu))
  quit(save = "no")
}
seeds <- if (length(args)) seq_len(as.integer(args[1])) else 1:4
dims <- if (length(args) >= 2L) as.integer(strsplit(args[2], ",")[[1]]) else c(10L, 25L, 50L, 100L)
base_lib <- Sys.getenv("DIM_BASELINE_LIB")
commit <- tryCatch(system2("git", c("rev-parse", "--short", "HEAD"), stdout = TRUE), error = function(e) "?")
cat("R BLAS:", extSoftVersion()[["BLAS"]], "| LAPACK:", La_library(), "\n")
cat(sprintf("command: Rscript bench/smc/dimension.R %s; commit %s; baseline library %s; %s\n",
            paste(args, collapse = " "), commit, if (nzchar(base_lib)) base_lib else "none",
            format(Sys.time())))
load_now <- function() paste(readLines("/proc/loadavg"), collapse = "")
cat(sprintf("load at start: %s\n\n", load_now()))
# read when needed: the reference of the larger d may still be running
ref_of <- function(d) readRDS("bench/smc/dimension_ref.rds")[[as.character(d)]]
one <- function(d, s, how, lib = "") {
  env <- if (nzchar(lib)) paste0("R_LIBS=", lib) else character()
  out <- system2("Rscript", c("bench/smc/dimension.R", "--one", d, s, how), stdout = TRUE,
                 stderr = FALSE, env = env)
  x <- strsplit(sub("^RESULT ", "", grep("^RESULT", out, value = TRUE)), " ")[[1]]
  if (!length(x)) return(NULL)
  num <- as.numeric(x[-4])
  data.frame(d = d, seed = s, call = how, log_z = num[1], se = num[2], reliable = num[3] == 1,
             estimator = x[4], evals = num[4], search = num[5], pilot_laplace = num[6],
             pilot = num[7], replicates = num[8], temps = num[9], cpu = num[10])
}
rows <- list()
fmt <- "%4s %4s %-11s %-10s %9s %7s %7s %5s %-7s %8s %7s %7s %7s %7s %6s %6s\n"
cat(sprintf(fmt, "d", "seed", "call", "build", "error", "se", "z", "rel", "est", "evals", "search",
            "pilotL", "pilot", "reps", "temps", "cpu_s"))
for (d in dims) for (s in seeds) {
  todo <- list(c("scalar", ""), c("vectorized", ""))
  if (nzchar(base_lib)) todo <- c(list(c("scalar", base_lib)), todo)
  for (t in todo) {
    r <- one(d, s, t[1], t[2])
    if (is.null(r)) next
    r$build <- if (nzchar(t[2])) "baseline" else "this"
    r$err <- r$log_z - ref_of(d)[["log_z"]]
    rows[[length(rows) + 1L]] <- r
    cat(sprintf(paste0("%4d %4d %-11s %-10s %9.4f %7.4f %7.2f %5s %-7s %8.0f %7.0f %7.0f %7.0f %7.0f ",
                       "%6.0f %6.1f\n"), d, s, r$call, r$build, r$err, r$se, r$err / r$se, r$reliable,
                r$estimator, r$evals, r$search, r$pilot_laplace, r$pilot, r$replicates, r$temps, r$cpu))
  }
}
tab <- do.call(rbind, rows)
cat(sprintf("\nload at end: %s\n", load_now()))
cat("\nreference (IS, Student-t proposal at a long run's moments; se of the reference):\n")
for (d in dims) cat(sprintf("  d = %3d  %.4f (se %.4f)\n", d, ref_of(d)[["log_z"]], ref_of(d)[["se"]]))
cat("\nsummary per d, call and build: RMSE, mean se, sd(z), max |z|, reliable, mean evaluations, median CPU-s\n")
for (d in dims) for (b in unique(tab$build)) for (h in unique(tab$call)) {
  x <- tab[tab$d == d & tab$build == b & tab$call == h, ]
  if (!nrow(x)) next
  z <- x$err / x$se
  cat(sprintf("  d = %3d %-8s %-10s RMSE %.4f  se %.4f  sd(z) %.2f  max|z| %.2f  reliable %d/%d  evals %.0f  CPU %.1f\n",
              d, b, h, sqrt(mean(x$err^2)), mean(x$se), if (nrow(x) > 1) sd(z) else NA, max(abs(z)),
              sum(x$reliable), nrow(x), mean(x$evals), median(x$cpu)))
}
if ("baseline" %in% tab$build) {
  cat("\nCPU ratio this / baseline (scalar call, per seed run side by side): median [range]; evaluations ratio\n")
  for (d in dims) {
    a <- tab[tab$d == d & tab$build == "this" & tab$call == "scalar", ]
    b <- tab[tab$d == d & tab$build == "baseline", ]
    m <- merge(a, b, by = "seed")
    r <- m$cpu.x / m$cpu.y
    cat(sprintf("  d = %3d  CPU %.2f [%.2f, %.2f]  evaluations %.2f\n", d, median(r), min(r), max(r),
                mean(m$evals.x) / mean(m$evals.y)))
  }
}
cat("\nCPU ratio vectorized / scalar (this build, per seed): median [range]\n")
for (d in dims) {
  a <- tab[tab$d == d & tab$build == "this" & tab$call == "vectorized", ]
  b <- tab[tab$d == d & tab$build == "this" & tab$call == "scalar", ]
  m <- merge(a, b, by = "seed")
  r <- m$cpu.x / m$cpu.y
  cat(sprintf("  d = %3d  %.2f [%.2f, %.2f]\n", d, median(r), min(r), max(r)))
}
