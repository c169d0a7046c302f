# Strongly connected components of a directed graph (Tarjan), for the layer and
# call-cycle checks of tools/: `calls` is a named list, calls[[v]] the nodes v
# points to; returns the components as a list of character vectors (a component
# of more than one node holds a cycle).
strongly_connected <- function(nodes, calls) {
  index <- setNames(rep(NA_integer_, length(nodes)), nodes); low <- index
  stack <- character(0); onstack <- character(0); counter <- 0L; comps <- list()
  visit <- function(v) {
    counter <<- counter + 1L
    index[v] <<- counter; low[v] <<- counter
    stack <<- c(stack, v); onstack <<- c(onstack, v)
    for (w in calls[[v]]) {
      if (is.na(index[w])) {
        visit(w)
        low[v] <<- min(low[v], low[w])
      } else if (w %in% onstack) low[v] <<- min(low[v], index[w])
    }
    if (low[v] == index[v]) {
      k <- match(v, stack)
      comp <- stack[k:length(stack)]
      stack <<- stack[seq_len(k - 1L)]
      onstack <<- setdiff(onstack, comp)
      comps[[length(comps) + 1L]] <<- comp
    }
  }
  for (v in nodes) if (is.na(index[v])) visit(v)
  comps
}
