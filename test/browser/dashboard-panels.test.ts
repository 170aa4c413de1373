import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dashboardSuite, openTab } from '../support/dashboard.ts';

/**
 * The panels that open below a long table (a user's details and roles, a role's edit form), in Chromium: at a click
 * or a key press on their button, the panel's heading is scrolled into view and takes focus; Close gives focus back
 * to the button that opened it.
 */
const USER_COUNT = 25;
const ROLE_COUNT = 20;
const FIRST_USER = 'user01@example.com';

const dashboard = dashboardSuite({
  tab: 'Users',
  setup: async (app) => {
    for (let n = 1; n <= USER_COUNT; n += 1) await app.createUser(`user${String(n).padStart(2, '0')}@example.com`);
    for (let n = 1; n <= ROLE_COUNT; n += 1) {
      const key = `role-${String(n).padStart(2, '0')}`;
      expect((await app.http.post('/roles', { key, name: `Role ${key.slice(5)}`, permissions: ['users:read'] })).status).toBe(201);
    }
  },
});

const page = () => dashboard.page;
/** The focused element's tag and text: `button Details of …`, `h3 Details of …`. */
const focused = () => page().evaluate(() => `${document.activeElement?.tagName.toLowerCase()} ${document.activeElement?.textContent}`);

/** Whether the whole of `element` lies in the viewport, to within a pixel: the page scrolls by whole pixels, and its
 *  layout falls on fractions of one. */
async function inView(element: Locator): Promise<boolean> {
  const box = await element.boundingBox();
  const viewport = page().viewportSize();
  return box !== null && viewport !== null && box.y > -1 && box.y + box.height < viewport.height + 1;
}

async function expectOpened(heading: Locator): Promise<void> {
  await heading.waitFor();
  await expect.poll(focused).toMatch(new RegExp(`^h[23] ${await heading.textContent()}$`));
  expect(await inView(heading)).toBe(true);
}

describe('panels opened below a table in Chromium', () => {
  it("brings a user's details into view with focus on its heading, and Close returns focus to Details", async () => {
    const details = page().getByRole('button', { name: `Details of ${FIRST_USER}` });
    await details.click();
    const heading = page().getByRole('heading', { name: `Details of ${FIRST_USER}` });
    await expectOpened(heading);

    await page().getByRole('region', { name: `Details of ${FIRST_USER}` }).getByRole('button', { name: 'Close' }).click();
    await heading.waitFor({ state: 'detached' });
    await expect.poll(focused).toBe(`button Details of ${FIRST_USER}`);
  });

  it("opens a user's roles from the keyboard the same way", async () => {
    await page().getByRole('button', { name: `Roles of ${FIRST_USER}` }).focus();
    await page().keyboard.press('Enter');
    const heading = page().getByRole('heading', { name: `Roles of ${FIRST_USER}` });
    await expectOpened(heading);

    await page().getByRole('region', { name: `Roles of ${FIRST_USER}` }).getByRole('button', { name: 'Close' }).focus();
    await page().keyboard.press('Enter');
    await heading.waitFor({ state: 'detached' });
    await expect.poll(focused).toBe(`button Roles of ${FIRST_USER}`);
  });

  it("brings a role's edit form into view with focus on its heading, and Close returns focus to Edit", async () => {
    await openTab(page(), 'Roles');
    await page().getByRole('button', { name: 'Edit Role 01' }).click();
    const heading = page().getByRole('heading', { name: 'Edit Role 01' });
    await expectOpened(heading);

    await page().getByRole('region', { name: 'Edit Role 01' }).getByRole('button', { name: 'Close' }).click();
    await heading.waitFor({ state: 'detached' });
    await expect.poll(focused).toBe('button Edit Role 01');
  });
});
