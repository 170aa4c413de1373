import { describe, expect, it } from 'vitest';
import { axeViolations, type Violation } from '../support/axe.ts';
import { asTenantOperator, dashboardSuite, makeOperator, offeredScreens, openTab } from '../support/dashboard.ts';

/**
 * The dashboard held to the hosted pages' rules (WCAG 2.0 to 2.2, A and AA, as axe-core checks them): every section
 * of an application, read from the page's own navigation, with something listed, the organization's page, and what an
 * operator of one tenant is shown: their tenants' landing and each screen it offers.
 */
const TENANT_OPERATOR = { email: 'tina@example.com', password: 'Tenant-Horse-42' };
const suite = dashboardSuite({
  setup: async (app) => {
    const acme = await app.createTenant('Acme');
    await app.createUser('uma@example.com', acme);
    await makeOperator(app, TENANT_OPERATOR, 'tenant_admin', acme);
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

  it('breaks none on the landing of an operator of one tenant, nor on the screens it offers', async () => {
    await asTenantOperator(suite.page, suite.app.gatehouse.services.config.publicUrl, TENANT_OPERATOR, async (page) => {
      const screens = await offeredScreens(page, 'Acme');
      expect(screens).toContain('Users of Acme');
      const found: Record<string, Violation[]> = {};
      const landing = await axeViolations(page);
      if (landing.length > 0) found['Your tenants'] = landing;
      for (const screen of screens) {
        await page.getByRole('list', { name: 'Screens of Acme' }).getByRole('link', { name: screen, exact: true }).click();
        await page.getByRole('heading', { level: 2, name: screen }).waitFor();
        await page.locator('.loading').first().waitFor({ state: 'detached' });
        const violations = await axeViolations(page);
        if (violations.length > 0) found[screen] = violations;
        await page.getByRole('link', { name: 'Your tenants' }).click();
        await page.getByRole('heading', { level: 2, name: 'Your tenants' }).waitFor();
      }
      expect(found).toEqual({});
    });
  });
});
