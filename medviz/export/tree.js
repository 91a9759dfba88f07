// medviz branch tree: runs before the replay script (page.js). It puts the chosen branch's data
// (#branch-N in the address, else the branch the tree was saved at) where page.js reads it, and
// lists every branch: its what-if, its parent and its outcome. Choosing one re-opens this same
// file at that branch, at the same event; nothing is fetched.
(function () {
  "use strict";
  var treeEl = document.getElementById("medviz-tree");
  if (!treeEl) return;
  var tree = JSON.parse(treeEl.textContent);
  var dataEl = document.getElementById("medviz-data");
  var n = tree.branches.length;
  var chosen = tree.current, step = null;
  var m = /^#branch-(\d+)(?:@(\d+))?$/.exec(location.hash);
  if (m && Number(m[1]) < n) { chosen = Number(m[1]); step = m[2] !== undefined ? Number(m[2]) : null; }

  function branchData(i) {
    if (i === tree.current) return JSON.parse(dataEl.textContent);
    return JSON.parse(document.getElementById("medviz-branch-" + i).textContent);
  }
  if (chosen !== tree.current) {
    var d = branchData(chosen);
    if (d.timeline.figure === "same-as-root") d.timeline.figure = branchData(0).timeline.figure;
    dataEl.textContent = JSON.stringify(d);
  }
  document.body.dataset.branch = String(chosen);

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text != null) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }
  var style = document.createElement("style");
  style.textContent =
    "#tree { padding: 0.3rem 1rem 0.5rem; border-bottom: 1px solid var(--line, #d7d2c8); }" +
    "#tree h2 { font-size: 1.05rem; margin: 0 0 0.3rem; }" +
    "#tree ol { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 0.25rem; }" +
    "#tree button { text-align: left; width: 100%; font: inherit; font-size: 0.92rem; padding: 0.25rem 0.6rem;" +
    " border: 1px solid #8c7b62; border-radius: 4px; background: #fff; cursor: pointer; }" +
    "#tree button:focus-visible { outline: 3px solid #E69F00; outline-offset: 2px; }" +
    "#tree li.current button { background: #ffe8a8; font-weight: bold; }" +
    "#tree .outcome, #tree .parent { color: var(--muted, #5b5b5b); font-weight: normal; }";
  document.head.appendChild(style);

  var section = el("section", null, null);
  section.id = "tree";
  section.setAttribute("aria-label", "branches");
  section.appendChild(el("h2", "Branches explored (" + n + ")"));
  var list = el("ol", null, null);
  tree.branches.forEach(function (b) {
    var li = el("li", null, b.index === chosen ? "current" : null);
    li.dataset.branch = String(b.index);
    li.style.marginLeft = (1.5 * b.depth) + "rem";
    var btn = el("button", null, null);
    btn.type = "button";
    btn.appendChild(el("span", b.title + ": ", "title"));
    btn.appendChild(el("span", b.what_if, "what-if"));
    btn.appendChild(el("span", " → " + b.outcome, "outcome"));
    if (b.parent !== null) btn.appendChild(el("span", " · made from " + tree.branches[b.parent].title, "parent"));
    if (b.index === chosen) btn.setAttribute("aria-current", "true");
    btn.addEventListener("click", function () {
      if (b.index === chosen) return;
      var at = document.body.dataset.step;
      location.hash = "branch-" + b.index + (at !== undefined ? "@" + at : "");
      location.reload();
    });
    li.appendChild(btn);
    list.appendChild(li);
  });
  section.appendChild(list);
  var header = document.querySelector("header");
  if (header) header.after(section); else document.body.prepend(section);

  if (step !== null) {  // the same event as before the switch, once the replay is ready
    var wait = setInterval(function () {
      if (!window.medviz || !("ready" in window.medviz)) return;
      clearInterval(wait);
      window.medviz.show(step);
    }, 50);
  }
})();
