import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds each test file took in a CI run, by path (`npm run test:durations` writes it from the runs' JSON reports). */
export const DURATIONS_FILE = new URL('../durations.json', import.meta.url);

/**
 * Test files longest first, by DURATIONS_FILE, a file it does not know first of all (it may be long): a long file begun
 * last kept one worker busy while the others sat idle (vitest orders by its own cache, which a clean clone lacks, else
 * by size). A project's isolated files still come first, as vitest's own order has them.
 */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = JSON.parse(readFileSync(DURATIONS_FILE, 'utf8')) as Record<string, number>;
    const expected = (file: TestSpecification) => seconds[relative(file.project.config.root, file.moduleId)] ?? Number.POSITIVE_INFINITY;
    const isolatedFirst = (file: TestSpecification) => (file.project.config.isolate ? 0 : 1);
    return [...files].sort((a, b) => isolatedFirst(a) - isolatedFirst(b) || expected(b) - expected(a));
  }
}
