# Runs for Kiwaki (2015) Table 1 at a matched K, Figures 2-3 (ESS and error against K)
# and Section 7.2 (Table 2, Figures 5-6): one AIS run of M chains per cell
# (model, K, schedule, seed), appended to bench/varopt/kiwaki_runs.csv; cells already
# in the csv are skipped, so an interrupted call resumes. The report is
# bench/varopt/kiwaki_report.R.
#   Rscript bench/varopt/kiwaki_runs.R MODEL KS SCHEDULES [SEEDS] [M]
#     MODEL      rbm20_pcd, rbm20_cd1, rbm20_cd25 (exact log Z), rbm500_pcd, rbm500_cd25,
#                rbm500_cd1 (reference log Z)
#     KS         comma-separated numbers of annealing steps, e.g. 1000,3000
#     SCHEDULES  comma-separated subset of LINEAR, VAROPT, VAROPT_0.003, VAROPT_0.006,
#                VAROPT_0.009, GMS13, SM08
#     SEEDS      R expression, default 1; M chains per run, default 1000 (the paper's)
# Schedules: VAROPT from one pilot per model and seed (linear, 1000 steps x 100 chains,
# the package default), cached in bench/varopt/kiwaki_pilots/ and reused for every K and
# delta; VAROPT_<delta> is the paper's deceleration (Algorithm 3) of that VAROPT schedule:
# where no VAROPT step exceeds delta it is the same schedule, and the VAROPT run is
# reused (same_as_varopt = TRUE, cpu_s = 0) rather than run again with another seed.
# GMS13 from 10 knots x 100 chains x (100 burn-in + 500) sweeps (the package default;
# the paper used 1000 chains x 6000 updates), cached like the pilot. SM08 is
# Salakhutdinov & Murray's three-piece schedule scaled to K steps.
# Reference log Z: exact_log_z() on 20 hidden units; PCD(500) the forward/reverse AIS
# sandwich of bench/rts/rts_fig3_pcd500_ref.R (430.588 +/- 0.166); CD25(500) importance
# sampling around the blank image, bench/rts/rts_hard_is.out (542.0785, se 0.0003); CD1(500)
# the AIS estimate saved with the model by bench/training/train_rbm500.R.
suppressPackageStartupMessages(library(logz))
args <- commandArgs(TRUE)
if (length(args) < 3) stop("usage: kiwaki_runs.R MODEL KS SCHEDULES [SEEDS] [M]")
mname <- args[1]
Ks <- as.integer(strsplit(args[2], ",")[[1]])
scheds <- strsplit(args[3], ",")[[1]]
seeds <- if (length(args) > 3) eval(parse(text = args[4])) else 1L
M <- if (length(args) > 4) as.integer(args[5]) else 1000L
all_sched <- c("LINEAR", "VAROPT", "VAROPT_0.003", "VAROPT_0.006", "VAROPT_0.009", "GMS13", "SM08")
stopifnot(all(scheds %in% all_sched))
scheds <- all_sched[all_sched %in% scheds]
if (any(grepl("^VAROPT_", scheds))) scheds <- union("VAROPT", scheds)
scheds <- all_sched[all_sched %in% scheds]
m <- readRDS(sprintf("bench/models/%s.rds", mname))$model
ref <- switch(mname,
  rbm500_pcd = readRDS("bench/rts/rts_fig3_pcd500_ref.rds")$mid,
  rbm500_cd25 = 542.0785,
  rbm500_cd1 = readRDS("bench/models/rbm500_cd1.rds")$log_z$log_z,
  as.numeric(exact_log_z(m)))
out <- "bench/varopt/kiwaki_runs.csv"
done <- if (file.exists(out)) read.csv(out) else NULL
is_done <- function(K, sn, s) !is.null(done) &&
  any(done$model == mname & done$K == K & done$schedule == sn & done$seed == s & done$M == M)
cache <- "bench/varopt/kiwaki_pilots"
dir.create(cache, showWarnings = FALSE)
cpu <- function(expr) {
  t0 <- proc.time()
  v <- force(expr)
  t1 <- proc.time() - t0
  list(value = v, cpu = sum(t1[c(1, 2, 4, 5)], na.rm = TRUE))
}
cached <- function(kind, s, make) {
  f <- file.path(cache, sprintf("%s_%s_seed%d.rds", mname, kind, s))
  if (file.exists(f)) return(list(value = readRDS(f), cpu = attr(readRDS(f), "cpu_s")))
  set.seed(s)
  r <- cpu(make())
  # keep only what `from =` needs: a schedule at K = 10 carries the pilot's g
  attr(r$value, "cpu_s") <- r$cpu
  saveRDS(r$value, f)
  r
}
cat(sprintf("%s: reference log Z %.4f; M = %d; %s\n", mname, ref, M, La_library()))
for (s in seeds) for (K in Ks) {
  pil <- if (any(grepl("^VAROPT", scheds)))
    cached("varopt_pilot", s, function() schedule_varopt(m, 10L, pilot_K = 1000L, pilot_chains = 100L))
  gpil <- if ("GMS13" %in% scheds)
    cached("gms13_knots", s, function() schedule_gms13(m, 10L, progress = FALSE))
  var_sched <- if (!is.null(pil)) schedule_varopt(m, K, from = pil$value)
  var_row <- NULL
  for (sn in scheds) {
    if (is_done(K, sn, s)) {
      if (sn == "VAROPT") var_row <- done[done$model == mname & done$K == K & done$schedule == sn &
                                            done$seed == s & done$M == M, ][1, ]
      next
    }
    delta <- if (grepl("^VAROPT_", sn)) as.numeric(sub("VAROPT_", "", sn))
    if (!is.null(delta) && K * delta < 1) {
      cat(sprintf("  K %d %s: K * delta < 1, no schedule\n", K, sn))
      next
    }
    sch <- switch(sn, LINEAR = schedule_linear(K), VAROPT = var_sched,
                  GMS13 = schedule_gms13(m, K, from = gpil$value), SM08 = schedule_sm08(K),
                  schedule_varopt(m, K, from = pil$value, delta = delta))
    same <- !is.null(delta) && isTRUE(all.equal(as.numeric(sch), as.numeric(var_sched),
                                                tolerance = 1e-12))
    if (same && !is.null(var_row)) {
      row <- var_row
      row$schedule <- sn
      row$same_as_varopt <- TRUE
      row$cpu_s <- 0
      row$time_utc <- format(Sys.time(), tz = "UTC")
    } else {
      set.seed(1000L * s + 7L * match(sn, all_sched) + K)
      r <- cpu(suppressWarnings(ais(m, sch, n_chains = M, progress = FALSE)))
      f <- r$value
      row <- data.frame(model = mname, K = K, schedule = sn, seed = s, M = M, log_z = f$log_z,
                        ref = ref, err = f$log_z - ref, se = f$se, ess = f$ess,
                        max_step = max(diff(as.numeric(sch))),
                        same_as_varopt = same, prep_cpu_s = if (grepl("^VAROPT", sn)) pil$cpu
                          else if (sn == "GMS13") gpil$cpu else 0,
                        cpu_s = r$cpu, time_utc = format(Sys.time(), tz = "UTC"))
    }
    if (sn == "VAROPT") var_row <- row
    cat(sprintf("  K %6d seed %d %-13s ESS %6.1f/%d  error %+.4f  se %.4f  max step %.5f%s  %.1f CPU-s\n",
                K, s, sn, row$ess, M, row$err, row$se, row$max_step,
                if (same) " (= VAROPT)" else "", row$cpu_s))
    write.table(row, out, sep = ",", row.names = FALSE, append = file.exists(out),
                col.names = !file.exists(out))
  }
}
