# Report of bench/varopt/pilot_rules.R: which pilot rule picks the shape
# (linear or SM08) whose full run (14,500 steps x 100 chains) has the smaller
# error, on 20-hidden MNIST RBMs with exact log Z.
#   Rscript bench/varopt/pilot_rules_report.R > bench/varopt/pilot_rules_report.out
# Part 1: per model and shape, the pilot's Var[log w] (1,450 x 20) scaled by
#   1450/14500 against the full run's Var[log w], ESS and RMSE.
# Part 2: per rule and pilot layout (each layout costs 29,000 chain-steps per
#   shape), the RMSE of the chosen shape's full run, and the picks.
cat("R BLAS:", extSoftVersion()[["BLAS"]], "| LAPACK:", La_library(), "\n")
cat("date:", format(Sys.time(), tz = "UTC"), "UTC | commit:",
    system("git rev-parse --short HEAD", intern = TRUE), "\n")
w <- read.csv("bench/varopt/pilot_rules_logw.csv")
old <- read.csv("bench/varopt/default_schedule_seeds.csv")
lme <- function(x) { m <- max(x); m + log(mean(exp(x - m))) }
rmse <- function(e) sqrt(mean(e^2))
# full-run errors: this script's log weights where it ran them, else default_schedule_seeds.csv
full <- do.call(rbind, lapply(split(w[grepl("^full", w$run), ], ~ model + seed + run, drop = TRUE),
  function(x) data.frame(model = x$model[1], seed = x$seed[1],
                         shape = sub("full_([a-z0-9]+)_.*", "\\1", x$run[1]),
                         err = x$log_z0[1] + lme(x$log_w) - x$exact[1], var = var(x$log_w),
                         ess = length(x$log_w) * exp(2 * lme(x$log_w) - lme(2 * x$log_w)))))
old_full <- rbind(data.frame(model = old$model, seed = old$seed, shape = "linear", err = old$err_linear,
                             var = NA, ess = old$ess_linear),
                  data.frame(model = old$model, seed = old$seed, shape = "sm08", err = old$err_sm08,
                             var = NA, ess = old$ess_sm08))
key <- function(d) paste(d$model, d$seed, d$shape)
full <- rbind(full, old_full[!key(old_full) %in% key(full), ])
pil <- w[grepl("^pilot", w$run), ]
pil$shape <- sub("pilot_([a-z0-9]+)_.*", "\\1", pil$run)
pil$layout <- sub("pilot_[a-z0-9]+_", "", pil$run)
seeds <- unique(pil[, c("model", "seed")])
seeds <- seeds[paste(seeds$model, seeds$seed, "linear") %in% key(full) &
               paste(seeds$model, seeds$seed, "sm08") %in% key(full), ]
err_of <- function(m, s, sh) full$err[full$model == m & full$seed == s & full$shape == sh]

cat("\nPart 1. Pilot (1,450 x 20) Var[log w] x 1450/14500 against the full run (14,500 x 100)\n")
cat(sprintf("%-18s %5s %-6s %12s %12s %10s %8s %8s\n", "model", "seeds", "shape", "pilot var/10",
            "full var", "full ESS", "RMSE", "MAE"))
for (m in unique(seeds$model)) for (sh in c("linear", "sm08")) {
  ss <- seeds$seed[seeds$model == m]
  pv <- sapply(ss, function(s) var(pil$log_w[pil$model == m & pil$seed == s & pil$shape == sh &
                                             pil$layout == "1450x20"]))
  f <- full[full$model == m & full$shape == sh & full$seed %in% ss, ]
  cat(sprintf("%-18s %5d %-6s %12.3f %12s %10.1f %8.3f %8.3f\n", m, length(ss), sh, mean(pv) / 10,
              if (all(is.na(f$var))) "-" else sprintf("%.3f (%d)", mean(f$var, na.rm = TRUE),
                                                      sum(!is.na(f$var))),
              mean(f$ess), rmse(f$err), mean(abs(f$err))))
}

cat("\nPart 1b. Var[log w] x K by pilot layout and in the full run (mean over seeds); under perfect\n",
    "transitions Var[log w] x K is the same at every K (Kiwaki 2015, Eq. 7)\n")
a <- aggregate(log_w ~ model + seed + run, w, var)
a$K <- as.numeric(sub(".*_([0-9]+)x.*", "\\1", a$run))
a$shape <- sub("^[a-z]+_([a-z0-9]+)_.*", "\\1", a$run)
a$vK <- a$log_w * a$K
b <- aggregate(cbind(vK, n = 1) ~ model + shape + K, a, function(v) if (all(v == 1)) length(v) else mean(v))
b <- reshape(b[, c("model", "shape", "K", "vK")], idvar = c("model", "shape"), timevar = "K",
             direction = "wide")
names(b) <- sub("vK.", "K=", names(b), fixed = TRUE)
print(b, digits = 4, row.names = FALSE)
ful <- a[grepl("^full", a$run), ]
if (nrow(ful)) {
  fv <- reshape(ful[, c("model", "seed", "shape", "log_w")], idvar = c("model", "seed"),
                timevar = "shape", direction = "wide")
  pv <- reshape(a[a$run %in% c("pilot_linear_1450x20", "pilot_sm08_1450x20"),
                  c("model", "seed", "shape", "log_w")], idvar = c("model", "seed"),
                timevar = "shape", direction = "wide")
  j <- merge(fv, pv, by = c("model", "seed"), suffixes = c(".full", ".pilot"))
  cat("\nseeds where the full run's Var[log w] is smaller for linear, and where the pilot's (1,450 x 20) is:\n")
  for (m in unique(j$model)) {
    x <- j[j$model == m, ]
    cat(sprintf("%-18s %d seeds: full %d, pilot %d, same ranking %d\n", m, nrow(x),
                sum(x$log_w.linear.full < x$log_w.sm08.full), sum(x$log_w.linear.pilot < x$log_w.sm08.pilot),
                sum((x$log_w.linear.full < x$log_w.sm08.full) == (x$log_w.linear.pilot < x$log_w.sm08.pilot))))
  }
}

# A rule maps a pilot's log weights (and its shape) to a score; the smaller
# score wins. margin_m: Var[log w], with linear's multiplied by m (linear must
# vary m times less to be chosen).
margin <- function(f) function(x, sh) if (sh == "linear") f * var(x) else var(x)
rules <- list(
  var = function(x) var(x),
  margin_1.5 = margin(1.5), margin_2 = margin(2), margin_3 = margin(3),
  robust_var = function(x) (stats::IQR(x) / 1.349)^2,
  neg_mean = function(x) -mean(x),                     # larger lower bound E[log w] wins
  neg_log_ess = function(x) -(2 * lme(x) - lme(2 * x)),
  neg_log_z = function(x) -lme(x),
  gap = function(x) lme(x) - mean(x))                  # log Z-hat - E[log w], a KL proxy
cat("\nPart 2. RMSE of the chosen shape's full run, by rule and pilot layout (steps x chains per shape)\n")
res <- list()
for (ru in names(rules)) for (lay in unique(pil$layout)) for (i in seq_len(nrow(seeds))) {
  m <- seeds$model[i]; s <- seeds$seed[i]
  if (!any(pil$model == m & pil$seed == s & pil$layout == lay)) next
  sc <- sapply(c("linear", "sm08"), function(sh) if (length(formals(rules[[ru]])) == 2)
    rules[[ru]](pil$log_w[pil$model == m & pil$seed == s & pil$shape == sh & pil$layout == lay], sh) else
    rules[[ru]](pil$log_w[pil$model == m & pil$seed == s & pil$shape == sh & pil$layout == lay]))
  pick <- c("linear", "sm08")[which.min(sc)]
  res[[length(res) + 1]] <- data.frame(rule = ru, layout = lay, model = m, seed = s, pick = pick,
                                       err = err_of(m, s, pick))
}
res <- do.call(rbind, res)
models <- unique(seeds$model)
fixed <- sapply(models, function(m) sapply(c("linear", "sm08"), function(sh)
  rmse(full$err[full$model == m & full$shape == sh & full$seed %in% seeds$seed[seeds$model == m]])))
cat(sprintf("%-12s %-8s", "rule", "layout"), sprintf("%18s", models), "  worst ratio to best fixed\n")
cat(sprintf("%-21s", "seeds"), sprintf("%18d", sapply(models, function(m) sum(seeds$model == m))), "\n")
for (sh in c("linear", "sm08")) cat(sprintf("%-21s", paste("fixed", sh)),
                                    sprintf("%18.3f", fixed[sh, ]), "\n")
set.seed(1)
ci <- sapply(models, function(m) {
  ss <- seeds$seed[seeds$model == m]
  el <- sapply(ss, err_of, m = m, sh = "linear"); es <- sapply(ss, err_of, m = m, sh = "sm08")
  b <- replicate(2000, { i <- sample(length(ss), replace = TRUE); rmse(es[i]) / rmse(el[i]) })
  sprintf("%.2f [%.2f,%.2f]", rmse(es) / rmse(el), quantile(b, 0.025), quantile(b, 0.975))
})
cat(sprintf("%-21s", "SM08/linear [95%]"), sprintf("%18s", ci), "\n")
for (ru in names(rules)) for (lay in unique(pil$layout)) {
  x <- res[res$rule == ru & res$layout == lay, ]
  r <- sapply(models, function(m) rmse(x$err[x$model == m]))
  k <- sapply(models, function(m) sprintf("%.3f %2d/%-2d", r[[m]], sum(x$model == m & x$pick == "linear"),
                                          sum(x$model == m & x$pick == "sm08")))
  cat(sprintf("%-12s %-8s", ru, lay), sprintf("%18s", k),
      sprintf("  %.2f\n", max(r / apply(fixed, 2, min))))
}
cat("cells: RMSE of the pick's full run, then picks linear/SM08 over the seeds; [95%]: paired bootstrap\n",
    "over seeds (2,000 resamples). Layout 1450x20 shares its first random numbers with the full runs\n",
    "(see pilot_rules.R); 1450x20i is the same layout drawn independently, as in ais().\n")

cat("\nPart 3. schedule_pilot()'s criteria as ais() runs them (layout 1450x20i: 1,450 steps x 20 chains per\n",
    "shape, independent of the full runs): RMSE of the chosen shape's full run, picks (linear/SM08), and\n",
    "the ratio to the better fixed shape's RMSE [paired bootstrap 95%]\n")
cat(sprintf("%-18s %5s %7s %7s   %-36s %-36s\n", "model", "seeds", "linear", "SM08",
            "variance (default)", "mean log w"))
set.seed(2)
for (m in models) {
  x <- res[res$model == m & res$layout == "1450x20i", ]
  if (!nrow(x)) next
  ss <- unique(x$seed)
  el <- sapply(ss, err_of, m = m, sh = "linear"); es <- sapply(ss, err_of, m = m, sh = "sm08")
  best <- if (rmse(el) <= rmse(es)) el else es
  cell <- function(r) {
    y <- x[x$rule == r, ]
    y <- y[match(ss, y$seed), ]
    b <- replicate(2000, { i <- sample(length(ss), replace = TRUE); rmse(y$err[i]) / rmse(best[i]) })
    sprintf("%.3f %d/%d %.2f [%.2f, %.2f]", rmse(y$err), sum(y$pick == "linear"), sum(y$pick == "sm08"),
            rmse(y$err) / rmse(best), quantile(b, 0.025), quantile(b, 0.975))
  }
  cat(sprintf("%-18s %5d %7.3f %7.3f   %-36s %-36s\n", m, length(ss), rmse(el), rmse(es),
              cell("var"), cell("neg_mean")))
}
