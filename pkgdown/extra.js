// Maths in the reference pages is written as TeX (\eqn{} in the help pages) and
// typeset by MathJax, which the site loads from a CDN. When MathJax has not
// typeset the page (offline, or its script is blocked), show each formula as
// plain text with Unicode symbols and sub/superscripts instead of raw TeX.
(function () {
  var symbols = {
    alpha: "α", beta: "β", gamma: "γ", delta: "δ", epsilon: "ε", varepsilon: "ε",
    zeta: "ζ", eta: "η", theta: "θ", kappa: "κ", lambda: "λ", mu: "μ", nu: "ν",
    xi: "ξ", pi: "π", rho: "ρ", sigma: "σ", tau: "τ", phi: "φ", varphi: "φ",
    chi: "χ", psi: "ψ", omega: "ω", Gamma: "Γ", Delta: "Δ", Theta: "Θ",
    Lambda: "Λ", Sigma: "Σ", Phi: "Φ", Psi: "Ψ", Omega: "Ω", Pi: "Π",
    le: "≤", leq: "≤", ge: "≥", geq: "≥", ne: "≠", neq: "≠", approx: "≈",
    sim: "∼", propto: "∝", pm: "±", mp: "∓", times: "×", cdot: "·", in: "∈",
    notin: "∉", subset: "⊂", subseteq: "⊆", cup: "∪", cap: "∩", infty: "∞",
    sum: "Σ", prod: "Π", int: "∫", partial: "∂", nabla: "∇", to: "→",
    rightarrow: "→", leftarrow: "←", mid: "|", vert: "|", lvert: "|", rvert: "|",
    ldots: "…", dots: "…", cdots: "⋯", log: "log ", exp: "exp ", max: "max ",
    min: "min ", arg: "arg ", det: "det ", Var: "Var ", top: "ᵀ", prime: "′",
    quad: " ", qquad: "  ", left: "", right: "", big: "", Big: "", bigl: "", bigr: "",
    langle: "⟨", rangle: "⟩", lfloor: "⌊", rfloor: "⌋", lceil: "⌈", rceil: "⌉",
    forall: "∀", exists: "∃", ell: "ℓ", emptyset: "∅", setminus: "∖", land: "∧",
    lor: "∨", neg: "¬", star: "⋆", ast: "∗", circ: "∘", equiv: "≡"
  };
  var accents = { hat: "\u0302", widehat: "\u0302", bar: "\u0304", overline: "\u0304",
                  tilde: "\u0303", widetilde: "\u0303", dot: "\u0307" };

  function escapeHtml(s) {
    return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }

  function texToHtml(tex) {
    var s = tex.replace(/\\\{/g, "\u0001").replace(/\\\}/g, "\u0002");
    s = s.replace(/\\[,;:! ]/g, " ");
    // accents on a single letter or command: \hat c, \hat{Z}
    s = s.replace(/\\(hat|widehat|bar|overline|tilde|widetilde|dot)\s*\{([^{}]*)\}/g,
                  function (m, a, x) { return x + accents[a]; });
    s = s.replace(/\\(hat|widehat|bar|overline|tilde|widetilde|dot)\s*(\\[A-Za-z]+|[A-Za-z0-9])/g,
                  function (m, a, x) { return x + accents[a]; });
    s = s.replace(/\\frac\s*([A-Za-z0-9])\s*([A-Za-z0-9])/g, "$1/$2");
    s = s.replace(/\\([A-Za-z]+)/g, function (m, name) {
      if (name in symbols) return symbols[name];
      if (/^(mathrm|text|mathbf|mathit|mathcal|mathbb|operatorname|textrm|mbox|frac|sqrt)$/.test(name))
        return "\\" + name;
      return name;
    });
    s = escapeHtml(s);
    var prev;
    do {
      prev = s;
      s = s.replace(/\\(mathrm|text|mathbf|mathit|mathcal|mathbb|operatorname|textrm|mbox)\{([^{}]*)\}/g, "$2");
      s = s.replace(/\\frac\{([^{}]*)\}\{([^{}]*)\}/g, "($1)/($2)");
      s = s.replace(/\\sqrt\{([^{}]*)\}/g, "√($1)");
      s = s.replace(/\^\{([^{}]*)\}/g, "<sup>$1</sup>");
      s = s.replace(/_\{([^{}]*)\}/g, "<sub>$1</sub>");
      s = s.replace(/\{([^{}]*)\}/g, "$1");
    } while (s !== prev);
    s = s.replace(/\^([^\s<])/g, "<sup>$1</sup>").replace(/_([^\s<])/g, "<sub>$1</sub>");
    s = s.replace(/\\/g, "");
    s = s.replace(/\b(log|exp|max|min|arg|det|Var) +(?=[(\[])/g, "$1");
    return s.replace(/\u0001/g, "{").replace(/\u0002/g, "}").replace(/\s+/g, " ").trim();
  }

  function fallback() {
    if (document.querySelector(".MathJax, .MathJax_Display, .MathJax_Preview, mjx-container")) return;
    var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, null);
    var nodes = [], n;
    while ((n = walker.nextNode())) {
      if (/\\\(|\\\[|\$\$/.test(n.nodeValue) && !n.parentNode.closest("pre, code, script, style"))
        nodes.push(n);
    }
    nodes.forEach(function (node) {
      // inline \( \), display \[ \] and display $$ $$ (pkgdown's form of \deqn)
      var parts = node.nodeValue.split(/\\\(([\s\S]+?)\\\)|\\\[([\s\S]+?)\\\]|\$\$([\s\S]+?)\$\$/);
      var frag = document.createDocumentFragment();
      for (var i = 0; i < parts.length; i += 4) {
        if (parts[i]) frag.appendChild(document.createTextNode(parts[i]));
        var inl = parts[i + 1], disp = parts[i + 2] !== undefined ? parts[i + 2] : parts[i + 3];
        if (inl === undefined && disp === undefined) continue;
        var el = document.createElement(disp !== undefined ? "div" : "span");
        el.className = "math-text";
        el.innerHTML = texToHtml(disp !== undefined ? disp : inl);
        frag.appendChild(el);
      }
      node.parentNode.replaceChild(frag, node);
    });
  }

  window.addEventListener("load", function () {
    // after MathJax's own pass when it runs; on a timer when it never loads
    if (window.MathJax && MathJax.Hub && MathJax.Hub.Queue) MathJax.Hub.Queue(fallback);
    setTimeout(fallback, 1500);
  });
})();

// Opened from disk without a network, the scripts the site loads from CDNs are
// missing: the contents panel (bootstrap-toc) is then built here from the page's
// headings, and the search box (fuse.js) says that it needs a network.
(function () {
  function localToc() {
    var nav = document.getElementById("toc");
    if (!nav || nav.querySelector("a")) return;
    var heads = document.querySelectorAll("main h2[id], main h3[id], main .section h2, main .section h3");
    if (!heads.length) return;
    var ul = document.createElement("ul");
    ul.className = "nav nav-pills flex-column";
    heads.forEach(function (h) {
      var id = h.id || (h.parentNode && h.parentNode.id);
      if (!id) return;
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.className = "nav-link";
      a.href = "#" + id;
      a.textContent = h.textContent.replace(/\s+/g, " ").trim();
      if (h.tagName === "H3") a.style.paddingLeft = "1.5em";
      li.appendChild(a);
      ul.appendChild(li);
    });
    nav.appendChild(ul);
  }
  function searchNote() {
    var box = document.getElementById("search-input");
    if (box && typeof window.Fuse === "undefined") {
      box.placeholder = "Search needs a network";
      box.disabled = true;
      box.title = "The search scripts load from a CDN; this page was opened without a network.";
    }
  }
  window.addEventListener("load", function () { setTimeout(function () { localToc(); searchNote(); }, 300); });
})();
