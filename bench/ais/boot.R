# The bootstrap 95% interval of the RMSE of errors `e` (B resamples, seed 99),
# shared by the AIS kernel benches.
boot_rmse <- function(e, B = 2000L) {
  set.seed(99)
  stats::quantile(replicate(B, sqrt(mean(sample(e, replace = TRUE)^2))), c(0.025, 0.975))
}
