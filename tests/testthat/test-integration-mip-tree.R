# GumbelMIP with the tree proposal (mip_sample(proposal = "tree")):
# q is the model on a maximum spanning forest of its couplings (R/mip_proposal.R),
# log q(region) and the conditional draws by sum-product on the forest
# (src/mip_tree.c). Checked: log q of partial assignments and the conditional
# draws against enumeration; exact samples (chi-square) with the min cut, GLPK,
# on forests and with threads; a tree model is exact at the root; seeds.
# (mip_enumerate() and mip_chisq() are in helper-mip.R)

# log q(s) of every configuration of the problem's tree proposal, by brute force
tree_q_enum <- function(en, tq) {
  p <- en$p
  e <- tq$edges
  sub <- p
  sub$from <- p$from[e]
  sub$to <- p$to[e]
  sub$edge <- p$edge[, e, drop = FALSE]
  lw <- logz:::mip_value(sub, en$S)
  lw - log(sum(exp(lw)))
}

test_that("the tree q: spanning forest, log q of partial assignments, conditional draws", {
  set.seed(1)
  loopy <- ising_random(8, n_edges = 14, coupling = 1.5, field = 1, type = "mixed")
  set.seed(2)
  forest <- ising(data.frame(from = c(1, 1, 2, 5, 6), to = c(2, 3, 4, 6, 7),
                             weight = stats::runif(5, -1.5, 1.5)),
                  field = stats::runif(8, -1, 1), n = 8)
  r <- rbm(matrix(c(1, -0.5, 0.8, 0.3, -1, 0.6), 3), a = c(0.2, -0.3, 0.1), b = c(-0.2, 0.4))
  # general edge tables (t01 != t10: the orientation of each edge matters)
  set.seed(3)
  gen <- logz:::pairwise_problem(7, c(1, 2, 2, 4, 5, 1, 3), c(2, 3, 4, 5, 6, 6, 7),
                                 matrix(stats::runif(14, -1, 1), 2),
                                 matrix(stats::runif(28, -1.5, 1.5), 4))
  for (m in list(loopy, forest, r, gen)) {
    en <- mip_enumerate(m)
    p <- en$p
    tq <- logz:::mip_tree_proposal(p)
    # a spanning forest: n - (number of components) edges, the largest |b| kept
    b <- abs(p$edge[4, ] - p$edge[3, ] - p$edge[2, ] + p$edge[1, ])
    g <- split(c(p$to, p$from), factor(c(p$from, p$to), levels = seq_len(p$n)))
    comp <- rep(0L, p$n)
    for (i in seq_len(p$n)) if (!comp[i]) {
      stack <- i
      while (length(stack)) {
        j <- stack[1]
        stack <- stack[-1]
        if (comp[j]) next
        comp[j] <- i
        stack <- c(stack, g[[j]])
      }
    }
    expect_length(tq$edges, p$n - length(unique(comp)))
    # maximum: every other edge is no stronger than each tree edge on the
    # forest path between its ends (the cycle property); every variable
    # after its parent in the order
    par <- tq$parent + 1L
    pos <- match(seq_len(p$n), tq$order + 1L)
    expect_true(all(par < 1 | pos[pmax(par, 1L)] < pos))
    bt <- function(i) {            # |b| of the tree edge between i and its parent
      e <- tq$edges[(p$from[tq$edges] == i & p$to[tq$edges] == par[i]) |
                      (p$to[tq$edges] == i & p$from[tq$edges] == par[i])]
      b[e[1]]
    }
    up <- function(i) { r <- i; while (par[i] > 0) { i <- par[i]; r <- c(r, i) }; r }
    for (e in setdiff(seq_along(b), tq$edges)) {
      u <- up(p$from[e])
      w <- up(p$to[e])
      lca <- u[u %in% w][1]
      path <- c(u[seq_len(match(lca, u) - 1)], w[seq_len(match(lca, w) - 1)])
      expect_true(all(b[e] <= vapply(path, bt, 0) + 1e-12))
    }
    lq <- tree_q_enum(en, tq)
    expect_equal(tq$logz, log(sum(exp(lq + tq$logz))), tolerance = 1e-12)
    fix <- matrix(NA_integer_, p$n, 40)
    for (k in 2:40) {
      j <- sample(p$n, sample(0:(p$n - 1), 1))
      fix[j, k] <- sample(0:1, length(j), TRUE)
    }
    truth <- apply(fix, 2, function(f) {
      ok <- rowSums(en$S != rep(f, each = nrow(en$S)) & !is.na(rep(f, each = nrow(en$S)))) == 0
      log(sum(exp(lq[ok])))
    })
    expect_equal(logz:::mip_tree_logq(tq, fix, draw = FALSE)$logq, truth, tolerance = 1e-10)
    # draws given the evidence: the fixed values kept, the rest q-conditional
    f <- rep(NA_integer_, p$n)
    f[c(2, 5)] <- c(1L, 0L)
    d <- logz:::mip_tree_logq(tq, matrix(f, p$n, 3000))$states
    expect_true(all(d[2, ] == 1L & d[5, ] == 0L))
    ok <- en$S[, 2] == 1 & en$S[, 5] == 0
    cond <- list(S = en$S[ok, ], v = lq[ok])
    expect_gt(mip_chisq(t(d), cond), 1e-3)
  }
})

test_that("the tree proposal samples exactly: min cut, GLPK, forest, rbm, threads", {
  set.seed(21)
  att <- ising_clique(7, coupling = 0.8, field = 0.8)
  set.seed(22)
  mixed <- ising_clique(6, coupling = 1, field = 0.7, type = "mixed")
  set.seed(23)
  grid <- ising_grid(3, 3, coupling = 1, field = 0.5)
  set.seed(24)
  forest <- ising(data.frame(from = c(1, 1, 2, 5, 6, 6), to = c(2, 3, 4, 6, 7, 8),
                             weight = stats::runif(6, -1.5, 1.5)),
                  field = stats::runif(9, -1, 1), n = 9)
  r <- rbm(matrix(c(1, -0.5, 0.8, 0.3, -1, 0.6), 3), a = c(0.2, -0.3, 0.1), b = c(-0.2, 0.4))
  set.seed(25)          # general tables on a tree (t01 != t10) and on a loopy graph
  gtree <- logz:::pairwise_problem(8, c(1, 1, 2, 3, 3, 6, 5), c(2, 3, 4, 5, 6, 7, 8),
                                   matrix(stats::runif(16, -1, 1), 2),
                                   matrix(stats::runif(28, -1.5, 1.5), 4))
  gloop <- logz:::pairwise_problem(7, c(1, 2, 2, 4, 5, 1, 3), c(2, 3, 4, 5, 6, 6, 7),
                                   matrix(stats::runif(14, -1, 1), 2),
                                   matrix(stats::runif(28, -1.5, 1.5), 4))
  cases <- list(list(att, "cut"), list(att, "glpk"), list(grid, "auto"), list(mixed, "glpk"),
                list(forest, "auto"), list(r, "auto"), list(gtree, "auto"), list(gloop, "auto"))
  for (k in seq_along(cases)) {
    m <- cases[[k]][[1]]
    ls <- cases[[k]][[2]]
    p <- logz:::mip_problem(m)
    needs_glpk <- ls == "glpk" ||
      (ls == "auto" && !logz:::mip_attractive(logz:::mip_apply_tree(p, logz:::mip_tree_proposal(p))))
    if (needs_glpk && !logz_has_glpk()) next
    en <- mip_enumerate(m)
    set.seed(200 + k)
    s <- mip_sample(m, 2500, proposal = "tree", lp_solver = ls, progress = FALSE)
    expect_true(all(s$exact))
    expect_equal(s$value, s$upper)
    S01 <- if (inherits(m, "ising")) (s$states + 1) / 2 else s$states
    expect_gt(mip_chisq(S01, en), 1e-3, label = sprintf("chi-square p of case %d (%s)", k, ls))
    expect_lt(abs(s$log_z - log(sum(exp(en$v)))), 4 * s$se)
  }
  # two threads: the same samples as one thread, and exact (depth first too)
  en <- mip_enumerate(att)
  set.seed(31)
  a <- mip_sample(att, 2500, proposal = "tree", threads = 2, node_selection = "depth_first",
                  progress = FALSE)
  expect_gt(mip_chisq((a$states + 1) / 2, en), 1e-3)
  set.seed(32)
  a <- mip_sample(att, 20, proposal = "tree", threads = 1, progress = FALSE)
  set.seed(32)
  b <- mip_sample(att, 20, proposal = "tree", threads = 2, progress = FALSE)
  expect_identical(a$states, b$states)
  expect_identical(a$value, b$value)
  # and the same under set.seed() (and different from another seed)
  set.seed(32)
  d <- mip_sample(att, 20, proposal = "tree", progress = FALSE)
  expect_identical(a$states, d$states)
  expect_identical(a$nodes, d$nodes)
  set.seed(33)
  e <- mip_sample(att, 20, proposal = "tree", progress = FALSE)
  expect_false(identical(a$value, e$value))
})

test_that("a tree model is exact at the root: q is the model, the search is one node", {
  set.seed(41)
  n <- 300
  tr <- ising(data.frame(from = c(1L, vapply(2:(n - 1), function(i) sample.int(i, 1), 1L)),
                         to = 2:n, weight = stats::runif(n - 1, -2, 2)),
              field = stats::runif(n, -2, 2))
  set.seed(42)
  s <- mip_sample(tr, 400, proposal = "tree", threads = 2, progress = FALSE)
  expect_true(all(s$exact))
  expect_true(all(s$nodes == 1))
  expect_match(s$method, "min cut")    # no edge left to search: attractive, threads allowed
  lz <- exact_log_z(tr)
  expect_lt(abs(s$log_z - lz), 4 * s$se)
  # the samples are the model's: each variable's count of +1 against the exact
  # marginal by a binomial test, Bonferroni over the 300 variables
  mg <- exact_marginals(tr, progress = FALSE)$node
  k <- colSums(s$states == 1)
  pv <- vapply(seq_len(n), function(i) stats::binom.test(k[i], 400, mg[i])$p.value, 0)
  expect_gt(min(pv) * n, 1e-3)
})

test_that("early stopping with the tree proposal: upper >= value, Theorem 2 covers log Z", {
  set.seed(51)
  g <- ising_grid(4, 4, coupling = 0.5, field = 1)
  lz <- exact_log_z(g)
  set.seed(52)
  s <- suppressWarnings(mip_sample(g, 300, node_limit = 3, proposal = "tree", progress = FALSE))
  expect_true(all(s$upper >= s$value))
  expect_true(all(s$rank_bound >= 1))
  b <- log_z_bounds(s, delta = 0.05)
  expect_lte(b$lower, lz)
  expect_gte(b$upper, lz)
})

test_that("the tree proposal of a constrained binary program is uniform; bad names are errors", {
  mm <- mip_model(c(1, -0.5, 0.7, 0.2, -1), A = rbind(c(1, 1, 1, 0, 0), c(0, 1, 0, 1, 1)),
                  b = c(2, 2))
  skip_if_no_glpk()
  set.seed(61)
  a <- mip_sample(mm, 5, proposal = "tree", progress = FALSE)
  set.seed(61)
  b <- mip_sample(mm, 5, progress = FALSE)
  expect_identical(a$states, b$states)
  expect_error(mip_sample(ising_clique(4), 1, proposal = "trees"), "proposal")
  expect_error(mip_sample(ising_clique(4), 1, proposal = list(type = "tree")), "proposal")
})
