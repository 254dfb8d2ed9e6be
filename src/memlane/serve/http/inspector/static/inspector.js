// memlane inspector: live updates of the sessions and facts views.
// A page that shows one scope names it in <body data-live-scope>. It listens to the
// service's /state/memory stream for that scope; after the snapshot, every change
// (a JSON Patch event) reloads the page's [data-live-region] parts in place.
(function () {
  "use strict";
  var scope = document.body.getAttribute("data-live-scope");
  var status = document.getElementById("live-status");
  if (!scope || !window.EventSource) { return; }
  var base = document.querySelector("link[rel=stylesheet]").getAttribute("href").replace(/\/static\/.*$/, "");
  var root = base.replace(/\/ui$/, "");

  function say(state, text) {
    if (!status) { return; }
    status.setAttribute("data-state", state);
    status.textContent = text;
  }

  var timer = null;
  var pending = false;
  function refresh() {
    if (timer) { pending = true; return; }
    timer = setTimeout(function () {
      fetch(window.location.href, { credentials: "same-origin", headers: { "Accept": "text/html" } })
        .then(function (r) {
          // What the page shows is gone (a session erased: 404) or the browser is no
          // longer signed in (sent to the sign-in form): load the page as it now is,
          // rather than keep showing what was erased under "live: could not reload".
          if (r.status === 404 || r.redirected) {
            source.close();
            window.location.reload();
            return null;
          }
          return r.ok ? r.text() : Promise.reject(r.status);
        })
        .then(function (html) {
          if (html === null) { return; }
          var doc = new DOMParser().parseFromString(html, "text/html");
          document.querySelectorAll("[data-live-region]").forEach(function (el) {
            var name = el.getAttribute("data-live-region");
            var fresh = doc.querySelector('[data-live-region="' + name + '"]');
            if (fresh) { el.replaceWith(document.importNode(fresh, true)); }
          });
          document.body.setAttribute("data-live-updates",
            String(Number(document.body.getAttribute("data-live-updates") || "0") + 1));
          say("live", "live: updated " + new Date().toLocaleTimeString());
        })
        .catch(function () { say("error", "live: could not reload"); })
        .then(function () {
          timer = null;
          if (pending) { pending = false; refresh(); }
        });
    }, 250);
  }

  // The page was read at change data-live-head: the stream resumes there, so a change
  // made between that read and this connection still reaches the page (a fresh snapshot
  // would already hold it, and the page would miss it until the next change).
  var head = document.body.getAttribute("data-live-head");
  var url = root + "/state/memory?scope=" + encodeURIComponent(scope);
  if (head && /^[0-9]+$/.test(head)) { url += "&last_event_id=" + head; }
  var source = new EventSource(url);
  var snapshot = !!(head && /^[0-9]+$/.test(head));
  function onSnapshot() { snapshot = true; say("live", "live"); }
  function onChange() { if (snapshot) { refresh(); } }
  source.addEventListener("snapshot", onSnapshot);
  // Each change is a "patch" event; "reset" (the page was away too long) is followed by
  // a new snapshot: either way the page's live parts are reloaded.
  source.addEventListener("patch", onChange);
  source.addEventListener("reset", onChange);
  source.onopen = function () {
    if (snapshot) { say("live", "live"); } else { say("connecting", "live: connecting"); }
  };
  source.onerror = function () {
    say(source.readyState === EventSource.CLOSED ? "off" : "connecting",
        source.readyState === EventSource.CLOSED ? "live: off" : "live: reconnecting");
  };
  window.addEventListener("pagehide", function () { source.close(); });
})();
