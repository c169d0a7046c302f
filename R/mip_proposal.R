# GumbelMIP with a proposal (A* sampling's base measure, Maddison, Tarlow & Minka
# 2014, Sec. 3-4, in the discrete setting of Kim, Sabharwal & Ermon 2016): the
# fully factorised q(s) = prod_i q_i(s_i) of mip_sample(proposal =).
#
# With o(s) = v(s) - log q(s) and a Gumbel process of base measure q (the
# Gumbel of a set B of configurations has location log q(B)), the argmax of
# o(s) + G(s) is distributed as exp(v(s)) / Z and the max is Gumbel(log Z), for
# any q with full support. -log q only adds to the unaries, so the search, the
# LP and min-cut bounds (on o) and attractiveness are unchanged; the search
# draws the root's sigma from q, the other child's Gumbel with location
# log q(child) (the product of q over its fixed variables) and its sigma's free
# variables from q (src/mip_search.c). q_i = 1/2 is the paper's Algorithm 1
# (o = v + n log 2): `proposal = "uniform"` runs that path unchanged.
# `proposal = "tree"` is not factorised: q is the model restricted to
# a maximum spanning forest of its couplings (mip_tree_proposal(); sum-product
# and sampling on it in src/mip_tree.c), and o keeps only the other edges.

# Smallest q_i (and 1 - q_i) the built-in proposals use: a confident but wrong
# q_i costs search (its side's o is raised by -log q_i), never exactness.
mip_proposal_floor <- 0.02

# The proposal of mip_sample(): NULL (uniform, the paper's algorithm) or the
# vector q_i = P(s_i = 1) in (0, 1), for the problem p of `model`.
mip_proposal <- function(proposal, p, model) {
  if (is.numeric(proposal) && !is.object(proposal)) {
    if (length(proposal) != p$n || anyNA(proposal) || any(!is.finite(proposal)) ||
          any(proposal <= 0 | proposal >= 1))
      stop_no_call(sprintf(paste0("`proposal` must be \"uniform\", \"mean_field\", \"marginals\", ",
                                  "\"tree\" or a numeric vector of %d probabilities P(x_i = %s) strictly inside ",
                                  "(0, 1), not %s."), p$n, format(p$values[2]), describe(proposal)))
    return(as.double(proposal))
  }
  if (!is.character(proposal) || length(proposal) < 1L)
    stop_no_call(sprintf(paste0("`proposal` must be \"uniform\", \"mean_field\", \"marginals\", ",
                                "\"tree\" or a numeric vector of probabilities, not %s."),
                         describe(proposal)))
  proposal <- match_arg(proposal, "proposal", c("uniform", "mean_field", "marginals", "tree"))
  clamp <- function(q) pmin(pmax(q, mip_proposal_floor), 1 - mip_proposal_floor)
  switch(proposal,
    uniform = NULL,
    tree = if (p$kind == MIP_KIND[["pairwise"]]) mip_tree_proposal(p) else NULL,
    mean_field = if (p$kind == MIP_KIND[["pairwise"]]) clamp(mip_mean_field(p)) else NULL,
    marginals = {
      if (!inherits(model, "ising"))
        stop_no_call(sprintf(paste0("`proposal = \"marginals\"` needs an ising model (exact marginals ",
                                    "by exact_marginals()), not %s; use \"mean_field\"."),
                             paste(class(model), collapse = "/")))
      mg <- tryCatch(exact_marginals(model, progress = FALSE)$node, error = function(e)
        stop_no_call(paste("`proposal = \"marginals\"` needs exact marginals of `model`:",
                           conditionMessage(e))))
      clamp(unname(mg))
    })
}

# Naive mean field of a pairwise problem, v(s) = c0 + a's + sum_e b_e s_i s_j:
# q_i = plogis(a_i + sum_{e = (i, j)} b_e q_j), sequential (coordinate-ascent)
# sweeps from q = 1/2 until the largest change is below 1e-6 (at most 200
# sweeps; each sweep cannot lower the mean-field free energy).
mip_mean_field <- function(p) {
  n <- p$n
  t <- p$edge
  a <- p$node[2, ] - p$node[1, ]
  q <- rep(0.5, n)
  if (!length(p$from)) return(stats::plogis(a))
  a <- a + rowsum_to(p$from, t[3, ] - t[1, ], n) + rowsum_to(p$to, t[2, ] - t[1, ], n)
  b <- t[4, ] - t[3, ] - t[2, ] + t[1, ]
  # each variable's neighbours and couplings (edge lists: O(m) memory and work
  # per sweep, for sparse grids as for cliques)
  node <- c(p$from, p$to)
  nbr <- split(c(p$to, p$from), factor(node, levels = seq_len(n)))
  cpl <- split(c(b, b), factor(node, levels = seq_len(n)))
  for (sweep in seq_len(200L)) {
    change <- 0
    for (i in seq_len(n)) {
      qi <- stats::plogis(a[i] + sum(cpl[[i]] * q[nbr[[i]]]))
      change <- max(change, abs(qi - q[i]))
      q[i] <- qi
    }
    if (change < 1e-6) break
  }
  q
}

# ---- the tree proposal -------------------------------------------------------------

# The tree-structured q of a pairwise problem: the model restricted to a
# maximum spanning forest of its couplings |b_e|, b_e = t11 - t10 - t01 + t00
# (Kruskal), with the model's unaries and the forest edges' own tables:
#   log q(s) = sum_i node_i(s_i) + sum_{e in forest} edge_e(s) - log Z_q.
# Returns list(type = "tree", edges = the forest's edge indices, order, parent
# (0-based; every variable after its parent, -1 at the roots), th (2 x n), psi
# (4 x n: psi[2 c_parent + c_i + 1, i], 0 at the roots), logz = log Z_q).
mip_tree_proposal <- function(p) {
  n <- p$n
  m <- length(p$from)
  tab <- p$edge
  b <- if (m) tab[4, ] - tab[3, ] - tab[2, ] + tab[1, ] else numeric(0)
  # Kruskal: union-find with path halving, edges by decreasing |b| (ties by index)
  comp <- seq_len(n)
  find <- function(i) {
    while (comp[i] != i) {
      comp[i] <<- comp[comp[i]]
      i <- comp[i]
    }
    i
  }
  keep <- logical(m)
  for (e in order(-abs(b))) {
    r1 <- find(p$from[e])
    r2 <- find(p$to[e])
    if (r1 != r2) {
      comp[r1] <- r2
      keep[e] <- TRUE
    }
  }
  te <- which(keep)
  # orient the forest: breadth first from the smallest variable of each component
  ends <- c(p$from[te], p$to[te])
  nbr <- split(c(p$to[te], p$from[te]), factor(ends, levels = seq_len(n)))
  eid <- split(c(te, te), factor(ends, levels = seq_len(n)))
  parent <- rep(NA_integer_, n)
  pedge <- rep(NA_integer_, n)
  ord <- integer(n)
  k <- 0L
  for (r in seq_len(n)) {
    if (!is.na(parent[r])) next
    parent[r] <- 0L
    k <- k + 1L
    ord[k] <- r
    head <- k
    while (head <= k) {
      i <- ord[head]
      head <- head + 1L
      for (h in seq_along(nbr[[i]])) {
        j <- nbr[[i]][h]
        if (!is.na(parent[j])) next
        parent[j] <- i
        pedge[j] <- eid[[i]][h]
        k <- k + 1L
        ord[k] <- j
      }
    }
  }
  psi <- matrix(0, 4L, n)
  ch <- which(!is.na(pedge))
  if (length(ch)) {
    e <- pedge[ch]
    fwd <- p$from[e] == parent[ch]   # the table's first index is the parent's value
    t <- tab[, e, drop = FALSE]
    psi[, ch] <- ifelse(rep(fwd, each = 4L), t, t[c(1L, 3L, 2L, 4L), , drop = FALSE])
  }
  tree <- list(type = "tree", edges = te, order = as.integer(ord - 1L),
               parent = as.integer(parent - 1L), th = as.vector(p$node), psi = as.vector(psi),
               logz = 0)
  tree$logz <- mip_tree_logq(tree, matrix(NA_integer_, n, 1L), draw = FALSE)$logq
  tree
}
