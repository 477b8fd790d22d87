import { describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';

describe('the shared browser helper', () => {
  it('opens a real headless Chromium that runs page script', async () => {
    const { newPage } = await launchBrowser();
    const page = await newPage();
    await page.setContent('<p id="x">hi</p><script>document.getElementById("x").textContent += "!"</script>');
    expect(await page.textContent('#x')).toBe('hi!');
  });
});
