# Why are our 784 x 500 RBMs harder for AIS than Kiwaki (2015)'s (Section 7.2, Table 2)?
# Splits the hardness into "the path is long" (thermodynamic length Lambda) and "the
# transitions do not keep up" (measured Var[log w] well above the perfect-transition one).
#   Rscript bench/varopt/hardness_500.R > bench/varopt/hardness_500.out
# Per model (the three 500-hidden models and, for scale, the three 20-hidden ones):
#  * parameters: mean / max |W|, hidden and visible bias scales, test log-likelihood
#    (bundled digits 8001-10000, the test split of bench/training/) with the reference log Z;
#  * g(beta) = Var_beta[E] two ways:
#      pilot: the cached VAROPT pilot of bench/varopt/kiwaki_runs.R (linear 1000 steps x 100
#             chains, importance-weighted moments per step; seed 1), as schedule_varopt() uses;
#      knots: Gibbs chains held at fixed beta (the moments machinery of schedule_gms13():
#             a constant schedule, equal weights), KNOTS knots, CHAINS chains, BURN + SWEEPS
#             sweeps, pooled over chains and sweeps;
#    each as g_curv = Var[D] + E[D2] (joint space, what VAROPT equalises) and g_inc = Var[D]
#    (the increments of ais() with the hidden units summed out: what Var[log w] sees);
#    Lambda = int sqrt(g), int g; the perfect-transition Var[log w] of a schedule b is
#    J_inc[b] / K = sum_k dbeta_k^2 g_inc(beta_{k-1}) (LINEAR: int g_inc / K; the optimum
#    for g_inc: Lambda_inc^2 / K), ESS / M ~ exp(-Var[log w]) under log-normal weights;
#  * measured: AIS with LINEAR and the VAROPT schedule (from the same pilot) at K = 1000,
#    MCHAINS chains (the engine of ais(), one thread), per-chain log weights: their variance
#    and 2 x (reference log Z - log Z0 - mean log w) (the KL gap, = Var[log w] / 2 under
#    log-normal weights; stable when the weights are heavy-tailed); and the M = 1000 runs in
#    bench/varopt/kiwaki_runs.csv through Var[log w] ~ log(M / ESS) (saturates when ESS ~ 1);
#  * K_eff = J_inc[b] / measured Var[log w]: how many independent perfect-transition steps
#    the K steps are worth ("mixing factor" K / K_eff).
suppressPackageStartupMessages(library(logz))
KNOTS <- 11L; CHAINS <- 100L; BURN <- 100L; SWEEPS <- 300L; MCHAINS <- 100L; KRUN <- 1000L
models <- c("rbm500_pcd", "rbm500_cd1", "rbm500_cd25", "rbm20_pcd", "rbm20_cd1", "rbm20_cd25")
label <- c(rbm500_pcd = "PCD(500)", rbm500_cd1 = "CD1(500)", rbm500_cd25 = "CD25(500)",
           rbm20_pcd = "PCD(20)", rbm20_cd1 = "CD1(20)", rbm20_cd25 = "CD25(20)")
# HARDNESS_MODELS (comma-separated) and HARDNESS_SMALL=1 (a quick check of the script) are for trials
all_models <- models
models <- strsplit(Sys.getenv("HARDNESS_MODELS", paste(models, collapse = ",")), ",")[[1]]
if (nzchar(Sys.getenv("HARDNESS_SMALL"))) { CHAINS <- 10L; BURN <- 5L; SWEEPS <- 10L; MCHAINS <- 20L }
# Kiwaki (2015) Table 2 (500 hidden) and Table 1 (20 hidden): log Z and LINEAR / VAROPT ESS
paper <- data.frame(
  model = all_models,
  log_z = c(525.545, 676.167, 379.628, 208.63, 193.951, 207.12),
  ess_linear = c(329, 872, 712, 517, 713, 664),
  ess_varopt = c(726, 865, 545, 783, 87, 776))
ref_of <- function(mname, m) switch(mname,
  rbm500_pcd = readRDS("bench/rts/rts_fig3_pcd500_ref.rds")$mid,
  rbm500_cd25 = 542.0785,
  rbm500_cd1 = readRDS("bench/models/rbm500_cd1.rds")$log_z$log_z,
  as.numeric(exact_log_z(m)))
cpu <- function() sum(proc.time()[c(1, 2, 4, 5)], na.rm = TRUE)
cumtrapz <- function(x, y) c(0, cumsum(diff(x) * (y[-1] + y[-length(y)]) / 2))
lse <- function(x) max(x) + log(sum(exp(x - max(x))))
integ <- function(x, y) sum(diff(x) * (y[-1] + y[-length(y)]) / 2)
# J[b] / K for a schedule b and g on a grid (g interpolated at the left end of each step)
var_pred <- function(b, beta, g) {
  d <- diff(b)
  sum(d^2 * stats::approx(beta, g, xout = b[-length(b)], rule = 2)$y)
}
t_start <- cpu()
test <- mnist$x[8001:10000, ]
runs <- read.csv("bench/varopt/kiwaki_runs.csv")
cat("Kiwaki (2015) Section 7.2: hardness of our 784 x 500 RBMs for AIS, split into length and mixing\n")
cat("command: OPENBLAS_NUM_THREADS=1 Rscript bench/varopt/hardness_500.R\n")
cat(sprintf("date: %s UTC | commit: %s\n", format(Sys.time(), tz = "UTC"),
            system("git rev-parse --short HEAD", intern = TRUE)))
cat(sprintf("R BLAS: %s | LAPACK: %s\n", extSoftVersion()[["BLAS"]], La_library()))
cat(sprintf(paste0("knots: %d betas, %d chains, %d burn-in + %d sweeps each; measured runs: K = %d, ",
                   "%d chains, LINEAR and VAROPT (seed 1 pilot); base: logz_base() default\n\n"),
            KNOTS, CHAINS, BURN, SWEEPS, KRUN, MCHAINS))

par_rows <- list(); g_rows <- list(); meas_rows <- list(); csv_rows <- list()
for (mname in models) {
  t0 <- cpu()
  set.seed(2015)
  obj <- readRDS(sprintf("bench/models/%s.rds", mname))
  m <- obj$model
  ref <- ref_of(mname, m)
  base <- logz:::resolve_base(m, NULL)
  a0 <- base$bias
  log_z0 <- sum(pmax(a0, 0) + log1p(exp(-abs(a0)))) + m$n_hidden * log(2)
  ll <- log_likelihood(m, test, ref)
  par_rows[[mname]] <- data.frame(
    model = label[[mname]], ref = ref, paper = paper$log_z[paper$model == mname],
    log_z0 = log_z0, test_ll = ll, mean_absW = mean(abs(m$W)), max_absW = max(abs(m$W)),
    sd_W = sd(as.numeric(m$W)), b_mean = mean(m$b), b_sd = sd(m$b), b_min = min(m$b),
    a_mean = mean(m$a), a_sd = sd(m$a), a_min = min(m$a), a_max = max(m$a),
    base = base$type)
  # g from the cached VAROPT pilot (weighted moments of a linear pilot)
  pil <- readRDS(sprintf("bench/varopt/kiwaki_pilots/%s_varopt_pilot_seed1.rds", mname))
  gd <- attr(pil, "g")
  mom <- attr(pil, "pilot")$moments
  beta_p <- gd$beta
  gp_curv <- logz:::varopt_smooth(beta_p, gd$g_raw, 0.01)
  gp_inc <- logz:::varopt_smooth(beta_p, c(logz:::rbm_g0(m, a0, increment = TRUE), mom$var_d), 0.01)
  # g at fixed beta (Gibbs chains held at each knot, equal weights)
  kb <- seq(0, 1, length.out = KNOTS)
  gk <- t(vapply(kb, function(beta) {
    if (beta == 0) return(c(curv = logz:::rbm_g0(m, a0), inc = logz:::rbm_g0(m, a0, TRUE),
                            mean_d = NA_real_))
    run <- logz:::ais_rbm_engine(m, rep(beta, BURN + SWEEPS + 2L), CHAINS, 1L, a0, 1L,
                                 moments = TRUE)
    mm <- run$moments[BURN + seq_len(SWEEPS), , drop = FALSE]
    v <- mean(mm[, "var_d"]) + mean((mm[, "mean_d"] - mean(mm[, "mean_d"]))^2)
    c(curv = v + mean(mm[, "mean_d2"]), inc = v, mean_d = mean(mm[, "mean_d"]))
  }, numeric(3)))
  # sqrt(g) linear between the knots, as schedule_gms13() does
  fine <- seq(0, 1, length.out = 2001L)
  gk_f <- function(col) stats::approx(kb, sqrt(pmax(gk[, col], 0)), xout = fine)$y^2
  gkc <- gk_f("curv"); gki <- gk_f("inc")
  # the schedules: LINEAR and the VAROPT schedule of kiwaki_runs.R at K = KRUN
  lin <- seq(0, 1, length.out = KRUN + 1L)
  vs <- as.numeric(schedule_varopt(m, KRUN, from = pil))
  for (src in c("pilot", "knots")) {
    bg <- if (src == "pilot") beta_p else fine
    gc <- if (src == "pilot") gp_curv else gkc
    gi <- if (src == "pilot") gp_inc else gki
    g_rows[[paste(mname, src)]] <- data.frame(
      model = label[[mname]], g_from = src,
      pilot_ess = if (src == "pilot") attr(pil, "pilot")$ess else NA,
      g0 = gi[1], g_max = max(gi), beta_max = bg[which.max(gi)],
      int_g_inc = integ(bg, gi), Lambda_inc = integ(bg, sqrt(gi)),
      int_g_curv = integ(bg, gc), Lambda_curv = integ(bg, sqrt(gc)),
      J_lin = KRUN * var_pred(lin, bg, gi), J_var = KRUN * var_pred(vs, bg, gi))
  }
  # measured: per-chain log weights of LINEAR and VAROPT at K = KRUN
  for (sn in c("LINEAR", "VAROPT")) {
    set.seed(4242L)
    sch <- if (sn == "LINEAR") lin else vs
    r <- logz:::ais_rbm_engine(m, sch, MCHAINS, 1L, a0, 1L)
    lw <- r$log_w
    ess <- exp(2 * lse(lw) - lse(2 * lw))
    meas_rows[[paste(mname, sn)]] <- data.frame(
      model = label[[mname]], schedule = sn, K = KRUN, M = MCHAINS,
      var_log_w = var(lw), kl2 = 2 * (ref - log_z0 - mean(lw)), ess = ess,
      err = log_z0 + lse(lw) - log(MCHAINS) - ref,
      pred_knots = var_pred(sch, fine, gki), pred_pilot = var_pred(sch, beta_p, gp_inc))
  }
  # the runs of kiwaki_runs.csv on this model (LINEAR, VAROPT)
  rr <- runs[runs$model == mname & runs$schedule %in% c("LINEAR", "VAROPT"), ]
  if (nrow(rr)) {
    ag <- aggregate(ess ~ K + M + schedule, rr, function(x) c(mean = mean(x), n = length(x)))
    ag <- do.call(data.frame, ag)
    for (i in seq_len(nrow(ag))) {
      K <- ag$K[i]
      sch <- if (ag$schedule[i] == "LINEAR") seq(0, 1, length.out = K + 1L)
             else as.numeric(schedule_varopt(m, K, from = pil))
      csv_rows[[paste(mname, i)]] <- data.frame(
        model = label[[mname]], schedule = ag$schedule[i], K = K, M = ag$M[i], runs = ag$ess.n[i],
        ess = ag$ess.mean[i], var_ess = log(ag$M[i] / ag$ess.mean[i]),
        pred_knots = var_pred(sch, fine, gki), pred_pilot = var_pred(sch, beta_p, gp_inc))
    }
  }
  cat(sprintf("%s done: %.0f CPU-s\n", label[[mname]], cpu() - t0))
}
P <- do.call(rbind, par_rows); G <- do.call(rbind, g_rows)
Ms <- do.call(rbind, meas_rows); C <- do.call(rbind, csv_rows)
rownames(P) <- rownames(G) <- rownames(Ms) <- rownames(C) <- NULL
op <- options(width = 200)
cat("\n== 1. The models: parameters, reference log Z and test log-likelihood ==\n")
cat("ref = our reference log Z (exact on 20 hidden; bench/varopt/kiwaki_runs.R's references on 500);\n")
cat("paper = Kiwaki's log Z of the model of the same name (Table 2 LINEAR row / Table 1 exact):\n")
cat("different models (the paper's 500-hidden ones were trained with randomly sampled hyperparameters);\n")
cat("test_ll = mean log p(v) over digits 8001-10000 with ref; log_z0 = log Z of the base.\n")
print(format(P, digits = 4), row.names = FALSE)
cat("\n== 2. g(beta) and the thermodynamic length ==\n")
cat("g_inc = Var_beta[D] (what Var[log w] of ais() sees); g_curv = Var[D] + E[D2] (what VAROPT equalises).\n")
cat("g0, g_max (and the beta of the max) of g_inc; int g and Lambda = int sqrt(g) of each;\n")
cat(sprintf("J_lin, J_var = K x perfect-transition Var[log w] of LINEAR and of VAROPT at K = %d under g_inc\n",
            KRUN))
cat("(int g_inc for LINEAR as K grows; Lambda_inc^2 is the least any schedule reaches).\n")
print(format(G, digits = 4), row.names = FALSE)
cat("\n== 3. Measured against predicted Var[log w] ==\n")
cat(sprintf("(a) AIS runs here: K = %d, M = %d, seed 4242; var_log_w = sample variance of the log weights,\n",
            KRUN, MCHAINS))
cat("kl2 = 2 (ref - log Z0 - mean log w); pred_* = perfect-transition J_inc / K from the knots' / pilot's g;\n")
cat("K_eff = K x pred_knots / kl2 (independent steps the K steps are worth); ESS of M.\n")
Ms$K_eff <- Ms$K * Ms$pred_knots / Ms$kl2
Ms$mix_factor <- Ms$kl2 / Ms$pred_knots
print(format(Ms, digits = 4), row.names = FALSE)
cat("\n(b) the runs of bench/varopt/kiwaki_runs.csv: var_ess = log(M / mean ESS) (log-normal weights;\n")
cat("a floor when ESS is near 1); ratio = var_ess / pred_knots; pred_ess = M exp(-pred_knots).\n")
C$ratio <- C$var_ess / C$pred_knots
C$pred_ess <- C$M * exp(-C$pred_knots)
print(format(C[order(C$model, C$schedule, C$M, C$K), ], digits = 4), row.names = FALSE)
cat("\n(c) the paper's ESS (M = 1000) read the same way: its Var[log w] ~ log(1000 / ESS), and the\n")
cat("int g_inc its LINEAR ESS would imply at K = 10^4 under perfect transitions (an upper bound on the\n")
cat("paper's int g_inc: imperfect transitions only add variance), beside ours:\n")
kn <- G[G$g_from == "knots", ]
pp <- data.frame(model = label[paper$model], paper_ess_linear = paper$ess_linear,
                 paper_var_linear = log(1000 / paper$ess_linear),
                 paper_int_g_at_1e4 = 1e4 * log(1000 / paper$ess_linear),
                 ours_int_g_inc = kn$int_g_inc[match(label[paper$model], kn$model)],
                 ours_Lambda_inc2 = kn$Lambda_inc[match(label[paper$model], kn$model)]^2)
pp$ours_pred_ess_linear_1e4 <- 1000 * exp(-pp$ours_int_g_inc / 1e4)
print(format(pp, digits = 4), row.names = FALSE)
cat("\n== 4. Summary: length against mixing (knots' g; measured at K = 1000 by kl2 of (a)) ==\n")
cat("length = Lambda_inc^2 and int g_inc relative to the mean of the 20-hidden models; mixing = measured /\n")
cat("perfect-transition Var[log w] of LINEAR and VAROPT at K = 1000 (kl2 / pred_knots), and of the M = 1000\n")
cat("runs of (b) at the largest K run (var_ess / pred_knots).\n")
small <- kn$model %in% c("PCD(20)", "CD1(20)", "CD25(20)")
S <- data.frame(model = kn$model, Lambda_inc = kn$Lambda_inc, int_g_inc = kn$int_g_inc,
                length_x = kn$Lambda_inc^2 / if (any(small)) mean(kn$Lambda_inc[small]^2) else NA,
                int_g_x = kn$int_g_inc / if (any(small)) mean(kn$int_g_inc[small]) else NA)
S$mix_linear_1000 <- Ms$mix_factor[Ms$schedule == "LINEAR"][match(S$model, Ms$model[Ms$schedule == "LINEAR"])]
S$mix_varopt_1000 <- Ms$mix_factor[Ms$schedule == "VAROPT"][match(S$model, Ms$model[Ms$schedule == "VAROPT"])]
big <- C[C$M == 1000 & C$schedule == "LINEAR", ]
big <- big[order(big$model, -big$K), ]
big <- big[!duplicated(big$model), ]
S$K_max <- big$K[match(S$model, big$model)]
S$mix_linear_Kmax <- big$ratio[match(S$model, big$model)]
print(format(S, digits = 3), row.names = FALSE)
options(op)
cat(sprintf("\nCPU: %.0f s in all (one thread, shared machine)\n", cpu() - t_start))
