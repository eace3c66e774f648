// Renders www/icons/icon.svg into the PNG sizes the web app manifest lists (installers want
// 192 and 512 px PNGs). Run by hand after editing the SVG: `node scripts/render-icons.mjs`.

import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { launchChromium } from '../tests/e2e/browser.mjs';

const ICONS = join(resolve(fileURLToPath(new URL('..', import.meta.url))), 'www', 'icons');
const svg = await readFile(join(ICONS, 'icon.svg'), 'utf8');
const { context, close } = await launchChromium('packlab-icons-');
try {
  const page = await context.newPage();
  for (const size of [192, 512]) {
    await page.setViewportSize({ width: size, height: size });
    const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
    await page.setContent(`<body style="margin:0"><img src="${src}" width="${size}" height="${size}"></body>`);
    await page.locator('img').screenshot({ path: join(ICONS, `icon-${size}.png`) });
  }
} finally {
  await close();
}
