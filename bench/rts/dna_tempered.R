# Carlson et al. 2016, Section 4.4 / Figure 5: a 180 x 500 RBM on the dna data (our 2,000 /
# 1,186 train / validation split), CD-1 pretraining, then training on persistent simulated-
# tempering chains (rbm_train(method = "tempered"), RMSspectral, step 1e-5, lambda 0.99,
# K = 100, prior r_k proportional to exp(2 beta_k), partial update alpha = 0.2) with the
# train / validation log-likelihood tracked from the same chains after every update.
# Sized to a shared 2-core machine: DNA_CHAINS chains (default 500; the paper 2,000) x
# DNA_SWEEPS sweeps (default 10; the paper 25) between updates, DNA_EPOCHS epochs of
# 100-row batches (default 10, 200 updates; the paper about 8,000 iterations).
# Checkpoints (every DNA_KEEP updates): log Z by AIS with 100 chains and DNA_AIS_STEPS
# temperatures (default 10^4, the paper's check; linear schedule, base rate of the data)
# and by rts() run alone (defaults, 2 threads), against the tracked value.
# CPU: the same tempered training with and without tracking (log-likelihoods after every
# update, or every 5), from the same start and seed, DNA_CPU_EPOCHS epochs each, interleaved,
# DNA_CPU_REPS repeats, at DNA_CPU_CHAINS chains x DNA_CPU_SWEEPS sweeps (default: the run's).
# Outputs: bench/rts/dna_tempered<DNA_TAG>_{track,checks,cpu}.csv (DNA_TAG default empty).
# Run: OMP_WAIT_POLICY=PASSIVE nohup Rscript bench/rts/dna_tempered.R > bench/rts/dna_tempered.out 2>&1 &
source("bench/rts/tempered_common.R")
x <- dna$x[dna$split == "train", ]
xv <- dna$x[dna$split == "validation", ]
run_tempered("dna", x, xv, pre_epochs = 20L)
