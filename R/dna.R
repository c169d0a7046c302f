#' DNA splice-junction sequences as 180 binary features (StatLog "dna")
#'
#' The StatLog DNA data: 3,186 primate splice-junction gene sequences, each
#' encoded as 180 binary indicator variables, with their class. It is the
#' "dna" data on which Carlson et al. (2016, Section 4.4, Figure 5) train a
#' 500-hidden-unit RBM and track its training and validation log-likelihood.
#'
#' @format A list with three elements:
#' \describe{
#'   \item{`x`}{integer matrix, 3186 x 180, entries 0/1, one sequence per row.}
#'   \item{`y`}{factor of length 3186, the class: `"ei"` (exon-intron
#'     boundary), `"ie"` (intron-exon) or `"n"` (neither).}
#'   \item{`split`}{factor of length 3186, `"train"` (2,000 rows, drawn once
#'     at random) or `"validation"` (the other 1,186), StatLog's sizes.}
#' }
#' @source The suggested package \pkg{mlbench} (`mlbench::DNA`), which holds
#'   the StatLog version of the UCI "Molecular Biology (Splice-junction Gene
#'   Sequences)" data. Built by `data-raw/dna.R` in the package sources.
#' @references Carlson, D. E., Stinson, P., Pakman, A. and Paninski, L. (2016).
#'   Partition functions from Rao-Blackwellized tempered sampling. ICML.
#' @examples
#' dim(dna$x)
#' table(dna$y, dna$split)
#' colMeans(dna$x[dna$split == "train", 1:6])
"dna"
