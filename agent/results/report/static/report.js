// The run report's only script: episode filters on the overview, step navigation on an episode
// page. No library, nothing fetched; the pages work from file:// and without this script too.
(function () {
  "use strict";

  function fragmentParams() {
    var hash = window.location.hash.replace(/^#/, "");
    return hash.indexOf("=") >= 0 ? new URLSearchParams(hash) : null;
  }

  function setFragment(text) {
    try {
      history.replaceState(null, "", text ? "#" + text : window.location.pathname);
    } catch (error) {
      // some browsers refuse history changes on file:// pages; the view still updates
    }
  }

  // --- overview: filter the episode list by task, label and outcome --------------------------
  var table = document.getElementById("episode-table");
  if (table) {
    var rows = Array.prototype.slice.call(table.tBodies[0].rows);
    var selects = Array.prototype.slice.call(document.querySelectorAll("#filters select"));
    var count = document.getElementById("filter-count");

    var apply = function () {
      var shown = 0;
      rows.forEach(function (row) {
        var keep = selects.every(function (select) {
          return !select.value || row.dataset[select.dataset.key] === select.value;
        });
        row.classList.toggle("hidden", !keep);
        if (keep) shown += 1;
      });
      count.textContent = shown + " of " + rows.length + " episodes";
    };

    var fromFragment = function (scroll) {
      var params = fragmentParams();
      if (!params) return;
      selects.forEach(function (select) {
        var wanted = params.get(select.dataset.key) || "";
        var known = Array.prototype.some.call(select.options, function (o) { return o.value === wanted; });
        select.value = known ? wanted : "";
      });
      apply();
      if (scroll) document.getElementById("episodes").scrollIntoView();
    };

    selects.forEach(function (select) {
      select.addEventListener("change", function () {
        var params = new URLSearchParams();
        selects.forEach(function (s) { if (s.value) params.set(s.dataset.key, s.value); });
        setFragment(params.toString());
        apply();
      });
    });
    document.getElementById("filter-clear").addEventListener("click", function () {
      selects.forEach(function (s) { s.value = ""; });
      setFragment("");
      apply();
    });
    window.addEventListener("hashchange", function () { fromFragment(true); });
    count.textContent = rows.length + " of " + rows.length + " episodes";
    fromFragment(true);
  }

  // --- episode page: one current step, moved with the arrow keys -----------------------------
  var steps = Array.prototype.slice.call(document.querySelectorAll("article.step"));
  if (steps.length) {
    var chips = Array.prototype.slice.call(document.querySelectorAll(".chips .chip"));
    var position = document.getElementById("step-position");
    var current = -1;

    var select = function (index, scroll) {
      index = Math.max(0, Math.min(steps.length - 1, index));
      if (current >= 0) {
        steps[current].classList.remove("current");
        chips[current].classList.remove("current");
      }
      current = index;
      steps[index].classList.add("current");
      chips[index].classList.add("current");
      position.textContent = "step " + (index + 1) + " of " + steps.length;
      if (scroll) {
        setFragment("step-" + (index + 1));
        steps[index].scrollIntoView({block: "start"});
      }
    };

    var fromHash = function () {
      var match = /^#step-(\d+)$/.exec(window.location.hash);
      if (match) select(parseInt(match[1], 10) - 1, true);
    };

    document.addEventListener("keydown", function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      var tag = (event.target.tagName || "").toLowerCase();
      if (tag === "input" || tag === "textarea" || tag === "select") return;
      if (event.key === "ArrowRight") { select(current + 1, true); event.preventDefault(); }
      if (event.key === "ArrowLeft") { select(current - 1, true); event.preventDefault(); }
    });
    document.getElementById("step-next").addEventListener("click", function () { select(current + 1, true); });
    document.getElementById("step-prev").addEventListener("click", function () { select(current - 1, true); });
    chips.forEach(function (chip) {
      chip.addEventListener("click", function (event) {
        event.preventDefault();
        select(parseInt(chip.dataset.index, 10), true);
      });
    });
    // a link to #step-N elsewhere on the page (gold steps, divergence) selects that step
    window.addEventListener("hashchange", fromHash);
    select(0, false);
    fromHash();
  }
})();
