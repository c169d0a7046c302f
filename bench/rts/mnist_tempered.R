# The dna experiment of bench/rts/dna_tempered.R (Carlson et al. 2016, Section 4.4) on MNIST:
# a 784 x 500 RBM on the bundled digits (rows 1-8,000 train, 8,001-10,000 validation; at most
# 2,000 rows each for the mean log-likelihoods), 5 epochs of CD-1 pretraining, then training on persistent simulated-
# tempering chains (rbm_train(method = "tempered"), RMSspectral, step 1e-5, lambda 0.99,
# K = 100, prior r_k proportional to exp(2 beta_k), partial update alpha = 0.2) with the
# train / validation log-likelihood tracked from the same chains after every update.
# Sized to a shared 2-core machine: MNIST_CHAINS chains (default 500; the paper 2,000) x
# MNIST_SWEEPS sweeps (default 10; the paper 25) between updates, MNIST_EPOCHS epochs of
# 100-row batches (default 10, 200 updates; the paper about 8,000 iterations).
# Checkpoints (every MNIST_KEEP updates): log Z by AIS with 100 chains and MNIST_AIS_STEPS
# temperatures (default 10^4, the paper's check; linear schedule, base rate of the data)
# and by rts() run alone (defaults, 2 threads), against the tracked value.
# CPU: the same tempered training with and without tracking (log-likelihoods after every
# update, or every 5), from the same start and seed, MNIST_CPU_EPOCHS epochs each, interleaved,
# MNIST_CPU_REPS repeats, at MNIST_CPU_CHAINS chains x MNIST_CPU_SWEEPS sweeps (default: the run's).
# Outputs: bench/rts/mnist_tempered<MNIST_TAG>_{track,checks,cpu}.csv (MNIST_TAG default empty).
# Run: OMP_WAIT_POLICY=PASSIVE nohup Rscript bench/rts/mnist_tempered.R > bench/rts/mnist_tempered.out 2>&1 &
source("bench/rts/tempered_common.R")
x <- mnist$x[1:8000, ]
xv <- mnist$x[8001:10000, ]
run_tempered("mnist", x, xv, pre_epochs = 5L, ll_rows = 2000)
