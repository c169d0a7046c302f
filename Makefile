# logz: set-up, tests, checks and benchmarks. `make demo` and `make test` install
# whatever is missing first (see tools/install-deps.sh).
R ?= R
RSCRIPT ?= Rscript
PKG := logz
VERSION := $(shell sed -n 's/^Version: *//p' DESCRIPTION)
TARBALL := $(PKG)_$(VERSION).tar.gz

.PHONY: deps install document demo test check bench sanitize valgrind clean \
	bench-ais bench-varopt bench-rts bench-arm bench-astar bench-gumbelmip bench-scale bench-training site site-check check-cycles \
	check-layers

deps:
	bash tools/install-deps.sh

# Install from the built tarball so that the vignettes are built and installed
# (vignette(package = "logz") lists them). Without pandoc the vignettes cannot be
# built: the tarball is then built without them (and the package still installs).
install: deps
	rm -f $(TARBALL)
	$(R) CMD build --no-manual --no-resave-data . || \
		{ echo "building the vignettes failed: installing without them"; \
		  $(R) CMD build --no-manual --no-resave-data --no-build-vignettes .; }
	$(R) CMD INSTALL --preclean --no-multiarch $(TARBALL)

document:
	$(RSCRIPT) -e 'roxygen2::roxygenise(load_code = roxygen2::load_installed)'

demo: install
	LOGZ_DEMO_DIR=demo-output $(RSCRIPT) demo/mnist.R

test: install
	$(RSCRIPT) tools/run-tests.R

# R CMD check --as-cran without the test suite (`make test` runs it once, and
# .ci/run runs both): fails on an ERROR or a WARNING, lists the NOTEs.
# Suggested packages that are not installed (rstan, ...) are not forced; an
# example that takes more than 5 s is a NOTE (timings in $(PKG).Rcheck/$(PKG)-Ex.timings).
# CHECK_ARGS adds options (CHECK_ARGS= runs the tests inside the check too).
CHECK_ARGS ?= --no-tests
check: deps
	rm -rf $(PKG).Rcheck $(TARBALL)
	$(R) CMD build .
	_R_CHECK_FORCE_SUGGESTS_=false _R_CHECK_TIMINGS_=5 $(R) CMD check --as-cran --no-manual --timings $(CHECK_ARGS) $(TARBALL)
	@grep -E '^\* .*(NOTE|WARNING|ERROR)$$' $(PKG).Rcheck/00check.log || true
	@if grep -qE '^Status:.*(ERROR|WARNING)' $(PKG).Rcheck/00check.log; then \
		echo "R CMD check reported an ERROR or WARNING"; exit 1; fi

# The test suite built with -fsanitize=address,undefined (gcc), and under
# valgrind (LOGZ_TEST_FILTER=regex runs a part of the suite).
sanitize: deps
	bash tools/sanitize.sh

valgrind: install
	bash tools/valgrind.sh

# No call cycle among the C files of src/ (nm on the objects of an in-place build).
check-cycles:
	$(R) CMD INSTALL --no-multiarch --library="$$(mktemp -d)" . >/dev/null
	$(RSCRIPT) tools/check-call-cycles.R src

# The R side's floor plan: every file of R/ in one layer (core, models, engines,
# verbs, presentation), no call upward, no cycle between files, .Call only in
# the engines, no file over 600 lines (base R and codetools, nothing to build);
# --self-test first shows that planted problems of each kind are caught.
check-layers:
	$(RSCRIPT) tools/check-r-layers.R --self-test R

# Benchmarks, one target per paper (bench/README.md lists every script, its
# output and runtime): each runs the folder's main scripts from the package root,
# writes their output under $(BENCH_OUT)/ (bench/ais/x.R -> $(BENCH_OUT)/ais/x.out)
# and says whether it equals the committed bench/ais/x.out (timings and load
# averages always differ; diff them for the figures). `make bench` runs them all
# (hours); bench-training retrains the models in bench/models/ and is not part of it.
BENCH_AIS := bench/ais/ais_rbm.R bench/ais/ais_function.R bench/ais/base_default.R \
	bench/ais/base_default_check.R bench/ais/base_default_pilot.R
BENCH_VAROPT := bench/varopt/schedules_ising.R bench/varopt/schedules_nonuniform_J.R
BENCH_RTS := bench/rts/rts_vs_ais.R bench/rts/rts_fig3_pcd500.R
BENCH_ARM := bench/arm/arm_gpc.R bench/arm/arm_rbm.R bench/arm/arm_gpc_fig2.R \
	bench/arm/arm_gpc_n767.R
BENCH_ASTAR := bench/astar/astar.R
BENCH_GUMBELMIP := bench/gumbelmip/mip.R
BENCH_SCALE := bench/scale/scale.R
BENCH_TRAINING := bench/training/train_rbm20.R bench/training/train_rbm500.R
BENCH_OUT ?= bench-output
bench_run = for f in $(1); do o=$(BENCH_OUT)/$${f\#bench/}; o=$${o%.R}.out; mkdir -p $$(dirname $$o); \
	echo "== $$f > $$o"; $(2) $(RSCRIPT) $$f > $$o || exit 1; \
	if cmp -s $$o $${f%.R}.out; then echo "   same as $${f%.R}.out"; \
	else echo "   differs from $${f%.R}.out: diff $$o $${f%.R}.out"; fi; done

bench: bench-ais bench-varopt bench-rts bench-arm bench-astar bench-gumbelmip bench-scale

bench-ais: install
	$(call bench_run,$(BENCH_AIS))

# schedules.R and schedules_nonuniform.R print their tables from the committed
# runs (BENCH_REPORT=1); new runs are launched by hand (bench/varopt/schedules_plan.sh).
bench-varopt: install
	$(call bench_run,bench/varopt/schedules.R bench/varopt/schedules_nonuniform.R,BENCH_REPORT=1)
	$(call bench_run,$(BENCH_VAROPT))

bench-rts: install
	$(call bench_run,$(BENCH_RTS))

bench-arm: install
	$(call bench_run,$(BENCH_ARM))

bench-astar: install
	$(call bench_run,$(BENCH_ASTAR))

bench-gumbelmip: install
	$(call bench_run,$(BENCH_GUMBELMIP))

bench-scale: install
	$(call bench_run,$(BENCH_SCALE))

bench-training: install
	$(call bench_run,$(BENCH_TRAINING))

# The pkgdown site (README as home page, reference by method family, vignettes as
# articles) in docs/, built offline from the package installed here; site-check
# takes headless Chromium screenshots of three pages into docs-shots/.
site:
	bash tools/install-deps.sh site
	$(R) CMD INSTALL --no-multiarch .
	$(RSCRIPT) -e 'options(pkgdown.internet = FALSE); pkgdown::build_site(install = FALSE, new_process = FALSE)'

site-check: site
	bash tools/install-deps.sh site-check
	mkdir -p docs-shots
	for p in index.html reference/rts.html articles/astar-sampling.html; do \
		chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1200,1600 \
			--virtual-time-budget=5000 \
			--screenshot=docs-shots/$$(echo $$p | tr / _).png file://$(CURDIR)/docs/$$p || exit 1; done

clean:
	rm -rf $(PKG).Rcheck $(TARBALL) src/*.o src/*.so demo-output docs docs-shots bench-output
