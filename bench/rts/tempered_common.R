# The experiment behind bench/rts/dna_tempered.R and bench/rts/mnist_tempered.R
# (Carlson et al. 2016, Section 4.4 / Figure 5), read their headers: a 500-hidden RBM on
# training rows x (validation rows xv), pre_epochs epochs of CD-1 pretraining, then training on
# persistent simulated-tempering chains with log Z tracked from the same chains; checkpoints by
# AIS and rts() alone; CPU with and without tracking. Settings come from the environment
# variables <P>_CHAINS, <P>_SWEEPS, ... (P = toupper(name)); the mean log-likelihoods use at most
# ll_rows rows of each data set.
suppressPackageStartupMessages(library(logz))
run_tempered <- function(name, x, xv, pre_epochs, ll_rows = Inf) {
  P <- toupper(name)
  env <- function(what, default) as.numeric(Sys.getenv(paste0(P, "_", what), default))
  chains <- env("CHAINS", 500); sweeps <- env("SWEEPS", 10); epochs <- env("EPOCHS", 10)
  keep <- env("KEEP", 50); ais_steps <- env("AIS_STEPS", 10000)
  cpu_epochs <- env("CPU_EPOCHS", 2); cpu_reps <- env("CPU_REPS", 2)
  cpu_chains <- env("CPU_CHAINS", chains); cpu_sweeps <- env("CPU_SWEEPS", sweeps)
  tag <- Sys.getenv(paste0(P, "_TAG"), "")
  out_csv <- function(what) sprintf("bench/rts/%s_tempered%s_%s.csv", name, tag, what)
  cat(sprintf(gsub("P_", paste0(P, "_"), paste0(
    "Command: Rscript bench/rts/%s_tempered.R (P_CHAINS=%d P_SWEEPS=%d P_EPOCHS=%d ",
    "P_KEEP=%d P_AIS_STEPS=%d P_CPU_EPOCHS=%d P_CPU_REPS=%d P_CPU_CHAINS=%d ",
    "P_CPU_SWEEPS=%d P_TAG=%s)\n")), name,
              chains, sweeps, epochs, keep, ais_steps, cpu_epochs, cpu_reps, cpu_chains, cpu_sweeps, tag))
  cat("Date:", format(Sys.time(), tz = "UTC", usetz = TRUE), "; commit:",
      tryCatch(system("git rev-parse --short HEAD", intern = TRUE), error = function(e) "?"),
      "; load average:", readLines("/proc/loadavg"), "\n")
  cat("R LAPACK:", La_library(), "\n")
  cpu <- function() sum(proc.time()[c("user.self", "sys.self", "user.child", "sys.child")])
  set.seed(2016)
  c0 <- cpu()
  pre <- rbm_train(x, 500, method = "cd", k = 1, epochs = pre_epochs, progress = FALSE)
  cat(sprintf("CD-1 pretraining: %d epochs (%d updates), %.1f CPU-s\n", pre_epochs,
              pre_epochs * ceiling(nrow(x) / 100), cpu() - c0))
  train <- function(track_log_z, epochs, ll_every = 1, keep_every = 0, n_chains = chains,
                    k = sweeps) {
    set.seed(5)
    rbm_train(x, 500, method = "tempered", init = pre, k = k, n_chains = n_chains, epochs = epochs,
              optimizer = "rmsspectral", learning_rate = 1e-5, lr_schedule = "constant",
              batch_size = 100, track_log_z = track_log_z, validation = if (track_log_z) xv,
              track = list(K = 100, prior = "exp2", alpha = 0.2, ll_every = ll_every,
                           keep_every = keep_every),
              threads = 2, progress = FALSE)
  }
  c0 <- cpu(); w0 <- proc.time()[["elapsed"]]
  m <- train(TRUE, epochs, keep_every = keep)
  cat(sprintf("tempered training, tracked: %d updates, %.1f CPU-s, %.1f s wall; tracking %.1f s wall\n",
              nrow(m$log_z_track), cpu() - c0, proc.time()[["elapsed"]] - w0,
              sum(m$history$track_time)))
  write.csv(m$log_z_track, out_csv("track"), row.names = FALSE)
  print(m$history, digits = 5)
  # checkpoints: AIS (100 chains, ais_steps temperatures) and rts() alone
  ll <- function(p, d, lz)
    mean(-free_energy(rbm(p$W, p$a, p$b), d[seq_len(min(nrow(d), ll_rows)), , drop = FALSE])) - lz
  a0 <- m$base_rate
  rows <- NULL
  for (kp in rev(m$kept)) {
    mk <- rbm(kp$params$W, kp$params$a, kp$params$b)
    set.seed(kp$update)
    c0 <- cpu()
    fa <- suppressWarnings(ais(mk, schedule = schedule_linear(ais_steps), n_chains = 100, base = a0,
                               threads = 2, progress = FALSE))
    ca <- cpu() - c0
    c0 <- cpu()
    fr <- suppressWarnings(rts(mk, threads = 2, progress = FALSE))
    cr <- cpu() - c0
    row <- data.frame(update = kp$update, tracked = kp$log_z, tracked_se = kp$se,
                      ais = fa$log_z, ais_se = fa$se, ais_cpu = ca, rts = fr$log_z, rts_se = fr$se,
                      rts_cpu = cr, train_ll_ais = ll(kp$params, x, fa$log_z),
                      valid_ll_ais = ll(kp$params, xv, fa$log_z))
    rows <- rbind(rows, row)
    print(row, digits = 6)
    write.csv(rows, out_csv("checks"), row.names = FALSE)
  }
  rows$diff <- rows$tracked - rows$ais
  comb <- sqrt(rows$tracked_se^2 + rows$ais_se^2)
  cat(sprintf(paste0("tracked - AIS: %s nats; within 0.3: %d of %d; within 3 AIS se: %d of %d; ",
                     "within 3 combined se (tracked and AIS): %d of %d\n"),
              paste(sprintf("%+.3f", rows$diff), collapse = ", "), sum(abs(rows$diff) < 0.3),
              nrow(rows), sum(abs(rows$diff) < 3 * rows$ais_se), nrow(rows),
              sum(abs(rows$diff) < 3 * comb), nrow(rows)))
  cat(sprintf("rts() alone - AIS: %s nats\n", paste(sprintf("%+.3f", rows$rts - rows$ais), collapse = ", ")))
  # CPU with and without tracking, interleaved
  cr <- NULL
  # "init": the chains' initial iterations alone (epochs = 0), subtracted from the others
  for (r in seq_len(cpu_reps)) for (mode in c("init", "none", "ll_every_1", "ll_every_5")) {
    c0 <- cpu()
    invisible(switch(mode,
                     init = train(FALSE, 0, n_chains = cpu_chains, k = cpu_sweeps),
                     none = train(FALSE, cpu_epochs, n_chains = cpu_chains, k = cpu_sweeps),
                     ll_every_1 = train(TRUE, cpu_epochs, 1, n_chains = cpu_chains, k = cpu_sweeps),
                     ll_every_5 = train(TRUE, cpu_epochs, 5, n_chains = cpu_chains, k = cpu_sweeps)))
    cr <- rbind(cr, data.frame(rep = r, mode = mode, cpu = cpu() - c0))
    print(cr[nrow(cr), ])
  }
  init <- cr$cpu[cr$mode == "init"]
  base <- cr$cpu[cr$mode == "none"] - init
  cat(sprintf("training updates without tracking: %s CPU-s (initial iterations %s CPU-s, subtracted)\n",
              paste(sprintf("%.1f", base), collapse = ", "), paste(sprintf("%.1f", init), collapse = ", ")))
  for (mode in c("ll_every_1", "ll_every_5")) {
    ratio <- (cr$cpu[cr$mode == mode] - init) / base
    cat(sprintf("CPU %s / none: %s (mean %.3f)\n", mode, paste(sprintf("%.3f", ratio), collapse = ", "),
                mean(ratio)))
  }
  write.csv(cr, out_csv("cpu"), row.names = FALSE)
  cat("Done:", format(Sys.time(), tz = "UTC", usetz = TRUE), "; load average:", readLines("/proc/loadavg"), "\n")
}
