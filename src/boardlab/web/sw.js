// The site's service worker (issue #34, docs/server.md "Notifications"): served at /sw.js so its scope is the
// whole site. It shows the server's your-turn push message (server/push.py: {title, body, url, tag}) and, on a
// click, focuses a tab already at that table or opens one. Only paths of this site are opened.
"use strict";

function sitePath(url) {
  // Why: the message is the server's, but a link must never lead off the site.
  try {
    const u = new URL(typeof url === "string" ? url : "/", self.location.origin);
    return u.origin === self.location.origin ? u.pathname + u.search : "/";
  } catch (e) {
    return "/";
  }
}

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let msg = {};
  try {
    msg = event.data ? event.data.json() : {};
  } catch (e) {
    msg = {};
  }
  const title = typeof msg.title === "string" && msg.title ? msg.title : "boardlab";
  event.waitUntil(self.registration.showNotification(title, {
    body: typeof msg.body === "string" ? msg.body : "",
    tag: typeof msg.tag === "string" ? msg.tag : "turn",
    icon: "/static/icon-turn.svg",
    data: { url: sitePath(msg.url) },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(sitePath(event.notification.data && event.notification.data.url), self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((tabs) => {
    for (const tab of tabs) {
      if (tab.url === url && "focus" in tab) return tab.focus();
    }
    return self.clients.openWindow(url);
  }));
});
