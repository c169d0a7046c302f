# Integer codes that R and C both read, by name: each vector mirrors an enum of
# src/logz.h or src/mip.h (the comment above it names which), and the R wrapper
# of a routine passes `CODE[["name"]]`, never a bare number.

# How the AIS engine forms the products W'v and W h (enum logz_ais_kernel in
# src/logz.h): see the `kernel` argument of ais().
AIS_KERNEL <- c(auto = 0L, dense = 1L, sparse = 2L)

# The sequences of the C particle store (enum logz_arm_model in src/logz.h).
ARM_MODEL <- c(gpc = 1L, ising = 2L, rbm = 3L)

# The searches of astar_sample() (enum logz_astar_search in src/logz.h).
ASTAR_SEARCH <- c(astar = 0L, drill_down = 1L)

# How the baselines refine their bound (enum logz_os_refine in src/logz.h):
# rejection sampling keeps the global bound, OS* splits at the rejected point
# or the piece of largest bound mass.
OS_REFINE <- c(none = 0L, sampled_point = 1L, largest_mass = 2L)

# The region bounds of the "gaussian_mean" model (enum logz_gauss_bound in src/logz.h).
GAUSS_BOUND <- c(constant = 0L, linear = 1L, quadratic = 2L)

# The log-likelihood of a target: an R function or a built-in C model (enum
# logz_astar_model in src/logz.h).
ASTAR_MODEL <- c(r = 0L, peaky = 1L, clutter = 2L, cauchy_regression = 3L, expr = 4L,
                  gaussian_mean = 5L)

# Kernel codes read by C (LOGZ_KERNEL_* in src/logz.h); kernels are named in R.
CONT_KERNEL <- c(rwm = 1L, mala = 2L, hmc = 3L)

# The opcodes of a compiled program (enum logz_op in src/logz.h).
INTERVAL_OP <- c(const = 1L, var = 2L, col = 3L, "+" = 4L, "-" = 5L, "*" = 6L, "/" = 7L,
                  neg = 8L, powi = 9L, powr = 10L, pow = 11L, exp = 12L, log = 13L, sqrt = 14L,
                  abs = 15L, sin = 16L, cos = 17L, tanh = 18L, sum = 19L)

# What the exact engines return besides log Z (enum logz_marginals in
# src/logz.h): nothing, P(x_i = hi) (`node`), or also P(x_i = x_j = hi) for
# every edge (`pair`).
MARGINALS <- c(none = 0L, node = 1L, pair = 2L)

# The enums mip_kind, mip_branching, mip_share and mip_triangle of src/mip.h.
#
# A problem's kind: pairwise tables or a linear objective under constraints.
MIP_KIND <- c(pairwise = 0L, linear = 1L)

# The branching rule (`branching` of mip_sample()).
MIP_BRANCHING <- c(auto = 0L, most_fractional = 1L, first = 2L)

# How threads share the searches of one call: not at all, idle threads join
# running searches, or every thread joins each sample in turn (tests).
MIP_SHARE <- c(none = 0L, idle = 1L, forced = 2L)

# The triangle bound beside roof duality (src/mip_tri.c): off or on.
MIP_TRIANGLE <- c(off = 0L, on = 1L)

# The distribution family of each dimension (enum logz_prop_family in src/logz.h).
PROP_FAMILY <- c(uniform = 1L, normal = 2L, exponential = 3L, cauchy = 4L, student = 5L)

# The layer of an RBM that rbm_exact_log_z() enumerates (enum logz_rbm_layer in
# src/logz.h); the other is summed out in closed form.
RBM_LAYER <- c(hidden = 0L, visible = 1L)

# The statistics accumulated per temperature and chain: names of the middle
# dimension of a run's K x 6 x M array `acc` (enum logz_rts_stat in
# src/logz.h, whose 0-based positions these values are). Per chain c and
# temperature k, over the sweeps i of the run:
#   sum_q     sum_i q(k | x_i)                     (c_hat_k, Eq. 9)
#   sum_q_d   sum_i q(k | x_i) D_k(x_i)            (TI-RB, Eq. 21)
#   n         #{i : k_i = k}                       (TS counts, TI bins)
#   sum_d     sum_{i: k_i = k} D_k(x_i)            (TI)
#   sum_d_sq  sum_{i: k_i = k} D_k(x_i)^2          (TI, Friel's correction)
#   sum_d2    sum_{i: k_i = k} D2_k(x_i)           (TI, Friel's correction)
# with D_k = d log f_beta(x) / d beta at beta_k and D2_k its second derivative.
RTS_STAT <- c(sum_q = 0L, sum_q_d = 1L, n = 2L, sum_d = 3L, sum_d_sq = 4L, sum_d2 = 5L)
