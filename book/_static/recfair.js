/* recfair book: page behaviour the themes get wrong. Loaded on every page
   (sphinx.config.html_js_files in _config.yml; tested by .ci/browser_check.py).

   Table of contents on phones and tablets. pydata-sphinx-theme 0.17 opens the navigation
   dialogs (#pst-primary-sidebar-modal, #pst-secondary-sidebar-modal) from a click handler that
   it binds to the FIRST .primary-toggle / .secondary-toggle of the page only: the button of its
   own header, which sphinx-book-theme hides. The buttons a reader sees (the article header's ☰
   and contents icons) get no handler, so below 992 px nothing opens. Every other toggle of the
   page is therefore made to forward its click to the first one, which holds the themes' handlers
   (sphinx-book-theme's, which folds the sidebar on wide screens, and pydata's, which opens the
   dialog on narrow ones). */
(function () {
  "use strict";

  function ready(fn) {
    if (document.readyState !== "loading") { fn(); } else { document.addEventListener("DOMContentLoaded", fn); }
  }

  function forwardToggles(side) {
    var toggles = document.querySelectorAll("." + side + "-toggle");
    if (toggles.length < 2) { return; }
    var bound = toggles[0];
    Array.prototype.slice.call(toggles, 1).forEach(function (button) {
      if (button.dataset.recfairForwards) { return; }
      button.dataset.recfairForwards = side;
      button.addEventListener("click", function (event) {
        event.preventDefault();
        event.stopPropagation();
        bound.click();
      });
    });
  }

  ready(function () {
    forwardToggles("primary");
    forwardToggles("secondary");
  });
})();
