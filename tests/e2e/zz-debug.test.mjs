import { labTest } from './harness.mjs';
labTest('debug', async (open) => {
  const page = await open(`preset=pgrr-a1&policy=vqs,bf-js&seed=1&horizon=20000&present=1`, { viewport: { width: 1280, height: 720 } });
  const info = await page.evaluate(() => {
    const out = [];
    const walk = (el, depth) => {
      if (depth > 4) return;
      for (const c of el.children) {
        const r = c.getBoundingClientRect();
        if (r.height > 0 && r.y < 800) out.push(`${'  '.repeat(depth)}${c.tagName.toLowerCase()}#${c.id}.${[...c.classList].join('.')} y=${Math.round(r.y)} h=${Math.round(r.height)}`);
        walk(c, depth + 1);
      }
    };
    walk(document.querySelector('main') || document.body, 0);
    return out.join('\n');
  });
  console.log(info);
  await page.screenshot({ path: '/tmp/present.png' });
});
