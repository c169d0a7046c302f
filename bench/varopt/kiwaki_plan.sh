#!/bin/sh
# The order in which bench/varopt/kiwaki_runs.R was launched (one process at a time;
# cells already in bench/varopt/kiwaki_runs.csv are skipped, so the plan resumes).
#   nohup nice sh bench/varopt/kiwaki_plan.sh > bench/varopt/kiwaki_plan.log 2>&1 &
# Sized to the ~30 CPU-minute budget of a shared 2-core machine (load 8-13): what did
# not fit is said in bench/varopt/kiwaki_report.out.
R=Rscript
# 0. timing run: PCD(20) at K = 1000 (LINEAR ~17 CPU-s for 1000 chains)
$R bench/varopt/kiwaki_runs.R rbm20_pcd 1000 LINEAR,VAROPT_0.009 1
# 1. Table 1, PCD(20): a first K* = 6000 from the earlier LINEAR runs (ESS 78 at K = 1000
# above, 239 at 1830, 724 at 10^4: log ESS interpolated linearly in log K to the paper's 517);
# two LINEAR seeds there gave 615 and 574 (15 % high), so K* = 4600 (the same interpolation
# from 1830 and 6000 gives 5000, the local slope between 6000 and 10^4 gives 4200);
# every schedule at K* = 4600, then a second LINEAR seed
$R bench/varopt/kiwaki_runs.R rbm20_pcd 6000 LINEAR 1:2
$R bench/varopt/kiwaki_runs.R rbm20_pcd 4600 LINEAR,VAROPT,VAROPT_0.003,VAROPT_0.006,VAROPT_0.009,GMS13,SM08 1
# 2. Figures 2-3: small K, where the deceleration binds
for m in rbm20_pcd rbm20_cd25 rbm20_cd1; do
  $R bench/varopt/kiwaki_runs.R $m 100,300 LINEAR,VAROPT,VAROPT_0.003,VAROPT_0.006,VAROPT_0.009,GMS13,SM08 1
done
# 2b. where each deceleration binds: the cap needs K * delta >= 1 and bites only where
# VAROPT's largest step (about 1.4 / K on these models) exceeds delta, i.e. K in
# [1 / delta, ~1.4 / delta]: K = 130 (delta 0.009), 200 (0.006), 400 (0.003)
for m in rbm20_pcd rbm20_cd25 rbm20_cd1; do
  $R bench/varopt/kiwaki_runs.R $m 130 LINEAR,VAROPT,VAROPT_0.009 1
  $R bench/varopt/kiwaki_runs.R $m 200 LINEAR,VAROPT,VAROPT_0.006 1
  $R bench/varopt/kiwaki_runs.R $m 400 LINEAR,VAROPT,VAROPT_0.003 1
done
# 3. Section 7.2 at K = 300, M = 100 chains (the paper: 1000); no GMS13 (its knots cost
# ~250 CPU-s per 500-hidden model)
for m in rbm500_cd25 rbm500_pcd; do
  $R bench/varopt/kiwaki_runs.R $m 300 LINEAR,VAROPT,VAROPT_0.003,VAROPT_0.006,VAROPT_0.009,SM08 1 100
done
# 4. Figures 2-3 at K = 1000
for m in rbm20_cd25 rbm20_cd1; do
  $R bench/varopt/kiwaki_runs.R $m 1000 LINEAR,VAROPT,VAROPT_0.003,VAROPT_0.006,VAROPT_0.009,GMS13,SM08 1
done
# 3b. the 500-hidden runs cost ~3.5 CPU-s at K = 300, M = 100 (less than the 25x guessed),
# so K = 1000 next, once CD1(20)'s K = 1000 cells below are done
for m in rbm500_cd25 rbm500_pcd; do
  $R bench/varopt/kiwaki_runs.R $m 1000 LINEAR,VAROPT,VAROPT_0.003,VAROPT_0.006,VAROPT_0.009,SM08 1 100
done
$R bench/varopt/kiwaki_runs.R rbm20_pcd 1000 GMS13,SM08 1
# 4b. Figures 5-6 at K = 100
for m in rbm500_cd25 rbm500_pcd; do
  $R bench/varopt/kiwaki_runs.R $m 100 LINEAR,VAROPT,VAROPT_0.003,VAROPT_0.006,VAROPT_0.009,SM08 1 100
done
# 5. K = 3000 LINEAR: a bracketing point for K* on CD25(20) (10^4 gives 640 < 664)
$R bench/varopt/kiwaki_runs.R rbm20_cd25 3000 LINEAR 1
# 6. a second LINEAR seed at PCD(20)'s K*
$R bench/varopt/kiwaki_runs.R rbm20_pcd 4600 LINEAR 2
# 7. Table 1, CD25(20): the GMS13 row at K = 10^4 (the other rows are in schedules_runs.csv)
$R bench/varopt/kiwaki_runs.R rbm20_cd25 10000 GMS13 1
# ---- second session (h30varopt2): second seeds at the matched K, M = 1000 on 500 hidden ----
# Sized to ~35 CPU-minutes on the shared machine (load 8-10 on 2 cores, ~0.2 CPU-s per second
# per process), the 500-hidden runs first; what did not fit is said in kiwaki_report.out.
# 8. timing run: PCD(20) VAROPT at K* = 4600, seed 2 (its own pilot)
$R bench/varopt/kiwaki_runs.R rbm20_pcd 4600 VAROPT 2
# 9. Section 7.2 at the paper's M = 1000 chains, K = 1000: timing run first (CD25(500) LINEAR)
$R bench/varopt/kiwaki_runs.R rbm500_cd25 1000 LINEAR 1 1000
$R bench/varopt/kiwaki_runs.R rbm500_cd25 1000 VAROPT 1 1000
$R bench/varopt/kiwaki_runs.R rbm500_pcd 1000 LINEAR,VAROPT 1 1000
# 10. the rest of seed 2 at the matched K (the delta rows reuse the VAROPT run where the
#     schedule is the same)
$R bench/varopt/kiwaki_runs.R rbm20_pcd 4600 VAROPT_0.003,VAROPT_0.006,VAROPT_0.009,GMS13 2
$R bench/varopt/kiwaki_runs.R rbm20_cd25 10000 GMS13 2
# 11. CD1(500) once bench/training/train_rbm500.R (RBM500_METHOD=cd1) had saved it, with the
#     deceleration rows at M = 1000 (reused where no VAROPT step exceeds delta), a third
#     seed on CD1(20) at K* = 650 (cheap), second seeds on 500 hidden at M = 1000
$R bench/varopt/kiwaki_runs.R rbm500_cd1 1000 LINEAR,VAROPT,VAROPT_0.003,VAROPT_0.006,VAROPT_0.009 1 1000
$R bench/varopt/kiwaki_runs.R rbm500_cd25 1000 VAROPT_0.003,VAROPT_0.006,VAROPT_0.009 1 1000
$R bench/varopt/kiwaki_runs.R rbm500_pcd 1000 VAROPT_0.003,VAROPT_0.006,VAROPT_0.009 1 1000
$R bench/varopt/kiwaki_runs.R rbm20_cd1 650 LINEAR,VAROPT,VAROPT_0.003,VAROPT_0.006,VAROPT_0.009,GMS13 3
$R bench/varopt/kiwaki_runs.R rbm500_cd25 1000 LINEAR,VAROPT 2 1000
$R bench/varopt/kiwaki_runs.R rbm500_pcd 1000 LINEAR,VAROPT 2 1000
$R bench/varopt/kiwaki_runs.R rbm500_cd1 1000 LINEAR,VAROPT 2 1000
$R bench/varopt/kiwaki_runs.R rbm20_pcd 4600 SM08 2
# ---- third session (h30varopt3): Table 2 at the paper's probable K = 10^4, M = 1000 ----
# Sized to ~45 CPU-minutes (~680 CPU-s a run at 68 CPU-s per 10^6 chain-steps; load 6-7 on
# 2 cores, ~0.27 CPU-s per wall-second): the timing run first, bench/varopt/hardness_500.R
# between the two runs; VAROPT_0.009 is the VAROPT schedule at this K (its largest step is
# about 0.0003), so its row reuses the VAROPT run
$R bench/varopt/kiwaki_runs.R rbm500_cd25 10000 LINEAR 1 1000
$R bench/varopt/kiwaki_runs.R rbm500_cd25 10000 VAROPT,VAROPT_0.009 1 1000
# 13. LINEAR at K* ~ 7,700, where the report interpolates our LINEAR's ESS to the paper's 712
$R bench/varopt/kiwaki_runs.R rbm500_cd25 7700 LINEAR 1 1000
# 14. with the CPU left: CD1(500) and PCD(500) LINEAR at K = 3000, whether its lag behind perfect transitions
#     (bench/varopt/hardness_500.out) shrinks as 1 / K or stays
$R bench/varopt/kiwaki_runs.R rbm500_cd1 3000 LINEAR 1 1000
$R bench/varopt/kiwaki_runs.R rbm500_pcd 3000 LINEAR 1 1000
# 15. CD1(500) at the paper's probable K = 10^4 (coordinator, after the merge): LINEAR and VAROPT
$R bench/varopt/kiwaki_runs.R rbm500_cd1 10000 LINEAR 1 1000
$R bench/varopt/kiwaki_runs.R rbm500_cd1 10000 VAROPT 1 1000
# 16. PCD(500) at K = 10^4 (coordinator, end of session; the two runs in parallel on an idle machine)
$R bench/varopt/kiwaki_runs.R rbm500_pcd 10000 LINEAR 1 1000
$R bench/varopt/kiwaki_runs.R rbm500_pcd 10000 VAROPT 1 1000
