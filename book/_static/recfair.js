/* recfair book: page behaviour the themes get wrong. Loaded on every page
   (sphinx.config.html_js_files in _config.yml; tested by .ci/browser_check.py).

   Table of contents on phones and tablets. pydata-sphinx-theme 0.17 opens the navigation
   dialogs (#pst-primary-sidebar-modal, #pst-secondary-sidebar-modal) from a click handler that
   it binds to the FIRST .primary-toggle / .secondary-toggle of the page only: the button of its
   own header, which sphinx-book-theme hides. The buttons a reader sees (the article header's ☰
   and contents icons) get no handler, so below 992 px nothing opens. Every other toggle of the
   page is therefore made to forward its click to the first one, which holds the themes' handlers
   (sphinx-book-theme's, which folds the sidebar on wide screens, and pydata's, which opens the
   dialog on narrow ones).

   Live code without a network. sphinx-thebe's initThebe() adds a <script> for the Thebe library
   (from a CDN) and writes "Loading thebe from CDN..." into the .thebe-launch-button; when the
   script cannot load (offline, a blocked CDN) nothing else happens and that text stays forever,
   with the explorers' "Make this page live" buttons disabled. The Thebe script is watched here:
   when it fails to load, or has not loaded after THEBE_TIMEOUT_MS, the launch button and every
   explorer's live button say so and point to the ways that still work. */
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

  var THEBE_TIMEOUT_MS = 20000;
  var OFFLINE = "Live code could not start: the Thebe library did not load (no network, or its CDN is " +
    "blocked). This page's controls still work with their precomputed results; to run the code, use the " +
    "launch button for Binder or Colab, or download the notebook and run it locally.";

  function thebeFailed(reason) {
    if (window.thebelab || document.documentElement.dataset.recfairThebe === "failed") { return; }
    document.documentElement.dataset.recfairThebe = "failed";
    document.querySelectorAll(".thebe-launch-button").forEach(function (button) {
      button.textContent = OFFLINE + " (" + reason + ")";
      button.classList.add("recfair-thebe-failed");
      button.setAttribute("role", "alert");
    });
    document.querySelectorAll("[data-rfx-thebe]").forEach(function (button) {
      button.disabled = false;
      button.textContent = "⚡ Live code could not start (no network?): use the launch button for Binder or Colab";
    });
  }

  function watchThebe(script) {
    if (!script.src || !/thebe/i.test(script.src) || script.dataset.recfairWatched) { return; }
    script.dataset.recfairWatched = "1";
    script.addEventListener("error", function () { thebeFailed("the script did not load"); });
    setTimeout(function () {
      if (!window.thebelab) { thebeFailed("no answer after " + THEBE_TIMEOUT_MS / 1000 + " s"); }
    }, THEBE_TIMEOUT_MS);
  }

  ready(function () {
    forwardToggles("primary");
    forwardToggles("secondary");
    if (window.MutationObserver) {
      new MutationObserver(function (records) {
        records.forEach(function (record) {
          Array.prototype.forEach.call(record.addedNodes, function (node) {
            if (node.tagName === "SCRIPT") { watchThebe(node); }
          });
        });
      }).observe(document.head, {childList: true});
    }
  });
})();
