import { describe, expect, it } from 'vitest';
import { axeViolations, type Violation } from '../support/axe.ts';
import { dashboardSuite, openTab } from '../support/dashboard.ts';

/**
 * The dashboard held to the hosted pages' rules (WCAG 2.0 to 2.2, A and AA, as axe-core checks them): every section
 * of an application, read from the page's own navigation, with something listed, and the organization's page.
 */
const suite = dashboardSuite({
  setup: async (app) => {
    const acme = await app.createTenant('Acme');
    await app.createUser('uma@example.com', acme);
  },
});

/** Once the section's first reads have answered: its lists and forms, not its "Loading…". */
async function violationsOfLoaded(): Promise<Violation[]> {
  await suite.page.locator('.loading').first().waitFor({ state: 'detached' });
  return axeViolations(suite.page);
}

/** Fonts of the section's text fields and lists of choices other than the page's and the monospace of keys and URIs. */
const otherFieldFonts = () =>
  suite.page.evaluate(() => {
    const own = [getComputedStyle(document.body).fontFamily, 'ui-monospace, monospace'];
    const fields = document.querySelectorAll('input:not([type="checkbox"], [type="radio"], [type="color"]), select, textarea');
    return [...new Set([...fields].map((field) => getComputedStyle(field).fontFamily))].filter((font) => !own.includes(font));
  });

describe('the dashboard’s accessibility', () => {
  // A narrow window wraps tables' buttons onto each other: target sizes and spacing change with the width.
  it.each([1280, 700])('breaks no WCAG A or AA rule in any section of an application %ipx wide, whose fields are in the page’s font', async (width) => {
    await suite.page.setViewportSize({ width, height: 800 });
    const sections = await suite.page.getByRole('navigation', { name: 'Application sections' }).getByRole('link').allTextContents();
    expect(sections).toContain('Settings');
    const found: Record<string, Violation[]> = {};
    const fonts: Record<string, string[]> = {};
    for (const section of sections) {
      await openTab(suite.page, section);
      const violations = await violationsOfLoaded();
      if (violations.length > 0) found[section] = violations;
      const other = await otherFieldFonts();
      if (other.length > 0) fonts[section] = other;
    }
    expect(found).toEqual({});
    expect(fonts).toEqual({});
  });

  it('breaks none on the organization’s page', async () => {
    await suite.page.getByRole('banner').getByRole('link', { name: 'Organization' }).click();
    await suite.page.getByRole('heading', { level: 1, name: 'Organization' }).waitFor();
    expect(await violationsOfLoaded()).toEqual([]);
  });
});
