import { launchChromium, serveDist } from './browser.mjs';
const { server, origin } = await serveDist('dist', '/packlab/');
const { context, close } = await launchChromium('shot-');
for (const preset of ['pgrr-a3', 'pgrr-a5', 'pgrr-a3', 'pgrr-a5']) {
  const page = await context.newPage();
  const t0 = Date.now();
  await page.goto(`${origin}/packlab/?preset=${preset}`);
  await page.waitForSelector('#stats tr[data-policy]');
  console.log(preset, Date.now() - t0, 'ms');
  await page.close();
}
await close(); server.close();
