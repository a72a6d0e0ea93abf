/**
 * Renders web/public/assets/default-thumbnail.jpg (1280x720), the banner shown until the operator uploads
 * their own: CSS/SVG art (red fog, a dead forest, a figure in the mist, the DREADCAST title in the bundled
 * Creepster font) screenshotted by headless Chromium.
 *
 *   node scripts/make-default-thumbnail.mjs
 */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "web/public/assets/default-thumbnail.jpg");
const font = (pkg, file) => readFileSync(join(root, "node_modules/@fontsource", pkg, "files", file)).toString("base64");
const creepster = font("creepster", "creepster-latin-400-normal.woff2");
const specialElite = font("special-elite", "special-elite-latin-400-normal.woff2");

// A seeded random so the picture is the same on every run.
let seed = 1337;
const rand = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;

/** A dead tree: a trunk that forks into thinning, crooked branches. */
function tree(x, baseY, height, width) {
  const parts = [];
  const branch = (x1, y1, angle, length, thickness, depth) => {
    const bend = (rand() - 0.5) * 0.5;
    const x2 = x1 + Math.cos(angle) * length;
    const y2 = y1 - Math.sin(angle) * length;
    const cx = (x1 + x2) / 2 + Math.cos(angle + Math.PI / 2) * length * bend * 0.4;
    const cy = (y1 + y2) / 2 - Math.sin(angle + Math.PI / 2) * length * bend * 0.4;
    parts.push(`<path d="M${x1.toFixed(1)} ${y1.toFixed(1)} Q${cx.toFixed(1)} ${cy.toFixed(1)} ${x2.toFixed(1)} ${y2.toFixed(1)}" stroke-width="${thickness.toFixed(2)}"/>`);
    if (depth === 0 || thickness < 0.6) return;
    const forks = depth > 3 ? 2 : 2 + Math.round(rand());
    for (let i = 0; i < forks; i++) {
      const spread = (rand() - 0.5) * 1.5;
      branch(x2, y2, angle + spread, length * (0.62 + rand() * 0.18), thickness * 0.62, depth - 1);
    }
  };
  branch(x, baseY, Math.PI / 2 + (rand() - 0.5) * 0.12, height * 0.42, width, 6);
  return parts.join("");
}

function forest(count, baseY, minH, maxH, minW, maxW, color, opacity) {
  let paths = "";
  for (let i = 0; i < count; i++) {
    const x = (i + 0.2 + rand() * 0.6) * (1280 / count);
    paths += tree(x, baseY + rand() * 10, minH + rand() * (maxH - minH), minW + rand() * (maxW - minW));
  }
  return `<g stroke="${color}" stroke-linecap="round" fill="none" opacity="${opacity}">${paths}</g>`;
}

const html = `<!doctype html>
<html><head><meta charset="utf-8"><style>
@font-face { font-family: Creepster; src: url(data:font/woff2;base64,${creepster}) format("woff2"); }
@font-face { font-family: "Special Elite"; src: url(data:font/woff2;base64,${specialElite}) format("woff2"); }
* { margin: 0; box-sizing: border-box; }
html, body { width: 1280px; height: 720px; overflow: hidden; background: #050203; }
.scene { position: relative; width: 1280px; height: 720px; overflow: hidden;
  background:
    radial-gradient(ellipse 70% 60% at 50% 38%, #4a0a10 0%, #22060a 45%, #080203 80%),
    #050203; }
.moon { position: absolute; left: 820px; top: 70px; width: 210px; height: 210px; border-radius: 50%;
  background: radial-gradient(circle at 40% 38%, #ffd9d2 0%, #f19a8e 30%, #b8312f 70%, #6e0f14 100%);
  box-shadow: 0 0 80px 20px rgba(224, 40, 50, .45), 0 0 240px 90px rgba(179, 18, 27, .35); }
.moon::after { content: ""; position: absolute; inset: 0; border-radius: 50%;
  background:
    radial-gradient(circle at 30% 60%, rgba(110, 15, 20, .5) 0 14px, transparent 15px),
    radial-gradient(circle at 62% 30%, rgba(110, 15, 20, .4) 0 10px, transparent 11px),
    radial-gradient(circle at 70% 68%, rgba(110, 15, 20, .35) 0 20px, transparent 21px); }
.cloud { position: absolute; border-radius: 50%; filter: blur(18px); }
.c1 { left: 700px; top: 150px; width: 520px; height: 70px; background: rgba(20, 4, 6, .85); }
.c2 { left: 880px; top: 215px; width: 360px; height: 40px; background: rgba(30, 6, 9, .8); }
.c3 { left: 120px; top: 90px; width: 480px; height: 60px; background: rgba(60, 10, 14, .55); }
svg.layer { position: absolute; inset: 0; }
.fog { position: absolute; left: -10%; width: 120%; border-radius: 50%; filter: blur(30px); }
.f1 { top: 470px; height: 180px; background: radial-gradient(ellipse at 50% 50%, rgba(200, 40, 50, .42), transparent 70%); }
.f2 { top: 540px; height: 220px; background: radial-gradient(ellipse at 30% 50%, rgba(235, 210, 205, .16), transparent 65%); }
.f3 { top: 650px; height: 160px; background: radial-gradient(ellipse at 60% 50%, rgba(160, 20, 30, .32), transparent 70%); }
.glow { position: absolute; left: 520px; top: 500px; width: 240px; height: 260px; border-radius: 50%; filter: blur(30px);
  background: radial-gradient(ellipse, rgba(255, 60, 70, .55), transparent 70%); }
.title { position: absolute; left: 0; right: 0; top: 248px; text-align: center;
  font-family: Creepster; font-size: 196px; line-height: 1; letter-spacing: 10px; color: #e01e2b;
  text-shadow: 0 0 30px rgba(224, 30, 43, .75), 0 0 90px rgba(179, 18, 27, .6), 0 6px 0 #3d0509, 0 10px 30px #000; }
.tag { position: absolute; left: 0; right: 0; top: 470px; text-align: center;
  font-family: "Special Elite"; font-size: 34px; letter-spacing: 12px; color: #f3ece4;
  text-shadow: 0 0 12px rgba(0,0,0,.9), 0 0 30px rgba(224, 30, 43, .6); }
.tag b { color: #ff4d57; font-weight: 400; }
.rule { position: absolute; left: 390px; right: 390px; top: 452px; height: 2px;
  background: linear-gradient(90deg, transparent, #e01e2b, transparent); box-shadow: 0 0 12px #e01e2b; }
.hud { position: absolute; font-family: "Special Elite"; font-size: 26px; letter-spacing: 4px; color: #f3ece4;
  text-shadow: 0 0 8px rgba(0,0,0,.9); }
.rec { left: 70px; top: 52px; display: flex; align-items: center; gap: 14px; }
.rec i { width: 22px; height: 22px; border-radius: 50%; background: #ff2a36; box-shadow: 0 0 16px #ff2a36; }
.time { right: 70px; bottom: 50px; }
.cam { left: 70px; bottom: 50px; color: #ff9aa0; }
.corner { position: absolute; width: 60px; height: 60px; border: 3px solid rgba(243, 236, 228, .75); }
.tl { left: 36px; top: 30px; border-right: 0; border-bottom: 0; }
.tr { right: 36px; top: 30px; border-left: 0; border-bottom: 0; }
.bl { left: 36px; bottom: 30px; border-right: 0; border-top: 0; }
.br { right: 36px; bottom: 30px; border-left: 0; border-top: 0; }
.grain { position: absolute; inset: 0; opacity: .22; mix-blend-mode: overlay;
  background-image: url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='240' height='240'%3E%3Cfilter id='n'%3E%3CfeTurbulence type='fractalNoise' baseFrequency='.8' numOctaves='3' stitchTiles='stitch'/%3E%3C/filter%3E%3Crect width='100%25' height='100%25' filter='url(%23n)'/%3E%3C/svg%3E"); }
.scan { position: absolute; inset: 0; opacity: .18;
  background: repeating-linear-gradient(0deg, rgba(0,0,0,.7) 0 1px, transparent 1px 4px); }
.vignette { position: absolute; inset: 0;
  background: radial-gradient(ellipse 75% 70% at 50% 48%, transparent 45%, rgba(0,0,0,.85) 100%); }
</style></head><body>
<div class="scene">
  <div class="cloud c3"></div>
  <div class="moon"></div>
  <div class="cloud c1"></div>
  <div class="cloud c2"></div>
  <svg class="layer" viewBox="0 0 1280 720" xmlns="http://www.w3.org/2000/svg">
    ${forest(16, 610, 260, 380, 6, 11, "#2a070b", 0.9)}
    <path d="M0 600 Q 200 570 420 598 T 860 590 T 1280 596 V720 H0Z" fill="#170406"/>
  </svg>
  <div class="fog f1"></div>
  <div class="fog f2"></div>
  <div class="glow"></div>
  <svg class="layer" viewBox="0 0 1280 720" xmlns="http://www.w3.org/2000/svg">
    <defs>
      <linearGradient id="ground" x1="0" y1="0" x2="0" y2="1">
        <stop offset="0" stop-color="#0d0304"/><stop offset="1" stop-color="#000"/>
      </linearGradient>
    </defs>
    <!-- framing trees at both edges, the middle left open -->
    <g stroke="#040001" stroke-linecap="round" fill="none">${tree(40, 730, 620, 26)}${tree(150, 730, 470, 15)}${tree(1240, 730, 640, 28)}${tree(1120, 730, 450, 14)}</g>
    <!-- the figure in the mist -->
    <g fill="#070102" transform="translate(640 18)">
      <ellipse cx="0" cy="508" rx="11" ry="14"/>
      <path d="M-9 520 Q-18 560 -15 620 L-10 690 L-4 690 L-2 628 L2 628 L4 690 L10 690 L15 620 Q18 560 9 520 Z"/>
      <path d="M-11 526 Q-30 580 -34 640 L-30 641 Q-22 585 -7 540 Z"/>
      <path d="M11 526 Q30 580 34 640 L30 641 Q22 585 7 540 Z"/>
    </g>
    <path d="M0 680 Q 320 660 640 684 T 1280 676 V720 H0Z" fill="url(#ground)"/>
    <!-- a broken fence -->
    <g stroke="#090102" stroke-width="7" stroke-linecap="round">
      <path d="M250 720 L258 640"/><path d="M310 720 L314 652"/><path d="M370 720 L366 634"/>
      <path d="M225 688 L400 668" stroke-width="6"/>
      <path d="M900 720 L896 646"/><path d="M960 720 L968 632"/><path d="M1020 720 L1014 650"/>
      <path d="M880 668 L1050 688" stroke-width="6"/>
    </g>
  </svg>
  <div class="fog f3"></div>
  <div class="title">DREADCAST</div>
  <div class="rule"></div>
  <div class="tag">LIVE <b>·</b> ONE NIGHT ONLY</div>
  <div class="corner tl"></div><div class="corner tr"></div><div class="corner bl"></div><div class="corner br"></div>
  <div class="hud rec"><i></i>REC</div>
  <div class="hud cam">CAM 03 — NIGHT VISION</div>
  <div class="hud time">00:00:00</div>
  <div class="scan"></div>
  <div class="grain"></div>
  <div class="vignette"></div>
</div>
</body></html>`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1 });
  await page.setContent(html, { waitUntil: "load" });
  await page.evaluate(() => document.fonts.ready);
  const jpeg = await page.screenshot({ type: "jpeg", quality: 82, clip: { x: 0, y: 0, width: 1280, height: 720 } });
  writeFileSync(out, jpeg);
  console.log(`wrote ${out} (${(statSync(out).size / 1024).toFixed(0)} KiB)`);
} finally {
  await browser.close();
}
