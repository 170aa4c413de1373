import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

/** The rules the hosted pages are held to: WCAG 2.0, 2.1 and 2.2, levels A and AA. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];
/**
 * axe-core's own build, evaluated in the page: the hosted pages' CSP (`default-src 'none'`) refuses the inline
 * <script> that `page.addScriptTag` would add, and bypassing the CSP would test another page than users get.
 */
const AXE_SOURCE = readFileSync('node_modules/axe-core/axe.min.js', 'utf8');

export interface Violation {
  id: string;
  help: string;
  nodes: { target: string; summary: string }[];
}

/** axe-core's WCAG A/AA violations on the page as it stands. */
export async function axeViolations(page: Page): Promise<Violation[]> {
  // Once a document: a single-page app's sections share the one it loaded.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (tags) => {
    const { axe } = window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: any[] }> } };
    const results = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return results.violations.map((violation) => ({
      id: violation.id as string,
      help: violation.help as string,
      nodes: (violation.nodes as { target: string[]; failureSummary: string }[]).map((node) => ({ target: node.target.join(' '), summary: node.failureSummary })),
    }));
  }, WCAG_TAGS);
}

/** Violations as an assertion's message shows them. */
export const printed = (state: string, violations: readonly Violation[]) =>
  `${state}: ${violations.length} axe violation(s)\n` +
  violations.map((violation) => `- ${violation.id} (${violation.help})\n${violation.nodes.map((node) => `    ${node.target}: ${node.summary}`).join('\n')}`).join('\n');
