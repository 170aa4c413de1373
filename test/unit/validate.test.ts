import { describe, expect, it } from 'vitest';
import { displayName, slugFromName } from '../../src/domain/validate.ts';
import { GatehouseError } from '../../src/errors.ts';

function refusal(run: () => unknown): { field: string | undefined; message: string } | undefined {
  try {
    run();
  } catch (error) {
    if (!(error instanceof GatehouseError)) throw error;
    expect(error.code).toBe('validation_error');
    return { field: error.field, message: error.message };
  }
  return undefined;
}

describe('displayName', () => {
  it('counts characters (code points), not UTF-16 units', () => {
    const emoji = '🦊'.repeat(150);
    expect(emoji.length).toBe(300);
    expect(displayName('name', emoji)).toBe(emoji);
    expect(displayName('name', '𝔄'.repeat(200))).toBe('𝔄'.repeat(200));
    expect(refusal(() => displayName('name', '𝔄'.repeat(201)))).toEqual({ field: 'name', message: 'name must be 1 to 200 characters' });
    expect(refusal(() => displayName('name', 'a'.repeat(201)))?.field).toBe('name');
  });

  it('refuses a name with no visible character', () => {
    for (const invisible of ['\u200b', '\u200b\u200d\u2060', '\u2060\ufeff', '\u3164', '\u115f\u1160', '\u0301', '\u200e\u200f']) {
      expect(refusal(() => displayName('name', invisible)), JSON.stringify(invisible)).toEqual({ field: 'name', message: 'name must contain a visible character' });
    }
    expect(refusal(() => displayName('name', '   '))?.message).toBe('name must be 1 to 200 characters');
  });

  it('refuses the directional controls that turn the text around (embeddings, overrides, isolates)', () => {
    for (const spoof of ['\u202eevil\u202c', 'invoice\u202egnp.exe', 'a\u202ab', 'a\u202db', '\u2066a\u2069', 'a\u2067b\u2069', 'a\u2068b']) {
      expect(refusal(() => displayName('name', spoof)), JSON.stringify(spoof)).toEqual({ field: 'name', message: 'name must not contain bidirectional control characters' });
    }
  });

  it('accepts the format characters writing systems and emoji need, and refuses control characters', () => {
    for (const name of ['👩\u200d💻 Ada', 'می\u200cخواهم', 'שלום\u200e (IL)', 'Zoë', 'Acme — 東京', '1\ufe0f\u20e3', 'O’Brien']) {
      expect(displayName('name', name), JSON.stringify(name)).toBe(name);
    }
    for (const control of ['a\u0000', 'a\nb', 'a\u0007', 'a\u0085b']) {
      expect(refusal(() => displayName('name', control))?.message, JSON.stringify(control)).toBe('name must not contain control characters');
    }
    expect(displayName('name', '  Acme  ')).toBe('Acme');
  });
});

describe('slugFromName', () => {
  it('keeps letters and digits as ASCII, dropping the combining marks of their decomposition', () => {
    expect(slugFromName('Ünïcödé')).toBe('unicode');
    expect(slugFromName('Crème Brûlée № 5')).toBe('creme-brulee-no-5');
    expect(slugFromName('İstanbul ﬁrm')).toBe('istanbul-firm');
    expect(slugFromName('Acme Corp')).toBe('acme-corp');
    expect(slugFromName('ACME')).toBe(slugFromName('Acme'));
  });

  it('falls back to `tenant` when nothing is left, and never derives a UUID', () => {
    expect(slugFromName('東京')).toBe('tenant');
    expect(slugFromName('---')).toBe('tenant');
    expect(slugFromName('0190A5D2-AC96-774B-BCCE-B302099A8057')).toBe('tenant-0190a5d2-ac96-774b-bcce-b302099a8057');
  });

  it('keeps 63 characters at most, with no trailing hyphen', () => {
    expect(slugFromName('x'.repeat(100))).toBe('x'.repeat(63));
    expect(slugFromName(`${'x'.repeat(62)} y`)).toBe('x'.repeat(62));
  });
});
