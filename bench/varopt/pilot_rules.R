# Why the default schedule's pilot misranks, and which pilot rule predicts the
# better shape: per seed, pilots of linear and SM08 in several layouts of the
# same cost (29,000 chain-steps per shape: 1,450 steps x 20 chains, which is
# schedule_pilot()'s layout, 725 x 40, 290 x 100 and 2,900 x 10), and the
# full runs linear(14500) and SM08(14500) with 100 chains (the runs of
# default_schedule_seeds.R at the same seed: where that script already ran a
# seed, its errors are reused and only the pilots run here). Every final log
# weight is written to pilot_rules_logw.csv so that rules can be compared
# offline (pilot_rules_report.R). Layout "1450x20" repeats the pilots of
# default_schedule_seeds.R, which start from set.seed(s) like the full runs
# (so the linear pilot and the linear full run share their first random
# numbers); "1450x20i" is the same layout from an independent seed, as in
# ais(), where the main run continues the pilots' random stream.
#   Rscript bench/varopt/pilot_rules.R MODEL SEEDS [full]
#   MODEL: a file in bench/models/; SEEDS: an R expression such as 1:5;
#   "full" reruns the full runs even where default_schedule_seeds.csv has them.
cat("R BLAS:", extSoftVersion()[["BLAS"]], "| LAPACK:", La_library(), "\n")
cat("date:", format(Sys.time(), tz = "UTC"), "UTC | commit:",
    system("git rev-parse --short HEAD", intern = TRUE), "\n")
library(logz)
args <- commandArgs(TRUE)
file <- args[1]
seeds <- eval(parse(text = args[2]))
force_full <- length(args) > 2 && args[3] == "full"
name <- sub("\\.rds$", "", file)
m <- readRDS(file.path("bench/models", file))$model
ex <- as.numeric(exact_log_z(m, threads = 1))
seeds_csv <- "bench/varopt/default_schedule_seeds.csv"
logw_csv <- "bench/varopt/pilot_rules_logw.csv"
K <- 14500L
layouts <- list(c(1450, 20), c(725, 40), c(290, 100), c(2900, 10), c(1450, 20, 1))
shapes <- list(linear = schedule_linear, sm08 = schedule_sm08)
append_csv <- function(x, f) write.table(x, f, sep = ",", row.names = FALSE,
                                         append = file.exists(f), col.names = !file.exists(f))
old <- if (file.exists(seeds_csv)) read.csv(seeds_csv) else NULL
done <- if (file.exists(logw_csv)) unique(read.csv(logw_csv)[, c("model", "seed", "run")]) else NULL
for (s in seeds) {
  t0 <- proc.time()[["elapsed"]]
  rows <- list()
  for (lay in layouts) for (sh in names(shapes)) {
    run <- sprintf("pilot_%s_%dx%d%s", sh, lay[1], lay[2], if (length(lay) > 2) "i" else "")
    if (!is.null(done) && any(done$model == name & done$seed == s & done$run == run)) next
    # the old layout is drawn exactly as schedule_pilot()'s bench did: linear then SM08 after set.seed(s)
    set.seed(s * 1000 + lay[1] + (sh == "sm08") * 7 + (length(lay) > 2) * 3)
    old_layout <- lay[1] == 1450 && length(lay) == 2
    if (old_layout && sh == "linear") set.seed(s)
    fit <- if (old_layout && sh == "sm08") {
      set.seed(s)
      invisible(suppressWarnings(ais(m, schedule_linear(1450), n_chains = 20, progress = FALSE)))
      suppressWarnings(ais(m, schedule_sm08(1450), n_chains = 20, progress = FALSE))
    } else suppressWarnings(ais(m, shapes[[sh]](lay[1]), n_chains = lay[2], progress = FALSE))
    rows[[run]] <- data.frame(model = name, seed = s, run = run, exact = ex, log_z0 = fit$log_z0,
                              log_w = fit$log_weights)
  }
  have <- !is.null(old) && any(old$model == name & old$seed == s)
  for (sh in names(shapes)) {
    run <- sprintf("full_%s_%dx%d", sh, K, 100)
    if (!is.null(done) && any(done$model == name & done$seed == s & done$run == run)) next
    if (have && !force_full) next
    set.seed(s)
    fit <- suppressWarnings(ais(m, shapes[[sh]](K), n_chains = 100, progress = FALSE))
    rows[[run]] <- data.frame(model = name, seed = s, run = run, exact = ex, log_z0 = fit$log_z0,
                              log_w = fit$log_weights)
  }
  if (length(rows)) append_csv(do.call(rbind, rows), logw_csv)
  cat(sprintf("%s seed %d: %d runs in %.0f s\n", name, s, length(rows),
              proc.time()[["elapsed"]] - t0))
}
