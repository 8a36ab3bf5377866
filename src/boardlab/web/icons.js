// Small SVG icons: they draw the same on every system (Debian ships no colour emoji font).
const NS = "http://www.w3.org/2000/svg";
const PATHS = {
  players: "M8 8a3 3 0 1 0 0-6 3 3 0 0 0 0 6zm8 0a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM2 18c0-3.3 2.7-6 6-6s6 2.7 6 6zm12 0c0-2-.6-3.8-1.7-5.2.5-.5 1.6-.8 3.7-.8 3.3 0 6 2.7 6 6z",
  clock: "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm0 2a8 8 0 1 1 0 16 8 8 0 0 1 0-16zm-1 3v6l5 3 1-1.7-4-2.3V7z",
  book: "M3 5c3-1.5 6-1.5 8.5.5V20c-2.5-2-5.5-2-8.5-.5zm18 0c-3-1.5-6-1.5-8.5.5V20c2.5-2 5.5-2 8.5-.5z",
  chat: "M3 4h18v12H8l-5 4z",
  bell: "M12 22a2.5 2.5 0 0 0 2.4-2h-4.8a2.5 2.5 0 0 0 2.4 2zm7-6V11a7 7 0 0 0-5.5-6.8V3a1.5 1.5 0 0 0-3 0v1.2A7 7 0 0 0 5 11v5l-2 2v1h18v-1z",
  user: "M12 12a5 5 0 1 0 0-10 5 5 0 0 0 0 10zm0 2c-4.4 0-9 2.2-9 5.5V22h18v-2.5c0-3.3-4.6-5.5-9-5.5z",
  trophy: "M7 3h10v3h4v3a5 5 0 0 1-5 5h-.3A5 5 0 0 1 13 16.9V19h4v2H7v-2h4v-2.1A5 5 0 0 1 8.3 14H8a5 5 0 0 1-5-5V6h4zm0 5H5v1a3 3 0 0 0 2 2.8zm10 0v3.8A3 3 0 0 0 19 9V8z",
  star: "M12 2l3 6.5 7 .8-5.2 4.8 1.5 7L12 17.6 5.7 21l1.5-7L2 9.3l7-.8z",
  puzzle: "M10 3a2 2 0 0 1 4 0v2h5v5h-2a2 2 0 0 0 0 4h2v5h-5v-2a2 2 0 0 0-4 0v2H5v-5h2a2 2 0 0 0 0-4H5V5h5z",
  check: "M9 16.2l-4.2-4.2L3.4 13.4 9 19 21 7l-1.4-1.4z",
  robot: "M11 2h2v3h5a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2h5zM8.5 10a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm7 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zM8 15v1.5h8V15zM1 10h2v5H1zm20 0h2v5h-2z",
  play: "M7 4v16l13-8z",
  pause: "M6 4h4v16H6zm8 0h4v16h-4z",
};

export function icon(name, label) {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", `icon icon-${name}`);
  if (label) { svg.setAttribute("role", "img"); svg.setAttribute("aria-label", label); } else svg.setAttribute("aria-hidden", "true");
  const p = document.createElementNS(NS, "path");
  p.setAttribute("d", PATHS[name] || PATHS.star);
  p.setAttribute("fill", "currentColor");
  svg.append(p);
  return svg;
}
