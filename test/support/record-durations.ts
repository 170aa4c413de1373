import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { DURATIONS_FILE } from './longest-first.ts';

/**
 * Writes DURATIONS_FILE from vitest JSON reports (CI's test-results/*.json by default): each file's longest time among
 * them, in whole seconds.
 */
const reports = process.argv.slice(2);
const seconds: Record<string, number> = {};
for (const report of reports.length > 0 ? reports : ['test-results/postgresql.json', 'test-results/embedded.json', 'test-results/browser.json']) {
  const { testResults } = JSON.parse(readFileSync(report, 'utf8')) as { testResults: { name: string; startTime: number; endTime: number }[] };
  for (const { name, startTime, endTime } of testResults) {
    const file = relative(process.cwd(), name);
    seconds[file] = Math.max(seconds[file] ?? 0, Math.ceil((endTime - startTime) / 1000));
  }
}
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(DURATIONS_FILE, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`${Object.keys(sorted).length} files' durations written to ${relative(process.cwd(), DURATIONS_FILE.pathname)}`);
