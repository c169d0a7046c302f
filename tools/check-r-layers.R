#!/usr/bin/env Rscript
# The R side's floor plan: every file of R/ belongs to one layer (the table
# below), and a file calls only into its own layer or below:
#
#   1 core          errors, argument and boundary checks, codes shared with C,
#                   the estimate class and its flags, interrupts, progress
#   2 models        constructors beside their validators
#   3 engines       the only `.Call` sites, and the R drivers around them
#   4 verbs         generics and their methods (one file per verb family)
#   5 presentation  print, summary, plot, autoplot, interop
#
# The script parses R/ (no package needs to be installed), finds the free
# names of every top-level definition (codetools::findGlobals on functions, so
# a local variable that shadows a function is no reference), draws an edge
# from a definition to every definition of the package it names, and fails
# (exit 1) naming file, function and callee when
#   * a file calls a file of a higher layer,
#   * files call each other in a cycle (in any layer), other than the
#     same-layer recursions declared in CYCLES_OK,
#   * a file is missing from the table or the table names a file that is gone,
#   * `.Call` appears outside the engine layer,
#   * a file has more than MAX_LINES lines.
# `--self-test` first plants problems of each kind in a copy of R/ and fails
# unless each is reported.
# Base R and codetools only.
#
# Usage: Rscript tools/check-r-layers.R [--self-test] [R-dir]
#        Rscript tools/check-r-layers.R --graph [R-dir]   (also prints the file graph)

LAYERS <- c("core", "models", "engines", "verbs", "presentation")

FILES <- list(
  core = c("logz-package.R", "mnist.R", "dna.R", "utils.R", "codes.R", "call_checks.R", "progress.R",
           "logz_exact.R", "reliability.R", "estimate.R"),
  models = c("ising_input.R", "ising.R", "rbm.R", "gpc.R", "proposal.R", "interval.R",
             "astar_models.R", "astar_target.R", "continuous_target.R", "bounded_target.R", "laplace.R", "bayes_model.R",
             "schedule.R", "validate.R", "rbm_optimizer.R"),
  engines = c("contract.R", "kernels.R", "rng.R", "gumbel.R", "scale.R", "junction_tree.R", "cont_kernel.R",
              "exact_engine.R", "ais_engine.R", "ising_engine.R", "ep_log_z.R", "gpc_engine.R",
              "raise_engine.R", "astar_engine.R", "mip_problem.R", "mip_glpk.R", "mip_engine.R",
              "base_check.R", "base.R",
              "rts_engine.R", "rts_estimators.R", "rts_groups.R", "rts_final.R",
              "arm_engine.R", "arm_fresh.R",
              "smc_base.R", "smc_engine.R", "smc_modes.R", "smc_paths.R", "smc_bridge.R", "smc_replicates.R",
              "stan.R", "rbm_train_engine.R", "rbm_tempered_engine.R"),
  verbs = c("exact.R", "free_energy.R", "log_likelihood.R", "gibbs_sample.R", "ais.R", "ais_function.R",
            "raise.R", "rts.R", "arm.R", "smc.R", "smc_run.R", "astar.R", "mip.R", "mip_proposal.R", "mip_baselines.R",
            "schedule_pilot.R", "schedule_ising.R", "schedule_gms13.R", "schedule_varopt.R",
            "rbm_train_eval.R", "rts_track.R", "rbm_tempered.R", "rbm_train.R", "log_partition.R"),
  presentation = c("print.R", "summary.R", "plot_legend.R", "plot.R", "plot_samples.R",
                   "autoplot.R", "autoplot_samples.R", "interop.R", "interop_draws.R",
                   "interop_bridge.R")
)

# Files of one layer that call each other by design (a mutual recursion that a
# split would only hide); any other cycle fails, so this list can only shrink.
CYCLES_OK <- list(
  # the ais() family: ais.rbm() without a schedule runs schedule_pilot(), whose pilot
  # is an ais() run; ais.gpc(kernel = "hmc") runs ais.function(); ais.stanfit() calls ais()
  c("ais.R", "ais_function.R", "schedule_pilot.R"),
  # astar_target("name") builds a built-in model, and the built-ins are astar_target()s
  c("astar_models.R", "astar_target.R")
)

# The longest file allowed.
MAX_LINES <- 600L

# The one C routine core may call: the interrupt check that every long R loop uses.
CALL_IN_CORE <- "check_interrupt"

# Every problem of the R files in `rdir`, as lines of text (none: the plan holds).
check_layers <- function(rdir, show_graph = FALSE) {
  layer_of <- unlist(lapply(names(FILES), function(l) setNames(rep(l, length(FILES[[l]])), FILES[[l]])))
  rank_of <- function(f) match(layer_of[f], LAYERS)
  files <- sort(list.files(rdir, pattern = "\\.[Rr]$"))
  problems <- character(0)
  problem <- function(...) problems <<- c(problems, sprintf(...))
  for (f in files) {
    n <- length(readLines(file.path(rdir, f), warn = FALSE))
    if (n > MAX_LINES) problem("%s: %d lines (at most %d)", f, n, MAX_LINES)
  }

  for (f in setdiff(files, names(layer_of))) problem("%s: in no layer (add it to the table in tools/check-r-layers.R)", f)
  for (f in setdiff(names(layer_of), files)) problem("%s: in the table but not in %s/", f, rdir)
  dup <- names(layer_of)[duplicated(names(layer_of))]
  for (f in dup) problem("%s: in more than one layer", f)

  # Top-level definitions and their free names.
  is_assign <- function(e) is.call(e) && (identical(e[[1]], as.name("<-")) || identical(e[[1]], as.name("="))) &&
    (is.name(e[[2]]) || is.character(e[[2]]))
  defs <- list()      # one row per definition: file, name, names it refers to, whether it uses .Call
  for (f in files) {
    exprs <- parse(file.path(rdir, f), keep.source = FALSE)
    for (e in exprs) {
      if (is_assign(e)) {
        name <- as.character(e[[2]])
        value <- e[[3]]
        if (is.call(value) && identical(value[[1]], as.name("function"))) {
          fun <- eval(value, baseenv())
          refs <- codetools::findGlobals(fun, merge = TRUE)
        } else refs <- all.names(value)
      } else {
        name <- "(top level)"
        refs <- all.names(e)
      }
      calls_c <- ".Call" %in% all.names(e)
      defs[[length(defs) + 1L]] <- list(file = f, name = name, refs = unique(refs), calls_c = calls_c)
    }
  }
  def_file <- list()
  for (d in defs) if (d$name != "(top level)") def_file[[d$name]] <- c(def_file[[d$name]], d$file)
  twice <- Filter(function(x) length(x) > 1L, def_file)
  for (n in names(twice)) problem("%s: defined in more than one file (%s)", n, paste(twice[[n]], collapse = ", "))
  owner <- vapply(def_file, `[`, "", 1L)

  edges <- do.call(rbind, lapply(defs, function(d) {
    to <- setdiff(intersect(d$refs, names(owner)), d$name)
    if (!length(to)) return(NULL)
    data.frame(from_file = d$file, from = d$name, to = to, to_file = unname(owner[to]),
               stringsAsFactors = FALSE)
  }))
  edges <- edges[edges$from_file != edges$to_file, , drop = FALSE]

  # .Call only in the engine layer.
  for (d in defs) if (d$calls_c && !identical(unname(layer_of[d$file]), "engines") &&
                     !(layer_of[d$file] == "core" && d$name %in% CALL_IN_CORE))
    problem("%s: %s calls .Call but the file is in layer '%s' (only engines call C)", d$file, d$name, layer_of[d$file])

  # Upward calls.
  known <- edges$from_file %in% names(layer_of) & edges$to_file %in% names(layer_of)
  up <- edges[known & rank_of(edges$from_file) < rank_of(edges$to_file), , drop = FALSE]
  for (i in seq_len(nrow(up)))
    problem("%s (%s): %s calls %s in %s (%s): an upward call", up$from_file[i], layer_of[up$from_file[i]],
            up$from[i], up$to[i], up$to_file[i], layer_of[up$to_file[i]])

  # Cycles between files (Tarjan's strongly connected components).
  fe <- unique(edges[, c("from_file", "to_file")])
  calls <- split(fe$to_file, factor(fe$from_file, levels = files))
  comps <- strongly_connected(files, calls)
  why <- function(a, b) {
    x <- edges[edges$from_file == a & edges$to_file == b, ]
    paste(sprintf("%s -> %s", x$from, x$to), collapse = ", ")
  }
  allowed <- function(cmp) any(vapply(CYCLES_OK, function(ok) setequal(ok, cmp), NA))
  for (cmp in Filter(function(x) length(x) > 1L, comps)) {
    if (allowed(cmp)) next
    path <- cmp[1]
    repeat {
      nxt <- intersect(calls[[path[length(path)]]], cmp)[1]
      if (nxt %in% path) break
      path <- c(path, nxt)
    }
    cyc <- c(path[match(nxt, path):length(path)], nxt)
    problem("files call each other in a cycle: %s", paste(sort(cmp), collapse = " "))
    for (i in seq_len(length(cyc) - 1L))
      problems <- c(problems, sprintf("    %s -> %s (%s)", cyc[i], cyc[i + 1L], why(cyc[i], cyc[i + 1L])))
  }

  if (show_graph) {
    for (f in files) {
      x <- edges[edges$from_file == f, ]
      if (!nrow(x)) next
      cat(sprintf("%s [%s]\n", f, layer_of[f]))
      for (t in unique(x$to_file))
        cat(sprintf("    -> %s [%s]: %s\n", t, layer_of[t], paste(unique(x$to[x$to_file == t]), collapse = " ")))
    }
  }
  list(problems = problems, files = length(files), edges = nrow(fe))
}

# A check must be able to fail: plant an upward call, a .Call outside the
# engines, a cycle between two files of one layer and a file in no layer in a
# copy of R/, and require each to be reported.
self_test <- function(rdir) {
  tmp <- file.path(tempfile("check-r-layers-"), "R")
  dir.create(tmp, recursive = TRUE)
  file.copy(list.files(rdir, full.names = TRUE), tmp)
  plant <- function(file, code) cat("\n", code, "\n", file = file.path(tmp, file), append = TRUE, sep = "")
  plant("utils.R", "planted_upward <- function(model) ais(model)")
  plant("ais.R", "planted_call <- function() .Call(C_check_interrupt)")
  plant("print.R", "planted_ping <- function() planted_pong()")
  plant("summary.R", "planted_pong <- function() planted_ping()")
  plant("planted_nowhere.R", "planted_alone <- function() NULL")
  got <- check_layers(tmp)$problems
  want <- c("utils.R \\(core\\): planted_upward calls ais in ais.R \\(verbs\\): an upward call",
            "ais.R: planted_call calls .Call but the file is in layer 'verbs'",
            "files call each other in a cycle: print.R summary.R",
            "planted_nowhere.R: in no layer")
  missed <- want[!vapply(want, function(w) any(grepl(w, got)), NA)]
  unlink(dirname(tmp), recursive = TRUE)
  if (length(missed)) {
    cat("check-r-layers --self-test: planted problems not reported:\n", paste0("  ", missed, "\n"), sep = "")
    quit(status = 1)
  }
  cat(sprintf("check-r-layers --self-test: the %d planted problems are reported\n", length(want)))
}

tools_dir <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1]))
source(file.path(tools_dir, "scc.R"))   # strongly_connected()
args <- commandArgs(trailingOnly = TRUE)
show_graph <- "--graph" %in% args
run_self_test <- "--self-test" %in% args
args <- setdiff(args, c("--graph", "--self-test"))
rdir <- if (length(args)) args[1] else "R"
if (run_self_test) self_test(rdir)
res <- check_layers(rdir, show_graph)
problems <- res$problems

if (length(problems)) {
  cat(sprintf("check-r-layers: %d problem(s) in %s/:\n", sum(!startsWith(problems, "    ")), rdir))
  cat(paste0("  ", problems), sep = "\n")
  quit(status = 1)
}
cat(sprintf("check-r-layers: %d files in %d layers, %d file-to-file references, none upward, no cycle\n",
            res$files, length(LAYERS), res$edges))
