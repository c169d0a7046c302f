# The R/C contract: the integer codes of the C enums that R mirrors in named
# constants (AIS_KERNEL, RBM_LAYER, ...), as the compiled code defines them.
# Returns a named list of named integer vectors, one per R constant; the
# contract test compares each with the constant of the same name.
c_codes <- function() .Call(C_logz_codes)
